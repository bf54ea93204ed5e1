/// Versioned named constraint groups, stored in SQLite, under the rules of
/// ``VersionedWritePolicy`` (this type only reads and writes the rows, ``SQLiteVersionedRows``).
///
/// Tables: `group_names` keeps, per name, the high-water mark `last_version` (never
/// decreases; the row survives a delete, so versions are never reused), the
/// `current_version` (NULL once deleted) and the `first_version` of the current
/// life; `group_versions` keeps the last `maxVersions` versions of the current life;
/// `version_floor` the start of every name without a row; `group_bytes` the running total
/// of the kept versions' counted bytes (``StoredBytes``), updated in each write's
/// transaction, so a write costs O(1) for it plus reading the rows it deletes (it is
/// computed over the whole table only once, by the migration that creates it). Writes
/// run in one `BEGIN IMMEDIATE` transaction together with the cache invalidation
/// (``ResultCache/invalidate(groupNamed:)``) and the pruning; SQLite runs one writer at a
/// time, so the row and creation locks the policy asks for are that transaction itself.
///
/// Not thread-safe: owned by ``SQLiteStore`` and used only on its queue.
final class SQLiteGroupStore {
    /// The rules of every write: bounds, numbering, pruning, messages.
    let policy: VersionedWritePolicy

    private let connection: SQLiteConnection
    private let cache: ResultCache
    private let now: () -> String

    init(connection: SQLiteConnection, cache: ResultCache, policy: VersionedWritePolicy, now: @escaping () -> String) {
        self.connection = connection
        self.cache = cache
        self.policy = policy
        self.now = now
    }

    /// The sum of ``StoredBytes/count(payload:)`` over every kept version (the `group_bytes` row).
    func totalBytes() throws(SQLiteError) -> Int {
        try connection.scalarInt("SELECT value FROM group_bytes")
    }

    private static let selectGroupColumns = "v.name, v.version, v.constraints_json, v.metrics_json, v.updated_at"

    private static func readGroup(_ statement: Statement) -> StoredGroup {
        StoredGroup(
            name: statement.string(at: 0),
            version: statement.int(at: 1),
            constraintsJSON: statement.string(at: 2),
            metricsJSON: statement.string(at: 3),
            updatedAt: statement.string(at: 4)
        )
    }

    // MARK: - Writing

    /// Writes a new version of `name`. See ``SQLiteStore/putGroup(name:constraintsJSON:metricsJSON:ifMatch:ifNoneMatchAny:)``.
    func put(
        name: String, constraintsJSON: String, metricsJSON: String, ifMatch: Int?, ifNoneMatchAny: Bool
    ) throws(StoreError) -> (group: StoredGroup, created: Bool) {
        try connection.transaction { () throws(StoreError) -> (group: StoredGroup, created: Bool) in
            let outcome = try mapped { () throws(SQLiteError) -> Result<(record: StoredGroup, created: Bool), StoreError> in
                try policy.put(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny, in: rows) { version, updatedAt in
                    StoredGroup(name: name, version: version, constraintsJSON: constraintsJSON, metricsJSON: metricsJSON,
                                updatedAt: updatedAt)
                }
            }
            let (group, created) = try outcome.get()
            return (group, created)
        }
    }

    /// Writes exported versions of `name`; see ``GroupStoring/importGroup(name:versions:replace:)``.
    func importGroup(name: String, versions: [StoredGroup], replace: Bool) throws(StoreError) -> Bool {
        guard !versions.isEmpty else { return false }
        return try connection.transaction { () throws(StoreError) -> Bool in
            try mapped { () throws(SQLiteError) -> Result<Bool, StoreError> in
                try policy.importVersions(name: name, versions: versions, replace: replace, in: rows)
            }.get()
        }
    }

    /// Raises the marks and the floor to at least `marks`' in one transaction; see
    /// ``VersionedWritePolicy/raiseMarks(_:in:)``.
    func raiseMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool) {
        try connection.transaction { () throws(StoreError) -> (names: Int, floor: Bool) in
            try mapped { () throws(SQLiteError) -> (names: Int, floor: Bool) in try policy.raiseMarks(marks, in: rows) }
        }
    }

    /// The marks an export carries (``VersionMarks``).
    func marks() throws(SQLiteError) -> VersionMarks { try rows.marks() }

    /// Deletes `name` and all its versions, and the cached results that used it, when
    /// `ifMatch` / `ifNoneMatchAny` hold (checked in the transaction; see
    /// ``VersionedWritePolicy/delete(name:ifMatch:ifNoneMatchAny:in:)``).
    /// - Returns: `false` if there was no such group.
    /// - Throws: ``StoreError/preconditionFailed(current:)`` when a precondition fails.
    func delete(name: String, ifMatch: Int? = nil, ifNoneMatchAny: Bool = false) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) -> Bool in
            try mapped { () throws(SQLiteError) -> Result<Bool, StoreError> in
                try policy.delete(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny, in: rows)
            }.get()
        }
    }

    /// The group tables for the policy; made per write (it holds no state).
    private var rows: SQLiteVersionedRows<StoredGroup> {
        SQLiteVersionedRows(connection: connection, cache: cache, tables: .groups, now: now)
    }

    /// The start of every name without a row: the largest high-water mark dropped.
    func versionFloor() throws(SQLiteError) -> Int {
        try connection.scalarInt("SELECT value FROM version_floor")
    }

    /// The rows of deleted names kept (each holds a high-water mark).
    func deletedNameCount() throws(SQLiteError) -> Int {
        try connection.scalarInt("SELECT count(*) FROM group_names WHERE current_version IS NULL")
    }

    // MARK: - Reading

    /// The oldest kept version of `name` if `version` belonged to its current incarnation
    /// and was pruned; `nil` otherwise (kept, never written, or from before a delete).
    func prunedVersion(ofGroup name: String, version: Int) throws(SQLiteError) -> Int? {
        try connection.withStatement(
            """
            SELECT n.first_version, (SELECT min(v.version) FROM group_versions v WHERE v.name = n.name)
            FROM group_names n WHERE n.name = ? AND n.current_version IS NOT NULL
            """
        ) { (statement) throws(SQLiteError) -> Int? in
            try statement.bind(name, at: 1)
            guard try statement.step(), !statement.isNull(at: 0), !statement.isNull(at: 1) else { return nil }
            let (first, oldestKept) = (statement.int(at: 0), statement.int(at: 1))
            return first <= version && version < oldestKept ? oldestKept : nil
        }
    }

    /// The current version of `name`, or `nil`.
    func group(named name: String) throws(SQLiteError) -> StoredGroup? {
        try connection.withStatement(
            """
            SELECT \(Self.selectGroupColumns) FROM group_names n
            JOIN group_versions v ON v.name = n.name AND v.version = n.current_version
            WHERE n.name = ?
            """
        ) { (statement) throws(SQLiteError) -> StoredGroup? in
            try statement.bind(name, at: 1)
            return try statement.step() ? Self.readGroup(statement) : nil
        }
    }

    /// Version `version` of `name`, or `nil`.
    func group(named name: String, version: Int) throws(SQLiteError) -> StoredGroup? {
        try connection.withStatement(
            "SELECT \(Self.selectGroupColumns) FROM group_versions v WHERE v.name = ? AND v.version = ?"
        ) { (statement) throws(SQLiteError) -> StoredGroup? in
            try statement.bind(name, at: 1)
            try statement.bind(version, at: 2)
            return try statement.step() ? Self.readGroup(statement) : nil
        }
    }

    /// Up to `limit` kept versions of `name` above `after`, ascending, and whether more
    /// follow; `nil` if the group does not exist.
    /// - Complexity: O(log n + limit).
    func versions(ofGroup name: String, after: Int, limit: Int) throws(SQLiteError) -> GroupVersionPage? {
        guard try exists(name) else { return nil }
        let limit = max(0, limit)
        var versions = try connection.withStatement(
            "SELECT version, updated_at FROM group_versions WHERE name = ? AND version > ? ORDER BY version LIMIT ?"
        ) { (statement) throws(SQLiteError) -> [GroupVersionInfo] in
            try statement.bind(name, at: 1)
            try statement.bind(after, at: 2)
            try statement.bind(limit + 1, at: 3)
            var versions: [GroupVersionInfo] = []
            while try statement.step() {
                versions.append(GroupVersionInfo(version: statement.int(at: 0), updatedAt: statement.string(at: 1)))
            }
            return versions
        }
        let hasMore = versions.count > limit
        if hasMore { versions.removeLast() }
        return GroupVersionPage(versions: versions, hasMore: hasMore)
    }

    /// Whether `name` exists now (has a current version).
    private func exists(_ name: String) throws(SQLiteError) -> Bool {
        try connection.withStatement("SELECT 1 FROM group_names WHERE name = ? AND current_version IS NOT NULL") {
            (statement) throws(SQLiteError) -> Bool in
            try statement.bind(name, at: 1)
            return try statement.step()
        }
    }

    /// Every existing group's current version, sorted by name (byte order of UTF-8).
    func all() throws(SQLiteError) -> [GroupSummary] {
        try connection.withStatement(
            """
            SELECT n.name, n.current_version, v.updated_at FROM group_names n
            JOIN group_versions v ON v.name = n.name AND v.version = n.current_version
            ORDER BY n.name
            """
        ) { (statement) throws(SQLiteError) -> [GroupSummary] in
            var groups: [GroupSummary] = []
            while try statement.step() {
                groups.append(GroupSummary(name: statement.string(at: 0), version: statement.int(at: 1),
                                           updatedAt: statement.string(at: 2)))
            }
            return groups
        }
    }

    /// The current versions of the existing groups among `names`, in one statement
    /// (`json_each` over the names as a JSON array). Names without a current version are absent.
    /// - Complexity: O(k log n) for k names.
    func currentVersions(of names: [String]) throws(SQLiteError) -> [String: Int] {
        guard !names.isEmpty else { return [:] }
        return try connection.withStatement(
            "SELECT name, current_version FROM group_names WHERE current_version IS NOT NULL AND name IN (SELECT value FROM json_each(?))"
        ) { (statement) throws(SQLiteError) -> [String: Int] in
            try statement.bind(ListLiteral.json(names), at: 1)
            var versions: [String: Int] = [:]
            while try statement.step() {
                versions[statement.string(at: 0)] = statement.int(at: 1)
            }
            return versions
        }
    }

    /// The number of existing groups.
    func count() throws(SQLiteError) -> Int {
        try connection.withStatement("SELECT count(*) FROM group_names WHERE current_version IS NOT NULL") {
            (statement) throws(SQLiteError) -> Int in
            try statement.step() ? statement.int(at: 0) : 0
        }
    }
}

/// Runs `body`, converting its ``SQLiteError`` to ``StoreError``.
func mapped<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
    do {
        return try body()
    } catch {
        throw StoreError(error)
    }
}

@available(*, unavailable)
extension SQLiteGroupStore: Sendable {}
