/// SHA-256 (FIPS 180-4), for cache keys.
///
/// The toolchain on Linux has no CryptoKit and layoutd takes no outside packages, so
/// this is the standard's algorithm written out; tests check it against the FIPS 180-4
/// examples. It is only used to name cache entries, never for secrets.
///
/// Incremental: ``update(_:)`` takes the message in pieces (a cache key hashes its
/// prefix, the canonical scene and the group versions without joining them), and
/// ``finalize()`` pads (FIPS 180-4 §5.1.1) and returns the digest. The state is eight
/// words and one 64-byte block buffer, all inline: hashing allocates nothing.
///
/// - Complexity: O(n) in the message length.
struct SHA256 {
    /// The round constants (FIPS 180-4 §4.2.2).
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The hash value H (FIPS 180-4 §5.3.3 initial value).
    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    /// The bytes of the block being filled (`count % 64` of them are valid).
    private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Message bytes hashed so far.
    private var count: UInt64 = 0

    /// A hasher at the initial hash value.
    init() {}

    /// Appends `bytes` to the message.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var source = bytes.baseAddress else { return }
        var remaining = bytes.count
        var filled = Int(count % 64)
        count &+= UInt64(remaining)
        Self.k.withUnsafeBufferPointer { k in
            while remaining > 0 {
                if filled == 0 && remaining >= 64 {
                    compress(UnsafeRawPointer(source), k)
                    source += 64
                    remaining -= 64
                    continue
                }
                let take = min(64 - filled, remaining)
                withUnsafeMutableBytes(of: &block) { buffer in
                    buffer.baseAddress!.advanced(by: filled).copyMemory(from: source, byteCount: take)
                }
                source += take
                remaining -= take
                filled += take
                if filled == 64 {
                    var copy = block
                    withUnsafeBytes(of: &copy) { compress($0.baseAddress!, k) }
                    filled = 0
                }
            }
        }
    }

    /// Appends the bytes of an array.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Appends the UTF-8 of a string.
    mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Pads the message (a 1 bit, zeros, the 64-bit big-endian bit length) and returns
    /// the 32-byte digest.
    mutating func finalize() -> [UInt8] {
        let bitLength = count &* 8
        var padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        let filled = Int(count % 64)
        let padLength = filled < 56 ? 56 - filled : 120 - filled
        withUnsafeMutableBytes(of: &padding) { buffer in
            buffer[0] = 0x80
            for index in 0..<8 {
                buffer[padLength + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index))
            }
        }
        withUnsafeBytes(of: &padding) { update(UnsafeRawBufferPointer(rebasing: $0[0..<(padLength + 8)])) }
        var digest = [UInt8](repeating: 0, count: 32)
        let words = [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7]
        for (index, word) in words.enumerated() {
            digest[4 * index] = UInt8(truncatingIfNeeded: word >> 24)
            digest[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 16)
            digest[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 8)
            digest[4 * index + 3] = UInt8(truncatingIfNeeded: word)
        }
        return digest
    }

    /// Pads and returns the digest as 64 lowercase hexadecimal characters.
    mutating func finalizeHex() -> String {
        let digest = finalize()
        return String(unsafeUninitializedCapacity: 64) { buffer in
            let hex: StaticString = "0123456789abcdef"
            let digits = hex.utf8Start
            for (index, byte) in digest.enumerated() {
                buffer[2 * index] = digits[Int(byte >> 4)]
                buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return 64
        }
    }

    /// One application of the compression function to a 64-byte block (FIPS 180-4
    /// §6.2.2), with the message schedule kept in a 16-word rolling window.
    private mutating func compress(_ blockStart: UnsafeRawPointer, _ k: UnsafeBufferPointer<UInt32>) {
        var w: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var (a, b, c, d, e, f, g, hh) = h
        withUnsafeMutableBytes(of: &w) { raw in
            let w = raw.bindMemory(to: UInt32.self)
            for i in 0..<16 {
                w[i] = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
            }
            for i in 0..<64 {
                let wi: UInt32
                if i < 16 {
                    wi = w[i]
                } else {
                    let w15 = w[(i - 15) & 15], w2 = w[(i - 2) & 15]
                    let s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)
                    let s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10)
                    wi = w[i & 15] &+ s0 &+ w[(i - 7) & 15] &+ s1
                    w[i & 15] = wi
                }
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ choice &+ k[i] &+ wi
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
            }
        }
        h.0 &+= a; h.1 &+= b; h.2 &+= c; h.3 &+= d
        h.4 &+= e; h.5 &+= f; h.6 &+= g; h.7 &+= hh
    }

    /// The 32-byte digest of `message`.
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(message)
        return hasher.finalize()
    }

    /// The digest of `message` as 64 lowercase hexadecimal characters.
    static func hexDigest(_ message: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update(message)
        return hasher.finalizeHex()
    }

    private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
