import Dispatch
import Synchronization

/// A fixed number of PostgreSQL connections shared by the worker threads, each used by one
/// thread at a time.
///
/// libpq calls block, so they run on the calling (worker) thread, never on Swift's
/// cooperative pool. Each connection lives in a slot, a `Mutex` holding the non-`Sendable`
/// connection: it is used only inside the slot's `withLock`, so the compiler's region
/// checking (not an `@unchecked Sendable`) keeps it on one thread at a time. A
/// `DispatchSemaphore` counts the free slots and a `Mutex`-guarded list names them, so
/// ``withConnection(_:)`` takes a slot nobody else holds (its lock is never contended) and
/// blocks for at most ``acquireTimeout`` when all ``size`` are in use.
///
/// Connections are made lazily: the first ``withConnection(_:)`` that finds a slot empty
/// connects, so a pool can be created while the server is down. A connection is checked
/// before each use (``PostgreSQLConnection/checkAlive()``: `PQconsumeInput`, then
/// `PQstatus`); a dead one is reconnected (`PQreset`), so the pool recovers by itself once
/// the server is back. Held by `PostgreSQLConnectionPoolTests`.
///
/// Every round trip is bounded (``PostgreSQLConnection/Configuration/timeout``), and so is
/// making a connection (`connect_timeout`). Once a use has lost its connection, timed out or
/// could not connect, the server counts as unreachable (``isUnreachable``); the first use
/// that reaches it again ends that. Both changes are told to `report`, one line each. When
/// the failure was a timeout (the server accepts but does not answer: ``isHung``), every
/// use fails at once with ``PostgreSQLError/Category/unavailable`` instead, and a Dispatch
/// queue of the pool's tries the server (`SELECT 1`) ``probeInterval`` after each try that
/// timed out, so a server that stops answering holds no request thread beyond the round
/// trips under way when it stopped (each at most the timeout). A refused connection fails
/// fast by itself, so uses keep trying then.
/// Held by `PostgreSQLTimeoutTests`.
final class PostgreSQLConnectionPool: Sendable {
    /// How each connection is made.
    let configuration: PostgreSQLConnection.Configuration
    /// The number of connections, at least 1.
    let size: Int
    /// Seconds ``withConnection(_:)`` waits for a free connection before failing.
    let acquireTimeout: Double

    /// One connection's place: `nil` until the first use connects it.
    private final class Slot: Sendable {
        let connection = Mutex<PostgreSQLConnection?>(nil)
    }

    private let slots: [Slot]
    /// Indices of the slots no thread holds; as many as the semaphore's value whenever no
    /// acquire or release is between its two steps.
    private let freeSlots: Mutex<[Int]>
    private let available: DispatchSemaphore

    /// What the pool knows of the server: ``Health/reachable`` is `nil` until a use
    /// succeeds. Only then can it become unreachable, so that start-up attempts (which
    /// report and retry on their own) are neither told nor refused.
    private struct Health {
        var reachable: Bool?
        var hasReached = false
        /// Whether the last failure was a timeout: uses fail at once, the queue tries.
        var hung = false
    }

    /// Seconds between the end of a failed try of an unreachable server and the next.
    static let probeInterval = 1.0
    /// Where unreachable servers are tried.
    private let probeQueue = DispatchQueue(label: "layoutd.postgresql.probe")

    private let health = Mutex(Health())
    /// Told one line when the server becomes unreachable and one when it is back.
    private let report: @Sendable (String) -> Void

    /// Creates a pool of `size` connections (none made yet).
    ///
    /// - Parameters:
    ///   - configuration: where and how to connect.
    ///   - size: the number of connections (at least 1; default 4). Each is one server
    ///     process, counted against the server's `max_connections` (default 100) for every
    ///     replica.
    ///   - acquireTimeout: seconds to wait for a free connection (default 5).
    ///   - report: where the lines saying the server became unreachable or is back go.
    init(configuration: PostgreSQLConnection.Configuration, size: Int = 4, acquireTimeout: Double = 5,
         report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.report = report
        self.size = max(1, size)
        self.acquireTimeout = acquireTimeout.isFinite ? max(0, acquireTimeout) : 5
        slots = (0..<self.size).map { _ in Slot() }
        // Highest index last, so that `popLast` hands out slot 0 first.
        freeSlots = Mutex(Array((0..<self.size).reversed()))
        available = DispatchSemaphore(value: self.size)
    }

    /// Runs `body` with a connection of its own, and takes the connection back after.
    ///
    /// The connection is made if the slot has none, and checked and reconnected if the
    /// server closed it. After `body`, a transaction left open is rolled back, so the next
    /// user starts clean. `body` must not keep the connection.
    ///
    /// - Throws: ``PostgreSQLError/Category/unavailable`` when no connection is free within
    ///   ``acquireTimeout`` or none can be made, or at once while the server is unreachable
    ///   and another use is trying it; otherwise whatever `body` throws.
    func withConnection<T: Sendable>(
        _ body: (PostgreSQLConnection) throws(PostgreSQLError) -> T
    ) throws(PostgreSQLError) -> T {
        if isHung {
            throw PostgreSQLError(
                sqlState: nil, message: "PostgreSQL is unreachable; it is tried again every \(PostgreSQLConnection.secondsText(Self.probeInterval)) s",
                category: .unavailable)
        }
        var reached: Bool?
        var timedOut = false
        var cause: String?
        defer { settle(reachable: reached, timedOut: timedOut, cause: cause) }
        do {
            return try withPooledConnection(reached: &reached, timedOut: &timedOut, body)
        } catch {
            cause = error.message
            throw error
        }
    }

    /// Whether the server stopped answering (a use timed out) and has not answered since:
    /// uses fail at once meanwhile.
    var isHung: Bool { health.withLock { $0.hung } }

    /// Whether a use has found the server unreachable since the last one that reached it.
    var isUnreachable: Bool { health.withLock { $0.reachable == false } }

    /// Records what a use found (`true` reached the server, `false` lost it, `nil` neither:
    /// an error the server answered, or no connection was free), reports a change, and
    /// starts trying the server when it became unreachable.
    /// `cause`: the error of the use that lost the server, for the line that reports it
    /// (libpq's words for a refused or failed connection, or the timeout).
    private func settle(reachable: Bool?, timedOut: Bool, cause: String? = nil) {
        let (change, startProbing): (Bool?, Bool) = health.withLock { health in
            let startProbing = timedOut && health.hasReached && !health.hung
            if startProbing { health.hung = true }
            if reachable == true { health.hung = false }
            return (Self.change(&health, reachable: reachable), startProbing)
        }
        switch change {
        case true?:
            report("PostgreSQL answers again")
        case false?:
            let why = timedOut || cause == nil
                ? "no answer within \(PostgreSQLConnection.secondsText(configuration.timeout)) s"
                : (cause ?? "").split(whereSeparator: \.isNewline).map { $0.drop { $0 == " " || $0 == "\t" } }.filter { !$0.isEmpty }.joined(separator: " ")
            report("PostgreSQL is unreachable (\(why)); requests that need it answer 503 until it is back")
        case nil:
            break
        }
        if startProbing { scheduleProbe() }
    }

    /// Records `reachable` in `health`; returns the change to report, if any.
    private static func change(_ health: inout Health, reachable: Bool?) -> Bool? {
        guard let reachable, health.hasReached, health.reachable != reachable else {
            // Before the first success (start-up, which reports on its own) a failure
            // changes nothing.
            if reachable == true {
                health.reachable = true
                health.hasReached = true
            }
            return nil
        }
        health.reachable = reachable
        return reachable
    }

    /// Tries the server on ``probeQueue`` after ``probeInterval`` while it is unreachable,
    /// holding the pool weakly between tries; a try that reaches it ends the outage
    /// (``settle(reachable:)``), one that does not schedules the next.
    private func scheduleProbe() {
        probeQueue.asyncAfter(deadline: .now() + Self.probeInterval) { [weak self] in
            guard let self, self.isHung else { return }
            var reached: Bool?
            var timedOut = false
            _ = try? self.withPooledConnection(reached: &reached, timedOut: &timedOut) { (connection) throws(PostgreSQLError) -> Bool in
                try connection.query("SELECT 1").first?.int(0) == 1
            }
            if reached == true {
                self.settle(reachable: true, timedOut: false)
            } else if timedOut || reached == nil {
                // Still not answering, or no free connection: try again.
                self.scheduleProbe()
            } else {
                // Refused or lost at once: uses try by themselves again.
                self.health.withLock { $0.hung = false }
            }
        }
    }

    /// ``withConnection(_:)`` without the health bookkeeping; sets `reached` to whether the
    /// server was reached (`false`: connecting failed or the connection was lost or timed
    /// out; `nil` when no connection was free).
    private func withPooledConnection<T: Sendable>(
        reached: inout Bool?, timedOut: inout Bool, _ body: (PostgreSQLConnection) throws(PostgreSQLError) -> T
    ) throws(PostgreSQLError) -> T {
        if available.wait(timeout: .now() + acquireTimeout) == .timedOut {
            throw PostgreSQLError(
                sqlState: nil, message: "no database connection became free within \(acquireTimeout) s (pool of \(size))",
                category: .unavailable)
        }
        // The semaphore let us in, so the list names at least one slot.
        guard let index = freeSlots.withLock({ $0.popLast() }) else {
            preconditionFailure("the pool's semaphore admitted more threads than it has slots")
        }
        defer {
            freeSlots.withLock { $0.append(index) }
            available.signal()
        }
        reached = false
        return try slots[index].connection.withLock { (slot) throws(PostgreSQLError) -> T in
            let connection: PostgreSQLConnection
            if let existing = slot, !existing.isClosed {
                // A failed reset keeps the connection: the next use tries `PQreset` again.
                if !existing.checkAlive() {
                    try Self.connecting(reached: &reached, timedOut: &timedOut, after: Double(configuration.connectTimeout)) { () throws(PostgreSQLError) in
                        try existing.reset()
                    }
                }
                connection = existing
            } else {
                // None yet, or one closed by a timed-out round trip: never reused.
                slot = nil
                connection = try Self.connecting(reached: &reached, timedOut: &timedOut, after: Double(configuration.connectTimeout)) {
                    () throws(PostgreSQLError) in try PostgreSQLConnection(configuration)
                }
                slot = connection
            }
            defer {
                connection.rollbackIfActive()
                reached = connection.isConnected
                timedOut = connection.didTimeOut
            }
            return try body(connection)
        }
    }

    /// Runs `connect`; when it fails for another reason than an unreachable server (a
    /// wrong password, a missing database), `reached` becomes `nil`: the server answered.
    /// A failure after `seconds` or more (`connect_timeout`, at least 2 s in libpq) sets
    /// `timedOut`: the server accepted but did not answer.
    private static func connecting<C>(
        reached: inout Bool?, timedOut: inout Bool, after seconds: Double, _ connect: () throws(PostgreSQLError) -> C
    ) throws(PostgreSQLError) -> C {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            return try connect()
        } catch {
            if error.category != .unavailable { reached = nil }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if elapsed >= max(2, seconds) * 0.9 { timedOut = true }
            throw error
        }
    }
}
