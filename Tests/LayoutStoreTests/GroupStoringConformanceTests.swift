import Foundation
import Testing
@testable import LayoutStore

/// A backend of ``GroupStoring`` under test.
enum GroupBackend: String, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgreSQL

    var testDescription: String { rawValue }

    /// SQLite always; PostgreSQL when `LAYOUTD_TEST_PG_URL` names a server.
    static var available: [GroupBackend] { PostgreSQLTestServer.isAvailable ? [.sqlite, .postgreSQL] : [.sqlite] }
}

/// A store of one backend with what keeps it alive (the SQLite file's folder, the
/// PostgreSQL test database), released together.
final class OpenedGroupStore {
    let store: any GroupStoring
    private let keep: AnyObject

    init(_ backend: GroupBackend, maxGroups: Int = 10_000, maxGroupVersions: Int = 100, maxDeletedNames: Int? = nil,
         maxGroupBytes: Int = 64 << 20) throws {
        switch backend {
        case .sqlite:
            let directory = TemporaryDirectory()
            keep = directory
            store = try SQLiteStore(path: directory.file("groups.db"), cacheCapacity: 100, busyTimeout: 5, maxGroups: maxGroups,
                                    readOnly: false, cacheWriteBehind: 0, maxGroupVersions: maxGroupVersions,
                                    maxDeletedNames: maxDeletedNames, maxGroupBytes: maxGroupBytes, now: Timestamp.now)
        case .postgreSQL:
            let database = try PostgreSQLTestDatabase()
            keep = database
            try PostgreSQLSchema.migrate(database.connect())
            let pool = PostgreSQLConnectionPool(configuration: database.configuration, size: 2, acquireTimeout: 30)
            store = PostgreSQLGroupStore(pool: pool, maxGroups: maxGroups, maxGroupVersions: maxGroupVersions,
                                         maxDeletedNames: maxDeletedNames, maxGroupBytes: maxGroupBytes)
        }
    }

    /// Writes `name` unconditionally and returns the version.
    @discardableResult
    func put(_ name: String, _ constraints: String = "[]", metrics: String = "{}") throws -> Int {
        try store.putGroup(name: name, constraintsJSON: constraints, metricsJSON: metrics, ifMatch: nil, ifNoneMatchAny: false).group.version
    }
}

/// The thrown store error of `body`, or `nil` if it returned (or threw anything else).
func storeError(_ body: () throws -> Void) -> StoreError? {
    do {
        try body()
        return nil
    } catch {
        return error as? StoreError
    }
}

/// ``GroupStoring``'s contract, the same test for each backend (SQLite always, PostgreSQL
/// with `LAYOUTD_TEST_PG_URL`; test.sh runs the unit step inside scripts/pg-test-cluster.sh).
@Suite("Group store conformance")
struct GroupStoringConformanceTests {
    @Test(arguments: GroupBackend.available)
    func preconditionsAndVersions(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend)
        let store = opened.store
        let created = try store.putGroup(name: "row", constraintsJSON: #"["H:|[a]|"]"#, metricsJSON: #"{"pad":12}"#,
                                         ifMatch: nil, ifNoneMatchAny: true)
        #expect(created.created && created.group.version == 1)
        #expect(storeError { _ = try store.putGroup(name: "row", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: true) }
                == .preconditionFailed(current: 1))
        #expect(storeError { _ = try store.putGroup(name: "row", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: 7, ifNoneMatchAny: false) }
                == .preconditionFailed(current: 1))
        #expect(storeError { _ = try store.putGroup(name: "none", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false) }
                == .preconditionFailed(current: nil))
        let replaced = try store.putGroup(name: "row", constraintsJSON: "[]", metricsJSON: #"{"pad":40}"#, ifMatch: 1, ifNoneMatchAny: false)
        #expect(!replaced.created && replaced.group.version == 2)
        #expect(try store.group(named: "row") == replaced.group)
        #expect(try store.group(named: "row", version: 1)?.metricsJSON == #"{"pad":12}"#)
        #expect(try store.group(named: "none") == nil)
        // Deleted: the numbers stay used.
        #expect(try store.deleteGroup(named: "row"))
        #expect(try !store.deleteGroup(named: "row"))
        #expect(try store.group(named: "row", version: 2) == nil)
        #expect(try opened.put("row") == 3)
        #expect(try store.groups().map { "\($0.name)@\($0.version)" } == ["row@3"])
    }

    /// A delete checks `If-Match` and `If-None-Match: *` in its own transaction (RFC 9110
    /// §13.1.2: `*` fails a DELETE of an existing group; for an absent one it holds and the
    /// delete finds nothing). A refused delete changes nothing.
    @Test(arguments: GroupBackend.available)
    func deletePreconditionsAreCheckedInTheTransaction(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend)
        let store = opened.store
        try opened.put("row")
        try opened.put("row")
        #expect(storeError { _ = try store.deleteGroup(named: "row", ifMatch: nil, ifNoneMatchAny: true) }
                == .preconditionFailed(current: 2))
        #expect(storeError { _ = try store.deleteGroup(named: "row", ifMatch: 1, ifNoneMatchAny: false) }
                == .preconditionFailed(current: 2))
        #expect(storeError { _ = try store.deleteGroup(named: "none", ifMatch: 1, ifNoneMatchAny: false) }
                == .preconditionFailed(current: nil))
        #expect(try store.group(named: "row")?.version == 2)
        #expect(try store.groups().map(\.name) == ["row"])
        #expect(try store.deleteGroup(named: "none", ifMatch: nil, ifNoneMatchAny: true) == false)
        #expect(try store.deleteGroup(named: "row", ifMatch: 2, ifNoneMatchAny: false))
        #expect(try store.group(named: "row") == nil)
    }

    @Test(arguments: GroupBackend.available)
    func updatedAtIsTheDatabasesClockToTheSecond(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend)
        let before = Int64(Date().timeIntervalSince1970)
        let group = try opened.store.putGroup(name: "g", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false).group
        let after = Int64(Date().timeIntervalSince1970)
        // RFC 3339 UTC to the second, within the write's own second range.
        #expect(group.updatedAt.utf8.count == 20 && group.updatedAt.hasSuffix("Z"))
        #expect((before...after).map { Timestamp.format(epochSeconds: $0) }.contains(group.updatedAt))
        #expect(try opened.store.groups().first?.updatedAt == group.updatedAt)
    }

    @Test(arguments: GroupBackend.available)
    func namesSortInByteOrder(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend)
        for name in ["b", "a-1", "Row", "row", "a.2", "A", "_"] { try opened.put(name) }
        #expect(try opened.store.groups().map(\.name) == ["A", "Row", "_", "a-1", "a.2", "b", "row"])
        #expect(try opened.store.groupCount() == 7)
    }

    @Test(arguments: GroupBackend.available)
    func groupCountLimitIsExactAndADeleteMakesRoom(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend, maxGroups: 2)
        try opened.put("a")
        try opened.put("b")
        #expect(try opened.put("a") == 2)  // replacing is not creating
        #expect(storeError { _ = try opened.store.putGroup(name: "c", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false) }
                == .limitExceeded("maxGroups (2 groups): raise it with --max-groups"))
        #expect(try opened.store.deleteGroup(named: "b"))
        #expect(try opened.put("c") == 1)
        #expect(try opened.store.groupCount() == 2)
    }

    @Test(arguments: GroupBackend.available)
    func historyIsPrunedAndAPrunedVersionIsToldFromANeverWrittenOne(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend, maxGroupVersions: 3)
        for index in 1...7 { try opened.put("g", #"["H:[a(\#(index))]"]"#) }
        #expect(try opened.store.versions(ofGroup: "g", after: 0, limit: 100)?.versions.map(\.version) == [5, 6, 7])
        #expect(try opened.store.group(named: "g", version: 4) == nil)
        #expect(try opened.store.prunedVersion(ofGroup: "g", version: 4) == 5)
        #expect(try opened.store.prunedVersion(ofGroup: "g", version: 1) == 5)
        #expect(try opened.store.prunedVersion(ofGroup: "g", version: 5) == nil)  // kept
        #expect(try opened.store.prunedVersion(ofGroup: "g", version: 8) == nil)  // never written
        // After a delete, the old life's versions are not "pruned": they never existed in this one.
        #expect(try opened.store.deleteGroup(named: "g"))
        #expect(try opened.put("g") == 8)
        #expect(try opened.store.prunedVersion(ofGroup: "g", version: 6) == nil)
        #expect(try opened.store.prunedVersion(ofGroup: "missing", version: 1) == nil)
    }

    @Test(arguments: GroupBackend.available)
    func versionsArePaged(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend)
        for _ in 1...5 { try opened.put("p") }
        let first = try #require(try opened.store.versions(ofGroup: "p", after: 0, limit: 2))
        #expect(first.versions.map(\.version) == [1, 2] && first.hasMore)
        let last = try #require(try opened.store.versions(ofGroup: "p", after: 4, limit: 2))
        #expect(last.versions.map(\.version) == [5] && !last.hasMore)
        #expect(try opened.store.versions(ofGroup: "p", after: 5, limit: 2) == GroupVersionPage(versions: [], hasMore: false))
        #expect(try opened.store.versions(ofGroup: "missing", after: 0, limit: 2) == nil)
    }

    @Test(arguments: GroupBackend.available)
    func groupBytesCountTheSame(_ backend: GroupBackend) throws {
        // name 1 + constraints 2 + metrics 2 + updatedAt 20 = 25 → 153; 1,000 bytes of
        // constraints: p = 1,023 → 4,096 + 4,096 = 8,192.
        let big = "[" + String(repeating: " ", count: 998) + "]"
        let opened = try OpenedGroupStore(backend, maxGroupVersions: 2, maxGroupBytes: 153 + 8_192 + 153)
        try opened.put("a")
        #expect(try opened.store.groupBytes() == 153)
        try opened.put("b", big)
        #expect(try opened.store.groupBytes() == 153 + 8_192)
        try opened.put("a")
        #expect(try opened.store.groupBytes() == 153 + 8_192 + 153)
        // At the bound exactly; one more tiny version of "c" is refused, nothing changes.
        #expect(storeError { _ = try opened.store.putGroup(name: "c", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false) }
                == .limitExceeded("maxGroupBytes (8498 bytes of stored group versions; 8498 are stored, this version needs 153): raise it with --max-group-bytes"))
        #expect(try opened.store.group(named: "c") == nil)
        // A third version of "a" prunes its first: it frees what it adds.
        #expect(try opened.put("a") == 3)
        #expect(try opened.store.groupBytes() == 153 + 8_192 + 153)
        #expect(try opened.store.deleteGroup(named: "b"))
        #expect(try opened.store.groupBytes() == 306)
        // Non-ASCII names and text count UTF-8 bytes: "é" is 2.
        try opened.put("c", #"["é"]"#)
        #expect(try opened.store.groupBytes() == 306 + 128 + 1 + 6 + 2 + 20)
    }

    @Test(arguments: GroupBackend.available)
    func deletedNamesMarksAreBoundedAndVersionsNeverReused(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend, maxDeletedNames: 2)
        // Marks 1, 2, 3 for a, b, c.
        try opened.put("a")
        for _ in 1...2 { try opened.put("b") }
        for _ in 1...3 { try opened.put("c") }
        for name in ["a", "b", "c"] { #expect(try opened.store.deleteGroup(named: name)) }
        // "a" (mark 1, the lowest) was dropped; the floor is 1, so "a" and a new name start at 2.
        #expect(try opened.put("a") == 2)
        #expect(try opened.put("new") == 2)
        #expect(try opened.put("b") == 3)
        #expect(try opened.put("c") == 4)
    }

    @Test(arguments: GroupBackend.available)
    func importKeepsNumbersAndTimesAndNeverReusesOne(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend, maxGroupVersions: 2)
        let store = opened.store
        func versions(_ numbers: ClosedRange<Int>) -> [StoredGroup] {
            numbers.map { StoredGroup(name: "g", version: $0, constraintsJSON: #"["H:[a(\#($0))]"]"#, metricsJSON: "{}",
                                      updatedAt: Timestamp.format(epochSeconds: 1_796_047_500 + Int64($0))) }
        }
        #expect(try !store.importGroup(name: "g", versions: versions(3...5), replace: false))
        #expect(try store.versions(ofGroup: "g", after: 0, limit: 10)?.versions
                == versions(4...5).map { GroupVersionInfo(version: $0.version, updatedAt: $0.updatedAt) })
        #expect(try store.group(named: "g") == versions(5...5)[0])
        #expect(try store.prunedVersion(ofGroup: "g", version: 3) == 4)
        #expect(try store.groupBytes() == versions(4...5).reduce(0) { $0 + StoredBytes.count(payload: $1.payloadBytes) })
        #expect(storeError { try store.importGroup(name: "g", versions: versions(6...6), replace: false) } == .preconditionFailed(current: 5))
        #expect(storeError { try store.importGroup(name: "g", versions: versions(5...6), replace: true) }
                == .limitExceeded("version numbers are never reused: 'g' has had versions up to 5 in this store, so its imported version 5 cannot be written"))
        #expect(try store.importGroup(name: "g", versions: versions(6...7), replace: true))
        #expect(try store.versions(ofGroup: "g", after: 0, limit: 10)?.versions.map(\.version) == [6, 7])
        #expect(try opened.put("g") == 8)
        #expect(try store.groupCount() == 1)
    }

    @Test(arguments: GroupBackend.available)
    func currentVersionsResolvesExistingNamesInOneCall(_ backend: GroupBackend) throws {
        let opened = try OpenedGroupStore(backend)
        try opened.put("a")
        try opened.put("a")
        try opened.put("b")
        try opened.put("gone")
        #expect(try opened.store.deleteGroup(named: "gone"))
        let versions = try opened.store.currentVersions(of: ["a", "b", "gone", "missing", #"odd"name\with,{braces}]"#])
        #expect(versions == ["a": 2, "b": 1])
        #expect(try opened.store.currentVersions(of: []) == [:])
        #expect(opened.store.isReachable())
    }
}

/// ``PostgreSQLGroupStore`` without a server: every call is ``StoreError/unavailable(_:)``
/// (503 with `Retry-After`), never a crash or a 500.
@Suite("PostgreSQL group store without a server")
struct PostgreSQLGroupStoreUnavailableTests {
    @Test func everyCallIsUnavailableAndNotReachable() throws {
        let port = try closedLoopbackPort()
        let url = "postgresql://layoutd@127.0.0.1:\(port)/layoutd"
        guard case .unavailable(let reason) = storeError({ _ = try PostgreSQLGroupStore(url: url, acquireTimeout: 1) }) else {
            Issue.record("opening without a server is not 'unavailable'")
            return
        }
        #expect(reason.contains("127.0.0.1") && reason.contains("\(port)"))
        let store = PostgreSQLGroupStore(pool: PostgreSQLConnectionPool(configuration: .init(url: url), size: 1, acquireTimeout: 1),
                                         maxGroups: 10)
        for call in [
            { _ = try store.putGroup(name: "g", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false) },
            { _ = try store.deleteGroup(named: "g") },
            { _ = try store.group(named: "g") },
            { _ = try store.currentVersions(of: ["g"]) },
            { _ = try store.groups() },
        ] as [() throws -> Void] {
            guard case .unavailable = storeError(call) else {
                Issue.record("a call without a server is not 'unavailable'")
                continue
            }
        }
        #expect(!store.isReachable())
    }
}
