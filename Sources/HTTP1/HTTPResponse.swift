/// A response the handler returns; the server frames and writes it.
///
/// The server manages the framing fields itself (RFC 9112 §6): it writes
/// `Content-Length` from `body.count` (none for 1xx, 204 and 304), `Connection`
/// when the connection closes or an HTTP/1.0 client asked for keep-alive, and
/// `Date` unless the handler set one. A `Content-Length`, `Transfer-Encoding`
/// or `Connection` field set by the handler is not copied, except that
/// `Connection: close` makes the server close after this response.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, 100–999 (RFC 9110 §15).
    public var status: Int
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
    public init(status: Int, headers: HTTPFields = [], body: [UInt8] = []) {
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
        status: Int,
        title: String,
        detail: String,
        type: String = "about:blank",
        extra: [ProblemMember] = []
    ) -> HTTPResponse {
        var json = "{\"type\":\(jsonQuoted(type)),\"title\":\(jsonQuoted(title)),\"status\":\(status),\"detail\":\(jsonQuoted(detail))"
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

    /// A short lowercase slug for a status, for problem type URIs: `payload-too-large`.
    public static func problemSlug(_ status: Int) -> String {
        switch status {
        case 413: return "payload-too-large"
        case 414: return "uri-too-long"
        case 431: return "header-fields-too-large"
        case 505: return "http-version-not-supported"
        default:
            let phrase = reasonPhrase(status)
            if phrase.isEmpty { return "status-\(status)" }
            return phrase.lowercased().split(separator: " ").joined(separator: "-")
        }
    }

    /// The standard reason phrase for `status` (RFC 9110 §15), or `""` for an
    /// unregistered code (the reason phrase is optional, RFC 9112 §4).
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        case 507: "Insufficient Storage"
        default: ""
        }
    }

    /// Whether a response with this status has no content (RFC 9110 §6.4.1):
    /// 1xx, 204 and 304.
    static func isBodiless(_ status: Int) -> Bool {
        (100..<200).contains(status) || status == 204 || status == 304
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
