import CPostgreSQL

/// An error reported by PostgreSQL or by libpq, its C client library.
///
/// Server errors carry the five-character SQLSTATE code
/// (<https://www.postgresql.org/docs/15/errcodes-appendix.html>); libpq's own failures
/// (connection refused, "server closed the connection unexpectedly", out of memory) carry
/// none. Every failing libpq call becomes one of these through one funnel in
/// ``PostgreSQLConnection``. Parameters are always sent apart from the SQL text
/// (`PQexecParams`), so a message never contains request data unless the server quotes a
/// value in it (a unique violation's `DETAIL` does; ``message`` is the primary message
/// only, which does not).
public struct PostgreSQLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What a caller should do about an error: the store maps these to its answers.
    public enum Category: Sendable, Equatable {
        /// The database cannot serve now: the connection is lost or cannot be made
        /// (libpq reports `CONNECTION_BAD`; SQLSTATE class 08; 57P01–57P05, the server
        /// shutting down or starting up), the server is read-only (25006, a hot standby),
        /// out of connections or memory (53300, 53200), or a statement or lock timed out
        /// (57014, 55P03), or no pooled connection was free in time. → 503 with `Retry-After`.
        case unavailable
        /// The server's disk is full (53100 `disk_full`). → 507.
        case full
        /// The transaction lost a race and may succeed if run again: 40001
        /// `serialization_failure` or 40P01 `deadlock_detected`.
        /// ``PostgreSQLConnection/transaction(isolation:maxAttempts:_:)`` retries these.
        case conflict
        /// A unique constraint was violated (23505 `unique_violation`).
        case uniqueViolation
        /// Anything else: a bug in our SQL, a value PostgreSQL rejects, a type mismatch
        /// in a result. → 500.
        case other
    }

    /// The SQLSTATE code, e.g. `"23505"`; `nil` for a failure libpq detected itself.
    public var sqlState: String?
    /// The primary message: the server's (`PG_DIAG_MESSAGE_PRIMARY`) or libpq's.
    public var message: String
    /// What the caller should do about it.
    public var category: Category
    /// The SQL text of the statement that failed, when there was one.
    public var sql: String?

    /// Creates an error; `category` defaults to the one ``category(sqlState:)`` assigns.
    public init(sqlState: String?, message: String, category: Category? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.category = category ?? Self.category(sqlState: sqlState)
        self.sql = sql
    }

    /// Whether running the transaction again may succeed (``Category/conflict``).
    public var isRetryable: Bool { category == .conflict }

    /// The category of a server error by its SQLSTATE (PostgreSQL 15, Appendix A,
    /// <https://www.postgresql.org/docs/15/errcodes-appendix.html>). `nil` (a libpq
    /// failure without a code) is ``Category/other``; the funnel in
    /// ``PostgreSQLConnection`` makes it ``Category/unavailable`` when the connection is
    /// lost, which it checks with `PQstatus` apart from the code.
    ///
    /// Held by `PostgreSQLErrorTests.sqlStateCategories`.
    public static func category(sqlState: String?) -> Category {
        guard let sqlState else { return .other }
        switch sqlState {
        case "40001", "40P01":
            return .conflict
        case "23505":
            return .uniqueViolation
        case "53100":
            return .full
        case "25006", "53200", "53300", "57014", "55P03", "57P01", "57P02", "57P03", "57P04", "57P05":
            return .unavailable
        default:
            // Class 08: connection exception (08000, 08003, 08006, 08001, 08004, 08P01…).
            return sqlState.hasPrefix("08") ? .unavailable : .other
        }
    }

    public var description: String {
        let code = sqlState.map { "PostgreSQL error \($0)" } ?? "PostgreSQL client error"
        if let sql {
            return "\(code): \(message) (in \(sql))"
        }
        return "\(code): \(message)"
    }
}
