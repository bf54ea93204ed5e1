import CSQLite

/// Everything a ``SQLiteStore`` call can fail with.
///
/// Each case corresponds to one HTTP answer (mapped by the service, not here): see the
/// case comments. SQLite result codes are mapped by ``init(_:)``.
public enum StoreError: Error, Sendable, Equatable {
    /// An `If-Match` or `If-None-Match: *` precondition failed (RFC 9110 §13.1.1, §13.1.2);
    /// `current` is the group's current version, `nil` if it has none. → 412.
    case preconditionFailed(current: Int?)
    /// The database cannot be written (`SQLITE_READONLY`, or opened read-only). → 503.
    case readOnly
    /// The disk or the database's size limit is full (`SQLITE_FULL`). → 507.
    case full
    /// Another connection held the lock beyond the busy timeout (`SQLITE_BUSY`,
    /// `SQLITE_LOCKED`). → 503 with `Retry-After`.
    case busy
    /// The file is not a database or is damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, or
    /// `PRAGMA quick_check` found problems). The file is left as it is. → refuse to start.
    case corrupt(String)
    /// The database could not be opened or is closed (`SQLITE_CANTOPEN`, a schema newer than
    /// this build, a read-only database that needs a migration). → refuse to start / 503.
    case cannotOpen(String)
    /// A configured limit would be exceeded, e.g. creating a group beyond `maxGroups`, or
    /// a group version that would pass `maxGroupBytes`; nothing was changed. The message
    /// names the limit and, when there is one, the `serve` flag that raises it. → 422
    /// (`limit_exceeded`).
    case limitExceeded(String)
    /// Any other SQLite error: a bug or an I/O failure. → 500.
    case sqlite(SQLiteError)
    /// The shared database cannot be reached or cannot take the request now: the
    /// connection is lost or refused, the server is read-only (a standby), out of
    /// connections, shutting down, or no pooled connection became free in time
    /// (``PostgreSQLError/Category/unavailable``). The text says which. → 503 with
    /// `Retry-After`; the same request may succeed once the database is back.
    case unavailable(String)
    /// The SQLite file was renamed or deleted since the store opened it
    /// (``SQLiteConnection/fileHasMoved``): a write would be acknowledged and lost when the
    /// process ends, so none is made. → 503 without `Retry-After` (waiting does not help:
    /// the process must be restarted with the file in place), and a line on stderr.
    case fileMoved
    /// Any other PostgreSQL error (``PostgreSQLError/Category/other``, or a conflict still
    /// failing after the transaction's retries): a bug or a server fault. → 500.
    case postgreSQL(PostgreSQLError)
}

extension StoreError {
    /// Maps a PostgreSQL error to the store's error by its category
    /// (``PostgreSQLError/category(sqlState:)``): unavailable → ``unavailable(_:)``,
    /// full (53100) → ``full``, anything else → ``postgreSQL(_:)``.
    public init(_ error: PostgreSQLError) {
        switch error.category {
        case .unavailable: self = .unavailable(error.description)
        case .full: self = .full
        case .conflict, .uniqueViolation, .other: self = .postgreSQL(error)
        }
    }
}

extension StoreError: SQLiteErrorConvertible {
    /// Maps an SQLite error to the store's error by its primary result code
    /// (<https://www.sqlite.org/rescode.html>).
    public init(_ error: SQLiteError) {
        switch error.primaryCode {
        case SQLITE_READONLY: self = .readOnly
        case SQLITE_FULL: self = .full
        case SQLITE_BUSY, SQLITE_LOCKED: self = .busy
        case SQLITE_CORRUPT, SQLITE_NOTADB: self = .corrupt(error.message)
        case SQLITE_CANTOPEN: self = .cannotOpen(error.message)
        default: self = .sqlite(error)
        }
    }
}
