import Synchronization
#if canImport(Glibc)
import Glibc
private let writeToFile = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let writeToFile = Darwin.write
#endif

/// The bounded LRU cache of solve results (response bodies), stored in SQLite.
///
/// - Keys are opaque strings (the service uses a hex SHA-256); values are response bytes.
/// - Each entry records the group versions it was computed from (`cached_result_groups`),
///   so ``invalidate(groupNamed:)`` — called inside the group write's transaction — deletes
///   every entry that used any version of the group; a stored font face it used is
///   recorded as `font:family/face`, and a font write deletes those entries likewise.
/// - Write-behind: ``store(_:forKey:groups:)`` puts the entry in an in-memory buffer, which
///   lookups see at once; the buffer is written in one transaction when it holds more than
///   `writeBehindLimit` entries (default 512) or more than `writeBehindBytes` bytes of bodies
///   (default 16 MiB), on ``flush()`` (``count()``, close). One transaction per batch
///   instead of one per store is what keeps stores off the critical path (measured:
///   ~50 µs for a transaction per store). A crash (kill -9) loses at most the buffered
///   entries, which are only cache; group data is never buffered. The buffer, the batch
///   being written and the key fingerprints live in a ``WriteBehindBuffer`` that other
///   threads reach without the store's queue (``SQLiteStore``): while one thread writes a
///   batch, the others' misses and stores go on, into the next batch. So at most two
///   batches are in memory: the one being written and the one filling.
/// - Size: a body over `maxResultBytes` (default 16 MiB) is not stored at all. Each entry of
///   a batch is written under its own savepoint: an entry that fails to write (say
///   `SQLITE_TOOBIG`) is skipped, reported once on stderr and counted in
///   ``skippedWrites``, and the rest of the batch commits. Only an error that ends the
///   whole transaction (`SQLITE_BUSY` on `BEGIN`, `SQLITE_FULL`, …) drops the batch.
/// - Recency is an integer clock (`last_used`, indexed). A hit does not write: it records
///   the new clock value in memory, written with the next batch or when more than
///   ``maxPendingTouches`` accumulate. A crash can lose those updates, never data.
/// - Capacity: the table never holds more than `capacity` entries after a commit; with the
///   two batches in memory, at most `capacity + 2 × (writeBehindLimit + 1)` entries are
///   visible at once (plus one per thread storing while a batch is written). When a batch
///   makes the table exceed `capacity`, the least recently used entries are evicted down to
///   `capacity − evictionBatch` in the same transaction, so eviction does not run on every
///   insert. `evictionBatch` is `capacity / 100`, at most 256 (0 for capacities under 100).
/// - Bytes: the table's bodies never total more than `maxBytes` after a commit (what is
///   counted is exactly the stored response bodies, `sum(length(body))`; keys, group
///   rows, indexes and page slack are not). A batch that passes it evicts least recently
///   used entries until the total is at most `maxBytes` (no slack below it), in the same
///   transaction; a body over `maxBytes` is not stored. The two batches add at most
///   2 × `writeBehindBytes` (each plus its last entry) in memory, one batch on disk. Pages
///   the deletes free stay in the file for the next batch while they hold at most
///   `writeBehindBytes`, and are returned to the file system after the commit that passes
///   that (``SQLiteConnection/incrementalVacuum(keepingBytes:)``, by ``SQLiteStore``), so the
///   file stays near the groups plus `maxBytes` plus one batch.
///
/// Not thread-safe: owned by ``SQLiteStore`` and used only on its queue (its
/// ``writeBehind`` is thread-safe).
final class ResultCache {
    /// The most entries kept in the table.
    let capacity: Int
    /// How far below `capacity` an eviction goes.
    let evictionBatch: Int
    /// The most entries buffered in memory before they are written.
    let writeBehindLimit: Int
    /// The most bytes of bodies buffered in memory before they are written.
    let writeBehindBytes: Int
    /// The largest body stored, bytes; larger ones are not stored (``store(_:forKey:groups:)``
    /// returns `false`). At most SQLite's length limit less 64 KiB, and at most `maxBytes`.
    let maxResultBytes: Int
    /// The most bytes of bodies kept in the table (see the type's notes).
    let maxBytes: Int
    /// Whether rows were deleted since the owner last returned free pages (set by
    /// evictions and replacements; cleared by the owner).
    var deletedRows = false
    /// Entries of batches that could not be written and were skipped, since opening.
    private(set) var skippedWrites = 0
    /// Where a skipped entry is reported, one line each (stderr by default).
    private let report: (String) -> Void
    /// Pending recency updates beyond which a hit writes them in its own transaction.
    static let maxPendingTouches = 1024

    private let connection: SQLiteConnection
    private let isReadOnly: Bool
    /// The entries not written yet, the batch being written, recency updates, the LRU
    /// clock and the key fingerprints: shared with threads off the store's queue.
    let writeBehind: WriteBehindBuffer
    /// The number of rows, when known without counting; `nil` forces a `COUNT(*)`.
    private var knownCount: Int?
    /// The bytes of the table's bodies, when known without summing; `nil` forces a
    /// `sum(length(body))` (which reads record headers, not the bodies' pages).
    private var knownBytes: Int?

    /// - Parameters:
    ///   - capacity: the most entries kept in the table.
    ///   - writeBehindLimit: the most entries buffered before a batch is written.
    ///   - writeBehindBytes: the most bytes of bodies buffered before a batch is written.
    ///   - maxResultBytes: the largest body stored, bytes.
    ///   - maxBytes: the most bytes of bodies kept in the table.
    ///   - report: receives one line per entry that could not be written.
    init(
        connection: SQLiteConnection, capacity: Int, writeBehindLimit: Int,
        writeBehindBytes: Int = ResultCache.defaultWriteBehindBytes,
        maxResultBytes: Int = ResultCache.defaultMaxResultBytes,
        maxBytes: Int = ResultCache.defaultMaxBytes,
        report: @escaping (String) -> Void = ResultCache.reportOnStandardError
    ) throws(SQLiteError) {
        self.connection = connection
        self.isReadOnly = connection.isReadOnly
        self.capacity = max(0, capacity)
        self.evictionBatch = min(256, max(0, capacity) / 100)
        self.writeBehindLimit = max(0, writeBehindLimit)
        self.writeBehindBytes = max(0, writeBehindBytes)
        // The key, the clock and the record header must fit in SQLite's row limit too.
        self.maxBytes = max(0, maxBytes)
        self.maxResultBytes = max(0, min(maxResultBytes, connection.lengthLimit - 65_536, max(0, maxBytes)))
        self.report = report
        self.writeBehind = WriteBehindBuffer(
            clock: Int64(try connection.scalarInt("SELECT coalesce(max(last_used), 0) FROM cached_results")))
        try rebuildFingerprints()
    }

    /// 64-bit FNV-1a of the key's UTF-8: equal keys have equal fingerprints (the
    /// converse is likely, and only saves a query when true).
    static func fingerprint(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Sets the fingerprints (``WriteBehindBuffer``) to the keys of the table and the buffer.
    /// - Complexity: O(entries), one scan of the key index.
    private func rebuildFingerprints() throws(SQLiteError) {
        var rebuilt = Set<UInt64>(minimumCapacity: capacity + writeBehindLimit)
        try connection.withStatement("SELECT key FROM cached_results") { (statement) throws(SQLiteError) in
            while try statement.step() { rebuilt.insert(Self.fingerprint(statement.string(at: 0))) }
        }
        writeBehind.setFingerprints(tableKeys: rebuilt)
    }

    /// The default of `writeBehindBytes`: 16 MiB.
    static let defaultWriteBehindBytes = 16 << 20
    /// The default of `writeBehindLimit`: 512 entries. Larger batches write each index
    /// page once for many entries (the key and recency indexes are touched at random):
    /// against batches of 64, uncached `/solve` at 64 connections went from about 7,400
    /// to 8,700–9,300 requests/s on the benchmark machine, where SQLite had taken 16% of
    /// the server's CPU. A crash (kill -9) loses at most these entries, which are cache.
    static let defaultWriteBehindLimit = 512
    /// The default of `maxResultBytes`: 16 MiB.
    static let defaultMaxResultBytes = 16 << 20
    /// The default of `maxBytes`: 256 MiB (268,435,456), the cache's share of the database
    /// (`BoundsTests`).
    static let defaultMaxBytes = 256 << 20

    /// Writes `line` and a newline to stderr.
    static func reportOnStandardError(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        // A failed or short write of a diagnostic leaves nothing better to do.
        _ = bytes.withUnsafeBytes { writeToFile(2, $0.baseAddress, $0.count) }
    }

    // MARK: - Reading

    /// The body stored under `key`, marking it most recently used.
    /// - Complexity: O(log n) (one index lookup), or O(1) for a buffered entry or a key
    ///   whose fingerprint is not in ``WriteBehindBuffer``'s set (stored nowhere).
    func body(forKey key: String) throws(SQLiteError) -> [UInt8]? {
        switch writeBehind.lookup(key) {
        case .found(let body): return body
        case .absent: return nil   // stored nowhere: no query (a new scene's lookup, the common miss)
        case .inTable: break
        }
        let body = try connection.withStatement("SELECT body FROM cached_results WHERE key = ?") {
            (statement) throws(SQLiteError) -> [UInt8]? in
            try statement.bind(key, at: 1)
            return try statement.step() ? statement.bytes(at: 0) : nil
        }
        // A read-only database cannot record recency; eviction does not happen there either.
        guard let body, !isReadOnly else { return body }
        if writeBehind.touch(key) > Self.maxPendingTouches {
            do throws(SQLiteError) {
                try flush()
            } catch {
                // A failed batch costs only recency and buffered entries; the hit stands.
            }
        }
        return body
    }

    /// The exact bytes of the table's bodies (`sum(length(body))`), after writing the buffer.
    func bytes() throws(SQLiteError) -> Int {
        try flush()
        return try tableBytes()
    }

    /// ``knownBytes``, summing the table when it is unknown.
    /// - Complexity: O(1), or O(entries) record headers when unknown.
    private func tableBytes() throws(SQLiteError) -> Int {
        if let knownBytes { return knownBytes }
        let bytes = try connection.scalarInt("SELECT coalesce(sum(length(body)), 0) FROM cached_results")
        knownBytes = bytes
        return bytes
    }

    /// The exact number of entries, after writing the buffer.
    func count() throws(SQLiteError) -> Int {
        try flush()
        let count = try connection.scalarInt("SELECT count(*) FROM cached_results")
        knownCount = count
        return count
    }

    // MARK: - Writing

    /// Stores `body` under `key` (replacing any entry), computed from `groups`. Buffered:
    /// written with the next batch (see the type's notes).
    ///
    /// - Returns: `false` if nothing was stored: capacity 0, a body over `maxResultBytes`,
    ///   one of `groups` no longer exists (deleted since the result was computed; storing it
    ///   would let a cached result outlive its group version), or this store completed a
    ///   batch in which this very entry could not be written.
    /// - Throws: ``SQLiteError`` when the batch this store completes cannot be written
    ///   (`SQLITE_FULL`, `SQLITE_BUSY`, …); that batch is dropped.
    /// - Complexity: O(g log n) for g groups; a batch write adds O(b log n).
    func store(_ body: [UInt8], forKey key: String, groups: [GroupVersion]) throws(SQLiteError) -> Bool {
        guard capacity > 0, body.count <= maxResultBytes else { return false }
        for group in groups {
            // A stored font face is recorded as `font:family/face` (SQLiteFontStore.cacheName).
            let isFont = group.name.hasPrefix("font:")
            let exists = try connection.withStatement(isFont ? "SELECT 1 FROM font_versions WHERE name = ? AND version = ?"
                                                             : "SELECT 1 FROM group_versions WHERE name = ? AND version = ?") {
                (statement) throws(SQLiteError) -> Bool in
                try statement.bind(isFont ? String(group.name.dropFirst(5)) : group.name, at: 1)
                try statement.bind(group.version, at: 2)
                return try statement.step()
            }
            guard exists else { return false }
        }
        if writeBehind.add(body, forKey: key, groups: groups, limit: writeBehindLimit, limitBytes: writeBehindBytes) {
            return try !flush().contains(key)
        }
        return true
    }

    /// After a store made off the queue (``WriteBehindBuffer/add(_:forKey:groups:limit:limitBytes:)``)
    /// filled the buffer: writes it, unless another thread's flush already took it.
    /// - Returns: `false` when the entry under `key` was in the batch written and was skipped.
    func flushIfFull(storing key: String) throws(SQLiteError) -> Bool {
        guard writeBehind.isFull(limit: writeBehindLimit, limitBytes: writeBehindBytes) else { return true }
        return try !flush().contains(key)
    }

    /// Writes the buffered entries and recency updates in one `BEGIN IMMEDIATE`
    /// transaction, evicting beyond capacity. An entry that cannot be written is skipped
    /// (its savepoint rolled back, reported once) and the others commit. When the whole
    /// transaction fails, the batch is dropped (it is only cache) and the error is thrown.
    ///
    /// - Returns: the keys of the entries skipped, oldest first.
    @discardableResult
    func flush() throws(SQLiteError) -> [String] {
        guard !isReadOnly, let (entries, touches) = writeBehind.takeBatch() else { return [] }
        // Lookups find the batch's entries until it is committed or dropped.
        defer { writeBehind.finishBatch() }
        var skipped: [String] = []
        var failures: [String] = []
        do throws(SQLiteError) {
            try connection.transaction { () throws(SQLiteError) in
                for (key, lastUsed) in touches {
                    try connection.withStatement("UPDATE cached_results SET last_used = ? WHERE key = ?") {
                        (statement) throws(SQLiteError) in
                        try statement.bind(lastUsed, at: 1)
                        try statement.bind(key, at: 2)
                        try statement.step()
                    }
                }
                for (key, entry) in entries {
                    do throws(SQLiteError) {
                        try connection.savepoint { () throws(SQLiteError) in try write(entry, forKey: key) }
                    } catch {
                        // SQLite ended the whole transaction: nothing of the batch can commit.
                        guard connection.isInTransaction else { throw error }
                        skipped.append(key)
                        knownCount = nil
                        knownBytes = nil
                        failures.append("layoutd: a cached result of \(entry.body.count) bytes (key \(key.prefix(16))) could not be written to the database and was skipped: \(error)")
                    }
                }
                // Count only when the running count is unknown or over capacity.
                let overCapacity = knownCount.map { $0 > capacity } ?? true
                let overBytes = try tableBytes() > maxBytes
                if overCapacity || overBytes {
                    try evict()
                }
            }
        } catch {
            knownCount = nil
            knownBytes = nil
            // Rows an eviction deleted in the rolled-back batch are back: find them again.
            if (try? rebuildFingerprints()) == nil { writeBehind.distrustFingerprints() }
            throw error
        }
        // Reported after the commit: a rolled-back batch reports only its error.
        skippedWrites += skipped.count
        for line in failures { report(line) }
        return skipped
    }

    private func write(_ entry: WriteBehindBuffer.Entry, forKey key: String) throws(SQLiteError) {
        let replacedBytes = try connection.withStatement("DELETE FROM cached_results WHERE key = ? RETURNING length(body)") {
            (statement) throws(SQLiteError) -> Int? in
            try statement.bind(key, at: 1)
            guard try statement.step() else { return nil }
            let bytes = statement.int(at: 0)
            while try statement.step() {}
            return bytes
        }
        let replaced = replacedBytes == nil ? 0 : 1
        if replaced == 1 { deletedRows = true }
        try connection.withStatement("INSERT INTO cached_results (key, body, last_used) VALUES (?, ?, ?)") {
            (statement) throws(SQLiteError) in
            try statement.bind(key, at: 1)
            try statement.bind(entry.body, at: 2)
            try statement.bind(entry.lastUsed, at: 3)
            try statement.step()
        }
        let id = connection.lastInsertRowID
        for group in entry.groups {
            try connection.withStatement(
                "INSERT OR IGNORE INTO cached_result_groups (result_id, group_name, group_version) VALUES (?, ?, ?)"
            ) { (statement) throws(SQLiteError) in
                try statement.bind(id, at: 1)
                try statement.bind(group.name, at: 2)
                try statement.bind(group.version, at: 3)
                try statement.step()
            }
        }
        if let knownCount, replaced == 0 { self.knownCount = knownCount + 1 }
        if let knownBytes { self.knownBytes = knownBytes - (replacedBytes ?? 0) + entry.body.count }
    }

    /// Deletes the least recently used entries down to `capacity − evictionBatch` if the
    /// table holds more than `capacity`, and further, in the same order, until the bodies
    /// total at most `maxBytes`. Call inside a transaction.
    /// - Complexity: O(entries) for the count; O(e log n) to delete e entries.
    private func evict() throws(SQLiteError) {
        let count = try connection.scalarInt("SELECT count(*) FROM cached_results")
        knownCount = count
        let bytes = try tableBytes()
        guard count > capacity || bytes > maxBytes else { return }
        let excess = count > capacity ? count - (capacity - evictionBatch) : 0
        // Least recently used first (unique clock values, then ids): deterministic.
        let (deleted, freed) = try deleteLeastRecentlyUsed { deleted, freed in
            deleted < excess || bytes - freed > maxBytes
        }
        knownCount = count - deleted
        knownBytes = bytes - freed
        if deleted > 0 { deletedRows = true }
        if writeBehind.fingerprintCount > 2 * (capacity + writeBehindLimit) { try rebuildFingerprints() }
    }

    /// Deletes entries in least-recently-used order (`last_used`, then `id`) while
    /// `more(deletedSoFar, bytesFreedSoFar)` holds, inside the caller's transaction.
    /// - Returns: how many entries were deleted and the bytes of their bodies.
    /// - Complexity: O(entries read + entries deleted).
    private func deleteLeastRecentlyUsed(while more: (Int, Int) -> Bool) throws(SQLiteError) -> (deleted: Int, freed: Int) {
        var victims: [Int64] = []
        var freed = 0
        try connection.withStatement("SELECT id, length(body) FROM cached_results ORDER BY last_used, id") {
            (statement) throws(SQLiteError) in
            while more(victims.count, freed), try statement.step() {
                victims.append(statement.int64(at: 0))
                freed += statement.int(at: 1)
            }
        }
        for id in victims {
            try connection.withStatement("DELETE FROM cached_results WHERE id = ?") { (statement) throws(SQLiteError) in
                try statement.bind(id, at: 1)
                try statement.step()
            }
        }
        return (victims.count, freed)
    }

    /// Deletes least recently used entries until the bodies total at most `bytes` (after
    /// dropping the buffer), in its own transaction: how a full disk frees space (the
    /// caller then vacuums). Not inside a transaction.
    /// - Returns: the entries deleted.
    @discardableResult
    func shrink(toBytes bytes: Int) throws(SQLiteError) -> Int {
        writeBehind.removeAll(forgettingKeys: false)
        do throws(SQLiteError) {
            return try connection.transaction { () throws(SQLiteError) -> Int in
                let before = try connection.scalarInt("SELECT count(*) FROM cached_results")
                knownCount = before
                let total = try tableBytes()
                let (deleted, freed) = try deleteLeastRecentlyUsed { _, freed in total - freed > bytes }
                knownCount = before - deleted
                knownBytes = total - freed
                return deleted
            }
        } catch {
            transactionDidRollBack()
            throw error
        }
    }

    /// Deletes every entry computed from any version of the group `name`, buffered or
    /// written. Call inside the transaction that replaces or deletes the group.
    func invalidate(groupNamed name: String) throws(SQLiteError) {
        writeBehind.removeEntries(usingGroupNamed: name)
        var deleted = 0
        var freed = 0
        try connection.withStatement(
            "DELETE FROM cached_results WHERE id IN (SELECT result_id FROM cached_result_groups WHERE group_name = ?) RETURNING length(body)"
        ) { (statement) throws(SQLiteError) in
            try statement.bind(name, at: 1)
            while try statement.step() {
                deleted += 1
                freed += statement.int(at: 0)
            }
        }
        if let knownCount { self.knownCount = knownCount - deleted }
        if let knownBytes { self.knownBytes = knownBytes - freed }
        try rebuildFingerprints()
    }

    /// Deletes every entry, buffered or written. Call inside a transaction.
    func removeAll() throws(SQLiteError) {
        writeBehind.removeAll(forgettingKeys: true)
        try connection.execute("DELETE FROM cached_result_groups")
        try connection.execute("DELETE FROM cached_results")
        knownCount = 0
        knownBytes = 0
    }

    /// Forgets in-memory bookkeeping that a rolled-back transaction may have made stale.
    func transactionDidRollBack() {
        knownCount = nil
        knownBytes = nil
        // Rows deleted in the transaction are back: their keys must be found again.
        if (try? rebuildFingerprints()) == nil { writeBehind.distrustFingerprints() }
    }

    /// Writes the buffer and recency updates before the store closes (best effort).
    func flushBeforeClose() {
        _ = try? flush()
    }
}

@available(*, unavailable)
extension ResultCache: Sendable {}

/// The result cache's state that threads reach without the store's queue: the entries
/// stored but not written yet (the filling batch), the batch being written, the recency
/// updates not written yet, the LRU clock, and the fingerprints of every stored key.
///
/// Lookups (``lookup(_:)``) and stores without group versions (``add(_:forKey:groups:limit:limitBytes:)``)
/// take only this lock, so a thread writing a batch on the store's queue (seconds at
/// worst, on a slow disk) holds up neither misses nor stores of other threads; the queue
/// is needed only to query the table, to check group versions, and to write a batch.
/// ``ResultCache`` takes a batch (``takeBatch()``) and ends it (``finishBatch()``) on the
/// queue, so at most one batch is being written, and no other queue operation (a group
/// write's invalidation, a clear) sees one.
///
/// Fingerprints (``ResultCache/fingerprint(_:)``) of the keys in the table and in memory,
/// so that a key stored nowhere, the lookup of every new scene, is answered without a
/// query. A superset: keys evicted or invalidated stay until the set is rebuilt from the
/// table, which costs a query for such a key, never a wrong answer. A key another process
/// writes after this one read the table is missing: a miss here, computed and stored again.
///
/// `Sendable`: every field is behind one `Mutex`. Held by `WriteBehindTests`.
final class WriteBehindBuffer: Sendable {
    /// An entry stored but not written yet.
    struct Entry: Sendable {
        var body: [UInt8]
        var groups: [GroupVersion]
        var lastUsed: Int64
    }

    /// What the memory knows of a key.
    enum Lookup {
        /// Stored but not written yet (or being written): its body.
        case found([UInt8])
        /// Stored nowhere: no query needed.
        case absent
        /// Maybe in the table: ask it.
        case inTable
    }

    private struct State {
        /// The LRU clock: the last value handed out.
        var clock: Int64
        /// The filling batch: key → entry. Never iterated for anything observable without
        /// sorting by `lastUsed` (unique clock values).
        var buffer: [String: Entry] = [:]
        /// The bytes of the bodies in `buffer`.
        var bufferedBytes = 0
        /// The batch being written (empty when none is).
        var writing: [String: Entry] = [:]
        /// Recency updates of written entries, not written yet: key → clock value.
        var touches: [String: Int64] = [:]
        var fingerprints = Set<UInt64>()
        /// Whether `fingerprints` covers every key (false after a rollback the set could not
        /// be rebuilt after, until the next rebuild): while not, every lookup queries.
        var fingerprintsAreTrusted = true

        mutating func tick() -> Int64 {
            clock &+= 1
            return clock
        }
    }

    private let state: Mutex<State>

    /// An empty buffer whose clock starts after `clock` (the table's largest `last_used`).
    init(clock: Int64) {
        state = Mutex(State(clock: clock))
    }

    /// What is known of `key` without a query; a found entry becomes the most recently used.
    /// - Complexity: O(1) (expected) and one hash of the key.
    func lookup(_ key: String) -> Lookup {
        let fingerprint = ResultCache.fingerprint(key)
        return state.withLock { state in
            if let entry = state.buffer[key] {
                let now = state.tick()
                state.buffer[key]?.lastUsed = now
                return .found(entry.body)
            }
            if let entry = state.writing[key] {
                // Written by the batch in progress: its recency goes with the next one.
                let now = state.tick()
                state.touches[key] = now
                return .found(entry.body)
            }
            return !state.fingerprintsAreTrusted || state.fingerprints.contains(fingerprint) ? .inTable : .absent
        }
    }

    /// Records that the written entry under `key` was used now.
    /// - Returns: the recency updates waiting to be written.
    func touch(_ key: String) -> Int {
        state.withLock { state in
            let now = state.tick()
            state.touches[key] = now
            return state.touches.count
        }
    }

    /// Puts `body` under `key` (computed from `groups`) into the filling batch, replacing any
    /// entry there.
    /// - Returns: whether the batch is now full (over `limit` entries or `limitBytes` bytes
    ///   of bodies): then the caller writes it (``ResultCache/flush()``).
    func add(_ body: [UInt8], forKey key: String, groups: [GroupVersion], limit: Int, limitBytes: Int) -> Bool {
        let fingerprint = ResultCache.fingerprint(key)
        return state.withLock { state in
            state.touches[key] = nil
            let entry = Entry(body: body, groups: groups, lastUsed: state.tick())
            if let replaced = state.buffer.updateValue(entry, forKey: key) { state.bufferedBytes -= replaced.body.count }
            state.bufferedBytes += body.count
            state.fingerprints.insert(fingerprint)
            return state.buffer.count > limit || state.bufferedBytes > limitBytes
        }
    }

    /// Whether the filling batch is over `limit` entries or `limitBytes` bytes.
    func isFull(limit: Int, limitBytes: Int) -> Bool {
        state.withLock { $0.buffer.count > limit || $0.bufferedBytes > limitBytes }
    }

    /// Makes the filling batch the one being written (lookups still find its entries) and
    /// takes the recency updates.
    /// - Returns: the entries and the updates, each oldest first (unique clock values:
    ///   a deterministic order); `nil` when there is neither.
    func takeBatch() -> (entries: [(key: String, value: Entry)], touches: [(key: String, value: Int64)])? {
        let (buffer, touches) = state.withLock { state -> ([String: Entry], [String: Int64]) in
            guard !state.buffer.isEmpty || !state.touches.isEmpty else { return ([:], [:]) }
            state.writing = state.buffer
            state.buffer = [:]
            state.bufferedBytes = 0
            let touches = state.touches
            state.touches = [:]
            return (state.writing, touches)
        }
        guard !buffer.isEmpty || !touches.isEmpty else { return nil }
        return (buffer.sorted { $0.value.lastUsed < $1.value.lastUsed }, touches.sorted { $0.value < $1.value })
    }

    /// Ends the batch being written (committed or dropped).
    func finishBatch() {
        let written = state.withLock { state -> [String: Entry] in
            let written = state.writing
            state.writing = [:]
            return written
        }
        _ = written   // freed outside the lock
    }

    /// Drops the buffered entries that used any version of the group `name`.
    func removeEntries(usingGroupNamed name: String) {
        state.withLock { state in
            state.buffer = state.buffer.filter { entry in !entry.value.groups.contains { $0.name == name } }
            state.bufferedBytes = state.buffer.values.reduce(0) { $0 + $1.body.count }
        }
    }

    /// Drops every buffered entry and recency update; with `forgettingKeys`, the
    /// fingerprints too (the table is being emptied).
    func removeAll(forgettingKeys: Bool) {
        state.withLock { state in
            state.buffer.removeAll()
            state.bufferedBytes = 0
            state.touches.removeAll()
            if forgettingKeys { state.fingerprints.removeAll() }
        }
    }

    /// Sets the fingerprints to `tableKeys` (the table's, read on the store's queue) and
    /// those of the entries in memory, and trusts them.
    func setFingerprints(tableKeys: Set<UInt64>) {
        var keys = tableKeys
        state.withLock { state in
            for key in state.buffer.keys { keys.insert(ResultCache.fingerprint(key)) }
            for key in state.writing.keys { keys.insert(ResultCache.fingerprint(key)) }
            swap(&state.fingerprints, &keys)
            state.fingerprintsAreTrusted = true
        }
    }

    /// Makes every lookup query the table until the fingerprints are rebuilt.
    func distrustFingerprints() {
        state.withLock { $0.fingerprintsAreTrusted = false }
    }

    /// The fingerprints held (a rebuild is due when they outgrow the table).
    var fingerprintCount: Int { state.withLock { $0.fingerprints.count } }
}
