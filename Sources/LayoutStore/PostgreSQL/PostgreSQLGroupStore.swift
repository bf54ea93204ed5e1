/// Versioned named constraint groups in PostgreSQL, shared by every process that uses the
/// database: the semantics of SQLite's `GroupStore`, made to hold across processes.
///
/// - Versions are global and never reused: `group_names.last_version`, the high-water mark,
///   is read under a row lock (`SELECT … FOR UPDATE`) and raised in the same transaction
///   that writes the version, so concurrent writers of one name queue behind each other and
///   each gets the next number.
/// - `If-Match` and `If-None-Match: *` are checked inside that transaction, against the
///   locked row.
/// - The group count limit is exact: a write that would create a group (a new name, or one
///   deleted) first takes the transaction-level advisory lock ``creationLockKey``, so
///   creations are counted one at a time; deletions need no lock (they only lower the
///   count). Lock order is creation lock, then row lock; a writer that finds the row
///   deleted only after locking it takes the creation lock second, and should that deadlock
///   PostgreSQL aborts one transaction with 40P01, which
///   ``PostgreSQLConnection/transaction(isolation:maxAttempts:_:)`` runs again.
/// - `updatedAt` is the database's clock (`now()`, the transaction's start).
///
/// Every call takes one connection from the pool for one transaction or one statement.
/// Outcomes the contract answers with 412 or 422 are returned as values, not thrown, so the
/// transaction commits nothing and is not retried. Held by `PostgreSQLGroupStoreTests`.
struct PostgreSQLGroupStore: Sendable {
    /// The advisory lock key that serialises group creations: ``PostgreSQLSchema/migrationLockKey`` + 1.
    static let creationLockKey: Int64 = PostgreSQLSchema.migrationLockKey + 1

    /// Where the connections come from.
    let pool: PostgreSQLConnectionPool
    /// The most groups that may exist at once.
    let maxGroups: Int

    /// Creates a store on `pool`; the schema must be migrated (``PostgreSQLSchema/migrate(_:)``).
    init(pool: PostgreSQLConnectionPool, maxGroups: Int) {
        self.pool = pool
        self.maxGroups = max(0, maxGroups)
    }

    /// What a ``put(name:constraintsJSON:metricsJSON:ifMatch:ifNoneMatchAny:)`` did.
    enum PutOutcome: Sendable, Equatable {
        /// The version was written; `created` when the name had no current version.
        case written(StoredGroup, created: Bool)
        /// A precondition failed; `current` is the group's current version, if any. → 412.
        case preconditionFailed(current: Int?)
        /// Creating the group would exceed ``maxGroups``, or the version counter would
        /// overflow; the text names the limit. → 422 `limit_exceeded`.
        case limitExceeded(String)
    }

    private static let selectGroupColumns =
        "v.name, v.version, v.constraints_json, v.metrics_json, \(PostgreSQLSchema.updatedAtText("v.updated_at"))"

    private static func readGroup(_ row: PostgreSQLRow) throws(PostgreSQLError) -> StoredGroup {
        StoredGroup(name: try row.string(0), version: try row.int(1), constraintsJSON: try row.string(2),
                    metricsJSON: try row.string(3), updatedAt: try row.string(4))
    }

    // MARK: - Writing

    /// Writes a new version of `name`, as `GroupStore.put` does for SQLite.
    ///
    /// - Parameters:
    ///   - ifMatch: the version the caller expects to be current (`If-Match`), or `nil`.
    ///   - ifNoneMatchAny: `If-None-Match: *`: only if the group does not exist.
    /// - Throws: ``PostgreSQLError`` (unavailable when the database is; conflicts are
    ///   retried first).
    func put(
        name: String, constraintsJSON: String, metricsJSON: String, ifMatch: Int?, ifNoneMatchAny: Bool
    ) throws(PostgreSQLError) -> PutOutcome {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> PutOutcome in
            try connection.transaction { () throws(PostgreSQLError) -> PutOutcome in
                var holdsCreationLock = false
                // A plain read first: if this write may create the group, the creation lock
                // must come before the row lock.
                if try Self.names(connection, name, locking: false).current == nil {
                    try Self.takeCreationLock(connection)
                    holdsCreationLock = true
                }
                let (last, current) = try Self.names(connection, name, locking: true)
                if let ifMatch, ifMatch != current {
                    return .preconditionFailed(current: current)
                }
                if ifNoneMatchAny, current != nil {
                    return .preconditionFailed(current: current)
                }
                if current == nil {
                    if !holdsCreationLock { try Self.takeCreationLock(connection) }
                    let count = try connection.query(
                        "SELECT count(*) FROM group_names WHERE current_version IS NOT NULL").first?.int(0) ?? 0
                    if count >= maxGroups { return .limitExceeded("maxGroups (\(maxGroups) groups)") }
                }
                let (version, overflow) = (last ?? 0).addingReportingOverflow(1)
                guard !overflow else { return .limitExceeded("group version") }
                try connection.query(
                    """
                    INSERT INTO group_names (name, last_version, current_version) VALUES ($1, $2, $2)
                    ON CONFLICT (name) DO UPDATE SET
                        last_version = excluded.last_version, current_version = excluded.current_version
                    """,
                    [name, version])
                let updatedAt = try connection.query(
                    """
                    INSERT INTO group_versions (name, version, constraints_json, metrics_json) VALUES ($1, $2, $3, $4)
                    RETURNING \(PostgreSQLSchema.updatedAtText("updated_at"))
                    """,
                    [name, version, constraintsJSON, metricsJSON]
                ).first?.string(0) ?? ""
                let group = StoredGroup(name: name, version: version, constraintsJSON: constraintsJSON,
                                        metricsJSON: metricsJSON, updatedAt: updatedAt)
                return .written(group, created: current == nil)
            }
        }
    }

    /// Deletes `name` and all its versions; the high-water mark stays.
    /// - Returns: `false` if there was no such group.
    func delete(name: String) throws(PostgreSQLError) -> Bool {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> Bool in
            try connection.transaction { () throws(PostgreSQLError) -> Bool in
                guard try Self.names(connection, name, locking: true).current != nil else { return false }
                try connection.query("DELETE FROM group_versions WHERE name = $1", [name])
                try connection.query("UPDATE group_names SET current_version = NULL WHERE name = $1", [name])
                return true
            }
        }
    }

    private static func takeCreationLock(_ connection: PostgreSQLConnection) throws(PostgreSQLError) {
        try connection.query("SELECT pg_advisory_xact_lock($1)", [creationLockKey])
    }

    /// The high-water mark and current version of `name` (both `nil` if never written);
    /// with `locking`, the row is locked until the transaction ends.
    private static func names(
        _ connection: PostgreSQLConnection, _ name: String, locking: Bool
    ) throws(PostgreSQLError) -> (last: Int?, current: Int?) {
        let sql = "SELECT last_version, current_version FROM group_names WHERE name = $1" + (locking ? " FOR UPDATE" : "")
        guard let row = try connection.query(sql, [name]).first else { return (nil, nil) }
        return (try row.int(0), try row.optionalInt(1))
    }

    // MARK: - Reading

    /// The current version of `name`, or `nil`.
    func group(named name: String) throws(PostgreSQLError) -> StoredGroup? {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> StoredGroup? in
            guard let row = try connection.query(
                """
                SELECT \(Self.selectGroupColumns) FROM group_names n
                JOIN group_versions v ON v.name = n.name AND v.version = n.current_version
                WHERE n.name = $1
                """,
                [name]
            ).first else { return nil }
            return try Self.readGroup(row)
        }
    }

    /// Version `version` of `name`, or `nil`.
    func group(named name: String, version: Int) throws(PostgreSQLError) -> StoredGroup? {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> StoredGroup? in
            guard let row = try connection.query(
                "SELECT \(Self.selectGroupColumns) FROM group_versions v WHERE v.name = $1 AND v.version = $2",
                [name, version]
            ).first else { return nil }
            return try Self.readGroup(row)
        }
    }

    /// The versions of `name`, ascending; `nil` if the group does not exist.
    func versions(ofGroup name: String) throws(PostgreSQLError) -> [GroupVersionInfo]? {
        let versions = try pool.withConnection { (connection) throws(PostgreSQLError) -> [GroupVersionInfo] in
            var versions: [GroupVersionInfo] = []
            for row in try connection.query(
                "SELECT version, \(PostgreSQLSchema.updatedAtText("updated_at")) FROM group_versions WHERE name = $1 ORDER BY version",
                [name]
            ).rows {
                versions.append(GroupVersionInfo(version: try row.int(0), updatedAt: try row.string(1)))
            }
            return versions
        }
        return versions.isEmpty ? nil : versions
    }

    /// The current versions of the groups named, in one statement (one round trip): what a
    /// scene with unversioned references must be resolved against on every request, since
    /// another process may have written since. Names without a current version are absent.
    /// - Complexity: one index lookup per name.
    func currentVersions(of names: [String]) throws(PostgreSQLError) -> [String: Int] {
        guard !names.isEmpty else { return [:] }
        return try pool.withConnection { (connection) throws(PostgreSQLError) -> [String: Int] in
            var versions: [String: Int] = [:]
            for row in try connection.query(
                "SELECT name, current_version FROM group_names WHERE name = ANY($1::text[]) AND current_version IS NOT NULL",
                [Self.arrayLiteral(names)]
            ).rows {
                versions[try row.string(0)] = try row.int(1)
            }
            return versions
        }
    }

    /// Every existing group's current version, sorted by name (byte order, `COLLATE "C"`).
    func all() throws(PostgreSQLError) -> [GroupSummary] {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> [GroupSummary] in
            var groups: [GroupSummary] = []
            for row in try connection.query(
                """
                SELECT n.name, n.current_version, \(PostgreSQLSchema.updatedAtText("v.updated_at")) FROM group_names n
                JOIN group_versions v ON v.name = n.name AND v.version = n.current_version
                ORDER BY n.name
                """
            ).rows {
                groups.append(GroupSummary(name: try row.string(0), version: try row.int(1), updatedAt: try row.string(2)))
            }
            return groups
        }
    }

    /// The number of existing groups.
    func count() throws(PostgreSQLError) -> Int {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> Int in
            try connection.query("SELECT count(*) FROM group_names WHERE current_version IS NOT NULL").first?.int(0) ?? 0
        }
    }

    /// `values` as a PostgreSQL array literal of text (`{"a","b"}`): every element quoted,
    /// `"` and `\` escaped with a backslash
    /// (<https://www.postgresql.org/docs/15/arrays.html#ARRAYS-IO>).
    static func arrayLiteral(_ values: [String]) -> String {
        var text = "{"
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for character in value.unicodeScalars {
                if character == "\"" || character == "\\" { text += "\\" }
                text.unicodeScalars.append(character)
            }
            text += "\""
        }
        return text + "}"
    }
}
