import CCrypto

/// SHA-256 (FIPS 180-4), for cache keys: OpenSSL's libcrypto (`SHA256_Init`,
/// `SHA256_Update`, `SHA256_Final`, through the `CCrypto` system library). It only names
/// cache entries, never protects a secret.
///
/// Incremental: ``update(_:)`` takes the message in pieces (a cache key hashes its
/// prefix, the canonical scene and the group versions without joining them), and
/// ``finalize()`` pads and returns the digest. The state is OpenSSL's `SHA256_CTX`,
/// held inline: hashing allocates nothing but the digest. `SHA256Tests` checks the
/// FIPS 180-4 / NIST examples, messages given in pieces, and the padding boundaries.
///
/// - Complexity: O(n) in the message length.
struct SHA256 {
    /// OpenSSL's hash state (the hash value, the block being filled, the length so far).
    private var context = SHA256_CTX()

    /// A hasher at the initial hash value (FIPS 180-4 §5.3.3).
    init() {
        SHA256_Init(&context)
    }

    /// Appends `bytes` to the message.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        SHA256_Update(&context, base, bytes.count)
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

    /// Pads the message (FIPS 180-4 §5.1.1) and returns the 32-byte digest. The hasher
    /// is spent afterwards: make a new one for the next message.
    mutating func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { buffer, count in
            SHA256_Final(buffer.baseAddress, &context)
            count = 32
        }
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
}
