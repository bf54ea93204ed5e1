import Dispatch
import Synchronization

/// Coalesces the ``GroupStoring/currentVersions(of:)`` lookups of concurrent requests into
/// one statement ("group commit", as databases batch the log flushes of concurrent commits).
///
/// A caller registers its names. If no lookup is in flight it leads: it takes every
/// registered caller (itself included), asks the store once for the union of their names
/// (deduplicated, sorted in byte order of UTF-8, so the statement is the same whatever the
/// arrival order), and hands each caller the versions of exactly its own names, or the
/// store's error. A caller that registers while a lookup is in flight waits for the *next*
/// lookup, never the one in flight: that one may have been sent before the caller was
/// received, and a group write acknowledged in between would be missed. So every lookup is
/// sent after every request of its batch arrived, and read-your-writes across replicas
/// (`ReplicaReadYourWritesTests`) holds as with one lookup per request. When the leader finishes and callers
/// are waiting, the first of them leads the next lookup.
///
/// At most one lookup is in flight per resolver; each caller blocks its thread (a
/// `DispatchSemaphore` of its own) until its batch is answered.
///
/// A store that cannot be reached is not waited on twice: when a lookup fails with
/// ``StoreError/unavailable(_:)``, the callers that registered meanwhile get that same error
/// rather than a lookup of their own, and until a lookup succeeds a caller that finds one
/// in flight gets the last such error at once instead of waiting for it. Only failures are
/// shared this way, so read-your-writes is unaffected; a database that stops answering
/// holds one caller (its lookup's, bounded by the store's timeout), not every caller with
/// its solving turn. Held by `VersionResolverTests` and `PostgreSQLTimeoutTests`.
///
/// Bounds: the waiting list holds one entry per blocked thread, so it is bounded by the
/// threads that call ``currentVersions(of:)``; a lookup asks for at most the sum of their
/// names. Tested by `VersionResolverTests`.
public final class VersionResolver: Sendable {
    /// One registered caller.
    struct Waiter: Sendable {
        var ticket: Int
        var names: [String]
        let wake: DispatchSemaphore
    }

    /// Guarded by ``state``.
    struct State: Sendable {
        var nextTicket = 0
        /// Registered callers no lookup has taken yet, in arrival order.
        var waiting: [Waiter] = []
        /// Whether a caller leads (between taking a batch and handing it its answers, or
        /// between being promoted and taking its batch).
        var isLeading = false
        /// Answers for callers of a finished batch, by ticket, until each collects its own.
        var answers: [Int: Result<[String: Int], StoreError>] = [:]
        /// The ticket promoted to lead the next lookup, until it wakes.
        var promoted: Int?
        /// The error of the last lookup when it failed with ``StoreError/unavailable(_:)``;
        /// `nil` once one succeeds (or fails otherwise).
        var unavailable: StoreError?
    }

    /// The lookup a batch sends: a group store's ``GroupStoring/currentVersions(of:)`` or a
    /// font store's ``FontStoring/currentFaceVersions(of:)``.
    private let lookup: @Sendable ([String]) throws(StoreError) -> [String: Int]
    /// Whether the lookup matches names without regard to case (stored faces), so that a
    /// caller's part of a batch's answer is picked the same way.
    private let foldsCase: Bool
    private let state = Mutex(State())
    /// The number of lookups sent (for tests and metrics).
    private let lookups = Atomic<Int>(0)

    /// A resolver in front of `store`'s group versions.
    public init(store: any GroupStoring) {
        self.lookup = { names throws(StoreError) in try store.currentVersions(of: names) }
        self.foldsCase = false
    }

    /// A resolver in front of `store`'s stored face versions (read-your-writes for fonts
    /// across replicas, as for groups).
    public init(fontStore store: any FontStoring) {
        self.lookup = { names throws(StoreError) in try store.currentFaceVersions(of: names) }
        self.foldsCase = true
    }

    /// The number of ``GroupStoring/currentVersions(of:)`` calls made so far.
    public var lookupCount: Int { lookups.load(ordering: .relaxed) }

    /// Callers registered and not yet taken into a lookup (tests wait on it).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// The current version of each of `names` that exists, as
    /// ``GroupStoring/currentVersions(of:)`` answers, from a lookup sent after this call
    /// began (possibly shared with concurrent callers). Names without a current version are
    /// absent; the answer holds no other names.
    /// - Throws: the store's error for the lookup this call was part of (every caller of
    ///   that batch gets it).
    /// - Complexity: one store round trip per batch; O(b log b) to build the batch's sorted
    ///   union, b its total names.
    public func currentVersions(of names: [String]) throws(StoreError) -> [String: Int] {
        let wake = DispatchSemaphore(value: 0)
        let admitted = state.withLock { state -> Result<(Int, Bool), StoreError> in
            if state.isLeading, let unavailable = state.unavailable { return .failure(unavailable) }
            let ticket = state.nextTicket
            state.nextTicket &+= 1
            state.waiting.append(Waiter(ticket: ticket, names: names, wake: wake))
            if state.isLeading { return .success((ticket, false)) }
            state.isLeading = true
            return .success((ticket, true))
        }
        let (ticket, leads) = try admitted.get()
        if !leads {
            wake.wait()
            let answer = state.withLock { state -> Result<[String: Int], StoreError>? in
                if let answer = state.answers.removeValue(forKey: ticket) { return answer }
                // Woken without an answer: promoted to lead the next lookup.
                precondition(state.promoted == ticket, "a version lookup waiter woke with neither an answer nor the lead")
                state.promoted = nil
                return nil
            }
            if let answer { return try answer.get() }
        }
        return try lead(ticket: ticket)
    }

    /// Takes every registered caller, asks the store once, answers them, and hands the lead
    /// to the first caller that registered meanwhile (or gives it up). Returns the leader's
    /// own part.
    private func lead(ticket: Int) throws(StoreError) -> [String: Int] {
        let batch = state.withLock { state -> [Waiter] in
            let batch = state.waiting
            state.waiting.removeAll()
            return batch
        }
        let union = Array(Set(batch.flatMap(\.names))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let result: Result<[String: Int], StoreError>
        if union.isEmpty {
            result = .success([:])
        } else {
            lookups.add(1, ordering: .relaxed)
            do throws(StoreError) {
                result = .success(try lookup(union))
            } catch {
                result = .failure(error)
            }
        }
        var sharedFailure: [Waiter] = []
        let next = state.withLock { state -> Waiter? in
            for waiter in batch where waiter.ticket != ticket {
                state.answers[waiter.ticket] = result.map { part($0, for: waiter.names) }
            }
            if case .failure(let error) = result, case .unavailable = error {
                state.unavailable = error
                // Registered while the store failed: they get its error, not a lookup.
                sharedFailure = state.waiting
                state.waiting.removeAll()
                for waiter in sharedFailure { state.answers[waiter.ticket] = .failure(error) }
            } else {
                state.unavailable = nil
            }
            guard let next = state.waiting.first else {
                state.isLeading = false
                return nil
            }
            state.promoted = next.ticket
            return next
        }
        for waiter in batch where waiter.ticket != ticket { waiter.wake.signal() }
        for waiter in sharedFailure { waiter.wake.signal() }
        next?.wake.signal()
        let own = batch.first { $0.ticket == ticket }?.names ?? []
        return try result.map { part($0, for: own) }.get()
    }

    /// The entries of `versions` named in `names` (without regard to case when
    /// ``foldsCase``: then keyed as the store spells them, as the lookup answers).
    func part(_ versions: [String: Int], for names: [String]) -> [String: Int] {
        var part: [String: Int] = [:]
        if foldsCase {
            let asked = Set(names.lazy.map { $0.lowercased() })
            for (name, version) in versions where asked.contains(name.lowercased()) { part[name] = version }
            return part
        }
        for name in names { if let version = versions[name] { part[name] = version } }
        return part
    }
}
