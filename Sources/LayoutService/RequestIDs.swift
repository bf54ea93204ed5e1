import Synchronization

/// New `X-Request-Id` values for requests that bring none of their own.
///
/// Each is 16 lowercase hexadecimal digits. A process draws one random 64-bit key at its
/// first request (one `getrandom`) and numbers its requests with an atomic counter; the
/// identifier is SplitMix64's output function applied to `key + n × 0x9E3779B97F4A7C15`
/// (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
/// Both steps are bijections of `UInt64`, so a process never repeats an identifier within
/// 2⁶⁴ requests, and two processes' identifiers collide only as two random draws do. No
/// request makes a system call for its identifier. Held by `RequestIDTests`.
enum RequestIDs {
    private static let key: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()
    private static let counter = Atomic<UInt64>(0)

    /// The next identifier: 16 lowercase hex digits. O(1), lock-free.
    static func next() -> String {
        let n = counter.add(1, ordering: .relaxed).oldValue
        return hex(mix(key &+ n &* 0x9E37_79B9_7F4A_7C15))
    }

    /// SplitMix64's output function, a bijection of `UInt64`.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `value` as 16 lowercase hex digits, most significant first.
    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for i in 0..<16 {
                let digit = UInt8(truncatingIfNeeded: (value >> UInt64(60 - 4 * i)) & 0xF)
                buffer[i] = digit < 10 ? 0x30 + digit : 0x57 + digit
            }
            return 16
        }
    }
}
