// libFuzzer entry point for HTTP1's RequestParser.
//
// Built by scripts/fuzz-http-smoke.sh together with the parser's source files
// (not through SwiftPM), so `HTTP1` types are in this module.
//
// Checks, for every input: no trap; the outcome is the same whether the bytes
// arrive whole, split at a data-chosen index, or one byte at a time; a parsed
// body never exceeds maxBodyBytes.

/// Small limits picked by the first input byte, so limit paths are reachable.
private func limits(for selector: UInt8) -> ServerLimits {
    ServerLimits(
        maxBodyBytes: 16 + Int(selector & 0x0F) * 32,
        maxHeaderBytes: 64 + Int(selector >> 4) * 64,
        maxHeaderLineBytes: 32 + Int(selector & 0x07) * 16,
        maxTargetBytes: 8 + Int(selector >> 5) * 8
    )
}

private enum FuzzOutcome: Equatable {
    case request(HTTPRequest)
    case failure(HTTPParseError)
    case continueExpected
}

private func run(_ chunks: [ArraySlice<UInt8>], limits: ServerLimits) -> [FuzzOutcome] {
    var parser = RequestParser(limits: limits)
    var outcomes: [FuzzOutcome] = []
    for chunk in chunks {
        parser.append(chunk)
        loop: while true {
            switch parser.next() {
            case .needMoreBytes:
                break loop
            case .expectContinue:
                outcomes.append(.continueExpected)
            case .request(let request):
                if request.body.count > limits.maxBodyBytes { fatalError("body over the limit") }
                outcomes.append(.request(request))
            case .failure(let error):
                outcomes.append(.failure(error))
                return outcomes
            }
        }
    }
    return outcomes
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = limits(for: input[0])
    let bytes = input[2...]
    let whole = run([bytes], limits: limits)
    let split = bytes.startIndex + Int(input[1]) % (bytes.count + 1)
    let halves = run([bytes[..<split], bytes[split...]], limits: limits)
    if halves != whole { fatalError("split at \(split) changed the outcome") }
    if bytes.count <= 2048 {
        let single = run(bytes.indices.map { bytes[$0...$0] }, limits: limits)
        if single != whole { fatalError("byte-at-a-time changed the outcome") }
    }
    return 0
}
