/// Versioned named constraint groups, stored in SQLite.
///
/// Tables: `group_names` keeps, per name, the high-water mark `last_version` (never
/// decreases; the row survives a delete, so versions are never reused), the
/// `current_version` (NULL once deleted) and the `first_version` of the current
/// incarnation; `group_versions` keeps the last `maxVersions` versions of the current
/// incarnation. Writes run in one `BEGIN IMMEDIATE` transaction together with the cache
/// invalidation (``ResultCache/invalidate(groupNamed:)``) and the pruning.
///
/// Bounds (issue 24):
/// - History: a write that makes version *v* deletes the versions up to *v* − `maxVersions`
///   in its transaction; versions of one incarnation are consecutive, so exactly the last
///   `maxVersions` remain. A version from `first_version` up to below the oldest kept one
///   was pruned (``prunedVersion(ofGroup:version:)``).
/// - High-water marks of deleted names: at most `maxDeletedNames` rows are kept. Beyond
///   that, a delete drops the rows with the lowest marks (then by name) and raises the
///   single `version_floor` to the largest mark dropped; a name without a row starts at
///   the floor + 1. So any version a dropped name ever had is below every version it can
///   get again: versions are never reused, at the cost of new names starting above 1
///   once the floor is raised.
/// - Bytes: the kept versions count at most `maxBytes` together, each as
///   ``storedBytes(payload:)``. The total is the single row of `group_bytes`, updated in
///   the write's transaction (added for the new version, subtracted for the pruned or
///   deleted ones), so a write costs O(1) for it plus reading the rows it deletes; it is
///   computed over the whole table only once, by the migration that creates it. A write
///   that would pass the bound throws ``StoreError/limitExceeded(_:)`` and changes nothing.
///
/// Not thread-safe: owned by ``LayoutStore`` and used only on its queue.
final class GroupStore {
    /// The most groups that may exist at once.
    let maxGroups: Int
    /// The most versions kept per group (at least 1).
    let maxVersions: Int
    /// The most deleted names whose high-water marks are kept in rows (see the type's notes).
    let maxDeletedNames: Int
    /// The most bytes all kept versions may count together (``storedBytes(payload:)``).
    let maxBytes: Int

    private let connection: SQLiteConnection
    private let cache: ResultCache
    private let now: () -> String

    init(
        connection: SQLiteConnection, cache: ResultCache, maxGroups: Int, maxVersions: Int = GroupStore.defaultMaxVersions,
        maxDeletedNames: Int? = nil, maxBytes: Int = GroupStore.defaultMaxBytes, now: @escaping () -> String
    ) {
        self.connection = connection
        self.cache = cache
        self.maxGroups = max(0, maxGroups)
        self.maxVersions = max(1, maxVersions)
        self.maxDeletedNames = max(0, maxDeletedNames ?? maxGroups)
        self.maxBytes = max(0, maxBytes)
        self.now = now
    }

    /// The default of `maxVersions`: 100.
    static let defaultMaxVersions = 100

    /// The default of `maxBytes`: 64 MiB (67,108,864).
    static let defaultMaxBytes = 64 << 20

    /// The bytes one version counts against `maxBytes`, from its payload `p`: the UTF-8
    /// bytes of the group's name, constraints JSON, metrics JSON and `updatedAt`, as stored.
    ///
    /// The rest estimates SQLite's storage of the row (4 KiB pages; the table is an index
    /// B-tree, `WITHOUT ROWID`, <https://www.sqlite.org/fileformat2.html#b_tree_pages>),
    /// so that the bound covers the file, not just the text. An index B-tree cell keeps at
    /// most 1,002 bytes of its record in the leaf page; with the record header and the
    /// version integer (under 100 bytes), a row of p ≤ 900 bytes stays in the leaf and
    /// counts p + 128 (those, the cell pointer, and part of the page's free space); a longer
    /// one may spill to overflow pages and counts whole pages, 4,096 × ⌈p / 4,096⌉ + 4,096
    /// (the part kept in the leaf and a last, partly filled overflow page). So the
    /// table's pages stay within a small factor of the count (under 1.5, leaf pages being
    /// partly free) for any mix of payload sizes; `hostile/store-group-bytes` holds the
    /// file under the bound plus the `-wal` file's. The same formula is written in SQL in
    /// ``Schema`` (migration 3) and ``storedBytesSQL(where:)``;
    /// `GroupBytesTests.totalSurvivesAReopenAndTheMigrationComputesTheSameTotal` holds
    /// them equal.
    static func storedBytes(payload p: Int) -> Int {
        p <= 900 ? p + 128 : (p + 4_095) / 4_096 * 4_096 + 4_096
    }

    /// A query of the sum of ``storedBytes(payload:)`` over the `group_versions` rows
    /// matching `condition` (0 for none).
    static func storedBytesSQL(where condition: String) -> String {
        """
        SELECT coalesce(sum(CASE WHEN p <= 900 THEN p + 128 ELSE ((p + 4095) / 4096) * 4096 + 4096 END), 0)
        FROM (SELECT length(CAST(name AS BLOB)) + length(CAST(constraints_json AS BLOB))
                     + length(CAST(metrics_json AS BLOB)) + length(CAST(updated_at AS BLOB)) AS p
              FROM group_versions WHERE \(condition))
        """
    }

    /// The sum of ``storedBytes(payload:)`` over every kept version (the `group_bytes` row).
    func totalBytes() throws(SQLiteError) -> Int {
        try connection.scalarInt("SELECT value FROM group_bytes")
    }

    /// Adds `delta` to the `group_bytes` row. Call inside the write's transaction.
    private func addToTotalBytes(_ delta: Int) throws(SQLiteError) {
        guard delta != 0 else { return }
        try connection.withStatement("UPDATE group_bytes SET value = value + ? WHERE id = 1") { (statement) throws(SQLiteError) in
            try statement.bind(delta, at: 1)
            try statement.step()
        }
    }

    /// The sum of ``storedBytes(payload:)`` over the kept versions of `name` numbered up
    /// to `version`. O(the bytes of those rows): each is read once.
    private func storedBytes(ofGroup name: String, upTo version: Int) throws(SQLiteError) -> Int {
        try connection.withStatement(Self.storedBytesSQL(where: "name = ? AND version <= ?")) {
            (statement) throws(SQLiteError) -> Int in
            try statement.bind(name, at: 1)
            try statement.bind(version, at: 2)
            return try statement.step() ? statement.int(at: 0) : 0
        }
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

    /// Writes a new version of `name`. See ``LayoutStore/putGroup(name:constraintsJSON:metricsJSON:ifMatch:ifNoneMatchAny:)``.
    func put(
        name: String, constraintsJSON: String, metricsJSON: String, ifMatch: Int?, ifNoneMatchAny: Bool
    ) throws(StoreError) -> (group: StoredGroup, created: Bool) {
        try connection.transaction { () throws(StoreError) -> (group: StoredGroup, created: Bool) in
            let (lastVersion, currentVersion, firstVersion) = try names(name)
            if let ifMatch, ifMatch != currentVersion {
                throw .preconditionFailed(current: currentVersion)
            }
            if ifNoneMatchAny, currentVersion != nil {
                throw .preconditionFailed(current: currentVersion)
            }
            if currentVersion == nil, try mapped({ () throws(SQLiteError) in try count() }) >= maxGroups {
                throw .limitExceeded("maxGroups (\(maxGroups) groups): raise it with --max-groups")
            }
            var start = 0
            if let lastVersion {
                start = lastVersion
            } else {
                start = try mapped { () throws(SQLiteError) in try versionFloor() }
            }
            let (version, overflow) = start.addingReportingOverflow(1)
            guard !overflow else { throw .limitExceeded("group version (version numbers end at \(Int.max))") }
            let group = StoredGroup(
                name: name, version: version, constraintsJSON: constraintsJSON,
                metricsJSON: metricsJSON, updatedAt: now()
            )
            let added = Self.storedBytes(payload: name.utf8.count + constraintsJSON.utf8.count
                                         + metricsJSON.utf8.count + group.updatedAt.utf8.count)
            let (total, freed) = try mapped { () throws(SQLiteError) -> (Int, Int) in
                (try totalBytes(), version > maxVersions ? try storedBytes(ofGroup: name, upTo: version - maxVersions) : 0)
            }
            let after = total - freed + added
            if after > maxBytes {
                throw .limitExceeded(
                    "maxGroupBytes (\(maxBytes) bytes of stored group versions; \(total) are stored, this version needs \(added)"
                    + (freed > 0 ? " and its write frees \(freed)" : "") + "): raise it with --max-group-bytes"
                )
            }
            try mapped { () throws(SQLiteError) in
                try setNames(name, last: version, current: version,
                             first: currentVersion == nil ? version : (firstVersion ?? version))
                try insertVersion(group, named: name)
                // Only the last `maxVersions` stay; the cache entries of the pruned ones go
                // with the invalidation below.
                if version > maxVersions {
                    try connection.withStatement("DELETE FROM group_versions WHERE name = ? AND version <= ?") {
                        (statement) throws(SQLiteError) in
                        try statement.bind(name, at: 1)
                        try statement.bind(version - maxVersions, at: 2)
                        try statement.step()
                    }
                }
                try addToTotalBytes(added - freed)
                try cache.invalidate(groupNamed: name)
            }
            return (group, currentVersion == nil)
        }
    }

    /// Writes exported versions of `name`; see ``GroupStoring/importGroup(name:versions:replace:)``.
    func importGroup(name: String, versions: [StoredGroup], replace: Bool) throws(StoreError) -> Bool {
        guard let firstGiven = versions.first?.version else { return false }
        let kept = Array(versions.suffix(maxVersions))
        return try connection.transaction { () throws(StoreError) -> Bool in
            let (lastVersion, currentVersion, _) = try names(name)
            if let currentVersion, !replace { throw .preconditionFailed(current: currentVersion) }
            var mark = 0
            if let lastVersion { mark = lastVersion } else { mark = try mapped { () throws(SQLiteError) -> Int in try versionFloor() } }
            guard firstGiven > mark else {
                throw .limitExceeded(Self.reuseMessage(name: name, mark: mark, version: firstGiven))
            }
            if currentVersion == nil, try mapped({ () throws(SQLiteError) in try count() }) >= maxGroups {
                throw .limitExceeded("maxGroups (\(maxGroups) groups): raise it with --max-groups")
            }
            let added = kept.reduce(0) { $0 + Self.storedBytes(payload: Self.payload(of: $1)) }
            let (total, freed) = try mapped { () throws(SQLiteError) -> (Int, Int) in
                var freed = 0
                if let currentVersion { freed = try storedBytes(ofGroup: name, upTo: currentVersion) }
                return (try totalBytes(), freed)
            }
            if total - freed + added > maxBytes {
                throw .limitExceeded(Self.bytesMessage(maxBytes: maxBytes, total: total, added: added, freed: freed))
            }
            try mapped { () throws(SQLiteError) in
                try connection.withStatement("DELETE FROM group_versions WHERE name = ?") { (statement) throws(SQLiteError) in
                    try statement.bind(name, at: 1)
                    try statement.step()
                }
                try setNames(name, last: kept[kept.count - 1].version, current: kept[kept.count - 1].version,
                             first: firstGiven)
                for group in kept { try insertVersion(group, named: name) }
                try addToTotalBytes(added - freed)
                try cache.invalidate(groupNamed: name)
            }
            return currentVersion != nil
        }
    }

    /// A version's payload for ``storedBytes(payload:)``: the UTF-8 bytes of its name,
    /// constraints JSON, metrics JSON and `updatedAt`.
    static func payload(of group: StoredGroup) -> Int {
        group.name.utf8.count + group.constraintsJSON.utf8.count + group.metricsJSON.utf8.count + group.updatedAt.utf8.count
    }

    /// The text of the byte bound's ``StoreError/limitExceeded(_:)``.
    static func bytesMessage(maxBytes: Int, total: Int, added: Int, freed: Int) -> String {
        "maxGroupBytes (\(maxBytes) bytes of stored group versions; \(total) are stored, this version needs \(added)"
            + (freed > 0 ? " and its write frees \(freed)" : "") + "): raise it with --max-group-bytes"
    }

    /// The text of an import refused because it would reuse version numbers.
    static func reuseMessage(name: String, mark: Int, version: Int) -> String {
        "version numbers are never reused: '\(name)' has had versions up to \(mark) in this store, "
            + "so its imported version \(version) cannot be written"
    }

    /// Deletes `name` and all its versions, and the cached results that used it.
    /// - Returns: `false` if there was no such group.
    func delete(name: String) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) -> Bool in
            guard let current = try names(name).current else { return false }
            try mapped { () throws(SQLiteError) in
                try addToTotalBytes(-(try storedBytes(ofGroup: name, upTo: current)))
                try connection.withStatement("DELETE FROM group_versions WHERE name = ?") { (statement) throws(SQLiteError) in
                    try statement.bind(name, at: 1)
                    try statement.step()
                }
                try connection.withStatement("UPDATE group_names SET current_version = NULL, first_version = NULL WHERE name = ?") {
                    (statement) throws(SQLiteError) in
                    try statement.bind(name, at: 1)
                    try statement.step()
                }
                try cache.invalidate(groupNamed: name)
                try dropDeletedNamesBeyondBound()
            }
            return true
        }
    }

    /// Inserts one row of `group_versions`: `group`'s version, texts and time, under `name`.
    private func insertVersion(_ group: StoredGroup, named name: String) throws(SQLiteError) {
        try connection.withStatement(
            "INSERT INTO group_versions (name, version, constraints_json, metrics_json, updated_at) VALUES (?, ?, ?, ?, ?)"
        ) { (statement) throws(SQLiteError) in
            try statement.bind(name, at: 1)
            try statement.bind(group.version, at: 2)
            try statement.bind(group.constraintsJSON, at: 3)
            try statement.bind(group.metricsJSON, at: 4)
            try statement.bind(group.updatedAt, at: 5)
            try statement.step()
        }
    }

    /// Writes `name`'s row of `group_names` (its high-water mark `last`, its current
    /// version, its first kept version), creating it or replacing its values.
    private func setNames(_ name: String, last: Int, current: Int, first: Int) throws(SQLiteError) {
        try connection.withStatement(
            """
            INSERT INTO group_names (name, last_version, current_version, first_version) VALUES (?, ?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET
                last_version = excluded.last_version, current_version = excluded.current_version,
                first_version = excluded.first_version
            """
        ) { (statement) throws(SQLiteError) in
            try statement.bind(name, at: 1)
            try statement.bind(last, at: 2)
            try statement.bind(current, at: 3)
            try statement.bind(first, at: 4)
            try statement.step()
        }
    }

    /// Keeps at most `maxDeletedNames` rows of deleted names: drops those with the lowest
    /// high-water marks (then by name: deterministic) and raises `version_floor` to the
    /// largest mark dropped. Call inside the delete's transaction.
    /// - Complexity: O(deleted rows) to count (a partial index), O(d log n) to drop d.
    private func dropDeletedNamesBeyondBound() throws(SQLiteError) {
        let deleted = try connection.scalarInt("SELECT count(*) FROM group_names WHERE current_version IS NULL")
        guard deleted > maxDeletedNames else { return }
        var dropped: [String] = []
        var highest = 0
        try connection.withStatement(
            "SELECT name, last_version FROM group_names WHERE current_version IS NULL ORDER BY last_version, name LIMIT ?"
        ) { (statement) throws(SQLiteError) in
            try statement.bind(deleted - maxDeletedNames, at: 1)
            while try statement.step() {
                dropped.append(statement.string(at: 0))
                highest = max(highest, statement.int(at: 1))
            }
        }
        for name in dropped {
            try connection.withStatement("DELETE FROM group_names WHERE name = ? AND current_version IS NULL") {
                (statement) throws(SQLiteError) in
                try statement.bind(name, at: 1)
                try statement.step()
            }
        }
        try connection.withStatement("UPDATE version_floor SET value = max(value, ?) WHERE id = 1") {
            (statement) throws(SQLiteError) in
            try statement.bind(highest, at: 1)
            try statement.step()
        }
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

    /// The high-water mark, current version and first version of the current incarnation
    /// of `name` (all `nil` if it has no row).
    private func names(_ name: String) throws(StoreError) -> (last: Int?, current: Int?, first: Int?) {
        try mapped { () throws(SQLiteError) -> (last: Int?, current: Int?, first: Int?) in
            try connection.withStatement("SELECT last_version, current_version, first_version FROM group_names WHERE name = ?") {
                (statement) throws(SQLiteError) -> (last: Int?, current: Int?, first: Int?) in
                try statement.bind(name, at: 1)
                guard try statement.step() else { return (nil, nil, nil) }
                return (statement.int(at: 0), statement.isNull(at: 1) ? nil : statement.int(at: 1),
                        statement.isNull(at: 2) ? nil : statement.int(at: 2))
            }
        }
    }

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
            try statement.bind(Self.jsonArray(names), at: 1)
            var versions: [String: Int] = [:]
            while try statement.step() {
                versions[statement.string(at: 0)] = statement.int(at: 1)
            }
            return versions
        }
    }

    /// `values` as a JSON array of strings (RFC 8259 §7: `"`, `\` and control characters escaped).
    static func jsonArray(_ values: [String]) -> String {
        var text = "["
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case let c where c.value < 0x20:
                    let hex = String(c.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        return text + "]"
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
extension GroupStore: Sendable {}
