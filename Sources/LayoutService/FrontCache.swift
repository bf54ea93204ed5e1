import Synchronization

/// An in-memory cache of whole `/solve` responses keyed by the exact request body, in
/// front of the SQLite result cache: a hit costs one hash of the body and one lookup,
/// no JSON parsing and no SQLite call (issue 9).
///
/// Eviction is approximately least-recently-used with two generations: entries go into
/// the young table; when it holds `capacity / 2` entries, it becomes the old table and
/// the previous old one is dropped; a hit in the old table moves the entry back to the
/// young one. O(1) per operation; at most `capacity` entries.
///
/// Never stale: scenes may include groups, whose content can change without the body
/// changing. Every group write bumps ``generation`` and empties the cache; a result is
/// only inserted if no group write happened since its request started.
///
/// A `final class` because the cache is shared by all request threads; its state is
/// guarded by a `Mutex`.
final class FrontCache: Sendable {
    struct Key: Hashable, Sendable {
        let route: UInt8
        let body: [UInt8]
        /// The body's hash, computed once, outside the lock, over the bytes in one call
        /// (a synthesized conformance would feed the hasher byte by byte, under the lock).
        let bodyHash: Int

        init(route: UInt8, body: [UInt8]) {
            self.route = route
            self.body = body
            var hasher = Hasher()
            hasher.combine(route)
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
            bodyHash = hasher.finalize()
        }

        static func == (a: Key, b: Key) -> Bool {
            a.route == b.route && a.bodyHash == b.bodyHash && a.body == b.body
        }

        func hash(into hasher: inout Hasher) { hasher.combine(bodyHash) }
    }

    private struct State {
        var young: [Key: [UInt8]] = [:]
        var old: [Key: [UInt8]] = [:]
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The cache's generation: read it before solving and pass it to ``insert(_:for:generation:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    func lookup(_ key: Key) -> [UInt8]? {
        guard capacity > 0 else { return nil }
        return state.withLock { state -> [UInt8]? in
            if let hit = state.young[key] { return hit }
            guard let hit = state.old.removeValue(forKey: key) else { return nil }
            insertYoung(&state, key, hit)
            return hit
        }
    }

    func insert(_ value: [UInt8], for key: Key, generation: UInt64) {
        guard capacity > 0 else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            insertYoung(&state, key, value)
        }
    }

    /// Empties the cache and bumps the generation (call after any group write).
    func invalidate() {
        state.withLock { state in
            state.generation &+= 1
            state.young.removeAll()
            state.old.removeAll()
        }
    }

    private func insertYoung(_ state: inout State, _ key: Key, _ value: [UInt8]) {
        if state.young.count >= max(1, capacity / 2) {
            state.old = state.young
            state.young = [:]
        }
        state.young[key] = value
    }
}
