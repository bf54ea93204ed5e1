#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import Synchronization

/// A generic HTTP/1.1 server (RFC 9112) on non-blocking sockets, `epoll` and Dispatch.
///
/// Threads: `ioThreads` event loops (``EventLoop``), each waiting on its own `epoll`
/// set, accept from the one listening socket (registered in every set with
/// `EPOLLEXCLUSIVE`) and read, parse and write the connections they serve; no thread is
/// parked per connection, so thousands of idle or slow connections cost only memory.
/// A request whose answer is ready without solving (`loopHandler`: a front cache hit, a
/// health check) is answered on its loop's thread, with no thread hop; any other runs
/// its handler on a pool of `workerCount` threads and its response is written from
/// that same thread (the loop writes only what the socket did not take at once), so
/// such a request makes exactly one hop. One serial Dispatch queue runs the timeout
/// sweep. Pipelined requests are answered in order, wherever each is answered, and
/// responses that are ready together go out in one write.
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
        case running(listenFD: Int32, timer: any DispatchSourceTimer, spareFD: Int32)
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
    ///   - ioThreads: Event loops (at least 1); default one per core. Each accepts,
    ///     reads, parses and writes its own connections.
    ///   - loopHandler: Answers, on the event loop's own thread, a request whose answer
    ///     is ready without solving or waiting (a cache hit, a health check); returns
    ///     `nil` to send the request to `handler` on a worker. Must never block: every
    ///     connection of that loop waits while it runs. Its answers are the
    ///     application's to log and count, as `handler`'s. `nil`: every request goes to
    ///     `handler`.
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
        ioThreads: Int = ProcessInfo.processInfo.activeProcessorCount,
        loopHandler: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
        abandoned: (@Sendable (HTTPRequest) -> Void)? = nil,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        self.host = host
        self.port = port
        self.address = address
        self.limits = limits
        self.context = ServerContext(limits: limits, workerCount: workerCount, handler: handler,
                                     accessLog: accessLog, isExpensive: isExpensive, isSmallAnswer: isSmallAnswer,
                                     overCommittedHandler: overCommittedHandler, pendingBytes: pendingResponseBytes,
                                     continueCheck: continueCheck, ioThreads: ioThreads, loopHandler: loopHandler,
                                     abandoned: abandoned)
    }

    /// The event loops (`ioThreads`).
    public var ioThreadCount: Int { context.loops.count }

    /// Requests answered so far, by where: on an event loop's thread by `loopHandler`
    /// (summed over the loops), and by `handler` on a worker. For metrics and tests.
    public var answeredCounts: (onLoops: Int, byWorkers: Int) {
        (context.loops.reduce(0) { $0 + $1.answeredCount.load(ordering: .relaxed) },
         context.workerAnsweredCount.load(ordering: .relaxed))
    }

    /// Connections closed before their answers were sent whole: the client read nothing
    /// of them for `bodyTimeout`, the connection failed, or the drain ended. The access log
    /// has already recorded those answers (when they were queued); this is their trace.
    public var cutAnswerCount: Int { context.cutAnswerCount.load(ordering: .relaxed) }

    /// Requests never handled because their connection was closed (reset by the client,
    /// failed, or closed by the drain) while they waited for a worker; each was also
    /// given to `abandoned`, on the worker that took it.
    public var abandonedCount: Int { context.abandonedCount.load(ordering: .relaxed) }

    /// Each event loop thread's `pthread_self()`, in loop order (0 before it runs): for
    /// tests that check which thread made an answer.
    var loopThreadIDs: [UInt] {
        context.loops.map { $0.threadID.load(ordering: .acquiring) }
    }

    /// Connections accepted by each event loop's thread, in loop order (which loop
    /// serves a connection is chosen round-robin, whichever accepted it).
    public var acceptedCounts: [Int] {
        context.loops.map { $0.acceptedCount.load(ordering: .relaxed) }
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

    /// Binds and listens (`SO_REUSEADDR`, backlog `SOMAXCONN`), then starts the event
    /// loops, each watching the listening socket.
    ///
    /// - Returns: The bound port (the ephemeral one when `port` is 0).
    /// - Throws: ``HTTPServerError`` if the address cannot be resolved or bound,
    ///   or the server was already started.
    ///
    /// - Parameter listener: A socket already bound and listening (``Listener/bind(_:)``),
    ///   which the server then owns; `nil` binds ``address`` (or resolves ``host``) here.
    @discardableResult
    public func start(on listener: Listener? = nil) throws -> Int {
        try state.withLock { state in
            guard case .idle = state else { throw HTTPServerError.alreadyStarted }
            let (fd, boundPort) = try listener.map { ($0.fd, $0.port) }
                ?? Socket.listen(address ?? BindAddress.resolve(host, port: port), backlog: SOMAXCONN)
            let timer = DispatchSource.makeTimerSource(queue: timerQueue)
            let interval = sweepInterval
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
            timer.setEventHandler { [self] in sweep() }
            state = .running(listenFD: fd, timer: timer, spareFD: open("/dev/null", O_RDONLY | O_CLOEXEC))
            for loop in context.loops {
                loop.start(name: "HTTP1.io-\(loop.index)") { [weak self] loop in self?.acceptPending(on: loop) }
                loop.watchListener(fd)
            }
            timer.resume()
            return boundPort
        }
    }

    /// Graceful shutdown; blocks until done. Stops accepting (the listening socket is
    /// closed), lets in-flight requests on every loop finish and be answered with
    /// `Connection: close` (idle connections close at once), waits at most
    /// ``ServerLimits/drainTimeout`` seconds, then closes whatever is left and stops the
    /// workers and the loops. Safe to call more than once.
    /// - Returns: the connections still busy when the drain ended (a request unanswered, or
    ///   an answer unsent), closed without finishing; 0 on a repeated call.
    @discardableResult
    public func shutdown() -> Int {
        let stopped: (any DispatchSourceTimer, Int32)? = state.withLock { state in
            guard case .running(let listenFD, let timer, let spare) = state else { return nil }
            state = .stopped
            isDraining.store(true, ordering: .relaxed)
            // Under the lock every accept takes: no accept runs on this fd after it closes.
            for loop in context.loops { loop.unwatchListener(listenFD) }
            close(listenFD)
            return (timer, spare)
        }
        guard let (timer, spare) = stopped else { return 0 }
        for connection in snapshot() { connection.beginShutdown() }
        // Wait for busy connections; lingering ones are only waiting for the
        // client's EOF and are cut short below.
        let deadline = monotonicNow() + limits.drainTimeout
        while snapshot().contains(where: \.isOpen) && monotonicNow() < deadline {
            usleep(5_000)
        }
        let unfinished = snapshot().filter(\.isOpen)
        for connection in snapshot() { connection.forceClose() }
        let closeDeadline = monotonicNow() + 1
        while !context.hasNoConnections && monotonicNow() < closeDeadline {
            usleep(1_000)
        }
        timer.cancel()
        if spare >= 0 { close(spare) }
        context.workers.stop()
        context.lightWorkers?.stop()
        for loop in context.loops { loop.stop() }
        return unfinished.count
    }

    // MARK: - Accepting

    /// Connections accepted per readiness event of the listening socket, at most: the
    /// rest wait for the next event (level-triggered), which may wake another loop, so
    /// a burst of connections does not keep one loop from its own connections.
    private static let acceptBatch = 16

    /// Accepts what the listening socket holds (up to ``acceptBatch``), on `loop`'s
    /// thread, and gives each connection to the loop ``ServerContext/nextLoop()`` names.
    /// Under the state lock, so no accept runs once ``shutdown()`` closed the socket;
    /// loops woken together for one connection take turns, and all but one find nothing.
    private func acceptPending(on loop: EventLoop) {
        state.withLock { state in
            guard case .running(let listener, let timer, let spare) = state else { return }
            for _ in 0..<Self.acceptBatch {
                guard let (fd, remote) = Socket.accept(listener) else {
                    switch errno {
                    case EINTR, ECONNABORTED: continue
                    case EMFILE, ENFILE:
                        // Out of file descriptors: free the spare one, accept and drop the
                        // pending connection (so the level-triggered listener does not spin),
                        // re-reserve.
                        guard spare >= 0 else { return }
                        close(spare)
                        if let (fd, _) = Socket.accept(listener) { close(fd) }
                        state = .running(listenFD: listener, timer: timer, spareFD: open("/dev/null", O_RDONLY | O_CLOEXEC))
                    default: break
                    }
                    return
                }
                loop.acceptedCount.add(1, ordering: .relaxed)
                serve(fd: fd, remote: remote)
            }
        }
    }

    /// Starts serving an accepted connection on the next loop, or refuses it with `503`
    /// beyond ``ServerLimits/maxConnections``.
    private func serve(fd: Int32, remote: String) {
        if isDraining.load(ordering: .relaxed) {
            close(fd)
            return
        }
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let isCounted = context.countedConnections.load(ordering: .relaxed) < limits.maxConnections
        if isCounted { context.countedConnections.add(1, ordering: .relaxed) }
        let owner = context.nextLoop()
        let connection = Connection(id: id, fd: fd, remoteAddress: remote, isCounted: isCounted, loop: owner, context: context)
        owner.connections.withLock { $0[id] = connection }
        if isCounted {
            connection.start()
        } else {
            context.accessLog?(AccessLogRecord(method: nil, target: nil, status: .serviceUnavailable, bodyBytes: 0,
                                               duration: 0, remoteAddress: remote))
            connection.start(refusingWith: ConnectionStateMachine.overloadResponse(date: HTTPDate.now(), limits: context.limits))
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
        context.allConnections()
    }
}

/// A TCP socket bound and listening (`SO_REUSEADDR`, backlog `SOMAXCONN`, non-blocking),
/// not yet served: an application binds first, so that an address in use fails before it
/// creates anything (a database file), then hands it to ``HTTPServer/start(on:)``.
public struct Listener: Sendable {
    /// The listening socket's descriptor.
    public let fd: Int32
    /// The port bound (the ephemeral one for port 0).
    public let port: Int

    /// Binds and listens on `address`.
    /// - Throws: ``HTTPServerError/socket(operation:errno:message:)`` (`EADDRINUSE` for a
    ///   port in use).
    public static func bind(_ address: BindAddress) throws(HTTPServerError) -> Listener {
        let (fd, port) = try Socket.listen(address, backlog: SOMAXCONN)
        return Listener(fd: fd, port: port)
    }

    /// Closes the socket of a listener that will not be served.
    public func close() { _ = Glibc.close(fd) }
}
