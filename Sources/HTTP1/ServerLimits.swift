/// The limits the server enforces, each with its unit and default.
///
/// Sizes are in bytes, durations in seconds. Exceeding a size limit is answered
/// with the status named on the property, then the connection is closed.
public struct ServerLimits: Sendable, Equatable {
    /// Largest request body after removing chunked coding, in bytes; default
    /// 1 MiB. Over it → `413 Content Too Large` (sent before `100 Continue` when
    /// `Content-Length` announces it).
    public var maxBodyBytes: Int = 1 << 20
    /// Largest header section (all field lines after the request line, with
    /// their CRLFs), in bytes; default 16 KiB. Also bounds a trailer section.
    /// Over it → `431 Request Header Fields Too Large`.
    public var maxHeaderBytes: Int = 16_384
    /// Longest single field line (or chunk-size line), in bytes without its
    /// CRLF; default 8 KiB. Over it → `431` (`400` for a chunk-size line).
    public var maxHeaderLineBytes: Int = 8_192
    /// Longest request-target, in bytes; default 8 KiB. Over it → `414 URI Too Long`.
    public var maxTargetBytes: Int = 8_192
    /// Time allowed from the first byte of a request to the end of its header
    /// section, in seconds; default 10. Over it → `408 Request Timeout` and close.
    /// A new connection that sends nothing for this long is closed silently.
    public var headTimeout: Double = 10
    /// Time allowed from the end of the header section to the end of the body,
    /// in seconds; default 30. Over it → `408` and close. Also the longest a
    /// response may wait, unsent, for a client that stopped reading (then the
    /// connection is closed without more ado).
    public var bodyTimeout: Double = 30
    /// Time a keep-alive connection may wait for its next request, in seconds;
    /// default 60. Then it is closed silently (RFC 9112 §9.5).
    public var idleTimeout: Double = 60
    /// Requests served on one connection before it is closed with
    /// `Connection: close`; default 1000.
    public var maxRequestsPerConnection: Int = 1000
    /// Open connections; default 4096. A connection accepted beyond it gets
    /// `503 Service Unavailable` with `Retry-After: 1` and is closed.
    public var maxConnections: Int = 4096
    /// How long ``HTTPServer/shutdown()`` waits for in-flight requests, in
    /// seconds; default 10. Then the remaining connections are closed.
    public var drainTimeout: Double = 10
    /// Response bytes that all connections together may hold unsent (built, waiting
    /// for clients to read them), in bytes; default 256 MiB. While more wait, every request
    /// but those the application calls small answers (`HTTPServer`'s `isSmallAnswer`:
    /// health checks) is answered `503 Service Unavailable` with `Retry-After: 1` instead
    /// of being handled, `GET`s of large resources as well as solves
    /// (`HTTP1Tests.PendingRequestBytesTests.unreadAnswersRefuseLargeGetsButNotSmallAnswers`): clients that send requests for large answers and never read them
    /// must not make the server hold one answer per connection without bound. Each
    /// connection's own output is limited separately (a pipelined request waits while
    /// more than 1 MiB of its connection's output is unsent).
    public var maxPendingResponseBytes: Int = 256 << 20
    /// Request bytes that all connections together may hold before their requests are
    /// complete (each connection's ``RequestParser/heldByteCount``: bodies being received,
    /// heads, pipelined bytes), in bytes; default 256 MiB. A read that would take the
    /// total past it is refused, except a request's first read (at most 64 KiB, so a
    /// health check still gets through; with the body's first 64 KiB it may take the
    /// total past the bound by up to ``maxConnections`` × 128 KiB): a connection waiting for its next request is answered
    /// `503 Service Unavailable` with `Retry-After: 1` and closed; one whose handler is
    /// running is closed after that answer. The count of a connection falls when its
    /// request is handed to the handler and is released when it closes, so clients that
    /// start large bodies and never finish them hold at most this much between them
    /// (test `HTTP1Tests.PendingRequestBytesTests`, e2e `hostile/http-half-bodies`).
    public var maxPendingRequestBytes: Int = 256 << 20
    /// Body length, in bytes, beyond which a request is *large* for the workers; default
    /// 16 KiB (a 20-view scene is about 2 KB). While every worker runs a large request,
    /// one spare thread runs the small ones (``WorkerPool``), so a burst of large
    /// requests, each of which may take seconds of one core, never holds a small one
    /// behind them. Not a limit on what is accepted.
    public var largeBodyBytes: Int = 16_384
    /// Not a limit but the server's answer policy: the base of the RFC 9457 `type` URI of
    /// the problems the server answers by itself (framing errors, 404, 405, 503). With a
    /// base `urn:app:problem:` a 413 has type `urn:app:problem:payload-too-large`; `nil`
    /// (the default) gives `about:blank` (RFC 9457 §4.2.1).
    public var problemTypeBase: String?
    /// Extension members added to those problems (RFC 9457 §3.2), each value JSON text
    /// inserted verbatim, such as `ProblemMember("diagnostics", "[]")` for an API whose every problem
    /// carries a diagnostics list. Default: none.
    public var problemMembers: [ProblemMember] = []
    /// Not a limit but the server's answer policy: fields written on every response,
    /// the server's own answers included (framing errors, 408, 503 over the connection
    /// limit), unless the response already carries a field of that name. For example
    /// `X-Content-Type-Options: nosniff` (Fetch standard §3.5), which must reach a
    /// browser on a 400 as on a 200. Default: none.
    public var responseFields = HTTPFields()

    /// The problem `type` for `status` under ``problemTypeBase``.
    public func problemType(for status: HTTPStatus) -> String {
        guard let problemTypeBase else { return "about:blank" }
        return problemTypeBase + status.problemSlug
    }

    /// The defaults above.
    public init() {}

    /// Limits with any subset changed from the defaults (units as on the properties).
    public init(
        maxBodyBytes: Int = 1 << 20, maxHeaderBytes: Int = 16_384, maxHeaderLineBytes: Int = 8_192,
        maxTargetBytes: Int = 8_192, headTimeout: Double = 10, bodyTimeout: Double = 30,
        idleTimeout: Double = 60, maxRequestsPerConnection: Int = 1000, maxConnections: Int = 4096,
        drainTimeout: Double = 10, maxPendingResponseBytes: Int = 256 << 20,
        maxPendingRequestBytes: Int = 256 << 20
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderLineBytes = maxHeaderLineBytes
        self.maxTargetBytes = maxTargetBytes
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maxRequestsPerConnection = maxRequestsPerConnection
        self.maxConnections = maxConnections
        self.drainTimeout = drainTimeout
        self.maxPendingResponseBytes = maxPendingResponseBytes
        self.maxPendingRequestBytes = maxPendingRequestBytes
    }
}
