/// The life of one connection, as a pure state machine: bytes, handler results
/// and clock ticks in, ``Action``s out (docs/style.md, "The HTTP server").
///
/// It owns the ``RequestParser`` and decides keep-alive (RFC 9112 §9.3),
/// pipelining (responses in request order, RFC 9112 §9.3.2), `100 Continue`,
/// the per-request limits and timeouts of ``ServerLimits``, and how errors are
/// answered. The socket shell performs the actions in order and never decides
/// anything itself, so every rule here is testable with a fake clock.
///
/// Times are seconds on a monotonic clock; `date` arguments are the
/// IMF-fixdate for the `Date` field of any response produced by that call.
struct ConnectionStateMachine {
    enum Action: Equatable {
        /// Run the handler on this request, then call ``handlerFinished(_:now:date:)``.
        /// At most one request is handed out at a time.
        case handle(HTTPRequest)
        /// Send these bytes (one or more whole responses, coalesced).
        case write([UInt8])
        /// The server answered by itself with this status (framing error or
        /// timeout); for the access log, whose duration runs from `since` (the monotonic
        /// time of the head's first byte, or of the answer before it on this connection).
        /// Always followed by `.close`.
        case rejected(status: HTTPStatus, since: Double)
        /// The `continueCheck` answered `request` (given without its body) before
        /// `100 Continue`; for the access log, as `rejected`. Always followed by `.close`.
        case answeredBeforeContinue(HTTPRequest, status: HTTPStatus, bodyBytes: Int, since: Double)
        /// Close once the writes before it are flushed. Nothing follows.
        case close
    }

    private enum Phase {
        case waiting
        case handling(isHead: Bool, version: HTTPVersion, keepAlive: Bool)
        case closed
    }

    /// Pending output above this many bytes is flushed before the next pipelined
    /// request is handled, instead of coalescing further.
    static let coalescingLimit = 64 * 1024

    let limits: ServerLimits
    /// Answers a request that asks for `100 Continue` from its head, instead of the
    /// continue (``HTTPServer``'s `continueCheck`); nil: always continue.
    let continueCheck: (@Sendable (HTTPRequest) -> HTTPResponse?)?
    private(set) var parser: RequestParser
    private var phase = Phase.waiting
    private var output: [UInt8] = []
    private var idleSince: Double
    private var headStart: Double
    private var bodyStart: Double?
    private var inputEnded = false
    private var isDraining = false
    /// Requests answered so far by the handler.
    private(set) var requestCount = 0

    init(limits: ServerLimits, now: Double, continueCheck: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil) {
        self.limits = limits
        self.continueCheck = continueCheck
        self.parser = RequestParser(limits: limits)
        self.idleSince = now
        self.headStart = now
    }

    /// Whether the connection is closed (after `.close` was emitted).
    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// Whether a handler is running for this connection.
    var isHandling: Bool {
        if case .handling = phase { return true }
        return false
    }

    /// Whether nothing of a request is pending: no handler running, no bytes of
    /// a next request received.
    var isIdle: Bool {
        if case .waiting = phase { return !parser.hasPartialRequest }
        return false
    }

    /// When ``timerFired(now:date:)`` will act, or `nil` while a handler runs
    /// (server time is not the client's fault) or after close.
    ///
    /// - Idle, no request yet on this connection: `headTimeout` after accept.
    /// - Idle between requests: `idleTimeout` after the last response.
    /// - Part of a head received: `headTimeout` after its first byte.
    /// - Reading a body: `bodyTimeout` after the head was complete.
    var deadline: Double? {
        guard case .waiting = phase else { return nil }
        if parser.isReadingBody { return (bodyStart ?? headStart) + limits.bodyTimeout }
        if parser.hasPartialRequest { return headStart + limits.headTimeout }
        return idleSince + (requestCount == 0 ? limits.headTimeout : limits.idleTimeout)
    }

    /// Whether the shell should keep reading: stop when this many unparsed
    /// bytes are buffered (a client pipelining faster than the handler runs).
    var wantsBytes: Bool {
        !isClosed && !inputEnded && parser.bufferedByteCount < limits.maxHeaderBytes + limits.maxBodyBytes + 65_536
    }

    // MARK: - Inputs

    /// Bytes arrived from the client.
    mutating func received(_ bytes: some Collection<UInt8>, now: Double, date: String) -> [Action] {
        guard !isClosed, !inputEnded else { return [] }
        if case .waiting = phase, !parser.hasPartialRequest, !bytes.isEmpty {
            headStart = now
        }
        parser.append(bytes)
        var actions: [Action] = []
        advance(now: now, date: date, into: &actions)
        return actions
    }

    /// The client closed its sending side (read returned 0). Requests already
    /// received are still answered; then the connection closes.
    mutating func inputClosed(now: Double, date: String) -> [Action] {
        guard !isClosed, !inputEnded else { return [] }
        inputEnded = true
        var actions: [Action] = []
        advance(now: now, date: date, into: &actions)
        return actions
    }

    /// The handler returned `response` for the request of the last `.handle`.
    mutating func handlerFinished(_ response: HTTPResponse, now: Double, date: String) -> [Action] {
        guard case .handling(let isHead, let version, let requestKeepAlive) = phase else { return [] }
        requestCount += 1
        let keepAlive = requestKeepAlive
            && !response.headers.containsToken("close", in: "Connection")
            && requestCount < limits.maxRequestsPerConnection
            && !isDraining
        ResponseEncoder.encode(response, keepAlive: keepAlive, requestVersion: version,
                               isHeadRequest: isHead, date: date, defaultFields: limits.responseFields, into: &output)
        var actions: [Action] = []
        if !keepAlive {
            closeAfterFlush(into: &actions)
            return actions
        }
        phase = .waiting
        idleSince = now
        headStart = now
        bodyStart = nil
        advance(now: now, date: date, into: &actions)
        return actions
    }

    /// The answers kept for coalescing, to be written now: the request handed out last
    /// will take long (it goes to a worker), so the answers before it must not wait for
    /// it. Nothing when none are kept.
    mutating func flushOutput() -> [Action] {
        var actions: [Action] = []
        flush(into: &actions)
        return actions
    }

    /// Bytes that arrived could not be taken: all connections together hold
    /// ``ServerLimits/maxPendingRequestBytes`` of unfinished requests. Waiting for a
    /// request (or inside one): `503` with `Retry-After: 1`, then close. While a handler
    /// runs: no more input is read and the connection closes after that answer
    /// (`Connection: close`), so responses stay in request order.
    mutating func refuseInput(date: String) -> [Action] {
        guard !isClosed else { return [] }
        var actions: [Action] = []
        switch phase {
        case .handling:
            inputEnded = true
            isDraining = true
        case .waiting, .closed:
            var response = HTTPResponse.problem(
                status: .serviceUnavailable, title: "Service Unavailable", detail: Self.pendingRequestDetail(limits),
                type: limits.problemType(for: .serviceUnavailable), extra: limits.problemMembers)
            response.headers.append("Retry-After", "1")
            reject(response, date: date, into: &actions)
            // The partial request is never read on: free its buffers now rather than when
            // the connection ends (it lingers up to 2 s).
            parser = RequestParser(limits: limits)
        }
        return actions
    }

    /// The `detail` of the `503` of ``refuseInput(date:)``.
    static func pendingRequestDetail(_ limits: ServerLimits) -> String {
        "Clients together are sending more than \(limits.maxPendingRequestBytes) bytes of unfinished requests (--max-pending-request-bytes); retry shortly."
    }

    /// The clock reached `now`: acts if ``deadline`` has passed.
    mutating func timerFired(now: Double, date: String) -> [Action] {
        guard let deadline, now >= deadline else { return [] }
        var actions: [Action] = []
        if parser.hasPartialRequest {
            reject(.problem(status: .requestTimeout, title: "Request Timeout",
                            detail: "The request was not received in time.", type: limits.problemType(for: .requestTimeout), extra: limits.problemMembers),
                   date: date, into: &actions)
        } else {
            closeAfterFlush(into: &actions)
        }
        return actions
    }

    /// The server is shutting down: an idle connection closes now; a busy one
    /// finishes its request, answers with `Connection: close`, and closes.
    mutating func beginShutdown(now: Double, date: String) -> [Action] {
        guard !isClosed else { return [] }
        isDraining = true
        var actions: [Action] = []
        if isIdle { closeAfterFlush(into: &actions) }
        return actions
    }

    // MARK: - Internals

    /// Parses buffered bytes while no handler runs; hands out the next request
    /// or answers an error.
    private mutating func advance(now: Double, date: String, into actions: inout [Action]) {
        guard case .waiting = phase else { return }
        while true {
            switch parser.next() {
            case .needMoreBytes:
                if parser.isReadingBody && bodyStart == nil { bodyStart = now }
                if inputEnded || (isDraining && !parser.hasPartialRequest) {
                    closeAfterFlush(into: &actions)
                } else {
                    flush(into: &actions)
                }
                return
            case .expectContinue:
                let head = continueCheck == nil ? nil : parser.head
                if let head, let response = continueCheck?(head) {
                    // A final answer instead of the continue; the body is never read, so the
                    // connection closes (RFC 9110 §10.1.1, RFC 9112 §9.6).
                    ResponseEncoder.encode(response, keepAlive: false, requestVersion: head.version,
                                           isHeadRequest: head.method == .HEAD, date: date,
                                           defaultFields: limits.responseFields, into: &output)
                    flush(into: &actions)
                    actions.append(.answeredBeforeContinue(head, status: response.status, bodyBytes: response.body.count, since: headStart))
                    actions.append(.close)
                    phase = .closed
                    return
                }
                bodyStart = now
                output.append(contentsOf: ResponseEncoder.continueResponse)
            case .request(var request):
                request.headReceivedAt = headStart
                bodyStart = nil
                phase = .handling(isHead: request.method == .HEAD, version: request.version,
                                  keepAlive: request.isKeepAlive)
                if output.count >= Self.coalescingLimit { flush(into: &actions) }
                actions.append(.handle(request))
                return
            case .failure(let error):
                let title = error.status.reasonPhrase
                reject(.problem(status: error.status, title: title, detail: error.detail(limits: limits), type: limits.problemType(for: error.status), extra: limits.problemMembers), date: date, into: &actions)
                return
            }
        }
    }

    private mutating func reject(_ response: HTTPResponse, date: String, into actions: inout [Action]) {
        ResponseEncoder.encode(response, keepAlive: false, requestVersion: .http1_1,
                               isHeadRequest: false, date: date, defaultFields: limits.responseFields, into: &output)
        flush(into: &actions)
        actions.append(.rejected(status: response.status, since: headStart))
        actions.append(.close)
        phase = .closed
    }

    private mutating func flush(into actions: inout [Action]) {
        guard !output.isEmpty else { return }
        actions.append(.write(output))
        output = []
    }

    private mutating func closeAfterFlush(into actions: inout [Action]) {
        flush(into: &actions)
        actions.append(.close)
        phase = .closed
    }

    /// The answer to a connection accepted beyond ``ServerLimits/maxConnections``:
    /// `503` problem with `Retry-After: 1` and `Connection: close`.
    static func overloadResponse(date: String, limits: ServerLimits = ServerLimits()) -> [UInt8] {
        var response = HTTPResponse.problem(status: .serviceUnavailable, title: "Service Unavailable",
                                            detail: "The server has too many open connections; retry shortly.",
                                            type: limits.problemType(for: .serviceUnavailable), extra: limits.problemMembers)
        response.headers.append("Retry-After", "1")
        var bytes: [UInt8] = []
        ResponseEncoder.encode(response, keepAlive: false, requestVersion: .http1_1,
                               isHeadRequest: false, date: date, defaultFields: limits.responseFields, into: &bytes)
        return bytes
    }
}
