import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to an SQLite database (`sqlite3*`), with a cache of prepared statements.
///
/// A `final class` because it owns a C resource: ``close()`` (or `deinit`) closes it.
/// Not thread-safe by itself: it is opened with `SQLITE_OPEN_NOMUTEX` and must be confined to
/// one serial queue by its owner (``SQLiteStore`` does that).
///
/// Settings applied by ``init(path:readOnly:busyTimeout:)``:
/// - `journal_mode = WAL` (the answer is checked: `wal`, or `memory` for `":memory:"`);
/// - `synchronous = NORMAL`. With WAL this is durable against a *process* crash (kill -9):
///   a commit has been written to the `-wal` file with `write(2)` before `COMMIT` returns, so
///   it survives in the OS page cache even if the process dies right after. Only an OS crash
///   or power loss can lose the last transactions (WAL is fsync'd at checkpoints only).
///   See <https://www.sqlite.org/pragma.html#pragma_synchronous> and
///   <https://www.sqlite.org/wal.html>.
/// - `auto_vacuum = INCREMENTAL` on a new file, so pages freed by deletes can be returned
///   to the file system (``incrementalVacuum()``);
/// - `journal_size_limit` = ``journalSizeLimit``: a checkpoint truncates the `-wal` file to it;
/// - `cache_size` = ``pageCacheBytes`` of pages kept in memory;
/// - `busy_timeout` (waits for a lock before answering `SQLITE_BUSY`);
/// - `foreign_keys = ON`.
final class SQLiteConnection {
    /// The connection handle; valid until ``close()``.
    private(set) var handle: OpaquePointer?
    /// Prepared statements keyed by their SQL text, reused across calls.
    private var statements: [String: Statement] = [:]

    /// Opens (creating if needed and allowed) the database at `path`.
    ///
    /// When `readOnly` is `false` and a read-write open fails because the file or its
    /// directory cannot be written (`SQLITE_CANTOPEN`, `SQLITE_READONLY`, `SQLITE_PERM`),
    /// it retries read-only. (SQLite itself also falls back to read-only for a
    /// write-protected file; check ``isReadOnly`` after opening.) A read-only WAL database
    /// whose directory cannot be written (so no `-shm` file can be made) and that has no
    /// `-wal` file is opened as `immutable=1`: it is then read without locks, on the
    /// assumption that nobody writes a write-protected file while layoutd runs.
    ///
    /// - Parameters:
    ///   - path: a file path, or `":memory:"`.
    ///   - readOnly: open with `SQLITE_OPEN_READONLY` (the file must exist).
    ///   - busyTimeout: seconds to wait for a lock before `SQLITE_BUSY`.
    /// - Throws: ``SQLiteError``: `SQLITE_CANTOPEN`, `SQLITE_NOTADB` (not a database),
    ///   `SQLITE_CORRUPT`, or a journal mode other than WAL (`SQLITE_ERROR`).
    init(path: String, readOnly: Bool, busyTimeout: Double) throws(SQLiteError) {
        let common = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE
        if readOnly {
            handle = try Self.open(path: path, flags: common | SQLITE_OPEN_READONLY)
        } else {
            do {
                handle = try Self.open(path: path, flags: common | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            } catch {
                switch error.primaryCode {
                case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM:
                    guard let fallback = try? Self.open(path: path, flags: common | SQLITE_OPEN_READONLY) else {
                        throw error
                    }
                    handle = fallback
                default:
                    throw error
                }
            }
        }
        do {
            try configure(busyTimeout: busyTimeout)
        } catch {
            close()
            // A WAL database opened read-only needs its `-shm` file; when neither it nor
            // `-wal` exists and the directory is not writable, SQLite answers
            // SQLITE_READONLY_CANTINIT/SQLITE_CANTOPEN. Without a `-wal` file the main file
            // holds every commit, so it can be read as immutable (no locks, no `-shm`).
            // See <https://www.sqlite.org/wal.html#readonly>.
            guard error.primaryCode == SQLITE_READONLY || error.primaryCode == SQLITE_CANTOPEN,
                  path != ":memory:", access(path, R_OK) == 0, access(path + "-wal", F_OK) != 0,
                  let immutable = try? Self.open(path: Self.immutableURI(path), flags: common | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
            else {
                throw error
            }
            handle = immutable
            do {
                try configure(busyTimeout: busyTimeout)
            } catch let retryError {
                close()
                throw retryError
            }
        }
    }

    /// `file:` URI for `path` with `immutable=1` (RFC 3986 percent-encoding of everything
    /// but unreserved characters and `/`), per <https://www.sqlite.org/uri.html>.
    private static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(hex[Int(byte >> 4)])
                uri.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return uri + "?immutable=1"
    }

    deinit {
        close()
    }

    private static func open(path: String, flags: Int32) throws(SQLiteError) -> OpaquePointer {
        var db: OpaquePointer?
        let resultCode = sqlite3_open_v2(path, &db, flags, nil)
        guard resultCode == SQLITE_OK, let db else {
            defer { sqlite3_close_v2(db) }
            try check(resultCode == SQLITE_OK ? SQLITE_CANTOPEN : resultCode, on: db)
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot open \(path)")
        }
        sqlite3_extended_result_codes(db, 1)
        return db
    }

    private func configure(busyTimeout: Double) throws(SQLiteError) {
        guard let handle else { return }
        let milliseconds = busyTimeout.isFinite ? Int32(clamping: Int64(max(0, min(busyTimeout, 86_400)) * 1000)) : 0
        try check(sqlite3_busy_timeout(handle, milliseconds), on: handle)
        // Opening a new file while other processes open it too, the header read and the
        // switch to WAL can answer SQLITE_BUSY at once, without the busy handler (a lock
        // another connection takes to change the journal mode), so they are tried again
        // until the busy timeout has passed
        // (SchemaTests.processesOpeningANewFileAtOnceMigrateOnce).
        let deadline = ContinuousClock.now + .milliseconds(Int(milliseconds))
        while true {
            do throws(SQLiteError) {
                try configureModes()
                return
            } catch where error.primaryCode == SQLITE_BUSY && ContinuousClock.now < deadline {
                usleep(10_000)
            }
        }
    }

    /// The pragmas of ``configure(busyTimeout:)`` after the busy timeout.
    private func configureModes() throws(SQLiteError) {
        // Read the header first: a file that is not a database fails here with
        // SQLITE_NOTADB, before any statement could write to it.
        let schemaObjects = try scalarInt("SELECT count(*) FROM sqlite_schema")
        try execute("PRAGMA foreign_keys = ON")
        let mode: String
        if isReadOnly {
            mode = try scalarString("PRAGMA journal_mode")
        } else {
            // Takes effect only on a file without tables, so before anything creates one
            // (journal_mode = WAL writes the header); an existing file is never written
            // here (it changes mode at ``Schema``'s migration 2, by VACUUM).
            // <https://www.sqlite.org/pragma.html#pragma_auto_vacuum>
            if schemaObjects == 0 { try execute("PRAGMA auto_vacuum = INCREMENTAL") }
            mode = try scalarString("PRAGMA journal_mode = WAL")
            // A checkpoint truncates the -wal file to this size (it otherwise keeps the
            // size of its largest transaction). <https://www.sqlite.org/pragma.html#pragma_journal_size_limit>
            _ = try scalarInt("PRAGMA journal_size_limit = \(Self.journalSizeLimit)")
        }
        // ":memory:" answers "memory"; a read-only database keeps whatever mode it has.
        guard mode == "wal" || mode == "memory" || isReadOnly else {
            throw SQLiteError(code: SQLITE_ERROR, message: "journal_mode is \(mode), expected wal",
                              sql: "PRAGMA journal_mode = WAL")
        }
        try execute("PRAGMA synchronous = NORMAL")
        // <https://www.sqlite.org/pragma.html#pragma_cache_size>; negative: KiB.
        try execute("PRAGMA cache_size = -\(Self.pageCacheBytes >> 10)")
    }

    /// The most bytes of database pages the connection keeps in memory (`cache_size`):
    /// 16 MiB (16,777,216). SQLite's default, 2 MiB, held a fraction of a full result cache's
    /// pages, so every batch read back from the OS the pages of the entries it evicted and
    /// of the key index it updated (under a stream of new scenes, 5% of the server's CPU).
    /// Pages are cached as they are read, so a small database holds no more than its size.
    static let pageCacheBytes = 16 << 20

    /// The bytes the `-wal` file is truncated to at a checkpoint: 64 MiB (67,108,864), four
    /// times the cache's largest write-behind batch.
    static let journalSizeLimit = 64 << 20

    /// The file's auto-vacuum mode (`PRAGMA auto_vacuum`): 0 none, 1 full, 2 incremental.
    var autoVacuumMode: Int {
        get throws(SQLiteError) { try scalarInt("PRAGMA auto_vacuum") }
    }

    /// Pages on the file's free list (`PRAGMA freelist_count`), read from the header.
    var freePageCount: Int {
        get throws(SQLiteError) { try scalarInt("PRAGMA freelist_count") }
    }

    /// Returns every free page to the file system (`PRAGMA incremental_vacuum`: pages at the
    /// end of the file move into free slots and the file is truncated; under WAL the main
    /// file shrinks at the next checkpoint). A no-op unless ``autoVacuumMode`` is 2 or when
    /// nothing is free. Call outside a transaction.
    /// - Returns: the pages freed.
    /// - Complexity: O(free pages) page moves, each written to the `-wal` file.
    @discardableResult
    func incrementalVacuum() throws(SQLiteError) -> Int {
        try incrementalVacuum(keepingBytes: 0)
    }

    /// ``incrementalVacuum()`` when the free pages hold more than `bytes` (page size ×
    /// `freelist_count`); otherwise nothing, and they stay for later writes to reuse.
    /// - Returns: the pages freed.
    @discardableResult
    func incrementalVacuum(keepingBytes bytes: Int) throws(SQLiteError) -> Int {
        let free = try freePageCount
        guard free > 0, free * (try pageSize) > bytes else { return 0 }
        try execute("PRAGMA incremental_vacuum")
        return free - (try freePageCount)
    }

    /// The database's page size, bytes (`PRAGMA page_size`).
    var pageSize: Int {
        get throws(SQLiteError) { try scalarInt("PRAGMA page_size") }
    }

    /// Copies the `-wal` file into the database and truncates both (`PRAGMA
    /// wal_checkpoint(TRUNCATE)`), so pages an ``incrementalVacuum()`` cut off leave the disk.
    /// Best effort: a reader holding an old snapshot makes it partial (never an error).
    func checkpointTruncating() throws(SQLiteError) {
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The database file's size, bytes: `page_count × page_size` (the `-wal` file apart).
    var fileBytes: Int {
        get throws(SQLiteError) { try scalarInt("PRAGMA page_count") * (try scalarInt("PRAGMA page_size")) }
    }

    /// Whether the main database is open read-only (`sqlite3_db_readonly`).
    var isReadOnly: Bool {
        guard let handle else { return true }
        return sqlite3_db_readonly(handle, "main") == 1
    }

    /// Closes the connection: finalizes the cached statements, then `sqlite3_close_v2`.
    /// Idempotent.
    func close() {
        statements.removeAll()
        if let handle {
            sqlite3_close_v2(handle)
            self.handle = nil
        }
    }

    private func requireHandle() throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed")
        }
        return handle
    }

    // MARK: - Statements

    /// The cached prepared statement for `sql`, compiling it on first use.
    ///
    /// The caller must ``Statement/reset()`` it when done (``withStatement(_:_:)`` does).
    /// - Complexity: O(1) amortized after the first call with the same text.
    func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try Statement(db: try requireHandle(), sql: sql, persistent: true)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` with the cached statement for `sql`, and resets it afterwards
    /// (clearing bindings) whether `body` returns or throws.
    func withStatement<T, E: SQLiteErrorConvertible>(
        _ sql: String, _ body: (Statement) throws(E) -> T
    ) throws(E) -> T {
        let statement: Statement
        do {
            statement = try self.statement(sql)
        } catch {
            throw E(error)
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs one SQL statement without parameters or results (DDL, pragmas, BEGIN/COMMIT).
    /// Uncached; for statements run once or rarely.
    func execute(_ sql: String) throws(SQLiteError) {
        let statement = try Statement(db: try requireHandle(), sql: sql, persistent: false)
        while try statement.step() {}
    }

    /// Runs one statement without parameters or results through the statement cache
    /// (for the transaction statements, run on every write).
    private func executeCached(_ sql: String) throws(SQLiteError) {
        try withStatement(sql) { (statement) throws(SQLiteError) in
            while try statement.step() {}
        }
    }

    /// The first column of the first row of `sql` as an integer (0 when there is no row).
    func scalarInt(_ sql: String) throws(SQLiteError) -> Int {
        let statement = try Statement(db: try requireHandle(), sql: sql, persistent: false)
        return try statement.step() ? statement.int(at: 0) : 0
    }

    /// The first column of the first row of `sql` as text ("" when there is no row).
    func scalarString(_ sql: String) throws(SQLiteError) -> String {
        let statement = try Statement(db: try requireHandle(), sql: sql, persistent: false)
        return try statement.step() ? statement.string(at: 0) : ""
    }

    /// Whether the main database file was renamed or deleted since it was opened
    /// (`SQLITE_FCNTL_HAS_MOVED`, one `stat` of its path): writes would then go to a file no
    /// path names, lost when the process ends. `false` for `:memory:` and when unknown.
    var fileHasMoved: Bool {
        guard let handle else { return false }
        var moved: Int32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK else { return false }
        return moved != 0
    }

    /// The number of rows changed by the last INSERT/UPDATE/DELETE (`sqlite3_changes64`),
    /// not counting foreign-key cascades.
    var changes: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// The rowid of the last successful INSERT (`sqlite3_last_insert_rowid`).
    var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    // MARK: - Transactions

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock up front (waiting up to the busy timeout), so a
    /// read-then-write body never fails half-way with `SQLITE_BUSY` on lock upgrade.
    /// Commits when `body` returns; rolls back when it throws (or when `COMMIT` fails) and
    /// rethrows the *first* error. If SQLite already rolled back by itself (it may, after
    /// `SQLITE_FULL`, `SQLITE_IOERR`, `SQLITE_BUSY` or `SQLITE_NOMEM`), no second
    /// `ROLLBACK` is attempted. Not reentrant: don't nest.
    ///
    /// - Throws: the error `body` threw, or an ``SQLiteError`` (converted to `E`) from
    ///   `BEGIN`/`COMMIT`, e.g. `SQLITE_BUSY` when another connection holds the write lock
    ///   beyond the busy timeout, `SQLITE_READONLY` on a read-only database.
    func transaction<T, E: SQLiteErrorConvertible>(_ body: () throws(E) -> T) throws(E) -> T {
        do {
            try executeCached("BEGIN IMMEDIATE")
        } catch {
            throw E(error)
        }
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfActive()
            throw error
        }
        do {
            try executeCached("COMMIT")
        } catch {
            rollbackIfActive()
            throw E(error)
        }
        return result
    }

    /// Runs `body` inside `SAVEPOINT … RELEASE`, within a ``transaction(_:)``: when `body`
    /// throws, only its own changes are undone (`ROLLBACK TO`) and the error is rethrown;
    /// the enclosing transaction stays open unless SQLite already rolled it back (it may,
    /// after `SQLITE_FULL`, `SQLITE_IOERR`, `SQLITE_BUSY` or `SQLITE_NOMEM`: check
    /// ``isInTransaction``). Not reentrant: don't nest.
    func savepoint<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try executeCached("SAVEPOINT layoutd_row")
        do {
            let result = try body()
            try executeCached("RELEASE layoutd_row")
            return result
        } catch {
            if isInTransaction {
                try? executeCached("ROLLBACK TO layoutd_row")
                try? executeCached("RELEASE layoutd_row")
            }
            throw error
        }
    }

    /// Whether a transaction is open (`sqlite3_get_autocommit` is 0).
    var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// The connection's largest string or blob (and row), bytes (`SQLITE_LIMIT_LENGTH`;
    /// SQLite's default is 1,000,000,000). Setting it lowers the limit for this connection
    /// only (tests use it to make one row fail to write).
    var lengthLimit: Int {
        get {
            guard let handle else { return 0 }
            return Int(sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1))
        }
        set {
            guard let handle else { return }
            sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(clamping: newValue))
        }
    }

    private func rollbackIfActive() {
        guard let handle, sqlite3_get_autocommit(handle) == 0 else { return }
        // A failing ROLLBACK leaves nothing better to do; the first error is what matters.
        try? executeCached("ROLLBACK")
    }
}

@available(*, unavailable)
extension SQLiteConnection: Sendable {}
