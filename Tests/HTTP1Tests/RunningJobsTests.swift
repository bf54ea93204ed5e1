import HTTP1
import Testing

/// ``RunningJobs``: at most `limit` jobs, plus one small job while all `limit` running
/// are large (the spare); the spare never runs a large job.
struct RunningJobsTests {
    @Test func aSmallJobTakesTheSpareOnlyWhileEveryRunningJobIsLarge() {
        var jobs = RunningJobs(limit: 2)
        #expect(jobs.mayStart(large: true) && jobs.mayStart(large: false))
        let onSpare1 = jobs.started(large: true)
        #expect(onSpare1 == false)
        let onSpare2 = jobs.started(large: true)
        #expect(onSpare2 == false)
        #expect(!jobs.mayStart(large: true))
        #expect(jobs.mayStart(large: false))
        let onSpare3 = jobs.started(large: false)
        #expect(onSpare3 == true)
        #expect(jobs.running == 3 && jobs.runningLarge == 2)
        // The spare is one.
        #expect(!jobs.mayStart(large: false) && !jobs.mayStart(large: true))
        jobs.finished(large: false)
        #expect(jobs.running == 2 && jobs.mayStart(large: false) && !jobs.mayStart(large: true))
    }

    @Test func theSpareStaysClosedWhileASmallJobRuns() {
        var jobs = RunningJobs(limit: 2)
        jobs.started(large: false)
        jobs.started(large: true)
        #expect(!jobs.mayStart(large: false) && !jobs.mayStart(large: true))
        jobs.finished(large: false)
        #expect(jobs.mayStart(large: false) && jobs.mayStart(large: true))
        #expect(jobs == RunningJobs(limit: 2).startedOnce(large: true))
    }

    /// A large job finishing while the spare runs frees no place: the small job on the
    /// spare now holds one of the `limit`, so neither size may start until another ends.
    @Test func aLargeJobFinishingBesideTheSpareFreesNoPlace() {
        var jobs = RunningJobs(limit: 2)
        jobs.started(large: true)
        jobs.started(large: true)
        let onSpare4 = jobs.started(large: false)
        #expect(onSpare4)
        jobs.finished(large: true)
        #expect(jobs.running == 2 && jobs.runningLarge == 1)
        #expect(!jobs.mayStart(large: false) && !jobs.mayStart(large: true))
        jobs.finished(large: false)
        #expect(jobs.mayStart(large: true) && jobs.mayStart(large: false))
        let onSpare5 = jobs.started(large: false)
        #expect(onSpare5 == false)
    }

    @Test func aLimitBelowOneIsOne() {
        var jobs = RunningJobs(limit: 0)
        #expect(jobs.limit == 1)
        let onSpare6 = jobs.started(large: true)
        #expect(onSpare6 == false)
        let onSpare7 = jobs.started(large: false)
        #expect(onSpare7 == true)
        #expect(jobs.running == 2)
    }
}

extension RunningJobs {
    /// This value with one more job started.
    fileprivate func startedOnce(large isLarge: Bool) -> RunningJobs {
        var copy = self
        copy.started(large: isLarge)
        return copy
    }
}
