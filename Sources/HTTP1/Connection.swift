#if canImport(Glibc)
import Glibc
#endif
import Dispatch
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
    /// Where read and write sources fire. Their handlers never block (sockets
    /// are non-blocking; handlers run on `workers`).
    let ioQueue = DispatchQueue(label: "HTTP1.io", attributes: .concurrent)
    /// Open connections by id (including ones being closed, which still hold an fd).
    let connections = Mutex<[UInt64: Connection]>([:])
    /// Connections that count toward ``ServerLimits/maxConnections``.
    let countedConnections = Atomic<Int>(0)

    init(limits: ServerLimits, workerCount: Int,
         handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
         accessLog: (@Sendable (AccessLogRecord) -> Void)?,
         isExpensive: (@Sendable (HTTPRequest) -> Bool)? = nil) {
        self.limits = limits
        self.handler = handler
        self.accessLog = accessLog
        self.workers = WorkerPool(threadCount: workerCount, name: "HTTP1.worker")
        self.isExpensive = isExpensive
        self.lightWorkers = isExpensive == nil ? nil : WorkerPool(threadCount: 2, name: "HTTP1.light")
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
/// read, write and close of `fd`, is behind one `Mutex`, so the I/O queue and
/// the worker that finishes a handler can both drive it; handlers run outside
/// the lock. The fd is closed only after its Dispatch sources are cancelled
/// (Dispatch's rule), and the connection leaves the registry at that moment.
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
        var pendingSince = 0.0
        var closeWhenFlushed = false
        var closing = Closing.open
        var readSource: (any DispatchSourceRead)?
        var writeSource: (any DispatchSourceWrite)?
        var isReadSuspended = false
        var liveSources = 0
    }

    /// Lingering lasts at most this long, in seconds.
    static let lingerTime = 2.0

    let id: UInt64
    let fd: Int32
    let remoteAddress: String
    /// Whether this connection counts toward ``ServerLimits/maxConnections``
    /// (a connection refused with 503 does not).
    let isCounted: Bool
    private let context: ServerContext
    private let io: Mutex<IO>

    init(id: UInt64, fd: Int32, remoteAddress: String, isCounted: Bool, context: ServerContext) {
        self.id = id
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.isCounted = isCounted
        self.context = context
        self.io = Mutex(IO(machine: ConnectionStateMachine(limits: context.limits, now: monotonicNow())))
    }

    /// Registers the read source and starts reading; `initialBytes`, if any,
    /// are written first and the connection then closes (the 503 path).
    func start(refusingWith initialBytes: [UInt8]? = nil) {
        io.withLock { io in
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: context.ioQueue)
            source.setEventHandler { [self] in readable() }
            source.setCancelHandler { [self] in sourceCancelled() }
            io.readSource = source
            io.liveSources = 1
            if let initialBytes {
                _ = perform([.write(initialBytes), .close], &io)
            }
            source.resume()
        }
    }

    // MARK: - Events

    /// The read source fired: read what is there and act on it.
    private func readable() {
        let (request, rejected) = io.withLock { io -> (HTTPRequest?, [Int]) in
            readAvailable(&io)
        }
        log(rejected)
        if let request {
            context.pool(for: request).submit { [self] in runHandler(request) }
        }
    }

    /// Runs the handler for `first`, then for every pipelined request that is
    /// already complete, on this worker; responses are coalesced by the machine.
    private func runHandler(_ first: HTTPRequest) {
        var request = first
        while true {
            let start = monotonicNow()
            let response = context.handler(request)
            let end = monotonicNow()
            let date = HTTPDate.now()
            let (next, rejected) = io.withLock { io -> (HTTPRequest?, [Int]) in
                guard case .open = io.closing else { return (nil, []) }
                let actions = io.machine.handlerFinished(response, now: end, date: date)
                var outcome = perform(actions, &io)
                if outcome.request == nil, io.isReadSuspended, io.machine.wantsBytes, case .open = io.closing {
                    // Bytes held back while the handler ran may now be parsed.
                    let more = readAvailable(&io)
                    outcome.request = more.request
                    outcome.rejected += more.rejected
                }
                return (outcome.request, outcome.rejected)
            }
            context.accessLog?(AccessLogRecord(
                method: request.method, target: request.target, status: response.status,
                bodyBytes: response.body.count, duration: end - start, remoteAddress: remoteAddress))
            log(rejected)
            guard let next else { return }
            request = next
        }
    }

    /// The periodic sweep: fires the machine's timeouts and ends lingering,
    /// stalled writes.
    func tick(now: Double, date: String) {
        let rejected = io.withLock { io -> [Int] in
            switch io.closing {
            case .closed:
                return []
            case .lingering(let deadline):
                if now >= deadline { hardClose(&io) }
                return []
            case .open:
                if !io.pending.isEmpty && now - io.pendingSince > context.limits.bodyTimeout {
                    hardClose(&io)   // the client stopped reading our responses
                    return []
                }
                return perform(io.machine.timerFired(now: now, date: date), &io).rejected
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

    private func readAvailable(_ io: inout IO) -> (request: HTTPRequest?, rejected: [Int]) {
        var request: HTTPRequest?
        var rejected: [Int] = []
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65_536) { scratch in
            while true {
                if case .closed = io.closing { return }
                if case .open = io.closing, !io.machine.wantsBytes {
                    suspendReading(&io)
                    return
                }
                let count = recv(fd, scratch.baseAddress, scratch.count, 0)
                if count > 0 {
                    guard case .open = io.closing else { continue }   // lingering: discard
                    let bytes = UnsafeBufferPointer(rebasing: scratch[0..<count])
                    let outcome = perform(io.machine.received(bytes, now: monotonicNow(), date: HTTPDate.now()), &io)
                    if let next = outcome.request { request = next }
                    rejected += outcome.rejected
                    // A short read drained the socket: skip the recv that would
                    // only say EAGAIN (the source fires again for new bytes).
                    if count < scratch.count && !io.isReadSuspended { return }
                } else if count == 0 {
                    if case .lingering = io.closing {
                        hardClose(&io)
                        return
                    }
                    suspendReading(&io)
                    let outcome = perform(io.machine.inputClosed(now: monotonicNow(), date: HTTPDate.now()), &io)
                    if let next = outcome.request { request = next }
                    rejected += outcome.rejected
                    return
                } else {
                    let code = errno
                    if code == EINTR { continue }
                    if code != EAGAIN && code != EWOULDBLOCK { hardClose(&io) }
                    if io.isReadSuspended { resumeReading(&io) }
                    return
                }
            }
        }
        return (request, rejected)
    }

    private func suspendReading(_ io: inout IO) {
        guard !io.isReadSuspended, let source = io.readSource else { return }
        source.suspend()
        io.isReadSuspended = true
    }

    private func resumeReading(_ io: inout IO) {
        guard io.isReadSuspended, let source = io.readSource else { return }
        io.isReadSuspended = false
        source.resume()
    }

    // MARK: - Actions

    /// Performs the machine's actions in order; returns the request to hand to
    /// a worker, if any, and the statuses the server answered by itself.
    private func perform(_ actions: [ConnectionStateMachine.Action], _ io: inout IO)
        -> (request: HTTPRequest?, rejected: [Int]) {
        var request: HTTPRequest?
        var rejected: [Int] = []
        for action in actions {
            switch action {
            case .handle(let next):
                request = next
            case .write(let bytes):
                write(bytes, &io)
            case .rejected(let status):
                rejected.append(status)
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
            io.pending.append(contentsOf: bytes)
            return
        }
        let sent = bytes.withUnsafeBytes { send(all: $0) }
        guard let sent else {
            hardClose(&io)
            return
        }
        if sent < bytes.count {
            io.pending = Array(bytes[sent...])
            io.pendingOffset = 0
            io.pendingSince = monotonicNow()
            startWriteSource(&io)
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

    private func startWriteSource(_ io: inout IO) {
        guard io.writeSource == nil else { return }
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: context.ioQueue)
        source.setEventHandler { [self] in writable() }
        source.setCancelHandler { [self] in sourceCancelled() }
        io.writeSource = source
        io.liveSources += 1
        source.resume()
    }

    /// The socket can take more of the pending output.
    private func writable() {
        io.withLock { io in
            guard case .open = io.closing, !io.pending.isEmpty else { return }
            let sent = io.pending.withUnsafeBytes { raw in
                send(all: UnsafeRawBufferPointer(rebasing: raw[io.pendingOffset...]))
            }
            guard let sent else {
                hardClose(&io)
                return
            }
            io.pendingOffset += sent
            if sent > 0 { io.pendingSince = monotonicNow() }
            guard io.pendingOffset == io.pending.count else { return }
            io.pending = []
            io.pendingOffset = 0
            io.writeSource?.cancel()
            io.writeSource = nil
            if io.closeWhenFlushed { beginLinger(&io) }
        }
    }

    // MARK: - Closing

    private func beginLinger(_ io: inout IO) {
        guard case .open = io.closing else { return }
        shutdown(fd, Int32(SHUT_WR))
        io.closing = .lingering(deadline: monotonicNow() + Connection.lingerTime)
        // Keep reading (and discarding) until EOF, even if the machine had paused input.
        resumeReading(&io)
    }

    private func hardClose(_ io: inout IO) {
        if case .closed = io.closing { return }
        io.closing = .closed
        io.pending = []
        resumeReading(&io)   // a suspended source never delivers its cancellation
        io.readSource?.cancel()
        io.readSource = nil
        io.writeSource?.cancel()
        io.writeSource = nil
    }

    /// A source's cancel handler: the last one closes the fd and unregisters.
    private func sourceCancelled() {
        let isLast = io.withLock { io -> Bool in
            io.liveSources -= 1
            return io.liveSources == 0
        }
        guard isLast else { return }
        close(fd)
        context.connections.withLock { _ = $0.removeValue(forKey: id) }
        if isCounted { context.countedConnections.subtract(1, ordering: .relaxed) }
    }

    private func log(_ statuses: [Int]) {
        guard let accessLog = context.accessLog else { return }
        for status in statuses {
            accessLog(AccessLogRecord(method: nil, target: nil, status: status, bodyBytes: 0,
                                      duration: 0, remoteAddress: remoteAddress))
        }
    }
}
