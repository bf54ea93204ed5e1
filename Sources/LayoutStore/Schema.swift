/// The database schema and its migrations, keyed by `PRAGMA user_version`.
///
/// Migration *n* takes a database from `user_version` *n − 1* to *n*. Each runs in its own
/// `BEGIN IMMEDIATE` transaction together with the `user_version` update, so a crash leaves
/// the database at a whole version. Never edit a shipped migration; append a new one.
enum Schema {
    /// The SQL of each migration, in order; `migrations[0]` creates version 1.
    static let migrations: [[String]] = [
        // 1: groups with a per-name high-water mark, and the result cache.
        [
            """
            CREATE TABLE group_names (
                name TEXT NOT NULL PRIMARY KEY,
                last_version INTEGER NOT NULL,  -- high-water mark: never decreases, row never deleted
                current_version INTEGER         -- NULL while the group is deleted
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE group_versions (
                name TEXT NOT NULL REFERENCES group_names(name),
                version INTEGER NOT NULL,
                constraints_json TEXT NOT NULL,
                metrics_json TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                PRIMARY KEY (name, version)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE cached_results (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                body BLOB NOT NULL,
                last_used INTEGER NOT NULL      -- LRU clock value of the last store or hit
            )
            """,
            "CREATE INDEX cached_results_by_last_used ON cached_results(last_used)",
            """
            CREATE TABLE cached_result_groups (
                result_id INTEGER NOT NULL REFERENCES cached_results(id) ON DELETE CASCADE,
                group_name TEXT NOT NULL,
                group_version INTEGER NOT NULL,
                PRIMARY KEY (result_id, group_name, group_version)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX cached_result_groups_by_group ON cached_result_groups(group_name)",
        ],
        // 2: bounded history (`BoundsTests`). `first_version` is the first version of the
        // name's current incarnation, so a version below the oldest kept one is known to
        // have been pruned; `version_floor` holds the largest high-water mark of the deleted
        // names whose rows were dropped, the start of every name without a row. The file
        // also becomes `auto_vacuum = INCREMENTAL` (see ``migrate(_:)``).
        [
            "ALTER TABLE group_names ADD COLUMN first_version INTEGER",
            """
            UPDATE group_names SET first_version =
                (SELECT min(version) FROM group_versions v WHERE v.name = group_names.name)
            WHERE current_version IS NOT NULL
            """,
            "CREATE INDEX group_names_deleted ON group_names(last_version, name) WHERE current_version IS NULL",
            "CREATE TABLE version_floor (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)",
            "INSERT INTO version_floor (id, value) VALUES (1, 0)",
        ],
        // 3: the groups' byte bound (`GroupBytesTests`). `group_bytes` holds the sum of
        // ``StoredBytes/count(payload:)`` over every kept version, maintained by each
        // write in its transaction; computed here once for an existing file, with the same
        // rule in SQL (``StoredBytes/sumSQL(_:table:textColumns:timestampColumn:where:)``).
        [
            "CREATE TABLE group_bytes (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)",
            "INSERT INTO group_bytes (id, value) SELECT 1, (\(StoredGroup.storedBytesSQL(.sqlite, where: "1")))",
        ],
        // 4: stored font faces, as groups (``SQLiteFontStore``): names with marks, one
        // kept version per face (the file as a BLOB), their own version floor and byte total.
        [
            """
            CREATE TABLE font_names (
                name TEXT NOT NULL PRIMARY KEY,
                last_version INTEGER NOT NULL,
                current_version INTEGER,
                first_version INTEGER
            ) WITHOUT ROWID
            """,
            "CREATE INDEX font_names_deleted ON font_names(last_version, name) WHERE current_version IS NULL",
            """
            CREATE TABLE font_versions (
                name TEXT NOT NULL REFERENCES font_names(name),
                version INTEGER NOT NULL,
                bytes BLOB NOT NULL,
                sha256 TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                PRIMARY KEY (name, version)
            )
            """,
            "CREATE TABLE font_version_floor (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)",
            "INSERT INTO font_version_floor (id, value) VALUES (1, 0)",
            "CREATE TABLE font_bytes (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)",
            "INSERT INTO font_bytes (id, value) VALUES (1, 0)",
        ],
    ]

    /// The migration before which the file is rebuilt with `VACUUM` in `auto_vacuum =
    /// INCREMENTAL` mode if it is not already in it (SQLite changes an existing file's mode
    /// only by a `VACUUM`, which cannot run in a transaction:
    /// <https://www.sqlite.org/pragma.html#pragma_auto_vacuum>). Once per file: a new file
    /// is created in that mode by ``SQLiteConnection``, and a migrated one stays in it.
    static let incrementalVacuumVersion = 2

    /// The `user_version` this build writes and expects.
    static var currentVersion: Int { migrations.count }

    /// Brings the database up to ``currentVersion``.
    ///
    /// - Throws: ``StoreError/cannotOpen(_:)`` if the database is newer than this build, or
    ///   older and read-only (it cannot be migrated); SQLite errors mapped to ``StoreError``.
    static func migrate(_ connection: SQLiteConnection) throws(StoreError) {
        let found: Int
        do {
            found = try connection.scalarInt("PRAGMA user_version")
        } catch {
            throw StoreError(error)
        }
        if found > currentVersion {
            throw .cannotOpen("database schema version \(found) is newer than this build supports (\(currentVersion))")
        }
        if found == currentVersion { return }
        if connection.isReadOnly {
            throw .cannotOpen("database schema version \(found) needs migrating to \(currentVersion), but the database is read-only")
        }
        for version in (found + 1)...currentVersion {
            if version == incrementalVacuumVersion && found > 0 {
                // Rewrites the whole file (O(its size), needing as much free disk again),
                // once. A failure (a full disk) leaves the file as it was and working, in
                // its old mode: deletes then reuse free pages but do not shrink the file.
                do throws(SQLiteError) {
                    if try connection.autoVacuumMode != 2 {
                        try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
                        try connection.execute("VACUUM")
                    }
                } catch {
                    // Kept working in the old mode; see above.
                }
            }
            try connection.transaction { () throws(StoreError) in
                do throws(SQLiteError) {
                    // Read again under the write lock (`BEGIN IMMEDIATE`): another process
                    // that opened the file at the same time may have run this migration
                    // while this one waited (`SchemaTests.processesOpeningANewFileAtOnceMigrateOnce`).
                    guard try connection.scalarInt("PRAGMA user_version") < version else { return }
                    for sql in migrations[version - 1] {
                        try connection.execute(sql)
                    }
                    // PRAGMA takes no bound parameters; `version` is our own integer.
                    try connection.execute("PRAGMA user_version = \(version)")
                } catch {
                    throw StoreError(error)
                }
            }
        }
    }
}
