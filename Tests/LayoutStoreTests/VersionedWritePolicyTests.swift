import Testing
@testable import LayoutStore

/// ``VersionedWritePolicy``: the bounds' least values and the messages every backend
/// answers (the stores' own suites hold the rules themselves).
@Suite struct VersionedWritePolicyTests {
    @Test func boundsAreRaisedToTheirLeastValuesAndDeletedNamesDefaultToTheNameBound() {
        let policy = VersionedWritePolicy.groups(maxGroups: -3, maxVersions: 0, maxBytes: -1)
        #expect(policy.maxNames == 0 && policy.maxVersions == 1 && policy.maxBytes == 0 && policy.maxDeletedNames == 0)
        let defaults = VersionedWritePolicy.groups(maxGroups: 7)
        #expect(defaults.maxVersions == 100 && defaults.maxBytes == 67_108_864 && defaults.maxDeletedNames == 7)
    }

    @Test func messagesNameTheBoundAndTheFlagThatRaisesIt() {
        let policy = VersionedWritePolicy.groups(maxGroups: 3, maxBytes: 500)
        #expect(policy.countMessage() == "maxGroups (3 groups): raise it with --max-groups")
        #expect(policy.bytesMessage(total: 400, added: 157, freed: 0)
                == "maxGroupBytes (500 bytes of stored group versions; 400 are stored, this version needs 157): raise it with --max-group-bytes")
        #expect(policy.bytesMessage(total: 400, added: 300, freed: 157)
                == "maxGroupBytes (500 bytes of stored group versions; 400 are stored, this version needs 300 and its write frees 157): raise it with --max-group-bytes")
        #expect(policy.reuseMessage(name: "g", mark: 5, version: 4)
                == "version numbers are never reused: 'g' has had versions up to 5 in this store, so its imported version 4 cannot be written")
    }

    /// A name whose mark is the largest integer gets no next version, and nothing changes.
    @Test func theLastVersionNumberIsALimitNotAnOverflow() throws {
        let store = try openStore(":memory:")
        _ = try store.putGroup(name: "g", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        try store.withConnection { (connection) throws(StoreError) in
            try mapped { () throws(SQLiteError) in
                try connection.execute("UPDATE group_names SET last_version = \(Int.max) WHERE name = 'g'")
            }
        }
        #expect(throws: StoreError.limitExceeded("group version (version numbers end at 9223372036854775807)")) {
            try store.putGroup(name: "g", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        }
        #expect(try store.group(named: "g")?.version == 1)
        #expect(try store.groupBytes() == 1 + 2 + 2 + 20 + 128)
    }
}
