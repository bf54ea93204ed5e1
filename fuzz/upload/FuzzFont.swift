// libFuzzer entry for the stored-font upload path: bytes → FontFileCheck → a HarfBuzz face
// loaded from the bytes (LoadedFace(_:bytes:), as a stored face is: no temporary file) →
// strings measured with it. Build: scripts/fuzz-upload-smoke.sh. The invariants are
// FontFuzz.checkFont (Tests/TextLayoutTests/FontFuzzInvariants.swift).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFont(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let failure = FontFuzz.checkFont(bytes) { fatalError("font invariant broken: \(failure)") }
    return 0
}
