import Synchronization

/// An in-memory cache of whole `/solve` responses keyed by the exact request body, in
/// front of the SQLite result cache: a hit costs one hash of the body and one lookup,
/// no JSON parsing and no SQLite call (issue 9).
///
/// Eviction is approximately least-recently-used with two generations: entries go into
/// the young table; when it holds `capacity / 2` entries, or an insert would take it over
/// `maxBytes / 2` bytes, it becomes the old table and the previous old one is dropped; a
/// hit in the old table moves the entry back to the young one. O(1) per operation (a
/// generation change frees the old table in one go); at most `capacity` entries and
/// `maxBytes` bytes (an entry costs its request body plus its response body). An entry
/// over ``maxEntryBytes`` (`maxBytes / 8`) is not kept at all, so one huge answer
/// cannot empty the cache or hold memory.
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
        /// Bytes held by `young` and `old` (request bodies plus response bodies).
        var youngBytes = 0
        var oldBytes = 0
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The most entries kept.
    let capacity: Int
    /// The most bytes kept, request and response bodies together.
    let maxBytes: Int
    /// The largest entry kept, bytes (request body plus response body): `maxBytes / 8`.
    let maxEntryBytes: Int

    /// A cache of at most `capacity` entries and `maxBytes` bytes; either 0 turns it off.
    init(capacity: Int, maxBytes: Int) {
        self.capacity = max(0, capacity)
        self.maxBytes = max(0, maxBytes)
        self.maxEntryBytes = max(0, maxBytes) / 8
    }

    /// What an entry costs against ``maxBytes``.
    static func cost(_ key: Key, _ value: [UInt8]) -> Int { key.body.count + value.count }

    /// Entries and bytes held now (for tests).
    var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.young.count + $0.old.count, $0.youngBytes + $0.oldBytes) }
    }

    private var isEnabled: Bool { capacity > 0 && maxEntryBytes > 0 }

    /// The cache's generation: read it before solving and pass it to ``insert(_:for:generation:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    func lookup(_ key: Key) -> [UInt8]? {
        guard isEnabled else { return nil }
        return state.withLock { state -> [UInt8]? in
            if let hit = state.young[key] { return hit }
            guard let hit = state.old.removeValue(forKey: key) else { return nil }
            state.oldBytes -= Self.cost(key, hit)
            insertYoung(&state, key, hit)
            return hit
        }
    }

    /// Keeps `value` for `key` unless a group write happened since `generation` was read
    /// or the entry is over ``maxEntryBytes``.
    func insert(_ value: [UInt8], for key: Key, generation: UInt64) {
        guard isEnabled, Self.cost(key, value) <= maxEntryBytes else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            if let stale = state.old.removeValue(forKey: key) { state.oldBytes -= Self.cost(key, stale) }
            insertYoung(&state, key, value)
        }
    }

    /// Empties the cache and bumps the generation (call after any group write).
    func invalidate() {
        state.withLock { state in
            state.generation &+= 1
            state.young.removeAll()
            state.old.removeAll()
            state.youngBytes = 0
            state.oldBytes = 0
        }
    }

    /// Puts an entry of at most ``maxEntryBytes`` into the young table, which first
    /// becomes the old one if it is full by count or would go over `maxBytes / 2`.
    private func insertYoung(_ state: inout State, _ key: Key, _ value: [UInt8]) {
        let cost = Self.cost(key, value)
        if let replaced = state.young.removeValue(forKey: key) { state.youngBytes -= Self.cost(key, replaced) }
        if state.young.count >= max(1, capacity / 2) || state.youngBytes + cost > maxBytes / 2 {
            state.old = state.young
            state.oldBytes = state.youngBytes
            state.young = [:]
            state.youngBytes = 0
        }
        state.young[key] = value
        state.youngBytes += cost
    }
}
