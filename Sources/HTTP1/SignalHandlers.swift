#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// Keeps the signal sources alive for the life of the process.
private let signalSources = Mutex<[any DispatchSourceSignal]>([])

/// Calls `onSignal` (on a Dispatch queue, not in a signal context) each time
/// the process receives SIGTERM or SIGINT, and ignores SIGPIPE so that a write
/// to a closed socket returns `EPIPE` instead of killing the process.
///
/// The default actions of SIGTERM and SIGINT are first set to `SIG_IGN`, then
/// Dispatch installs its own handler when it registers the sources (on Linux,
/// asynchronously, just after this returns): a signal in that short window is
/// ignored rather than killing the process. A typical `onSignal` calls
/// ``HTTPServer/shutdown()`` and lets `main` return. Repeated signals call
/// `onSignal` again; the caller decides whether a second one is more urgent.
public func installSignalHandlers(_ onSignal: @escaping @Sendable () -> Void) {
    signal(SIGPIPE, SIG_IGN)
    signalSources.withLock { sources in
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: onSignal)
            source.resume()
            sources.append(source)
        }
    }
}
