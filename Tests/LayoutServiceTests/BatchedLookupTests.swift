import Foundation
import HTTP1
import LayoutCompiler
@testable import LayoutService
@testable import LayoutStore
import Synchronization
import Testing

/// Read-your-writes with the version lookups of concurrent requests batched
/// (``VersionResolver``) and solving limited to fewer turns than request threads
/// (``ServiceConfiguration/maxConcurrentSolves``), as `serve` runs with PostgreSQL: two
/// replicas on one group store; while one writes ever larger pads, every answer of the
/// other reflects at least the last write acknowledged before its request began.
@Suite("replicas: batched version lookups")
struct BatchedLookupTests {
    typealias R = ReplicaRequests

    @Test func concurrentSolvesThroughAReplicaNeverAnswerAVersionOlderThanAnAcknowledgedWrite() throws {
        let groups = ObservedGroupStore(try SQLiteStore(path: ":memory:"))
        var configuration = ServiceConfiguration()
        configuration.maxConcurrentSolves = 2
        let writer = LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: groups).makeRouter()
        let readerService = LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: groups, configuration: configuration)
        #expect(readerService.versionResolver != nil)
        let reader = readerService.makeRouter()
        #expect(R.put(writer, pad: 1).status == 201)
        let acknowledged = Atomic<Int>(1)
        let done = Atomic<Bool>(false)
        let stale = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let answered = Atomic<Int>(0)
        let group = DispatchGroup()
        for index in 0..<12 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                // Half /solve (front cache hits between writes), half /validate of the same
                // scene, which also resolves the group.
                while !done.load(ordering: .acquiring) {
                    let pad = acknowledged.load(ordering: .acquiring)
                    let response = R.post(reader, index % 3 == 0 ? "/validate" : "/solve", R.scene)
                    guard response.status == 200 else { failed.add(1, ordering: .relaxed); continue }
                    answered.add(1, ordering: .relaxed)
                    if index % 3 == 0 { continue }
                    guard case .number(let width)? = try? R.redWidth(response) else { failed.add(1, ordering: .relaxed); continue }
                    // Pads only grow, so a width above 200 - 2 * pad is an older version's.
                    if width > Double(200 - 2 * pad) { stale.add(1, ordering: .relaxed) }
                }
            }
        }
        for pad in 2...90 {
            #expect(R.put(writer, pad: pad).status == 200)
            acknowledged.store(pad, ordering: .releasing)
            usleep(500)
        }
        done.store(true, ordering: .releasing)
        group.wait()
        #expect(stale.load(ordering: .relaxed) == 0)
        #expect(failed.load(ordering: .relaxed) == 0)
        #expect(answered.load(ordering: .relaxed) > 0)
        // Every answer since the last write: the last version's frames.
        #expect(try R.redWidth(R.post(reader, "/solve", R.scene)) == .number(20))
        #expect(readerService.versionResolver?.lookupCount == groups.currentVersionCalls.load(ordering: .relaxed))
    }

    @Test func withSQLiteGroupsEachRequestAsksTheStoreItself() throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        #expect(service.versionResolver == nil)
        #expect(service.solveTurns == nil)
    }
}
