import Foundation
import Synchronization
import Testing
@testable import LayoutStore

/// ``PostgreSQLGroupStore/connecting(url:poolSize:acquireTimeout:timeout:maxGroups:maxGroupVersions:maxGroupBytes:retryDelays:report:)``:
/// a replica that starts before PostgreSQL keeps trying, unavailable (503) until then,
/// and becomes usable once the server is up, with no restart.
@Suite("PostgreSQL group store: connecting in the background")
struct PostgreSQLConnectingTests {
    /// Waits until `condition` holds, checking every 50 ms for at most 60 s (a bound on a
    /// hung test, not a measured time).
    private static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<1_200 {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    @Test func withoutAServerEveryCallIsUnavailableAndFailuresAreReported() throws {
        let port = try closedLoopbackPort()
        let lines = Mutex<[String]>([])
        let store = PostgreSQLGroupStore.connecting(url: "postgresql://layoutd:pw@127.0.0.1:\(port)/layoutd", poolSize: 1,
                                                    acquireTimeout: 1, retryDelays: [0.01]) { line in
            lines.withLock { $0.append(line) }
        }
        #expect(Self.waitUntil { lines.withLock { $0.count } >= 3 })
        #expect(!store.isSchemaReady)
        #expect(!store.isReachable())
        guard case .unavailable(let reason) = storeError({ _ = try store.currentVersions(of: ["g"]) }) else {
            Issue.record("a call before the schema is ready is not 'unavailable'")
            return
        }
        #expect(reason.contains("not been reached"))
        let first = try #require(lines.withLock { $0.first })
        #expect(first.hasPrefix("cannot use PostgreSQL yet ("))
        #expect(first.contains("127.0.0.1") && first.contains("\(port)"))
        #expect(first.hasSuffix("trying again in 0.01 s"))
        #expect(!lines.withLock { $0.joined() }.contains("pw"))
    }

    @Test func aStoreNobodyHoldsStopsTrying() throws {
        let port = try closedLoopbackPort()
        let lines = Mutex<[String]>([])
        weak var released: PostgreSQLGroupStore?
        do {
            let store = PostgreSQLGroupStore.connecting(url: "postgresql://layoutd@127.0.0.1:\(port)/layoutd", poolSize: 1,
                                                        acquireTimeout: 1, retryDelays: [0.01]) { line in
                lines.withLock { $0.append(line) }
            }
            released = store
            #expect(Self.waitUntil { lines.withLock { $0.count } >= 2 })
        }
        // Between attempts only the scheduled retry's weak reference remains, and a retry
        // that finds the store gone ends the attempts.
        #expect(Self.waitUntil { released == nil })
    }

    @Test(.enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
    func aStoreStartedBeforeItsServerBecomesUsableWhenTheServerStarts() throws {
        let cluster = try PostgreSQLTestCluster()
        try cluster.stop()
        let lines = Mutex<[String]>([])
        let store = PostgreSQLGroupStore.connecting(url: cluster.url, poolSize: 2, acquireTimeout: 5, maxGroups: 10,
                                                    retryDelays: [0.05]) { line in
            lines.withLock { $0.append(line) }
        }
        #expect(Self.waitUntil { !lines.withLock { $0.isEmpty } })
        #expect(!store.isReachable())
        guard case .unavailable = storeError({ _ = try store.putGroup(name: "g", constraintsJSON: "[]", metricsJSON: "{}",
                                                                      ifMatch: nil, ifNoneMatchAny: false) }) else {
            Issue.record("a write before the server is up is not 'unavailable'")
            return
        }
        try cluster.start()
        #expect(Self.waitUntil { store.isSchemaReady })
        #expect(store.isReachable())
        let (group, created) = try store.putGroup(name: "g", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(group.version == 1 && created)
        #expect(try store.currentVersions(of: ["g", "h"]) == ["g": 1])
        let last = try #require(lines.withLock { $0.last })
        #expect(last.hasPrefix("connected to PostgreSQL after "))
        #expect(last.hasSuffix("; ran \(PostgreSQLSchema.migrations.count) schema migration\(PostgreSQLSchema.migrations.count == 1 ? "" : "s")"))
    }
}
