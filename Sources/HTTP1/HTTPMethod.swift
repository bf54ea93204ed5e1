/// A request method token (RFC 9110 §9).
///
/// Methods are case-sensitive: `get` is not `GET`. The parser accepts only the
/// methods in ``HTTPMethod/known``; any other well-formed token is answered with
/// `501 Not Implemented` (RFC 9110 §9.1).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent, for example `"GET"`.
    public var rawValue: String

    /// Wraps a method token. No validation: the parser validates tokens.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method token, e.g. `GET`.
    public var description: String { rawValue }

    /// RFC 9110 §9.3.1.
    public static let GET = HTTPMethod(rawValue: "GET")
    /// RFC 9110 §9.3.2.
    public static let HEAD = HTTPMethod(rawValue: "HEAD")
    /// RFC 9110 §9.3.3.
    public static let POST = HTTPMethod(rawValue: "POST")
    /// RFC 9110 §9.3.4.
    public static let PUT = HTTPMethod(rawValue: "PUT")
    /// RFC 9110 §9.3.5.
    public static let DELETE = HTTPMethod(rawValue: "DELETE")
    /// RFC 9110 §9.3.7.
    public static let OPTIONS = HTTPMethod(rawValue: "OPTIONS")
    /// RFC 9110 §9.3.8.
    public static let TRACE = HTTPMethod(rawValue: "TRACE")
    /// RFC 5789.
    public static let PATCH = HTTPMethod(rawValue: "PATCH")
    /// The safe, idempotent method with a body (IETF httpbis draft "The HTTP QUERY
    /// Method"); parsed so that a route without it answers 405, not 501.
    public static let QUERY = HTTPMethod(rawValue: "QUERY")

    /// The methods this server parses; `CONNECT` is deliberately absent (it is a
    /// proxy method, answered `501`).
    public static let known: [HTTPMethod] = [.GET, .HEAD, .POST, .PUT, .DELETE, .OPTIONS, .TRACE, .PATCH, .QUERY]

    /// Maps the bytes of a method token to a known method without allocating a
    /// string for the common ones; `nil` for an unknown method.
    static func known<C: Collection<UInt8>>(_ bytes: C) -> HTTPMethod? {
        switch bytes.count {
        case 3:
            if bytes.elementsEqual("GET".utf8) { return .GET }
            if bytes.elementsEqual("PUT".utf8) { return .PUT }
        case 4:
            if bytes.elementsEqual("POST".utf8) { return .POST }
            if bytes.elementsEqual("HEAD".utf8) { return .HEAD }
        case 5:
            if bytes.elementsEqual("PATCH".utf8) { return .PATCH }
            if bytes.elementsEqual("QUERY".utf8) { return .QUERY }
            if bytes.elementsEqual("TRACE".utf8) { return .TRACE }
        case 6:
            if bytes.elementsEqual("DELETE".utf8) { return .DELETE }
        case 7:
            if bytes.elementsEqual("OPTIONS".utf8) { return .OPTIONS }
        default:
            break
        }
        return nil
    }
}

/// An HTTP protocol version (RFC 9110 §2.5), such as 1.1.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// The major version digit, 0–9.
    public var major: Int
    /// The minor version digit, 0–9.
    public var minor: Int

    /// A version from its two digits.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// HTTP/1.0 (RFC 1945).
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1 (RFC 9112).
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// `"HTTP/1.1"`.
    public var description: String { "HTTP/\(major).\(minor)" }
}
