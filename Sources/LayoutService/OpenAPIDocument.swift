/// `openapi.yaml`, served at `GET /openapi.yaml`: the top-level file, compiled into the
/// binary by SwiftPM (`.embedInCode` of `Sources/LayoutService/openapi.yaml`, a symlink
/// to it), so the binary needs no resource bundle and the file is the only copy.
/// `HandlerTests.servedOpenAPIDocumentIsTheFile` checks the served bytes against the file.
enum OpenAPIDocument {
    static let bytes: [UInt8] = PackageResources.openapi_yaml
}
