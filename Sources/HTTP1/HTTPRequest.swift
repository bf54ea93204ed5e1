/// A complete request message (RFC 9112 §2.1), as the parser delivers it.
public struct HTTPRequest: Sendable, Equatable {
    /// The request method (RFC 9110 §9).
    public var method: HTTPMethod
    /// The request-target exactly as sent: origin-form (`/a?b`), absolute-form
    /// (`http://host/a?b`) or asterisk-form (`*`, with `OPTIONS` only) (RFC 9112 §3.2).
    public var target: String
    /// The raw path of the target, not percent-decoded, without the query; an
    /// absolute-form target is reduced to its path (`"/"` when it has none).
    public var path: String
    /// The raw query, without the `?`; `nil` when the target has no `?`.
    public var query: String?
    /// The protocol version from the request line.
    public var version: HTTPVersion
    /// Header fields in the order received.
    public var headers: HTTPFields
    /// The message body with any transfer coding removed (bytes).
    public var body: [UInt8]
    /// Trailer fields sent after a chunked body (RFC 9112 §7.1.2); kept apart
    /// from `headers`, as RFC 9110 §6.5.1 asks.
    public var trailers: HTTPFields
    /// When the server began receiving this request's head, in ``monotonicSeconds()``;
    /// for a request pipelined behind another, when the answer before it was made (its
    /// turn began then). `nil` for a request not read from a connection. Not part of `==`:
    /// the same message received at another time is the same request.
    public var headReceivedAt: Double? {
        get { arrival.seconds }
        set { arrival.seconds = newValue }
    }
    /// ``headReceivedAt``, in a value equal to every other, so the synthesised `==`
    /// compares the message alone and a member added later is compared without a word.
    private var arrival = Arrival()

    private struct Arrival: Sendable, Equatable {
        var seconds: Double?
        static func == (_: Arrival, _: Arrival) -> Bool { true }
    }

    /// A request; `path` and `query` are derived from `target` (see ``path``).
    public init(
        method: HTTPMethod,
        target: String,
        version: HTTPVersion = .http1_1,
        headers: HTTPFields = [],
        body: [UInt8] = [],
        trailers: HTTPFields = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.trailers = trailers
        (self.path, self.query) = HTTPRequest.splitTarget(target)
    }

    /// Whether the connection may stay open after this request (RFC 9112 §9.3):
    /// HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var isKeepAlive: Bool {
        if version.major == 1 && version.minor == 0 {
            return headers.containsToken("keep-alive", in: "Connection")
                && !headers.containsToken("close", in: "Connection")
        }
        return !headers.containsToken("close", in: "Connection")
    }

    /// Splits a target into its path and query. Absolute-form `scheme://authority/p?q`
    /// gives `("/p", "q")`; asterisk-form gives `("*", nil)`.
    static func splitTarget(_ target: String) -> (path: String, query: String?) {
        // On the UTF-8 bytes: the delimiters are ASCII, so every index found is a
        // character boundary (a parsed target is ASCII throughout, RFC 9112 §3.2).
        let utf8 = target.utf8
        var rest = utf8[...]
        if utf8.first != UInt8(ascii: "/") && !(utf8.count == 1 && utf8.first == UInt8(ascii: "*")),
           let colon = utf8.firstIndex(of: UInt8(ascii: ":")), utf8[colon...].starts(with: "://".utf8) {
            rest = utf8[utf8.index(colon, offsetBy: 3)...]
            if let slash = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) {
                rest = rest[slash...]
            } else {
                rest = rest[rest.endIndex...]
            }
        }
        let path: Substring.UTF8View
        let query: String?
        if let mark = rest.firstIndex(of: UInt8(ascii: "?")) {
            path = rest[..<mark]
            query = String(Substring(rest[rest.index(after: mark)...]))
        } else {
            path = rest
            query = nil
        }
        return (path.isEmpty ? "/" : String(Substring(path)), query)
    }
}
