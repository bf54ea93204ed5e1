import Testing
@testable import LayoutStore

/// The result cache answers a key stored nowhere without a query (its set of key
/// fingerprints); every key it holds must still be found: after writes, evictions, a
/// group write that invalidates, and a reopen.
@Suite struct KeyFingerprintTests {
    @Test func everyKeptKeyIsFoundAndEvictedOnesAreNot() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("fingerprints.db")
        do {
            // Capacity 20 (eviction down to 20), batches of 3: 200 keys make the set of
            // fingerprints outgrow 2 × (20 + 3) and be rebuilt several times.
            let store = try openStore(path, cacheCapacity: 20, cacheWriteBehind: 3)
            for index in 0..<200 {
                try store.storeResult(bytes("body\(index)"), forKey: "key\(index)", groups: [])
            }
            #expect(try store.cacheCount() == 20)
            for index in 0..<180 { #expect(try store.cachedResult(forKey: "key\(index)") == nil, "key\(index)") }
            for index in 180..<200 { #expect(try store.cachedResult(forKey: "key\(index)") == bytes("body\(index)")) }
            #expect(try store.cachedResult(forKey: "never stored") == nil)
            store.close()
        }
        // Reopened: the fingerprints are read from the table.
        let store = try openStore(path, cacheCapacity: 20, cacheWriteBehind: 3)
        for index in 180..<200 { #expect(try store.cachedResult(forKey: "key\(index)") == bytes("body\(index)")) }
        // A group write deletes the entries computed from the group; the rest are found.
        _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        try store.storeResult(bytes("from card"), forKey: "with-card", groups: [GroupVersion(name: "card", version: 1)])
        #expect(try store.cachedResult(forKey: "with-card") == bytes("from card"))
        _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false)
        #expect(try store.cachedResult(forKey: "with-card") == nil)
        for index in 181..<200 { #expect(try store.cachedResult(forKey: "key\(index)") == bytes("body\(index)")) }
        try store.storeResult(bytes("again"), forKey: "with-card", groups: [])
        #expect(try store.cachedResult(forKey: "with-card") == bytes("again"))
    }

    @Test func fingerprintIsFNV1a() {
        // FNV-1a 64 test vectors (Fowler–Noll–Vo reference): "" and "a".
        #expect(ResultCache.fingerprint("") == 0xcbf2_9ce4_8422_2325)
        #expect(ResultCache.fingerprint("a") == 0xaf63_dc4c_8601_ec8c)
    }
}
