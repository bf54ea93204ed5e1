import LayoutSyntax

/// Turns a JSON document into a ``Scene``, checking every type (400 `invalid_scene`
/// naming the JSON path) and every name rule of the contract (422 `invalid_scene`):
/// names match `[A-Za-z_][A-Za-z0-9_]*`, `superview` is reserved, parents exist and
/// form no cycle.
public struct SceneDecoder: Sendable {
    public var limits: SceneLimits

    public init(limits: SceneLimits = SceneLimits()) {
        self.limits = limits
    }

    /// Parses `body` as JSON, then decodes it.
    ///
    /// - Throws: ``SceneRejection`` (``SceneRejection/Reason/malformed`` with `invalid_json` for malformed JSON).
    public func decode(body: some Collection<UInt8>) throws(SceneRejection) -> Scene {
        let tape: JSONTape
        do {
            tape = try JSONParser(maximumDepth: limits.maxJSONDepth).parseTape(Array(body))
        } catch {
            throw SceneRejection(.malformed, diagnostics: [
                LayoutDiagnostic(code: .invalidJSON, message: "Malformed JSON: \(error.message)")
            ])
        }
        return try decode(tape)
    }

    /// Decodes a parsed JSON document (through its tape, ``decode(_:)-(JSONTape)``).
    ///
    /// - Throws: ``SceneRejection``, as ``decode(_:)-(JSONTape)``.
    public func decode(_ json: JSONValue) throws(SceneRejection) -> Scene {
        try decode(JSONTape(json))
    }

    /// Decodes a parsed JSON document.
    ///
    /// - Throws: ``SceneRejection``: `malformed` with every type error found, else `invalid` with every
    ///   name, hierarchy and limit error found.
    public func decode(_ tape: JSONTape) throws(SceneRejection) -> Scene {
        let json = tape.root
        var context = DecodingContext()
        guard case .object(let members) = json.shape else {
            throw SceneRejection(.malformed, diagnostics: [
                context.typeError("$", expected: "an object (a scene)", found: json)
            ])
        }
        let top = context.checkMembers(members, known: Self.sceneMembers, path: "$")
        // The count limits first, from the JSON as sent: a scene over one is refused
        // before any work per view, guide, constraint or entry.
        let countErrors = countLimitErrors(json)
        if !countErrors.isEmpty {
            if !context.typeErrors.isEmpty { throw SceneRejection(.malformed, diagnostics: context.typeErrors) }
            throw SceneRejection(.invalid, diagnostics: countErrors)
        }
        var scene = Scene()
        // Each member where the check found it (`sceneMembers` order).
        scene.container = decodeContainer(top.value(0, in: members), path: "$.container", &context)
        scene.views = decodeViews(top.value(1, in: members), &context)
        scene.guides = decodeGuides(top.value(2, in: members), &context)
        let metrics = decodeMetrics(top.value(3, in: members), path: "$.metrics", &context)
        scene.constraints = decodeConstraints(top.value(4, in: members), path: "$.constraints", &context)
        scene.groups = decodeGroups(top.value(5, in: members), &context)
        scene.options = decodeOptions(top.value(6, in: members), &context)
        scene.sizes = decodeSizes(top.value(7, in: members), &context)
        scene.explain = decodeExplain(top.value(8, in: members), &context)

        if !context.typeErrors.isEmpty {
            throw SceneRejection(.malformed, diagnostics: context.typeErrors)
        }
        checkStacks(&scene, &context)
        checkNamesAndHierarchy(&scene, &context)
        scene.metrics = checkMetrics(metrics, path: { "$.metrics" + pathComponent($0) }, &context)
        checkGuides(&scene, &context)
        checkLimits(scene, &context)
        checkExplainedViews(scene, &context)
        if !context.sceneErrors.isEmpty {
            throw SceneRejection(.invalid, diagnostics: context.sceneErrors)
        }
        return scene
    }

    /// `explain`: an array (at most ``SceneLimits/maxExplainEntries``, else 422
    /// `limit_exceeded`, checked first by ``countLimitErrors(_:)``) of strings `VIEW` or
    /// `VIEW.FIELD` with `FIELD` one of `x y width height` and `VIEW` a name
    /// (`[A-Za-z_][A-Za-z0-9_]*`); another type or spelling is a 400 `invalid_scene`
    /// naming the element's path. Split and checked by bytes.
    private func decodeExplain(_ value: JSONNode?, _ context: inout DecodingContext) -> [FieldReference] {
        guard let value else { return [] }
        guard case .array(let elements) = value.shape else {
            context.typeErrors.append(context.typeError("$.explain", expected: "an array of \"VIEW\" or \"VIEW.FIELD\" strings", found: value))
            return []
        }
        var references: [FieldReference] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element.shape else {
                context.typeErrors.append(context.typeError("$.explain[\(index)]", expected: "a string \"VIEW\" or \"VIEW.FIELD\"", found: element))
                continue
            }
            let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 2, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            let field = parts.count == 2 ? parts[1] : nil
            let validView = isValidName(parts[0]) && parts[0].utf8.count <= SceneLimits.maxNameLength
            guard parts.count <= 2, validView, field.map({ isASCII($0) && FieldReference.fieldNames.contains($0) }) ?? true else {
                // A mistyped FIELD of a valid VIEW gets the closest field as a hint.
                let hint = parts.count == 2 && validView
                    ? context.suggestion(for: parts[1], among: FieldReference.fieldNames, spelled: { parts[0] + "." + $0 })
                    : ""
                context.typeErrors.append(LayoutDiagnostic(
                    code: .invalidScene,
                    message: "'\(Diagnostic.echo(text))' is not a field to explain: write \"VIEW\" or \"VIEW.FIELD\" with FIELD one of x, y, width, height\(hint)",
                    path: "$.explain[\(index)]"))
                continue
            }
            references.append(FieldReference(view: parts[0], field: field))
        }
        return references
    }

    /// Every view or layout guide `explain` names exists (`superview` is the container;
    /// a guide is explained like a view, its fields after the views'): else a 422
    /// `unknown_view` naming the element's path. `safeArea` is refused with a message
    /// saying so: its frame is the container's insets, set by the scene, not solved.
    ///
    /// The names are valid (ASCII) here, so the set's `String` hashing is by bytes. A
    /// did-you-mean suggestion is searched only while the scene is not already refused
    /// and for the diagnostics that are listed (``LayoutDiagnostic/maxCount``), among at
    /// most ``maxSuggestionCandidates`` names, within ``maxSuggestionComparisons``.
    /// - Complexity: O(views + guides + explain), plus at most 20,000 names compared.
    private func checkExplainedViews(_ scene: Scene, _ context: inout DecodingContext) {
        guard !scene.explain.isEmpty else { return }
        let names = Set(scene.views.lazy.map(\.name) + scene.guides.lazy.map(\.name))   // membership only
        let suggests = context.sceneErrors.isEmpty
        var candidates: [String] = []   // built once, when a suggestion is searched
        for (index, reference) in scene.explain.enumerated() where reference.view != "superview" && !names.contains(reference.view) {
            if reference.view == GuideSpec.safeAreaName {
                context.sceneErrors.append(LayoutDiagnostic(
                    code: .unknownView,
                    message: "'safeArea' is the container's safe-area layout guide, set by container.safeArea; explain takes views and the scene's layout guides",
                    path: "$.explain[\(index)]"))
                continue
            }
            var suggestion = ""
            if suggests && context.sceneErrors.count < LayoutDiagnostic.maxCount && context.admitsSuggestion(among: names.count) {
                if candidates.isEmpty { candidates = scene.views.map(\.name) + scene.guides.map(\.name) }
                suggestion = closestName(to: reference.view, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
            }
            context.sceneErrors.append(LayoutDiagnostic(
                code: .unknownView, message: "Unknown view or layout guide '\(Diagnostic.echo(reference.view))' in explain\(suggestion)",
                path: "$.explain[\(index)]"))
        }
    }

    /// `decoded` with the container size and `sizes` of `json` instead of its own, when
    /// `json` is a scene of the same structure as the one `decoded` came from (the same
    /// members but the container's `width` and `height` and `sizes`: the service knows
    /// this from the canonical form's digest) and those sizes are valid; `nil` when
    /// anything about them is wrong. Decode the whole body then (``decode(_:)``): the
    /// diagnostics come from there only.
    ///
    /// The same rules as ``decode(_:)`` for those members: numbers ≥ 0 within
    /// ±``maximumMagnitude``, `sizes` an array of `{width?, height?}` objects within
    /// ``SceneLimits/maxSizes`` and ``SceneLimits/maxFrames``.
    /// - Complexity: O(sizes), against O(body) for a whole decode.
    public func redecodeSizes(_ json: JSONValue, of decoded: Scene) -> Scene? {
        if let size = Self.plainContainerSize(json) {
            var scene = decoded
            scene.container.size = size
            scene.sizes = nil
            return scene
        }
        return redecodeSizesFromTape(json, of: decoded)
    }

    /// ``redecodeSizes(_:of:)`` read as a tape, by the same checks as a whole decode's (a
    /// few nodes: the container's size and `sizes`).
    func redecodeSizesFromTape(_ json: JSONValue, of decoded: Scene) -> Scene? {
        JSONTape(json).withRoot { root in resized(root, of: decoded) }
    }

    /// The container size of `json` when it is `{}` or `{"container": {...}}` whose
    /// members are `width` and `height` (each at most once, either may be absent), each a
    /// number from 0 to ``maximumMagnitude``: what ``resized(_:of:)`` reads from such
    /// sizes, which it accepts (no repeated or unknown member, no `sizes`, numbers that
    /// pass ``DecodingContext/optionalNumber(_:path:nonNegative:)``). `nil` for anything
    /// else, which ``resized(_:of:)`` then reads (`SceneDecoderTests.plainContainerSizesAreReadAsTheTapeReadsThem`).
    /// - Complexity: O(1), no allocation: the common resize of a known structure.
    static func plainContainerSize(_ json: JSONValue) -> ContainerSize? {
        guard case .object(let members) = json, members.count <= 1 else { return nil }
        var size = ContainerSize()
        guard let (name, value) = members.first else { return size }
        guard utf8Equal(name, "container"), case .object(let container) = value, container.count <= 2 else { return nil }
        for (field, value) in container {
            // `>= 0` and `<=` are false for NaN; -0 passes, as `optionalNumber` lets it.
            guard case .number(let number) = value, number >= 0, number <= maximumMagnitude else { return nil }
            if size.width == nil && utf8Equal(field, "width") {
                size.width = number
            } else if size.height == nil && utf8Equal(field, "height") {
                size.height = number
            } else {
                return nil
            }
        }
        return size
    }

    /// ``redecodeSizes(_:of:)`` of the sizes' tape.
    private func resized(_ root: JSONNode, of decoded: Scene) -> Scene? {
        guard case .object(let members) = root.shape else { return nil }
        var context = DecodingContext()
        // Repeated members (400) among the ones the structure leaves out.
        let at = context.checkMembers(members, known: Self.sceneMembers, path: "$")
        var scene = decoded
        scene.container.size = ContainerSize()
        if let container = at.value(0, in: members) {
            guard case .object(let containerMembers) = container.shape else { return nil }
            let inContainer = context.checkMembers(containerMembers, known: Self.containerMembers, path: "$.container")
            scene.container.size.width = context.optionalNumber(inContainer.value(0, in: containerMembers), path: "$.container.width", nonNegative: true)
            scene.container.size.height = context.optionalNumber(inContainer.value(1, in: containerMembers), path: "$.container.height", nonNegative: true)
        }
        scene.sizes = decodeSizes(at.value(7, in: members), &context)
        guard context.typeErrors.isEmpty, context.sceneErrors.isEmpty else { return nil }
        if let sizes = scene.sizes, sizes.count > limits.maxSizes || (scene.views.count + scene.guides.count + 1) * sizes.count > limits.maxFrames {
            return nil
        }
        return scene
    }

    /// The members of a scene object.
    static let sceneMembers: KnownFields = ["container", "views", "guides", "metrics", "constraints", "groups", "options", "sizes", "explain"]

    /// The members of a view object, in ``ViewMember`` order.
    static let viewMembers: KnownFields = ["parent", "intrinsicSize", "hugging", "compressionResistance", "baseline", "firstBaseline", "margins",
                              "alignmentInsets", "stack", "hidden", "text"]

    /// The index of each member of a view object in ``viewMembers``.
    enum ViewMember: Int {
        case parent, intrinsicSize, hugging, compressionResistance, baseline, firstBaseline, margins, alignmentInsets, stack, hidden, text
    }

    /// The members of the `container` object.
    static let containerMembers: KnownFields = ["width", "height", "margins", "safeArea"]
    /// The members of a size: a view's `intrinsicSize`, an element of `sizes`.
    static let sizeMembers: KnownFields = ["width", "height"]
    /// The members of an insets object (`margins`, `safeArea`, `alignmentInsets`).
    static let insetMembers: KnownFields = ["top", "left", "bottom", "right"]
    /// The members of a constraint object.
    static let constraintMembers: KnownFields = ["vfl", "equation", "options", "id", "priority"]
    /// The members of a group's body.
    static let groupBodyMembers: KnownFields = ["constraints", "metrics"]
    /// The members of a view's `text`.
    static let textMembers: KnownFields = ["string", "font", "numberOfLines", "preferredMaxLayoutWidth"]
    /// The members of a `text`'s `font`.
    static let fontMembers: KnownFields = ["family", "size", "weight", "italic"]
    /// The members of `options`.
    static let optionMembers: KnownFields = ["spacing", "layoutDirection", "conflicts", "ambiguity", "coordinates", "displayScale"]
    /// The members of `options.spacing`.
    static let spacingMembers: KnownFields = ["sibling", "superview"]

    /// Decodes a group's body, `{"constraints": [...], "metrics": {...}}` (same rules as a
    /// scene's: a metric given twice is a 400, an invalid metric name a 422).
    ///
    /// `stored`: the body of a group already stored, read back to be included, which may
    /// have been accepted by an earlier build that read metrics into a dictionary: its
    /// metrics are read as that build read them (a repeat's last value, under the first
    /// spelling of canonically equivalent names), so a stored version keeps its meaning.
    /// Its constraints are checked as ever.
    ///
    /// - Throws: ``SceneRejection`` (`malformed`) for wrong types, (`invalid`) for invalid ones.
    public func decodeGroupBody(_ json: JSONValue, stored: Bool = false) throws(SceneRejection) -> (constraints: [ConstraintEntry], metrics: [String: Double]) {
        try decodeGroupBody(tape: JSONTape(json), stored: stored)
    }

    /// ``decodeGroupBody(_:stored:)`` of the body's tape.
    private func decodeGroupBody(tape: JSONTape, stored: Bool) throws(SceneRejection) -> (constraints: [ConstraintEntry], metrics: [String: Double]) {
        let json = tape.root
        var context = DecodingContext()
        guard case .object(let members) = json.shape else {
            throw SceneRejection(.malformed, diagnostics: [context.typeError("$", expected: "an object", found: json)])
        }
        let before = context.typeErrors.count
        context.checkMembers(members, known: Self.groupBodyMembers, path: "$")
        // A GET's answer sent back as a PUT's body: say which members are the server's.
        for index in before..<context.typeErrors.count
        where ["$.name", "$.version", "$.updatedAt"].contains(context.typeErrors[index].path ?? "") {
            context.typeErrors[index].message += ": a group's body holds only \"constraints\" and \"metrics\" (its name, version and updatedAt are the server's)"
        }
        if json["constraints"] == nil {
            context.typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "A group needs a \"constraints\" array", path: "$.constraints"))
        }
        let constraints = decodeConstraints(json["constraints"], path: "$.constraints", &context)
        let metrics: [String: Double]
        if stored, let members = json["metrics"]?.objectValue {
            // As stored: a dictionary, as the earlier build that accepted it built one
            // (its names were checked then).
            var dictionary: [String: Double] = [:]
            for (name, value) in members { if case .number(let points) = value.shape { dictionary[name] = points } }
            metrics = dictionary
            if !context.typeErrors.isEmpty {
                throw SceneRejection(.malformed, diagnostics: context.typeErrors)
            }
        } else {
            let entries = decodeMetrics(json["metrics"], path: "$.metrics", &context)
            if !context.typeErrors.isEmpty {
                throw SceneRejection(.malformed, diagnostics: context.typeErrors)
            }
            metrics = checkMetrics(entries, path: { isValidName($0) ? "$.metrics" + pathComponent($0) : "$.metrics" }, &context)
            // A metric no scene could use is refused when the group is written, not in every
            // scene that includes it (HandlerTests.aMetricBeyondTheMagnitudeLimitIsRefusedOnPut).
            for entry in entries where !(abs(entry.points) <= maximumMagnitude) && isValidName(entry.name) {
                context.sceneErrors.append(LayoutDiagnostic(
                    code: .limitExceeded,
                    message: "$.metrics\(pathComponent(entry.name)) is \(JSONWriter.format(entry.points)); lengths are limited to ±\(JSONWriter.format(maximumMagnitude)) points (limit maxMagnitude)",
                    path: "$.metrics" + pathComponent(entry.name)))
            }
        }
        if constraints.count > limits.maxConstraints {
            context.sceneErrors.append(LayoutDiagnostic(code: .limitExceeded, message: "A group may hold at most \(limits.maxConstraints) constraints; this one has \(constraints.count) (limit maxConstraints)", path: "$.constraints"))
        }
        if !context.sceneErrors.isEmpty {
            throw SceneRejection(.invalid, diagnostics: context.sceneErrors)
        }
        return (constraints, metrics)
    }

    // MARK: - Parts

    private func decodeContainer(_ value: JSONNode?, path: @autoclosure () -> String, _ context: inout DecodingContext) -> Container {
        var container = Container()
        guard let value else { return container }
        guard case .object(let members) = value.shape else {
            context.typeErrors.append(context.typeError(path(), expected: "an object", found: value))
            return container
        }
        let at = context.checkMembers(members, known: Self.containerMembers, path: path())
        container.size.width = context.optionalNumber(at.value(0, in: members), path: path() + ".width", nonNegative: true)
        container.size.height = context.optionalNumber(at.value(1, in: members), path: path() + ".height", nonNegative: true)
        container.margins = decodeInsets(at.value(2, in: members), path: path() + ".margins", &context)
        container.safeArea = decodeInsets(at.value(3, in: members), path: path() + ".safeArea", default: 0, &context)
        return container
    }

    /// `{top, left, bottom, right}`, each absent side `defaultInset` points (8 for margins, 0 for the safe area).
    func decodeInsets(_ value: JSONNode?, path: @autoclosure () -> String, default defaultInset: Double = 8,
                      _ context: inout DecodingContext) -> Insets {
        var insets = Insets(top: defaultInset, left: defaultInset, bottom: defaultInset, right: defaultInset)
        guard let value else { return insets }
        guard case .object(let members) = value.shape else {
            context.typeErrors.append(context.typeError(path(), expected: "an object {top, left, bottom, right}", found: value))
            return insets
        }
        let at = context.checkMembers(members, known: Self.insetMembers, path: path())
        insets.top = context.optionalNumber(at.value(0, in: members), path: path() + ".top") ?? defaultInset
        insets.left = context.optionalNumber(at.value(1, in: members), path: path() + ".left") ?? defaultInset
        insets.bottom = context.optionalNumber(at.value(2, in: members), path: path() + ".bottom") ?? defaultInset
        insets.right = context.optionalNumber(at.value(3, in: members), path: path() + ".right") ?? defaultInset
        return insets
    }

    private func decodeViews(_ value: JSONNode?, _ context: inout DecodingContext) -> [ViewSpec] {
        guard let value else { return [] }
        var views: [ViewSpec] = []
        switch value.shape {
        case .array(let elements):
            views.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard case .string(let name) = element.shape else {
                    context.typeErrors.append(context.typeError("$.views[\(index)]", expected: "a view name (a string)", found: element))
                    continue
                }
                var view = ViewSpec(name: name)
                view.jsonPath = "$.views[\(index)]"
                views.append(view)
            }
        case .object(let members):
            views.reserveCapacity(members.count)
            for (name, body) in members {
                func path() -> String { "$.views" + pathComponent(name) }
                guard case .object(let fields) = body.shape else {
                    context.typeErrors.append(context.typeError(path(), expected: "an object (a view)", found: body))
                    continue
                }
                // Each field read where the check found it (one pass over the members).
                let at = context.checkMembers(fields, known: Self.viewMembers, path: path())
                @inline(__always)
                func member(_ field: ViewMember) -> JSONNode? { at.value(field.rawValue, in: fields) }
                // Each field decoded in the order of its diagnostics, then the view built in
                // one go with the memberwise initializer (in place, no copy field by field).
                var parent: String?
                if let value = member(.parent) {
                    if case .string(let parentName) = value.shape {
                        parent = parentName
                    } else {
                        context.typeErrors.append(context.typeError(path() + ".parent", expected: "a view name (a string)", found: value))
                    }
                }
                var intrinsicWidth: Double?, intrinsicHeight: Double?
                if let size = member(.intrinsicSize) {
                    if case .object(let sizeFields) = size.shape {
                        let sizeAt = context.checkMembers(sizeFields, known: Self.sizeMembers, path: path() + ".intrinsicSize")
                        intrinsicWidth = context.intrinsicMetric(sizeAt.value(0, in: sizeFields), path: path() + ".intrinsicSize.width")
                        intrinsicHeight = context.intrinsicMetric(sizeAt.value(1, in: sizeFields), path: path() + ".intrinsicSize.height")
                    } else {
                        context.typeErrors.append(context.typeError(path() + ".intrinsicSize", expected: "an object {width, height}", found: size))
                    }
                }
                let hugging = context.axisPriorities(member(.hugging), path: path() + ".hugging", defaults: ViewSpec.defaultHugging)
                let compressionResistance = context.axisPriorities(member(.compressionResistance), path: path() + ".compressionResistance", defaults: ViewSpec.defaultCompressionResistance)
                let baseline = context.optionalNumber(member(.baseline), path: path() + ".baseline")
                let firstBaseline = context.optionalNumber(member(.firstBaseline), path: path() + ".firstBaseline")
                let margins = decodeInsets(member(.margins), path: path() + ".margins", &context)
                let alignmentInsets = decodeInsets(member(.alignmentInsets), path: path() + ".alignmentInsets", default: 0, &context)
                var stack: StackSpec?
                if let value = member(.stack) { stack = decodeStack(value, path: path() + ".stack", &context) }
                var isHidden = false
                if let hidden = member(.hidden) {
                    if case .bool(let flag) = hidden.shape { isHidden = flag } else {
                        context.typeErrors.append(context.typeError(path() + ".hidden", expected: "true or false", found: hidden))
                    }
                }
                var text: TextSpec?
                if let value = member(.text) {
                    text = decodeText(value, path: path() + ".text", &context)
                    for member in ["intrinsicSize", "baseline", "firstBaseline"] where body[member] != nil {
                        context.sceneErrors.append(LayoutDiagnostic(
                            code: .invalidScene,
                            message: "View '\(Diagnostic.echo(name))' has text and \(member): a label's intrinsic size and baselines are its text measured",
                            path: path() + "." + member))
                    }
                    // A stack view's size and baselines come from its arranged views, a
                    // label's from its text: one view cannot be both (TextSceneTests.aStackCannotBeALabel).
                    if body["stack"] != nil {
                        context.sceneErrors.append(LayoutDiagnostic(
                            code: .invalidScene,
                            message: "View '\(Diagnostic.echo(name))' has text and stack: a stack view is sized by its arranged views, a label by its text; put the label in the stack instead",
                            path: path() + ".text"))
                    }
                }
                views.append(ViewSpec(
                    name: name, parent: parent, intrinsicWidth: intrinsicWidth, intrinsicHeight: intrinsicHeight,
                    hugging: hugging, compressionResistance: compressionResistance,
                    baseline: baseline, firstBaseline: firstBaseline, margins: margins, alignmentInsets: alignmentInsets,
                    stack: stack, isHidden: isHidden, text: text, jsonPath: nil))
            }
        default:
            context.typeErrors.append(context.typeError("$.views", expected: "an array of names or an object of name → view", found: value))
        }
        return views
    }

    /// The `text` member of a view (contract, "Text"): wrong types are 400s, values out of
    /// range (a size ≤ 0 or over ``TextSpec/maxFontSize``, a weight outside 100–900, a string
    /// over ``TextSpec/maxStringLength`` characters, negative lines or width) 422s.
    private func decodeText(_ value: JSONNode, path: String, _ context: inout DecodingContext) -> TextSpec? {
        guard case .object(let fields) = value.shape else {
            context.typeErrors.append(context.typeError(path, expected: "an object {string, font, numberOfLines, preferredMaxLayoutWidth}", found: value))
            return nil
        }
        context.checkMembers(fields, known: Self.textMembers, path: path)
        guard let string = value["string"]?.stringValue else {
            // An absent member is said to be missing (not "found null": the client sent no null).
            context.typeErrors.append(value["string"].map { context.typeError(path + ".string", expected: "a string", found: $0) }
                ?? LayoutDiagnostic(code: .invalidScene, message: "Missing member 'string' at \(path): a label's text is required", path: path + ".string"))
            return nil
        }
        func invalid(_ message: String, _ at: String) {
            context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: message, path: at))
        }
        var text = TextSpec(string: string)
        // Counting Characters is O(n): only a string that could be over the limit is counted.
        if string.utf8.count > TextSpec.maxStringLength, string.count > TextSpec.maxStringLength {
            invalid("\(path).string has \(string.count) characters; a label's string is at most \(TextSpec.maxStringLength) characters", path + ".string")
        }
        if let font = value["font"] {
            if case .object(let fontFields) = font.shape {
                context.checkMembers(fontFields, known: Self.fontMembers, path: path + ".font")
                if let family = font["family"] {
                    if case .string(let name) = family.shape {
                        if name.utf8.count > SceneLimits.maxNameLength {
                            invalid("\(path).font.family is \(name.utf8.count) bytes long; family names are at most \(SceneLimits.maxNameLength) (limit maxNameLength)", path + ".font.family")
                        } else {
                            text.family = name
                        }
                    } else {
                        context.typeErrors.append(context.typeError(path + ".font.family", expected: "a family name (a string)", found: family))
                    }
                }
                if let size = font["size"] {
                    if case .number(let points) = size.shape {
                        if !(points > 0) || points > TextSpec.maxFontSize {
                            invalid("\(path).font.size is \(JSONWriter.format(points)); a font size is > 0 and at most \(JSONWriter.format(TextSpec.maxFontSize)) points", path + ".font.size")
                        } else {
                            text.size = points
                        }
                    } else {
                        context.typeErrors.append(context.typeError(path + ".font.size", expected: "a number (points)", found: size))
                    }
                }
                if let weight = font["weight"] {
                    if case .number(let number) = weight.shape {
                        if number.rounded() != number || number < 100 || number > 900 {
                            invalid("\(path).font.weight is \(JSONWriter.format(number)); a weight is a whole number from 100 to 900", path + ".font.weight")
                        } else {
                            text.weight = Int(number)
                        }
                    } else {
                        context.typeErrors.append(context.typeError(path + ".font.weight", expected: "a number (100–900)", found: weight))
                    }
                }
                if let italic = font["italic"] {
                    if case .bool(let flag) = italic.shape { text.italic = flag } else {
                        context.typeErrors.append(context.typeError(path + ".font.italic", expected: "true or false", found: italic))
                    }
                }
            } else {
                context.typeErrors.append(context.typeError(path + ".font", expected: "an object {family, size, weight, italic}", found: font))
            }
        }
        if let lines = value["numberOfLines"] {
            if case .number(let number) = lines.shape {
                if number.rounded() != number || number < 0 || number > Double(TextSpec.maxNumberOfLines) {
                    invalid("\(path).numberOfLines is \(JSONWriter.format(number)); it is a whole number from 0 (as many as needed) to \(TextSpec.maxNumberOfLines)", path + ".numberOfLines")
                } else {
                    text.numberOfLines = Int(number)
                }
            } else {
                context.typeErrors.append(context.typeError(path + ".numberOfLines", expected: "a whole number", found: lines))
            }
        }
        if let width = context.optionalNumber(value["preferredMaxLayoutWidth"], path: path + ".preferredMaxLayoutWidth", nonNegative: true) {
            text.preferredMaxLayoutWidth = width
        }
        return text
    }

    /// `metrics`: an object of name → number, as given (names are checked by
    /// ``checkMetrics(_:path:_:)``). A valid name given twice is a 400 `invalid_scene` at
    /// the second, as a repeated field is: names are compared by their bytes, and only
    /// valid (ASCII) names are put in a set (an invalid one is a 422 of its own).
    /// - Complexity: O(metrics).
    private func decodeMetrics(_ value: JSONNode?, path: @autoclosure () -> String, _ context: inout DecodingContext) -> [(name: String, points: Double)] {
        guard let value else { return [] }
        guard case .object(let members) = value.shape else {
            context.typeErrors.append(context.typeError(path(), expected: "an object of name → number", found: value))
            return []
        }
        var metrics: [(name: String, points: Double)] = []
        metrics.reserveCapacity(members.count)
        var seen = Set<String>(minimumCapacity: members.count)   // valid (ASCII) names only; membership only
        for (name, number) in members {
            if isValidName(name), !seen.insert(name).inserted {
                context.typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Metric '\(Diagnostic.echo(name))' is given more than once at \(path()); give it once", path: path() + pathComponent(name)))
                continue
            }
            guard case .number(let points) = number.shape else {
                context.typeErrors.append(context.typeError(path() + pathComponent(name), expected: "a number (points)", found: number))
                continue
            }
            metrics.append((name, points))
        }
        return metrics
    }

    /// The metrics whose names are valid, after a 422 `invalid_scene` for each name that
    /// does not match `[A-Za-z_][A-Za-z0-9_]*` (validated by its bytes before any
    /// comparison: U+212A KELVIN SIGN is not `K`) or is longer than
    /// ``SceneLimits/maxNameLength``, in byte order of the names. The dictionary's keys are
    /// ASCII and unique (``decodeMetrics(_:path:_:)``), so its `String` hashing is by bytes.
    /// - Complexity: O(metrics log metrics).
    private func checkMetrics(_ entries: [(name: String, points: Double)], path: (String) -> String,
                              _ context: inout DecodingContext) -> [String: Double] {
        var metrics: [String: Double] = [:]
        metrics.reserveCapacity(entries.count)
        var invalid: [String] = []
        for (name, points) in entries {
            if isValidName(name) && name.utf8.count <= SceneLimits.maxNameLength {
                metrics[name] = points
            } else {
                invalid.append(name)
            }
        }
        for name in invalid.sorted(by: utf8Precedes) {
            if !isValidName(name) {
                context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Metric name '\(Diagnostic.echo(name))' is invalid: \(nameRule(name))", path: path(name)))
            } else {
                context.sceneErrors.append(nameTooLong("Metric", name, path: path(name)))
            }
        }
        return metrics
    }

    private func decodeConstraints(_ value: JSONNode?, path: @autoclosure () -> String, _ context: inout DecodingContext) -> [ConstraintEntry] {
        guard let value else { return [] }
        guard case .array(let elements) = value.shape else {
            context.typeErrors.append(context.typeError(path(), expected: "an array of constraints", found: value))
            return []
        }
        var entries: [ConstraintEntry] = []
        entries.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            func elementPath() -> String { "\(path())[\(index)]" }
            switch element.shape {
            case .string(let source):
                entries.append(ConstraintEntry(kind: isVisualFormat(source) ? .visualFormat(options: []) : .equation, source: source))
            case .object(let members):
                let errorsBefore = context.typeErrors.count
                let at = context.checkMembers(members, known: Self.constraintMembers, path: elementPath())
                let hasUnknownField = context.typeErrors.count > errorsBefore
                var id: String?
                if let idValue = at.value(3, in: members) {
                    if case .string(let text) = idValue.shape {
                        id = text
                        // Echoed in every diagnostic and constraint ref of the entry.
                        if text.utf8.count > SceneLimits.maxNameLength, text.unicodeScalars.count > SceneLimits.maxNameLength {
                            context.sceneErrors.append(LayoutDiagnostic(
                                code: .invalidScene,
                                message: "The id '\(Diagnostic.echo(text))' is \(text.unicodeScalars.count) characters long; ids are at most \(SceneLimits.maxNameLength) characters (limit maxNameLength)",
                                path: elementPath() + ".id"))
                        }
                    } else {
                        context.typeErrors.append(context.typeError(elementPath() + ".id", expected: "a string", found: idValue))
                    }
                }
                let priority = context.priority(at.value(4, in: members), path: elementPath() + ".priority")
                let vfl = at.value(0, in: members)
                let equation = at.value(1, in: members)
                switch (vfl?.shape, equation?.shape) {
                case (.some(.string(let source)), nil):
                    var options: [String] = []
                    if let optionsValue = at.value(2, in: members) {
                        if case .array(let list) = optionsValue.shape {
                            for (optionIndex, option) in list.enumerated() {
                                if case .string(let name) = option.shape { options.append(name) } else {
                                    context.typeErrors.append(context.typeError("\(elementPath()).options[\(optionIndex)]", expected: "a format option name (a string)", found: option))
                                }
                            }
                        } else {
                            context.typeErrors.append(context.typeError(elementPath() + ".options", expected: "an array of format option names", found: optionsValue))
                        }
                    }
                    entries.append(ConstraintEntry(kind: .visualFormat(options: options), source: source, id: id, priority: priority))
                case (nil, .some(.string(let source))):
                    if let optionsValue = at.value(2, in: members) {
                        context.typeErrors.append(context.typeError(elementPath() + ".options", expected: "no format options (they belong to \"vfl\" constraints)", found: optionsValue))
                    }
                    entries.append(ConstraintEntry(kind: .equation, source: source, id: id, priority: priority))
                case (.some, .some):
                    context.typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "A constraint object has either \"vfl\" or \"equation\", not both", path: elementPath()))
                case (.some, nil):
                    context.typeErrors.append(context.typeError(elementPath() + ".vfl", expected: "a string", found: vfl!))
                case (nil, .some):
                    context.typeErrors.append(context.typeError(elementPath() + ".equation", expected: "a string", found: equation!))
                case (nil, nil):
                    // A misspelt `eqation` was just reported, with its suggestion: once is enough.
                    if !hasUnknownField {
                        context.typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "A constraint object needs a \"vfl\" or an \"equation\" string", path: elementPath()))
                    }
                }
            default:
                context.typeErrors.append(context.typeError(elementPath(), expected: "a string or an object {vfl|equation, …}", found: element))
            }
        }
        return entries
    }

    private func decodeGroups(_ value: JSONNode?, _ context: inout DecodingContext) -> [GroupReference] {
        guard let value else { return [] }
        guard case .array(let elements) = value.shape else {
            context.typeErrors.append(context.typeError("$.groups", expected: "an array of group names", found: value))
            return []
        }
        var groups: [GroupReference] = []
        // A group named twice (`nest`, `nest@1`) would add its constraints twice (an
        // optional one at double weight), and both copies would have the same constraint
        // refs (`group:nest/0`): an error at the second, naming the first.
        var firstIndex: [String: Int] = [:]   // lookups only
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element.shape else {
                context.typeErrors.append(context.typeError("$.groups[\(index)]", expected: "a group name (a string)", found: element))
                continue
            }
            // Split at the last `@` by bytes, and the name validated (ASCII) before it is
            // compared with another.
            let reference: GroupReference
            if let at = text.utf8.lastIndex(of: UInt8(ascii: "@")) {
                let name = String(decoding: text.utf8[..<at], as: UTF8.self)
                let versionText = String(decoding: text.utf8[text.utf8.index(after: at)...], as: UTF8.self)
                // VERSION as `GET /groups/NAME/versions/VERSION` reads it: digits, no sign, no leading zero.
                let isDecimal = versionText.utf8.first.map { $0 >= 0x31 && $0 <= 0x39 } == true
                    && versionText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                if isDecimal && Int(versionText) == nil && isValidGroupName(name) {
                    // Well-formed but past Int.max: no group has such a version
                    // (SceneDecoderTests.aVersionPastTheLargestIsSaidToBe).
                    context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "'\(Diagnostic.echo(text))' names a version larger than any group can have (at most \(Int.max))", path: "$.groups[\(index)]"))
                    continue
                }
                guard isDecimal, let version = Int(versionText), isValidGroupName(name) else {
                    context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "'\(Diagnostic.echo(text))' is not a group reference: write NAME or NAME@VERSION, VERSION a positive integer without leading zeros", path: "$.groups[\(index)]"))
                    continue
                }
                reference = GroupReference(name: name, version: version)
            } else {
                guard isValidGroupName(text) else {
                    context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "'\(Diagnostic.echo(text))' is not a valid group name: names match [A-Za-z0-9][A-Za-z0-9._-]{0,127}", path: "$.groups[\(index)]"))
                    continue
                }
                reference = GroupReference(name: text, version: nil)
            }
            if let first = firstIndex[reference.name] {
                context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Group '\(Diagnostic.echo(reference.name))' is included twice ($.groups[\(first)] and $.groups[\(index)]): include each group once, as its constraint refs (group:\(reference.name)/N) would not tell the copies apart", path: "$.groups[\(index)]"))
                continue
            }
            firstIndex[reference.name] = index
            groups.append(reference)
        }
        return groups
    }

    private func decodeOptions(_ value: JSONNode?, _ context: inout DecodingContext) -> Options {
        var options = Options()
        guard let value else { return options }
        guard case .object(let members) = value.shape else {
            context.typeErrors.append(context.typeError("$.options", expected: "an object", found: value))
            return options
        }
        context.checkMembers(members, known: Self.optionMembers, path: "$.options")
        if let spacing = value["spacing"] {
            if case .object(let fields) = spacing.shape {
                context.checkMembers(fields, known: Self.spacingMembers, path: "$.options.spacing")
                options.siblingSpacing = context.optionalNumber(spacing["sibling"], path: "$.options.spacing.sibling") ?? 8
                options.superviewSpacing = context.optionalNumber(spacing["superview"], path: "$.options.spacing.superview") ?? 20
            } else {
                context.typeErrors.append(context.typeError("$.options.spacing", expected: "an object {sibling, superview}", found: spacing))
            }
        }
        options.layoutDirection = context.enumeration(value["layoutDirection"], path: "$.options.layoutDirection", default: .leftToRight)
        options.conflicts = context.enumeration(value["conflicts"], path: "$.options.conflicts", default: .break)
        options.ambiguity = context.enumeration(value["ambiguity"], path: "$.options.ambiguity", default: .warn)
        options.coordinates = context.enumeration(value["coordinates"], path: "$.options.coordinates", default: .parent)
        if let scale = value["displayScale"] {
            // 1, 2 or 3 (as a JSON number: 2.0 is 2); anything else is a 400 naming the path.
            if case .number(let number) = scale.shape, number == 1 || number == 2 || number == 3 {
                options.displayScale = Int(number)
            } else {
                context.typeErrors.append(LayoutDiagnostic(
                    code: .invalidScene, message: "$.options.displayScale must be 1, 2 or 3 (pixels per point)", path: "$.options.displayScale"))
            }
        }
        return options
    }

    private func decodeSizes(_ value: JSONNode?, _ context: inout DecodingContext) -> [ContainerSize]? {
        guard let value else { return nil }
        guard case .array(let elements) = value.shape else {
            context.typeErrors.append(context.typeError("$.sizes", expected: "an array of {width?, height?}", found: value))
            return nil
        }
        // The contract's `sizes` lists the sizes to answer, one layout each: an empty list
        // would answer no layout at all (and not the container's), so it is refused (422).
        if elements.isEmpty {
            context.sceneErrors.append(LayoutDiagnostic(
                code: .invalidScene,
                message: "$.sizes is empty: give at least one size ({\"width\"?, \"height\"?}), or leave sizes out to lay out the container",
                path: "$.sizes"))
        }
        var sizes: [ContainerSize] = []
        for (index, element) in elements.enumerated() {
            func path() -> String { "$.sizes[\(index)]" }
            guard case .object(let members) = element.shape else {
                context.typeErrors.append(context.typeError(path(), expected: "an object {width?, height?}", found: element))
                continue
            }
            let at = context.checkMembers(members, known: Self.sizeMembers, path: path())
            sizes.append(ContainerSize(
                width: context.optionalNumber(at.value(0, in: members), path: path() + ".width", nonNegative: true),
                height: context.optionalNumber(at.value(1, in: members), path: path() + ".height", nonNegative: true)))
        }
        return sizes
    }
}
