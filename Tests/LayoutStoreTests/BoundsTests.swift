import Foundation
import Testing
@testable import LayoutStore

/// The database's size bounds: the cache's bytes, space
/// returned to the disk, the groups' history and the deleted names' high-water marks.
@Suite struct BoundsTests {
    // MARK: - Cache bytes

    @Test func byteBoundEvictsLeastRecentlyUsedToTheExactByteCount() throws {
        let store = try openStore(":memory:", maxCacheBytes: 1_000)
        for index in 0..<3 {
            #expect(try store.storeResult([UInt8](repeating: UInt8(index), count: 300), forKey: "k\(index)", groups: []))
        }
        #expect(try store.cacheBytes() == 900)
        // 1,200 bytes pass the bound: the least recently used entry goes, and only it.
        try store.storeResult([UInt8](repeating: 3, count: 300), forKey: "k3", groups: [])
        #expect(try store.cacheBytes() == 900)
        #expect(try store.cachedResult(forKey: "k0") == nil)
        // A hit makes k1 the most recently used: the next eviction takes k2 instead.
        #expect(try store.cachedResult(forKey: "k1") == [UInt8](repeating: 1, count: 300))
        try store.storeResult([UInt8](repeating: 4, count: 250), forKey: "k4", groups: [])
        #expect(try store.cacheBytes() == 850)
        #expect(try store.cachedResult(forKey: "k2") == nil)
        for key in ["k1", "k3", "k4"] { #expect(try store.cachedResult(forKey: key) != nil) }
        #expect(try store.cacheCount() == 3)
        // Replacing an entry counts its new body, not both.
        try store.storeResult([UInt8](repeating: 5, count: 100), forKey: "k4", groups: [])
        #expect(try store.cacheBytes() == 700)
    }

    @Test func bodyOverTheByteBoundIsNotStored() throws {
        let store = try openStore(":memory:", maxCacheBytes: 1_000)
        #expect(store.maxResultBytes == 1_000)
        #expect(try store.storeResult([UInt8](repeating: 1, count: 1_001), forKey: "big", groups: []) == false)
        #expect(try store.storeResult([UInt8](repeating: 1, count: 1_000), forKey: "fits", groups: []))
        #expect(try store.cacheBytes() == 1_000)
    }

    @Test func byteBoundHoldsAcrossWriteBehindBatches() throws {
        // Batches of 8 entries: after each commit the table is back under the bound.
        let store = try openStore(":memory:", cacheWriteBehind: 8, maxCacheBytes: 10_000)
        for index in 0..<100 {
            try store.storeResult([UInt8](repeating: UInt8(index), count: 700), forKey: "k\(index)", groups: [])
        }
        // 14 bodies of 700 bytes fit in 10,000; the 14 most recent are the ones kept.
        #expect(try store.cacheBytes() == 14 * 700)
        #expect(try store.cacheCount() == 14)
        #expect(try store.cachedResult(forKey: "k86") != nil)
        #expect(try store.cachedResult(forKey: "k85") == nil)
    }

    @Test func evictionReturnsPagesToTheDisk() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let bound = 1 << 20
        // Free pages up to one batch's byte bound stay in the file for the next batch.
        let batchBytes = 256 << 10
        let store = try openStore(path, cacheWriteBehindBytes: batchBytes, maxCacheBytes: bound)
        try store.withConnection { (connection) throws(StoreError) in
            #expect(try mapped { () throws(SQLiteError) in try connection.autoVacuumMode } == 2)
        }
        // 8 MiB of unique 64 KiB answers through a 1 MiB cache.
        for index in 0..<128 {
            try store.storeResult([UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 64 << 10),
                                  forKey: "k\(index)", groups: [])
        }
        #expect(try store.cacheBytes() == 16 * (64 << 10))
        let (fileBytes, freeBytes) = try store.withConnection { (connection) throws(StoreError) -> (Int, Int) in
            try mapped { () throws(SQLiteError) -> (Int, Int) in
                (try connection.fileBytes, try connection.freePageCount * connection.pageSize)
            }
        }
        #expect(freeBytes <= batchBytes)
        // The bodies, their overflow pages' 4-byte links, keys, indexes and the schema, and
        // the free pages kept.
        #expect(fileBytes <= bound + (192 << 10) + batchBytes)
        store.close()
        // Closing checkpoints the WAL into the file and removes it: what is left on disk.
        let onDisk = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
        #expect(onDisk > bound)
        #expect(onDisk <= bound + (192 << 10) + batchBytes)
    }

    @Test func versionOneFileIsVacuumedIntoIncrementalModeOnce() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        do {
            // A file as a version-1 build left it: no auto-vacuum, one group with history.
            let connection = try SQLiteConnection(path: path, readOnly: false, busyTimeout: 5)
            for sql in Schema.migrations[0] { try connection.execute(sql) }
            try connection.execute("INSERT INTO group_names VALUES ('card', 3, 3)")
            for version in 2...3 {
                try connection.execute("INSERT INTO group_versions VALUES ('card', \(version), '[\(version)]', '{}', 'x')")
            }
            try connection.execute("INSERT INTO group_names VALUES ('gone', 7, NULL)")
            try connection.execute("PRAGMA user_version = 1")
            try connection.execute("PRAGMA auto_vacuum = NONE")
            try connection.execute("VACUUM")
            #expect(try connection.autoVacuumMode == 0)
            connection.close()
        }
        let store = try openStore(path, maxGroupVersions: 2)
        try store.withConnection { (connection) throws(StoreError) in
            try mapped { () throws(SQLiteError) in
                #expect(try connection.autoVacuumMode == 2)
                #expect(try connection.scalarInt("PRAGMA user_version") == SQLiteStore.schemaVersion)
            }
        }
        // The first kept version (2) became the incarnation's first: nothing is pruned yet.
        #expect(try store.prunedVersion(ofGroup: "card", version: 1) == nil)
        _ = try store.putGroup(name: "card", constraintsJSON: "[4]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(try store.versions(ofGroup: "card")?.map(\.version) == [3, 4])
        #expect(try store.prunedVersion(ofGroup: "card", version: 2) == 3)
        // The deleted name's mark survived the migration.
        let again = try store.putGroup(name: "gone", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(again.group.version == 8)
    }

    // MARK: - Group history

    @Test func pruningKeepsExactlyTheLastVersions() throws {
        let store = try openStore(":memory:", maxGroupVersions: 3)
        for version in 1...5 {
            let put = try store.putGroup(name: "card", constraintsJSON: "[\(version)]", metricsJSON: "{}",
                                         ifMatch: nil, ifNoneMatchAny: false)
            #expect(put.group.version == version)
        }
        #expect(try store.versions(ofGroup: "card")?.map(\.version) == [3, 4, 5])
        #expect(try store.group(named: "card", version: 2) == nil)
        #expect(try store.group(named: "card", version: 3)?.constraintsJSON == "[3]")
        #expect(try store.prunedVersion(ofGroup: "card", version: 1) == 3)
        #expect(try store.prunedVersion(ofGroup: "card", version: 2) == 3)
        #expect(try store.prunedVersion(ofGroup: "card", version: 3) == nil)
        #expect(try store.prunedVersion(ofGroup: "card", version: 6) == nil)
        #expect(try store.prunedVersion(ofGroup: "other", version: 1) == nil)
        // A new life after a delete: versions continue, the old life's are not "pruned".
        #expect(try store.deleteGroup(named: "card"))
        #expect(try store.prunedVersion(ofGroup: "card", version: 2) == nil)
        for version in 6...10 {
            let put = try store.putGroup(name: "card", constraintsJSON: "[\(version)]", metricsJSON: "{}",
                                         ifMatch: nil, ifNoneMatchAny: false)
            #expect(put.group.version == version)
        }
        #expect(try store.versions(ofGroup: "card")?.map(\.version) == [8, 9, 10])
        #expect(try store.prunedVersion(ofGroup: "card", version: 6) == 8)
        #expect(try store.prunedVersion(ofGroup: "card", version: 5) == nil)
    }

    @Test func pruningDropsThePrunedVersionsCachedResults() throws {
        let store = try openStore(":memory:", maxGroupVersions: 1)
        _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        try store.storeResult(bytes("uses 1"), forKey: "k", groups: [GroupVersion(name: "card", version: 1)])
        _ = try store.putGroup(name: "card", constraintsJSON: "[2]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(try store.cachedResult(forKey: "k") == nil)
        #expect(try store.versions(ofGroup: "card")?.map(\.version) == [2])
        // A result computed from the pruned version is not stored either.
        #expect(try store.storeResult(bytes("late"), forKey: "k", groups: [GroupVersion(name: "card", version: 1)]) == false)
    }

    @Test func versionsArePagedAfterAVersion() throws {
        let store = try openStore(":memory:", maxGroupVersions: 5)
        for version in 1...7 {
            _ = try store.putGroup(name: "card", constraintsJSON: "[\(version)]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        }
        let first = try store.versions(ofGroup: "card", after: 0, limit: 2)
        #expect(first?.versions.map(\.version) == [3, 4])
        #expect(first?.hasMore == true)
        let second = try store.versions(ofGroup: "card", after: 4, limit: 2)
        #expect(second?.versions.map(\.version) == [5, 6])
        #expect(second?.hasMore == true)
        let last = try store.versions(ofGroup: "card", after: 6, limit: 2)
        #expect(last?.versions.map(\.version) == [7])
        #expect(last?.hasMore == false)
        let exact = try store.versions(ofGroup: "card", after: 5, limit: 2)
        #expect(exact?.versions.map(\.version) == [6, 7])
        #expect(exact?.hasMore == false)
        #expect(try store.versions(ofGroup: "card", after: 7, limit: 2) == GroupVersionPage(versions: [], hasMore: false))
        #expect(try store.versions(ofGroup: "none", after: 0, limit: 2) == nil)
    }

    // MARK: - High-water marks

    @Test func deletedNamesMarksAreBoundedByAFloorThatNeverLetsVersionsBeReused() throws {
        let store = try openStore(":memory:", maxDeletedNames: 2)
        func put(_ name: String) throws -> Int {
            try store.putGroup(name: name, constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false).group.version
        }
        // Marks: a 1, b 2, c 3, d 1.
        #expect(try put("a") == 1)
        for _ in 0..<2 { _ = try put("b") }
        for _ in 0..<3 { _ = try put("c") }
        #expect(try put("d") == 1)
        for name in ["a", "b", "c"] { #expect(try store.deleteGroup(named: name)) }
        // Three deleted rows, two kept: a (the lowest mark) is dropped into the floor.
        #expect(try store.versionFloor() == (floor: 1, deletedNames: 2))
        #expect(try store.deleteGroup(named: "d"))
        #expect(try store.versionFloor() == (floor: 1, deletedNames: 2))
        // A dropped name starts above the floor, so above every version it had.
        #expect(try put("a") == 2)
        #expect(try put("d") == 2)
        // A kept row still continues from its own mark.
        #expect(try put("b") == 3)
        // A new name starts above the floor as well.
        #expect(try put("e") == 2)
        for name in ["a", "b", "d", "e"] { #expect(try store.deleteGroup(named: name)) }
        // Deleted now: c 3, a 2, b 3, d 2, e 2; kept: the two highest (b 3, c 3).
        #expect(try store.versionFloor() == (floor: 2, deletedNames: 2))
        #expect(try put("c") == 4)
        #expect(try put("zz") == 3)
    }
}
