/// The bounded LRU cache of solve results (response bodies), stored in SQLite.
///
/// - Keys are opaque strings (the service uses a hex SHA-256); values are response bytes.
/// - Each entry records the group versions it was computed from (`cached_result_groups`),
///   so ``invalidate(groupNamed:)`` — called inside the group write's transaction — deletes
///   every entry that used the group.
/// - Recency is an integer clock (`last_used`, indexed). A hit does not write: it records
///   the new clock value in memory (`pendingTouches`), and the pending values are written
///   in the next write transaction (a store) or when more than ``maxPendingTouches``
///   accumulate. A crash can lose those recency updates, never data.
/// - Capacity: a committed cache never holds more than `capacity` entries. When an insert
///   makes it `capacity + 1`, the least recently used entries are evicted down to
///   `capacity − evictionBatch` in the same transaction, so eviction runs once every
///   `evictionBatch + 1` inserts instead of on each. `evictionBatch` is `capacity / 100`,
///   at most 256 (0 for capacities under 100: exact LRU, one eviction per insert).
///
/// Not thread-safe: owned by ``LayoutStore`` and used only on its queue.
final class ResultCache {
    /// The most entries kept.
    let capacity: Int
    /// How far below `capacity` an eviction goes.
    let evictionBatch: Int
    /// Pending recency updates beyond which a hit flushes them in its own transaction.
    static let maxPendingTouches = 1024

    private let connection: SQLiteConnection
    /// The LRU clock: the last value handed out.
    private var clock: Int64
    /// Recency updates not written yet: key → clock value.
    private var pendingTouches: [String: Int64] = [:]
    /// The number of rows, when known without counting; `nil` forces a `COUNT(*)`.
    private var knownCount: Int?

    init(connection: SQLiteConnection, capacity: Int) throws(SQLiteError) {
        self.connection = connection
        self.capacity = max(0, capacity)
        self.evictionBatch = min(256, max(0, capacity) / 100)
        self.clock = Int64(try connection.scalarInt("SELECT coalesce(max(last_used), 0) FROM cached_results"))
    }

    private func tick() -> Int64 {
        clock &+= 1
        return clock
    }

    // MARK: - Reading

    /// The body stored under `key`, marking it most recently used.
    /// - Complexity: O(log n) (one index lookup).
    func body(forKey key: String) throws(SQLiteError) -> [UInt8]? {
        let body = try connection.withStatement("SELECT body FROM cached_results WHERE key = ?") {
            (statement) throws(SQLiteError) -> [UInt8]? in
            try statement.bind(key, at: 1)
            return try statement.step() ? statement.bytes(at: 0) : nil
        }
        guard let body else { return nil }
        pendingTouches[key] = tick()
        if pendingTouches.count > Self.maxPendingTouches, !connection.isReadOnly {
            do throws(SQLiteError) {
                try connection.transaction { () throws(SQLiteError) in try flushTouches() }
            } catch {
                // Recency is advisory: losing it only makes eviction less exact.
                pendingTouches.removeAll()
            }
        }
        return body
    }

    /// The exact number of entries.
    func count() throws(SQLiteError) -> Int {
        let count = try connection.scalarInt("SELECT count(*) FROM cached_results")
        knownCount = count
        return count
    }

    // MARK: - Writing (call inside a transaction)

    /// Stores `body` under `key` (replacing any entry), computed from `groups`, then evicts
    /// if over capacity. Call inside a transaction.
    ///
    /// - Returns: `false` if nothing was stored: capacity 0, or one of `groups` no longer
    ///   exists (deleted since the result was computed; storing it would let a cached result
    ///   outlive its group version).
    /// - Complexity: O(g log n) for g groups; an eviction adds O(b log n) for a batch of b.
    func store(_ body: [UInt8], forKey key: String, groups: [GroupVersion]) throws(SQLiteError) -> Bool {
        guard capacity > 0 else { return false }
        for group in groups {
            let exists = try connection.withStatement("SELECT 1 FROM group_versions WHERE name = ? AND version = ?") {
                (statement) throws(SQLiteError) -> Bool in
                try statement.bind(group.name, at: 1)
                try statement.bind(group.version, at: 2)
                return try statement.step()
            }
            guard exists else { return false }
        }
        try flushTouches()
        try connection.withStatement("DELETE FROM cached_results WHERE key = ?") { (statement) throws(SQLiteError) in
            try statement.bind(key, at: 1)
            try statement.step()
        }
        let replaced = connection.changes
        pendingTouches[key] = nil
        try connection.withStatement("INSERT INTO cached_results (key, body, last_used) VALUES (?, ?, ?)") {
            (statement) throws(SQLiteError) in
            try statement.bind(key, at: 1)
            try statement.bind(body, at: 2)
            try statement.bind(tick(), at: 3)
            try statement.step()
        }
        let id = connection.lastInsertRowID
        for group in groups {
            try connection.withStatement(
                "INSERT OR IGNORE INTO cached_result_groups (result_id, group_name, group_version) VALUES (?, ?, ?)"
            ) { (statement) throws(SQLiteError) in
                try statement.bind(id, at: 1)
                try statement.bind(group.name, at: 2)
                try statement.bind(group.version, at: 3)
                try statement.step()
            }
        }
        var count: Int
        if let knownCount {
            count = replaced == 0 ? knownCount + 1 : knownCount
        } else {
            count = try self.count()  // counts the row just inserted
        }
        knownCount = count
        if count > capacity {
            try evict()
        }
        return true
    }

    /// Deletes the least recently used entries down to `capacity − evictionBatch`.
    private func evict() throws(SQLiteError) {
        let count = try self.count()
        let excess = count - (capacity - evictionBatch)
        guard excess > 0 else { return }
        try connection.withStatement(
            "DELETE FROM cached_results WHERE id IN (SELECT id FROM cached_results ORDER BY last_used, id LIMIT ?)"
        ) { (statement) throws(SQLiteError) in
            try statement.bind(excess, at: 1)
            try statement.step()
        }
        knownCount = count - connection.changes
    }

    /// Deletes every entry computed from any version of the group `name`.
    /// Call inside the transaction that replaces or deletes the group.
    func invalidate(groupNamed name: String) throws(SQLiteError) {
        try connection.withStatement(
            "DELETE FROM cached_results WHERE id IN (SELECT result_id FROM cached_result_groups WHERE group_name = ?)"
        ) { (statement) throws(SQLiteError) in
            try statement.bind(name, at: 1)
            try statement.step()
        }
        if let knownCount { self.knownCount = knownCount - connection.changes }
    }

    /// Deletes every entry. Call inside a transaction.
    func removeAll() throws(SQLiteError) {
        try connection.execute("DELETE FROM cached_result_groups")
        try connection.execute("DELETE FROM cached_results")
        pendingTouches.removeAll()
        knownCount = 0
    }

    /// Forgets in-memory bookkeeping that a rolled-back transaction may have made stale.
    func transactionDidRollBack() {
        knownCount = nil
    }

    /// Writes the pending recency updates. Each key gets its own clock value, so the order
    /// in which the dictionary is walked does not matter.
    private func flushTouches() throws(SQLiteError) {
        guard !pendingTouches.isEmpty else { return }
        for (key, lastUsed) in pendingTouches {
            try connection.withStatement("UPDATE cached_results SET last_used = ? WHERE key = ?") {
                (statement) throws(SQLiteError) in
                try statement.bind(lastUsed, at: 1)
                try statement.bind(key, at: 2)
                try statement.step()
            }
        }
        pendingTouches.removeAll(keepingCapacity: true)
    }

    /// Writes pending recency updates before the store closes (best effort).
    func flushBeforeClose() {
        guard !pendingTouches.isEmpty, !connection.isReadOnly else { return }
        try? connection.transaction { () throws(SQLiteError) in try flushTouches() }
        pendingTouches.removeAll()
    }
}

@available(*, unavailable)
extension ResultCache: Sendable {}
