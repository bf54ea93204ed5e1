import Foundation
@testable import LayoutService
import Testing

/// SHA-256 (libcrypto through `CCrypto`) against the FIPS 180-4 examples (and the
/// two-block NIST vector).
struct SHA256Tests {
    @Test("FIPS 180-4 vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func vectors(_ message: String, _ digest: String) {
        #expect(SHA256.hexDigest(Array(message.utf8)) == digest)
    }

    @Test func millionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// A message given in pieces of every size from 1 to 130 bytes (pieces that end
    /// inside a block, on a block boundary, and span several blocks) hashes as in one piece.
    @Test func piecesHashAsTheWholeMessage() {
        let message = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = SHA256.hexDigest(message)
        for size in 1...130 {
            var hasher = SHA256()
            var start = 0
            while start < message.count {
                let end = min(message.count, start + size)
                message[start..<end].withUnsafeBytes { hasher.update($0) }
                start = end
            }
            #expect(hasher.finalizeHex() == whole, "pieces of \(size) bytes")
        }
        // Lengths around the padding boundary (55, 56, 63, 64 bytes in the last block);
        // digests from Python's hashlib.
        let expected: [(Int, String)] = [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
            (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
            (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        ]
        for (length, digest) in expected {
            var hasher = SHA256()
            hasher.update(String(repeating: "a", count: length))
            #expect(hasher.finalizeHex() == digest, "\(length) bytes")
        }
    }

    /// NIST's 896-bit two-block vector (FIPS 180-4 examples), whose padding needs a second block.
    @Test func paddingInASecondBlock() {
        let message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(SHA256.hexDigest(Array(message.utf8)) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }
}
