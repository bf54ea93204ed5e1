#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// Keeps the signal sources alive for the life of the process.
private let signalSources = Mutex<[any DispatchSourceSignal]>([])

/// The process's one handler of SIGTERM and SIGINT: the first of either runs `onSignal`
/// once, on a global Dispatch queue (not in a signal context); any later one runs
/// `onRepeat` (by default `exit(1)`: a second signal stops a drain that takes too long).
/// SIGPIPE is ignored, so a write to a closed socket returns `EPIPE` instead of ending
/// the process.
///
/// The default actions of SIGTERM and SIGINT are first set to `SIG_IGN`, then Dispatch
/// installs its own handler when it registers the sources (on Linux, asynchronously,
/// just after this returns): a signal in that short window is ignored rather than
/// killing the process. `layoutd serve` passes an `onSignal` that calls
/// ``HTTPServer/shutdown()`` and exits 0. Call it once per process.
///
/// Held by `SignalHandlersTests.firstSignalRunsOnSignalOnceLaterOnesOnRepeat` and, for
/// the server, by the e2e checks `process/sigterm-exits-0` and `process/sigint-exits-0`.
public func installSignalHandlers(onRepeat: @escaping @Sendable () -> Void = { exit(1) },
                                  _ onSignal: @escaping @Sendable () -> Void) {
    signal(SIGPIPE, SIG_IGN)
    let queue = DispatchQueue(label: "layoutd.signals")
    let fired = SignalLatch()
    signalSources.withLock { sources in
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if fired.set() {
                    DispatchQueue.global().async { onSignal() }
                } else {
                    onRepeat()
                }
            }
            source.resume()
            sources.append(source)
        }
    }
}

/// Whether a termination signal has arrived.
private final class SignalLatch: Sendable {
    private let fired = Mutex(false)

    /// `true` the first time it is called, `false` after.
    func set() -> Bool {
        fired.withLock { fired in
            defer { fired = true }
            return !fired
        }
    }
}
