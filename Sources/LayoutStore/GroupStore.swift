/// Versioned named constraint groups, stored in SQLite.
///
/// Tables: `group_names` keeps, per name, the high-water mark `last_version` (never
/// decreases; the row survives a delete, so versions are never reused) and the
/// `current_version` (NULL once deleted); `group_versions` keeps the history of the
/// current incarnation. Writes run in one `BEGIN IMMEDIATE` transaction together with
/// the cache invalidation (``ResultCache/invalidate(groupNamed:)``).
///
/// Not thread-safe: owned by ``LayoutStore`` and used only on its queue.
final class GroupStore {
    /// The most groups that may exist at once.
    let maxGroups: Int

    private let connection: SQLiteConnection
    private let cache: ResultCache
    private let now: () -> String

    init(connection: SQLiteConnection, cache: ResultCache, maxGroups: Int, now: @escaping () -> String) {
        self.connection = connection
        self.cache = cache
        self.maxGroups = max(0, maxGroups)
        self.now = now
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
            let (lastVersion, currentVersion) = try names(name)
            if let ifMatch, ifMatch != currentVersion {
                throw .preconditionFailed(current: currentVersion)
            }
            if ifNoneMatchAny, currentVersion != nil {
                throw .preconditionFailed(current: currentVersion)
            }
            if currentVersion == nil, try mapped({ () throws(SQLiteError) in try count() }) >= maxGroups {
                throw .limitExceeded("maxGroups (\(maxGroups) groups)")
            }
            let (version, overflow) = (lastVersion ?? 0).addingReportingOverflow(1)
            guard !overflow else { throw .limitExceeded("group version") }
            let group = StoredGroup(
                name: name, version: version, constraintsJSON: constraintsJSON,
                metricsJSON: metricsJSON, updatedAt: now()
            )
            try mapped { () throws(SQLiteError) in
                try connection.withStatement(
                    """
                    INSERT INTO group_names (name, last_version, current_version) VALUES (?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET
                        last_version = excluded.last_version, current_version = excluded.current_version
                    """
                ) { (statement) throws(SQLiteError) in
                    try statement.bind(name, at: 1)
                    try statement.bind(version, at: 2)
                    try statement.bind(version, at: 3)
                    try statement.step()
                }
                try connection.withStatement(
                    """
                    INSERT INTO group_versions (name, version, constraints_json, metrics_json, updated_at)
                    VALUES (?, ?, ?, ?, ?)
                    """
                ) { (statement) throws(SQLiteError) in
                    try statement.bind(name, at: 1)
                    try statement.bind(version, at: 2)
                    try statement.bind(constraintsJSON, at: 3)
                    try statement.bind(metricsJSON, at: 4)
                    try statement.bind(group.updatedAt, at: 5)
                    try statement.step()
                }
                try cache.invalidate(groupNamed: name)
            }
            return (group, currentVersion == nil)
        }
    }

    /// Deletes `name` and all its versions, and the cached results that used it.
    /// - Returns: `false` if there was no such group.
    func delete(name: String) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) -> Bool in
            guard try names(name).current != nil else { return false }
            try mapped { () throws(SQLiteError) in
                try connection.withStatement("DELETE FROM group_versions WHERE name = ?") { (statement) throws(SQLiteError) in
                    try statement.bind(name, at: 1)
                    try statement.step()
                }
                try connection.withStatement("UPDATE group_names SET current_version = NULL WHERE name = ?") {
                    (statement) throws(SQLiteError) in
                    try statement.bind(name, at: 1)
                    try statement.step()
                }
                try cache.invalidate(groupNamed: name)
            }
            return true
        }
    }

    // MARK: - Reading

    /// The high-water mark and current version of `name` (both `nil` if never written).
    private func names(_ name: String) throws(StoreError) -> (last: Int?, current: Int?) {
        try mapped { () throws(SQLiteError) -> (last: Int?, current: Int?) in
            try connection.withStatement("SELECT last_version, current_version FROM group_names WHERE name = ?") {
                (statement) throws(SQLiteError) -> (last: Int?, current: Int?) in
                try statement.bind(name, at: 1)
                guard try statement.step() else { return (nil, nil) }
                return (statement.int(at: 0), statement.isNull(at: 1) ? nil : statement.int(at: 1))
            }
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

    /// The versions of `name`, ascending; `nil` if the group does not exist.
    func versions(ofGroup name: String) throws(SQLiteError) -> [GroupVersionInfo]? {
        let versions = try connection.withStatement(
            "SELECT version, updated_at FROM group_versions WHERE name = ? ORDER BY version"
        ) { (statement) throws(SQLiteError) -> [GroupVersionInfo] in
            try statement.bind(name, at: 1)
            var versions: [GroupVersionInfo] = []
            while try statement.step() {
                versions.append(GroupVersionInfo(version: statement.int(at: 0), updatedAt: statement.string(at: 1)))
            }
            return versions
        }
        return versions.isEmpty ? nil : versions
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
