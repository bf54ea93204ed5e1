/// A response's status code (RFC 9110 §15), with the reason phrase of a registered one.
///
/// The same size as an `Int`: the reason phrase is looked up, not stored, so passing and
/// comparing statuses costs what an integer does. The constants are named as in RFC 9110
/// §15 (and RFC 4918 §11.5 for 507); an integer literal makes any code, so tests can
/// compare with `== 421`.
public struct HTTPStatus: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The three-digit code, 100–999 for any status the server writes (the encoder writes
    /// 500 for a code outside that range).
    public var code: Int

    /// The status with this code.
    public init(code: Int) {
        self.code = code
    }

    /// The status with this code: `let status: HTTPStatus = 421`.
    public init(integerLiteral code: Int) {
        self.code = code
    }

    /// The code in decimal, as the status line, logs and metrics write it.
    public var description: String { String(code) }

    // MARK: - 1xx (RFC 9110 §15.2)

    /// 100 Continue (RFC 9110 §15.2.1).
    public static let `continue`: HTTPStatus = 100
    /// 101 Switching Protocols (RFC 9110 §15.2.2).
    public static let switchingProtocols: HTTPStatus = 101

    // MARK: - 2xx (RFC 9110 §15.3)

    /// 200 OK (RFC 9110 §15.3.1).
    public static let ok: HTTPStatus = 200
    /// 201 Created (RFC 9110 §15.3.2).
    public static let created: HTTPStatus = 201
    /// 204 No Content (RFC 9110 §15.3.5).
    public static let noContent: HTTPStatus = 204

    // MARK: - 3xx (RFC 9110 §15.4)

    /// 304 Not Modified (RFC 9110 §15.4.5).
    public static let notModified: HTTPStatus = 304

    // MARK: - 4xx (RFC 9110 §15.5)

    /// 400 Bad Request (RFC 9110 §15.5.1).
    public static let badRequest: HTTPStatus = 400
    /// 401 Unauthorized (RFC 9110 §15.5.2).
    public static let unauthorized: HTTPStatus = 401
    /// 403 Forbidden (RFC 9110 §15.5.4).
    public static let forbidden: HTTPStatus = 403
    /// 404 Not Found (RFC 9110 §15.5.5).
    public static let notFound: HTTPStatus = 404
    /// 405 Method Not Allowed (RFC 9110 §15.5.6).
    public static let methodNotAllowed: HTTPStatus = 405
    /// 408 Request Timeout (RFC 9110 §15.5.9).
    public static let requestTimeout: HTTPStatus = 408
    /// 412 Precondition Failed (RFC 9110 §15.5.13).
    public static let preconditionFailed: HTTPStatus = 412
    /// 413 Content Too Large (RFC 9110 §15.5.14).
    public static let contentTooLarge: HTTPStatus = 413
    /// 414 URI Too Long (RFC 9110 §15.5.15).
    public static let uriTooLong: HTTPStatus = 414
    /// 415 Unsupported Media Type (RFC 9110 §15.5.16).
    public static let unsupportedMediaType: HTTPStatus = 415
    /// 417 Expectation Failed (RFC 9110 §15.5.18).
    public static let expectationFailed: HTTPStatus = 417
    /// 421 Misdirected Request (RFC 9110 §15.5.20).
    public static let misdirectedRequest: HTTPStatus = 421
    /// 422 Unprocessable Content (RFC 9110 §15.5.21).
    public static let unprocessableContent: HTTPStatus = 422
    /// 431 Request Header Fields Too Large (RFC 6585 §5).
    public static let requestHeaderFieldsTooLarge: HTTPStatus = 431

    // MARK: - 5xx (RFC 9110 §15.6)

    /// 500 Internal Server Error (RFC 9110 §15.6.1).
    public static let internalServerError: HTTPStatus = 500
    /// 501 Not Implemented (RFC 9110 §15.6.2).
    public static let notImplemented: HTTPStatus = 501
    /// 503 Service Unavailable (RFC 9110 §15.6.4).
    public static let serviceUnavailable: HTTPStatus = 503
    /// 505 HTTP Version Not Supported (RFC 9110 §15.6.6).
    public static let httpVersionNotSupported: HTTPStatus = 505
    /// 507 Insufficient Storage (RFC 4918 §11.5).
    public static let insufficientStorage: HTTPStatus = 507

    /// Whether the server failed (5xx, RFC 9110 §15.6), rather than the request.
    public var isServerError: Bool { code >= 500 && code <= 599 }

    /// Whether a response with this status has no content (RFC 9110 §6.4.1): 1xx, 204
    /// and 304.
    public var isBodiless: Bool { (100..<200).contains(code) || code == 204 || code == 304 }

    /// The standard reason phrase (RFC 9110 §15), or `""` for an unregistered code (the
    /// reason phrase is optional, RFC 9112 §4). A string literal: no allocation.
    public var reasonPhrase: String {
        switch code {
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

    /// A short lowercase slug for problem type URIs: the reason phrase in lowercase with
    /// hyphens (`misdirected-request`), except the older names kept for 413, 414, 431 and
    /// 505 (`payload-too-large`); `status-NNN` for an unregistered code.
    public var problemSlug: String {
        switch code {
        case 413: return "payload-too-large"
        case 414: return "uri-too-long"
        case 431: return "header-fields-too-large"
        case 505: return "http-version-not-supported"
        default:
            let phrase = reasonPhrase
            if phrase.isEmpty { return "status-\(code)" }
            return phrase.lowercased().split(separator: " ").joined(separator: "-")
        }
    }
}
