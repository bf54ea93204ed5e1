import CSQLite
import Dispatch
import Synchronization

/// The layoutd database: the result cache and the named constraint groups,
/// in one SQLite file.
///
/// Thread safety: every call runs synchronously on one private serial `DispatchQueue`,
/// which is the only place the SQLite connection and the in-memory bookkeeping
/// (``ResultCache``'s clock, ``SQLiteGroupStore``) are touched. That confinement is why the class
/// can be `@unchecked Sendable`: its mutable state is never reached from two threads at
/// once, and the connection is opened `SQLITE_OPEN_NOMUTEX` because of it.
///
/// Durability: the database uses WAL with `synchronous = NORMAL`. A write that returned
/// (so a 2xx answer) survives a process kill (kill -9) right after, because the commit
/// is in the `-wal` file (in the OS page cache) before `COMMIT` returns; only an OS crash
/// or power loss can lose the most recent commits. See ``SQLiteConnection``. Group writes
/// commit before returning; cache stores are batched (``storeResult(_:forKey:groups:)``),
/// so a kill can lose up to one batch of cached results, never a group. ``close()`` writes
/// the batch; an entry of it that cannot be written is skipped, not the whole batch.
///
/// Size (`BoundsTests`, `GroupBytesTests`): the cache's bodies total at most ``maxCacheBytes`` after each commit,
/// each group keeps its last ``maxGroupVersions`` versions, the kept versions count at most
/// ``maxGroupBytes`` together (``StoredBytes/count(payload:)``), and deleted names' high-water
/// marks are bounded (``VersionedWritePolicy``). Pages freed by prunings and deletes are
/// returned to the file system after the commit (`auto_vacuum = INCREMENTAL`), and those
/// freed by the result cache's evictions once they pass one write-behind batch's bytes
/// (fewer stay for the next batch), so the file stays near the groups' bytes plus
/// ``maxCacheBytes`` plus one batch (`BoundsTests`).
///
/// A full disk (`SQLITE_FULL`): a group write that hits it deletes the reserve file
/// (``DiskReserve``, `<db>-reserve`, so SQLite has room to write the deletions), deletes
/// every cached result and retries once before throwing ``StoreError/full``; then returns
/// free pages to the file system and allocates the reserve again if there is room. A cache
/// write that hits it is dropped and the least recently used half of the cache's bytes is
/// freed the same way. Each occurrence is counted
/// (``diskFullCount``); the first of a run is reported on stderr (one line), and a later
/// one again only after a write has succeeded in between.
///
/// Errors: every call throws ``StoreError``; after ``close()`` calls throw
/// ``StoreError/cannotOpen(_:)``.
public final class SQLiteStore: @unchecked Sendable {
    /// The schema version (`PRAGMA user_version`) this build writes.
    public static let schemaVersion = Schema.currentVersion

    /// The most cached results kept (entries; default 10 000).
    public let cacheCapacity: Int
    /// The largest response body the result cache stores, bytes (default 16 MiB,
    /// 16,777,216); ``storeResult(_:forKey:groups:)`` declines larger ones.
    public let maxResultBytes: Int
    /// The most groups that may exist at once (default 10 000).
    public let maxGroups: Int
    /// The most bytes of response bodies the result cache keeps (default 256 MiB,
    /// 268,435,456); see ``ResultCache``.
    public let maxCacheBytes: Int
    /// The most versions kept per group (default 100); older ones are pruned.
    public let maxGroupVersions: Int
    /// The most bytes the kept group versions count together (default 64 MiB, 67,108,864),
    /// each counted as ``StoredBytes/count(payload:)``: its name, constraints JSON,
    /// metrics JSON and `updatedAt` in UTF-8, plus an estimate of SQLite's storage of the
    /// row. A write beyond it throws ``StoreError/limitExceeded(_:)``.
    public let maxGroupBytes: Int
    /// The most font faces stored at once (default 256).
    public let maxFonts: Int
    /// The most bytes the stored font faces count together (default 48 MiB, 50,331,648),
    /// each as ``StoredBytes/count(payload:)`` of its name, SHA-256, file and `updatedAt`.
    public let maxFontBytes: Int
    /// The times a write met a full disk (`SQLITE_FULL`) since opening; read from any thread.
    public var diskFullCount: Int { diskFullEvents.load(ordering: .relaxed) }
    private let diskFullEvents = Atomic<Int>(0)
    /// Whether the database is open read-only: reads work, writes throw ``StoreError/readOnly``.
    public let isReadOnly: Bool

    private let queue = DispatchQueue(label: "layoutd.store")
    /// A second connection to the file, which never writes, asked only for
    /// `PRAGMA data_version` (``changeCount()``): every commit of another connection, this
    /// store's own included, changes it. `nil` for `:memory:` (no other connection can
    /// reach it) and for a file opened read-only.
    private let watcher: Mutex<SQLiteConnection?>
    /// Group writes committed through this store (``changeCount()`` of `:memory:`).
    private let groupWrites = Atomic<Int64>(0)
    private let isInMemory: Bool
    /// The open state; `nil` after ``close()``. Touched only on `queue`.
    private var state: State?
    /// The result cache's entries in memory and key fingerprints (``ResultCache/writeBehind``):
    /// lookups and stores without group versions use them without the queue, so a thread
    /// writing a batch of results there holds up no other request's miss or store.
    private let writeBehind: WriteBehindBuffer
    /// The result cache's batch bounds (entries, bytes of bodies), as ``ResultCache`` has them.
    private let cacheWriteBehind: (entries: Int, bytes: Int)
    /// Set by ``close()`` before it writes the last batch: from then on every call goes to
    /// the queue, which answers ``StoreError/cannotOpen(_:)``.
    private let isClosed = Atomic<Bool>(false)

    /// Everything confined to `queue`.
    private final class State {
        let connection: SQLiteConnection
        let cache: ResultCache
        let groups: SQLiteGroupStore
        let fonts: SQLiteFontStore
        let report: (String) -> Void
        /// The room kept for a full disk; `nil` for `:memory:` and read-only databases.
        let reserve: DiskReserve?
        /// Whether a full disk was reported and no write has succeeded since.
        var diskFullReported = false
        /// Whether the file's move or deletion was reported (once per process).
        var fileMovedReported = false

        init(
            connection: SQLiteConnection, cacheCapacity: Int, cacheWriteBehind: Int, cacheWriteBehindBytes: Int,
            maxResultBytes: Int, maxCacheBytes: Int, maxGroups: Int, maxGroupVersions: Int, maxDeletedNames: Int?,
            maxGroupBytes: Int, fontPolicy: VersionedWritePolicy, reserve: DiskReserve?, now: @escaping () -> String, report: @escaping (String) -> Void
        ) throws(SQLiteError) {
            self.connection = connection
            self.report = report
            self.reserve = reserve
            self.cache = try ResultCache(connection: connection, capacity: cacheCapacity, writeBehindLimit: cacheWriteBehind,
                                         writeBehindBytes: cacheWriteBehindBytes, maxResultBytes: maxResultBytes,
                                         maxBytes: maxCacheBytes, report: report)
            self.groups = SQLiteGroupStore(
                connection: connection, cache: cache,
                policy: .groups(maxGroups: maxGroups, maxVersions: maxGroupVersions, maxBytes: maxGroupBytes,
                                maxDeletedNames: maxDeletedNames),
                now: now)
            self.fonts = SQLiteFontStore(connection: connection, cache: cache, policy: fontPolicy, now: now)
        }

        /// Returns free pages to the file system after a commit that deleted rows. Best
        /// effort: a failure leaves the pages free inside the file, reused by later writes.
        func reclaimFreePages() {
            _ = try? connection.incrementalVacuum()
        }

        /// After a batch of cached results that deleted rows (evictions, replacements):
        /// returns the free pages to the file system once they pass one batch's byte bound
        /// (``ResultCache/writeBehindBytes``); fewer stay in the file, where the next batch
        /// reuses them. A batch that evicts as much as it adds, the steady state of a full
        /// cache, thus moves no pages: returning them after every batch (moving pages from
        /// the end of the file into the holes, then growing the file again for the next
        /// batch) cost about a tenth of the server's CPU under a stream of new scenes.
        func reclaimFreeCachePages() {
            _ = try? connection.incrementalVacuum(keepingBytes: cache.writeBehindBytes)
        }

        /// Makes room on a full disk: deletes the reserve file (so SQLite can write the
        /// eviction's frames), deletes least recently used cached results until their bodies
        /// total at most `bytes`, and truncates the `-wal` file into the database. The freed
        /// pages stay in the file, where the next write reuses them; ``restoreReserve()``
        /// returns the rest to the file system. Best effort (each step may meet the full
        /// disk again).
        func freeCacheSpace(downTo bytes: Int) {
            reserve?.release()
            // First copy the -wal file's pages in while the reserve's room is there, so
            // the eviction's own frames start an empty -wal file.
            _ = try? connection.checkpointTruncating()
            _ = try? cache.shrink(toBytes: bytes)
            _ = try? connection.checkpointTruncating()
        }

        /// After a write that met a full disk: returns free pages to the file system,
        /// truncates the `-wal` file and allocates the reserve again. Best effort.
        func restoreReserve() {
            _ = try? connection.incrementalVacuum()
            _ = try? connection.checkpointTruncating()
            reserve?.acquire()
        }
    }

    /// Opens (creating if needed) the database at `path`, applies migrations, and checks
    /// the integrity of the group tables with `PRAGMA quick_check(TABLE)`.
    ///
    /// A corrupt file is reported, never deleted or "repaired". A database file the process
    /// cannot write is opened read-only (SQLite falls back to read-only, or a retry with
    /// `SQLITE_OPEN_READONLY`): reads work, writes throw ``StoreError/readOnly``.
    ///
    /// - Parameters:
    ///   - path: a file path, or `":memory:"` (a private, empty database).
    ///   - cacheCapacity: the most cached results kept, in entries (default 10 000; 0 turns
    ///     the cache off).
    ///   - busyTimeout: seconds to wait for another connection's lock before
    ///     ``StoreError/busy`` (default 5).
    ///   - maxGroups: the most groups that may exist at once (default 10 000).
    ///   - maxResultBytes: the largest response body the result cache stores, bytes
    ///     (default 16 MiB; at most SQLite's length limit, 1,000,000,000 bytes, less 64 KiB).
    ///   - readOnly: open with `SQLITE_OPEN_READONLY` even if the file is writable. Needed to
    ///     exercise the read-only path as root, whom file permissions do not stop. The file
    ///     must exist and be at ``schemaVersion``.
    ///   - maxCacheBytes: the most bytes of response bodies the cache keeps (default 256 MiB,
    ///     268,435,456); least recently used entries are evicted beyond it.
    ///   - maxGroupVersions: the most versions kept per group (default 100, at least 1).
    ///   - maxGroupBytes: the most bytes the kept group versions count together (default
    ///     64 MiB, 67,108,864; see ``maxGroupBytes``).
    ///   - diskReserveBytes: the size of the reserve file `<path>-reserve` (default 8 MiB,
    ///     8,388,608; 0 keeps none), allocated at open when the disk has room and deleted
    ///     when the disk is full, so that the cache can be evicted and a group write retried
    ///     (see ``DiskReserve``). None for `:memory:` or a read-only database.
    /// - Throws: ``StoreError/corrupt(_:)`` for a file that is not a database or fails
    ///   `quick_check`; ``StoreError/cannotOpen(_:)`` when it cannot be opened, is newer than
    ///   this build, or is read-only and needs a migration; ``StoreError/busy`` if another
    ///   process holds the write lock during a migration.
    /// - Complexity: `quick_check` of the group tables is O(their size), bounded by the
    ///   groups' limits; the cache's tables are not scanned (at most `cacheCapacity` keys
    ///   are read to fill the lookup filter). A damaged cache page shows when it is read:
    ///   a failed lookup is a miss, a failed write is dropped.
    public convenience init(
        path: String, cacheCapacity: Int = 10_000, busyTimeout: Double = 5,
        maxGroups: Int = 10_000, maxResultBytes: Int = 16 << 20, readOnly: Bool = false,
        maxCacheBytes: Int = 256 << 20, maxGroupVersions: Int = 100, diskReserveBytes: Int = DiskReserve.defaultBytes,
        maxGroupBytes: Int = 64 << 20, maxFonts: Int = VersionedWritePolicy.defaultMaxFonts,
        maxFontBytes: Int = VersionedWritePolicy.defaultMaxFontBytes
    ) throws(StoreError) {
        try self.init(path: path, cacheCapacity: cacheCapacity, busyTimeout: busyTimeout,
                      maxGroups: maxGroups, readOnly: readOnly, cacheWriteBehind: ResultCache.defaultWriteBehindLimit,
                      cacheWriteBehindBytes: ResultCache.defaultWriteBehindBytes, maxResultBytes: maxResultBytes,
                      maxCacheBytes: maxCacheBytes, maxGroupVersions: maxGroupVersions, maxGroupBytes: maxGroupBytes,
                      diskReserveBytes: diskReserveBytes, maxFonts: maxFonts, maxFontBytes: maxFontBytes, now: Timestamp.now)
    }

    /// As the public initializer, with the size of the cache's write-behind buffer
    /// (entries, and bytes of bodies; 0 writes every store at once), the clock used for
    /// `updatedAt`, and where a cached result that cannot be written is reported (for tests).
    init(
        path: String, cacheCapacity: Int, busyTimeout: Double, maxGroups: Int, readOnly: Bool,
        cacheWriteBehind: Int, cacheWriteBehindBytes: Int = ResultCache.defaultWriteBehindBytes,
        maxResultBytes: Int = ResultCache.defaultMaxResultBytes, maxCacheBytes: Int = ResultCache.defaultMaxBytes,
        maxGroupVersions: Int = VersionedWritePolicy.defaultMaxVersions, maxDeletedNames: Int? = nil,
        maxGroupBytes: Int = VersionedWritePolicy.defaultMaxBytes, diskReserveBytes: Int = 0,
        maxFonts: Int = VersionedWritePolicy.defaultMaxFonts, maxFontBytes: Int = VersionedWritePolicy.defaultMaxFontBytes,
        now: @escaping () -> String,
        report: @escaping (String) -> Void = ResultCache.reportOnStandardError
    ) throws(StoreError) {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, readOnly: readOnly, busyTimeout: busyTimeout)
        } catch {
            throw Self.openError(error, path: path)
        }
        var effectiveMaxResultBytes = 0
        var opened: State?
        do throws(StoreError) {
            try Self.checkIntegrity(connection, path: path)
            try Schema.migrate(connection)
            do {
                let state = try State(connection: connection, cacheCapacity: cacheCapacity, cacheWriteBehind: cacheWriteBehind,
                                  cacheWriteBehindBytes: cacheWriteBehindBytes, maxResultBytes: maxResultBytes,
                                  maxCacheBytes: maxCacheBytes, maxGroups: maxGroups, maxGroupVersions: maxGroupVersions,
                                  maxDeletedNames: maxDeletedNames, maxGroupBytes: maxGroupBytes,
                                  fontPolicy: .fonts(maxFonts: maxFonts, maxBytes: maxFontBytes),
                                  reserve: path == ":memory:" || connection.isReadOnly || diskReserveBytes <= 0
                                      ? nil : DiskReserve(path: path + "-reserve", bytes: diskReserveBytes),
                                  now: now, report: report)
                state.reserve?.acquire()
                opened = state
                effectiveMaxResultBytes = state.cache.maxResultBytes
            } catch {
                throw StoreError(error)
            }
        } catch {
            connection.close()
            throw error
        }
        guard let opened else { throw .cannotOpen(path) }   // every path above opened it or threw
        self.state = opened
        self.writeBehind = opened.cache.writeBehind
        self.cacheWriteBehind = (opened.cache.writeBehindLimit, opened.cache.writeBehindBytes)
        self.cacheCapacity = max(0, cacheCapacity)
        self.maxResultBytes = effectiveMaxResultBytes
        self.maxGroups = max(0, maxGroups)
        self.maxCacheBytes = max(0, maxCacheBytes)
        self.maxGroupVersions = max(1, maxGroupVersions)
        self.maxGroupBytes = max(0, maxGroupBytes)
        self.maxFonts = max(0, maxFonts)
        self.maxFontBytes = max(0, maxFontBytes)
        self.isReadOnly = connection.isReadOnly
        self.isInMemory = path == ":memory:"
        self.watcher = Mutex(path == ":memory:" || connection.isReadOnly
            ? nil : try? SQLiteConnection(path: path, readOnly: false, busyTimeout: busyTimeout))
    }

    /// See ``GroupStoring/changeCount()``: the watching connection's `PRAGMA data_version`
    /// (no table is read; in WAL mode the `-shm` header), or with `:memory:` the group writes
    /// committed through this store; `nil` when the file was opened read-only or the pragma
    /// fails. Safe from any thread.
    public func changeCount() -> Int64? {
        if isInMemory { return groupWrites.load(ordering: .acquiring) }
        return watcher.withLock { watcher -> Int64? in
            guard let watcher else { return nil }
            // The statement is kept prepared: a step reads the WAL index header.
            return try? watcher.withStatement("PRAGMA data_version") { (statement) throws(SQLiteError) -> Int64? in
                try statement.step() ? Int64(statement.int(at: 0)) : nil
            }
        }
    }

    private static func openError(_ error: SQLiteError, path: String) -> StoreError {
        switch StoreError(error) {
        case .corrupt(let message): .corrupt("\(path): \(message)")
        case .cannotOpen(let message): .cannotOpen("\(path): \(message)")
        case let other: other
        }
    }

    /// The tables `quick_check` reads at open: the groups, which are not cache. Their size
    /// is bounded by `maxGroups` × `maxGroupVersions` × the request body limit; the result
    /// cache's tables (up to `maxCacheBytes`) are left out so start-up does not grow with
    /// the cache.
    static let checkedTables = ["group_names", "group_versions", "font_names"]

    private static func checkIntegrity(_ connection: SQLiteConnection, path: String) throws(StoreError) {
        do throws(SQLiteError) {
            for table in checkedTables {
                // A new file has no tables yet; `quick_check(missing)` is an error.
                let exists = try connection.withStatement("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?") {
                    (statement) throws(SQLiteError) -> Bool in
                    try statement.bind(table, at: 1)
                    return try statement.step()
                }
                guard exists else { continue }
                // PRAGMA takes no bound parameters; `table` is one of our own names.
                let answer = try connection.scalarString("PRAGMA quick_check(\(table))")
                guard answer == "ok" else {
                    throw SQLiteError(code: SQLITE_CORRUPT, message: "PRAGMA quick_check(\(table)) failed: \(answer)")
                }
            }
        } catch {
            throw openError(error, path: path)
        }
    }

    /// Closes the database (flushing pending LRU recency updates first) and deletes the disk
    /// reserve file. Idempotent; later calls throw ``StoreError/cannotOpen(_:)``. Waits for
    /// a call in progress to finish.
    public func close() {
        queue.sync {
            guard let state else { return }
            isClosed.store(true, ordering: .releasing)
            watcher.withLock { watcher in
                watcher?.close()
                watcher = nil
            }
            state.cache.flushBeforeClose()
            state.connection.close()
            state.reserve?.release()
            self.state = nil
        }
    }

    deinit {
        state?.cache.flushBeforeClose()
        state?.connection.close()
        state?.reserve?.release()
    }

    /// Runs `body` on the queue with the open state.
    private func perform<T>(_ body: (State) throws(StoreError) -> T) throws(StoreError) -> T {
        let result: Result<T, StoreError> = queue.sync {
            dispatchPrecondition(condition: .onQueue(queue))
            guard let state else { return .failure(.cannotOpen("the store is closed")) }
            return Result { () throws(StoreError) -> T in try body(state) }
        }
        return try result.get()
    }

    /// Runs a write `body` on the queue: fails fast with ``StoreError/readOnly`` on a
    /// read-only database.
    private func performWrite<T>(_ body: (State) throws(StoreError) -> T) throws(StoreError) -> T {
        guard !isReadOnly else { throw .readOnly }
        return try perform { (state) throws(StoreError) -> T in
            // A write to a file deleted under the process would be acknowledged and lost at
            // exit (SQLiteStoreTests.aDeletedDatabaseFileRefusesWritesAndIsNotReady).
            guard !state.connection.fileHasMoved else {
                if !state.fileMovedReported {
                    state.fileMovedReported = true
                    state.report("layoutd: \(Self.movedFileMessage); group and font writes are refused with 503")
                }
                throw .fileMoved
            }
            return try body(state)
        }
    }

    /// Why writes and `/readyz` fail once the database file was renamed or deleted (the
    /// stderr line, once, and the 503's detail).
    public static let movedFileMessage = "the database file was moved or deleted while layoutd was running, so writes would be lost: restart layoutd once the file is back (a copy put in its place is not the file it opened)"

    /// Runs `body` with the connection, on the queue (tests use it to set pragmas).
    func withConnection<T>(_ body: (SQLiteConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        try perform { (state) throws(StoreError) -> T in try body(state.connection) }
    }

    // MARK: - Result cache

    /// The cached response body for `key`, or `nil`; a hit becomes the most recently used.
    ///
    /// - Parameter key: opaque (the service uses a hex SHA-256 of the canonical scene, the
    ///   group versions and the layoutd version).
    /// - Complexity: O(log n); a hit does not write to the database (recency is written in
    ///   batches, see ``ResultCache``).
    public func cachedResult(forKey key: String) throws(StoreError) -> [UInt8]? {
        // An entry in memory, or a key stored nowhere (every new scene), without the queue.
        if !isClosed.load(ordering: .acquiring) {
            switch writeBehind.lookup(key) {
            case .found(let body): return body
            case .absent: return nil
            case .inTable: break
            }
        }
        return try perform { (state) throws(StoreError) -> [UInt8]? in
            try mapped { () throws(SQLiteError) -> [UInt8]? in try state.cache.body(forKey: key) }
        }
    }

    /// The name ``storeResult(_:forKey:groups:)`` records for a stored font face
    /// (`family/face`) a result used: `font:family/face`, which a write of that face deletes.
    public static func fontCacheName(_ face: String) -> String { SQLiteFontStore.cacheName(face) }

    /// Stores a response body under `key`, replacing any entry, remembering the group
    /// versions it was computed from.
    ///
    /// The entry is visible to ``cachedResult(forKey:)`` at once. It is written to the
    /// database with a batch of up to 512 stores, or 16 MiB of bodies, in one transaction,
    /// by the store that fills the batch, and least recently used entries beyond
    /// ``cacheCapacity`` are evicted in the same transaction: after a commit the table never
    /// holds more than ``cacheCapacity`` entries. While one thread writes a batch, stores
    /// without `groups` fill the next one without waiting for it (lookups too), so at most
    /// two batches are in memory (a kill -9 loses at most those, which are only cache;
    /// ``close()`` writes them). An entry of a batch that cannot be written is skipped and
    /// reported on stderr; the others are written.
    /// Nothing is stored if `body` is over ``maxResultBytes``, one of `groups` no longer
    /// exists (deleted while the result was being computed) or the capacity is 0.
    ///
    /// - Parameters:
    ///   - body: the response body bytes.
    ///   - key: the opaque cache key.
    ///   - groups: the (name, version) pairs the result was computed from; replacing or
    ///     deleting any of those groups deletes this entry (buffered or written) in the same
    ///     transaction as the group write. A stored font face is named `font:family/face`
    ///     (``SQLiteFontStore/cacheName(_:)``), and a font write deletes it likewise.
    /// - Returns: whether the entry was stored (buffered, or written if this store wrote
    ///   the batch).
    /// - Throws: ``StoreError/readOnly``; when this store completes a batch that cannot be
    ///   written, ``StoreError/busy``, … (that batch is dropped). The service may ignore
    ///   these: a failed store only costs a later miss. A full disk is not thrown: the batch
    ///   is dropped (`false`) and half the cache's bytes are freed (see the type's notes).
    @discardableResult
    public func storeResult(_ body: [UInt8], forKey key: String, groups: [GroupVersion]) throws(StoreError) -> Bool {
        guard !isReadOnly else { throw .readOnly }
        if groups.isEmpty && !isClosed.load(ordering: .acquiring) {
            // No group version to check: buffered without the queue, which another thread
            // may hold while it writes a batch; only the store that fills the batch waits
            // for the queue, to write it.
            guard cacheCapacity > 0, body.count <= maxResultBytes else { return false }
            guard writeBehind.add(body, forKey: key, groups: [], limit: cacheWriteBehind.entries,
                                  limitBytes: cacheWriteBehind.bytes) else { return true }
            return try writeCache { (state) throws(SQLiteError) -> Bool in try state.cache.flushIfFull(storing: key) }
        }
        return try writeCache { (state) throws(SQLiteError) -> Bool in try state.cache.store(body, forKey: key, groups: groups) }
    }

    /// Runs a result cache write (`body`: a store, or the batch a store filled) on the queue,
    /// returning free pages after it and handling a full disk (see the type's notes).
    private func writeCache(_ body: (State) throws(SQLiteError) -> Bool) throws(StoreError) -> Bool {
        try performWrite { (state) throws(StoreError) -> Bool in
            do throws(StoreError) {
                let stored = try mapped { () throws(SQLiteError) -> Bool in try body(state) }
                if state.cache.deletedRows {
                    state.cache.deletedRows = false
                    state.reclaimFreeCachePages()
                }
                return stored
            } catch .full {
                noteDiskFull(state, "a batch of cached results was dropped")
                state.freeCacheSpace(downTo: ((try? state.cache.bytes()) ?? 0) / 2)
                state.restoreReserve()
                return false
            }
        }
    }

    /// Counts a full disk and reports it on stderr unless already reported since the last
    /// successful write.
    private func noteDiskFull(_ state: State, _ consequence: String) {
        diskFullEvents.add(1, ordering: .relaxed)
        guard !state.diskFullReported else { return }
        state.diskFullReported = true
        state.report("layoutd: the disk holding the database is full (SQLITE_FULL): \(consequence); cached results are evicted to make room. Reported once until a write succeeds again; counted in layoutd_store_disk_full_total")
    }

    /// The bytes of the cached results' bodies in the table (what ``maxCacheBytes``
    /// bounds), after writing the buffer.
    public func cacheBytes() throws(StoreError) -> Int {
        try perform { (state) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try state.cache.bytes() }
        }
    }

    /// Entries of write-behind batches that could not be written and were skipped (for tests).
    func skippedCacheWrites() throws(StoreError) -> Int {
        try perform { (state) throws(StoreError) -> Int in state.cache.skippedWrites }
    }

    /// Deletes every cached result.
    public func clearCache() throws(StoreError) {
        try performWrite { (state) throws(StoreError) in
            do throws(SQLiteError) {
                try state.connection.transaction { () throws(SQLiteError) in try state.cache.removeAll() }
                state.reclaimFreePages()
            } catch {
                state.cache.transactionDidRollBack()
                throw StoreError(error)
            }
        }
    }

    /// The number of cached results. Writes the buffered entries first (so it can throw
    /// ``StoreError/busy`` or ``StoreError/full``), then counts the table.
    /// - Complexity: O(n) (`count(*)` walks an index).
    public func cacheCount() throws(StoreError) -> Int {
        try perform { (state) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try state.cache.count() }
        }
    }

    // MARK: - Groups

    /// Writes a new version of the group `name`, atomically (`BEGIN IMMEDIATE`), and deletes
    /// the cached results that used any version of it, in the same transaction.
    ///
    /// Versions are 1, 2, 3… per name and never reused, even after a delete and a new put:
    /// the new version is one more than the name's high-water mark.
    ///
    /// - Parameters:
    ///   - name: the group's name (validated by the service).
    ///   - constraintsJSON: the `constraints` JSON array, stored verbatim.
    ///   - metricsJSON: the `metrics` JSON object, stored verbatim.
    ///   - ifMatch: the version the client expects to be current (`If-Match`,
    ///     RFC 9110 §13.1.1), or `nil`.
    ///   - ifNoneMatchAny: `If-None-Match: *` (RFC 9110 §13.1.2): only create.
    /// - Returns: the stored version, and whether the group was created (201) rather than
    ///   replaced (200).
    /// - Throws: ``StoreError/preconditionFailed(current:)`` when `ifMatch` is not the
    ///   current version (or there is none) or `ifNoneMatchAny` and the group exists — nothing
    ///   changes; ``StoreError/limitExceeded(_:)`` when creating a group beyond
    ///   ``maxGroups``, or when the new version would make the kept versions count more than
    ///   ``maxGroupBytes`` (after the same write's pruning of this group's oldest version) —
    ///   nothing changes; ``StoreError/readOnly``, ``StoreError/full``, ``StoreError/busy``.
    public func putGroup(
        name: String, constraintsJSON: String, metricsJSON: String, ifMatch: Int?, ifNoneMatchAny: Bool
    ) throws(StoreError) -> (group: StoredGroup, created: Bool) {
        try performWrite { (state) throws(StoreError) -> (group: StoredGroup, created: Bool) in
            try groupWrite(state) { () throws(StoreError) in
                try state.groups.put(name: name, constraintsJSON: constraintsJSON, metricsJSON: metricsJSON,
                                     ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny)
            }
        }
    }

    /// Runs a group write's transaction `body`; on a full disk, empties the cache, returns
    /// the freed pages and runs it once more. Returns freed pages after a commit.
    private func groupWrite<T>(_ state: State, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        defer { groupWrites.add(1, ordering: .releasing) }
        do throws(StoreError) {
            let result = try body()
            state.diskFullReported = false
            state.cache.deletedRows = false
            state.reclaimFreePages()
            if let reserve = state.reserve, !reserve.isHeld { reserve.acquire() }
            return result
        } catch .full {
            state.cache.transactionDidRollBack()
            noteDiskFull(state, "a group write is retried after emptying the result cache")
            state.freeCacheSpace(downTo: 0)
        } catch {
            state.cache.transactionDidRollBack()
            throw error
        }
        defer { state.restoreReserve() }
        do throws(StoreError) {
            let result = try body()
            state.diskFullReported = false
            state.cache.deletedRows = false
            return result
        } catch {
            state.cache.transactionDidRollBack()
            if case .full = error { diskFullEvents.add(1, ordering: .relaxed) }
            throw error
        }
    }

    /// The current version of the group `name`, or `nil` if there is none.
    public func group(named name: String) throws(StoreError) -> StoredGroup? {
        try perform { (state) throws(StoreError) -> StoredGroup? in
            try mapped { () throws(SQLiteError) -> StoredGroup? in try state.groups.group(named: name) }
        }
    }

    /// Version `version` of the group `name`, or `nil` if either is unknown.
    public func group(named name: String, version: Int) throws(StoreError) -> StoredGroup? {
        try perform { (state) throws(StoreError) -> StoredGroup? in
            try mapped { () throws(SQLiteError) -> StoredGroup? in try state.groups.group(named: name, version: version) }
        }
    }

    /// The kept versions of the group `name` (at most ``maxGroupVersions``), ascending;
    /// `nil` if the group does not exist.
    public func versions(ofGroup name: String) throws(StoreError) -> [GroupVersionInfo]? {
        try versions(ofGroup: name, after: 0, limit: maxGroupVersions)?.versions
    }

    /// Up to `limit` kept versions of the group `name` numbered above `after`, ascending,
    /// and whether more follow; `nil` if the group does not exist.
    /// - Complexity: O(log n + limit).
    public func versions(ofGroup name: String, after: Int, limit: Int) throws(StoreError) -> GroupVersionPage? {
        try perform { (state) throws(StoreError) -> GroupVersionPage? in
            try mapped { () throws(SQLiteError) -> GroupVersionPage? in
                try state.groups.versions(ofGroup: name, after: after, limit: limit)
            }
        }
    }

    /// If version `version` of the existing group `name` was pruned (it was written in the
    /// group's current life, but only the last ``maxGroupVersions`` are kept), the oldest
    /// version kept; `nil` if it is kept, was never written, or predates a delete.
    public func prunedVersion(ofGroup name: String, version: Int) throws(StoreError) -> Int? {
        try perform { (state) throws(StoreError) -> Int? in
            try mapped { () throws(SQLiteError) -> Int? in try state.groups.prunedVersion(ofGroup: name, version: version) }
        }
    }

    /// Every group's current version, sorted by name (byte order).
    public func groups() throws(StoreError) -> [GroupSummary] {
        try perform { (state) throws(StoreError) -> [GroupSummary] in
            try mapped { () throws(SQLiteError) -> [GroupSummary] in try state.groups.all() }
        }
    }

    /// Deletes the group `name` with all its versions and every cached result that used it,
    /// in one transaction, when `ifMatch` / `ifNoneMatchAny` hold (checked in it; see
    /// ``GroupStoring/deleteGroup(named:ifMatch:ifNoneMatchAny:)``). Its version numbers stay used.
    /// - Returns: `false` if there was no such group.
    /// - Throws: ``StoreError/preconditionFailed(current:)``, ``StoreError/readOnly``, ``StoreError/busy``, ….
    public func deleteGroup(named name: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> Bool {
        try performWrite { (state) throws(StoreError) -> Bool in
            try groupWrite(state) { () throws(StoreError) -> Bool in
                try state.groups.delete(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny)
            }
        }
    }

    /// The sum of ``StoredBytes/count(payload:)`` over every kept group version: what
    /// counts against ``maxGroupBytes``. O(1) (one maintained row).
    public func groupBytes() throws(StoreError) -> Int {
        try perform { (state) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try state.groups.totalBytes() }
        }
    }

    /// The number of existing groups.
    public func groupCount() throws(StoreError) -> Int {
        try perform { (state) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try state.groups.count() }
        }
    }

    /// Writes exported versions of a group, keeping their numbers; see
    /// ``GroupStoring/importGroup(name:versions:replace:)``.
    @discardableResult
    public func importGroup(name: String, versions: [StoredGroup], replace: Bool) throws(StoreError) -> Bool {
        try performWrite { (state) throws(StoreError) -> Bool in
            try groupWrite(state) { () throws(StoreError) -> Bool in
                try state.groups.importGroup(name: name, versions: versions, replace: replace)
            }
        }
    }

    /// ``GroupStoring/versionMarks()``.
    public func versionMarks() throws(StoreError) -> VersionMarks {
        try perform { (state) throws(StoreError) -> VersionMarks in
            try mapped { () throws(SQLiteError) -> VersionMarks in try state.groups.marks() }
        }
    }

    /// ``GroupStoring/raiseVersionMarks(_:)``.
    @discardableResult
    public func raiseVersionMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool) {
        try performWrite { (state) throws(StoreError) -> (names: Int, floor: Bool) in
            try groupWrite(state) { () throws(StoreError) -> (names: Int, floor: Bool) in try state.groups.raiseMarks(marks) }
        }
    }

    /// The current version of each of `names` that exists, in one statement; see
    /// ``GroupStoring/currentVersions(of:)``.
    public func currentVersions(of names: [String]) throws(StoreError) -> [String: Int] {
        try perform { (state) throws(StoreError) -> [String: Int] in
            try mapped { () throws(SQLiteError) -> [String: Int] in try state.groups.currentVersions(of: names) }
        }
    }

    /// The version a name without a row starts above (the largest high-water mark of the
    /// deleted names dropped), and the rows of deleted names kept (for tests).
    func versionFloor() throws(StoreError) -> (floor: Int, deletedNames: Int) {
        try perform { (state) throws(StoreError) -> (floor: Int, deletedNames: Int) in
            try mapped { () throws(SQLiteError) -> (floor: Int, deletedNames: Int) in
                (try state.groups.versionFloor(), try state.groups.deletedNameCount())
            }
        }
    }

    /// Whether the database file was renamed or deleted since it was opened
    /// (``SQLiteConnection/fileHasMoved``): writes are then refused with
    /// ``StoreError/unavailable(_:)`` and `/readyz` answers 503.
    public var databaseFileHasMoved: Bool {
        (try? perform { (state) throws(StoreError) -> Bool in state.connection.fileHasMoved }) ?? false
    }

    /// Whether the database answers a trivial query (`SELECT 1`) and its file is still where
    /// it was opened (``SQLiteConnection/fileHasMoved``), for `/readyz`.
    public func isReachable() -> Bool {
        (try? perform { (state) throws(StoreError) -> Bool in
            guard !state.connection.fileHasMoved else { return false }
            return try mapped { () throws(SQLiteError) -> Bool in try state.connection.scalarInt("SELECT 1") == 1 }
        }) ?? false
    }
}

/// The SQLite backend of ``GroupStoring``: one file, for one process or several on one host.
extension SQLiteStore: GroupStoring {
    /// `false`: a lookup is a statement on this process's queue, as cheap as the
    /// coalescing would be.
    public var lookupsAreRoundTrips: Bool { false }
}

/// The SQLite backend of ``FontStoring``: faces in the same file as the groups; a write
/// deletes the cached results that used the face in its transaction.
extension SQLiteStore: FontStoring {
    public func putFace(name: String, bytes: [UInt8], sha256: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> (face: StoredFace, created: Bool) {
        try performWrite { (state) throws(StoreError) -> (face: StoredFace, created: Bool) in
            try groupWrite(state) { () throws(StoreError) in try state.fonts.put(name: name, bytes: bytes, sha256: sha256, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny) }
        }
    }

    public func face(named name: String) throws(StoreError) -> StoredFace? {
        try perform { (state) throws(StoreError) -> StoredFace? in
            try mapped { () throws(SQLiteError) -> StoredFace? in try state.fonts.face(named: name) }
        }
    }

    public func faces() throws(StoreError) -> [FaceSummary] {
        try perform { (state) throws(StoreError) -> [FaceSummary] in
            try mapped { () throws(SQLiteError) -> [FaceSummary] in try state.fonts.all() }
        }
    }

    public func deleteFace(named name: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> Bool {
        try performWrite { (state) throws(StoreError) -> Bool in
            try groupWrite(state) { () throws(StoreError) -> Bool in
                try state.fonts.delete(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny)
            }
        }
    }

    public func fontBytes() throws(StoreError) -> Int {
        try perform { (state) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try state.fonts.totalBytes() }
        }
    }

    public func currentFaceVersions(of names: [String]) throws(StoreError) -> [String: Int] {
        try perform { (state) throws(StoreError) -> [String: Int] in
            try mapped { () throws(SQLiteError) -> [String: Int] in try state.fonts.currentVersions(of: names) }
        }
    }

    @discardableResult
    public func importFace(_ face: StoredFace, replace: Bool) throws(StoreError) -> Bool {
        try performWrite { (state) throws(StoreError) -> Bool in
            try groupWrite(state) { () throws(StoreError) -> Bool in try state.fonts.importFace(face, replace: replace) }
        }
    }

    public func fontVersionMarks() throws(StoreError) -> VersionMarks {
        try perform { (state) throws(StoreError) -> VersionMarks in
            try mapped { () throws(SQLiteError) -> VersionMarks in try state.fonts.marks() }
        }
    }

    @discardableResult
    public func raiseFontVersionMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool) {
        try performWrite { (state) throws(StoreError) -> (names: Int, floor: Bool) in
            try groupWrite(state) { () throws(StoreError) -> (names: Int, floor: Bool) in try state.fonts.raiseMarks(marks) }
        }
    }
}
