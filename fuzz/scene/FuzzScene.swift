// libFuzzer entry for the scene decoder, compiler and solver end to end (bytes → JSON →
// scene → compile → solve at a 10⁶ solver-work limit). Build: scripts/fuzz-scene-smoke.sh.
// The invariants are SceneFuzz.checkScene (Tests/LayoutServiceTests/SceneFuzzInvariants.swift).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let failure = SceneFuzz.checkScene(body) { fatalError("scene invariant broken: \(failure)") }
    return 0
}
