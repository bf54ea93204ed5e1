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
    /// §6.2.2), unrolled: the working variables rotate by renaming instead of moving,
    /// and the message schedule lives in sixteen locals (`w0`…`w15`, reused as a rolling
    /// window). Generated text; the loop form is in the standard.
    private mutating func compress(_ blockStart: UnsafeRawPointer, _ k: UnsafeBufferPointer<UInt32>) {
        let k = k.baseAddress!
        var (a, b, c, d, e, f, g, hh) = h
        var w0 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        var w1 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        var w2 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        var w3 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        var w4 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
        var w5 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
        var w6 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
        var w7 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
        var w8 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
        var w9 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 36, as: UInt32.self))
        var w10 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 40, as: UInt32.self))
        var w11 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 44, as: UInt32.self))
        var w12 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 48, as: UInt32.self))
        var w13 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
        var w14 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 56, as: UInt32.self))
        var w15 = UInt32(bigEndian: blockStart.loadUnaligned(fromByteOffset: 60, as: UInt32.self))
        round(a, b, c, &d, e, f, g, &hh, k[0] &+ w0)
        round(hh, a, b, &c, d, e, f, &g, k[1] &+ w1)
        round(g, hh, a, &b, c, d, e, &f, k[2] &+ w2)
        round(f, g, hh, &a, b, c, d, &e, k[3] &+ w3)
        round(e, f, g, &hh, a, b, c, &d, k[4] &+ w4)
        round(d, e, f, &g, hh, a, b, &c, k[5] &+ w5)
        round(c, d, e, &f, g, hh, a, &b, k[6] &+ w6)
        round(b, c, d, &e, f, g, hh, &a, k[7] &+ w7)
        round(a, b, c, &d, e, f, g, &hh, k[8] &+ w8)
        round(hh, a, b, &c, d, e, f, &g, k[9] &+ w9)
        round(g, hh, a, &b, c, d, e, &f, k[10] &+ w10)
        round(f, g, hh, &a, b, c, d, &e, k[11] &+ w11)
        round(e, f, g, &hh, a, b, c, &d, k[12] &+ w12)
        round(d, e, f, &g, hh, a, b, &c, k[13] &+ w13)
        round(c, d, e, &f, g, hh, a, &b, k[14] &+ w14)
        round(b, c, d, &e, f, g, hh, &a, k[15] &+ w15)
        w0 = w0 &+ (rotr(w1, 7) ^ rotr(w1, 18) ^ (w1 >> 3)) &+ w9 &+ (rotr(w14, 17) ^ rotr(w14, 19) ^ (w14 >> 10))
        round(a, b, c, &d, e, f, g, &hh, k[16] &+ w0)
        w1 = w1 &+ (rotr(w2, 7) ^ rotr(w2, 18) ^ (w2 >> 3)) &+ w10 &+ (rotr(w15, 17) ^ rotr(w15, 19) ^ (w15 >> 10))
        round(hh, a, b, &c, d, e, f, &g, k[17] &+ w1)
        w2 = w2 &+ (rotr(w3, 7) ^ rotr(w3, 18) ^ (w3 >> 3)) &+ w11 &+ (rotr(w0, 17) ^ rotr(w0, 19) ^ (w0 >> 10))
        round(g, hh, a, &b, c, d, e, &f, k[18] &+ w2)
        w3 = w3 &+ (rotr(w4, 7) ^ rotr(w4, 18) ^ (w4 >> 3)) &+ w12 &+ (rotr(w1, 17) ^ rotr(w1, 19) ^ (w1 >> 10))
        round(f, g, hh, &a, b, c, d, &e, k[19] &+ w3)
        w4 = w4 &+ (rotr(w5, 7) ^ rotr(w5, 18) ^ (w5 >> 3)) &+ w13 &+ (rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10))
        round(e, f, g, &hh, a, b, c, &d, k[20] &+ w4)
        w5 = w5 &+ (rotr(w6, 7) ^ rotr(w6, 18) ^ (w6 >> 3)) &+ w14 &+ (rotr(w3, 17) ^ rotr(w3, 19) ^ (w3 >> 10))
        round(d, e, f, &g, hh, a, b, &c, k[21] &+ w5)
        w6 = w6 &+ (rotr(w7, 7) ^ rotr(w7, 18) ^ (w7 >> 3)) &+ w15 &+ (rotr(w4, 17) ^ rotr(w4, 19) ^ (w4 >> 10))
        round(c, d, e, &f, g, hh, a, &b, k[22] &+ w6)
        w7 = w7 &+ (rotr(w8, 7) ^ rotr(w8, 18) ^ (w8 >> 3)) &+ w0 &+ (rotr(w5, 17) ^ rotr(w5, 19) ^ (w5 >> 10))
        round(b, c, d, &e, f, g, hh, &a, k[23] &+ w7)
        w8 = w8 &+ (rotr(w9, 7) ^ rotr(w9, 18) ^ (w9 >> 3)) &+ w1 &+ (rotr(w6, 17) ^ rotr(w6, 19) ^ (w6 >> 10))
        round(a, b, c, &d, e, f, g, &hh, k[24] &+ w8)
        w9 = w9 &+ (rotr(w10, 7) ^ rotr(w10, 18) ^ (w10 >> 3)) &+ w2 &+ (rotr(w7, 17) ^ rotr(w7, 19) ^ (w7 >> 10))
        round(hh, a, b, &c, d, e, f, &g, k[25] &+ w9)
        w10 = w10 &+ (rotr(w11, 7) ^ rotr(w11, 18) ^ (w11 >> 3)) &+ w3 &+ (rotr(w8, 17) ^ rotr(w8, 19) ^ (w8 >> 10))
        round(g, hh, a, &b, c, d, e, &f, k[26] &+ w10)
        w11 = w11 &+ (rotr(w12, 7) ^ rotr(w12, 18) ^ (w12 >> 3)) &+ w4 &+ (rotr(w9, 17) ^ rotr(w9, 19) ^ (w9 >> 10))
        round(f, g, hh, &a, b, c, d, &e, k[27] &+ w11)
        w12 = w12 &+ (rotr(w13, 7) ^ rotr(w13, 18) ^ (w13 >> 3)) &+ w5 &+ (rotr(w10, 17) ^ rotr(w10, 19) ^ (w10 >> 10))
        round(e, f, g, &hh, a, b, c, &d, k[28] &+ w12)
        w13 = w13 &+ (rotr(w14, 7) ^ rotr(w14, 18) ^ (w14 >> 3)) &+ w6 &+ (rotr(w11, 17) ^ rotr(w11, 19) ^ (w11 >> 10))
        round(d, e, f, &g, hh, a, b, &c, k[29] &+ w13)
        w14 = w14 &+ (rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)) &+ w7 &+ (rotr(w12, 17) ^ rotr(w12, 19) ^ (w12 >> 10))
        round(c, d, e, &f, g, hh, a, &b, k[30] &+ w14)
        w15 = w15 &+ (rotr(w0, 7) ^ rotr(w0, 18) ^ (w0 >> 3)) &+ w8 &+ (rotr(w13, 17) ^ rotr(w13, 19) ^ (w13 >> 10))
        round(b, c, d, &e, f, g, hh, &a, k[31] &+ w15)
        w0 = w0 &+ (rotr(w1, 7) ^ rotr(w1, 18) ^ (w1 >> 3)) &+ w9 &+ (rotr(w14, 17) ^ rotr(w14, 19) ^ (w14 >> 10))
        round(a, b, c, &d, e, f, g, &hh, k[32] &+ w0)
        w1 = w1 &+ (rotr(w2, 7) ^ rotr(w2, 18) ^ (w2 >> 3)) &+ w10 &+ (rotr(w15, 17) ^ rotr(w15, 19) ^ (w15 >> 10))
        round(hh, a, b, &c, d, e, f, &g, k[33] &+ w1)
        w2 = w2 &+ (rotr(w3, 7) ^ rotr(w3, 18) ^ (w3 >> 3)) &+ w11 &+ (rotr(w0, 17) ^ rotr(w0, 19) ^ (w0 >> 10))
        round(g, hh, a, &b, c, d, e, &f, k[34] &+ w2)
        w3 = w3 &+ (rotr(w4, 7) ^ rotr(w4, 18) ^ (w4 >> 3)) &+ w12 &+ (rotr(w1, 17) ^ rotr(w1, 19) ^ (w1 >> 10))
        round(f, g, hh, &a, b, c, d, &e, k[35] &+ w3)
        w4 = w4 &+ (rotr(w5, 7) ^ rotr(w5, 18) ^ (w5 >> 3)) &+ w13 &+ (rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10))
        round(e, f, g, &hh, a, b, c, &d, k[36] &+ w4)
        w5 = w5 &+ (rotr(w6, 7) ^ rotr(w6, 18) ^ (w6 >> 3)) &+ w14 &+ (rotr(w3, 17) ^ rotr(w3, 19) ^ (w3 >> 10))
        round(d, e, f, &g, hh, a, b, &c, k[37] &+ w5)
        w6 = w6 &+ (rotr(w7, 7) ^ rotr(w7, 18) ^ (w7 >> 3)) &+ w15 &+ (rotr(w4, 17) ^ rotr(w4, 19) ^ (w4 >> 10))
        round(c, d, e, &f, g, hh, a, &b, k[38] &+ w6)
        w7 = w7 &+ (rotr(w8, 7) ^ rotr(w8, 18) ^ (w8 >> 3)) &+ w0 &+ (rotr(w5, 17) ^ rotr(w5, 19) ^ (w5 >> 10))
        round(b, c, d, &e, f, g, hh, &a, k[39] &+ w7)
        w8 = w8 &+ (rotr(w9, 7) ^ rotr(w9, 18) ^ (w9 >> 3)) &+ w1 &+ (rotr(w6, 17) ^ rotr(w6, 19) ^ (w6 >> 10))
        round(a, b, c, &d, e, f, g, &hh, k[40] &+ w8)
        w9 = w9 &+ (rotr(w10, 7) ^ rotr(w10, 18) ^ (w10 >> 3)) &+ w2 &+ (rotr(w7, 17) ^ rotr(w7, 19) ^ (w7 >> 10))
        round(hh, a, b, &c, d, e, f, &g, k[41] &+ w9)
        w10 = w10 &+ (rotr(w11, 7) ^ rotr(w11, 18) ^ (w11 >> 3)) &+ w3 &+ (rotr(w8, 17) ^ rotr(w8, 19) ^ (w8 >> 10))
        round(g, hh, a, &b, c, d, e, &f, k[42] &+ w10)
        w11 = w11 &+ (rotr(w12, 7) ^ rotr(w12, 18) ^ (w12 >> 3)) &+ w4 &+ (rotr(w9, 17) ^ rotr(w9, 19) ^ (w9 >> 10))
        round(f, g, hh, &a, b, c, d, &e, k[43] &+ w11)
        w12 = w12 &+ (rotr(w13, 7) ^ rotr(w13, 18) ^ (w13 >> 3)) &+ w5 &+ (rotr(w10, 17) ^ rotr(w10, 19) ^ (w10 >> 10))
        round(e, f, g, &hh, a, b, c, &d, k[44] &+ w12)
        w13 = w13 &+ (rotr(w14, 7) ^ rotr(w14, 18) ^ (w14 >> 3)) &+ w6 &+ (rotr(w11, 17) ^ rotr(w11, 19) ^ (w11 >> 10))
        round(d, e, f, &g, hh, a, b, &c, k[45] &+ w13)
        w14 = w14 &+ (rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)) &+ w7 &+ (rotr(w12, 17) ^ rotr(w12, 19) ^ (w12 >> 10))
        round(c, d, e, &f, g, hh, a, &b, k[46] &+ w14)
        w15 = w15 &+ (rotr(w0, 7) ^ rotr(w0, 18) ^ (w0 >> 3)) &+ w8 &+ (rotr(w13, 17) ^ rotr(w13, 19) ^ (w13 >> 10))
        round(b, c, d, &e, f, g, hh, &a, k[47] &+ w15)
        w0 = w0 &+ (rotr(w1, 7) ^ rotr(w1, 18) ^ (w1 >> 3)) &+ w9 &+ (rotr(w14, 17) ^ rotr(w14, 19) ^ (w14 >> 10))
        round(a, b, c, &d, e, f, g, &hh, k[48] &+ w0)
        w1 = w1 &+ (rotr(w2, 7) ^ rotr(w2, 18) ^ (w2 >> 3)) &+ w10 &+ (rotr(w15, 17) ^ rotr(w15, 19) ^ (w15 >> 10))
        round(hh, a, b, &c, d, e, f, &g, k[49] &+ w1)
        w2 = w2 &+ (rotr(w3, 7) ^ rotr(w3, 18) ^ (w3 >> 3)) &+ w11 &+ (rotr(w0, 17) ^ rotr(w0, 19) ^ (w0 >> 10))
        round(g, hh, a, &b, c, d, e, &f, k[50] &+ w2)
        w3 = w3 &+ (rotr(w4, 7) ^ rotr(w4, 18) ^ (w4 >> 3)) &+ w12 &+ (rotr(w1, 17) ^ rotr(w1, 19) ^ (w1 >> 10))
        round(f, g, hh, &a, b, c, d, &e, k[51] &+ w3)
        w4 = w4 &+ (rotr(w5, 7) ^ rotr(w5, 18) ^ (w5 >> 3)) &+ w13 &+ (rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10))
        round(e, f, g, &hh, a, b, c, &d, k[52] &+ w4)
        w5 = w5 &+ (rotr(w6, 7) ^ rotr(w6, 18) ^ (w6 >> 3)) &+ w14 &+ (rotr(w3, 17) ^ rotr(w3, 19) ^ (w3 >> 10))
        round(d, e, f, &g, hh, a, b, &c, k[53] &+ w5)
        w6 = w6 &+ (rotr(w7, 7) ^ rotr(w7, 18) ^ (w7 >> 3)) &+ w15 &+ (rotr(w4, 17) ^ rotr(w4, 19) ^ (w4 >> 10))
        round(c, d, e, &f, g, hh, a, &b, k[54] &+ w6)
        w7 = w7 &+ (rotr(w8, 7) ^ rotr(w8, 18) ^ (w8 >> 3)) &+ w0 &+ (rotr(w5, 17) ^ rotr(w5, 19) ^ (w5 >> 10))
        round(b, c, d, &e, f, g, hh, &a, k[55] &+ w7)
        w8 = w8 &+ (rotr(w9, 7) ^ rotr(w9, 18) ^ (w9 >> 3)) &+ w1 &+ (rotr(w6, 17) ^ rotr(w6, 19) ^ (w6 >> 10))
        round(a, b, c, &d, e, f, g, &hh, k[56] &+ w8)
        w9 = w9 &+ (rotr(w10, 7) ^ rotr(w10, 18) ^ (w10 >> 3)) &+ w2 &+ (rotr(w7, 17) ^ rotr(w7, 19) ^ (w7 >> 10))
        round(hh, a, b, &c, d, e, f, &g, k[57] &+ w9)
        w10 = w10 &+ (rotr(w11, 7) ^ rotr(w11, 18) ^ (w11 >> 3)) &+ w3 &+ (rotr(w8, 17) ^ rotr(w8, 19) ^ (w8 >> 10))
        round(g, hh, a, &b, c, d, e, &f, k[58] &+ w10)
        w11 = w11 &+ (rotr(w12, 7) ^ rotr(w12, 18) ^ (w12 >> 3)) &+ w4 &+ (rotr(w9, 17) ^ rotr(w9, 19) ^ (w9 >> 10))
        round(f, g, hh, &a, b, c, d, &e, k[59] &+ w11)
        w12 = w12 &+ (rotr(w13, 7) ^ rotr(w13, 18) ^ (w13 >> 3)) &+ w5 &+ (rotr(w10, 17) ^ rotr(w10, 19) ^ (w10 >> 10))
        round(e, f, g, &hh, a, b, c, &d, k[60] &+ w12)
        w13 = w13 &+ (rotr(w14, 7) ^ rotr(w14, 18) ^ (w14 >> 3)) &+ w6 &+ (rotr(w11, 17) ^ rotr(w11, 19) ^ (w11 >> 10))
        round(d, e, f, &g, hh, a, b, &c, k[61] &+ w13)
        w14 = w14 &+ (rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)) &+ w7 &+ (rotr(w12, 17) ^ rotr(w12, 19) ^ (w12 >> 10))
        round(c, d, e, &f, g, hh, a, &b, k[62] &+ w14)
        w15 = w15 &+ (rotr(w0, 7) ^ rotr(w0, 18) ^ (w0 >> 3)) &+ w8 &+ (rotr(w13, 17) ^ rotr(w13, 19) ^ (w13 >> 10))
        round(b, c, d, &e, f, g, hh, &a, k[63] &+ w15)
        h.0 &+= a; h.1 &+= b; h.2 &+= c; h.3 &+= d
        h.4 &+= e; h.5 &+= f; h.6 &+= g; h.7 &+= hh
    }

    /// One round (FIPS 180-4 §6.2.2 step 3) with the roles of the working variables
    /// given by position: `d` and `h` are the two that change (`d + T1` becomes the new
    /// `e`, `T1 + T2` the new `a`; the caller renames the rest).
    @inline(__always)
    private func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                       _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ kw
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
        d = d &+ t1
        h = t1 &+ t2
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

    @inline(__always)
    private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
