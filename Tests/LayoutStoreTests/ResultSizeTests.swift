import Testing
@testable import LayoutStore

/// Sizes in the result cache: the per-result cap, the byte bound of the write-behind
/// buffer, and a batch in which one entry cannot be written.
@Suite struct ResultSizeTests {
    private func tableCount(_ store: SQLiteStore) throws -> Int {
        try store.withConnection { (connection) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try connection.scalarInt("SELECT count(*) FROM cached_results") }
        }
    }

    /// Lowers SQLite's length limit on the store's connection, so that a body of more than
    /// `bytes` bytes fails to bind (`SQLITE_TOOBIG`) when its batch is written: the same
    /// failure as a body over SQLite's default limit of 1,000,000,000 bytes.
    private func limitRowLength(_ store: SQLiteStore, to bytes: Int) throws {
        try store.withConnection { (connection) throws(StoreError) in connection.lengthLimit = bytes }
    }

    @Test func aResultOverTheCapIsNotStored() throws {
        let store = try openStore(":memory:", cacheWriteBehind: 64, maxResultBytes: 1_000)
        #expect(store.maxResultBytes == 1_000)
        #expect(try store.storeResult([UInt8](repeating: 0x41, count: 1_001), forKey: "big", groups: []) == false)
        #expect(try store.storeResult([UInt8](repeating: 0x41, count: 1_000), forKey: "fits", groups: []))
        #expect(try store.cachedResult(forKey: "big") == nil)
        #expect(try store.cacheCount() == 1)
        #expect(try store.cachedResult(forKey: "fits")?.count == 1_000)
    }

    @Test func theCapStaysBelowSQLitesLengthLimit() throws {
        let store = try openStore(":memory:", maxResultBytes: 2_000_000_000, maxCacheBytes: 2_000_000_000)
        #expect(store.maxResultBytes == 1_000_000_000 - 65_536)
        #expect(try openStore(":memory:").maxResultBytes == 16_777_216)
    }

    @Test func theBufferIsWrittenWhenItsBodiesPassTheByteBound() throws {
        let store = try openStore(":memory:", cacheWriteBehind: 64, cacheWriteBehindBytes: 1_000)
        #expect(try store.storeResult([UInt8](repeating: 1, count: 600), forKey: "a", groups: []))
        #expect(try tableCount(store) == 0)
        // 1,200 bytes buffered > 1,000: this store writes the batch.
        #expect(try store.storeResult([UInt8](repeating: 2, count: 600), forKey: "b", groups: []))
        #expect(try tableCount(store) == 2)
        // Replacing a buffered entry counts its new size only: 400 + 500 stays buffered.
        #expect(try store.storeResult([UInt8](repeating: 3, count: 300), forKey: "c", groups: []))
        #expect(try store.storeResult([UInt8](repeating: 3, count: 400), forKey: "c", groups: []))
        #expect(try store.storeResult([UInt8](repeating: 4, count: 500), forKey: "d", groups: []))
        #expect(try tableCount(store) == 2)
        #expect(try store.storeResult([UInt8](repeating: 5, count: 101), forKey: "e", groups: []))
        #expect(try tableCount(store) == 5)
        #expect(try store.cachedResult(forKey: "c") == [UInt8](repeating: 3, count: 400))
    }

    @Test func aRowThatFailsIsSkippedAndTheRestOfTheBatchCommits() throws {
        let reported = ReportedLines()
        let store = try openStore(":memory:", cacheWriteBehind: 2, report: reported.append)
        try limitRowLength(store, to: 1_000)
        #expect(try store.storeResult(bytes("a"), forKey: "a", groups: []))
        #expect(try store.storeResult(bytes("b"), forKey: "b", groups: []))
        // The third store writes the batch; its own row is the one that fails: not stored.
        #expect(try store.storeResult([UInt8](repeating: 0x42, count: 2_000), forKey: "big", groups: []) == false)
        #expect(try tableCount(store) == 2)
        #expect(try store.cachedResult(forKey: "a") == bytes("a"))
        #expect(try store.cachedResult(forKey: "b") == bytes("b"))
        #expect(try store.cachedResult(forKey: "big") == nil)
        #expect(try store.skippedCacheWrites() == 1)
        #expect(reported.lines.count == 1)
        #expect(reported.lines.first?.hasPrefix("layoutd: a cached result of 2000 bytes (key big) could not be written") == true)
        // The next batch is unaffected.
        #expect(try store.storeResult(bytes("c"), forKey: "c", groups: []))
        #expect(try store.cacheCount() == 3)
        #expect(reported.lines.count == 1)
    }

    @Test func aFailingRowKeepsTheEntryItWouldHaveReplaced() throws {
        let store = try openStore(":memory:", cacheWriteBehind: 0, report: { _ in })
        #expect(try store.storeResult(bytes("old"), forKey: "k", groups: []))
        try limitRowLength(store, to: 1_000)
        #expect(try store.storeResult([UInt8](repeating: 0x42, count: 2_000), forKey: "k", groups: []) == false)
        #expect(try store.cachedResult(forKey: "k") == bytes("old"))
        #expect(try store.cacheCount() == 1)
    }

    /// The new-user report: A, an oversized result, B, then a clean shutdown; after the
    /// restart A and B must be there.
    @Test func closeWritesTheBatchAroundARowThatFails() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let reported = ReportedLines()
        do {
            let store = try openStore(path, cacheWriteBehind: 64, report: reported.append)
            try limitRowLength(store, to: 1_000)
            _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
            #expect(try store.storeResult(bytes("A"), forKey: "A", groups: [GroupVersion(name: "card", version: 1)]))
            #expect(try store.storeResult([UInt8](repeating: 0x42, count: 5_000), forKey: "huge", groups: []))
            #expect(try store.storeResult(bytes("B"), forKey: "B", groups: []))
            #expect(try tableCount(store) == 0)
            store.close()
        }
        #expect(reported.lines.count == 1)
        let store = try openStore(path)
        #expect(try store.cachedResult(forKey: "A") == bytes("A"))
        #expect(try store.cachedResult(forKey: "B") == bytes("B"))
        #expect(try store.cachedResult(forKey: "huge") == nil)
        #expect(try store.cacheCount() == 2)
        // A's group link was written with it: replacing the group deletes it.
        _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(try store.cachedResult(forKey: "A") == nil)
        #expect(try store.cacheCount() == 1)
    }
}
