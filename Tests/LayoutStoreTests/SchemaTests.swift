import Synchronization
import Foundation
import Testing
@testable import LayoutStore

@Suite struct SchemaTests {
    @Test func freshDatabaseIsAtCurrentSchemaVersion() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.file("db.sqlite"))
        let userVersion = try store.withConnection { (connection) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try connection.scalarInt("PRAGMA user_version") }
        }
        #expect(SQLiteStore.schemaVersion == 4)
        #expect(userVersion == SQLiteStore.schemaVersion)
        let tables = try store.withConnection { (connection) throws(StoreError) -> String in
            try mapped { () throws(SQLiteError) -> String in
                try connection.scalarString(
                    "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name)")
            }
        }
        #expect(tables == "cached_result_groups,cached_results,font_bytes,font_names,font_version_floor,font_versions,group_bytes,group_names,group_versions,version_floor")
    }

    @Test func reopeningKeepsDataAndDoesNotMigrateAgain() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        do {
            let store = try openStore(path)
            _ = try store.putGroup(name: "card", constraintsJSON: "[\"H:|[a]|\"]", metricsJSON: "{}",
                                   ifMatch: nil, ifNoneMatchAny: false)
            store.close()
        }
        let store = try openStore(path)
        let userVersion = try store.withConnection { (connection) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try connection.scalarInt("PRAGMA user_version") }
        }
        #expect(userVersion == 4)
        #expect(try store.group(named: "card")?.constraintsJSON == "[\"H:|[a]|\"]")
    }

    @Test func pragmasAreApplied() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.file("db.sqlite"), busyTimeout: 2.5)
        let answers = try store.withConnection { (connection) throws(StoreError) -> [String] in
            try mapped { () throws(SQLiteError) -> [String] in
                [
                    try connection.scalarString("PRAGMA journal_mode"),
                    try connection.scalarString("PRAGMA synchronous"),
                    try connection.scalarString("PRAGMA foreign_keys"),
                    try connection.scalarString("PRAGMA busy_timeout"),
                ]
            }
        }
        // synchronous NORMAL is 1.
        #expect(answers == ["wal", "1", "1", "2500"])
    }

    @Test func inMemoryDatabaseWorks() throws {
        let store = try openStore(":memory:")
        #expect(store.isReachable())
        #expect(!store.isReadOnly)
        #expect(try store.storeResult(bytes("{}"), forKey: "k", groups: []))
        #expect(try store.cachedResult(forKey: "k") == bytes("{}"))
    }

    @Test func newerSchemaIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        do {
            let store = try openStore(path)
            try store.withConnection { (connection) throws(StoreError) in
                try mapped { () throws(SQLiteError) in try connection.execute("PRAGMA user_version = 7") }
            }
            store.close()
        }
        #expect(throws: StoreError.cannotOpen(
            "database schema version 7 is newer than this build supports (4)")) {
            _ = try openStore(path)
        }
    }

    @Test func closedStoreThrowsAndIsUnreachable() throws {
        let store = try openStore(":memory:")
        store.close()
        store.close()
        #expect(!store.isReachable())
        #expect(throws: StoreError.cannotOpen("the store is closed")) { _ = try store.groupCount() }
    }

    @Test("RFC 3339 UTC timestamps", arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (Int64(1_796_047_509), "2026-11-30T14:05:09Z"),
        (Int64(951_782_400), "2000-02-29T00:00:00Z"),
        (Int64(-1), "1969-12-31T23:59:59Z"),
        (Int64(4_102_444_799), "2099-12-31T23:59:59Z"),
    ])
    func timestampFormat(_ seconds: Int64, _ expected: String) {
        #expect(Timestamp.format(epochSeconds: seconds) == expected)
    }

    /// Several processes (here: connections of their own, on threads released at once)
    /// opening one new file: each migration step runs once, under the write lock, and every
    /// opener gets a working store. (Without the second read of `user_version` inside the
    /// transaction, the later ones failed with "table … already exists".)
    @Test func processesOpeningANewFileAtOnceMigrateOnce() throws {
        for _ in 0..<5 {
            let directory = TemporaryDirectory()
            let path = directory.file("shared.db")
            let failures = Mutex<[String]>([])
            let stores = Mutex<[SQLiteStore]>([])
            runOnThreads(4) { _ in
                do {
                    let store = try openStore(path, busyTimeout: 10)
                    stores.withLock { $0.append(store) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let opened = stores.withLock { $0 }
            try #require(opened.count == 4)
            let (group, _) = try opened[0].putGroup(name: "g", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
            #expect(try opened[3].group(named: "g") == group)
            for store in opened { store.close() }
        }
    }
}
