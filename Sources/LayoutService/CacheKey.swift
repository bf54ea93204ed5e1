import LayoutCompiler

/// Derives every cache key from a request. The caches, their keys, bounds and
/// invalidation are tabled in docs/architecture.md, "The caches".
///
/// No cache changes an answer: a hit's body is byte-identical to the miss that stored
/// it. The split of a scene into its structure and its sizes, which the template,
/// structure and result keys share, is ``split(_:)`` (and ``splitContainer(_:)`` for the
/// container object alone). Held by `SceneEngineTests` (key bytes), `FrontCacheTests`,
/// `StructureCacheTests` and `GroupCacheTests`.
public enum CacheKey {
    /// What a ``FrontCacheKey``'s bytes are, so keys of different spaces never meet in
    /// one table.
    public enum Space: UInt8, Sendable {
        /// A `/solve` request body (front cache).
        case solve = 0
        /// A `/validate` request body (front cache).
        case validate = 1
        /// A scene body's template (``SceneTemplate``, template cache).
        case template = 2

        /// The route's name in ``CacheKey/result(_:route:)``.
        var name: String {
            switch self {
            case .solve: "solve"
            case .validate: "validate"
            case .template: "template"
            }
        }
    }

    /// The front cache's key: `route` and the exact request body.
    static func front(_ route: Space, body: [UInt8]) -> FrontCacheKey {
        FrontCacheKey(space: route, bytes: body)
    }

    /// The template cache's key: ``SceneTemplate``'s tagged members.
    static func template(members: [UInt8]) -> FrontCacheKey {
        FrontCacheKey(space: .template, bytes: members)
    }

    /// The group cache's key: `NAME@VERSION`.
    static func group(name: String, version: Int) -> String {
        "\(name)@\(version)"
    }

    /// SHA-256 of `"layoutd VERSION structure\n"` and the structure's canonical JSON
    /// (sorted keys, no whitespace). `capacity` is the writer's first reservation (bytes).
    /// The reference the parser's canonical form is held to (`CanonicalKeyTests`).
    static func structureDigest(_ structure: JSONValue, reservingCapacity capacity: Int) -> SHA256Digest {
        var writer = JSONWriter(reservingCapacity: capacity)
        writer.value(structure, sortingKeys: true)
        return structureDigest(canonical: writer.bytes)
    }

    /// SHA-256 of `"layoutd VERSION structure\n"` and `canonical`, the structure's
    /// canonical JSON (``CanonicalScene/structure``, or the writer's).
    static func structureDigest(canonical: [UInt8]) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(structurePrefix)
        hasher.update(canonical)
        return hasher.finalize()
    }

    /// `"layoutd VERSION structure\n"`, written once.
    private static let structurePrefix: [UInt8] = Array("layoutd \(layoutdVersion) structure\n".utf8)

    /// The structure cache's key: SHA-256 of `digest` and `"\nNAME@VERSION"` per group,
    /// in inclusion order.
    /// With `fonts` (a scene with labels: `FontCatalog.fingerprint`),
    /// `"\nfonts\n"` and the fingerprint follow; then, per stored face a label measured
    /// with (``StoredFonts/used``, sorted by name), `"\nstored FAMILY/FACE@VERSION"`: a
    /// replaced or deleted face changes every key of the results that used it (a version
    /// number is never reused for a name). Without stored faces the key is as before.
    static func structureKey(digest: SHA256Digest, groups: [ResolvedGroup], fonts: String? = nil,
                             storedFaces: [StoredFaceVersion] = []) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(digest)
        for group in groups {
            hasher.update("\n\(group.name)@\(group.version)")
        }
        if let fonts { hasher.update("\nfonts\n" + fonts) }
        for face in storedFaces { hasher.update("\nstored \(face.name)@\(face.version)") }
        return hasher.finalize()
    }

    /// The result cache's key of a prepared scene: SHA-256 (``SHA256Digest/hex``) of
    /// `"layoutd VERSION\nROUTE\n"`, `limits` (``limits(_:maxResponseBytes:)``: empty
    /// with the default limits), the 32-byte structure key (with its groups' versions) and
    /// the canonical sizes. Two bodies that differ only in member order or whitespace share
    /// a key; anything else that can change the result (the scene, the versions of the
    /// groups it includes, the limits checked after the lookup) changes it.
    public static func result(_ prepared: SceneEngine.Prepared, route: Space, limits: [UInt8] = []) -> String {
        var hasher = SHA256()
        hasher.update(resultPrefixes[Int(route.rawValue)])
        if !limits.isEmpty { hasher.update(limits) }
        hasher.update(prepared.structureKey)
        hasher.update(prepared.sizeJSON)
        return hasher.finalize().hex
    }

    /// `"layoutd VERSION\nROUTE\n"` of each route, by ``Space/rawValue``: the start of
    /// every ``result(_:route:)`` key, written once.
    private static let resultPrefixes: [[UInt8]] = [Space.solve, .validate, .template].map {
        Array("layoutd \(layoutdVersion)\n\($0.name)\n".utf8)
    }

    /// The limits component of ``result(_:route:limits:)``: the limits that are checked
    /// after the result cache is looked up and so shape a stored answer, the solver's work
    /// (``SceneLimits/maxSolverWork``, which also bounds measuring text), the priority
    /// levels and constraint bytes of a compiled scene with its groups
    /// (``SceneLimits/maxPriorityLevels``, ``SceneLimits/maxTotalConstraintBytes``) and the
    /// answer's bytes (`maxResponseBytes`): empty when all four are the defaults, so those
    /// keys are as before; otherwise `"limits W P B R\n"` in that order, decimal. Processes
    /// with the same limits share entries; processes with other limits never meet one
    /// another's (a restart with a new `--max-solver-work` reads none of the old entries).
    /// The limits checked before the lookup (views, constraints, sizes, frames, a
    /// constraint's bytes, depths, groups, explain entries) refuse a scene before any entry
    /// is read, so they are not part of it. Held by `ResultKeyLimitsTests`.
    public static func limits(_ limits: SceneLimits, maxResponseBytes: Int) -> [UInt8] {
        let defaults = SceneLimits()
        let shaping = [limits.maxSolverWork, limits.maxPriorityLevels, limits.maxTotalConstraintBytes, maxResponseBytes]
        guard shaping != [defaults.maxSolverWork, defaults.maxPriorityLevels, defaults.maxTotalConstraintBytes,
                          SceneEngine.defaultMaxResponseBytes] else { return [] }
        return Array("limits \(shaping.map(String.init).joined(separator: " "))\n".utf8)
    }

    /// Which container dimensions a scene leaves to be fitted (no `width`, no `height`):
    /// part of the structure cache's key (``StructureCache``), since a fitted dimension
    /// compiles to other constraints than a given one.
    struct FittedDimensions: OptionSet, Hashable, Sendable {
        let rawValue: UInt8
        /// The width is fitted (bit 0).
        static let width = FittedDimensions(rawValue: 1)
        /// The height is fitted (bit 1).
        static let height = FittedDimensions(rawValue: 2)
        /// Every combination, in the order of their raw values: none, width, height, both.
        static let all: [FittedDimensions] = (0..<4).map { FittedDimensions(rawValue: $0) }

        /// The dimensions that `fitsWidth` and `fitsHeight` say are fitted.
        init(fitsWidth: Bool, fitsHeight: Bool) {
            self = []
            if fitsWidth { insert(.width) }
            if fitsHeight { insert(.height) }
        }

        init(rawValue: UInt8) { self.rawValue = rawValue }
    }

    /// A scene object split into its structure (the object without `sizes` and without
    /// `container.width` and `container.height`) and an object of what was left out,
    /// each in document order. Names are matched by their bytes (``utf8Equal(_:_:)``), as
    /// the decoder matches them. (A body with a repeated member is rejected by the
    /// decoder, so its split is never used.)
    static func split(_ json: JSONValue) -> (structure: JSONValue, size: JSONValue) {
        guard case .object(let members) = json else { return (json, .object([])) }
        var structure: [(String, JSONValue)] = []
        structure.reserveCapacity(members.count)
        var size: [(String, JSONValue)] = []
        for (name, value) in members {
            if utf8Equal(name, "sizes") {
                size.append((name, value))
            } else if utf8Equal(name, "container"), case .object(let container) = value {
                let parts = splitContainer(container)
                structure.append((name, .object(parts.structure)))
                size.append((name, .object(parts.size)))
            } else {
                structure.append((name, value))
            }
        }
        return (.object(structure), .object(size))
    }

    /// `split(json).size` without building the structure: `json` itself when it has only
    /// `sizes` and a `container` object of only `width` and `height` (the split would
    /// rebuild the same members in the same order), else the split's.
    static func sizePart(_ json: JSONValue) -> JSONValue {
        guard case .object(let members) = json else { return .object([]) }
        for (name, value) in members {
            if utf8Equal(name, "sizes") { continue }
            guard utf8Equal(name, "container"), case .object(let container) = value,
                  container.allSatisfy({ utf8Equal($0.0, "width") || utf8Equal($0.0, "height") }) else { return split(json).size }
        }
        return json
    }

    /// What `JSONWriter.value(sizePart(json), sortingKeys: true)` writes (the canonical
    /// sizes of ``SceneEngine/Prepared/sizeJSON``), byte for byte. The sizes of a resize,
    /// nothing or a `container` of only a numeric `width` and `height` (each at most
    /// once, either may be absent), are written member by member, `height` before `width`
    /// as their bytes sort, without walking and sorting a tree; any other shape through
    /// the writer (`StructureCacheTests.theSizePartIsTheSplitsSize`).
    static func sizeJSON(_ json: JSONValue) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64)
        if case .object(let members) = json, members.count <= 1 {
            guard let (name, value) = members.first else {
                writer.beginObject()
                writer.endObject()
                return writer.bytes
            }
            if utf8Equal(name, "container"), case .object(let container) = value, container.count <= 2 {
                var width: Double? = nil, height: Double? = nil
                var plain = true
                for (field, size) in container {
                    guard case .number(let number) = size else { plain = false; break }
                    if width == nil && utf8Equal(field, "width") {
                        width = number
                    } else if height == nil && utf8Equal(field, "height") {
                        height = number
                    } else {
                        plain = false
                        break
                    }
                }
                if plain {
                    writer.beginObject()
                    writer.key(plain: "container")
                    writer.beginObject()
                    if let height { writer.key(plain: "height"); writer.number(height) }
                    if let width { writer.key(plain: "width"); writer.number(width) }
                    writer.endObject()
                    writer.endObject()
                    return writer.bytes
                }
            }
        }
        writer.value(sizePart(json), sortingKeys: true)
        return writer.bytes
    }

    /// A container object's members split into its structure (all but `width` and
    /// `height`) and its size (those two), each in document order.
    static func splitContainer(_ container: [(String, JSONValue)]) -> (structure: [(String, JSONValue)], size: [(String, JSONValue)]) {
        var structure: [(String, JSONValue)] = []
        var size: [(String, JSONValue)] = []
        structure.reserveCapacity(container.count)
        size.reserveCapacity(min(container.count, 2))
        for member in container {
            if utf8Equal(member.0, "width") || utf8Equal(member.0, "height") { size.append(member) } else { structure.append(member) }
        }
        return (structure, size)
    }
}
