#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Testing
@testable import HTTP1

struct SignalHandlersTests {
    /// Dispatch registers a signal source asynchronously after `resume()`, and
    /// a signal sent before that is ignored (not fatal), so the first signal is
    /// repeated until one arrives (bounded); later signals arrive at once.
    /// The first SIGTERM runs `onSignal`; a later SIGINT or SIGTERM runs `onRepeat` (in
    /// `layoutd serve`, `exit(1)`), never `onSignal` again. (A repeat of the first signal
    /// sent while the first was already on its way counts as a later one, so the repeats
    /// are at least the two sent after it.)
    @Test func firstSignalRunsOnSignalOnceLaterOnesOnRepeat() {
        let first = DispatchSemaphore(value: 0)
        let repeated = DispatchSemaphore(value: 0)
        let calls = Mutex((onSignal: 0, onRepeat: 0))
        installSignalHandlers(onRepeat: {
            calls.withLock { $0.onRepeat += 1 }
            repeated.signal()
        }) {
            calls.withLock { $0.onSignal += 1 }
            first.signal()
        }
        var delivered = false
        for _ in 0..<100 where !delivered {
            kill(getpid(), SIGTERM)
            delivered = first.wait(timeout: .now() + 0.05) == .success
        }
        #expect(delivered)
        kill(getpid(), SIGINT)
        #expect(repeated.wait(timeout: .now() + 5) == .success)
        kill(getpid(), SIGTERM)
        #expect(repeated.wait(timeout: .now() + 5) == .success)
        let counted = calls.withLock { $0 }
        #expect(counted.onSignal == 1)
        #expect(counted.onRepeat >= 2)
        // SIGPIPE is ignored: this would otherwise end the test process.
        kill(getpid(), SIGPIPE)
    }
}
