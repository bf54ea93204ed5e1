import Foundation
import Synchronization
import Testing
@testable import LayoutStore

/// ``PostgreSQLGroupStore`` against a real server: GroupStore's semantics, across several
/// pools (as several processes would have).
@Suite("PostgreSQL group store", .enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLGroupStoreTests {
    private static func makeStore(
        _ database: PostgreSQLTestDatabase, maxGroups: Int = 100, poolSize: Int = 2, maxGroupBytes: Int = 64 << 20
    ) throws -> PostgreSQLGroupStore {
        try PostgreSQLSchema.migrate(database.connect())
        let pool = PostgreSQLConnectionPool(configuration: database.configuration, size: poolSize, acquireTimeout: 30)
        return PostgreSQLGroupStore(pool: pool, maxGroups: maxGroups, maxGroupBytes: maxGroupBytes)
    }

    /// What a put did, comparable: the store's ``PostgreSQLGroupStore/PutOutcome`` spelled out.
    enum PutOutcome: Equatable {
        case written(StoredGroup, created: Bool)
        case preconditionFailed(current: Int?)
        case limitExceeded(String)
        case other(StoreError)
    }

    private static func put(
        _ store: PostgreSQLGroupStore, _ name: String, _ body: String = "[]", ifMatch: Int? = nil, ifNoneMatchAny: Bool = false
    ) throws(PostgreSQLError) -> PutOutcome {
        switch try store.put(name: name, constraintsJSON: body, metricsJSON: "{}", ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny) {
        case .success(let written): .written(written.record, created: written.created)
        case .failure(.preconditionFailed(let current)): .preconditionFailed(current: current)
        case .failure(.limitExceeded(let message)): .limitExceeded(message)
        case .failure(let error): .other(error)
        }
    }

    private static func writtenVersion(_ outcome: PutOutcome) -> Int? {
        guard case .written(let group, _) = outcome else { return nil }
        return group.version
    }

    @Test func writesReadsAndLists() throws {
        let database = try PostgreSQLTestDatabase()
        let store = try Self.makeStore(database)
        let first = try Self.put(store, "row", #"["H:|[a]|"]"#)
        guard case .written(let group, let created) = first else {
            Issue.record("not written: \(first)")
            return
        }
        #expect(created)
        #expect(group.version == 1)
        #expect(group.constraintsJSON == #"["H:|[a]|"]"#)
        #expect(group.updatedAt.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil)
        let second = try Self.put(store, "row", #"["V:|[a]|"]"#)
        guard case .written(let replaced, let createdAgain) = second else {
            Issue.record("not written: \(second)")
            return
        }
        #expect(!createdAgain)
        #expect(replaced.version == 2)
        #expect(try store.group(named: "row") == replaced)
        #expect(try store.group(named: "row", version: 1) == group)
        #expect(try store.group(named: "row", version: 3) == nil)
        #expect(try store.versions(ofGroup: "row")?.map(\.version) == [1, 2])
        _ = try Self.put(store, "Row")
        #expect(try store.all().map { "\($0.name)@\($0.version)" } == ["Row@1", "row@2"])
        #expect(try store.count() == 2)
        #expect(try store.group(named: "missing") == nil)
        #expect(try store.versions(ofGroup: "missing") == nil)
    }

    @Test func deleteKeepsTheHighWaterMark() throws {
        let database = try PostgreSQLTestDatabase()
        let store = try Self.makeStore(database)
        _ = try Self.put(store, "g")
        _ = try Self.put(store, "g")
        #expect(try store.delete(name: "g").get())
        #expect(try !store.delete(name: "g").get())
        #expect(try store.group(named: "g") == nil)
        #expect(try store.versions(ofGroup: "g") == nil)
        #expect(try store.count() == 0)
        let again = try Self.put(store, "g")
        guard case .written(let group, let created) = again else {
            Issue.record("not written: \(again)")
            return
        }
        #expect(created)
        #expect(group.version == 3)
    }

    @Test func preconditionsAreCheckedInTheTransaction() throws {
        let database = try PostgreSQLTestDatabase()
        let store = try Self.makeStore(database)
        #expect(try Self.put(store, "p", ifMatch: 1) == .preconditionFailed(current: nil))
        #expect(Self.writtenVersion(try Self.put(store, "p", ifNoneMatchAny: true)) == 1)
        #expect(try Self.put(store, "p", ifNoneMatchAny: true) == .preconditionFailed(current: 1))
        #expect(try Self.put(store, "p", ifMatch: 2) == .preconditionFailed(current: 1))
        #expect(Self.writtenVersion(try Self.put(store, "p", ifMatch: 1)) == 2)
        #expect(try store.versions(ofGroup: "p")?.map(\.version) == [1, 2])
    }

    @Test func concurrentWritersThroughSeveralPoolsGetDistinctContiguousVersions() throws {
        let database = try PostgreSQLTestDatabase()
        // Three pools: three processes' worth of connections.
        let stores = try (0..<3).map { _ in try Self.makeStore(database) }
        let threads = 6
        let putsPerThread = 10
        let versions = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])
        runOnThreads(threads) { thread in
            for attempt in 0..<putsPerThread {
                do throws(PostgreSQLError) {
                    let outcome = try Self.put(stores[thread % stores.count], "shared", "[\"t\(thread)-\(attempt)\"]")
                    if let version = Self.writtenVersion(outcome) {
                        versions.withLock { $0.append(version) }
                    } else {
                        failures.withLock { $0.append("\(outcome)") }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(versions.withLock { $0 }.sorted() == Array(1...(threads * putsPerThread)))
        #expect(try stores[0].versions(ofGroup: "shared")?.map(\.version) == Array(1...(threads * putsPerThread)))
    }

    @Test func groupCountLimitIsExactUnderConcurrency() throws {
        let database = try PostgreSQLTestDatabase()
        let stores = try (0..<2).map { _ in try Self.makeStore(database, maxGroups: 3) }
        let threads = 8
        let outcomes = Mutex<[String]>([])
        runOnThreads(threads) { thread in
            do throws(PostgreSQLError) {
                let outcome = try Self.put(stores[thread % stores.count], "g\(thread)")
                outcomes.withLock { $0.append(Self.writtenVersion(outcome) != nil ? "written" : "\(outcome)") }
            } catch {
                outcomes.withLock { $0.append("\(error)") }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.filter { $0 == "written" }.count == 3)
        #expect(all.filter { $0 == #"limitExceeded("maxGroups (3 groups): raise it with --max-groups")"# }.count == threads - 3)
        #expect(try stores[0].count() == 3)
        // A delete makes room for exactly one more.
        let existing = try #require(try stores[0].all().first?.name)
        #expect(try stores[1].delete(name: existing).get())
        #expect(Self.writtenVersion(try Self.put(stores[0], "late")) == 1)
        #expect(try Self.put(stores[1], "later") == .limitExceeded("maxGroups (3 groups): raise it with --max-groups"))
    }

    /// Writers of different existing names through two pools at once (no creation lock
    /// serialises them): the byte bound holds exactly, because every write reads the running
    /// total under its row lock. Each version of "gN" with `[]` and `{}` counts
    /// 2 + 2 + 2 + 20 + 128 = 154 bytes; after one version of each of 8 names, the bound
    /// admits exactly 3 more.
    @Test func groupBytesBoundIsExactUnderConcurrency() throws {
        let database = try PostgreSQLTestDatabase()
        let threads = 8
        let bound = (threads + 3) * 154 + 153
        let stores = try (0..<2).map { _ in try Self.makeStore(database, maxGroupBytes: bound) }
        for thread in 0..<threads { #expect(Self.writtenVersion(try Self.put(stores[0], "g\(thread)")) == 1) }
        let outcomes = Mutex<[String]>([])
        runOnThreads(threads) { thread in
            do throws(PostgreSQLError) {
                let outcome = try Self.put(stores[thread % stores.count], "g\(thread)")
                outcomes.withLock { $0.append(Self.writtenVersion(outcome) != nil ? "written" : "\(outcome)") }
            } catch {
                outcomes.withLock { $0.append("\(error)") }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.filter { $0 == "written" }.count == 3)
        #expect(all.filter { $0.hasPrefix(#"limitExceeded("maxGroupBytes (\#(bound) bytes of stored group versions; \#((threads + 3) * 154) are stored"#) }.count == threads - 3)
        #expect(try stores[1].groupBytes() == (threads + 3) * 154)
    }

    @Test func currentVersionsInOneStatement() throws {
        let database = try PostgreSQLTestDatabase()
        let store = try Self.makeStore(database)
        _ = try Self.put(store, "a")
        _ = try Self.put(store, "a")
        _ = try Self.put(store, "b")
        #expect(try store.delete(name: "b").get())
        _ = try Self.put(store, #"odd"name\with,{braces}"#)
        let versions = try store.currentVersions(of: ["a", "b", "missing", #"odd"name\with,{braces}"#])
        #expect(versions == ["a": 2, #"odd"name\with,{braces}"#: 1])
        #expect(try store.currentVersions(of: []) == [:])
    }

    @Test("array literals", arguments: [
        ([String](), "{}"), (["a"], #"{"a"}"#), (["a", "b c"], #"{"a","b c"}"#),
        ([#"q"uote"#, #"back\slash"#], #"{"q\"uote","back\\slash"}"#), (["NULL"], #"{"NULL"}"#),
    ])
    func arrayLiterals(_ values: [String], _ expected: String) {
        #expect(ListLiteral.postgreSQLArray(values) == expected)
    }
}
