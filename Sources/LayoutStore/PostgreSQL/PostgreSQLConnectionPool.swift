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
/// could not connect, the server counts as unreachable (``isUnreachable``): from then on one
/// use at a time tries the server again and the others fail at once with
/// ``PostgreSQLError/Category/unavailable``, so a server that stops answering holds at most
/// one thread for at most the timeout, not every thread that asks. The first use that
/// succeeds makes it reachable again. Both changes are told to `report`, one line each.
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
    /// succeeds or fails. Changes are told only once a use has reached the server, so that
    /// start-up attempts (which report on their own) are not.
    private struct Health {
        var reachable: Bool?
        var hasReached = false
        /// Whether a use is trying the server while it counts as unreachable.
        var probing = false
    }

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
        let isProbe = try admit()
        var reached: Bool?
        defer { settle(reachable: reached, wasProbe: isProbe) }
        return try withPooledConnection(reached: &reached, body)
    }

    /// Whether a use has found the server unreachable since the last one that reached it.
    var isUnreachable: Bool { health.withLock { $0.reachable == false } }

    /// Lets a use in: always while the server is reachable; while it is not, one at a time
    /// (the probe: the returned `true`), and throws for the others.
    private func admit() throws(PostgreSQLError) -> Bool {
        let admitted: Bool? = health.withLock { health in
            guard health.reachable == false else { return false }
            if health.probing { return nil }
            health.probing = true
            return true
        }
        guard let admitted else {
            throw PostgreSQLError(
                sqlState: nil, message: "PostgreSQL is unreachable; another request is trying it again",
                category: .unavailable)
        }
        return admitted
    }

    /// Records what a use found (`true` reached the server, `false` lost it, `nil` neither:
    /// an error the server answered, or no connection was free) and reports a change.
    private func settle(reachable: Bool?, wasProbe: Bool) {
        let change: Bool? = health.withLock { health in
            if wasProbe { health.probing = false }
            guard let reachable, health.reachable != reachable else { return nil }
            let tell = health.hasReached
            health.reachable = reachable
            if reachable { health.hasReached = true }
            return tell ? reachable : nil
        }
        switch change {
        case true?: report("PostgreSQL answers again")
        case false?: report("PostgreSQL is unreachable (no answer within \(PostgreSQLConnection.secondsText(configuration.timeout)) s, or the connection failed); requests that need it answer 503 until it is back")
        case nil: break
        }
    }

    /// ``withConnection(_:)`` without the health bookkeeping; sets `reached` to whether the
    /// server was reached (`false`: connecting failed or the connection was lost or timed
    /// out; `nil` when no connection was free).
    private func withPooledConnection<T: Sendable>(
        reached: inout Bool?, _ body: (PostgreSQLConnection) throws(PostgreSQLError) -> T
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
                if !existing.checkAlive() { try Self.connecting(reached: &reached) { () throws(PostgreSQLError) in try existing.reset() } }
                connection = existing
            } else {
                // None yet, or one closed by a timed-out round trip: never reused.
                slot = nil
                connection = try Self.connecting(reached: &reached) { () throws(PostgreSQLError) in try PostgreSQLConnection(configuration) }
                slot = connection
            }
            defer {
                connection.rollbackIfActive()
                reached = connection.isConnected
            }
            return try body(connection)
        }
    }

    /// Runs `connect`; when it fails for another reason than an unreachable server (a
    /// wrong password, a missing database), `reached` becomes `nil`: the server answered.
    private static func connecting<C>(
        reached: inout Bool?, _ connect: () throws(PostgreSQLError) -> C
    ) throws(PostgreSQLError) -> C {
        do {
            return try connect()
        } catch {
            if error.category != .unavailable { reached = nil }
            throw error
        }
    }
}
