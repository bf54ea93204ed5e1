/// The PostgreSQL schema of the group store and its migrations, keyed by the rows of a
/// `schema_version` table.
///
/// Mirrors SQLite's ``Schema`` for groups (the result cache stays in each process's own
/// SQLite database): `group_names` keeps, per name, the high-water mark `last_version`
/// (never decreases; the row survives a delete, so a version number is never reused) and
/// the `current_version` (`NULL` while the group is deleted); `group_versions` keeps the
/// versions. `updated_at` is the database's clock (`DEFAULT now()`, the transaction's start
/// time), read back with ``updatedAtText(_:)``. Names use `COLLATE "C"`, so `ORDER BY name`
/// is byte order, as SQLite's `BINARY` collation is.
///
/// Migration *n* takes the database from version *n − 1* to *n*. Never edit a shipped
/// migration; append a new one.
enum PostgreSQLSchema {
    /// The key of the transaction-level advisory lock (`pg_advisory_xact_lock`) that
    /// serialises migrations across every process using the database: the bytes of the
    /// ASCII text `layoutd` read as a big-endian integer.
    static let migrationLockKey: Int64 = 0x6C_61_79_6F_75_74_64

    /// The SQL of each migration, in order; `migrations[0]` creates version 1.
    static let migrations: [[String]] = [
        // 1: groups with a per-name high-water mark.
        [
            """
            CREATE TABLE group_names (
                name text COLLATE "C" PRIMARY KEY,
                last_version bigint NOT NULL CHECK (last_version >= 1),
                current_version bigint CHECK (current_version BETWEEN 1 AND last_version)
            )
            """,
            "COMMENT ON COLUMN group_names.last_version IS 'high-water mark: never decreases, row never deleted'",
            "COMMENT ON COLUMN group_names.current_version IS 'NULL while the group is deleted'",
            """
            CREATE TABLE group_versions (
                name text COLLATE "C" NOT NULL REFERENCES group_names (name),
                version bigint NOT NULL CHECK (version >= 1),
                constraints_json text NOT NULL,
                metrics_json text NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (name, version)
            )
            """,
        ],
        // 2: the bounds of SQLite's schema versions 2 and 3: the first version of
        // a group's current life (to tell a pruned version from one never written), the
        // version floor of dropped deleted names, and the running total of the kept
        // versions' counted bytes.
        [
            "ALTER TABLE group_names ADD COLUMN first_version bigint CHECK (first_version BETWEEN 1 AND current_version)",
            """
            UPDATE group_names n SET first_version = (SELECT min(v.version) FROM group_versions v WHERE v.name = n.name)
            WHERE current_version IS NOT NULL
            """,
            "CREATE INDEX group_names_deleted ON group_names (last_version, name) WHERE current_version IS NULL",
            "CREATE TABLE version_floor (id integer PRIMARY KEY CHECK (id = 1), value bigint NOT NULL CHECK (value >= 0))",
            "INSERT INTO version_floor (id, value) VALUES (1, 0)",
            "CREATE TABLE group_bytes (id integer PRIMARY KEY CHECK (id = 1), value bigint NOT NULL)",
            "INSERT INTO group_bytes (id, value) SELECT 1, (\(StoredGroup.storedBytesSQL(.postgreSQL, where: "true")))",
        ],
        // 3: stored font faces, as SQLite's schema version 4 (``PostgreSQLFontStore``).
        [
            """
            CREATE TABLE font_names (
                name text COLLATE "C" PRIMARY KEY,
                last_version bigint NOT NULL CHECK (last_version >= 1),
                current_version bigint CHECK (current_version BETWEEN 1 AND last_version),
                first_version bigint CHECK (first_version BETWEEN 1 AND current_version)
            )
            """,
            "CREATE INDEX font_names_deleted ON font_names (last_version, name) WHERE current_version IS NULL",
            """
            CREATE TABLE font_versions (
                name text COLLATE "C" NOT NULL REFERENCES font_names (name),
                version bigint NOT NULL CHECK (version >= 1),
                bytes bytea NOT NULL,
                sha256 text NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (name, version)
            )
            """,
            "CREATE TABLE font_version_floor (id integer PRIMARY KEY CHECK (id = 1), value bigint NOT NULL CHECK (value >= 0))",
            "INSERT INTO font_version_floor (id, value) VALUES (1, 0)",
            "CREATE TABLE font_bytes (id integer PRIMARY KEY CHECK (id = 1), value bigint NOT NULL)",
            "INSERT INTO font_bytes (id, value) VALUES (1, 0)",
        ],
    ]

    /// The schema version this build writes and expects.
    static var currentVersion: Int { migrations.count }

    /// SQL that formats the `timestamptz` expression `column` as RFC 3339 UTC to the
    /// second (`2026-11-30T14:05:09Z`), the form of ``StoredGroup/updatedAt``. Fractions
    /// of a second are cut off, as `Timestamp` does for SQLite.
    static func updatedAtText(_ column: String) -> String {
        #"to_char(\#(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')"#
    }

    /// Brings the database up to ``currentVersion``, once, however many processes start
    /// at the same time.
    ///
    /// Reads the version first without a lock; when it is current (every start after the
    /// first), that is all, and a read-only server (a hot standby) is fine. Otherwise, in
    /// one transaction: takes the advisory lock ``migrationLockKey``, which waits for any
    /// other process's migration to commit; creates `schema_version` if missing; reads the
    /// version again (another process may have migrated meanwhile); runs the missing
    /// migrations; records each version. PostgreSQL's DDL is transactional, so a failure
    /// anywhere leaves the database as it was, and the lock is released with the
    /// transaction whatever happens (even if the connection dies).
    ///
    /// - Returns: the migrations this call ran (0 when another process did them).
    /// - Throws: ``PostgreSQLError``: category ``PostgreSQLError/Category/other`` with
    ///   SQLSTATE nil when the database's version is newer than this build; a read-only
    ///   server that needs migrating answers 25006 (``PostgreSQLError/Category/unavailable``).
    ///   Held by `PostgreSQLSchemaTests.concurrentMigrationsRunOnce`.
    @discardableResult
    static func migrate(_ connection: PostgreSQLConnection) throws(PostgreSQLError) -> Int {
        if try version(connection) == currentVersion { return 0 }
        return try connection.transaction { () throws(PostgreSQLError) -> Int in
            try connection.query("SELECT pg_advisory_xact_lock($1)", [migrationLockKey])
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_version (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """
            )
            let found = try version(connection)
            guard found <= currentVersion else { throw newerError(found) }
            guard found < currentVersion else { return 0 }
            for version in (found + 1)...currentVersion {
                for sql in migrations[version - 1] {
                    try connection.execute(sql)
                }
                try connection.query("INSERT INTO schema_version (version) VALUES ($1)", [version])
            }
            return currentVersion - found
        }
    }

    /// The database's schema version: the highest row of `schema_version`, 0 when the table
    /// does not exist (a new database).
    /// - Throws: ``PostgreSQLError`` when the database's version is newer than this build.
    static func version(_ connection: PostgreSQLConnection) throws(PostgreSQLError) -> Int {
        let exists = try connection.query("SELECT to_regclass('schema_version') IS NOT NULL").first?.bool(0) ?? false
        guard exists else { return 0 }
        let found = try connection.query("SELECT coalesce(max(version), 0) FROM schema_version").first?.int(0) ?? 0
        guard found <= currentVersion else { throw newerError(found) }
        return found
    }

    private static func newerError(_ found: Int) -> PostgreSQLError {
        PostgreSQLError(
            sqlState: nil,
            message: "database schema version \(found) is newer than this build supports (\(currentVersion))",
            category: .other)
    }
}
