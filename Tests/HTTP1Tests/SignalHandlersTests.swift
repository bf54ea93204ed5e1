#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Testing
@testable import HTTP1

struct SignalHandlersTests {
    /// Dispatch registers a signal source asynchronously after `resume()`, and
    /// a signal sent before that is ignored (not fatal), so the first signal is
    /// repeated until one arrives (bounded); later signals arrive at once.
    @Test func sigtermAndSigintReachTheCallbackAndSigpipeIsIgnored() {
        let received = DispatchSemaphore(value: 0)
        installSignalHandlers { received.signal() }
        var delivered = false
        for _ in 0..<100 where !delivered {
            kill(getpid(), SIGTERM)
            delivered = received.wait(timeout: .now() + 0.05) == .success
        }
        #expect(delivered)
        kill(getpid(), SIGINT)
        #expect(received.wait(timeout: .now() + 5) == .success)
        // SIGPIPE is ignored: this would otherwise end the test process.
        kill(getpid(), SIGPIPE)
    }
}
