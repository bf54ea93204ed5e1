// The structured mode of the scene and SVG targets: libFuzzer's custom mutator. Half of
// the mutations (by the seed libFuzzer passes) are SceneNameMutator's, aimed at names:
// combining marks, compatibility characters (U+212A KELVIN SIGN, fullwidth letters),
// repeated members and copied names (Tests/LayoutServiceTests/SceneNameMutator.swift);
// the other half, and any it cannot apply, are libFuzzer's own (LLVMFuzzerMutate). It
// runs within the same -max_total_time: the smoke scripts take no longer.
// Build: scripts/fuzz-scene-smoke.sh links this file into both targets.

@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

@_cdecl("LLVMFuzzerCustomMutator")
public func sceneCustomMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data else { return 0 }
    if seed & 1 == 0 {
        let body = Array(UnsafeBufferPointer(start: data, count: size))
        if let mutated = SceneNameMutator.mutate(body, seed: seed >> 1, maxSize: maxSize) {
            mutated.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { data.update(from: base, count: buffer.count) }
            }
            return mutated.count
        }
    }
    return libFuzzerMutate(data, size, maxSize)
}
