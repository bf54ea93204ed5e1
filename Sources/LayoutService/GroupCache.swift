import LayoutCompiler

/// Stored groups decoded, keyed by ``CacheKey/group(name:version:)`` (`NAME@VERSION`), so
/// a scene that includes a group does not parse and decode the group's stored JSON on
/// every request. The store is still asked, once per request for all of a scene's names
/// (``GroupStoring/currentVersions(of:)``), which version each name has now; a kept
/// version is then used without reading it again while it is sure to be stored
/// (``lookup(name:version:current:)``).
///
/// A version's content never changes and its number is never reused, but a delete (of
/// every version) or a prune (of the oldest, by a write in any process) removes it, and
/// both change the name's current version: a delete leaves none, a prune comes with a new
/// one. So each entry records the name's current version when the version was last read
/// from the store, and is used only while the store names that same current version (or
/// when it is itself the current version); otherwise it is read again, and a removed one
/// is `nil`. Held by `GroupCacheTests` and `ReplicaPinnedVersionTests`.
///
/// Bounded by ``capacity`` entries and ``maxBytes`` bytes of the groups' stored JSON (an
/// entry costs its key plus its constraints' and metrics' JSON; one over `maxBytes / 8`,
/// 2 MiB, is not kept and is decoded per request). Emptied on every group write, and an
/// entry decoded while a write happened is not kept, as in the front cache. The policy is
/// ``TwoGenerationCache``'s.
final class GroupCache: Sendable {
    /// The most groups kept: 1,024.
    static let capacity = 1024
    /// The most bytes of stored group JSON kept: 16 MiB.
    static let maxBytes = 16 << 20

    /// A decoded version and the name's current version when it was last read.
    struct Entry: Sendable {
        let group: ResolvedGroup
        let current: Int
    }

    private let table = TwoGenerationCache<String, Entry>(capacity: GroupCache.capacity, maxBytes: GroupCache.maxBytes)

    /// Entries and bytes held now (for tests).
    var usage: (entries: Int, bytes: Int) { table.usage }

    /// The group stored as `name` version `version`, read from the store while the name's
    /// current version was `current`, decoded by `decode` unless kept (a kept decoding is
    /// reused: the content of a version never changes). `jsonBytes` is its stored JSON's
    /// length, its cost. `decode`'s errors are passed on and nothing is kept.
    func group(name: String, version: Int, current: Int, jsonBytes: Int, decode: () throws -> ResolvedGroup) rethrows -> ResolvedGroup {
        let key = CacheKey.group(name: name, version: version)
        let generation = table.generation
        let group = try table.lookup(key)?.group ?? decode()
        table.insert(Entry(group: group, current: current), for: key, cost: key.utf8.count + jsonBytes, generation: generation)
        return group
    }

    /// The group kept as `name` version `version`, or `nil`, without a store round trip:
    /// kept when `version` is `current` (the name's current version, just asked of the
    /// store) or was read while `current` was the current version already (no delete or
    /// prune since); `nil` otherwise, to be read again.
    func lookup(name: String, version: Int, current: Int) -> ResolvedGroup? {
        guard let entry = table.lookup(CacheKey.group(name: name, version: version)),
              version == current || entry.current == current else { return nil }
        return entry.group
    }

    /// The group kept as `name` version `version`, however long ago it was read, or `nil`:
    /// what a scene pinning it is answered with while the store cannot be asked.
    func held(name: String, version: Int) -> ResolvedGroup? {
        table.lookup(CacheKey.group(name: name, version: version))?.group
    }

    /// Empties the cache (after any group write).
    func invalidate() { table.invalidate() }
}
