import Testing
@testable import LayoutStore

/// The groups' byte bound: `maxGroupBytes` over ``StoredBytes/count(payload:)``.
///
/// Sizes used below, with ``fixedClock``'s `updatedAt` "2026-12-01T14:05:09Z" (20 bytes):
/// a version of "card" (4) with constraints "[1]" (3) and metrics "{}" (2) has a payload
/// of 4 + 3 + 2 + 20 = 29 bytes and counts 29 + 128 = 157.
@Suite struct GroupBytesTests {
    private static let small = 157

    private func put(_ store: SQLiteStore, _ name: String, _ constraints: String = "[1]") throws(StoreError) -> Int {
        try store.putGroup(name: name, constraintsJSON: constraints, metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
            .group.version
    }

    @Test func fixedClockIsTwentyBytes() {
        #expect(fixedClock().utf8.count == 20)
    }

    @Test func storedBytesCountsRowsInAPageAndWholeOverflowPages() {
        #expect(StoredBytes.count(payload: 0) == 128)
        #expect(StoredBytes.count(payload: 900) == 1_028)
        #expect(StoredBytes.count(payload: 901) == 8_192)
        #expect(StoredBytes.count(payload: 4_096) == 8_192)
        #expect(StoredBytes.count(payload: 4_097) == 12_288)
        #expect(StoredBytes.count(payload: 1 << 20) == (1 << 20) + 4_096)
    }

    @Test func aVersionThatReachesTheBoundExactlyIsStored() throws {
        let store = try openStore(":memory:", maxGroupBytes: 2 * Self.small)
        #expect(try put(store, "card") == 1)
        #expect(try store.groupBytes() == 157)
        #expect(try put(store, "deck") == 1)
        #expect(try store.groupBytes() == 314)
        // Full: a third group is refused, and so is a new version of one (nothing to prune).
        #expect(throws: StoreError.limitExceeded(
            "maxGroupBytes (314 bytes of stored group versions; 314 are stored, this version needs 157): raise it with --max-group-bytes"
        )) {
            try put(store, "dial")
        }
        #expect(throws: StoreError.self) { try put(store, "card") }
        #expect(try store.groupBytes() == 314)
        #expect(try store.group(named: "dial") == nil)
        #expect(try store.versions(ofGroup: "card")?.map(\.version) == [1])
    }

    @Test func oneByteMoreIsRefusedAndNothingChanges() throws {
        let store = try openStore(":memory:", maxGroupBytes: 2 * Self.small - 1)
        #expect(try put(store, "card") == 1)
        try store.storeResult(bytes("uses card"), forKey: "k", groups: [GroupVersion(name: "card", version: 1)])
        #expect(throws: StoreError.limitExceeded(
            "maxGroupBytes (313 bytes of stored group versions; 157 are stored, this version needs 157): raise it with --max-group-bytes"
        )) {
            try put(store, "deck")
        }
        #expect(throws: StoreError.self) { try put(store, "card", "[2]") }
        #expect(try store.groupBytes() == 157)
        #expect(try store.groups().map(\.name) == ["card"])
        #expect(try store.group(named: "card")?.constraintsJSON == "[1]")
        // The refused write's transaction was rolled back: the cached result is still there.
        #expect(try store.cachedResult(forKey: "k") == bytes("uses card"))
        // The refused version number was not used.
        #expect(try put(store, "card", "[]") == 2)
    }

    @Test func replacingAGroupFreesItsPrunedVersionsBytes() throws {
        // One version kept: each write prunes the previous one in its transaction, so a
        // bound of one version's bytes is enough for any number of writes.
        let store = try openStore(":memory:", maxGroupVersions: 1, maxGroupBytes: Self.small)
        for version in 1...5 {
            #expect(try put(store, "card", "[\(version)]") == version)
            #expect(try store.groupBytes() == 157)
        }
        // Two kept: the third write frees version 1's 157 bytes and needs 156 ("[]").
        let two = try openStore(":memory:", maxGroupVersions: 2, maxGroupBytes: 2 * Self.small)
        #expect(try put(two, "card") == 1)
        #expect(try put(two, "card") == 2)
        #expect(try two.groupBytes() == 314)
        #expect(try put(two, "card", "[]") == 3)
        #expect(try two.groupBytes() == 313)
        #expect(try two.versions(ofGroup: "card")?.map(\.version) == [2, 3])
        // Freeing 157 and needing 159 ("[100]") passes the bound by one byte.
        #expect(throws: StoreError.limitExceeded(
            "maxGroupBytes (314 bytes of stored group versions; 313 are stored, this version needs 159 and its write frees 157): raise it with --max-group-bytes"
        )) {
            try put(two, "card", "[100]")
        }
        #expect(try two.groupBytes() == 313)
        #expect(try two.versions(ofGroup: "card")?.map(\.version) == [2, 3])
    }

    @Test func deleteFreesTheBytes() throws {
        let store = try openStore(":memory:", maxGroupVersions: 3, maxGroupBytes: 3 * Self.small)
        #expect(try put(store, "card") == 1)
        #expect(try put(store, "card") == 2)
        #expect(try put(store, "deck") == 1)
        #expect(try store.groupBytes() == 471)
        #expect(throws: StoreError.self) { try put(store, "dial") }
        #expect(try store.deleteGroup(named: "card"))
        #expect(try store.groupBytes() == 157)
        #expect(try put(store, "dial") == 1)
        #expect(try put(store, "dial") == 2)
        #expect(try store.groupBytes() == 471)
        #expect(try store.deleteGroup(named: "deck"))
        #expect(try store.deleteGroup(named: "dial"))
        #expect(try store.groupBytes() == 0)
    }

    /// The maintained total equals the same formula summed over the table in SQL, for
    /// payloads on both sides of the 900-byte and page boundaries, after reopening, and
    /// when the migration computes it for a file written before the bound existed.
    @Test func totalSurvivesAReopenAndTheMigrationComputesTheSameTotal() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        // Payload = 4 (name) + constraints + 2 + 20: 874 + 26 = 900 → 1,028;
        // 875 + 26 = 901 → 8,192; 4,070 + 26 = 4,096 → 8,192; 10,000 + 26 → 16,384;
        // the 157 of "[1]"; "\"héllo\"" is 8 bytes (7 characters): 8 + 26 = 34 → 162.
        let sizes = [874, 875, 4_070, 10_000]
        let expected = 1_028 + 8_192 + 8_192 + 16_384 + 157 + 162
        do {
            let store = try openStore(path, maxGroupVersions: 10)
            for size in sizes {
                _ = try put(store, "card", "[\"" + String(repeating: "x", count: size - 4) + "\"]")
            }
            _ = try put(store, "deck")
            _ = try put(store, "dial", "\"héllo\"")
            #expect(try store.groupBytes() == expected)
            let recomputed = try store.withConnection { (connection) throws(StoreError) -> Int in
                try mapped { () throws(SQLiteError) -> Int in
                    try connection.scalarInt(StoredGroup.storedBytesSQL(.sqlite, where: "1"))
                }
            }
            #expect(recomputed == expected)
            store.close()
        }
        do {
            let reopened = try openStore(path, maxGroupVersions: 10)
            #expect(try reopened.groupBytes() == expected)
            // Back to schema version 2, as a build before the bound left the file.
            try reopened.withConnection { (connection) throws(StoreError) in
                try mapped { () throws(SQLiteError) in
                    try connection.execute("DROP TABLE group_bytes")
                    // Schema version 4's font tables, which a version-2 file has not either.
                    for table in ["font_versions", "font_names", "font_version_floor", "font_bytes"] {
                        try connection.execute("DROP TABLE \(table)")
                    }
                    try connection.execute("PRAGMA user_version = 2")
                }
            }
            reopened.close()
        }
        let migrated = try openStore(path, maxGroupVersions: 10)
        #expect(try migrated.groupBytes() == expected)
        #expect(try migrated.deleteGroup(named: "card"))
        #expect(try migrated.groupBytes() == 157 + 162)
    }
}
