import Foundation
import Testing
@testable import LayoutStore

/// The result cache's write-behind buffer: stores are batched, lookups see them at once,
/// group writes invalidate them, close writes them.
@Suite struct WriteBehindTests {
    private func tableCount(_ store: SQLiteStore) throws -> Int {
        try store.withConnection { (connection) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try connection.scalarInt("SELECT count(*) FROM cached_results") }
        }
    }

    @Test func storesAreBufferedUntilTheBatchIsFull() throws {
        let store = try openStore(":memory:", cacheWriteBehind: 4)
        for index in 0..<4 {
            #expect(try store.storeResult(bytes("body\(index)"), forKey: "k\(index)", groups: []))
        }
        #expect(try tableCount(store) == 0)
        #expect(try store.cachedResult(forKey: "k2") == bytes("body2"))
        try store.storeResult(bytes("body4"), forKey: "k4", groups: [])
        #expect(try tableCount(store) == 5)
        #expect(try store.cachedResult(forKey: "k4") == bytes("body4"))
    }

    @Test func aBufferedStoreReplacesAWrittenEntry() throws {
        let store = try openStore(":memory:", cacheWriteBehind: 4)
        try store.storeResult(bytes("old"), forKey: "k", groups: [])
        #expect(try store.cacheCount() == 1)  // writes the buffer
        try store.storeResult(bytes("new"), forKey: "k", groups: [])
        #expect(try store.cachedResult(forKey: "k") == bytes("new"))
        #expect(try store.cacheCount() == 1)
        #expect(try store.cachedResult(forKey: "k") == bytes("new"))
    }

    @Test func groupWriteInvalidatesBufferedEntries() throws {
        let store = try openStore(":memory:", cacheWriteBehind: 64)
        _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        try store.storeResult(bytes("uses card"), forKey: "k1", groups: [GroupVersion(name: "card", version: 1)])
        try store.storeResult(bytes("plain"), forKey: "k2", groups: [])
        _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(try store.cachedResult(forKey: "k1") == nil)
        #expect(try store.cachedResult(forKey: "k2") == bytes("plain"))
        try store.storeResult(bytes("uses card 2"), forKey: "k3", groups: [GroupVersion(name: "card", version: 2)])
        #expect(try store.deleteGroup(named: "card"))
        #expect(try store.cachedResult(forKey: "k3") == nil)
        #expect(try store.cacheCount() == 1)
    }

    @Test func closeWritesTheBuffer() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        do {
            let store = try openStore(path, cacheWriteBehind: 64)
            try store.storeResult(bytes("a"), forKey: "a", groups: [])
            try store.storeResult(bytes("b"), forKey: "b", groups: [])
            store.close()
        }
        let store = try openStore(path)
        #expect(try store.cachedResult(forKey: "a") == bytes("a"))
        #expect(try store.cachedResult(forKey: "b") == bytes("b"))
    }

    @Test func evictionFollowsRecencyAcrossBatches() throws {
        let store = try openStore(":memory:", cacheCapacity: 3, cacheWriteBehind: 2)
        for key in ["a", "b", "c"] {  // the third store writes a, b, c
            try store.storeResult(bytes(key), forKey: key, groups: [])
        }
        #expect(try tableCount(store) == 3)
        #expect(try store.cachedResult(forKey: "a") == bytes("a"))  // a is now newer than b, c
        try store.storeResult(bytes("d"), forKey: "d", groups: [])
        try store.storeResult(bytes("e"), forKey: "e", groups: [])
        #expect(try tableCount(store) == 3)
        // The batch d, e, f makes six rows: the three least recent (b, c, then a) go.
        try store.storeResult(bytes("f"), forKey: "f", groups: [])
        #expect(try tableCount(store) == 3)
        for key in ["a", "b", "c"] {
            #expect(try store.cachedResult(forKey: key) == nil)
        }
        for key in ["d", "e", "f"] {
            #expect(try store.cachedResult(forKey: key) == bytes(key))
        }
    }

    @Test func failedBatchIsDroppedAndReported() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let store = try openStore(path, busyTimeout: 0.02, cacheWriteBehind: 1)
        let other = try SQLiteConnection(path: path, readOnly: false, busyTimeout: 0)
        try other.execute("BEGIN IMMEDIATE")
        try store.storeResult(bytes("a"), forKey: "a", groups: [])
        #expect(throws: StoreError.busy) { try store.storeResult(bytes("b"), forKey: "b", groups: []) }
        try other.execute("ROLLBACK")
        #expect(try store.cachedResult(forKey: "a") == nil)
        #expect(try store.cacheCount() == 0)
    }

    /// While another thread holds the store's queue (as one writing a batch does), a miss
    /// of a key stored nowhere, a store without groups that does not fill the batch, and a
    /// lookup of a buffered entry are answered without waiting for it; a lookup that must
    /// query the table waits.
    @Test func missesAndStoresDoNotWaitForABatchBeingWritten() throws {
        let store = try openStore(":memory:", cacheWriteBehind: 4)
        try store.storeResult(bytes("written"), forKey: "w", groups: [])
        #expect(try store.cacheCount() == 1)   // writes the buffer: "w" is in the table
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread {
            _ = try? store.withConnection { (_) throws(StoreError) in
                holding.signal()
                release.wait()
            }
        }.start()
        holding.wait()
        let answered = DispatchSemaphore(value: 0)
        let results = ReportedLines()
        Thread {
            results.append("\((try? store.cachedResult(forKey: "new")).map { $0.map { _ in "found" } ?? "miss" } ?? "error")")
            results.append("\((try? store.storeResult(bytes("a"), forKey: "a", groups: [])).map(String.init) ?? "error")")
            results.append("\((try? store.cachedResult(forKey: "a")).map { $0.map { String(decoding: $0, as: UTF8.self) } ?? "miss" } ?? "error")")
            answered.signal()
        }.start()
        let inTime = answered.wait(timeout: .now() + 10) == .success
        #expect(inTime, "the calls waited for the queue")
        #expect(results.lines == ["miss", "true", "a"])
        // A key the table may hold waits for the queue.
        let queried = DispatchSemaphore(value: 0)
        Thread {
            _ = try? store.cachedResult(forKey: "w")
            queried.signal()
        }.start()
        #expect(queried.wait(timeout: .now() + 0.2) == .timedOut)
        release.signal()
        #expect(queried.wait(timeout: .now() + 10) == .success)
        if !inTime { #expect(answered.wait(timeout: .now() + 10) == .success) }
        #expect(try store.cacheCount() == 2)
    }
}
