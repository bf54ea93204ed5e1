import Synchronization
import HTTP1
import LayoutCompiler
import LayoutStore
import LayoutSyntax

/// What `/solve` or `/validate` answers for a body, before caching and HTTP.
public struct EngineAnswer: Sendable {
    /// 200, 400, 422 or 503.
    public var status: HTTPStatus
    /// `application/json` for 200, `application/problem+json` otherwise.
    public var contentType: String
    /// The response body: JSON, or problem details.
    public var body: [UInt8]
    /// Whether the answer may be stored in the result cache (a 200 of `/solve`).
    public var isCacheable: Bool
    /// Extra header fields (`Retry-After` on a `503`).
    public var headers: [(String, String)] = []
    /// Bytes of the shared pending-response pool held for ``body`` (``AnswerBytes``),
    /// released when the last copy of the answer is dropped.
    public var reservation: AnswerReservation?
}

/// The groups a scene includes, resolved by the caller; `nil` for an unknown name or version.
public typealias GroupResolver = (GroupReference) throws -> ResolvedGroup?

/// The current version of each of the names given (those that exist), asked of the store in
/// one round trip for all of a scene's references without a version
/// (``GroupStoring/currentVersions(of:)``). Throws an ``EngineFailure`` (503) when the store
/// cannot answer.
public typealias CurrentVersionResolver = ([String]) throws -> [String: Int]

/// Where a request's stored font faces come from (contract, "Text", stored fonts): the
/// font store's current versions of face names (matched without regard to case, keyed
/// by the stored spelling; one round trip for all of a scene's families), and a face's
/// file at a version (`nil` when that version is no longer stored). Both throw an
/// ``EngineFailure`` (503) when the store cannot answer.
public struct StoredFontSource: Sendable {
    public var currentVersions: @Sendable ([String]) throws -> [String: Int]
    public var bytes: @Sendable (_ name: String, _ version: Int) throws -> [UInt8]?
    /// Every stored family's spelling (asked only when a label names a family that is
    /// neither built in nor stored, for its did-you-mean).
    public var familyNames: @Sendable () throws -> [String]
    /// Names this font store in the face cache's keys, shared by the process
    /// (``StoredFonts/resolve(scene:versions:store:measurer:bytes:)``): distinct for each
    /// store a process reads, since version numbers are unique within one store only.
    public var store: String

    public init(store: String, currentVersions: @escaping @Sendable ([String]) throws -> [String: Int],
                bytes: @escaping @Sendable (_ name: String, _ version: Int) throws -> [UInt8]?,
                familyNames: @escaping @Sendable () throws -> [String] = { [] }) {
        self.store = store
        self.currentVersions = currentVersions
        self.bytes = bytes
        self.familyNames = familyNames
    }

    /// A name no other font store of this process has (``store``).
    public static func uniqueStoreName() -> String { String(storeCount.add(1, ordering: .relaxed).newValue) }
    private static let storeCount = Atomic<Int>(0)
}

/// Decodes, compiles and solves scenes: everything of `/solve` and `/validate` except
/// HTTP and caching, shared by the server and the `layoutd solve|validate` commands.
public struct SceneEngine: Sendable {
    /// The scene limits every request is checked against; fixed, so the structure cache
    /// (``structures``) only holds what was compiled and solved under them.
    public let limits: SceneLimits
    /// The most bytes one answer's body may have (`--max-response-bytes`, default 64 MiB,
    /// 67,108,864): JSON frames, `layouts`, diagnostics, problems and SVG alike. An answer
    /// that would be longer stops being written as soon as it passes the bound and is
    /// answered ``responseTooLarge(limit:)`` instead (422 `limit_exceeded`). Fixed, as
    /// ``limits``.
    public let maxResponseBytes: Int
    /// The pool of pending response bytes answers draw on while they are written
    /// (`--max-pending-response-bytes`); `nil` for none (the command line). An answer
    /// the pool has no room for is ``overCommitted()`` (503).
    public let answerPool: (any AnswerBytePool)?

    /// `--max-response-bytes`' default: 64 MiB.
    public static let defaultMaxResponseBytes = 64 << 20
    /// Compiled scenes and solved bases kept per scene structure (``StructureCache``);
    /// `nil` keeps none. Answers are the same either way.
    let structures: StructureCache?

    /// An engine with these limits, keeping up to `structureCacheEntries` scene
    /// structures in about `structureCacheBytes` bytes (0: none).
    /// Answers are at most `maxResponseBytes` long and draw on `answerPool` while written.
    public init(limits: SceneLimits = SceneLimits(), structureCacheEntries: Int = 0, structureCacheBytes: Int = 0,
                maxResponseBytes: Int = SceneEngine.defaultMaxResponseBytes, answerPool: (any AnswerBytePool)? = nil) {
        self.limits = limits
        self.maxResponseBytes = maxResponseBytes
        self.answerPool = answerPool
        self.structures = structureCacheEntries > 0 && structureCacheBytes > 0
            ? StructureCache(capacity: structureCacheEntries, maxBytes: structureCacheBytes) : nil
    }

    /// A parsed request: the scene, the groups it includes, and the canonical JSON
    /// (sorted keys, no whitespace) split in two: the structure (everything but the
    /// container's width and height and `sizes`) and those sizes.
    public struct Prepared: Sendable {
        public var scene: Scene
        public var groups: [ResolvedGroup]
        /// The canonical JSON of `{"container": {"width", "height"}, "sizes"}` (the
        /// members the body has): what the structure leaves out.
        public var sizeJSON: [UInt8]
        /// ``CacheKey/structureDigest(_:reservingCapacity:)``: SHA-256 of `"layoutd VERSION
        /// structure\n"` and the structure's canonical JSON.
        var structureDigest: SHA256Digest
        /// ``CacheKey/structureKey(digest:groups:fonts:)``: SHA-256 of ``structureDigest``,
        /// `"\nNAME@VERSION"` per included group and, with labels, the font files'
        /// fingerprint: what the scene compiles to and its base solve depend on
        /// (``StructureCache``).
        var structureKey: SHA256Digest
        /// The current version of each group the scene includes, pinned (`NAME@V`) or
        /// not, one per name, sorted by name (byte order); empty when the scene includes
        /// none. An answer computed from this scene holds exactly while these are the
        /// current versions (the front cache's check, ``FrontAnswer``): a reference without
        /// a version was resolved to it, and a pinned version is removed only by a delete
        /// or a prune, which change it. Empty with groups only when the store could not be
        /// asked and every reference is pinned: then nothing confirms the versions.
        public var currentVersions: [GroupVersion] = []
        /// The scene's labels, prepared (``SceneText``); `nil` without labels.
        public var text: SceneText?
        /// The face names asked of the font store (``StoredFonts/candidateNames(families:)``),
        /// sorted; empty when no label names a family that is not built in.
        public var fontNames: [String] = []
        /// The stored faces of those names and the ones the labels measured with
        /// (``StoredFonts``); ``StoredFonts/none`` when none.
        public var storedFonts: StoredFonts = .none
    }

    /// Parses `body` into a scene and resolves its groups.
    ///
    /// A body of a known template (``SceneTemplate``: only its sizes differ, byte for
    /// byte, from a body decoded before) whose sizes are valid is not parsed or decoded
    /// again: only its sizes are (``SceneDecoder/redecodeSizes(_:of:)``). Any other body,
    /// or any error, takes the whole path, so its answer and diagnostics are the same.
    ///
    /// With `currentVersions`, the current versions of every name the scene includes
    /// (pinned or not) are asked first, in one call (sorted, each once), and `resolveGroup`
    /// is then asked only for pinned references: those the scene pinned and those just
    /// resolved. A name without a current version is `unknown_group` without asking
    /// `resolveGroup` when the reference has no version; a pinned one is still asked (the
    /// caller's resolver sees the versions this call answered and answers `nil`). When that
    /// call throws and every reference is pinned, they are resolved as written and
    /// ``Prepared/currentVersions`` stays empty. Without it, `resolveGroup` is asked for
    /// every reference as written.
    ///
    /// - Returns: the prepared scene, or the answer to give instead (400 or 422, or the
    ///   503 a resolver threw).
    ///
    /// With `fonts`, the families labels name that are not built in are looked up among the
    /// stored faces (one ``StoredFontSource/currentVersions`` call for all of them) and each
    /// such label measures with the stored face its weight and style choose; without it,
    /// such a family is `unknown_font`.
    ///
    /// `groupNames`, asked at most once and only when a name the scene includes without a
    /// version is not stored, gives the stored names for that `unknown_group`'s did-you-mean
    /// (the closest within two edits, case ignored: `ROW` → `row`; ``closestName(to:among:)``).
    public func prepare(
        body: [UInt8], currentVersions: CurrentVersionResolver? = nil, fonts: StoredFontSource? = nil,
        groupNames: (() -> [String])? = nil, resolveGroup: GroupResolver
    ) -> Result<Prepared, EngineFailure> {
        let decoder = SceneDecoder(limits: limits)
        // The template of one of the latest bodies, recognised in place, or made afresh.
        let recentTemplate = structures?.recentTemplate(of: body, maximumDepth: limits.maxJSONDepth)
        let template = recentTemplate ?? (structures == nil ? nil : SceneTemplate(body: body, maximumDepth: limits.maxJSONDepth))
        let scene: Scene, digest: SHA256Digest, sizeJSON: [UInt8]
        // The structure key without groups and labels, when the structure cache has it.
        var plainKey: SHA256Digest? = nil
        // Whether a view is a label, when the structure cache knows it.
        var knownHasText: Bool? = nil
        if let template, let known = structures?.scene(template: template),
           let resized = decoder.redecodeSizes(template.sizeMembers, of: known.scene) {
            (scene, digest, sizeJSON) = (resized, known.digest, CacheKey.sizeJSON(template.sizeMembers))
            plainKey = known.plainKey
            knownHasText = known.hasText
            if recentTemplate == nil { structures?.noteRecent(template) }
        } else {
            // The canonical form is written while the body is parsed (the same bytes as
            // the writer's over `CacheKey.split`'s parts).
            let tape: JSONTape, canonical: CanonicalScene
            do {
                (tape, canonical) = try JSONParser(maximumDepth: limits.maxJSONDepth).parseCanonicalTape(body)
            } catch {
                return .failure(.malformedJSON(error.message, body: body))
            }
            digest = CacheKey.structureDigest(canonical: canonical.structure)
            sizeJSON = canonical.sizeJSON
            do {
                scene = try decoder.decode(tape)
            } catch {
                return .failure(EngineFailure(error))
            }
            if let template {
                structures?.insert(scene, digest: digest, template: template)
                if recentTemplate == nil { structures?.noteRecent(template) }
            }
        }
        // Labels: fonts resolved and text shaped once per request (unknown_font is a 422).
        var sceneText: SceneText?
        var fontNames: [String] = []
        var storedFonts = StoredFonts.none
        if knownHasText ?? scene.views.contains(where: { $0.text != nil }) {
            if let fonts {
                let families = StoredFonts.families(in: scene)
                if !families.isEmpty {
                    fontNames = StoredFonts.candidateNames(families: families)
                    do {
                        storedFonts = try StoredFonts.resolve(scene: scene, versions: fonts.currentVersions(fontNames), store: fonts.store, bytes: fonts.bytes)
                        // A family that is not stored is a 422: only then are the stored
                        // families read, for its did-you-mean.
                        if !families.allSatisfy(storedFonts.hasFamily) { storedFonts.storedFamilies = try fonts.familyNames() }
                    } catch let failure as EngineFailure {
                        return .failure(failure)
                    } catch let unavailable as StoredFontUnavailable {
                        return .failure(.storedFontUnavailable(unavailable))
                    } catch {
                        return .failure(.internalError)
                    }
                }
            }
            do {
                sceneText = try SceneText(scene: scene, limits: limits, stored: storedFonts)
            } catch {
                return .failure(EngineFailure(error))
            }
        }
        var groups: [ResolvedGroup] = []
        var missing: [LayoutDiagnostic] = []
        var current: [String: Int]?
        var resolvedCurrent: [GroupVersion] = []
        var storedNames: [String]?
        /// `"; did you mean 'row'?"` for a name no group has, or "".
        func suggestion(for name: String) -> String {
            guard let groupNames else { return "" }
            if storedNames == nil { storedNames = groupNames() }
            return closestName(to: name, among: storedNames ?? []).map { "; did you mean '\($0)'?" } ?? ""
        }
        if let currentVersions {
            // Every name, pinned or not: a pinned version exists only while its name's
            // current version is the one seen when it was read (deletes and prunes change
            // it). Sorted and unique: the same names in the same order for the same scene.
            let names = Array(Set(scene.groups.lazy.map(\.name))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            if names.isEmpty {
                current = [:]
            } else {
                do {
                    let versions = try currentVersions(names)
                    current = versions
                    resolvedCurrent = names.compactMap { name in versions[name].map { GroupVersion(name: name, version: $0) } }
                } catch let failure as EngineFailure {
                    // Pinned versions only: resolved as written (those the caller holds in
                    // memory still answer while the store is away), with no current
                    // versions recorded, so nothing computed from them is taken as confirmed.
                    guard scene.groups.allSatisfy({ $0.version != nil }) else { return .failure(failure) }
                } catch {
                    return .failure(.internalError)
                }
            }
        }
        for (index, reference) in scene.groups.enumerated() {
            do {
                var asked = reference
                if let current, reference.version == nil {
                    guard let version = current[reference.name] else {
                        missing.append(LayoutDiagnostic(code: .unknownGroup, message: "No group named '\(reference.name)' is stored (included as '\(reference.name)')"
                                                            + suggestion(for: reference.name),
                                                        path: "$.groups[\(index)]"))
                        continue
                    }
                    asked = GroupReference(name: reference.name, version: version)
                }
                if let group = try resolveGroup(asked) {
                    groups.append(group)
                } else {
                    let spelled = reference.version.map { "\(reference.name)@\($0)" } ?? reference.name
                    // A pinned version of a name with no current version: the group is not
                    // stored at all (never, or deleted), which is what to say.
                    let nameIsStored = reference.version != nil && (current == nil || current?[reference.name] != nil)
                    let what = nameIsStored ? "Group '\(reference.name)' has no version \(reference.version ?? 0)" : "No group named '\(reference.name)' is stored"
                    missing.append(LayoutDiagnostic(code: .unknownGroup,
                                                    message: "\(what) (included as '\(spelled)')" + (nameIsStored ? "" : suggestion(for: reference.name)),
                                                    path: "$.groups[\(index)]"))
                }
            } catch let pruned as PrunedGroupVersion {
                let spelled = reference.version.map { "\(reference.name)@\($0)" } ?? reference.name
                missing.append(LayoutDiagnostic(code: .unknownGroup, message: "\(pruned.message) (included as '\(spelled)')", path: "$.groups[\(index)]"))
            } catch let failure as EngineFailure {
                return .failure(failure)
            } catch {
                return .failure(.internalError)
            }
        }
        if !missing.isEmpty {
            return .failure(.unprocessable(missing))
        }
        let total = scene.constraints.count + groups.reduce(0) { $0 + $1.constraints.count }
        if total > limits.maxConstraints {
            return .failure(.unprocessable([LayoutDiagnostic(
                code: .limitExceeded,
                message: "The scene and its groups have \(total) constraints; at most \(limits.maxConstraints) are allowed (limit maxConstraints)",
                path: "$.groups")]))
        }
        let structureKey: SHA256Digest
        if let plainKey, groups.isEmpty, sceneText == nil, storedFonts.used.isEmpty {
            structureKey = plainKey   // the same hash of the same digest, kept
        } else {
            structureKey = CacheKey.structureKey(digest: digest, groups: groups,
                                                 fonts: sceneText == nil ? nil : SceneText.measurer.catalog.fingerprint,
                                                 storedFaces: storedFonts.used)
        }
        return .success(Prepared(scene: scene, groups: groups, sizeJSON: sizeJSON,
                                 structureDigest: digest, structureKey: structureKey,
                                 currentVersions: resolvedCurrent, text: sceneText, fontNames: fontNames, storedFonts: storedFonts))
    }

    /// The prepared scene compiled, and solved at each of its sizes (its container's
    /// size without `sizes`); no layouts when it does not compile.
    ///
    /// Every size takes the resize path of ``CompiledScene/solve(sizes:base:)``, from a
    /// compiled scene and base kept in ``structures`` when the structure was solved
    /// before; the layouts are the same either way.
    func compileAndSolve(_ prepared: Prepared) -> (compiled: CompiledScene, layouts: [Layout]) {
        let digest = prepared.structureKey
        let sizes = prepared.scene.sizes ?? [prepared.scene.container.size]
        // The entry of the first size's fitted dimensions, looked up once: its compiled
        // scene, and its base for that size (any kept entry of the structure has the same
        // compiled scene).
        let first = sizes.first.flatMap { size in
            structures?.lookup(digest: digest, fitsWidth: size.width == nil, fitsHeight: size.height == nil)
                .map { (fitsWidth: size.width == nil, fitsHeight: size.height == nil, entry: $0) }
        }
        let compiled: CompiledScene
        if let kept = first?.entry.compiled ?? structures?.compiledScene(digest: digest) {
            // Compiled from the same structure; the sizes are the request's. (A label's
            // first-pass measurement depends on the structure only.)
            compiled = kept
        } else {
            let scene = prepared.text?.firstPassScene(prepared.scene) ?? prepared.scene
            compiled = SceneCompiler(scene: scene, groups: prepared.groups, limits: limits).compile()
        }
        if compiled.hasErrors { return (compiled, []) }
        let makeBase: (Bool, Bool) -> ResizableBase = { [structures] fitsWidth, fitsHeight in
            if let first, first.fitsWidth == fitsWidth, first.fitsHeight == fitsHeight { return first.entry.base }
            if let entry = structures?.lookup(digest: digest, fitsWidth: fitsWidth, fitsHeight: fitsHeight) {
                return entry.base
            }
            let built = compiled.makeResizableBase(fitsWidth: fitsWidth, fitsHeight: fitsHeight)
            structures?.insert(.init(compiled: compiled, base: built), digest: digest, fitsWidth: fitsWidth, fitsHeight: fitsHeight)
            return built
        }
        if let text = prepared.text {
            return (compiled, text.solve(compiled, groups: prepared.groups, sizes: sizes, base: makeBase))
        }
        return (compiled, compiled.solve(sizes: sizes, base: makeBase))
    }

    /// Solves a prepared scene: 200 with frames (or `layouts` for `sizes`), or 422; the
    /// 422 of ``responseTooLarge(limit:)`` when the answer would pass ``maxResponseBytes``,
    /// and the 503 of ``overCommitted()`` when the pending-response pool is full.
    public func solve(_ prepared: Prepared) -> EngineAnswer {
        let (compiled, layouts) = compileAndSolve(prepared)
        if compiled.hasErrors {
            return unprocessable(compiled.diagnostics)
        }
        if let sizes = prepared.scene.sizes {
            var writer = answerWriter(reservingCapacity: 256 * sizes.count * compiled.hierarchy.itemCount)
            writer.beginObject()
            writer.key("layouts")
            writer.beginArray()
            for layout in layouts {
                if writer.stop != nil { break }
                writer.beginObject()
                writer.key("container")
                writer.beginObject()
                writer.key("width"); writer.number(layout.containerWidth)
                writer.key("height"); writer.number(layout.containerHeight)
                writer.endObject()
                if !layout.isRejected {
                    writer.key("frames")
                    writeFrames(layout.frames, into: &writer)
                    writeGuides(layout, of: compiled, into: &writer)
                    writeText(layout, of: prepared, into: &writer)
                    if !prepared.scene.explain.isEmpty {
                        writer.key("explanations")
                        writeExplanations(layout, into: &writer)
                    }
                }
                writer.key("diagnostics")
                writer.diagnostics(layout.diagnostics)
                writer.endObject()
            }
            writer.endArray()
            writer.key("diagnostics")
            writer.diagnostics(compiled.diagnostics + (prepared.text?.diagnostics ?? []) + Self.unusedContainerSize(prepared.scene))
            writer.endObject()
            return answer(&writer, status: .ok, contentType: "application/json", isCacheable: true)
        }
        let layout = layouts[0]
        if layout.isRejected {
            return unprocessable(compiled.diagnostics + layout.diagnostics)
        }
        var writer = answerWriter(reservingCapacity: 96 * compiled.hierarchy.itemCount + 64)
        writer.beginObject()
        writer.key("frames")
        writeFrames(layout.frames, into: &writer)
        writeGuides(layout, of: compiled, into: &writer)
        writeText(layout, of: prepared, into: &writer)
        if !prepared.scene.explain.isEmpty {
            writer.key("explanations")
            writeExplanations(layout, into: &writer)
        }
        writer.key("diagnostics")
        writer.diagnostics(compiled.diagnostics + (prepared.text?.diagnostics ?? []) + layout.diagnostics)
        writer.endObject()
        return answer(&writer, status: .ok, contentType: "application/json", isCacheable: true)
    }

    /// With `sizes`, each entry is the container's size (contract, "sizes"), so a width or
    /// height the scene's `container` gives is not used; when some entry omits that
    /// dimension (and so has it fitted), a warning `invalid_scene` at `$.container.FIELD`
    /// says so, for the answer's top-level `diagnostics` (it does not depend on the size).
    /// Empty otherwise (HandlerTests.sizesWithoutTheContainersHeightAreWarned).
    static func unusedContainerSize(_ scene: Scene) -> [LayoutDiagnostic] {
        guard let sizes = scene.sizes else { return [] }
        var warnings: [LayoutDiagnostic] = []
        for (field, given, omitted) in [("width", scene.container.size.width, sizes.filter { $0.width == nil }.count),
                                        ("height", scene.container.size.height, sizes.filter { $0.height == nil }.count)] {
            guard let given, omitted > 0 else { continue }
            let value = JSONWriter.format(given)
            let entries = omitted == 1 ? "1 entry gives" : "\(omitted) entries give"
            warnings.append(LayoutDiagnostic(
                severity: .warning, code: .invalidScene,
                message: "container.\(field) (\(value)) is not used with 'sizes': each entry is the container's size, and \(entries) "
                    + "no \(field), so it is fitted there; give each entry its \(field) (\"\(field)\": \(value))",
                path: "$.container.\(field)"))
        }
        return warnings
    }

    /// Validates a prepared scene: `{"valid", "diagnostics"}`, always 200. It parses,
    /// compiles and solves (each size of `sizes`), so it reports syntax errors, unknown
    /// names, conflicts and ambiguity, but no frames (nor explanations: `explain` is
    /// checked, 400 or 422, when the body is prepared).
    public func validate(_ prepared: Prepared) -> EngineAnswer {
        // `explain` was checked when decoding; /validate answers no frames, so none are explained.
        var scene = prepared.scene
        scene.explain = []
        let compiled = SceneCompiler(scene: prepared.text?.firstPassScene(scene) ?? scene, groups: prepared.groups, limits: limits).compile()
        var diagnostics = compiled.diagnostics + (prepared.text?.diagnostics ?? [])
        // Membership only (never iterated): each diagnostic once, in linear time.
        var listed = Set(diagnostics)
        let sizes = prepared.scene.sizes ?? [prepared.scene.container.size]
        // One work budget for all sizes, as /solve has (a budget per size let 1,000 sizes
        // take 1,000 times the work limit); labels take their passes at each size.
        func each(_ body: (Layout) -> Void) {
            if let text = prepared.text, !compiled.hasErrors {
                for layout in text.solve(compiled, groups: prepared.groups, sizes: sizes, base: nil) { body(layout) }
            } else {
                // As /solve lays sizes out (one solver moved from size to size, each entry
                // exactly a separate solve), so both spend the same work: solving each size
                // from scratch made a scene /solve answered 200 a limit_exceeded here
                // (ValidateWorkTests). The layouts are held at once, as /solve holds them:
                // at most `maxFrames` frames.
                for layout in compiled.solve(sizes: sizes) { body(layout) }
            }
        }
        each { layout in
            for diagnostic in layout.diagnostics {
                // With constraints that did not compile, the layout misses them: its
                // ambiguity would be noise, while conflicts among the rest still matter.
                if compiled.hasErrors && diagnostic.code == .ambiguousLayout { continue }
                // What a size left out is counted at each size (it was never built).
                if diagnostic.omitted == nil && !listed.insert(diagnostic).inserted { continue }
                diagnostics.append(diagnostic)
            }
        }
        // An error the compiler counted past the bound is not in the list: it still counts.
        return validity(diagnostics, hasErrors: compiled.hasErrors)
    }

    /// `{"valid": false, "diagnostics": [...]}` for a body that is not a valid scene.
    /// `valid` is false when `hasErrors` or when a diagnostic is an error.
    public func validity(_ diagnostics: [LayoutDiagnostic], hasErrors: Bool = false) -> EngineAnswer {
        var writer = answerWriter()
        writer.beginObject()
        writer.key("valid"); writer.bool(!hasErrors && !diagnostics.contains(where: \.isError))
        writer.key("diagnostics"); writer.diagnostics(diagnostics)
        writer.endObject()
        return answer(&writer, status: .ok, contentType: "application/json", isCacheable: false)
    }

    /// An RFC 9457 problem details answer carrying diagnostics (or, when those would
    /// pass ``maxResponseBytes``, ``responseTooLarge(limit:)``), titled for a scene.
    public func problem(status: HTTPStatus, diagnostics: [LayoutDiagnostic]) -> EngineAnswer {
        problem(status: status, diagnostics: diagnostics, subject: .scene)
    }

    /// ``problem(status:diagnostics:)`` titled for `subject` (``Problem/describe(status:diagnostics:subject:)``).
    func problem(status: HTTPStatus, diagnostics: [LayoutDiagnostic], subject: Problem.Subject) -> EngineAnswer {
        let (type, title, detail) = Problem.describe(status: status, diagnostics: diagnostics, subject: subject)
        var writer = answerWriter()
        Problem.write(type: type, title: title, status: status, detail: detail, diagnostics: diagnostics, into: &writer)
        return answer(&writer, status: status, contentType: "application/problem+json", isCacheable: false)
    }

    /// A writer bounded by ``maxResponseBytes`` and drawing on ``answerPool``.
    func answerWriter(reservingCapacity capacity: Int = 256) -> JSONWriter {
        JSONWriter(limit: maxResponseBytes, pool: answerPool, reservingCapacity: capacity)
    }

    /// The answer `writer` wrote, or the one to give instead when it stopped.
    func answer(_ writer: inout JSONWriter, status: HTTPStatus, contentType: String, isCacheable: Bool) -> EngineAnswer {
        guard writer.finish() else { return stopped(writer.stop) }
        return EngineAnswer(status: status, contentType: contentType, body: writer.bytes, isCacheable: isCacheable,
                            reservation: writer.reservation)
    }

    /// The answer to give for a writer that stopped for `reason`.
    func stopped(_ reason: AnswerStop?) -> EngineAnswer {
        switch reason {
        case .overCommitted: return overCommitted()
        case .workExceeded(let limit): return renderingTooLong(limit: limit)
        case .tooLarge(let limit): return responseTooLarge(limit: limit)
        case nil: return responseTooLarge(limit: maxResponseBytes)
        }
    }

    /// `{"VIEW.FIELD": [{"ref": {...}, "by": RATE}, ...], ...}` (contract, "Explaining a
    /// frame"), fields in ``CompiledScene/explainedFields`` order.
    private func writeExplanations(_ layout: Layout, into writer: inout JSONWriter) {
        writer.beginObject()
        for explanation in layout.explanations {
            writer.key(explanation.field)
            writer.beginArray()
            for entry in explanation.entries {
                writer.beginObject()
                writer.key(plain: "ref"); writer.constraintRef(entry.ref)
                writer.key(plain: "by"); writer.number(entry.by)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
    }

    /// `"guides": {...}` after the frames, when the scene declares layout guides (a scene
    /// without `guides` is answered as before they existed, byte for byte).
    private func writeGuides(_ layout: Layout, of compiled: CompiledScene, into writer: inout JSONWriter) {
        guard !compiled.scene.guides.isEmpty else { return }
        writer.key("guides")
        writeFrames(layout.guides, into: &writer)
    }

    /// `"text": {"NAME": {"lines", "truncated"}}` after the guides, when the scene has
    /// labels (a scene without labels is answered as before they existed, byte for byte).
    private func writeText(_ layout: Layout, of prepared: Prepared, into writer: inout JSONWriter) {
        guard prepared.text != nil else { return }
        writer.key("text")
        writer.textResults(layout.text)
    }

    private func writeFrames(_ frames: [(name: String, frame: Frame)], into writer: inout JSONWriter) {
        writer.beginObject()
        for (name, frame) in frames {
            writer.frame(named: name, x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        }
        writer.endObject()
    }
}

/// Thrown by a group resolver for a pinned version that was pruned from the group's
/// history: the scene gets a 422 `unknown_group` with `message`.
public struct PrunedGroupVersion: Error, Sendable {
    /// Says which version was pruned, the bound, and the oldest version kept.
    public var message: String
}

/// A request that cannot be answered with a layout: its status and diagnostics.
public struct EngineFailure: Error, Sendable {
    /// 400, 422, 500 or 503.
    public var status: HTTPStatus
    /// What is wrong, in the contract's diagnostic shape.
    public var diagnostics: [LayoutDiagnostic]
    /// Extra headers (e.g. `Retry-After` for a busy database).
    public var headers: [(String, String)] = []
    /// What the failure is about, which the problem's `title` names: a scene unless set
    /// (``aboutAGroup()``).
    var subject = Problem.Subject.scene

    /// A failure with its status, diagnostics and extra headers.
    public init(status: HTTPStatus, diagnostics: [LayoutDiagnostic], headers: [(String, String)] = []) {
        self.status = status
        self.diagnostics = diagnostics
        self.headers = headers
    }
}

/// The HTTP server's pending response bytes are the pool answers draw on while written.
extension PendingResponseBytes: AnswerBytePool {}
