import HTTP1
import LayoutSyntax

/// A request's query string (RFC 3986 §3.4), parsed the one way every route reads it.
///
/// Pairs are separated by `&` (empty pairs, as in `?&a=1&`, are skipped); a pair is
/// `name=value`, or a bare `name` whose value is `""` (as `name=`). Names and values are
/// percent-decoded (RFC 3986 §2.1: `%` and two hexadecimal digits, either case, is that
/// octet; the octets are read as UTF-8, a sequence that is not UTF-8 becoming U+FFFD) and
/// `+` is a space (application/x-www-form-urlencoded, what HTML forms and
/// `curl --data-urlencode` send). A `%` not followed by two hexadecimal digits is a
/// malformed escape: ``malformed`` names the first pair holding one, which every route
/// answers with a 400 naming the parameter (``LayoutService/queryProblem(_:route:)``).
///
/// Held by `QueryParametersTests`.
///
/// - Complexity: O(|query|); the query is bounded by the request target's limit
///   (`--max-target-bytes`).
struct QueryParameters: Sendable, Equatable {
    /// The pairs, decoded, in the order sent.
    private(set) var pairs: [(name: String, value: String)] = []
    /// The (decoded, as far as it decodes) name of the first pair whose name or value holds
    /// a malformed escape, and the malformed text of the pair as sent; `nil` when every
    /// escape is well-formed.
    private(set) var malformed: (parameter: String, text: String)?

    /// Parses `query` (without the `?`; `nil` for a target without one).
    init(_ query: String?) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count == 2 ? Self.decode(parts[1]) : (text: "", wellFormed: true)
            if malformed == nil && !(name.wellFormed && value.wellFormed) {
                malformed = (name.text, String(pair))
            }
            pairs.append((name.text, value.text))
        }
    }

    static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.pairs.map(\.name) == rhs.pairs.map(\.name) && lhs.pairs.map(\.value) == rhs.pairs.map(\.value)
            && lhs.malformed?.parameter == rhs.malformed?.parameter && lhs.malformed?.text == rhs.malformed?.text
    }

    /// How many pairs are named `name`.
    func count(_ name: String) -> Int { pairs.count { $0.name == name } }

    /// The value of the first pair named `name`, decoded, case kept; `nil` when absent.
    func value(_ name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// The first name (in the order sent) that is not one of `known`.
    func firstUnknown(known: [String]) -> String? { pairs.first { !known.contains($0.name) }?.name }

    /// `text` percent-decoded, `+` a space; `wellFormed` false when a `%` is not followed
    /// by two hexadecimal digits (that `%` is then kept as it is).
    static func decode(_ text: Substring) -> (text: String, wellFormed: Bool) {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return (String(text), true) }
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var wellFormed = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                    out.append(high << 4 | low)
                    index += 3
                    continue
                }
                wellFormed = false
            }
            out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return (String(decoding: out, as: UTF8.self), wellFormed)
    }
}

extension LayoutService {
    /// The routes whose query is never read nor checked: the liveness and readiness
    /// probes, the metrics, the OpenAPI document and the playground page (which reads
    /// `scene` and `example` in the browser). A probe or a cache-buster that adds a
    /// parameter must not turn a health check into a 400. `QueryParametersTests.operationalRoutesIgnoreTheirQuery`.
    static let operationalRoutes: Set<String> = ["GET /healthz", "GET /readyz", "GET /metrics", "GET /openapi.yaml", "GET /"]

    /// The query parameters each route takes, by the route's pattern (``Router/route(for:)``);
    /// a route not listed takes none. Any other parameter is a 400
    /// (``queryProblem(_:route:)``), so a misspelt one (`?devcie=`) is not silently
    /// ignored. openapi.yaml declares the same lists.
    static let knownQueryParameters: [String: [String]] = [
        "POST /solve": ["format", "scale", "width"],
        "POST /import": ["solve", "device", "orientation", "intrinsic", "format"],
        "GET /groups/{name}/versions": ["after", "limit"],
    ]

    /// The 400 for `request`'s query on `route` (`METHOD /pattern`; `HEAD` is checked as
    /// `GET`), or `nil` when its query is well-formed and names only parameters the route
    /// takes (``knownQueryParameters``): a malformed percent-escape names its parameter;
    /// an unknown parameter is named with the route's parameters and, when one is close,
    /// a did-you-mean. Checked before anything else the route does.
    func queryProblem(_ request: HTTPRequest, route: String) -> HTTPResponse? {
        guard request.query != nil else { return nil }
        let query = QueryParameters(request.query)
        if let malformed = query.malformed {
            return problem(.malformedQueryEscape(parameter: malformed.parameter, text: malformed.text))
        }
        let known = Self.knownQueryParameters[route] ?? []
        if let unknown = query.firstUnknown(known: known) {
            return problem(.unknownQueryParameter(unknown, route: route, known: known,
                                                  suggestion: closestName(to: unknown, among: known)))
        }
        return nil
    }
}
