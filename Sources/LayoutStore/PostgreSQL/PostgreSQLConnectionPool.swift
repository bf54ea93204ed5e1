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

    /// Creates a pool of `size` connections (none made yet).
    ///
    /// - Parameters:
    ///   - configuration: where and how to connect.
    ///   - size: the number of connections (at least 1; default 4). Each is one server
    ///     process, counted against the server's `max_connections` (default 100) for every
    ///     replica.
    ///   - acquireTimeout: seconds to wait for a free connection (default 5).
    init(configuration: PostgreSQLConnection.Configuration, size: Int = 4, acquireTimeout: Double = 5) {
        self.configuration = configuration
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
    ///   ``acquireTimeout`` or none can be made; otherwise whatever `body` throws.
    func withConnection<T: Sendable>(
        _ body: (PostgreSQLConnection) throws(PostgreSQLError) -> T
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
        return try slots[index].connection.withLock { (slot) throws(PostgreSQLError) -> T in
            let connection: PostgreSQLConnection
            if let existing = slot {
                // A failed reset keeps the connection: the next use tries `PQreset` again.
                if !existing.checkAlive() { try existing.reset() }
                connection = existing
            } else {
                connection = try PostgreSQLConnection(configuration)
                slot = connection
            }
            defer { connection.rollbackIfActive() }
            return try body(connection)
        }
    }
}
