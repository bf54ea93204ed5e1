// libFuzzer entry for the SVG wireframe renderer: a scene body solved (10⁶ solver-work
// limit) and drawn. Build: scripts/fuzz-scene-smoke.sh. The invariants are
// SceneFuzz.checkWireframe (Tests/LayoutServiceTests/SceneFuzzInvariants.swift).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireframe(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let failure = SceneFuzz.checkWireframe(body) { fatalError("wireframe invariant broken: \(failure)") }
    return 0
}
