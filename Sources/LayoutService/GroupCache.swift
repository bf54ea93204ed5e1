import LayoutCompiler

/// Stored groups decoded, keyed by ``CacheKey/group(name:version:)`` (`NAME@VERSION`), so
/// a scene that includes a group does not parse and decode the group's stored JSON on
/// every request. The store is still asked which version an unversioned reference names
/// (``GroupStoring/currentVersions(of:)``, once per request for all of them); a version
/// kept here is then not read from the store at all (``lookup(name:version:)``).
///
/// Bounded by ``capacity`` entries and ``maxBytes`` bytes of the groups' stored JSON (an
/// entry costs its key plus its constraints' and metrics' JSON; one over `maxBytes / 8`,
/// 2 MiB, is not kept and is decoded per request). Emptied on every group write, and an
/// entry decoded while a write happened is not kept, as in the front cache. The policy is
/// ``TwoGenerationCache``'s. Held by `GroupCacheTests`.
final class GroupCache: Sendable {
    /// The most groups kept: 1,024.
    static let capacity = 1024
    /// The most bytes of stored group JSON kept: 16 MiB.
    static let maxBytes = 16 << 20

    private let table = TwoGenerationCache<String, ResolvedGroup>(capacity: GroupCache.capacity, maxBytes: GroupCache.maxBytes)

    /// Entries and bytes held now (for tests).
    var usage: (entries: Int, bytes: Int) { table.usage }

    /// The group stored as `name` version `version`, decoded by `decode` the first time
    /// (and again after a group write or an eviction). `jsonBytes` is its stored JSON's
    /// length, its cost. `decode`'s errors are passed on and nothing is kept.
    func group(name: String, version: Int, jsonBytes: Int, decode: () throws -> ResolvedGroup) rethrows -> ResolvedGroup {
        let key = CacheKey.group(name: name, version: version)
        if let kept = table.lookup(key) { return kept }
        let generation = table.generation
        let group = try decode()
        table.insert(group, for: key, cost: key.utf8.count + jsonBytes, generation: generation)
        return group
    }

    /// The group kept as `name` version `version`, or `nil`: no store round trip (a
    /// version's content never changes, so a kept one is used as it is).
    func lookup(name: String, version: Int) -> ResolvedGroup? {
        table.lookup(CacheKey.group(name: name, version: version))
    }

    /// Empties the cache (after any group write).
    func invalidate() { table.invalidate() }
}
