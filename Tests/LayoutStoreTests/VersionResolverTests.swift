import Foundation
@testable import LayoutStore
import Synchronization
import Testing

/// A group store that only answers ``currentVersions(of:)``, from versions a test writes:
/// counts its lookups, records the names each was asked, can hold a lookup until the test
/// releases it, and can fail chosen lookups (numbered from 1).
final class VersionCountingStore: GroupStoring {
    struct State {
        var versions: [String: Int] = [:]
        var asked: [[String]] = []
        var failing: Set<Int> = []
        var held: Set<Int> = []
    }
    let state = Mutex(State())
    /// Signalled by the test to let a held lookup go on.
    let release = DispatchSemaphore(value: 0)
    /// Signalled by a held lookup once it has read the versions it will answer.
    let reachedHold = DispatchSemaphore(value: 0)

    var maxGroups: Int { 100 }
    var maxGroupVersions: Int { 100 }
    var maxGroupBytes: Int { 1 << 20 }
    /// `true`: it stands for a server's store, whose lookups are coalesced.
    var lookupsAreRoundTrips: Bool { true }
    var isReadOnly: Bool { false }

    /// Writes a new version of `name` and returns it (an acknowledged write).
    func write(_ name: String) -> Int {
        state.withLock { state in
            let version = (state.versions[name] ?? 0) + 1
            state.versions[name] = version
            return version
        }
    }

    var lookupsAsked: [[String]] { state.withLock { $0.asked } }

    func currentVersions(of names: [String]) throws(StoreError) -> [String: Int] {
        // The versions are read when the lookup is "sent"; a held lookup answers them later,
        // as a statement in flight answers what the database had when it ran.
        let (number, answer, fails, holds) = state.withLock { state in
            state.asked.append(names)
            let number = state.asked.count
            var answer: [String: Int] = [:]
            for name in names { if let version = state.versions[name] { answer[name] = version } }
            return (number, answer, state.failing.contains(number), state.held.contains(number))
        }
        if holds {
            reachedHold.signal()
            release.wait()
        }
        if fails { throw .unavailable("lookup \(number) failed by the test") }
        return answer
    }

    func putGroup(name: String, constraintsJSON: String, metricsJSON: String, ifMatch: Int?, ifNoneMatchAny: Bool)
        throws(StoreError) -> (group: StoredGroup, created: Bool) { throw .unavailable("not used") }
    func deleteGroup(named name: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> Bool { throw .unavailable("not used") }
    func group(named name: String) throws(StoreError) -> StoredGroup? { throw .unavailable("not used") }
    func group(named name: String, version: Int) throws(StoreError) -> StoredGroup? { throw .unavailable("not used") }
    func versions(ofGroup name: String, after: Int, limit: Int) throws(StoreError) -> GroupVersionPage? { throw .unavailable("not used") }
    func prunedVersion(ofGroup name: String, version: Int) throws(StoreError) -> Int? { throw .unavailable("not used") }
    func groups() throws(StoreError) -> [GroupSummary] { throw .unavailable("not used") }
    func groupBytes() throws(StoreError) -> Int { throw .unavailable("not used") }
    func groupCount() throws(StoreError) -> Int { throw .unavailable("not used") }
    func importGroup(name: String, versions: [StoredGroup], replace: Bool) throws(StoreError) -> Bool { throw .unavailable("not used") }
    func versionMarks() throws(StoreError) -> VersionMarks { throw .unavailable("not used") }
    func raiseVersionMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool) { throw .unavailable("not used") }
    func isReachable() -> Bool { true }
}

@Suite("VersionResolver: batched version lookups")
struct VersionResolverTests {
    /// Runs `body(i)` for each i in 0..<count on threads of their own and waits for all.
    static func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread.detachNewThread {
                body(index)
                group.leave()
            }
        }
        group.wait()
    }

    /// Polls until `resolver` has `count` callers waiting for the next lookup.
    static func awaitWaiting(_ resolver: VersionResolver, _ count: Int) {
        while resolver.waitingCount < count { usleep(200) }
    }

    /// Stored face names match without regard to case: a caller asking `acme mono/400` gets
    /// the face stored as `Acme Mono/400`, keyed as stored, and nothing it did not ask for.
    @Test func fontVersionsMatchWithoutRegardToCase() throws {
        let store = try SQLiteStore(path: ":memory:")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")))
        _ = try store.putFace(name: "Acme Mono/400", bytes: bytes, sha256: String(repeating: "0", count: 64))
        _ = try store.putFace(name: "Other/400", bytes: bytes, sha256: String(repeating: "0", count: 64))
        let resolver = VersionResolver(fontStore: store)
        #expect(try resolver.currentVersions(of: ["acme mono/400", "acme mono/700"]) == ["Acme Mono/400": 1])
        #expect(try resolver.currentVersions(of: ["ACME MONO/400", "other/400"]) == ["Acme Mono/400": 1, "Other/400": 1])
        #expect(try resolver.currentVersions(of: ["acme/400"]) == [:])
        #expect(resolver.lookupCount == 3)
    }

    @Test func callersWaitingDuringALookupShareTheNextOne() throws {
        let store = VersionCountingStore()
        for name in ["a", "b", "c", "d", "e"] { _ = store.write(name) }
        _ = store.write("b")
        _ = store.write("d"); _ = store.write("d")
        store.state.withLock { $0.held = [1] }
        let resolver = VersionResolver(store: store)
        let answers = Mutex<[Int: [String: Int]]>([:])
        // Caller 0 leads the first lookup, held; callers 1…7 register meanwhile and must
        // share one second lookup.
        let names: [[String]] = [["a"], ["b", "c"], ["e"], ["d", "a"], ["zz"], ["c"], ["b", "zz", "e"], ["a", "b", "c", "d", "e"]]
        let first = Thread {
            let answer = try? resolver.currentVersions(of: names[0])
            answers.withLock { $0[0] = answer }
        }
        first.start()
        store.reachedHold.wait()
        Self.concurrently(names.count) { index in
            guard index > 0 else {
                Self.awaitWaiting(resolver, names.count - 1)
                store.release.signal()
                return
            }
            let answer = try? resolver.currentVersions(of: names[index])
            answers.withLock { $0[index] = answer }
        }
        while answers.withLock({ $0[0] }) == nil { usleep(200) }

        #expect(resolver.lookupCount == 2)
        #expect(store.lookupsAsked == [["a"], ["a", "b", "c", "d", "e", "zz"]])
        let got = answers.withLock { $0 }
        #expect(got[0] == ["a": 1])
        #expect(got[1] == ["b": 2, "c": 1])
        #expect(got[2] == ["e": 1])
        #expect(got[3] == ["d": 3, "a": 1])
        #expect(got[4] == [:])
        #expect(got[5] == ["c": 1])
        #expect(got[6] == ["b": 2, "e": 1])
        #expect(got[7] == ["a": 1, "b": 2, "c": 1, "d": 3, "e": 1])
    }

    @Test func manyConcurrentCallersEachGetTheirOwnNames() throws {
        let store = VersionCountingStore()
        for index in 0..<16 { for _ in 0...index { _ = store.write("g\(index)") } }
        let resolver = VersionResolver(store: store)
        let callers = 64
        let wrong = Atomic<Int>(0)
        Self.concurrently(callers) { caller in
            for round in 0..<50 {
                let names = ["g\((caller + round) % 16)", "g\((caller * 7 + round) % 16)", "missing\(caller % 3)"]
                guard let answer = try? resolver.currentVersions(of: names) else { wrong.add(1, ordering: .relaxed); continue }
                var expected: [String: Int] = [:]
                for name in names where name.hasPrefix("g") { expected[name] = Int(name.dropFirst())! + 1 }
                if answer != expected { wrong.add(1, ordering: .relaxed) }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(resolver.lookupCount == store.lookupsAsked.count)
        #expect(resolver.lookupCount <= callers * 50)
        for asked in store.lookupsAsked {
            #expect(asked == asked.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(Set(asked).count == asked.count)
        }
    }

    /// Read-your-writes: a write acknowledged before a caller registers is in its answer,
    /// however the lookups of other callers overlap it.
    @Test func aWriteAcknowledgedBeforeACallIsSeenByIt() throws {
        let store = VersionCountingStore()
        _ = store.write("row")
        let resolver = VersionResolver(store: store)
        let acknowledged = Atomic<Int>(1)
        let stale = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let writer = Thread {
            while !done.load(ordering: .acquiring) {
                let version = store.write("row")
                acknowledged.store(version, ordering: .releasing)
                sched_yield()
            }
        }
        writer.start()
        Self.concurrently(16) { _ in
            for _ in 0..<400 {
                let known = acknowledged.load(ordering: .acquiring)
                let seen = (try? resolver.currentVersions(of: ["row"]))?["row"] ?? 0
                if seen < known { stale.add(1, ordering: .relaxed) }
            }
        }
        done.store(true, ordering: .releasing)
        #expect(stale.load(ordering: .relaxed) == 0)
        #expect(resolver.lookupCount >= 1)
    }

    /// A caller that registers while a lookup is in flight gets the next lookup's answer,
    /// which holds a write acknowledged after the first lookup read the store.
    @Test func aLookupInFlightIsNeverReusedByALaterCaller() throws {
        let store = VersionCountingStore()
        _ = store.write("row")
        store.state.withLock { $0.held = [1] }
        let resolver = VersionResolver(store: store)
        let leader = Mutex<[String: Int]?>(nil)
        let thread = Thread { let answer = try? resolver.currentVersions(of: ["row"]); leader.withLock { $0 = answer } }
        thread.start()
        store.reachedHold.wait()
        #expect(store.write("row") == 2)
        let later = Mutex<[String: Int]?>(nil)
        Self.concurrently(2) { index in
            if index == 0 {
                Self.awaitWaiting(resolver, 1)
                store.release.signal()
            } else {
                let answer = try? resolver.currentVersions(of: ["row"])
                later.withLock { $0 = answer }
            }
        }
        while leader.withLock({ $0 }) == nil { usleep(200) }
        #expect(leader.withLock { $0 } == ["row": 1])
        #expect(later.withLock { $0 } == ["row": 2])
        #expect(resolver.lookupCount == 2)
    }

    /// A lookup that fails with `unavailable` answers every caller of its batch and every
    /// caller that registered while it ran, without a second lookup against a store that
    /// just failed; while the next lookup is in flight a new caller gets that error at once
    /// instead of waiting for it; a lookup that succeeds ends that, and the resolver keeps
    /// working after a leader's lookup threw (no deadlock).
    @Test func unavailableReachesEveryWaitingCallerAndLaterOnesAtOnce() throws {
        let store = VersionCountingStore()
        _ = store.write("a"); _ = store.write("b")
        // Lookup 1 (the first leader's) is held and fails; lookup 2 is held and succeeds.
        store.state.withLock { $0.held = [1, 2]; $0.failing = [1] }
        let resolver = VersionResolver(store: store)
        let outcomes = Mutex<[Int: Result<[String: Int], StoreError>]>([:])
        let leaderThread = Thread {
            let outcome = Result { () throws(StoreError) in try resolver.currentVersions(of: ["a"]) }
            outcomes.withLock { $0[0] = outcome }
        }
        leaderThread.start()
        store.reachedHold.wait()
        let waiters = 6
        Self.concurrently(waiters + 1) { index in
            guard index > 0 else {
                Self.awaitWaiting(resolver, waiters)
                store.release.signal()          // lookup 1 fails
                return
            }
            let outcome = Result { () throws(StoreError) in try resolver.currentVersions(of: index % 2 == 0 ? ["a"] : ["a", "b"]) }
            outcomes.withLock { $0[index] = outcome }
        }
        while outcomes.withLock({ $0[0] }) == nil { usleep(200) }
        let got = outcomes.withLock { $0 }
        for index in 0...waiters { #expect(got[index] == .failure(.unavailable("lookup 1 failed by the test"))) }
        #expect(store.lookupsAsked == [["a"]])
        // Lookup 2 in flight: a caller meanwhile gets lookup 1's error at once.
        let probe = Thread {
            let outcome = Result { () throws(StoreError) in try resolver.currentVersions(of: ["a"]) }
            outcomes.withLock { $0[100] = outcome }
        }
        probe.start()
        store.reachedHold.wait()
        #expect(throws: StoreError.unavailable("lookup 1 failed by the test")) { try resolver.currentVersions(of: ["b"]) }
        store.release.signal()                  // lookup 2 succeeds
        while outcomes.withLock({ $0[100] }) == nil { usleep(200) }
        #expect(outcomes.withLock { $0[100] } == .success(["a": 1]))
        #expect(store.lookupsAsked == [["a"], ["a"]])
        // Answered again: the next callers are answered.
        #expect(try resolver.currentVersions(of: ["b", "a"]) == ["a": 1, "b": 1])
        let wrong = Atomic<Int>(0)
        Self.concurrently(8) { _ in
            if (try? resolver.currentVersions(of: ["a"])) != ["a": 1] { wrong.add(1, ordering: .relaxed) }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(resolver.waitingCount == 0)
    }
}
