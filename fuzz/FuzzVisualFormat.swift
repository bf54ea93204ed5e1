// libFuzzer entry for VisualFormatParser. Build: scripts/fuzz-smoke.sh.
// The first byte picks format options, so option handling is fuzzed together with the grammar.

let fuzzFormatOptionSets: [[String]] = [
    [], ["alignAllTop"], ["alignAllLeading", "alignAllCenterX"], ["directionRightToLeft"],
    ["directionLeftToRight", "alignAllBaseline"], ["alignAllBogus"], ["directionLeftToRight", "directionRightToLeft"],
    ["alignAllFirstBaseline", "alignAllFirstBaseline"],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVisualFormat(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let optionSet = fuzzFormatOptionSets[Int(data[0]) % fuzzFormatOptionSets.count]
    let source = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let result = VisualFormatParser(options: fuzzOptions).parse(source, formatOptions: optionSet)
    checkFuzzInvariants(result, source: source)
    return 0
}
