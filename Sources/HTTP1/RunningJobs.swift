/// The jobs running under the admission rule that `WorkerPool` follows for threads and
/// the layout service's solve turns follow for solves: at most ``limit`` jobs at once,
/// except that while all ``limit`` running jobs are large, one small job more may start
/// (on "the spare"). So a burst of large jobs never holds a small one longer than the
/// small ones ahead of it, and the spare never runs a large job. A value: the caller
/// guards it with its own lock. Tested by `HTTP1Tests.RunningJobsTests`.
public struct RunningJobs: Sendable, Equatable {
    /// The jobs that may run at once without the spare (at least 1).
    public let limit: Int
    /// Jobs started and not finished, the spare's included.
    public private(set) var running = 0
    /// Large jobs started and not finished.
    public private(set) var runningLarge = 0

    /// No job running, `limit` (at least 1) at once.
    public init(limit: Int) { self.limit = max(1, limit) }

    /// Whether a job of this size may start now. A job beyond ``limit`` can only be the
    /// spare's: ``running`` exceeds ``limit`` only while the spare runs, so `running ==
    /// limit` with every one large means the spare is free.
    public func mayStart(large isLarge: Bool) -> Bool {
        running < limit || (!isLarge && running == limit && runningLarge == limit)
    }

    /// Counts a job started, which ``mayStart(large:)`` allowed; answers whether it runs
    /// beyond ``limit``, on the spare.
    @discardableResult
    public mutating func started(large isLarge: Bool) -> Bool {
        precondition(mayStart(large: isLarge), "a job started against the rule")
        let onSpare = running == limit
        running += 1
        if isLarge { runningLarge += 1 }
        return onSpare
    }

    /// Counts a job finished, ``started(large:)`` with the same size.
    public mutating func finished(large isLarge: Bool) {
        precondition(running > 0 && (!isLarge || runningLarge > 0), "a job finished that did not start")
        running -= 1
        if isLarge { runningLarge -= 1 }
    }
}
