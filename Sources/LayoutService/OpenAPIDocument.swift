/// `openapi.yaml`, served at `GET /openapi.yaml`, compiled into the binary (see
/// `scripts/embed-openapi.sh`; a test checks the copy equals the file).
enum OpenAPIDocument {
    static let bytes: [UInt8] = Array(text.utf8)
}
