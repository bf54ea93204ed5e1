/// One line of the access log: what was asked, what was answered, how fast.
public struct AccessLogRecord: Sendable, Equatable {
    /// The request method; `nil` when the server rejected bytes that did not
    /// form a request (framing error, timeout).
    public var method: HTTPMethod?
    /// The request-target as sent; `nil` as for `method`.
    public var target: String?
    /// The status code sent.
    public var status: HTTPStatus
    /// The response body size in bytes (as in `Content-Length`, also for HEAD).
    public var bodyBytes: Int
    /// Seconds until the response was queued for writing: from handing the request to
    /// the handler for a handled request; for the server's own answers (framing errors,
    /// timeouts, those before `100 Continue`) from the first byte of the request's head
    /// (of a request pipelined behind another, from the answer before it); 0 for a
    /// connection refused at accept.
    public var duration: Double
    /// The client's address and port, e.g. `127.0.0.1:50412` or `[::1]:50412`.
    public var remoteAddress: String

    /// A record with the given values (see the properties for units).
    public init(method: HTTPMethod?, target: String?, status: HTTPStatus, bodyBytes: Int, duration: Double, remoteAddress: String) {
        self.method = method
        self.target = target
        self.status = status
        self.bodyBytes = bodyBytes
        self.duration = duration
        self.remoteAddress = remoteAddress
    }
}
