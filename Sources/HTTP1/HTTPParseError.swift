/// Why a request could not be framed or is not acceptable (RFC 9112).
///
/// Every case maps to one status code (``status``). After any of them the
/// server answers with a problem+json body and `Connection: close`, then
/// closes, because the framing of whatever follows cannot be trusted.
public enum HTTPParseError: Error, Equatable, Sendable {
    /// The request line is not `method SP request-target SP HTTP-version` (RFC 9112 §3). → 400
    case invalidRequestLine
    /// A well-formed method token this server does not implement (RFC 9110 §9.1). → 501
    case unknownMethod(String)
    /// A well-formed version other than HTTP/1.x (RFC 9110 §15.6.6). → 505
    case unsupportedVersion(String)
    /// The request-target is longer than ``ServerLimits/maxTargetBytes`` (RFC 9110 §15.5.15). → 414
    case targetTooLong
    /// The request-target is not origin-, absolute- or asterisk-form (RFC 9112 §3.2),
    /// or has a fragment (`/healthz#x`). → 400
    case invalidTarget
    /// The asterisk form `*` with a method other than OPTIONS (RFC 9112 §3.2.4). → 400
    case asteriskFormWithoutOptions
    /// One header or trailer line is longer than ``ServerLimits/maxHeaderLineBytes``. → 431
    case headerLineTooLong
    /// The header or trailer section is larger than ``ServerLimits/maxHeaderBytes`` (RFC 6585 §5). → 431
    case headerSectionTooLarge
    /// A field line starting with whitespace: obsolete line folding (RFC 9112 §5.2). → 400
    case obsoleteLineFolding
    /// Whitespace between a field name and its colon (RFC 9112 §5.1). → 400
    case whitespaceBeforeColon
    /// A CR not followed by LF (RFC 9112 §2.2). → 400
    case bareCarriageReturn
    /// A field name that is empty or not a token, or a line with no colon (RFC 9110 §5.1). → 400
    case invalidFieldName
    /// A field value with a control character (RFC 9110 §5.5). → 400
    case invalidFieldValue
    /// An HTTP/1.1 request without `Host` (RFC 9112 §3.2). → 400
    case missingHost
    /// More than one `Host` field (RFC 9112 §3.2). → 400
    case duplicateHost
    /// A `Host` field value that is not `uri-host [ ":" port ]` (RFC 9112 §3.2, RFC 9110
    /// §7.2), e.g. `evil.example#.localhost`. → 400
    case invalidHost
    /// A `Content-Length` that is not 1*DIGIT, overflows, or lists differing
    /// values (RFC 9112 §6.3 item 5). → 400
    case invalidContentLength
    /// Both `Content-Length` and `Transfer-Encoding` (RFC 9112 §6.3 item 3): a
    /// request-smuggling vector, refused. → 400
    case contentLengthWithTransferEncoding
    /// `Transfer-Encoding` whose final coding is not `chunked`, or that lists
    /// `chunked` twice, or that appears in HTTP/1.0 (RFC 9112 §6.3 item 4, §6.1). → 400
    case invalidTransferEncoding
    /// `Transfer-Encoding` with a coding other than `chunked` before it, e.g.
    /// `gzip, chunked` (RFC 9112 §6.1). → 501
    case unsupportedTransferCoding(String)
    /// A chunk-size line that is not hex digits with optional extensions, or
    /// too long (RFC 9112 §7.1). → 400
    case invalidChunkSize
    /// Chunk data not followed by CRLF (RFC 9112 §7.1). → 400
    case invalidChunkFraming
    /// The body is larger than ``ServerLimits/maxBodyBytes`` (RFC 9110 §15.5.14). → 413
    case contentTooLarge
    /// An `Expect` other than `100-continue` (RFC 9110 §10.1.1). → 417
    case unsupportedExpectation

    /// The status code the server answers with.
    public var status: HTTPStatus {
        switch self {
        case .unknownMethod, .unsupportedTransferCoding: .notImplemented
        case .unsupportedVersion: .httpVersionNotSupported
        case .targetTooLong: .uriTooLong
        case .headerLineTooLong, .headerSectionTooLarge: .requestHeaderFieldsTooLarge
        case .contentTooLarge: .contentTooLarge
        case .unsupportedExpectation: .expectationFailed
        case .invalidRequestLine, .invalidTarget, .asteriskFormWithoutOptions, .obsoleteLineFolding, .whitespaceBeforeColon,
             .bareCarriageReturn, .invalidFieldName, .invalidFieldValue, .missingHost,
             .duplicateHost, .invalidHost, .invalidContentLength, .contentLengthWithTransferEncoding,
             .invalidTransferEncoding, .invalidChunkSize, .invalidChunkFraming:
            .badRequest
        }
    }

    /// ``detail``, with the limit passed and the `layoutd serve` flag that sets it for the
    /// errors of a size limit (413, 414, 431): "The request body is larger than 1048576
    /// bytes (--max-body-bytes)." (test `ConnectionStateMachineTests.ownProblemsCarryTheConfiguredTypeAndMembers`).
    public func detail(limits: ServerLimits) -> String {
        switch self {
        case .targetTooLong: "The request target is longer than \(limits.maxTargetBytes) bytes (--max-target-bytes)."
        case .headerLineTooLong: "A header field line is longer than \(limits.maxHeaderLineBytes) bytes (--max-header-line-bytes)."
        case .headerSectionTooLarge: "The header section is larger than \(limits.maxHeaderBytes) bytes (--max-header-bytes)."
        case .contentTooLarge: "The request body is larger than \(limits.maxBodyBytes) bytes (--max-body-bytes)."
        default: detail
        }
    }

    /// A one-sentence explanation for the problem+json `detail` member.
    public var detail: String {
        switch self {
        case .invalidRequestLine: "The request line is not 'method SP request-target SP HTTP-version'."
        case .unknownMethod(let method): "The method '\(method)' is not implemented."
        case .unsupportedVersion(let version): "The protocol version '\(version)' is not supported; use HTTP/1.1."
        case .targetTooLong: "The request target is longer than the server accepts."
        case .invalidTarget: "The request target is not in origin, absolute or asterisk form (a target never has a '#' fragment, nor user information before '@' in its authority)."
        case .asteriskFormWithoutOptions: "The asterisk-form target '*' is only for OPTIONS (RFC 9112 §3.2.4)."
        case .headerLineTooLong: "A header field line is longer than the server accepts."
        case .headerSectionTooLarge: "The header section is larger than the server accepts."
        case .obsoleteLineFolding: "A header field line starts with whitespace (obsolete line folding)."
        case .whitespaceBeforeColon: "A header field name is followed by whitespace before the colon."
        case .bareCarriageReturn: "A carriage return is not followed by a line feed."
        case .invalidFieldName: "A header field name is empty or contains characters outside token."
        case .invalidFieldValue: "A header field value contains a control character."
        case .missingHost: "An HTTP/1.1 request must have a Host header field."
        case .duplicateHost: "The request has more than one Host header field."
        case .invalidHost: "The Host header field is not a host name or address with an optional port (RFC 9110 §7.2)."
        case .invalidContentLength: "Content-Length is not one non-negative decimal integer of at most 18 digits (repeated values must agree)."
        case .contentLengthWithTransferEncoding: "The request has both Content-Length and Transfer-Encoding."
        case .invalidTransferEncoding: "Transfer-Encoding must end with a single 'chunked' in an HTTP/1.1 request."
        case .unsupportedTransferCoding(let coding): "The transfer coding '\(coding)' is not implemented."
        case .invalidChunkSize: "A chunk size line is not a hexadecimal number of at most 15 digits with optional extensions."
        case .invalidChunkFraming: "Chunk data is not followed by CRLF."
        case .contentTooLarge: "The request body is larger than the server accepts."
        case .unsupportedExpectation: "Only 'Expect: 100-continue' is supported."
        }
    }
}
