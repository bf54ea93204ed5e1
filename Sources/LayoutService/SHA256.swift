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

    /// Appends the 32 bytes of `digest` to the message.
    mutating func update(_ digest: SHA256Digest) {
        digest.withUnsafeBytes { update($0) }
    }

    /// Pads the message (FIPS 180-4 §5.1.1) and returns the 32-byte digest. The hasher
    /// is spent afterwards: make a new one for the next message.
    mutating func finalize() -> SHA256Digest {
        var digest = SHA256Digest()
        _ = digest.withUnsafeMutableBytes { SHA256_Final($0.baseAddress?.assumingMemoryBound(to: UInt8.self), &context) }
        return digest
    }

    /// Pads and returns the digest as 64 lowercase hexadecimal characters (``SHA256Digest/hex``).
    mutating func finalizeHex() -> String {
        finalize().hex
    }

    /// The 32-byte digest of `message`.
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(message)
        return hasher.finalize().bytes
    }

    /// The digest of `message` as 64 lowercase hexadecimal characters.
    static func hexDigest(_ message: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update(message)
        return hasher.finalizeHex()
    }
}

/// A SHA-256 digest: 32 bytes, held inline (no allocation), compared and hashed as four
/// words. What names a structure in the caches (``CacheKey/structureDigest(_:reservingCapacity:)``,
/// ``CacheKey/structureKey(digest:groups:)``); ``hex`` is the form the result cache's
/// keys take. `SHA256Tests` and `SceneEngineTests.keyIsSHA256OfTheDocumentedMessage`
/// hold its bytes and its hex.
struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
    /// The number of bytes: 32.
    static let byteCount = 32

    /// The bytes in order (a homogeneous tuple is laid out as a C array).
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// 32 zero bytes, to be filled.
    init() {}

    /// The digest of these 32 `bytes`. - Precondition: `bytes.count == 32`.
    init(bytes: [UInt8]) {
        precondition(bytes.count == Self.byteCount, "a SHA-256 digest is 32 bytes")
        withUnsafeMutableBytes { $0.copyBytes(from: bytes) }
    }

    /// Runs `body` with the 32 bytes.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: words, body)
    }

    /// Runs `body` with the 32 bytes, writable.
    mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeMutableBytes(of: &words, body)
    }

    /// The 32 bytes.
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The 64 lowercase hexadecimal digits of the bytes, in order.
    var hex: String {
        withUnsafeBytes { digest in
            String(unsafeUninitializedCapacity: 2 * Self.byteCount) { buffer in
                let digits: StaticString = "0123456789abcdef"
                let digit = digits.utf8Start
                for (index, byte) in digest.enumerated() {
                    buffer[2 * index] = digit[Int(byte >> 4)]
                    buffer[2 * index + 1] = digit[Int(byte & 0x0F)]
                }
                return 2 * Self.byteCount
            }
        }
    }

    /// ``hex``.
    var description: String { hex }

    static func == (a: SHA256Digest, b: SHA256Digest) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
