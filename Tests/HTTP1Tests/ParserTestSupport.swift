import Foundation
@testable import HTTP1

/// What a parser produced for a byte stream, ignoring `expectContinue` (a
/// transport hint, tested separately).
enum Outcome: Equatable {
    case request(HTTPRequest)
    case failure(HTTPParseError)

    /// The request, when this outcome is one (for `#require`).
    var request: HTTPRequest? {
        if case .request(let request) = self { return request }
        return nil
    }
}

extension ConnectionStateMachine.Action {
    /// The bytes of a `.write` action (for `#require`).
    var written: [UInt8]? {
        if case .write(let bytes) = self { return bytes }
        return nil
    }
}

/// Feeds `chunks` one after another and collects every request, stopping at the first failure.
func parse(chunks: [[UInt8]], limits: ServerLimits = ServerLimits()) -> [Outcome] {
    var parser = RequestParser(limits: limits)
    var outcomes: [Outcome] = []
    for chunk in chunks {
        parser.append(chunk)
        while true {
            switch parser.next() {
            case .needMoreBytes:
                break
            case .expectContinue:
                continue
            case .request(let request):
                outcomes.append(.request(request))
                continue
            case .failure(let error):
                outcomes.append(.failure(error))
                return outcomes
            }
            break
        }
    }
    return outcomes
}

/// The outcomes for `bytes` fed whole, and whether feeding them one byte at a
/// time and split in two at every index gave exactly the same.
func parseEveryWay(_ bytes: [UInt8], limits: ServerLimits = ServerLimits()) -> (outcomes: [Outcome], isSplitInvariant: Bool) {
    let whole = parse(chunks: [bytes], limits: limits)
    if parse(chunks: bytes.map { [$0] }, limits: limits) != whole { return (whole, false) }
    for index in 0...bytes.count {
        if parse(chunks: [Array(bytes[..<index]), Array(bytes[index...])], limits: limits) != whole {
            return (whole, false)
        }
    }
    return (whole, true)
}

/// `text` with `\n` turned into CRLF (write requests readably in tests).
func crlf(_ text: String) -> [UInt8] {
    Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
}
