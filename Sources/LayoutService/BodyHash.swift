/// A keyed 64-bit hash of a byte string for the in-memory tables keyed by whole request
/// bodies (``FrontCacheKey``): wyhash (Wang Yi, <https://github.com/wangyi-fudan/wyhash>,
/// final version 4, public domain), 48 bytes per round of three 64×64→128-bit
/// multiplications, about a tenth of the instructions of `Hasher`'s SipHash-1-3 on a
/// 2 KB body.
///
/// Keyed per process: the seed and the four secrets are drawn from the system's random
/// source at first use (each secret made odd), so a client cannot choose bodies that
/// collide, nor the inputs (a word equal to a secret) that make a round's product zero
/// and drop the seed. Never persisted or compared across processes; the caches' own keys
/// are the exact bytes (a hash only picks the bucket, and equal hashes still compare
/// the bytes). Held by `BodyHashTests.bodyHashSeesEveryByteAndLength`.
///
/// - Complexity: O(`bytes.count`), no allocation.
enum BodyHash {
    private struct Key {
        let seed: UInt64
        let s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

        init() {
            var random = SystemRandomNumberGenerator()
            seed = random.next()
            s0 = random.next() | 1
            s1 = random.next() | 1
            s2 = random.next() | 1
            s3 = random.next() | 1
        }
    }

    private static let key = Key()

    /// The low and high halves of the 128-bit product, xor-ed (wyhash's `_wymix`).
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.low ^ product.high
    }

    @inline(__always)
    private static func read8(_ p: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func read4(_ p: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// The hash of `bytes` under this process's key, mixed with `tag` (a key's space).
    static func hash(_ bytes: UnsafeRawBufferPointer, tag: UInt8) -> Int {
        let k = key
        var seed = k.seed ^ UInt64(tag)
        seed ^= mix(seed ^ k.s0, k.s1)
        let length = bytes.count
        var a: UInt64 = 0, b: UInt64 = 0
        if let p = bytes.baseAddress, length > 0 {
            if length <= 16 {
                if length >= 4 {
                    let step = (length >> 3) << 2
                    a = (read4(p, 0) << 32) | read4(p, step)
                    b = (read4(p, length - 4) << 32) | read4(p, length - 4 - step)
                } else {
                    a = (UInt64(bytes[0]) << 16) | (UInt64(bytes[length >> 1]) << 8) | UInt64(bytes[length - 1])
                }
            } else {
                var offset = 0
                var remaining = length
                if remaining > 48 {
                    var see1 = seed, see2 = seed
                    repeat {
                        seed = mix(read8(p, offset) ^ k.s1, read8(p, offset + 8) ^ seed)
                        see1 = mix(read8(p, offset + 16) ^ k.s2, read8(p, offset + 24) ^ see1)
                        see2 = mix(read8(p, offset + 32) ^ k.s3, read8(p, offset + 40) ^ see2)
                        offset += 48
                        remaining -= 48
                    } while remaining > 48
                    seed ^= see1 ^ see2
                }
                while remaining > 16 {
                    seed = mix(read8(p, offset) ^ k.s1, read8(p, offset + 8) ^ seed)
                    offset += 16
                    remaining -= 16
                }
                a = read8(p, offset + remaining - 16)
                b = read8(p, offset + remaining - 8)
            }
        }
        let product = (a ^ k.s1).multipliedFullWidth(by: b ^ seed)
        return Int(truncatingIfNeeded: mix(product.low ^ k.s0 ^ UInt64(length), product.high ^ k.s1))
    }
}
