import CSQLite

/// An error reported by the SQLite C library.
///
/// Every SQLite result code that is not `SQLITE_OK`, `SQLITE_ROW` or `SQLITE_DONE` becomes
/// one of these through a single funnel, ``check(_:on:sql:)``. The message is SQLite's own
/// (`sqlite3_errmsg`); values are always bound as parameters, so it never contains
/// request data.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code, e.g. `SQLITE_BUSY_SNAPSHOT` (517).
    /// See <https://www.sqlite.org/rescode.html>.
    public var code: Int32
    /// SQLite's English description of the error.
    public var message: String
    /// The SQL text of the statement that failed, when there was one.
    public var sql: String?

    /// Creates an error from a result code, a message and the failing SQL.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low 8 bits of ``code``), e.g. `SQLITE_BUSY` (5).
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String {
        if let sql {
            return "SQLite error \(code): \(message) (in \(sql))"
        }
        return "SQLite error \(code): \(message)"
    }
}

/// The one funnel from C result codes to Swift errors (docs/style.md, "Errors and diagnostics").
///
/// Passes `SQLITE_OK`, `SQLITE_ROW` and `SQLITE_DONE` through unchanged and throws
/// ``SQLiteError`` for anything else, with the connection's error message.
///
/// - Parameters:
///   - resultCode: the value a `sqlite3_*` call returned.
///   - db: the connection the call used (for `sqlite3_errmsg`); `nil` when there is none.
///   - sql: the statement text, recorded in the error.
/// - Returns: `resultCode`, so callers can tell `SQLITE_ROW` from `SQLITE_DONE`.
/// - Throws: ``SQLiteError`` carrying the extended result code.
@discardableResult
func check(_ resultCode: Int32, on db: OpaquePointer?, sql: String? = nil) throws(SQLiteError) -> Int32 {
    switch resultCode {
    case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
        return resultCode
    default:
        let message: String
        if let db, let text = sqlite3_errmsg(db) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(resultCode) {
            message = String(cString: text)
        } else {
            message = "unknown error"
        }
        // The extended code, when the connection reports one for this failure.
        var code = resultCode
        if let db {
            let extended = sqlite3_extended_errcode(db)
            if extended & 0xFF == resultCode & 0xFF { code = extended }
        }
        throw SQLiteError(code: code, message: message, sql: sql)
    }
}

/// A type that an ``SQLiteError`` can be converted into, so that
/// ``SQLiteConnection/transaction(_:)`` can throw its caller's error type.
protocol SQLiteErrorConvertible: Error {
    init(_ error: SQLiteError)
}

extension SQLiteError: SQLiteErrorConvertible {
    init(_ error: SQLiteError) { self = error }
}
