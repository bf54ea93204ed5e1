import CSQLite

/// A prepared SQLite statement (`sqlite3_stmt`).
///
/// A `final class` because it owns a C resource: `deinit` finalizes it. Values are always
/// bound as parameters (`?`, 1-based indexes), never interpolated into the SQL text.
/// Not thread-safe: used only by the ``SQLiteConnection`` that prepared it, on its queue.
final class Statement {
    /// The compiled statement handle.
    let handle: OpaquePointer
    /// The SQL text, kept for error messages.
    let sql: String

    /// Compiles `sql` on `db` with `sqlite3_prepare_v3`.
    ///
    /// - Parameter persistent: hint that the statement will be reused many times
    ///   (`SQLITE_PREPARE_PERSISTENT`).
    /// - Throws: ``SQLiteError`` if the SQL does not compile.
    init(db: OpaquePointer, sql: String, persistent: Bool) throws(SQLiteError) {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        // Hand C the UTF-8 byte count (docs/style.md, "Errors and diagnostics"), not the Character count.
        let byteCount = Int32(clamping: sql.utf8.count)
        let resultCode = sql.withCString { text in
            sqlite3_prepare_v3(db, text, byteCount, flags, &statement, nil)
        }
        try check(resultCode, on: db, sql: sql)
        guard let statement else {
            // Only whitespace or a comment: nothing to run. That is a bug in our SQL.
            throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement", sql: sql)
        }
        self.handle = statement
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    private var db: OpaquePointer? { sqlite3_db_handle(handle) }

    // MARK: - Binding

    /// Binds a 64-bit integer to the 1-based parameter `index`.
    func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value), on: db, sql: sql)
    }

    /// Binds an integer to the 1-based parameter `index`.
    func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try bind(Int64(value), at: index)
    }

    /// Binds UTF-8 text to the 1-based parameter `index`; SQLite copies the bytes.
    func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        let byteCount = UInt64(value.utf8.count)
        let resultCode = value.withCString { text in
            sqlite3_bind_text64(handle, index, text, byteCount, layoutd_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
        try check(resultCode, on: db, sql: sql)
    }

    /// Binds a BLOB to the 1-based parameter `index`; SQLite copies the bytes.
    /// An empty array binds a zero-length BLOB, not NULL.
    func bind(_ value: [UInt8], at index: Int32) throws(SQLiteError) {
        let resultCode = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), layoutd_sqlite_transient())
        }
        try check(resultCode, on: db, sql: sql)
    }

    /// Binds SQL NULL to the 1-based parameter `index`.
    func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index), on: db, sql: sql)
    }

    /// Binds an optional integer: NULL for `nil`.
    func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    // MARK: - Stepping

    /// Advances to the next result row.
    ///
    /// - Returns: `true` when a row is available (`SQLITE_ROW`), `false` when the statement
    ///   has finished (`SQLITE_DONE`).
    /// - Throws: ``SQLiteError``, e.g. `SQLITE_BUSY` after the busy timeout, `SQLITE_FULL`.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        try check(sqlite3_step(handle), on: db, sql: sql) == SQLITE_ROW
    }

    /// Resets the statement so it can run again and clears its bindings.
    /// Errors from the last step were already reported by ``step()``, so none is thrown here.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Reading columns (0-based)

    /// Whether column `index` of the current row is NULL.
    func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` of the current row as a 64-bit integer (0 for NULL).
    func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` of the current row as an `Int`, clamped to `Int`'s range.
    func int(at index: Int32) -> Int {
        Int(clamping: sqlite3_column_int64(handle, index))
    }

    /// Column `index` of the current row as UTF-8 text ("" for NULL; ill-formed UTF-8 is
    /// repaired with U+FFFD).
    func string(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let byteCount = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: byteCount), as: UTF8.self)
    }

    /// Column `index` of the current row as bytes (empty for NULL or a zero-length BLOB).
    func bytes(at index: Int32) -> [UInt8] {
        guard let blob = sqlite3_column_blob(handle, index) else { return [] }
        let byteCount = Int(sqlite3_column_bytes(handle, index))
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: byteCount))
    }
}

@available(*, unavailable)
extension Statement: Sendable {}
