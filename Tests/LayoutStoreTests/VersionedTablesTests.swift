import Testing
@testable import LayoutStore

/// ``SQLiteVersionedTables`` and ``PostgreSQLVersionedTables``: the statements the shared
/// rows send for groups are, byte for byte, the literals the group stores sent when each
/// had its own rows, so existing databases see the same statements (and SQLite's and the
/// pool's statement caches the same texts). SQLite's font statements likewise.
@Suite struct VersionedTablesTests {
    @Test func sqliteGroupStatementsAreUnchanged() {
        let tables = SQLiteVersionedTables<StoredGroup>.groups
        #expect(tables.lockNameSQL == "SELECT last_version, current_version, first_version FROM group_names WHERE name = ?")
        #expect(tables.liveNameCountSQL == "SELECT count(*) FROM group_names WHERE current_version IS NOT NULL")
        #expect(tables.versionFloorSQL == "SELECT value FROM version_floor")
        #expect(tables.totalBytesSQL == "SELECT value FROM group_bytes")
        #expect(tables.storedBytesSQL == StoredGroup.storedBytesSQL(.sqlite, where: "name = ? AND version <= ?"))
        #expect(tables.setNameSQL == """
            INSERT INTO group_names (name, last_version, current_version, first_version) VALUES (?, ?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET
                last_version = excluded.last_version, current_version = excluded.current_version,
                first_version = excluded.first_version
            """)
        #expect(tables.insertSQL
                == "INSERT INTO group_versions (name, version, constraints_json, metrics_json, updated_at) VALUES (?, ?, ?, ?, ?)")
        #expect(tables.deleteVersionsUpToSQL == "DELETE FROM group_versions WHERE name = ? AND version <= ?")
        #expect(tables.deleteAllVersionsSQL == "DELETE FROM group_versions WHERE name = ?")
        #expect(tables.markDeletedSQL == "UPDATE group_names SET current_version = NULL, first_version = NULL WHERE name = ?")
        #expect(tables.addToTotalBytesSQL == "UPDATE group_bytes SET value = value + ? WHERE id = 1")
        #expect(tables.deletedNameCountSQL == "SELECT count(*) FROM group_names WHERE current_version IS NULL")
        #expect(tables.selectDeletedNamesSQL
                == "SELECT name, last_version FROM group_names WHERE current_version IS NULL ORDER BY last_version, name LIMIT ?")
        #expect(tables.dropDeletedNameSQL == "DELETE FROM group_names WHERE name = ? AND current_version IS NULL")
        #expect(tables.raiseVersionFloorSQL == "UPDATE version_floor SET value = max(value, ?) WHERE id = 1")
        #expect(tables.cacheName("cards") == "cards")
    }

    @Test func sqliteFontStatementsAreUnchanged() {
        let tables = SQLiteVersionedTables<StoredFace>.fonts
        #expect(tables.lockNameSQL == "SELECT last_version, current_version, first_version FROM font_names WHERE name = ?")
        #expect(tables.liveNameCountSQL == "SELECT count(*) FROM font_names WHERE current_version IS NOT NULL")
        #expect(tables.versionFloorSQL == "SELECT value FROM font_version_floor")
        #expect(tables.totalBytesSQL == "SELECT value FROM font_bytes")
        #expect(tables.storedBytesSQL == StoredFace.storedBytesSQL(.sqlite, where: "name = ? AND version <= ?"))
        #expect(tables.insertSQL == "INSERT INTO font_versions (name, version, bytes, sha256, updated_at) VALUES (?, ?, ?, ?, ?)")
        #expect(tables.deleteVersionsUpToSQL == "DELETE FROM font_versions WHERE name = ? AND version <= ?")
        #expect(tables.markDeletedSQL == "UPDATE font_names SET current_version = NULL, first_version = NULL WHERE name = ?")
        #expect(tables.addToTotalBytesSQL == "UPDATE font_bytes SET value = value + ? WHERE id = 1")
        #expect(tables.selectDeletedNamesSQL
                == "SELECT name, last_version FROM font_names WHERE current_version IS NULL ORDER BY last_version, name LIMIT ?")
        #expect(tables.raiseVersionFloorSQL == "UPDATE font_version_floor SET value = max(value, ?) WHERE id = 1")
        #expect(tables.cacheName("Acme Sans/700") == "font:Acme Sans/700")
    }

    @Test func postgreSQLGroupStatementsAreUnchanged() {
        let tables = PostgreSQLVersionedTables<StoredGroup>.groups
        #expect(tables.readNameSQL(locking: false)
                == "SELECT last_version, current_version, first_version FROM group_names WHERE name = $1")
        #expect(tables.readNameSQL(locking: true)
                == "SELECT last_version, current_version, first_version FROM group_names WHERE name = $1 FOR UPDATE")
        #expect(tables.lockCreationsSQL == "SELECT pg_advisory_xact_lock($1)")
        #expect(tables.creationLockKey == PostgreSQLSchema.migrationLockKey + 1)
        #expect(tables.liveNameCountSQL == "SELECT count(*) FROM group_names WHERE current_version IS NOT NULL")
        #expect(tables.versionFloorSQL == "SELECT value FROM version_floor")
        #expect(tables.lockTotalBytesSQL == "SELECT value FROM group_bytes WHERE id = 1 FOR UPDATE")
        #expect(tables.storedBytesSQL == StoredGroup.storedBytesSQL(.postgreSQL, where: "name = $1 AND version <= $2"))
        #expect(tables.setNameSQL == """
            INSERT INTO group_names (name, last_version, current_version, first_version) VALUES ($1, $2, $3, $4)
            ON CONFLICT (name) DO UPDATE SET
                last_version = excluded.last_version, current_version = excluded.current_version,
                first_version = excluded.first_version
            """)
        #expect(tables.insertStampedSQL == """
            INSERT INTO group_versions (name, version, constraints_json, metrics_json, updated_at)
            VALUES ($1, $2, $3, $4, $5::timestamptz)
            """)
        #expect(tables.insertReturningSQL == """
            INSERT INTO group_versions (name, version, constraints_json, metrics_json) VALUES ($1, $2, $3, $4)
            RETURNING \(PostgreSQLSchema.updatedAtText("updated_at"))
            """)
        #expect(tables.deleteVersionsUpToSQL == "DELETE FROM group_versions WHERE name = $1 AND version <= $2")
        #expect(tables.deleteAllVersionsSQL == "DELETE FROM group_versions WHERE name = $1")
        #expect(tables.markDeletedSQL == "UPDATE group_names SET current_version = NULL, first_version = NULL WHERE name = $1")
        #expect(tables.addToTotalBytesSQL == "UPDATE group_bytes SET value = value + $1 WHERE id = 1")
        #expect(tables.deletedNameCountSQL == "SELECT count(*) FROM group_names WHERE current_version IS NULL")
        #expect(tables.dropDeletedNamesSQL == """
            WITH dropped AS (
                DELETE FROM group_names WHERE current_version IS NULL AND name IN (
                    SELECT name FROM group_names WHERE current_version IS NULL
                    ORDER BY last_version, name LIMIT $1 FOR UPDATE)
                RETURNING last_version)
            SELECT coalesce(max(last_version), 0) FROM dropped
            """)
        #expect(tables.raiseVersionFloorSQL == "UPDATE version_floor SET value = greatest(value, $1) WHERE id = 1")
        let group = StoredGroup(name: "cards", version: 3, constraintsJSON: "[]", metricsJSON: "{}", updatedAt: "")
        #expect(tables.contentValues(group).map(\.postgreSQLText) == ["[]", "{}"])
    }

    @Test func postgreSQLFontStatementsNameTheFontTables() {
        let tables = PostgreSQLVersionedTables<StoredFace>.fonts
        #expect(tables.creationLockKey == PostgreSQLSchema.migrationLockKey + 2)
        #expect(tables.lockTotalBytesSQL == "SELECT value FROM font_bytes WHERE id = 1 FOR UPDATE")
        #expect(tables.insertReturningSQL == """
            INSERT INTO font_versions (name, version, bytes, sha256) VALUES ($1, $2, decode($3, 'hex'), $4)
            RETURNING \(PostgreSQLSchema.updatedAtText("updated_at"))
            """)
        #expect(tables.raiseVersionFloorSQL == "UPDATE font_version_floor SET value = greatest(value, $1) WHERE id = 1")
        let face = StoredFace(name: "Acme Sans/700", version: 1, bytes: [0x00, 0x01, 0xAB], sha256: "ff", updatedAt: "")
        #expect(tables.contentValues(face).map(\.postgreSQLText) == ["0001ab", "ff"])
    }
}
