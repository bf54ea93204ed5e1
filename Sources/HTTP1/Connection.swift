#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// What every connection of one server shares.
final class ServerContext: Sendable {
    let limits: ServerLimits
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let accessLog: (@Sendable (AccessLogRecord) -> Void)?
    let workers: WorkerPool
    /// Handlers of requests that `isExpensive` says are cheap (health checks,
    /// metrics, reads): a small pool of their own, so a queue of slow handlers on
    /// `workers` never delays them. `nil` when every request goes to `workers`.
    let lightWorkers: WorkerPool?
    let isExpensive: (@Sendable (HTTPRequest) -> Bool)?
    /// Requests still handled while ``ServerLimits/maxPendingResponseBytes`` is passed
    /// (their answers are small and bounded, like health checks); `nil`: none.
    let isSmallAnswer: (@Sendable (HTTPRequest) -> Bool)?
    /// Answers, on the I/O thread that read it, a request whose answer is ready without
    /// solving or waiting (``HTTPServer``'s `loopHandler`); `nil` from it sends the request
    /// to the workers. `nil`: every request goes to the workers.
    let loopHandler: (@Sendable (HTTPRequest) -> HTTPResponse?)?
    /// The I/O threads (at least one): each reads, parses and writes its own connections
    /// (``EventLoop/connections``); the reads they do never block (sockets are
    /// non-blocking; handlers that may block run on `workers`).
    let loops: [EventLoop]
    /// Requests answered by a handler on a worker thread (for metrics beside
    /// ``EventLoop/answeredCount``).
    let workerAnsweredCount = Atomic<Int>(0)
    /// Connections closed with answer bytes still unsent: the client read nothing of them
    /// for ``ServerLimits/bodyTimeout``, the connection failed, or the drain ended.
    let cutAnswerCount = Atomic<Int>(0)
    /// Requests not handled because their connection closed while they waited for a
    /// worker (``HTTPServer/abandonedCount``).
    let abandonedCount = Atomic<Int>(0)
    /// Told of each request counted in ``abandonedCount`` (``HTTPServer``'s `abandoned`).
    let abandoned: (@Sendable (HTTPRequest) -> Void)?
    private let loopCursor = Atomic<Int>(0)
    /// Connections that count toward ``ServerLimits/maxConnections``.
    let countedConnections = Atomic<Int>(0)
    /// Bytes of output held by all connections, sent or not, until each one's output
    /// is flushed, plus what the application reserved for answers it is writing
    /// (compared with ``ServerLimits/maxPendingResponseBytes``).
    let pendingBytes: PendingResponseBytes
    /// Bytes of unfinished requests held by all connections (the sum of each one's
    /// ``RequestParser/heldByteCount``), bounded by ``ServerLimits/maxPendingRequestBytes``.
    let pendingRequestBytes: PendingResponseBytes

    /// Answers a request refused over ``ServerLimits/maxPendingResponseBytes`` instead
    /// of the server's generic `503`, so the application can add its own headers, log
    /// and count it; `nil`: the generic one.
    let overCommittedHandler: (@Sendable (HTTPRequest) -> HTTPResponse)?

    /// Answers a request that asks for `100 Continue` from its head, before the
    /// continue is sent (``HTTPServer``'s `continueCheck`); `nil`: always continue.
    let continueCheck: (@Sendable (HTTPRequest) -> HTTPResponse?)?

    init(limits: ServerLimits, workerCount: Int,
         handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
         accessLog: (@Sendable (AccessLogRecord) -> Void)?,
         isExpensive: (@Sendable (HTTPRequest) -> Bool)? = nil,
         isSmallAnswer: (@Sendable (HTTPRequest) -> Bool)? = nil,
         overCommittedHandler: (@Sendable (HTTPRequest) -> HTTPResponse)? = nil,
         pendingBytes: PendingResponseBytes? = nil,
         continueCheck: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
         ioThreads: Int = 1,
         loopHandler: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
         abandoned: (@Sendable (HTTPRequest) -> Void)? = nil) {
        self.limits = limits
        self.abandoned = abandoned
        self.loopHandler = loopHandler
        self.pendingBytes = pendingBytes ?? PendingResponseBytes(limit: limits.maxPendingResponseBytes)
        self.pendingRequestBytes = PendingResponseBytes(limit: limits.maxPendingRequestBytes)
        self.handler = handler
        self.overCommittedHandler = overCommittedHandler
        self.continueCheck = continueCheck
        self.accessLog = accessLog
        self.workers = WorkerPool(threadCount: workerCount, name: "HTTP1.worker")
        self.isExpensive = isExpensive
        self.isSmallAnswer = isSmallAnswer
        self.lightWorkers = isExpensive == nil ? nil : WorkerPool(threadCount: 2, name: "HTTP1.light")
        self.loops = (0..<max(1, ioThreads)).map { EventLoop(index: $0) }
    }

    /// The loop that serves the next accepted connection: round-robin over ``loops``
    /// (as swift-nio's `MultiThreadedEventLoopGroup.next()`), whichever loop accepted it,
    /// so long-lived connections opened together spread evenly.
    func nextLoop() -> EventLoop {
        let turn = loopCursor.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[turn % loops.count]
    }

    /// Every open connection of every loop, ordered by id (accept order).
    func allConnections() -> [Connection] {
        loops.flatMap { loop in loop.connections.withLock { Array($0.values) } }.sorted { $0.id < $1.id }
    }

    /// Whether no loop holds a connection any more.
    var hasNoConnections: Bool {
        loops.allSatisfy { loop in loop.connections.withLock { $0.isEmpty } }
    }

    /// Whether `request` is large for the workers' spare thread (``WorkerPool``): its
    /// body is longer than ``ServerLimits/largeBodyBytes``.
    func isLarge(_ request: HTTPRequest) -> Bool {
        request.body.count > limits.largeBodyBytes
    }

    /// The pool that runs the handler for `request`.
    func pool(for request: HTTPRequest) -> WorkerPool {
        if let lightWorkers, let isExpensive, !isExpensive(request) { return lightWorkers }
        return workers
    }
}

/// One accepted TCP connection: the socket shell around a
/// ``ConnectionStateMachine``.
///
/// A class for identity and for the socket it owns. It performs the machine's
/// actions and decides nothing itself. All mutable state, including every
/// read, write, epoll registration and close of `fd`, is behind one `Mutex`,
/// so the event loop and the worker that finishes a handler can both drive
/// it; handlers run outside the lock. The connection leaves the registry when
/// its fd is closed, so a readiness event still in flight for it is dropped.
final class Connection: Sendable {
    /// How the connection is ending.
    private enum Closing {
        case open
        /// Our side is shut down for writing; reading and discarding until the
        /// client's EOF or the deadline, so that unread input does not turn our
        /// last response into a TCP reset (RFC 9112 §9.6).
        case lingering(deadline: Double)
        case closed
    }

    private struct IO {
        var machine: ConnectionStateMachine
        var pending: [UInt8] = []
        var pendingOffset = 0
        /// When the client last took output: a send that moved bytes, or a sweep that
        /// saw the kernel's send queue shrink (``tick(now:date:)``).
        var pendingSince = 0.0
        /// The kernel's unsent and unacknowledged bytes for this socket (`SIOCOUTQ`) at
        /// the last sweep while output was pending; `Int.max` before the first.
        var kernelQueued = Int.max
        var closeWhenFlushed = false
        var closing = Closing.open
        /// What the fd is registered for in the event loop (empty: not registered).
        var interest = EventLoop.Interest()
        var isReadSuspended = false
        /// Writes are left in `pending` for the caller to send once it has
        /// unlocked (set by ``runHandler(_:)`` around its own response).
        var defersSending = false
        /// A worker is sending `pending` outside the lock. `pending` stays
        /// non-empty meanwhile, so other writes queue behind it, `.close` waits
        /// for it, and a hard close leaves the fd for that worker to close.
        var isSending = false
        /// A pipelined request held back while more than ``Connection/maxUnsentBytes``
        /// of output wait for the client to read; the event loop resubmits it.
        var deferred: HTTPRequest?
        /// This connection's share of ``ServerContext/pendingRequestBytes``: its parser's
        /// ``RequestParser/heldByteCount`` as of the last ``syncHeldRequestBytes(_:)``.
        var heldRequestBytes = 0
    }

    /// Unsent output, in bytes, beyond which no further pipelined request is handled
    /// until the client reads: a client that pipelines requests and never reads the
    /// responses must not make the server buffer them without bound (one such
    /// connection held 60 MB). A single response may exceed it.
    static let maxUnsentBytes = 1 << 20

    /// Lingering lasts at most this long, in seconds.
    static let lingerTime = 2.0

    let id: UInt64
    let fd: Int32
    let remoteAddress: String
    /// Whether this connection counts toward ``ServerLimits/maxConnections``
    /// (a connection refused with 503 does not).
    let isCounted: Bool
    /// The I/O thread that serves this connection: its reads, its registration, and
    /// the writes a worker leaves unsent.
    let loop: EventLoop
    private let context: ServerContext
    private let io: Mutex<IO>

    init(id: UInt64, fd: Int32, remoteAddress: String, isCounted: Bool, loop: EventLoop, context: ServerContext) {
        self.id = id
        self.loop = loop
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.isCounted = isCounted
        self.context = context
        self.io = Mutex(IO(machine: ConnectionStateMachine(limits: context.limits, now: monotonicNow(),
                                                              continueCheck: context.continueCheck)))
    }

    /// Registers with the event loop and starts reading; `initialBytes`, if
    /// any, are written first and the connection then closes (the 503 path).
    func start(refusingWith initialBytes: [UInt8]? = nil) {
        io.withLock { io in
            if let initialBytes {
                _ = perform([.write(initialBytes), .close], &io)
            }
            updateInterest(&io)
        }
    }

    // MARK: - Events

    /// The socket is readable (or hung up): read what is there into `scratch`
    /// and act on it. Called on the event loop's thread, with its buffer. A request
    /// the loop handler answers is answered here, on this thread; the first one it
    /// leaves goes to a worker, with every request pipelined behind it (the machine
    /// hands out one request at a time, so answers keep the requests' order).
    func readable(scratch: UnsafeMutableRawBufferPointer) {
        let (request, rejected) = io.withLock { io -> (HTTPRequest?, [AccessLogRecord]) in
            readAvailable(&io, scratch: scratch)
        }
        log(rejected)
        guard let request, let left = answerOnLoop(request, scratch: scratch) else { return }
        context.pool(for: left).submit(isLarge: context.isLarge(left)) { [self] in runHandler(left) }
    }

    /// Answers `first`, and the pipelined requests behind it, with the loop handler on
    /// the loop's thread, writing each answer at once (what the socket does not take
    /// waits for `EPOLLOUT`). Stops at the first request the loop handler leaves.
    /// - Returns: that request, for a worker; `nil` when none is left to answer now.
    private func answerOnLoop(_ first: HTTPRequest, scratch: UnsafeMutableRawBufferPointer) -> HTTPRequest? {
        guard let loopHandler = context.loopHandler else { return first }
        var request = first
        var answered = false
        while true {
            let start = monotonicNow()
            // Refused over --max-pending-response-bytes: the workers answer (and count) it.
            guard !isOverCommitted(request), let response = loopHandler(request) else {
                if answered {
                    // The answers made here go out now rather than behind the worker's.
                    io.withLock { io in
                        guard case .open = io.closing else { return }
                        _ = perform(io.machine.flushOutput(), &io)
                    }
                }
                return request
            }
            answered = true
            loop.answeredCount.add(1, ordering: .relaxed)
            let end = monotonicNow()
            let date = HTTPDate.now()
            let (next, rejected) = io.withLock { io -> (HTTPRequest?, [AccessLogRecord]) in
                guard case .open = io.closing else { return (nil, []) }
                var outcome = perform(io.machine.handlerFinished(response, now: end, date: date), &io)
                syncHeldRequestBytes(&io)
                if outcome.request == nil, io.isReadSuspended, io.machine.wantsBytes, case .open = io.closing {
                    // Bytes held back while the answer was made may now be parsed.
                    let more = readAvailable(&io, scratch: scratch)
                    outcome.request = more.request
                    outcome.rejected += more.rejected
                }
                if let next = outcome.request, io.pending.count - io.pendingOffset > Connection.maxUnsentBytes {
                    io.deferred = next   // writable() resubmits it once the client has read
                    return (nil, outcome.rejected)
                }
                return (outcome.request, outcome.rejected)
            }
            context.accessLog?(AccessLogRecord(
                method: request.method, target: request.target, status: response.status,
                bodyBytes: response.body.count, duration: end - start, remoteAddress: remoteAddress))
            log(rejected)
            guard let next else { return nil }
            request = next
        }
    }

    /// Runs the handler for `first`, then for every pipelined request that is
    /// already complete, on this worker; responses are coalesced by the machine.
    private func runHandler(_ first: HTTPRequest) {
        // `first` waited for a worker: when its connection closed meanwhile (the client
        // reset it, it failed, the drain ended), its answer would be dropped unsent, so it
        // is not handled; the requests pipelined behind it are dropped with the connection.
        // A client that only ended its sending side is still answered (the connection is
        // open). Held by HTTPServerTests.aQueuedRequestOfAClosedConnectionIsNotHandled.
        guard isOpen else {
            context.abandonedCount.add(1, ordering: .relaxed)
            context.abandoned?(first)
            return
        }
        var request = first
        while true {
            let start = monotonicNow()
            let response = !isOverCommitted(request) ? context.handler(request)
                : context.overCommittedHandler?(request) ?? Connection.overCommittedResponse(limits: context.limits)
            let end = monotonicNow()
            let date = HTTPDate.now()
            context.workerAnsweredCount.add(1, ordering: .relaxed)
            let (next, rejected, output) = io.withLock { io -> (HTTPRequest?, [AccessLogRecord], [UInt8]?) in
                guard case .open = io.closing else { return (nil, [], nil) }
                let actions = io.machine.handlerFinished(response, now: end, date: date)
                let wasSending = io.isSending
                io.defersSending = true
                var outcome = perform(actions, &io)
                io.defersSending = false
                syncHeldRequestBytes(&io)
                // The response goes out after unlocking, so the event loop can read
                // this connection's next request meanwhile instead of waiting here.
                let output = !wasSending && io.isSending ? io.pending : nil
                if outcome.request == nil, io.isReadSuspended, io.machine.wantsBytes, case .open = io.closing {
                    // Bytes held back while the handler ran may now be parsed.
                    let more = withUnsafeTemporaryAllocation(byteCount: 65_536, alignment: 16) { scratch in
                        readAvailable(&io, scratch: scratch)
                    }
                    outcome.request = more.request
                    outcome.rejected += more.rejected
                }
                return (outcome.request, outcome.rejected, output)
            }
            if let output {
                let sent = output.withUnsafeBytes { send(all: $0) }
                io.withLock { io in finishSending(sent, &io) }
            }
            context.accessLog?(AccessLogRecord(
                method: request.method, target: request.target, status: response.status,
                bodyBytes: response.body.count, duration: end - start, remoteAddress: remoteAddress))
            log(rejected)
            guard let next else { return }
            let mustWait = io.withLock { io -> Bool in
                guard io.pending.count - io.pendingOffset > Connection.maxUnsentBytes else { return false }
                io.deferred = next
                return true
            }
            if mustWait { return }   // writable() resubmits it once the client has read
            request = next
        }
    }

    /// Whether `request` must be refused because clients hold more than
    /// ``ServerLimits/maxPendingResponseBytes`` of unread responses: every request but
    /// those whose answers the application says are small (health checks), whatever its
    /// method, since a `GET` of a large resource pins as much as a solve's answer
    /// (e2e `hostile/http-unread-gets`).
    private func isOverCommitted(_ request: HTTPRequest) -> Bool {
        guard context.pendingBytes.current > context.limits.maxPendingResponseBytes else { return false }
        return !(context.isSmallAnswer?(request) ?? false)
    }

    /// The generic answer to a request refused by ``isOverCommitted(_:)``: `503` with
    /// `Retry-After: 1`.
    static func overCommittedResponse(limits: ServerLimits) -> HTTPResponse {
        var response = HTTPResponse.problem(
            status: .serviceUnavailable, title: "Service Unavailable", detail: HTTPServer.overCommittedDetail,
            type: limits.problemType(for: .serviceUnavailable), extra: limits.problemMembers)
        response.headers.append("Retry-After", "1")
        return response
    }

    /// Replaces the connection's output buffer, keeping ``ServerContext/pendingBytes``
    /// the sum of every connection's.
    private func setPending(_ bytes: [UInt8], _ io: inout IO) {
        context.pendingBytes.add(bytes.count - io.pending.count)
        io.pending = bytes
    }

    /// Brings this connection's share of ``ServerContext/pendingRequestBytes`` to what its
    /// parser holds now (nothing once the connection is lingering or closed). The change
    /// is applied unconditionally: bytes are refused only before they are read, and only
    /// after a request's first read (``readAvailable(_:scratch:)``), so each connection
    /// may take the total past the bound by its first read, the body's first 64 KiB and
    /// one growth of its buffers (``ServerLimits/maxPendingRequestBytes``).
    private func syncHeldRequestBytes(_ io: inout IO) {
        var held = 0
        if case .open = io.closing { held = io.machine.parser.heldByteCount }
        let delta = held - io.heldRequestBytes
        guard delta != 0 else { return }
        context.pendingRequestBytes.add(delta)
        io.heldRequestBytes = held
    }

    /// The periodic sweep: fires the machine's timeouts and ends lingering,
    /// stalled writes.
    func tick(now: Double, date: String) {
        let rejected = io.withLock { io -> [AccessLogRecord] in
            switch io.closing {
            case .closed:
                return []
            case .lingering(let deadline):
                if now >= deadline { hardClose(&io) }
                return []
            case .open:
                if !io.pending.isEmpty {
                    // A client that reads steadily but slowly may leave the socket unwritable
                    // for long: Linux reports EPOLLOUT only once a third of the send queue is
                    // free (`sk_stream_wspace` against `sk_stream_min_wspace`), which with
                    // megabytes queued is minutes at a few KB/s. So progress is also read from
                    // the queue itself: acknowledged bytes leave it (e2e `hostile/answers-slow-steady-reader`).
                    let queued = unsentKernelBytes()
                    if queued < io.kernelQueued { io.pendingSince = now }
                    io.kernelQueued = queued
                }
                if !io.pending.isEmpty && now - io.pendingSince > context.limits.bodyTimeout {
                    hardClose(&io)   // the client read nothing of our answers for --body-timeout
                    return []
                }
                let rejected = perform(io.machine.timerFired(now: now, date: date), &io).rejected
                syncHeldRequestBytes(&io)
                return rejected
            }
        }
        log(rejected)
    }

    /// Graceful shutdown: idle connections close, busy ones close after their response.
    func beginShutdown() {
        io.withLock { io in
            guard case .open = io.closing else { return }
            _ = perform(io.machine.beginShutdown(now: monotonicNow(), date: HTTPDate.now()), &io)
        }
    }

    /// Whether the connection has not started closing (not lingering, not closed).
    var isOpen: Bool {
        io.withLock { io in
            if case .open = io.closing { return true }
            return false
        }
    }

    /// Closes at once, whatever the state (end of the drain period).
    func forceClose() {
        io.withLock { io in hardClose(&io) }
    }

    // MARK: - Reading

    /// Reads until the socket is drained (or the machine wants no more bytes),
    /// using `scratch` as the receive buffer.
    private func readAvailable(_ io: inout IO, scratch: UnsafeMutableRawBufferPointer) -> (request: HTTPRequest?, rejected: [AccessLogRecord]) {
        var request: HTTPRequest?
        var rejected: [AccessLogRecord] = []
        reading: while true {
            if case .closed = io.closing { break reading }
            if case .open = io.closing, !io.machine.wantsBytes {
                suspendReading(&io)
                break reading
            }
            let count = recv(fd, scratch.baseAddress, scratch.count, 0)
            if count > 0 {
                guard case .open = io.closing else { continue }   // lingering: discard
                let bytes = UnsafeRawBufferPointer(rebasing: scratch[0..<count])
                // The first read of a request is always taken (a health check gets
                // through; a request parsed whole from it costs no atomic operation);
                // later ones only within --max-pending-request-bytes.
                if io.heldRequestBytes > 0 {
                    guard context.pendingRequestBytes.reserve(count) else {
                        rejected += perform(io.machine.refuseInput(date: HTTPDate.now()), &io).rejected
                        syncHeldRequestBytes(&io)
                        continue   // these bytes are dropped unread
                    }
                    io.heldRequestBytes += count
                }
                let outcome = perform(io.machine.received(bytes, now: monotonicNow(), date: HTTPDate.now()), &io)
                syncHeldRequestBytes(&io)
                if let next = outcome.request { request = next }
                rejected += outcome.rejected
                // A short read drained the socket: skip the recv that would
                // only say EAGAIN (level-triggered epoll reports new bytes).
                if count < scratch.count && !io.isReadSuspended { break reading }
            } else if count == 0 {
                if case .lingering = io.closing {
                    hardClose(&io)
                    break reading
                }
                suspendReading(&io)
                let outcome = perform(io.machine.inputClosed(now: monotonicNow(), date: HTTPDate.now()), &io)
                syncHeldRequestBytes(&io)
                if let next = outcome.request { request = next }
                rejected += outcome.rejected
                // The client's EOF is already in: lingering would only wait for it again.
                if case .lingering = io.closing { hardClose(&io) }
                break reading
            } else {
                let code = errno
                if code == EINTR { continue }
                if code != EAGAIN && code != EWOULDBLOCK { hardClose(&io) }
                if io.isReadSuspended { resumeReading(&io) }
                break reading
            }
        }
        return (request, rejected)
    }

    private func suspendReading(_ io: inout IO) {
        guard !io.isReadSuspended else { return }
        io.isReadSuspended = true
        updateInterest(&io)
    }

    private func resumeReading(_ io: inout IO) {
        guard io.isReadSuspended else { return }
        io.isReadSuspended = false
        updateInterest(&io)
    }

    /// Brings the event-loop registration in line with the state: readable
    /// unless reading is suspended, writable while output is pending, nothing
    /// once closed.
    private func updateInterest(_ io: inout IO) {
        var wanted = EventLoop.Interest()
        if case .closed = io.closing {
        } else {
            if !io.isReadSuspended { wanted.insert(.readable) }
            if !io.pending.isEmpty && !io.isSending { wanted.insert(.writable) }
        }
        loop.update(fd: fd, id: id, from: io.interest, to: wanted)
        io.interest = wanted
    }

    // MARK: - Actions

    /// Performs the machine's actions in order; returns the request to hand to
    /// a worker, if any, and the access-log records of the answers given without the
    /// handler (the server's own, and those before `100 Continue`).
    private func perform(_ actions: [ConnectionStateMachine.Action], _ io: inout IO)
        -> (request: HTTPRequest?, rejected: [AccessLogRecord]) {
        var request: HTTPRequest?
        var rejected: [AccessLogRecord] = []
        for action in actions {
            switch action {
            case .handle(let next):
                request = next
            case .write(let bytes):
                write(bytes, &io)
            case .rejected(let status, let since):
                rejected.append(AccessLogRecord(method: nil, target: nil, status: status, bodyBytes: 0,
                                                duration: max(0, monotonicNow() - since), remoteAddress: remoteAddress))
            case .answeredBeforeContinue(let head, let status, let bodyBytes, let since):
                rejected.append(AccessLogRecord(method: head.method, target: head.target, status: status, bodyBytes: bodyBytes,
                                                duration: max(0, monotonicNow() - since), remoteAddress: remoteAddress))
            case .close:
                if io.pending.isEmpty {
                    beginLinger(&io)
                } else {
                    io.closeWhenFlushed = true
                }
            }
        }
        return (request, rejected)
    }

    private func write(_ bytes: [UInt8], _ io: inout IO) {
        guard case .open = io.closing else { return }
        if !io.pending.isEmpty {
            context.pendingBytes.add(bytes.count)
            io.pending.append(contentsOf: bytes)
            return
        }
        if io.defersSending {
            setPending(bytes, &io)
            io.pendingOffset = 0
            io.pendingSince = monotonicNow()
            io.isSending = true
            return
        }
        let sent = bytes.withUnsafeBytes { send(all: $0) }
        guard let sent else {
            hardClose(&io)
            return
        }
        if sent < bytes.count {
            setPending(Array(bytes[sent...]), &io)
            io.pendingOffset = 0
            io.pendingSince = monotonicNow()
            updateInterest(&io)
        }
    }

    /// Sends as much as the socket takes without blocking; `nil` on a
    /// connection error (peer gone). `MSG_NOSIGNAL`: never SIGPIPE.
    private func send(all bytes: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                return nil
            }
        }
        return offset
    }

    /// Ends a send made outside the lock: `sent` bytes of `pending` went out
    /// (`nil`: the connection failed). Sends what was queued meanwhile, or
    /// leaves the rest to the event loop; closes the fd if a hard close came
    /// while the send was in flight.
    private func finishSending(_ sent: Int?, _ io: inout IO) {
        io.isSending = false
        if case .closed = io.closing {
            closeDescriptor()
            return
        }
        guard let sent else {
            hardClose(&io)
            return
        }
        io.pendingOffset += sent
        if io.pendingOffset < io.pending.count && sent > 0 {
            io.pendingSince = monotonicNow()
            guard let more = sendRest(&io) else { return }
            io.pendingOffset += more
        }
        clearIfFlushed(&io)
        updateInterest(&io)
    }

    /// The socket can take more of the pending output. Called on the event loop's
    /// thread. Once the unsent output is back under ``maxUnsentBytes``, a pipelined
    /// request held back goes to the workers.
    func writable() {
        let resumed = io.withLock { io -> HTTPRequest? in
            guard case .open = io.closing, !io.pending.isEmpty, !io.isSending else { return nil }
            guard let sent = sendRest(&io) else { return nil }
            io.pendingOffset += sent
            if sent > 0 { io.pendingSince = monotonicNow() }
            clearIfFlushed(&io)
            updateInterest(&io)
            guard case .open = io.closing, io.pending.count - io.pendingOffset <= Connection.maxUnsentBytes,
                  let deferred = io.deferred else { return nil }
            io.deferred = nil
            return deferred
        }
        if let resumed {
            context.pool(for: resumed).submit(isLarge: context.isLarge(resumed)) { [self] in runHandler(resumed) }
        }
    }

    /// Sends what the socket takes of the pending output from `pendingOffset` on
    /// (without advancing it); a send error closes the connection hard.
    /// - Returns: the bytes sent, or `nil` after a hard close.
    private func sendRest(_ io: inout IO) -> Int? {
        let sent = io.pending.withUnsafeBytes { raw in
            send(all: UnsafeRawBufferPointer(rebasing: raw[io.pendingOffset...]))
        }
        if sent == nil { hardClose(&io) }
        return sent
    }

    /// Once all pending output is sent: clears it, and begins lingering if the
    /// connection closes after this response.
    private func clearIfFlushed(_ io: inout IO) {
        guard io.pendingOffset == io.pending.count else { return }
        setPending([], &io)
        io.pendingOffset = 0
        if io.closeWhenFlushed { beginLinger(&io) }
    }

    // MARK: - Closing

    private func beginLinger(_ io: inout IO) {
        guard case .open = io.closing else { return }
        shutdown(fd, Int32(SHUT_WR))
        io.closing = .lingering(deadline: monotonicNow() + Connection.lingerTime)
        syncHeldRequestBytes(&io)
        // Keep reading (and discarding) until EOF, even if the machine had paused input.
        resumeReading(&io)
    }

    /// Unregisters, then closes the fd and leaves the registry, or leaves that
    /// to the worker whose send is in flight (``finishSending(_:_:)``).
    private func hardClose(_ io: inout IO) {
        if case .closed = io.closing { return }
        io.closing = .closed
        if io.pendingOffset < io.pending.count { context.cutAnswerCount.add(1, ordering: .relaxed) }
        syncHeldRequestBytes(&io)
        setPending([], &io)
        io.pendingOffset = 0
        io.deferred = nil
        updateInterest(&io)
        if !io.isSending { closeDescriptor() }
    }

    /// The bytes the kernel still holds for this socket, sent or not but not acknowledged
    /// by the client (`ioctl(SIOCOUTQ)`, tcp(7)); `Int.max` when the call fails, which
    /// never counts as progress.
    private func unsentKernelBytes() -> Int {
        var queued: Int32 = 0
        guard ioctl(fd, UInt(TIOCOUTQ), &queued) == 0 else { return Int.max }
        return Int(queued)
    }

    /// Closes the fd and leaves the registry. Called with `io` locked (lock
    /// order: a connection's `io`, then the registry; nothing takes them the
    /// other way), once per connection.
    private func closeDescriptor() {
        close(fd)
        loop.connections.withLock { _ = $0.removeValue(forKey: id) }
        if isCounted { context.countedConnections.subtract(1, ordering: .relaxed) }
    }

    /// Sends the server's own answers (and those given before `100 Continue`) to the access log.
    private func log(_ records: [AccessLogRecord]) {
        guard let accessLog = context.accessLog else { return }
        for record in records { accessLog(record) }
    }
}
