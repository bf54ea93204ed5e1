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
/// The default actions of SIGTERM and SIGINT are replaced (`SIG_IGN`) so the
/// process is not killed before `onSignal` runs; a typical `onSignal` calls
/// ``HTTPServer/shutdown()`` and lets `main` return.
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
