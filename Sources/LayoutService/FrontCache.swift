import LayoutCompiler
import LayoutStore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An in-memory cache of whole `/solve` and `/validate` responses keyed by the route and
/// the exact request body (``CacheKey/front(_:body:)``), in front of the SQLite result
/// cache: a hit costs one hash of the body and one lookup, no JSON parsing and no SQLite
/// call. Its place among the other caches: ``CacheKey``.
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
/// Never stale, even with other processes writing groups: a scene may include groups
/// whose current version changes without the body changing, or pin a version
/// (`NAME@VERSION`) that another process deletes or prunes, so each entry
/// (``FrontAnswer``) carries the current version of every group its scene includes, and
/// a hit on an entry that has any is used only after the store, asked in one round trip
/// (``GroupStoring/currentVersions(of:)``), names exactly those versions (a delete or a
/// prune always changes them). An entry without groups is answered without asking the
/// store. One whose scene pins every group also records the store's change count
/// (``GroupStoring/changeCount()``, SQLite's `data_version`) read before its versions were
/// confirmed, and is current without the lookup while the store answers the same count
/// (no commit anywhere since, so no delete or prune); it is answered as held while the store cannot be
/// asked (as ``SceneEngine/prepare(body:currentVersions:fonts:resolveGroup:)`` resolves
/// such a scene), and nothing computed meanwhile is kept. A group write through this process also bumps ``generation`` and empties the
/// cache; a result is only inserted if no group write happened here since its request
/// started.
///
/// A `final class` because the cache is shared by all request threads; its state is
/// guarded by a `Mutex`. The same two-generation table also keeps compiled scene
/// structures (``StructureCache``), with each value's own cost.
typealias FrontCache = TwoGenerationCache<FrontCacheKey, FrontAnswer>

/// A front cache entry: an answer's body and the current versions of the groups its scene
/// includes, pinned or not (``SceneEngine/Prepared/currentVersions``: sorted by name, one
/// per name; empty when the scene has none).
///
/// Stored font faces likewise: ``fontNames`` are the face names the scene's families may
/// have (``SceneEngine/Prepared/fontNames``) and ``fontVersions`` the stored faces the font
/// store named for them; a hit is used only when the store, asked again, names exactly
/// those (a face added, replaced or deleted in any process makes it stale).
struct FrontAnswer: Sendable, Equatable {
    let body: [UInt8]
    let currentVersions: [GroupVersion]
    /// The names of ``currentVersions``, in order: what to ask the store on a hit (made
    /// once here, not on every hit).
    let currentNames: [String]
    /// The stored face names asked of the font store, sorted; empty without stored families.
    let fontNames: [String]
    /// The stored faces the font store answered for ``fontNames``, sorted by name.
    let fontVersions: [StoredFaceVersion]
    /// Whether the scene pins a version of each group it includes: then, while the store
    /// cannot be asked, the hit is answered as held.
    let pinnedOnly: Bool
    /// With ``pinnedOnly``: the group store's ``GroupStoring/changeCount()`` read before
    /// the versions were last confirmed; while the store still answers it, no version can
    /// have been removed, and the hit is current without a lookup. `nil`: always look up.
    let changeCount: Int64?

    init(body: [UInt8], currentVersions: [GroupVersion] = [], fontNames: [String] = [], fontVersions: [StoredFaceVersion] = [],
         pinnedOnly: Bool = false, changeCount: Int64? = nil) {
        self.pinnedOnly = pinnedOnly
        self.changeCount = pinnedOnly ? changeCount : nil
        self.body = body
        self.currentVersions = currentVersions
        self.currentNames = currentVersions.map(\.name)
        self.fontNames = fontNames
        self.fontVersions = fontVersions
    }

    /// This answer with its versions confirmed anew after the store's change count was
    /// `changeCount`.
    func confirmed(at changeCount: Int64) -> FrontAnswer {
        FrontAnswer(body: body, currentVersions: currentVersions, fontNames: fontNames, fontVersions: fontVersions,
                    pinnedOnly: pinnedOnly, changeCount: changeCount)
    }

    /// Whether `versions` (the store's answer for ``currentNames``) are the versions this
    /// answer was computed from.
    func isCurrent(_ versions: [String: Int]) -> Bool {
        currentVersions.allSatisfy { versions[$0.name] == $0.version }
    }

    /// Whether `versions` (the font store's answer for ``fontNames``) are exactly the faces
    /// this answer was computed with: none added, replaced or deleted.
    func fontsAreCurrent(_ versions: [String: Int]) -> Bool {
        versions.count == fontVersions.count && fontVersions.allSatisfy { versions[$0.name] == $0.version }
    }
}

/// A key of bytes in a ``CacheKey/Space``: a route and its exact request body (front
/// cache), or a scene template (``SceneTemplate``). Made by ``CacheKey``.
struct FrontCacheKey: Hashable, Sendable {
    let space: CacheKey.Space
    let bytes: [UInt8]
    /// The body's hash (``BodyHash``, keyed per process), computed once, outside the lock
    /// (a synthesized conformance would feed `Hasher` byte by byte, under the lock).
    let bodyHash: Int

    init(space: CacheKey.Space, bytes: [UInt8]) {
        self.space = space
        self.bytes = bytes
        bodyHash = bytes.withUnsafeBytes { BodyHash.hash($0, tag: space.rawValue) }
    }

    /// Same space and the same bytes, compared with `memcmp` (`Array`'s `==` goes element
    /// by element).
    static func == (a: FrontCacheKey, b: FrontCacheKey) -> Bool {
        guard a.space == b.space, a.bodyHash == b.bodyHash, a.bytes.count == b.bytes.count else { return false }
        return a.bytes.withUnsafeBytes { left in
            b.bytes.withUnsafeBytes { right in
                left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(bodyHash) }
}

extension TwoGenerationCache where Key == FrontCacheKey, Value == FrontAnswer {
    /// What an entry costs against ``maxBytes``: its request body plus its response body,
    /// plus each recorded version's name (held twice) and 8 bytes for its number, and the
    /// font names asked and faces answered.
    static func cost(_ key: Key, _ value: FrontAnswer) -> Int {
        key.bytes.count + value.body.count + value.currentVersions.reduce(0) { $0 + 2 * $1.name.utf8.count + 8 }
            + value.fontNames.reduce(0) { $0 + $1.utf8.count } + value.fontVersions.reduce(0) { $0 + $1.name.utf8.count + 8 }
    }

    /// Keeps `value` for `key` (see ``insert(_:for:cost:generation:)``), at ``cost(_:_:)``.
    func insert(_ value: FrontAnswer, for key: Key, generation: UInt64) {
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

    /// Whether some thread holds the cache's lock now (for tests: values are torn down
    /// after it is released, `FrontCacheTests.droppedEntriesAreReleasedAfterTheLock`).
    var isLocked: Bool { state.withLockIfAvailable { _ in false } ?? true }

    /// The cache's generation: read it before computing a value and pass it to
    /// ``insert(_:for:cost:generation:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    func lookup(_ key: Key) -> Value? {
        guard isEnabled else { return nil }
        // A generation a promotion drops is released after the lock (``insertYoung(_:_:_:)``).
        let (value, dropped) = state.withLock { state -> (Value?, [Key: Entry]) in
            if let hit = state.young[key] { return (hit.value, [:]) }
            guard let hit = state.old.removeValue(forKey: key) else { return (nil, [:]) }
            state.oldBytes -= hit.cost
            return (hit.value, insertYoung(&state, key, hit))
        }
        withExtendedLifetime(dropped) {}
        return value
    }

    /// Keeps `value` for `key` at `cost` bytes unless ``invalidate()`` ran since
    /// `generation` was read or the cost is over ``maxEntryBytes``.
    func insert(_ value: Value, for key: Key, cost: Int, generation: UInt64) {
        guard isEnabled, cost <= maxEntryBytes else { return }
        let dropped = state.withLock { state -> ([Key: Entry], Entry?) in
            guard state.generation == generation else { return ([:], nil) }
            let stale = state.old.removeValue(forKey: key)
            if let stale { state.oldBytes -= stale.cost }
            return (insertYoung(&state, key, Entry(value: value, cost: cost)), stale)
        }
        withExtendedLifetime(dropped) {}
    }

    /// Empties the cache and bumps the generation (the front cache: after any group write).
    func invalidate() {
        // The tables are released after the lock, as ``insertYoung(_:_:_:)``'s dropped one.
        let dropped = state.withLock { state -> ([Key: Entry], [Key: Entry]) in
            state.generation &+= 1
            defer {
                state.young = [:]
                state.old = [:]
                state.youngBytes = 0
                state.oldBytes = 0
            }
            return (state.young, state.old)
        }
        withExtendedLifetime(dropped) {}
    }

    /// Puts an entry of at most ``maxEntryBytes`` into the young table, which first
    /// becomes the old one if it is full by count or would go over `maxBytes / 2`.
    ///
    /// - Returns: the old table that dropped out (empty when none did). The caller releases
    ///   it after unlocking: tearing down a generation of compiled scenes and solvers (the
    ///   structure cache) takes far longer than the lookups waiting on the lock.
    private func insertYoung(_ state: inout State, _ key: Key, _ entry: Entry) -> [Key: Entry] {
        if let replaced = state.young.removeValue(forKey: key) { state.youngBytes -= replaced.cost }
        var dropped: [Key: Entry] = [:]
        if state.young.count >= max(1, capacity / 2) || state.youngBytes + entry.cost > maxBytes / 2 {
            dropped = state.old
            state.old = state.young
            state.oldBytes = state.youngBytes
            state.young = [:]
            state.youngBytes = 0
        }
        state.young[key] = entry
        state.youngBytes += entry.cost
        return dropped
    }
}
