import Dispatch
import Foundation

/// Keeps the signal sources alive for the life of the process.
private final class SignalSources: @unchecked Sendable {
    // Written once on the main thread at start-up, never read concurrently.
    var sources: [any DispatchSourceSignal] = []
}
private let signalSources = SignalSources()

/// Runs `onSignal` once, on a background queue, at the first SIGTERM or SIGINT; a second
/// signal exits at once with status 1. SIGPIPE is ignored so a write to a closed socket
/// is an error, not the end of the process.
///
/// Uses `DispatchSource.makeSignalSource` (the default actions of the two signals are
/// replaced with `SIG_IGN` so the source sees them).
func handleTerminationSignals(_ onSignal: @escaping @Sendable () -> Void) {
    signal(SIGPIPE, SIG_IGN)
    let queue = DispatchQueue(label: "layoutd.signals")
    let once = SignalOnce()
    for number in [SIGTERM, SIGINT] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler {
            if once.first() {
                DispatchQueue.global().async { onSignal() }
            } else {
                exit(1)
            }
        }
        source.resume()
        signalSources.sources.append(source)
    }
}

private final class SignalOnce: @unchecked Sendable {
    // Only touched on the serial signal queue.
    private var fired = false
    func first() -> Bool {
        defer { fired = true }
        return !fired
    }
}
