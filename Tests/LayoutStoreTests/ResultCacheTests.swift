import Foundation
import Testing
@testable import LayoutStore

@Suite struct ResultCacheTests {
    @Test func roundTripAndMiss() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.file("db.sqlite"))
        let body: [UInt8] = bytes("{\"frames\":{\"a\":[0,0,10,20]}}") + [0, 255, 10]
        #expect(try store.cachedResult(forKey: "abc") == nil)
        #expect(try store.storeResult(body, forKey: "abc", groups: []))
        #expect(try store.cachedResult(forKey: "abc") == body)
        #expect(try store.cachedResult(forKey: "abd") == nil)
        #expect(try store.cacheCount() == 1)
    }

    @Test func emptyBodyIsStoredAsEmptyNotMissing() throws {
        let store = try openStore(":memory:")
        try store.storeResult([], forKey: "k", groups: [])
        #expect(try store.cachedResult(forKey: "k") == [])
    }

    @Test func storingAgainReplacesTheBody() throws {
        let store = try openStore(":memory:")
        try store.storeResult(bytes("one"), forKey: "k", groups: [])
        try store.storeResult(bytes("two"), forKey: "k", groups: [])
        #expect(try store.cachedResult(forKey: "k") == bytes("two"))
        #expect(try store.cacheCount() == 1)
    }

    @Test func leastRecentlyUsedIsEvictedFirst() throws {
        let store = try openStore(":memory:", cacheCapacity: 3)
        for key in ["a", "b", "c"] {
            try store.storeResult(bytes(key), forKey: key, groups: [])
        }
        // Touch "a": now "b" is the least recently used.
        #expect(try store.cachedResult(forKey: "a") == bytes("a"))
        try store.storeResult(bytes("d"), forKey: "d", groups: [])
        #expect(try store.cacheCount() == 3)
        #expect(try store.cachedResult(forKey: "b") == nil)
        // Order of use now: c, d, a (oldest first)… then a and d are touched again.
        #expect(try store.cachedResult(forKey: "a") == bytes("a"))
        #expect(try store.cachedResult(forKey: "d") == bytes("d"))
        try store.storeResult(bytes("e"), forKey: "e", groups: [])
        #expect(try store.cachedResult(forKey: "c") == nil)
        #expect(try store.cachedResult(forKey: "a") == bytes("a"))
        #expect(try store.cachedResult(forKey: "d") == bytes("d"))
        #expect(try store.cachedResult(forKey: "e") == bytes("e"))
    }

    @Test func recencySurvivesReopen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        do {
            let store = try openStore(path, cacheCapacity: 2)
            try store.storeResult(bytes("a"), forKey: "a", groups: [])
            try store.storeResult(bytes("b"), forKey: "b", groups: [])
            _ = try store.cachedResult(forKey: "a")  // pending recency, written at close
            store.close()
        }
        let store = try openStore(path, cacheCapacity: 2)
        try store.storeResult(bytes("c"), forKey: "c", groups: [])
        #expect(try store.cachedResult(forKey: "b") == nil)
        #expect(try store.cachedResult(forKey: "a") == bytes("a"))
    }

    @Test func capacityIsNeverExceededAndEvictionIsBatched() throws {
        // Capacity 300 → eviction batch 3: the 301st insert evicts down to 297.
        let store = try openStore(":memory:", cacheCapacity: 300)
        var counts: [Int] = []
        for index in 0..<305 {
            try store.storeResult(bytes("\(index)"), forKey: "key\(index)", groups: [])
            counts.append(try store.cacheCount())
            #expect(counts.last! <= 300)
        }
        #expect(counts[299] == 300)
        #expect(counts[300] == 297)
        #expect(Array(counts[301...]) == [298, 299, 300, 297])
        // The four oldest (key0…key3) went first, then key4…key7 at the second eviction.
        for index in 0..<8 {
            #expect(try store.cachedResult(forKey: "key\(index)") == nil)
        }
        #expect(try store.cachedResult(forKey: "key8") == bytes("8"))
        #expect(try store.cachedResult(forKey: "key304") == bytes("304"))
    }

    @Test func zeroCapacityStoresNothing() throws {
        let store = try openStore(":memory:", cacheCapacity: 0)
        #expect(try store.storeResult(bytes("x"), forKey: "k", groups: []) == false)
        #expect(try store.cachedResult(forKey: "k") == nil)
    }

    @Test func clearCacheRemovesEverything() throws {
        let store = try openStore(":memory:")
        _ = try store.putGroup(name: "g", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        try store.storeResult(bytes("1"), forKey: "k1", groups: [GroupVersion(name: "g", version: 1)])
        try store.storeResult(bytes("2"), forKey: "k2", groups: [])
        try store.clearCache()
        #expect(try store.cacheCount() == 0)
        #expect(try store.cachedResult(forKey: "k1") == nil)
        let links = try store.withConnection { (connection) throws(StoreError) -> Int in
            try mapped { () throws(SQLiteError) -> Int in try connection.scalarInt("SELECT count(*) FROM cached_result_groups") }
        }
        #expect(links == 0)
    }

    @Test func replacingAGroupDeletesResultsThatUsedItAcrossReopen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        do {
            let store = try openStore(path)
            _ = try store.putGroup(name: "card", constraintsJSON: "[\"a.width == 10\"]", metricsJSON: "{}",
                                   ifMatch: nil, ifNoneMatchAny: false)
            _ = try store.putGroup(name: "other", constraintsJSON: "[]", metricsJSON: "{}",
                                   ifMatch: nil, ifNoneMatchAny: false)
            try store.storeResult(bytes("uses card"), forKey: "k1", groups: [GroupVersion(name: "card", version: 1)])
            try store.storeResult(bytes("uses both"), forKey: "k2",
                                  groups: [GroupVersion(name: "other", version: 1), GroupVersion(name: "card", version: 1)])
            try store.storeResult(bytes("uses other"), forKey: "k3", groups: [GroupVersion(name: "other", version: 1)])
            try store.storeResult(bytes("uses none"), forKey: "k4", groups: [])
            store.close()
        }
        do {
            let store = try openStore(path)
            let (group, created) = try store.putGroup(name: "card", constraintsJSON: "[\"a.width == 20\"]",
                                                      metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false)
            #expect(group.version == 2)
            #expect(!created)
            store.close()
        }
        let store = try openStore(path)
        #expect(try store.cachedResult(forKey: "k1") == nil)
        #expect(try store.cachedResult(forKey: "k2") == nil)
        #expect(try store.cachedResult(forKey: "k3") == bytes("uses other"))
        #expect(try store.cachedResult(forKey: "k4") == bytes("uses none"))
        #expect(try store.cacheCount() == 2)
    }

    @Test func deletingAGroupDeletesResultsThatUsedIt() throws {
        let store = try openStore(":memory:")
        _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        try store.storeResult(bytes("r"), forKey: "k", groups: [GroupVersion(name: "card", version: 1)])
        try store.storeResult(bytes("s"), forKey: "s", groups: [])
        #expect(try store.deleteGroup(named: "card"))
        #expect(try store.cachedResult(forKey: "k") == nil)
        #expect(try store.cacheCount() == 1)
    }

    @Test func resultOfAVanishedGroupVersionIsNotStored() throws {
        let store = try openStore(":memory:")
        _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(try store.deleteGroup(named: "card"))
        // A solve that read version 1 before the delete finishes afterwards.
        #expect(try store.storeResult(bytes("stale"), forKey: "k", groups: [GroupVersion(name: "card", version: 1)]) == false)
        #expect(try store.cachedResult(forKey: "k") == nil)
        #expect(try store.storeResult(bytes("x"), forKey: "k", groups: [GroupVersion(name: "never", version: 1)]) == false)
        #expect(try store.cacheCount() == 0)
    }

    @Test func resultPinnedToAnOlderExistingVersionIsStored() throws {
        let store = try openStore(":memory:")
        _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        _ = try store.putGroup(name: "card", constraintsJSON: "[2]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(try store.storeResult(bytes("pinned"), forKey: "k", groups: [GroupVersion(name: "card", version: 1)]))
        #expect(try store.cachedResult(forKey: "k") == bytes("pinned"))
    }
}
