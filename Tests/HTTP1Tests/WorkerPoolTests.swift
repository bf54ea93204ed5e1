import Dispatch
import Foundation
import Synchronization
import Testing
@testable import HTTP1

/// ``WorkerPool``'s rule: at most `threadCount` jobs at once, plus one small job while
/// every running job is large; among the jobs allowed to start, the oldest first.
@Suite(.serialized)
struct WorkerPoolTests {
    /// Jobs that record when they start and wait to be let go, each by name.
    final class Jobs: Sendable {
        let started = Mutex<[String]>([])
        let finished = Mutex<[String]>([])
        private let gates = Mutex<[String: DispatchSemaphore]>([:])
        private let startedSignal = DispatchSemaphore(value: 0)
        private let finishedSignal = DispatchSemaphore(value: 0)

        func gate(_ name: String) -> DispatchSemaphore {
            gates.withLock { gates in
                if let gate = gates[name] { return gate }
                let gate = DispatchSemaphore(value: 0)
                gates[name] = gate
                return gate
            }
        }

        func submit(_ name: String, large: Bool, to pool: WorkerPool) {
            let gate = gate(name)
            pool.submit(isLarge: large) { [self] in
                started.withLock { $0.append(name) }
                startedSignal.signal()
                gate.wait()
                finished.withLock { $0.append(name) }
                finishedSignal.signal()
            }
        }

        func release(_ name: String) { gate(name).signal() }

        /// Waits until `count` more jobs have started (at most 10 s, then fails).
        func awaitStarts(_ count: Int) {
            for _ in 0..<count { #expect(startedSignal.wait(timeout: .now() + 10) == .success) }
        }

        func awaitFinishes(_ count: Int) {
            for _ in 0..<count { #expect(finishedSignal.wait(timeout: .now() + 10) == .success) }
        }

        var startOrder: [String] { started.withLock { $0 } }
    }

    @Test func aSmallJobRunsOnTheSpareWhileLargeJobsHoldEveryThread() {
        let pool = WorkerPool(threadCount: 2, name: "test")
        defer { pool.stop() }
        let jobs = Jobs()
        jobs.submit("L1", large: true, to: pool)
        jobs.awaitStarts(1)
        jobs.submit("L2", large: true, to: pool)
        jobs.awaitStarts(1)
        jobs.submit("L3", large: true, to: pool)
        jobs.submit("S1", large: false, to: pool)
        jobs.submit("S2", large: false, to: pool)
        jobs.awaitStarts(1)
        // S1 went ahead of the older L3 (no place for a large job); the spare is one.
        #expect(jobs.startOrder == ["L1", "L2", "S1"])
        jobs.release("S1")
        jobs.awaitFinishes(1)
        jobs.awaitStarts(1)
        #expect(jobs.startOrder == ["L1", "L2", "S1", "S2"])
        jobs.release("S2")
        jobs.awaitFinishes(1)
        // A large job ending frees a place: the oldest waiting job, L3, takes it.
        jobs.release("L1")
        jobs.awaitFinishes(1)
        jobs.awaitStarts(1)
        #expect(jobs.startOrder == ["L1", "L2", "S1", "S2", "L3"])
        jobs.release("L2")
        jobs.release("L3")
        jobs.awaitFinishes(2)
    }

    @Test func smallJobsAloneRunAtMostThreadCountAtOnce() {
        let pool = WorkerPool(threadCount: 2, name: "test")
        defer { pool.stop() }
        let jobs = Jobs()
        for name in ["S1", "S2", "S3"] {
            jobs.submit(name, large: false, to: pool)
            if name != "S3" { jobs.awaitStarts(1) }
        }
        // No large job runs, so there is no spare place for S3.
        #expect(jobs.startOrder == ["S1", "S2"])
        jobs.release("S2")
        jobs.awaitFinishes(1)
        jobs.awaitStarts(1)
        #expect(jobs.startOrder == ["S1", "S2", "S3"])
        jobs.release("S1")
        jobs.release("S3")
        jobs.awaitFinishes(2)
    }

    @Test func theSpareOpensOnlyWhenEveryRunningJobIsLarge() {
        let pool = WorkerPool(threadCount: 2, name: "test")
        defer { pool.stop() }
        let jobs = Jobs()
        jobs.submit("S1", large: false, to: pool)
        jobs.awaitStarts(1)
        jobs.submit("L1", large: true, to: pool)
        jobs.awaitStarts(1)
        jobs.submit("S2", large: false, to: pool)
        jobs.submit("L2", large: true, to: pool)
        // A small job holds a place: S2 waits for one, and then goes first, being older.
        jobs.release("S1")
        jobs.awaitFinishes(1)
        jobs.awaitStarts(1)
        #expect(jobs.startOrder == ["S1", "L1", "S2"])
        // L2 waits for a place too; when S2 ends, L2 fills it and both running jobs are large.
        jobs.submit("S3", large: false, to: pool)
        jobs.release("S2")
        jobs.awaitFinishes(1)
        jobs.awaitStarts(2)
        // The two start on two threads at once: either may record first.
        #expect(Array(jobs.startOrder.prefix(3)) == ["S1", "L1", "S2"])
        #expect(jobs.startOrder.suffix(2).sorted() == ["L2", "S3"])
        for name in ["L1", "L2", "S3"] { jobs.release(name) }
        jobs.awaitFinishes(3)
    }

    @Test(arguments: [false, true]) func jobsOfOneKindStartInSubmissionOrder(large: Bool) {
        let pool = WorkerPool(threadCount: 1, name: "test")
        defer { pool.stop() }
        let jobs = Jobs()
        let names = (0..<6).map { "J\($0)" }
        for name in names { jobs.submit(name, large: large, to: pool) }
        for name in names {
            jobs.awaitStarts(1)
            jobs.release(name)
            jobs.awaitFinishes(1)
        }
        #expect(jobs.startOrder == names)
    }
}
