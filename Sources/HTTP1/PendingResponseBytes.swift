import Synchronization

/// The bytes of answers the server holds: written and waiting for clients to read them
/// (every connection's unsent output), plus those an application reserves while it is
/// still writing an answer. ``ServerLimits/maxPendingResponseBytes`` bounds it.
///
/// Connections add their output unconditionally (an answer already built is sent);
/// ``reserve(_:)`` refuses what would take the count past ``limit``, so an application
/// that reserves as its answers grow keeps N concurrent large answers within the bound
/// instead of N times an answer's size over it. Before a request is handled the server also
/// refuses it while the count is over the limit, unless its answer is small (`HTTPServer`'s
/// `isSmallAnswer`).
///
/// The server keeps a second instance for the bytes of unfinished requests
/// (``ServerLimits/maxPendingRequestBytes``, ``HTTPServer/pendingRequestBytes``): the same
/// bounded atomic count.
///
/// A `final class` shared by every connection and writer; the count is atomic.
public final class PendingResponseBytes: Sendable {
    /// The bound, bytes (``ServerLimits/maxPendingResponseBytes``, or
    /// ``ServerLimits/maxPendingRequestBytes`` for the count of unfinished requests).
    public let limit: Int
    private let count = Atomic<Int>(0)

    /// An empty pool bounded by `limit` bytes.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes held now.
    public var current: Int { count.load(ordering: .relaxed) }

    /// Adds `bytes` if the count stays at most ``limit``.
    /// - Returns: whether they were added.
    public func reserve(_ bytes: Int) -> Bool {
        var current = count.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else { return false }
            let (exchanged, original) = count.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Takes back `bytes` added by ``reserve(_:)``.
    public func release(_ bytes: Int) {
        count.subtract(bytes, ordering: .relaxed)
    }

    /// Adds (or with a negative `delta`, removes) a connection's output, unconditionally.
    func add(_ delta: Int) {
        count.add(delta, ordering: .relaxed)
    }
}
