#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import Synchronization

/// A generic HTTP/1.1 server (RFC 9112) on non-blocking sockets, `epoll` and Dispatch.
///
/// Threads: one serial Dispatch queue accepts and another runs the timeout
/// sweep; one event-loop thread waits on `epoll` for every connection and
/// reads and parses on its own (no thread is parked per connection, so
/// thousands of idle or slow connections cost only memory); the handler runs on
/// a pool of `workerCount` threads and its response is written from that same
/// thread (the event loop writes only what the socket did not take at once),
/// so a request makes exactly one thread hop. Pipelined requests are
/// answered in order, and responses that are ready together go out in one write.
///
/// The server answers framing errors itself (400, 408, 413, 414, 431, 501, 505,
/// and 503 beyond ``ServerLimits/maxConnections``) with problem+json and
/// `Connection: close`; everything else is up to `handler`.
///
/// A class because it owns sockets and threads. `Sendable`: its stored
/// properties are immutable or behind `Mutex`.
public final class HTTPServer: Sendable {
    /// The `detail` of a `503` refused while clients leave more than
    /// ``ServerLimits/maxPendingResponseBytes`` unread: the server's generic answer, and
    /// the one an `overCommittedHandler` may reuse.
    public static let overCommittedDetail = "The server holds more answers that clients have not read yet than --max-pending-response-bytes allows; retry shortly."

    private enum State {
        case idle
        case running(listener: any DispatchSourceRead, timer: any DispatchSourceTimer, spareFD: Int32)
        case stopped
    }

    /// The host given to `init`.
    public let host: String
    /// The port given to `init` (0 for an ephemeral one; ``start()`` returns the real one).
    public let port: Int
    /// The address given to `init`, already resolved; nil: ``start()`` resolves ``host``.
    public let address: BindAddress?
    /// The limits in force.
    public let limits: ServerLimits
    private let context: ServerContext
    private let acceptQueue = DispatchQueue(label: "HTTP1.accept")
    private let timerQueue = DispatchQueue(label: "HTTP1.timer")
    private let state = Mutex<State>(.idle)
    private let nextID = Atomic<UInt64>(1)
    private let isDraining = Atomic<Bool>(false)

    /// Creates a server; nothing is bound until ``start()``.
    ///
    /// - Parameters:
    ///   - host: A numeric address or name to bind, e.g. `"127.0.0.1"`, `"0.0.0.0"`, `"::"`
    ///     or `"[::1]"`, resolved by ``BindAddress/resolve(_:port:)`` in ``start()``.
    ///   - port: The TCP port; 0 picks a free one.
    ///   - address: `host` and `port` already resolved, when the caller looked at the
    ///     address (to classify it as loopback): exactly this address is bound, so what
    ///     was classified is what listens. Nil: ``start()`` resolves `host`.
    ///   - limits: Sizes and timeouts; see ``ServerLimits``.
    ///   - workerCount: Handler threads; default one per core.
    ///   - accessLog: Called once per request answered (from a worker or I/O
    ///     thread; must be thread-safe and quick).
    ///   - isExpensive: Says which requests may take long (solving); the others run
    ///     on a separate pool of two threads, so health checks and reads are answered
    ///     even while every worker is busy. `nil`: every request runs on the workers.
    ///   - isSmallAnswer: Says which requests have small, bounded answers (health
    ///     checks): they are still handled while clients leave more than
    ///     ``ServerLimits/maxPendingResponseBytes`` unread; every other request is then
    ///     refused. `nil`: every request is refused then.
    ///   - overCommittedHandler: Answers, instead of `handler`, a request (not a small
    ///     answer) that arrives while clients leave more than
    ///     ``ServerLimits/maxPendingResponseBytes`` of answers unread (it should be
    ///     cheap: a `503` with `Retry-After`, with the application's own headers and
    ///     logging). `nil`: the server's generic `503` problem with `Retry-After: 1`.
    ///   - pendingResponseBytes: The count of pending response bytes, when the
    ///     application shares it to reserve bytes for answers it is still writing (its
    ///     limit should be ``ServerLimits/maxPendingResponseBytes``); `nil`: a new one.
    ///   - continueCheck: Looks at the head of a request that asks for `100 Continue`
    ///     (`Expect: 100-continue` with a body; the request is given without its body)
    ///     before `100 Continue` is sent: a response answers the request at once, as
    ///     final, and the connection closes without reading the body (RFC 9110 §10.1.1,
    ///     RFC 9112 §9.6); nil sends `100 Continue`. Called on the I/O thread: it must be
    ///     quick. The response is the application's to log and count (as the handler's
    ///     are); the access log gets it with its method and target. `nil`: always `100 Continue`.
    ///   - handler: Turns a request into a response; called on a worker thread,
    ///     possibly concurrently for different connections.
    public init(
        host: String,
        port: Int,
        address: BindAddress? = nil,
        limits: ServerLimits = ServerLimits(),
        workerCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        accessLog: (@Sendable (AccessLogRecord) -> Void)? = nil,
        isExpensive: (@Sendable (HTTPRequest) -> Bool)? = nil,
        isSmallAnswer: (@Sendable (HTTPRequest) -> Bool)? = nil,
        overCommittedHandler: (@Sendable (HTTPRequest) -> HTTPResponse)? = nil,
        pendingResponseBytes: PendingResponseBytes? = nil,
        continueCheck: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        self.host = host
        self.port = port
        self.address = address
        self.limits = limits
        self.context = ServerContext(limits: limits, workerCount: workerCount, handler: handler,
                                     accessLog: accessLog, isExpensive: isExpensive, isSmallAnswer: isSmallAnswer,
                                     overCommittedHandler: overCommittedHandler, pendingBytes: pendingResponseBytes,
                                     continueCheck: continueCheck)
    }

    /// Bytes of answers held unsent, and reserved for answers being written.
    public var pendingResponseBytes: PendingResponseBytes { context.pendingBytes }

    /// Bytes of unfinished requests held by all connections; its limit is
    /// ``ServerLimits/maxPendingRequestBytes``. For metrics.
    public var pendingRequestBytes: PendingResponseBytes { context.pendingRequestBytes }

    /// Connections currently open (accepted and not yet closed), excluding
    /// ones being refused with 503. For metrics.
    public var openConnectionCount: Int {
        context.countedConnections.load(ordering: .relaxed)
    }

    /// Binds and listens (`SO_REUSEADDR`, backlog `SOMAXCONN`), then starts
    /// accepting.
    ///
    /// - Returns: The bound port (the ephemeral one when `port` is 0).
    /// - Throws: ``HTTPServerError`` if the address cannot be resolved or bound,
    ///   or the server was already started.
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { state in
            guard case .idle = state else { throw HTTPServerError.alreadyStarted }
            let (fd, boundPort) = try Socket.listen(address ?? BindAddress.resolve(host, port: port), backlog: SOMAXCONN)
            let listener = DispatchSource.makeReadSource(fileDescriptor: fd, queue: acceptQueue)
            listener.setEventHandler { [self] in acceptPending(fd) }
            listener.setCancelHandler { close(fd) }
            let timer = DispatchSource.makeTimerSource(queue: timerQueue)
            let interval = sweepInterval
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
            timer.setEventHandler { [self] in sweep() }
            state = .running(listener: listener, timer: timer, spareFD: open("/dev/null", O_RDONLY | O_CLOEXEC))
            listener.resume()
            timer.resume()
            return boundPort
        }
    }

    /// Graceful shutdown; blocks until done. Stops accepting, lets in-flight
    /// requests finish and be answered with `Connection: close` (idle
    /// connections close at once), waits at most ``ServerLimits/drainTimeout``
    /// seconds, then closes whatever is left and stops the workers. Safe to
    /// call more than once.
    public func shutdown() {
        let stopped: (any DispatchSourceRead, any DispatchSourceTimer, Int32)? = state.withLock { state in
            guard case .running(let listener, let timer, let spare) = state else { return nil }
            state = .stopped
            return (listener, timer, spare)
        }
        guard let (listener, timer, spare) = stopped else { return }
        isDraining.store(true, ordering: .relaxed)
        listener.cancel()
        acceptQueue.sync {}   // no accept runs after this point
        for connection in snapshot() { connection.beginShutdown() }
        // Wait for busy connections; lingering ones are only waiting for the
        // client's EOF and are cut short below.
        let deadline = monotonicNow() + limits.drainTimeout
        while snapshot().contains(where: \.isOpen) && monotonicNow() < deadline {
            usleep(5_000)
        }
        for connection in snapshot() { connection.forceClose() }
        let closeDeadline = monotonicNow() + 1
        while !context.connections.withLock({ $0.isEmpty }) && monotonicNow() < closeDeadline {
            usleep(1_000)
        }
        timer.cancel()
        if spare >= 0 { close(spare) }
        context.workers.stop()
        context.lightWorkers?.stop()
        context.loop.stop()
    }

    // MARK: - Accepting

    private func acceptPending(_ listener: Int32) {
        while true {
            guard let (fd, remote) = Socket.accept(listener) else {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE: shedOneConnection(listener)
                default: break
                }
                return
            }
            if isDraining.load(ordering: .relaxed) {
                close(fd)
                continue
            }
            let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
            let isCounted = context.countedConnections.load(ordering: .relaxed) < limits.maxConnections
            let connection = Connection(id: id, fd: fd, remoteAddress: remote, isCounted: isCounted, context: context)
            context.connections.withLock { $0[id] = connection }
            if isCounted {
                context.countedConnections.add(1, ordering: .relaxed)
                connection.start()
            } else {
                context.accessLog?(AccessLogRecord(method: nil, target: nil, status: .serviceUnavailable, bodyBytes: 0,
                                                   duration: 0, remoteAddress: remote))
                connection.start(refusingWith: ConnectionStateMachine.overloadResponse(date: HTTPDate.now(), limits: context.limits))
            }
        }
    }

    /// Out of file descriptors: free the spare one, accept and drop the pending
    /// connection (so the level-triggered listener does not spin), re-reserve.
    private func shedOneConnection(_ listener: Int32) {
        state.withLock { state in
            guard case .running(let source, let timer, let spare) = state, spare >= 0 else { return }
            close(spare)
            if let (fd, _) = Socket.accept(listener) { close(fd) }
            state = .running(listener: source, timer: timer, spareFD: open("/dev/null", O_RDONLY | O_CLOEXEC))
        }
    }

    // MARK: - Timeouts

    /// How often deadlines are checked: a quarter of the shortest timeout,
    /// between 10 ms and 250 ms.
    private var sweepInterval: DispatchTimeInterval {
        let shortest = min(limits.headTimeout, limits.bodyTimeout, limits.idleTimeout)
        let milliseconds = Int(max(10, min(250, shortest * 250)))
        return .milliseconds(milliseconds)
    }

    private func sweep() {
        let now = monotonicNow()
        let date = HTTPDate.now()
        for connection in snapshot() { connection.tick(now: now, date: date) }
    }

    /// The open connections, ordered by id (accept order).
    private func snapshot() -> [Connection] {
        context.connections.withLock { Array($0.values) }.sorted { $0.id < $1.id }
    }
}
