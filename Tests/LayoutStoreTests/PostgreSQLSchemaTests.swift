import Foundation
import Synchronization
import Testing
@testable import LayoutStore

/// ``PostgreSQLSchema``: migrations once under concurrency, and the group tables' rules.
@Suite("PostgreSQL schema", .enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLSchemaTests {
    @Test func migratesAnEmptyDatabaseOnce() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        #expect(try PostgreSQLSchema.version(connection) == 0)
        #expect(try PostgreSQLSchema.migrate(connection) == PostgreSQLSchema.currentVersion)
        #expect(try PostgreSQLSchema.version(connection) == PostgreSQLSchema.currentVersion)
        #expect(try PostgreSQLSchema.migrate(connection) == 0)
        let tables = try connection.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name"
        ).rows.map { try $0.string(0) }
        #expect(tables == ["font_bytes", "font_names", "font_version_floor", "font_versions", "group_bytes", "group_names",
                           "group_versions", "schema_version", "version_floor"])
    }

    /// Migration 2 on a database of version 1 with groups in it: `first_version` is each
    /// live group's oldest version, deleted names get none, and `group_bytes` is the sum of
    /// SQLite's counting rule over the kept versions.
    @Test func migrationTwoFillsFirstVersionsAndTheByteTotal() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        for sql in PostgreSQLSchema.migrations[0] { try connection.execute(sql) }
        try connection.execute("INSERT INTO schema_version (version) VALUES (1)")
        try connection.execute("INSERT INTO group_names VALUES ('a', 3, 3), ('gone', 2, NULL)")
        let big = "[" + String(repeating: " ", count: 998) + "]"
        try connection.query(
            "INSERT INTO group_versions (name, version, constraints_json, metrics_json) VALUES ('a', 2, '[]', '{}'), ('a', 3, $1, '{\"é\":1}')",
            [big])
        #expect(try PostgreSQLSchema.migrate(connection) == PostgreSQLSchema.currentVersion - 1)
        let rows = try connection.query("SELECT name, first_version FROM group_names ORDER BY name").rows
        #expect(try rows.map { "\(try $0.string(0))=\(try $0.optionalInt(1).map(String.init) ?? "nil")" } == ["a=2", "gone=nil"])
        // 'a'@2: p = 1 + 2 + 2 + 20 = 25 → 153; 'a'@3: p = 1 + 1,000 + 8 + 20 = 1,029 → 8,192.
        #expect(try connection.query("SELECT value FROM group_bytes").first?.int(0) == StoredBytes.count(payload: 25) + StoredBytes.count(payload: 1_029))
        #expect(try connection.query("SELECT value FROM group_bytes").first?.int(0) == 153 + 8_192)
        #expect(try connection.query("SELECT value FROM version_floor").first?.int(0) == 0)
    }

    @Test func concurrentMigrationsRunOnce() throws {
        let database = try PostgreSQLTestDatabase()
        let threads = 6
        let ran = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])
        let configuration = database.configuration
        runOnThreads(threads) { _ in
            do {
                let connection = try PostgreSQLConnection(configuration)
                let count = try PostgreSQLSchema.migrate(connection)
                ran.withLock { $0.append(count) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let counts = ran.withLock { $0 }
        #expect(counts.count == threads)
        #expect(counts.reduce(0, +) == PostgreSQLSchema.currentVersion)
        #expect(counts.filter { $0 > 0 }.count == 1)
        let versions = try database.connect().query("SELECT version FROM schema_version ORDER BY version").rows
        #expect(try versions.map { try $0.int(0) } == Array(1...PostgreSQLSchema.currentVersion))
    }

    @Test func newerSchemaIsRefused() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        try PostgreSQLSchema.migrate(connection)
        try connection.query("INSERT INTO schema_version (version) VALUES ($1)", [PostgreSQLSchema.currentVersion + 5])
        do {
            try PostgreSQLSchema.migrate(connection)
            Issue.record("migrated a newer database")
        } catch {
            #expect(error.message == "database schema version \(PostgreSQLSchema.currentVersion + 5) is newer than this build supports (\(PostgreSQLSchema.currentVersion))")
            #expect(error.category == .other)
        }
    }

    @Test func failedMigrationLeavesNothingBehind() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        // A table in the way makes migration 1 fail half-way: DDL is transactional.
        try connection.execute("CREATE TABLE group_versions (x integer)")
        #expect(throws: PostgreSQLError.self) { try PostgreSQLSchema.migrate(connection) }
        #expect(try PostgreSQLSchema.version(connection) == 0)
        #expect(try connection.query("SELECT to_regclass('group_names') IS NULL").first?.bool(0) == true)
        try connection.execute("DROP TABLE group_versions")
        #expect(try PostgreSQLSchema.migrate(connection) == PostgreSQLSchema.currentVersion)
    }

    @Test func updatedAtIsTheDatabaseClockInRFC3339() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        try PostgreSQLSchema.migrate(connection)
        let texts = try connection.transaction { () throws(PostgreSQLError) -> [String] in
            try connection.query("INSERT INTO group_names (name, last_version, current_version) VALUES ($1, 1, 1)", ["row"])
            try connection.query(
                "INSERT INTO group_versions (name, version, constraints_json, metrics_json) VALUES ($1, 1, $2, $3)",
                ["row", "[]", "{}"])
            let row = try connection.query(
                "SELECT \(PostgreSQLSchema.updatedAtText("updated_at")), \(PostgreSQLSchema.updatedAtText("now()")) FROM group_versions"
            ).first
            return [try row?.string(0) ?? "", try row?.string(1) ?? ""]
        }
        #expect(texts[0] == texts[1])
        #expect(texts[0].wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
        // The same instant, formatted by the SQLite store's formatter.
        let epoch = try connection.query(
            "SELECT floor(extract(epoch FROM updated_at))::bigint FROM group_versions").first?.int64(0) ?? 0
        #expect(Timestamp.format(epochSeconds: epoch) == texts[0])
    }

    @Test func groupTablesKeepTheirRules() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        try PostgreSQLSchema.migrate(connection)
        // A version of an unknown name: foreign key (23503).
        do {
            try connection.query(
                "INSERT INTO group_versions (name, version, constraints_json, metrics_json) VALUES ($1, 1, '[]', '{}')", ["x"])
            Issue.record("a version without a name row")
        } catch {
            #expect(error.sqlState == "23503")
        }
        // current_version above the high-water mark: check constraint (23514).
        do {
            try connection.query("INSERT INTO group_names (name, last_version, current_version) VALUES ($1, 2, 3)", ["y"])
            Issue.record("current_version above last_version")
        } catch {
            #expect(error.sqlState == "23514")
        }
        // One row per name: unique violation.
        try connection.query("INSERT INTO group_names (name, last_version, current_version) VALUES ($1, 1, NULL)", ["z"])
        do {
            try connection.query("INSERT INTO group_names (name, last_version) VALUES ($1, 2)", ["z"])
            Issue.record("two rows for one name")
        } catch {
            #expect(error.category == .uniqueViolation)
        }
        // Byte order of names, as SQLite's BINARY collation.
        try connection.query("INSERT INTO group_names (name, last_version) VALUES ($1, 1), ($2, 1), ($3, 1)", ["b", "B", "a"])
        let names = try connection.query("SELECT name FROM group_names ORDER BY name").rows.map { try $0.string(0) }
        #expect(names == ["B", "a", "b", "z"])
        let collation = try connection.query(
            "SELECT collation_name FROM information_schema.columns WHERE table_name = 'group_names' AND column_name = 'name'"
        ).first?.string(0)
        #expect(collation == "C")
    }
}
