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
/// guarded by a `Mutex`. The same two-generation table also keeps compiled scene
/// structures (``StructureCache``), with each value's own cost.
typealias FrontCache = TwoGenerationCache<FrontCacheKey, [UInt8]>

/// A front-cache key: the route and the exact request body.
struct FrontCacheKey: Hashable, Sendable {
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

    static func == (a: FrontCacheKey, b: FrontCacheKey) -> Bool {
        a.route == b.route && a.bodyHash == b.bodyHash && a.body == b.body
    }

    func hash(into hasher: inout Hasher) { hasher.combine(bodyHash) }
}

extension TwoGenerationCache where Key == FrontCacheKey, Value == [UInt8] {
    /// What an entry costs against ``maxBytes``: its request body plus its response body.
    static func cost(_ key: Key, _ value: [UInt8]) -> Int { key.body.count + value.count }

    /// Keeps `value` for `key` (see ``insert(_:for:cost:generation:)``), at ``cost(_:_:)``.
    func insert(_ value: [UInt8], for key: Key, generation: UInt64) {
        insert(value, for: key, cost: Self.cost(key, value), generation: generation)
    }
}

/// An approximately least-recently-used cache bounded by entries and bytes, in two
/// generations (see ``FrontCache`` for the policy). Each entry's cost in bytes is given
/// when it is inserted.
final class TwoGenerationCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var cost: Int
    }

    private struct State {
        var young: [Key: Entry] = [:]
        var old: [Key: Entry] = [:]
        /// Bytes held by `young` and `old`.
        var youngBytes = 0
        var oldBytes = 0
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The most entries kept.
    let capacity: Int
    /// The most bytes kept.
    let maxBytes: Int
    /// The largest entry kept, bytes: `maxBytes / 8`.
    let maxEntryBytes: Int

    /// A cache of at most `capacity` entries and `maxBytes` bytes; either 0 turns it off.
    init(capacity: Int, maxBytes: Int) {
        self.capacity = max(0, capacity)
        self.maxBytes = max(0, maxBytes)
        self.maxEntryBytes = max(0, maxBytes) / 8
    }

    /// Entries and bytes held now (for tests).
    var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.young.count + $0.old.count, $0.youngBytes + $0.oldBytes) }
    }

    private var isEnabled: Bool { capacity > 0 && maxEntryBytes > 0 }

    /// The cache's generation: read it before computing a value and pass it to
    /// ``insert(_:for:cost:generation:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    func lookup(_ key: Key) -> Value? {
        guard isEnabled else { return nil }
        return state.withLock { state -> Value? in
            if let hit = state.young[key] { return hit.value }
            guard let hit = state.old.removeValue(forKey: key) else { return nil }
            state.oldBytes -= hit.cost
            insertYoung(&state, key, hit)
            return hit.value
        }
    }

    /// Keeps `value` for `key` at `cost` bytes unless ``invalidate()`` ran since
    /// `generation` was read or the cost is over ``maxEntryBytes``.
    func insert(_ value: Value, for key: Key, cost: Int, generation: UInt64) {
        guard isEnabled, cost <= maxEntryBytes else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            if let stale = state.old.removeValue(forKey: key) { state.oldBytes -= stale.cost }
            insertYoung(&state, key, Entry(value: value, cost: cost))
        }
    }

    /// Empties the cache and bumps the generation (the front cache: after any group write).
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
    private func insertYoung(_ state: inout State, _ key: Key, _ entry: Entry) {
        if let replaced = state.young.removeValue(forKey: key) { state.youngBytes -= replaced.cost }
        if state.young.count >= max(1, capacity / 2) || state.youngBytes + entry.cost > maxBytes / 2 {
            state.old = state.young
            state.oldBytes = state.youngBytes
            state.young = [:]
            state.youngBytes = 0
        }
        state.young[key] = entry
        state.youngBytes += entry.cost
    }
}
