import Testing
@testable import LayoutStore

/// ``StoredBytes``: the counting rule in Swift and the SQL derived from it for each
/// database count the same bytes for the same rows.
@Suite struct StoredBytesTests {
    /// Versions of "s" whose payloads (1 + constraints + 2 + 20 bytes) sit on each side of
    /// the rule's edges (900, one page, two pages), with text of 2- and 4-byte UTF-8
    /// characters; version numbers 1, 2, 3… in that order.
    static func samples() -> [StoredGroup] {
        let sizes = [29, 900, 901, 4_096, 4_097, 8_193]
        var constraints = sizes.map { String(repeating: "x", count: $0 - 23) }
        constraints += [#"["é"]"#, "[\"" + String(repeating: "😀", count: 300) + "\"]"]
        return constraints.enumerated().map { index, text in
            StoredGroup(name: "s", version: index + 1, constraintsJSON: text, metricsJSON: "{}",
                        updatedAt: Timestamp.format(epochSeconds: 1_796_047_500 + Int64(index)))
        }
    }

    /// What Swift counts for each sample, from the rule's constants by hand: p + 128 up to
    /// 900 bytes, else whole pages and one more.
    @Test func swiftCountsTheSamplesAsTheRuleSays() {
        #expect(Self.samples().map { StoredBytes.count(payload: $0.payloadBytes) }
                == [157, 1_028, 8_192, 8_192, 12_288, 16_384, 128 + 1 + 6 + 2 + 20, 4_096 + 4_096])
    }

    @Test(arguments: GroupBackend.available)
    func sqlAndSwiftCountTheSameRows(_ backend: GroupBackend) throws {
        let samples = Self.samples()
        let opened = try OpenedGroupStore(backend, maxGroupVersions: samples.count)
        #expect(try !opened.store.importGroup(name: "s", versions: samples, replace: false))
        let sqlCount: (String) throws -> Int
        switch backend {
        case .sqlite:
            let store = try #require(opened.store as? SQLiteStore)
            sqlCount = { condition in
                try store.withConnection { (connection) throws(StoreError) -> Int in
                    try mapped { () throws(SQLiteError) -> Int in
                        try connection.scalarInt(StoredGroup.storedBytesSQL(.sqlite, where: condition))
                    }
                }
            }
        case .postgreSQL:
            let store = try #require(opened.store as? PostgreSQLGroupStore)
            sqlCount = { condition in
                try store.pool.withConnection { (connection) throws(PostgreSQLError) -> Int in
                    try connection.query(StoredGroup.storedBytesSQL(.postgreSQL, where: condition)).first?.int(0) ?? -1
                }
            }
        }
        for sample in samples {
            #expect(try sqlCount("version = \(sample.version)") == StoredBytes.count(payload: sample.payloadBytes),
                    "version \(sample.version)")
        }
        let total = samples.reduce(0) { $0 + StoredBytes.count(payload: $1.payloadBytes) }
        #expect(try sqlCount("version > 0") == total)
        #expect(try sqlCount("version < 0") == 0)
        #expect(try opened.store.groupBytes() == total)
    }
}
