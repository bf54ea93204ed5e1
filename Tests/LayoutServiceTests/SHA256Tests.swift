import Foundation
@testable import LayoutService
import Testing

/// SHA-256 against the FIPS 180-4 examples (and the two-block NIST vector).
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
}

/// The served `openapi.yaml` is the file at the top of the repository, byte for byte
/// (`scripts/embed-openapi.sh` regenerates the embedded copy).
struct OpenAPIDocumentTests {
    @Test func embeddedCopyEqualsTheFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
        let onDisk = try [UInt8](Data(contentsOf: file))
        #expect(OpenAPIDocument.bytes == onDisk, "run scripts/embed-openapi.sh")
    }
}
