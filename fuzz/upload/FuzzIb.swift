// libFuzzer entry for the Interface Builder importer: bytes → InterfaceBuilderImporter →
// each hierarchy's scene decoded, compiled and solved. Build: scripts/fuzz-upload-smoke.sh.
// The invariants are IBFuzz.checkDocument (Tests/InterfaceBuilderTests/IBFuzzInvariants.swift).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIb(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let failure = IBFuzz.checkDocument(bytes) { fatalError("Interface Builder invariant broken: \(failure)") }
    return 0
}
