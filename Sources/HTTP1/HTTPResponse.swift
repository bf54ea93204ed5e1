/// A response the handler returns; the server frames and writes it.
///
/// The server manages the framing fields itself (RFC 9112 §6): it writes
/// `Content-Length` from `body.count` (none for 1xx, 204 and 304), `Connection`
/// when the connection closes or an HTTP/1.0 client asked for keep-alive, and
/// `Date` unless the handler set one. A `Content-Length`, `Transfer-Encoding`
/// or `Connection` field set by the handler is not copied, except that
/// `Connection: close` makes the server close after this response.
public struct HTTPResponse: Sendable, Equatable {
    /// The status (RFC 9110 §15), a code from 100 to 999.
    public var status: HTTPStatus
    /// Header fields to send, in order.
    public var headers: HTTPFields
    /// The message body (bytes). Not sent for `HEAD`, 204 or 304.
    public var body: [UInt8]
    /// An object the server keeps alive until it has written the response (queued its
    /// bytes as the connection's output, counted in ``PendingResponseBytes``), then drops:
    /// for instance a reservation of pending bytes that its `deinit` gives back, so the
    /// answer is counted while it is built and sent without a gap. Not compared by `==`.
    public var attachment: (any AnyObject & Sendable)?

    /// A response with the given status code, fields and body bytes.
    public init(status: HTTPStatus, headers: HTTPFields = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Equal status, fields and body (the ``attachment`` is not compared).
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
    }

    /// A problem details response (RFC 9457 §3): `Content-Type:
    /// application/problem+json` and a body with `type`, `title`, `status` and
    /// `detail`, then the `extra` members in the order given.
    ///
    /// - Parameters:
    ///   - status: The status code, also written as the `status` member.
    ///   - title: A short, human-readable summary of the problem type.
    ///   - detail: An explanation specific to this occurrence.
    ///   - type: A URI reference naming the problem type; `about:blank` (RFC 9457
    ///     §4.2.1) when the status code says it all.
    ///   - extra: Extension members (RFC 9457 §3.2), in order; each value is JSON text
    ///     inserted verbatim (for example `ProblemMember("diagnostics", "[]")`), so it
    ///     must be valid JSON.
    public static func problem(
        status: HTTPStatus,
        title: String,
        detail: String,
        type: String = "about:blank",
        extra: [ProblemMember] = []
    ) -> HTTPResponse {
        var json = "{\"type\":\(jsonQuoted(type)),\"title\":\(jsonQuoted(title)),\"status\":\(status.code),\"detail\":\(jsonQuoted(detail))"
        for member in extra {
            json += ",\(jsonQuoted(member.name)):\(member.json)"
        }
        json += "}"
        return HTTPResponse(
            status: status,
            headers: ["Content-Type": "application/problem+json"],
            body: Array(json.utf8)
        )
    }
}

/// `string` as a JSON string literal, with `"`, `\` and control characters escaped (RFC 8259 §7).
func jsonQuoted(_ string: String) -> String {
    var out = "\""
    out.reserveCapacity(string.utf8.count + 2)
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    out += "\""
    return out
}

/// An extension member of a problem details object (RFC 9457 §3.2): its name and its
/// value as JSON text, written verbatim.
public struct ProblemMember: Sendable, Hashable {
    public var name: String
    /// The value as JSON text, such as `[]`; it must be valid JSON.
    public var json: String

    public init(_ name: String, _ json: String) {
        self.name = name
        self.json = json
    }
}
