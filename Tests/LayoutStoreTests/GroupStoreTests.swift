import Dispatch
import Foundation
import Synchronization
import Testing
@testable import LayoutStore

@Suite struct GroupStoreTests {
    @Test func putCreatesThenReplaces() throws {
        let store = try openStore(":memory:")
        let first = try store.putGroup(name: "card", constraintsJSON: "[\"H:|[a]|\"]", metricsJSON: "{\"m\":8}",
                                       ifMatch: nil, ifNoneMatchAny: false)
        #expect(first.created)
        #expect(first.group == StoredGroup(name: "card", version: 1, constraintsJSON: "[\"H:|[a]|\"]",
                                           metricsJSON: "{\"m\":8}", updatedAt: "2026-11-30T14:05:09Z"))
        let second = try store.putGroup(name: "card", constraintsJSON: "[\"V:|[a]|\"]", metricsJSON: "{}",
                                        ifMatch: nil, ifNoneMatchAny: false)
        #expect(!second.created)
        #expect(second.group.version == 2)
        #expect(try store.group(named: "card") == second.group)
        #expect(try store.group(named: "card", version: 1) == first.group)
        #expect(try store.group(named: "card", version: 3) == nil)
        #expect(try store.group(named: "nope") == nil)
        #expect(try store.versions(ofGroup: "card") == [
            GroupVersionInfo(version: 1, updatedAt: "2026-11-30T14:05:09Z"),
            GroupVersionInfo(version: 2, updatedAt: "2026-11-30T14:05:09Z"),
        ])
        #expect(try store.versions(ofGroup: "nope") == nil)
    }

    @Test func unicodeAndEmbeddedNULSurviveRoundTrip() throws {
        let store = try openStore(":memory:")
        let constraints = "[\"H:|-[é🙂]-|\", \"a\u{0}b\"]"
        _ = try store.putGroup(name: "u", constraintsJSON: constraints, metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(try store.group(named: "u")?.constraintsJSON == constraints)
    }

    @Test func versionsAreNeverReusedAfterDelete() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        do {
            let store = try openStore(path)
            for _ in 0..<3 {
                _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
            }
            #expect(try store.deleteGroup(named: "card"))
            #expect(try store.deleteGroup(named: "card") == false)
            #expect(try store.group(named: "card") == nil)
            #expect(try store.group(named: "card", version: 2) == nil)
            #expect(try store.versions(ofGroup: "card") == nil)
            #expect(try store.groupCount() == 0)
            #expect(try store.groups() == [])
            store.close()
        }
        let store = try openStore(path)
        let again = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(again.created)
        #expect(again.group.version == 4)
        #expect(try store.versions(ofGroup: "card")?.map(\.version) == [4])
    }

    @Test func ifMatchMustNameTheCurrentVersion() throws {
        let store = try openStore(":memory:")
        // No group yet: any If-Match fails.
        #expect(throws: StoreError.preconditionFailed(current: nil)) {
            _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false)
        }
        _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        _ = try store.putGroup(name: "card", constraintsJSON: "[2]", metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false)
        #expect(throws: StoreError.preconditionFailed(current: 2)) {
            _ = try store.putGroup(name: "card", constraintsJSON: "[3]", metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false)
        }
        // Nothing changed, and the failed attempt used no version number.
        #expect(try store.group(named: "card")?.constraintsJSON == "[2]")
        let next = try store.putGroup(name: "card", constraintsJSON: "[3]", metricsJSON: "{}", ifMatch: 2, ifNoneMatchAny: false)
        #expect(next.group.version == 3)
    }

    @Test func staleIfMatchFailsAfterDeleteAndRecreate() throws {
        let store = try openStore(":memory:")
        _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        _ = try store.deleteGroup(named: "card")
        _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(throws: StoreError.preconditionFailed(current: 2)) {
            _ = try store.putGroup(name: "card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false)
        }
    }

    @Test func ifNoneMatchAnyOnlyCreates() throws {
        let store = try openStore(":memory:")
        let created = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: true)
        #expect(created.created)
        #expect(throws: StoreError.preconditionFailed(current: 1)) {
            _ = try store.putGroup(name: "card", constraintsJSON: "[2]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: true)
        }
        #expect(try store.group(named: "card")?.constraintsJSON == "[1]")
    }

    @Test func groupsAreListedByName() throws {
        let store = try openStore(":memory:")
        for name in ["b", "A", "a", "a.b", "Z9"] {
            _ = try store.putGroup(name: name, constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        }
        _ = try store.putGroup(name: "a", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        _ = try store.deleteGroup(named: "b")
        let stamp = "2026-11-30T14:05:09Z"
        #expect(try store.groups() == [
            GroupSummary(name: "A", version: 1, updatedAt: stamp),
            GroupSummary(name: "Z9", version: 1, updatedAt: stamp),
            GroupSummary(name: "a", version: 2, updatedAt: stamp),
            GroupSummary(name: "a.b", version: 1, updatedAt: stamp),
        ])
        #expect(try store.groupCount() == 4)
    }

    @Test func maxGroupsLimitsCreationNotReplacement() throws {
        let store = try openStore(":memory:", maxGroups: 2)
        _ = try store.putGroup(name: "a", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        _ = try store.putGroup(name: "b", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(throws: StoreError.limitExceeded("maxGroups (2 groups): raise it with --max-groups")) {
            _ = try store.putGroup(name: "c", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        }
        #expect(try store.putGroup(name: "a", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false).group.version == 2)
        _ = try store.deleteGroup(named: "b")
        #expect(try store.putGroup(name: "c", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false).created)
        #expect(try store.group(named: "c")?.version == 1)
    }

    @Test func concurrentPutsToOneGroupGetDistinctIncreasingVersions() throws {
        let directory = TemporaryDirectory()
        let store = try openStore(directory.file("db.sqlite"))
        let threads = 8
        let putsPerThread = 12
        // (thread, attempt, version) as each put returned it, in each thread's order.
        let results = Mutex<[[Int]]>(Array(repeating: [], count: threads))
        let failures = Mutex<[StoreError]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for attempt in 0..<putsPerThread {
                do throws(StoreError) {
                    let put = try store.putGroup(name: "shared", constraintsJSON: "[\"t\(thread)-\(attempt)\"]",
                                                 metricsJSON: "{\"t\":\(thread)}", ifMatch: nil, ifNoneMatchAny: false)
                    results.withLock { $0[thread].append(put.group.version) }
                } catch {
                    failures.withLock { $0.append(error) }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let perThread = results.withLock { $0 }
        let total = threads * putsPerThread
        // Each thread saw strictly increasing versions, and all versions are 1…total, once each.
        for versions in perThread {
            #expect(versions == versions.sorted())
            #expect(Set(versions).count == versions.count)
        }
        #expect(perThread.flatMap { $0 }.sorted() == Array(1...total))
        // Every write is in the history with the body that thread wrote for that version.
        #expect(try store.versions(ofGroup: "shared")?.map(\.version) == Array(1...total))
        for (thread, versions) in perThread.enumerated() {
            for (attempt, version) in versions.enumerated() {
                #expect(try store.group(named: "shared", version: version)?.constraintsJSON == "[\"t\(thread)-\(attempt)\"]")
            }
        }
        // The current group is the one written with the last version.
        let current = try #require(try store.group(named: "shared"))
        #expect(current.version == total)
        let writer = try #require(perThread.firstIndex { $0.contains(total) })
        #expect(current.constraintsJSON == "[\"t\(writer)-\(putsPerThread - 1)\"]")
    }
}
