import Foundation
import HTTP1
import LayoutCompiler
@testable import LayoutService
@testable import LayoutStore
import Synchronization
import Testing

/// A group store seen from the outside: counts the round trips the service makes
/// (``currentVersions(of:)`` calls, group reads) and can be taken down, when every call
/// throws ``StoreError/unavailable(_:)`` as ``PostgreSQLGroupStore`` does without its server.
final class ObservedGroupStore: GroupStoring {
    let base: any GroupStoring
    let currentVersionCalls = Atomic<Int>(0)
    let groupReads = Atomic<Int>(0)
    let isDown = Atomic<Bool>(false)
    /// What every call throws while ``isDown``.
    let downError = Mutex<StoreError>(.unavailable("taken down by the test"))

    /// Called at each group read (``group(named:)``, ``group(named:version:)``) before it.
    let onGroupRead = Mutex<(@Sendable () -> Void)?>(nil)

    /// Whether ``changeCount()`` is `base`'s (else `nil`: every check looks up).
    let forwardsChangeCount: Bool

    init(_ base: any GroupStoring, forwardsChangeCount: Bool = false) {
        self.base = base
        self.forwardsChangeCount = forwardsChangeCount
    }

    func changeCount() -> Int64? { forwardsChangeCount ? base.changeCount() : nil }

    var maxGroups: Int { base.maxGroups }
    var maxGroupVersions: Int { base.maxGroupVersions }
    var maxGroupBytes: Int { base.maxGroupBytes }
    /// `true` whatever `base` is: it stands for a server's store, whose lookups the
    /// service coalesces (``VersionResolver``).
    var lookupsAreRoundTrips: Bool { true }
    var isReadOnly: Bool { base.isReadOnly }

    private func check() throws(StoreError) {
        if isDown.load(ordering: .relaxed) { throw downError.withLock { $0 } }
    }

    func putGroup(name: String, constraintsJSON: String, metricsJSON: String, ifMatch: Int?, ifNoneMatchAny: Bool)
        throws(StoreError) -> (group: StoredGroup, created: Bool) {
        try check()
        return try base.putGroup(name: name, constraintsJSON: constraintsJSON, metricsJSON: metricsJSON,
                                 ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny)
    }
    func deleteGroup(named name: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> Bool {
        try check()
        return try base.deleteGroup(named: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny)
    }
    func group(named name: String) throws(StoreError) -> StoredGroup? {
        try check()
        groupReads.add(1, ordering: .relaxed)
        onGroupRead.withLock { $0 }?()
        return try base.group(named: name)
    }
    func group(named name: String, version: Int) throws(StoreError) -> StoredGroup? {
        try check()
        groupReads.add(1, ordering: .relaxed)
        onGroupRead.withLock { $0 }?()
        return try base.group(named: name, version: version)
    }
    func versions(ofGroup name: String, after: Int, limit: Int) throws(StoreError) -> GroupVersionPage? {
        try check(); return try base.versions(ofGroup: name, after: after, limit: limit)
    }
    func prunedVersion(ofGroup name: String, version: Int) throws(StoreError) -> Int? {
        try check(); return try base.prunedVersion(ofGroup: name, version: version)
    }
    func groups() throws(StoreError) -> [GroupSummary] { try check(); return try base.groups() }
    func groupBytes() throws(StoreError) -> Int { try check(); return try base.groupBytes() }
    func groupCount() throws(StoreError) -> Int { try check(); return try base.groupCount() }
    func currentVersions(of names: [String]) throws(StoreError) -> [String: Int] {
        try check()
        currentVersionCalls.add(1, ordering: .relaxed)
        return try base.currentVersions(of: names)
    }
    func importGroup(name: String, versions: [StoredGroup], replace: Bool) throws(StoreError) -> Bool {
        try check(); return try base.importGroup(name: name, versions: versions, replace: replace)
    }
    func versionMarks() throws(StoreError) -> VersionMarks { try check(); return try base.versionMarks() }
    func raiseVersionMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool) {
        try check(); return try base.raiseVersionMarks(marks)
    }
    func isReachable() -> Bool { !isDown.load(ordering: .relaxed) && base.isReachable() }
}

/// Two layoutd processes sharing one group store, as two replicas: each a service with
/// stores of its own (its own SQLite connection to one file, or its own PostgreSQL pool
/// on one database with a result cache in memory), as `serve` builds them.
final class Replicas {
    let first: Router
    let second: Router
    private let cleanup: () -> Void

    init(_ backend: TransferBackend) throws {
        switch backend {
        case .sqlite:
            let path = NSTemporaryDirectory() + "layoutd-replicas-" + UUID().uuidString + ".db"
            let services = try (0..<2).map { _ in
                LayoutService(store: try SQLiteStore(path: path, diskReserveBytes: 0))
            }
            first = services[0].makeRouter()
            second = services[1].makeRouter()
            cleanup = {
                for service in services { service.store.close() }
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        case .postgreSQL:
            let url = try #require(TransferBackend.url)
            let name = "layoutd_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            // An identifier cannot be a parameter; the name is our own hex text.
            try PostgreSQLConnection(.init(url: url)).execute("CREATE DATABASE \(name)")
            let services = try (0..<2).map { _ in
                let groups = PostgreSQLGroupStore(
                    pool: PostgreSQLConnectionPool(configuration: .init(url: url, database: name), size: 2, acquireTimeout: 30),
                    maxGroups: 100, schemaReady: false)
                try groups.migrate()
                return LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: groups)
            }
            first = services[0].makeRouter()
            second = services[1].makeRouter()
            cleanup = { try? PostgreSQLConnection(.init(url: url)).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        }
    }

    deinit { cleanup() }
}

/// Helpers shared by the replica tests.
enum ReplicaRequests {
    static let scene = #"{"container":{"width":200,"height":100},"views":["red"],"constraints":["V:|[red]|"],"groups":["row"]}"#
    static let pinnedScene = #"{"container":{"width":200,"height":100},"views":["red"],"constraints":["V:|[red]|"],"groups":["row@1"]}"#
    static let plainScene = #"{"container":{"width":200,"height":100},"views":["red"],"constraints":["H:|-7-[red]-7-|","V:|[red]|"]}"#

    static func put(_ router: Router, pad: Int, headers: [(String, String)] = []) -> HTTPResponse {
        var fields: HTTPFields = ["Host": "t"]
        for (name, value) in headers { fields.append(name, value) }
        return router.respond(to: HTTPRequest(method: .PUT, target: "/groups/row", headers: fields,
                                              body: Array(#"{"constraints":["H:|-pad-[red]-pad-|"],"metrics":{"pad":\#(pad)}}"#.utf8)))
    }

    static func post(_ router: Router, _ path: String, _ body: String) -> HTTPResponse {
        router.respond(to: HTTPRequest(method: .POST, target: path, headers: ["Host": "t"], body: Array(body.utf8)))
    }

    static func request(_ router: Router, _ method: HTTPMethod, _ path: String) -> HTTPResponse {
        router.respond(to: HTTPRequest(method: method, target: path, headers: ["Host": "t"]))
    }

    /// The width of `red` in a /solve answer, or `nil`.
    static func redWidth(_ response: HTTPResponse) throws -> JSONValue? {
        try JSONParser().parse(response.body)["frames"]?["red"]?["width"]
    }

    /// The `code` of a problem's first diagnostic, or of a verdict's.
    static func firstCode(_ response: HTTPResponse) throws -> JSONValue? {
        try firstCode(JSONParser().parse(response.body))
    }

    static func firstCode(_ json: JSONValue) -> JSONValue? {
        guard case .array(let diagnostics)? = json["diagnostics"], let first = diagnostics.first else { return nil }
        return first["code"]
    }
}

/// Read-your-writes across processes: once one process acknowledged a PUT or
/// DELETE, the other's very next answer for a scene including that group without a
/// version reflects it, though its caches are warm. Against one SQLite file always, and
/// one PostgreSQL database when `LAYOUTD_TEST_PG_URL` names a server.
@Suite("replicas: read-your-writes")
struct ReplicaReadYourWritesTests {
    typealias R = ReplicaRequests

    @Test(arguments: TransferBackend.available)
    func aWriteThroughOneIsSeenByTheOthersNextRequest(_ backend: TransferBackend) throws {
        let replicas = try Replicas(backend)
        let (a, b) = (replicas.first, replicas.second)
        #expect(R.put(a, pad: 12).status == 201)
        // B's caches warm: the second answer is a front cache hit.
        #expect(try R.redWidth(R.post(b, "/solve", R.scene)) == .number(176))
        let warm = R.post(b, "/solve", R.scene)
        #expect(warm.headers["Cache-Status"] == "layoutd; hit")
        #expect(try R.redWidth(warm) == .number(176))
        #expect(try JSONParser().parse(R.post(b, "/validate", R.scene).body)["valid"] == .bool(true))

        let replaced = R.put(a, pad: 40)
        #expect(replaced.status == 200)
        #expect(replaced.headers["ETag"] == "\"2\"")
        let after = R.post(b, "/solve", R.scene)
        #expect(after.status == 200)
        #expect(try R.redWidth(after) == .number(120))
        #expect(after.headers["Cache-Status"] != "layoutd; hit")
        // And cached again, at the new version.
        let again = R.post(b, "/solve", R.scene)
        #expect(again.headers["Cache-Status"] == "layoutd; hit")
        #expect(try R.redWidth(again) == .number(120))
        // The pinned first version still answers its own frames through either.
        #expect(try R.redWidth(R.post(b, "/solve", R.pinnedScene)) == .number(176))

        // B's ETag is A's: a replace through B with If-Match "2" passes, a stale one fails.
        #expect(R.put(b, pad: 30, headers: [("If-Match", "\"1\"")]).status == 412)
        let throughB = R.put(b, pad: 30, headers: [("If-Match", "\"2\"")])
        #expect(throughB.status == 200)
        #expect(throughB.headers["ETag"] == "\"3\"")
        #expect(try R.redWidth(R.post(a, "/solve", R.scene)) == .number(140))

        #expect(R.request(a, .DELETE, "/groups/row").status == 204)
        let deleted = R.post(b, "/solve", R.scene)
        #expect(deleted.status == 422)
        #expect(try R.firstCode(deleted) == .string("unknown_group"))
        let verdict = try JSONParser().parse(R.post(b, "/validate", R.scene).body)
        #expect(verdict["valid"] == .bool(false))
        #expect(R.firstCode(verdict) == .string("unknown_group"))
        #expect(R.request(b, .GET, "/groups/row").status == 404)
    }
}

/// The round trips a request makes to the group store: none for a scene without groups,
/// exactly one (for all its groups, pinned or not) for a scene with groups, cached or not,
/// and no group read for versions already decoded.
@Suite("replicas: round trips per request")
struct ReplicaRoundTripTests {
    typealias R = ReplicaRequests

    @Test func roundTripsPerScene() throws {
        let groups = ObservedGroupStore(try SQLiteStore(path: ":memory:"))
        let router = LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: groups).makeRouter()
        #expect(R.put(router, pad: 12).status == 201)
        let other = HTTPRequest(method: .PUT, target: "/groups/col", headers: ["Host": "t"],
                                body: Array(#"{"constraints":["red.height >= 1"]}"#.utf8))
        #expect(router.respond(to: other).status == 201)

        for _ in 0..<2 { #expect(try R.redWidth(R.post(router, "/solve", R.plainScene)) == .number(186)) }
        #expect(groups.currentVersionCalls.load(ordering: .relaxed) == 0)
        #expect(groups.groupReads.load(ordering: .relaxed) == 0)

        // Two unversioned groups: one call per request, miss or hit.
        let twoGroups = #"{"container":{"width":200,"height":100},"views":["red"],"constraints":["V:|[red]|"],"groups":["row","col"]}"#
        let first = R.post(router, "/solve", twoGroups)
        #expect(first.status == 200)
        #expect(groups.currentVersionCalls.load(ordering: .relaxed) == 1)
        #expect(groups.groupReads.load(ordering: .relaxed) == 2)
        let second = R.post(router, "/solve", twoGroups)
        #expect(second.headers["Cache-Status"] == "layoutd; hit")
        #expect(groups.currentVersionCalls.load(ordering: .relaxed) == 2)
        #expect(groups.groupReads.load(ordering: .relaxed) == 2)
        // Another size: a front cache miss; versions asked once, the groups decoded already.
        let resized = twoGroups.replacingOccurrences(of: "\"width\":200", with: "\"width\":300")
        #expect(try R.redWidth(R.post(router, "/solve", resized)) == .number(276))
        #expect(groups.currentVersionCalls.load(ordering: .relaxed) == 3)
        #expect(groups.groupReads.load(ordering: .relaxed) == 2)

        // Pinned: read once; then each request asks the current versions once, as for
        // unversioned names (a delete or prune elsewhere changes them), and reads nothing.
        #expect(try R.redWidth(R.post(router, "/solve", R.pinnedScene)) == .number(176))
        let calls = groups.currentVersionCalls.load(ordering: .relaxed)
        let reads = groups.groupReads.load(ordering: .relaxed)
        #expect(R.post(router, "/solve", R.pinnedScene).headers["Cache-Status"] == "layoutd; hit")
        #expect(try R.redWidth(R.post(router, "/solve", R.pinnedScene.replacingOccurrences(of: "\"width\":200", with: "\"width\":100")))
                == .number(76))
        #expect(groups.currentVersionCalls.load(ordering: .relaxed) == calls + 2)
        #expect(groups.groupReads.load(ordering: .relaxed) == reads)
    }
}

/// The group store unreachable (PostgreSQL down): `/readyz` 503; group reads and writes
/// and scenes with unversioned groups 503 with `Retry-After` (/solve and /validate alike,
/// cached or not); scenes without groups, and with pinned versions held in memory, still
/// solve (nothing computed from unconfirmed versions is kept); everything answers again
/// once the store is back, with no restart.
@Suite("replicas: the group store down")
struct ReplicaFaultTests {
    typealias R = ReplicaRequests

    @Test func aFailedGroupLookupIs503WithTheStoresRetryAfter() {
        let cases: [(StoreError, String, String)] = [
            (.unavailable("connection to server at \"db\", port 5432 failed"), "5", "the database is unavailable"),
            (.busy, "1", "the database is busy"),
            (.readOnly, "60", "the database is read-only"),
            (.corrupt("page 3"), "1", "the database is damaged"),
        ]
        for (error, retryAfter, reason) in cases {
            let failure = EngineFailure.groupLookupFailed(error)
            #expect(failure.status == 503)
            #expect(failure.headers.map { "\($0.0): \($0.1)" } == ["Retry-After: \(retryAfter)"])
            #expect(failure.diagnostics.map(\.code) == [.unknownGroup])
            #expect(failure.diagnostics.first?.message == "The group store cannot be read right now: \(reason)")
        }
    }

    @Test func whatAnswersWhileTheStoreIsDown() throws {
        let groups = ObservedGroupStore(try SQLiteStore(path: ":memory:"))
        let router = LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: groups).makeRouter()
        #expect(R.put(router, pad: 12).status == 201)
        #expect(R.post(router, "/solve", R.scene).status == 200)      // cached by name
        #expect(R.post(router, "/validate", R.scene).status == 200)
        #expect(R.post(router, "/solve", R.pinnedScene).status == 200)  // row@1 decoded and kept

        groups.isDown.store(true, ordering: .relaxed)
        let ready = R.request(router, .GET, "/readyz")
        #expect(ready.status == 503)
        #expect(ready.headers["Retry-After"] == "5")
        for response in [R.put(router, pad: 20), R.request(router, .GET, "/groups/row"), R.request(router, .GET, "/groups"),
                         R.request(router, .DELETE, "/groups/row")] {
            #expect(response.status == 503)
            #expect(response.headers["Retry-After"] == "5")
        }
        let other = R.scene.replacingOccurrences(of: "\"width\":200", with: "\"width\":300")
        for (path, body) in [("/solve", R.scene), ("/solve", other), ("/validate", R.scene), ("/validate", other)] {
            let response = R.post(router, path, body)
            #expect(response.status == 503, "\(path) \(body)")
            #expect(response.headers["Retry-After"] == "5", "\(path) \(body)")
            #expect(try R.firstCode(response) == .string("unknown_group"))
            let detail = try JSONParser().parse(response.body)["detail"]
            #expect(detail == .string("The group store cannot be read right now: the database is unavailable"))
        }
        #expect(try R.redWidth(R.post(router, "/solve", R.plainScene)) == .number(186))
        // Pinned versions held in memory answer as held (a hit, and another size); one not
        // held is read from the store: 503. Nothing computed meanwhile is kept.
        let pinnedHit = R.post(router, "/solve", R.pinnedScene)
        #expect(pinnedHit.headers["Cache-Status"] == "layoutd; hit")
        #expect(try R.redWidth(pinnedHit) == .number(176))
        let pinnedOther = R.pinnedScene.replacingOccurrences(of: "\"width\":200", with: "\"width\":300")
        #expect(try R.redWidth(R.post(router, "/solve", pinnedOther)) == .number(276))
        #expect(try JSONParser().parse(R.post(router, "/validate", pinnedOther).body)["valid"] == .bool(true))
        let notHeld = R.post(router, "/solve", R.pinnedScene.replacingOccurrences(of: "row@1", with: "row@2"))
        #expect(notHeld.status == 503)
        #expect(notHeld.headers["Retry-After"] == "5")

        groups.isDown.store(false, ordering: .relaxed)
        #expect(R.request(router, .GET, "/readyz").status == 200)
        #expect(try R.redWidth(R.post(router, "/solve", other)) == .number(276))
        // Deleted by another process (straight in the store): what was answered as held is
        // checked again, so neither pinned body is answered from the front cache.
        #expect(try groups.base.deleteGroup(named: "row"))
        for body in [R.pinnedScene, pinnedOther] {
            let gone = R.post(router, "/solve", body)
            #expect(gone.status == 422)
            #expect(try R.firstCode(gone) == .string("unknown_group"))
        }
        #expect(R.put(router, pad: 20).status == 201)
        #expect(try R.redWidth(R.post(router, "/solve", R.scene)) == .number(160))
    }
}

/// A pinned version (`row@1`) deleted or pruned through another replica: the next answer
/// of a replica that solved, cached and decoded it is what a fresh process answers (422
/// `unknown_group`), from its front cache, with `Cache-Control: no-cache`, for a body it
/// never saw, and from `/validate`. Against one SQLite file always, and one PostgreSQL
/// database when `LAYOUTD_TEST_PG_URL` names a server.
@Suite("replicas: pinned versions removed elsewhere")
struct ReplicaPinnedVersionTests {
    typealias R = ReplicaRequests

    /// The 422s `router` gives for `R.pinnedScene` through every path, each with `message`.
    static func expectRemoved(_ router: Router, message: String) throws {
        let other = R.pinnedScene.replacingOccurrences(of: "\"width\":200", with: "\"width\":250")
        let noCache = router.respond(to: HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "t", "Cache-Control": "no-cache"],
                                                     body: Array(R.pinnedScene.utf8)))
        for (name, response) in [("front", R.post(router, "/solve", R.pinnedScene)), ("no-cache", noCache),
                                 ("new body", R.post(router, "/solve", other))] {
            #expect(response.status == 422, "\(name)")
            #expect(response.headers["Cache-Status"] != "layoutd; hit", "\(name)")
            let first = try #require(Self.firstDiagnostic(JSONParser().parse(response.body)), "\(name)")
            #expect(first["code"] == .string("unknown_group"), "\(name)")
            #expect(first["message"] == .string(message), "\(name)")
        }
        let verdict = try JSONParser().parse(R.post(router, "/validate", R.pinnedScene).body)
        #expect(verdict["valid"] == .bool(false))
        #expect(Self.firstDiagnostic(verdict)?["message"] == .string(message))
    }

    static func firstDiagnostic(_ json: JSONValue) -> JSONValue? {
        guard case .array(let diagnostics)? = json["diagnostics"] else { return nil }
        return diagnostics.first
    }

    /// B solves `row@1` until it is a front cache hit, and validates it.
    static func warm(_ router: Router) throws {
        #expect(try R.redWidth(R.post(router, "/solve", R.pinnedScene)) == .number(176))
        let hit = R.post(router, "/solve", R.pinnedScene)
        #expect(hit.headers["Cache-Status"] == "layoutd; hit")
        #expect(try R.redWidth(hit) == .number(176))
        #expect(try JSONParser().parse(R.post(router, "/validate", R.pinnedScene).body)["valid"] == .bool(true))
    }

    @Test(arguments: TransferBackend.available)
    func aDeleteThroughOneEndsThePinnedAnswersOfTheOther(_ backend: TransferBackend) throws {
        let replicas = try Replicas(backend)
        let (a, b) = (replicas.first, replicas.second)
        #expect(R.put(a, pad: 12).status == 201)
        try Self.warm(b)
        #expect(R.request(a, .DELETE, "/groups/row").status == 204)
        try Self.expectRemoved(b, message: "No group named 'row' is stored (included as 'row@1')")
        // A new life of the name starts above every old version: row@1 stays gone.
        #expect(R.put(a, pad: 12).status == 201)
        try Self.expectRemoved(b, message: "Group 'row' has no version 1 (included as 'row@1')")
    }

    @Test(arguments: TransferBackend.available)
    func aPruneThroughOneEndsThePinnedAnswersOfTheOther(_ backend: TransferBackend) throws {
        let replicas = try Replicas(backend)
        let (a, b) = (replicas.first, replicas.second)
        #expect(R.put(a, pad: 12).status == 201)
        try Self.warm(b)
        // A write that keeps version 1 changes nothing for it: B still answers its frames.
        #expect(R.put(a, pad: 40).status == 200)
        #expect(try R.redWidth(R.post(b, "/solve", R.pinnedScene)) == .number(176))
        #expect(R.post(b, "/solve", R.pinnedScene).headers["Cache-Status"] == "layoutd; hit")
        // 100 versions are kept: the 101st write prunes version 1.
        for pad in 1...99 { #expect(R.put(a, pad: pad).status == 200) }
        #expect(R.request(a, .GET, "/groups/row/versions/1").status == 404)
        try Self.expectRemoved(b, message: "Group 'row' version 1 was pruned: only the last 100 versions of a group are kept (--max-group-versions); the oldest kept is 2 (included as 'row@1')")
        // The versions still kept answer through B as through A.
        let kept = R.pinnedScene.replacingOccurrences(of: "row@1", with: "row@2")
        #expect(try R.redWidth(R.post(b, "/solve", kept)) == .number(120))
    }
}

/// A front cache hit of a scene that pins every group asks the store nothing while no
/// commit reached the SQLite file since its versions were confirmed (`PRAGMA
/// data_version`, ``SQLiteStore/changeCount()``); after any commit it looks the versions
/// up once, and is then again answered without a lookup.
@Suite("replicas: pinned hits and the change count")
struct ReplicaChangeCountTests {
    typealias R = ReplicaRequests

    @Test func aPinnedHitLooksUpOnlyAfterACommit() throws {
        let path = NSTemporaryDirectory() + "layoutd-change-count-" + UUID().uuidString + ".db"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let groups = ObservedGroupStore(try SQLiteStore(path: path, diskReserveBytes: 0), forwardsChangeCount: true)
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: groups)
        defer { service.store.close() }
        let router = service.makeRouter()
        let other = try SQLiteStore(path: path, diskReserveBytes: 0)   // another process on the file
        defer { other.close() }
        #expect(R.put(router, pad: 12).status == 201)
        #expect(try R.redWidth(R.post(router, "/solve", R.pinnedScene)) == .number(176))
        let calls = groups.currentVersionCalls.load(ordering: .relaxed)
        for _ in 0..<3 {
            let hit = R.post(router, "/solve", R.pinnedScene)
            #expect(hit.headers["Cache-Status"] == "layoutd; hit")
            #expect(try R.redWidth(hit) == .number(176))
        }
        #expect(groups.currentVersionCalls.load(ordering: .relaxed) == calls)

        // Another group written elsewhere: one lookup, still a hit; then none again.
        _ = try other.putGroup(name: "col", constraintsJSON: #"["red.height >= 1"]"#, metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(R.post(router, "/solve", R.pinnedScene).headers["Cache-Status"] == "layoutd; hit")
        #expect(groups.currentVersionCalls.load(ordering: .relaxed) == calls + 1)
        #expect(R.post(router, "/solve", R.pinnedScene).headers["Cache-Status"] == "layoutd; hit")
        #expect(groups.currentVersionCalls.load(ordering: .relaxed) == calls + 1)

        // The pinned group deleted elsewhere: the next answer is 422.
        #expect(try other.deleteGroup(named: "row"))
        let gone = R.post(router, "/solve", R.pinnedScene)
        #expect(gone.status == 422)
        #expect(try R.firstCode(gone) == .string("unknown_group"))
    }

    @Test func theLoopAnswersAPinnedHitUntilACommit() throws {
        let path = NSTemporaryDirectory() + "layoutd-change-count-" + UUID().uuidString + ".db"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let service = LayoutService(store: try SQLiteStore(path: path, diskReserveBytes: 0))
        defer { service.store.close() }
        let router = service.makeRouter()
        let handler = service.makeHandler(router: router)
        let onLoop = service.makeLoopHandler(router: router)
        let other = try SQLiteStore(path: path, diskReserveBytes: 0)   // another process on the file
        defer { other.close() }
        let solve = HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "t"], body: Array(R.pinnedScene.utf8))
        #expect(R.put(router, pad: 12).status == 201)
        #expect(onLoop(solve) == nil)
        let miss = handler(solve)
        #expect(miss.status == 200)
        let hit = try #require(onLoop(solve))
        #expect(hit.headers["Cache-Status"] == "layoutd; hit")
        #expect(hit.body == miss.body)
        // A commit elsewhere: left to a worker, which confirms the versions (still a hit)
        // and keeps the new count, so the loop answers again.
        _ = try other.putGroup(name: "col", constraintsJSON: #"["red.height >= 1"]"#, metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(onLoop(solve) == nil)
        #expect(handler(solve).headers["Cache-Status"] == "layoutd; hit")
        #expect(try #require(onLoop(solve)).body == miss.body)
        // Deleted elsewhere: the loop leaves it, the worker answers 422.
        #expect(try other.deleteGroup(named: "row"))
        #expect(onLoop(solve) == nil)
        #expect(handler(solve).status == 422)
        #expect(onLoop(solve) == nil)
    }
}
