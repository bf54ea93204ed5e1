import Foundation

/// A fixed set of threads running handler jobs in FIFO order.
///
/// Handlers may be slow or CPU-bound, so they run here, never on the I/O
/// queues: a slow handler occupies one worker and delays only the connections
/// whose requests queue behind it, while every connection's reads and writes
/// go on. A class because it owns threads.
final class WorkerPool: Sendable {
    /// The job queue and the stop flag, guarded by `condition`.
    private final class Shared: @unchecked Sendable {
        // @unchecked: `jobs`, `head` and `isStopping` are only touched while
        // `condition` is locked.
        let condition = NSCondition()
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var isStopping = false
    }

    private let shared = Shared()

    /// Starts `threadCount` (at least 1) worker threads with 8 MiB stacks.
    init(threadCount: Int, name: String) {
        for index in 0..<max(1, threadCount) {
            let shared = self.shared
            let thread = Thread { WorkerPool.work(shared) }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Queues `job`; one idle worker wakes to run it. Jobs run in submission order.
    func submit(_ job: @escaping @Sendable () -> Void) {
        shared.condition.lock()
        shared.jobs.append(job)
        shared.condition.signal()
        shared.condition.unlock()
    }

    /// Lets each worker finish its current job and exit; queued jobs are dropped.
    func stop() {
        shared.condition.lock()
        shared.isStopping = true
        shared.jobs.removeAll()
        shared.head = 0
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    private static func work(_ shared: Shared) {
        while true {
            shared.condition.lock()
            while shared.head == shared.jobs.count && !shared.isStopping {
                shared.condition.wait()
            }
            if shared.isStopping {
                shared.condition.unlock()
                return
            }
            let job = shared.jobs[shared.head]
            shared.head += 1
            if shared.head == shared.jobs.count {
                shared.jobs.removeAll(keepingCapacity: true)
                shared.head = 0
            } else if shared.head >= 1024 && shared.head * 2 >= shared.jobs.count {
                shared.jobs.removeSubrange(0..<shared.head)
                shared.head = 0
            }
            shared.condition.unlock()
            job()
        }
    }
}
