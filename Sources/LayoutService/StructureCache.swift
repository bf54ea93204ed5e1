import LayoutCompiler
import Synchronization

/// Decoded scenes, compiled scenes and their solved resizable bases, kept per scene
/// *structure*: everything of a scene but its container's width and height and its
/// `sizes` (the container's margins, views, metrics, constraints, options and the
/// included groups all belong to it). A scene asked again at another size — a window
/// resize, a screenshot at each device size — then skips parsing and decoding all but its sizes,
/// compiling and the base solve, and costs one or two suggestions on a copy of the base
/// (the resize path of ``CompiledScene/solve(sizes:base:)``).
///
/// Answers do not depend on it: every single-size and `sizes` request takes that path
/// from a base that is a pure function of the structure, charged at the work it took,
/// whether the base was kept or is built for the request; a kept decoded scene is used
/// only when the request's sizes are valid (otherwise the body is decoded whole, for
/// its diagnostics).
///
/// Decoded scenes are keyed by their body's template (``SceneTemplate``: the body's
/// bytes but for its sizes), with the structure's SHA-256
/// (``SceneEngine/Prepared/structureDigest``), so a body of a known template skips
/// parsing all but its sizes, the canonical form and the digest too; compiled scenes and bases by the
/// structure with the versions of its groups (``SceneEngine/Prepared/structureKey``:
/// a stored group's version never changes content, versions are never reused, so
/// entries need no invalidation) and the fitted dimensions. Bounded by entries and by
/// an estimate of the bytes each entry holds (``Scene/approximateByteCount``,
/// ``CompiledScene/approximateByteCount`` plus the base solver's); the eviction
/// policy is the front cache's (``TwoGenerationCache``), in each of the two tables.
final class StructureCache: Sendable {
    struct Key: Hashable, Sendable {
        /// ``SceneEngine/Prepared/structureKey``.
        let digest: SHA256Digest
        /// The container dimensions fitted (omitted).
        let fitted: CacheKey.FittedDimensions
    }

    struct Entry: Sendable {
        let compiled: CompiledScene
        let base: ResizableBase
    }

    /// A scene decoded from a body of a known template, and its structure's digest.
    struct KnownScene: Sendable {
        let scene: Scene
        let digest: SHA256Digest
        /// `CacheKey.structureKey(digest: digest, groups: [])`: the structure key of a body
        /// of this template that includes no groups and has no labels (no fonts, no
        /// stored faces), hashed once here instead of once a request
        /// (`StructureCacheTests.keptStructureKeyIsTheComputedOne`).
        let plainKey: SHA256Digest
        /// Whether a view of ``scene`` is a label (has `text`): the same for every body of
        /// the template (a body's sizes change no view), so a request need not look.
        let hasText: Bool
    }

    private let table: TwoGenerationCache<Key, Entry>
    private let templates: TwoGenerationCache<FrontCacheKey, KnownScene>
    /// The templates of the latest bodies that made or found one, most recent first (at
    /// most ``recentCapacity``, bodies of at most ``recentBodyBytes``): a body of one of
    /// them is recognised in place (``SceneTemplate/rebased(onto:maximumDepth:)``).
    /// Each holds its body: at most 4 × 64 KiB, and as much again for their keys.
    private let recent = Mutex<[SceneTemplate]>([])
    static let recentCapacity = 4
    static let recentBodyBytes = 64 << 10

    /// A cache of at most `capacity` structures in about `maxBytes` bytes: half for the
    /// decoded scenes, half for the compiled ones with their bases (so an entry over
    /// 1/16 of `maxBytes` is not kept); either 0 turns it off.
    init(capacity: Int, maxBytes: Int) {
        table = TwoGenerationCache(capacity: capacity, maxBytes: maxBytes / 2)
        templates = TwoGenerationCache(capacity: capacity, maxBytes: maxBytes / 2)
    }

    /// Compiled entries and their estimated bytes held now (for tests).
    var usage: (entries: Int, bytes: Int) { table.usage }

    /// The template of `body` when it is the template of one of the latest bodies
    /// (``SceneTemplate/rebased(onto:maximumDepth:)``), else `nil`.
    func recentTemplate(of body: [UInt8], maximumDepth: Int) -> SceneTemplate? {
        guard body.count <= Self.recentBodyBytes else { return nil }
        let candidates = recent.withLock { $0 }
        for candidate in candidates {
            if let template = candidate.rebased(onto: body, maximumDepth: maximumDepth) { return template }
        }
        return nil
    }

    /// Puts `template` first among the latest templates (a body of at most
    /// ``recentBodyBytes``), dropping an older one of the same key and the oldest past
    /// ``recentCapacity``.
    func noteRecent(_ template: SceneTemplate) {
        guard template.body.count <= Self.recentBodyBytes else { return }
        recent.withLock { recent in
            recent.removeAll { $0.key == template.key }
            recent.insert(template, at: 0)
            if recent.count > Self.recentCapacity { recent.removeLast(recent.count - Self.recentCapacity) }
        }
    }

    /// The scene decoded from a body of `template` (``SceneTemplate``), with its digest.
    func scene(template: SceneTemplate) -> KnownScene? { templates.lookup(template.key) }

    /// Keeps `scene`, decoded from a body of `template` whose structure has `digest`.
    func insert(_ scene: Scene, digest: SHA256Digest, template: SceneTemplate) {
        templates.insert(KnownScene(scene: scene, digest: digest, plainKey: CacheKey.structureKey(digest: digest, groups: []),
                                    hasText: scene.views.contains { $0.text != nil }), for: template.key,
                         cost: template.key.bytes.count + scene.approximateByteCount, generation: templates.generation)
    }

    func lookup(digest: SHA256Digest, fitsWidth: Bool, fitsHeight: Bool) -> Entry? {
        table.lookup(Key(digest: digest, fitted: .init(fitsWidth: fitsWidth, fitsHeight: fitsHeight)))
    }

    /// The compiled scene of any kept entry of `digest` (its fitted dimensions aside).
    func compiledScene(digest: SHA256Digest) -> CompiledScene? {
        for fitted in CacheKey.FittedDimensions.all {
            if let entry = table.lookup(Key(digest: digest, fitted: fitted)) { return entry.compiled }
        }
        return nil
    }

    func insert(_ entry: Entry, digest: SHA256Digest, fitsWidth: Bool, fitsHeight: Bool) {
        let cost = entry.compiled.approximateByteCount + entry.base.approximateByteCount
        table.insert(entry, for: Key(digest: digest, fitted: .init(fitsWidth: fitsWidth, fitsHeight: fitsHeight)), cost: cost,
                     generation: table.generation)
    }
}
