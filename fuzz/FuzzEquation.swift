// libFuzzer entry for EquationParser. Build: scripts/fuzz-smoke.sh.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEquation(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    let result = EquationParser(options: fuzzOptions).parse(source)
    checkFuzzInvariants(result, source: source)
    // The contract's routing rule must never trap either.
    _ = isVisualFormat(source)
    return 0
}
