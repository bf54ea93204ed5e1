import Foundation

/// A fixed set of threads running handler jobs, oldest first, with one spare
/// thread for small jobs.
///
/// Handlers may be slow or CPU-bound, so they run here, never on the I/O
/// queues: a slow handler occupies one worker and delays only the connections
/// whose requests queue behind it, while every connection's reads and writes
/// go on. A class because it owns threads.
///
/// Jobs are *large* or *small* (the server calls a request large when its body
/// is longer than ``ServerLimits/largeBodyBytes``). At most `threadCount` jobs run
/// at once, except that while every one of those is large, one small job more may
/// run on the spare thread (``RunningJobs``): a burst of large requests (each may take seconds of
/// one core) never holds a small one longer than the small ones ahead of it. Among
/// the jobs allowed to start, the one submitted first starts first; jobs of one
/// kind start in submission order. Tested by `HTTP1Tests.WorkerPoolTests`.
final class WorkerPool: Sendable {
    /// The queues, the running jobs and the stop flag, guarded by `condition`.
    private final class Shared: @unchecked Sendable {
        // @unchecked: every stored property is only touched while `condition` is locked.
        let condition = NSCondition()
        var small = JobQueue()
        var large = JobQueue()
        /// The jobs started and not finished, `threadCount` of them besides the spare's.
        var running: RunningJobs
        var submitted: UInt64 = 0
        var isStopping = false

        init(threadCount: Int) { running = RunningJobs(limit: threadCount) }

        /// Whether a job of this size may start now (the rule on ``WorkerPool``).
        func mayStart(large isLarge: Bool) -> Bool { running.mayStart(large: isLarge) }

        /// Whether a queued job may start now.
        var hasStartable: Bool {
            (!small.isEmpty && mayStart(large: false)) || (!large.isEmpty && mayStart(large: true))
        }

        /// Takes the oldest job allowed to start, counting it as running; `nil` when none may.
        func take() -> Job? {
            let smallHead = small.peek().flatMap { mayStart(large: false) ? $0 : nil }
            let largeHead = large.peek().flatMap { mayStart(large: true) ? $0 : nil }
            let isLarge: Bool
            switch (smallHead, largeHead) {
            case (nil, nil): return nil
            case (.some, nil): isLarge = false
            case (nil, .some): isLarge = true
            case let (.some(s), .some(l)): isLarge = l.sequence < s.sequence
            }
            let job = isLarge ? large.pop() : small.pop()
            running.started(large: isLarge)
            return job
        }

        func finished(_ job: Job) { running.finished(large: job.isLarge) }
    }

    struct Job {
        var sequence: UInt64
        var isLarge: Bool
        var run: @Sendable () -> Void
    }

    /// A FIFO of jobs, amortised O(1) per job.
    struct JobQueue {
        private var jobs: [Job] = []
        private var head = 0

        var isEmpty: Bool { head == jobs.count }

        func peek() -> Job? { isEmpty ? nil : jobs[head] }

        mutating func append(_ job: Job) { jobs.append(job) }

        /// The oldest job; the queue must not be empty.
        mutating func pop() -> Job {
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024 && head * 2 >= jobs.count {
                jobs.removeSubrange(0..<head)
                head = 0
            }
            return job
        }

        mutating func removeAll() {
            jobs.removeAll()
            head = 0
        }
    }

    private let shared: Shared

    /// Starts `threadCount` (at least 1) worker threads and the spare, with 8 MiB stacks.
    init(threadCount: Int, name: String) {
        let count = max(1, threadCount)
        shared = Shared(threadCount: count)
        for index in 0...count {
            let shared = self.shared
            let thread = Thread { WorkerPool.work(shared) }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Queues `job`; an idle worker wakes to run it when the rule on ``WorkerPool``
    /// lets it start, else it waits for a running job to finish.
    func submit(isLarge: Bool = false, _ job: @escaping @Sendable () -> Void) {
        shared.condition.lock()
        let entry = Job(sequence: shared.submitted, isLarge: isLarge, run: job)
        shared.submitted += 1
        if isLarge { shared.large.append(entry) } else { shared.small.append(entry) }
        // A job that may not start yet is taken by the thread that finishes one.
        if shared.hasStartable { shared.condition.signal() }
        shared.condition.unlock()
    }

    /// Lets each worker finish its current job and exit; queued jobs are dropped.
    func stop() {
        shared.condition.lock()
        shared.isStopping = true
        shared.small.removeAll()
        shared.large.removeAll()
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    /// A worker's loop. The thread that finishes a job takes the next one itself; when
    /// that start lets one more start (a large job filling the last place opens the
    /// spare), it wakes another thread for it.
    private static func work(_ shared: Shared) {
        var done: Job? = nil
        while true {
            shared.condition.lock()
            if let job = done { shared.finished(job) }
            var next: Job? = nil
            while !shared.isStopping {
                next = shared.take()
                if next != nil { break }
                shared.condition.wait()
            }
            // Only when another job may start: under a backlog of small jobs, waking the
            // spare for each would cost a futile context switch per request.
            if next != nil && shared.hasStartable { shared.condition.signal() }
            shared.condition.unlock()
            guard let job = next else { return }
            job.run()
            done = job
        }
    }
}
