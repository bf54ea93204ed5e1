import Cassowary
import LayoutSyntax

/// One solver constraint with the user's words for it.
///
/// The words (the constraint written as an equation, the column in its string) are
/// only rendered when a diagnostic needs them: most solves never do, and rendering
/// every constraint's text was a tenth of an uncached solve.
public struct CompiledConstraint: Sendable {
    /// How to write the constraint for people, rendered on demand.
    enum Words: Sendable {
        /// Part `part` of `parts`, the parsed constraints of a scene or group entry (one
        /// array shared by the entry's parts: no part is copied into each constraint);
        /// `objectPriority` is the entry's `priority` field when the string gives none,
        /// `parent` the view VFL `|` stands for when it is not the container (its text
        /// names that view).
        case parsed([ParsedConstraint], part: Int, objectPriority: Double?, parent: String?)
        /// An implicit constraint: `superview.width == 375`.
        case literal(String)
        /// An intrinsic-size constraint: `VIEW.ATTRIBUTE >= SIZE @PRIORITY`.
        case intrinsic(view: String, attribute: String, relation: String, size: Double, priority: Double)
        /// The container's size: `superview.width == 375`, or `superview.width == 0 @50`
        /// for a fitted (`nil`) dimension.
        case container(dimension: String, size: Double?)
        /// A stack view's constraint (``StackWords``), keyed `stack:NAME`.
        case stack(StackWords)
    }

    public var constraint: Constraint
    /// Which entry (or implicit constraint) it comes from. Implicit keys
    /// (`VIEW.hugging.horizontal`, `container.width`) are spelled out only when read.
    public var key: ConstraintKey {
        get {
            if let storedKey { return storedKey }
            switch words {
            case .intrinsic(let view, let attribute, let relation, _, _):
                let kind = relation == ">=" ? ".compressionResistance." : ".hugging."
                return .implicit(view + kind + (attribute == "width" ? "horizontal" : "vertical"))
            case .container(let dimension, _):
                return .implicit("container." + dimension)
            case .stack(let stack):
                return .implicit("stack:" + stack.stack)
            case .parsed, .literal:
                return .implicit("")   // not reached: these are created with a stored key
            }
        }
        set { storedKey = newValue }
    }
    /// The key, unless it is derived from ``words`` (intrinsic and container constraints).
    fileprivate var storedKey: ConstraintKey?
    public var part: Int?
    public var id: String?
    /// The source string of the entry, for diagnostics (`nil` for implicit constraints).
    public var source: String?
    /// UTF-8 offset in ``source`` of the connection, predicate or equation it came from.
    var offset: Int?
    /// Whether ``source`` is ASCII, so that ``offset`` is the column too (counting
    /// scalars up to it, for every part of a string of 20,000 parts, was quadratic).
    var sourceIsASCII: Bool
    var words: Words

    /// The contract's constraint ref: entry, part, `id`, column and the equation text.
    public var ref: ConstraintRef {
        let text: String
        switch words {
        case .parsed(let parts, let part, let objectPriority, let parent):
            let parsed = parts[part]
            var rendered = parsed.text(superview: parent)
            if parsed.priority == nil, let objectPriority, objectPriority < 1000 { rendered += priorityText(objectPriority) }
            text = rendered
        case .literal(let literal):
            text = literal
        case .intrinsic(let view, let attribute, let relation, let size, let priority):
            // A measured size is shown to 6 decimals, as frames are (`202.333333`, not
            // `202.33333333333334`); the constraint keeps the exact value
            // (DiagnosticsTests.measuredSizesInNotesHaveSixDecimals).
            text = "\(view).\(attribute) \(relation) \(JSONWriter.format(roundedForResponse(size)))" + priorityText(priority)
        case .container(let dimension, let size):
            text = size.map { "superview.\(dimension) == \(JSONWriter.format($0))" } ?? "superview.\(dimension) == 0 @50"
        case .stack(let stack):
            text = stack.text
        }
        var columnValue: Int?
        if let offset, let source { columnValue = sourceIsASCII ? offset : column(of: offset, in: source) }
        return ConstraintRef(key: key, part: part, id: id, column: columnValue, text: text)
    }
}

extension CompiledConstraint {
    // In an extension, so the struct keeps its memberwise initializer (fileprivate, for
    // `storedKey`): the compiler's hot paths in this file build constraints with it,
    // which writes the value in place; this initializer's field-by-field assignments
    // built it on the stack and copied it out (a retain and a release per field).
    init(constraint: Constraint, key: ConstraintKey? = nil, part: Int? = nil, id: String? = nil, source: String? = nil,
         offset: Int? = nil, sourceIsASCII: Bool = false, words: Words) {
        self.init(constraint: constraint, storedKey: key, part: part, id: id, source: source, offset: offset,
                  sourceIsASCII: sourceIsASCII, words: words)
    }
}

/// A scene parsed and translated into solver constraints, ready to be solved at any
/// container size (contract, "Conflicts": the order of addition is fixed here).
///
/// Compiling is the expensive, size-independent half of a solve: JSON is decoded,
/// every constraint string parsed, names resolved, attributes translated into
/// expressions over the view variables. ``solve(size:)`` does the rest.
public struct CompiledScene: Sendable {
    public let scene: Scene
    /// The limits it was compiled under (``SceneLimits/maxSolverWork`` applies when solving).
    public let limits: SceneLimits
    public let hierarchy: ViewHierarchy
    /// The intrinsic-size constraints (views sorted by name), then the stacks'
    /// constraints (stacks sorted by name, ``CompileState/addStackConstraints()``), then
    /// the scene's constraints in order, then the groups'; when a constraint uses
    /// `safeArea`, the four that define it come first (the container's, as its size is).
    /// The container's size comes first at solve time.
    public let constraints: [CompiledConstraint]
    /// Size-independent diagnostics: syntax errors, unknown names, incompatible attributes.
    public let diagnostics: [LayoutDiagnostic]
    /// For each view and axis (`4 × view + axis`, axis 0 horizontal, 1 vertical), the
    /// indices into ``constraints`` of the constraints that mention it, in order: the
    /// material of ambiguity hints.
    let mentioned: MentionIndex
    /// The reported frame fields and their expressions (see ``ViewHierarchy/frameFields(relativeToRoot:)``).
    let frameFields: [FrameField]
    /// Each of ``frameFields`` as a variable or a difference of two, in the same order.
    let frameFieldDifferences: [VariableDifference]

    /// Whether a compile diagnostic is an error (the scene cannot be laid out as written),
    /// among the ones listed or the ones counted past ``LayoutDiagnostic/maxCount``.
    public let hasErrors: Bool

    /// By guide (`index − hierarchy.count`): bit 1 a constraint names its width, bit 2
    /// its height; a guide's negative size is reported only when named (contract).
    let guideSizesNamed: [UInt8]

    /// About how many bytes it holds: its scene's (``Scene/approximateByteCount``), 16
    /// per term, 200 per constraint and 300 per view for the rest. An estimate for cache
    /// limits (``CompiledScene`` values are kept per scene structure by the service), not
    /// an exact count.
    /// - Complexity: O(constraints + terms).
    public var approximateByteCount: Int {
        var bytes = scene.approximateByteCount + 300 * hierarchy.count + 200 * constraints.count
        for compiled in constraints { bytes += 16 * compiled.constraint.expression.terms.count }
        return bytes
    }
}

/// For each view and axis (keyed by the axis's origin field,
/// ``FrameField/origin(of:horizontal:)``), the indices of the constraints that mention
/// it, in increasing order: one flat array and the
/// start of each key's run in it (compressed sparse rows), built once from the
/// (key, constraint) pairs the compiler records — two arrays instead of one per key.
struct MentionIndex: Sendable {
    /// `starts[key]..<starts[key + 1]` is the run of `key` in ``constraints``.
    private let starts: [Int]
    private let constraints: [Int]

    /// Groups `pairs` by key (a counting sort, stable: each run keeps the pairs' order).
    /// `starts` serves as the placing cursor too (each key's cursor ends at the next key's
    /// start, and is shifted back), in place in the arrays' buffers: no third array, no
    /// uniqueness check per access.
    init(_ pairs: [(key: Int, constraint: Int)], keyCount: Int) {
        var starts = [Int](repeating: 0, count: keyCount + 1)
        let total = starts.withUnsafeMutableBufferPointer { starts in
            for pair in pairs where pair.key >= 0 && pair.key < keyCount { starts[pair.key + 1] += 1 }
            for key in 0..<keyCount { starts[key + 1] += starts[key] }
            return starts[keyCount]
        }
        self.constraints = starts.withUnsafeMutableBufferPointer { starts in
            [Int](unsafeUninitializedCapacity: total) { constraints, count in
                // Each counted pair fills one of the `total` places.
                for pair in pairs where pair.key >= 0 && pair.key < keyCount {
                    constraints[starts[pair.key]] = pair.constraint
                    starts[pair.key] += 1
                }
                count = total
            }
        }
        // `starts[key]` is now the end of `key`'s run, the start of the next one's.
        starts.withUnsafeMutableBufferPointer { starts in
            for key in stride(from: keyCount - 1, through: 1, by: -1) { starts[key] = starts[key - 1] }
            if keyCount > 0 { starts[0] = 0 }
        }
        self.starts = starts
    }

    /// The constraints that mention the view and axis of `field` (an origin field), in
    /// increasing order (empty for an unknown field).
    subscript(field: FrameField) -> ArraySlice<Int> {
        let key = field.key
        guard key >= 0 && key + 1 < starts.count else { return [] }
        return constraints[starts[key]..<starts[key + 1]]
    }
}

/// Compiles a ``Scene`` (and the groups it includes) into a ``CompiledScene``.
///
/// Coordinate spaces follow UIKit (contract, "Coordinate spaces"): each constraint is
/// evaluated in the space of the nearest common ancestor of the views it relates, a
/// parent's own attributes seen from its children being in its bounds; a constraint on
/// one view alone is measured in that view's parent. Under `rightToLeft`, a constraint
/// that uses leading/trailing is mirrored inside that space (`x ↦ width − x`), so a scene
/// written with leading/trailing lays out as the exact mirror of its left-to-right layout.
public struct SceneCompiler: Sendable {
    public let scene: Scene
    public let groups: [ResolvedGroup]
    public let limits: SceneLimits

    public init(scene: Scene, groups: [ResolvedGroup] = [], limits: SceneLimits = SceneLimits()) {
        self.scene = scene
        self.groups = groups
        self.limits = limits
    }

    /// Parses and translates every constraint.
    ///
    /// - Complexity: O(total length of the constraint strings + views × depth).
    public func compile() -> CompiledScene {
        let hierarchy = ViewHierarchy(views: scene.views, guides: scene.guides)
        let frameFields = hierarchy.frameFields(relativeToRoot: scene.options.coordinates == .root)
        var state = CompileState(scene: scene, hierarchy: hierarchy)
        for warning in Self.metricsNamedLikeViews(scene.metrics, hierarchy: hierarchy) {
            state.report(.invalidScene, warning, isError: false)
        }
        let totalBytes = scene.constraints.reduce(0) { $0 + $1.source.utf8.count }
            + groups.reduce(0) { total, group in group.constraints.reduce(total) { $0 + $1.source.utf8.count } }
        if totalBytes > limits.maxTotalConstraintBytes {
            // Nothing is parsed: the limit is there to spare that work.
            state.report(.limitExceeded, LayoutDiagnostic(
                code: .limitExceeded,
                message: "The scene and its groups have \(totalBytes) bytes of constraints; at most \(limits.maxTotalConstraintBytes) are allowed (limit maxTotalConstraintBytes)"))
        } else {
            state.addAllConstraints(groups: groups)
            if state.usesSafeArea { state.prependSafeAreaDefinitions() }
        }
        if state.omitted > 0 { state.diagnostics.append(.omission(state.omitted)) }
        let levelCount = Self.optionalLevelCount(state.constraints)
        if levelCount > limits.maxPriorityLevels {
            state.hasErrors = true
            state.diagnostics = LayoutDiagnostic.appending(LayoutDiagnostic(
                code: .limitExceeded,
                message: "The scene uses \(levelCount) different priorities below 1000; at most \(limits.maxPriorityLevels) are allowed (limit maxPriorityLevels): round them, each distinct priority is a level of its own"),
                to: state.diagnostics)
        }
        return CompiledScene(scene: scene, limits: limits, hierarchy: hierarchy, constraints: state.constraints,
                             diagnostics: state.diagnostics,
                             mentioned: MentionIndex(state.mentions, keyCount: FrameField.keyCount(items: hierarchy.itemCount)),
                             frameFields: frameFields.fields, frameFieldDifferences: frameFields.expressions,
                             hasErrors: state.hasErrors, guideSizesNamed: state.guideSizesNamed)
    }
}

extension SceneCompiler {
    /// A warning `invalid_scene` at `$.metrics.NAME` for each metric named like a view (or
    /// `superview`), in name order: the parsers read such a name as the metric wherever a
    /// bare name may be one (a VFL predicate `[a(NAME)]` or space `-NAME-`, an equation's
    /// `+ NAME`), and as the view only with brackets or an attribute (`[NAME]`,
    /// `NAME.width`) (`DiagnosticsTests.metricsNamedLikeViewsAreWarned`).
    /// - Complexity: O(metrics) lookups, then O(k log k) for the k so named.
    static func metricsNamedLikeViews(_ metrics: [String: Double], hierarchy: ViewHierarchy) -> [LayoutDiagnostic] {
        guard !metrics.isEmpty else { return [] }
        let named = metrics.keys.filter { name in hierarchy.index(of: name).map { !hierarchy.isGuide($0) } ?? false }
        return named.sorted(by: utf8Precedes).map { name in
            let value = JSONWriter.format(metrics[name]!)
            return LayoutDiagnostic(
                severity: .warning, code: .invalidScene,
                message: "Metric '\(name)' has the name of a view: a bare '\(name)' in a constraint is the metric (\(value)), "
                    + "as in a VFL predicate '[a(\(name))]' or space '-\(name)-', never the view; the view is '[\(name)]' in VFL "
                    + "and '\(name).width' in an equation. Rename the metric to use both",
                path: "$.metrics" + pathComponent(name))
        }
    }

    /// How many distinct strengths below required `constraints` use (each is a strength
    /// level of the solver). The first ``levelListLimit`` are kept in a list compared in
    /// place (a scene's usual handful of priorities: no hashing, no set to allocate);
    /// past them a set counts the rest. Either way the exact count
    /// (`DiagnosticsTests.distinctPrioritiesAreLimited`, `levelCountIsTheDistinctCount`).
    /// - Complexity: O(constraints × ``levelListLimit``), then O(1) a constraint.
    static func optionalLevelCount(_ constraints: [CompiledConstraint]) -> Int {
        var listed: [Double] = []
        var others: Set<Double>? = nil   // counted only: its order chooses nothing
        for compiled in constraints where !compiled.constraint.strength.isRequired {
            let value = compiled.constraint.strength.value
            if listed.contains(value) { continue }
            if listed.count < levelListLimit {
                if listed.isEmpty { listed.reserveCapacity(levelListLimit) }
                listed.append(value)
            } else {
                others = others ?? []
                others!.insert(value)
            }
        }
        return listed.count + (others?.count ?? 0)
    }

    /// The distinct strengths ``optionalLevelCount(_:)`` keeps in its list.
    static var levelListLimit: Int { 16 }
}

/// Maps an Apple priority (1...1000) to a solver strength: 1000 is required; every
/// other value is its own strength level, and levels compare strictly (a higher one
/// always wins over any number of lower ones), as Apple documents and as the symbolic
/// weights of the Cassowary paper give. This is the only such mapping in layoutd.
public func strength(forPriority priority: Double) -> Strength {
    priority >= 1000 ? .required : Strength(priority)
}

struct CompileState {
    let scene: Scene
    let hierarchy: ViewHierarchy
    var constraints: [CompiledConstraint] = []
    /// At most ``LayoutDiagnostic/maxCount``, and past it the first
    /// ``LayoutDiagnostic/keptPerCode`` of each code; the rest are counted in ``omitted``.
    var diagnostics: [LayoutDiagnostic] = []
    var omitted = 0
    /// The codes of ``diagnostics``, counted.
    var counts = CodeCounts()
    /// Candidate names the did-you-mean searches of this compile may still compare
    /// (``maxSuggestionComparisons`` in all: the parsers' and unknown views').
    var suggestionComparisonsLeft = maxSuggestionComparisons
    /// Whether an error was reported, listed or counted.
    var hasErrors = false

    /// Lists a diagnostic of `code`, or past ``LayoutDiagnostic/maxCount`` (and the first
    /// ``LayoutDiagnostic/keptPerCode`` of `code`) counts it without building it (a scene can
    /// make one per part of thousands of entries).
    mutating func report(_ code: LayoutDiagnostic.Code, _ make: @autoclosure () -> LayoutDiagnostic, isError: Bool = true) {
        if isError { hasErrors = true }
        if isListed(code) {
            diagnostics.append(make())
            counts.add(code)
        } else {
            omitted += 1
        }
    }

    /// Whether a diagnostic of `code` found now is listed (built): while the list has room,
    /// or for the first ``LayoutDiagnostic/keptPerCode`` of its code.
    func isListed(_ code: LayoutDiagnostic.Code) -> Bool {
        diagnostics.count < LayoutDiagnostic.maxCount || counts.admits(code)
    }
    /// View/axis keys (the ``FrameField/key`` of the axis's origin field) → indices of the
    /// constraints that mention it.
    var mentions: [(key: Int, constraint: Int)] = []
    /// View/axis keys the constraint being translated mentions, recorded once it is added.
    var pendingMentions: [Int] = []
    /// The arrays of the last entry's ``ResolvedTerms``, emptied and filled again by the
    /// next one (``resolveNames(_:entry:key:isVisualFormat:names:)``): one pair of arrays
    /// a compile instead of one a constraint entry.
    var resolvedBuffers = ResolvedTerms()
    let isRightToLeft: Bool
    /// What ``translate(_:part:items:)`` reads of the scene for each term.
    let forms: AttributeForms
    /// By guide (`index − hierarchy.count`): bit 1 a constraint names its width, bit 2
    /// its height (only then is a negative size of it reported).
    var guideSizesNamed: [UInt8]
    /// Whether a constraint uses the `safeArea` guide (its definitions are then added:
    /// ``prependSafeAreaDefinitions()``).
    var usesSafeArea = false

    /// The intrinsic-size constraints, then every entry of the scene and of its groups
    /// (a group's metrics over the scene's), translated in that order.
    mutating func addAllConstraints(groups: [ResolvedGroup]) {
        addIntrinsicSizeConstraints()
        addStackConstraints()
        // The views go to the parser as Apple's views dictionary: a VFL name that is neither
        // a metric nor a view is `unknown_metric` there (see ``ParseOptions/views``).
        var sceneParsers = EntryParsers(ParseOptions(metrics: scene.metrics, siblingSpacing: scene.options.siblingSpacing,
                                                     superviewSpacing: scene.options.superviewSpacing,
                                                     maximumMagnitude: maximumMagnitude, views: hierarchy))
        for (index, entry) in scene.constraints.enumerated() {
            add(entry, key: .scene(index), parsers: &sceneParsers)
        }
        for group in groups {
            var metrics = scene.metrics
            for (name, value) in group.metrics { metrics[name] = value }
            var groupParsers = EntryParsers(ParseOptions(metrics: metrics, siblingSpacing: scene.options.siblingSpacing,
                                                         superviewSpacing: scene.options.superviewSpacing,
                                                         maximumMagnitude: maximumMagnitude, views: hierarchy))
            for (index, entry) in group.constraints.enumerated() {
                add(entry, key: .group(name: group.name, index: index), parsers: &groupParsers)
            }
        }
    }

    init(scene: Scene, hierarchy: ViewHierarchy) {
        self.scene = scene
        self.hierarchy = hierarchy
        self.isRightToLeft = scene.options.layoutDirection == .rightToLeft
        self.forms = AttributeForms(views: scene.views, containerMargins: scene.container.margins, viewCount: hierarchy.count,
                                    isRightToLeft: isRightToLeft)
        self.guideSizesNamed = Array(repeating: 0, count: hierarchy.itemCount - hierarchy.count)
        // Two per intrinsic dimension, and a few parts per entry (VFL strings make one per
        // connection and predicate).
        constraints.reserveCapacity(scene.constraints.count * 4 + scene.views.count * 4)
        mentions.reserveCapacity(scene.constraints.count * 8 + scene.views.count * 4)
    }

    // MARK: Intrinsic content size

    mutating func addIntrinsicSizeConstraints() {
        // Fields read in place (no copy of each view's spec).
        for offset in scene.views.indices {
            let index = ViewHierarchy.index(ofSceneView: offset)
            if let width = scene.views[offset].intrinsicWidth {
                let key = FrameField.origin(of: index, horizontal: true).key
                mentions.append((key, constraints.count))
                mentions.append((key, constraints.count + 1))
                addIntrinsic(view: scene.views[offset].name, variable: hierarchy.widthVariable(index), attribute: "width", size: width,
                             compressionResistance: scene.views[offset].compressionResistance.horizontal,
                             hugging: scene.views[offset].hugging.horizontal, axisName: "horizontal")
            }
            if let height = scene.views[offset].intrinsicHeight {
                let key = FrameField.origin(of: index, horizontal: false).key
                mentions.append((key, constraints.count))
                mentions.append((key, constraints.count + 1))
                addIntrinsic(view: scene.views[offset].name, variable: hierarchy.heightVariable(index), attribute: "height", size: height,
                             compressionResistance: scene.views[offset].compressionResistance.vertical,
                             hugging: scene.views[offset].hugging.vertical, axisName: "vertical")
            }
        }
    }

    /// `size >= intrinsic` at the compression-resistance priority and `size <= intrinsic`
    /// at the hugging priority (UIKit's `NSContentSizeLayoutConstraint` pair).
    mutating func addIntrinsic(view: String, variable: Variable, attribute: String, size: Double,
                               compressionResistance: Double, hugging: Double, axisName: String) {
        let expression = Expression(terms: [Term(variable, 1)], constant: -size)
        constraints.append(CompiledConstraint(
            constraint: Constraint(expression, .greaterThanOrEqual, strength: strength(forPriority: compressionResistance)),
            storedKey: nil, sourceIsASCII: false,
            words: .intrinsic(view: view, attribute: attribute, relation: ">=", size: size, priority: compressionResistance)))
        constraints.append(CompiledConstraint(
            constraint: Constraint(expression, .lessThanOrEqual, strength: strength(forPriority: hugging)),
            storedKey: nil, sourceIsASCII: false,
            words: .intrinsic(view: view, attribute: attribute, relation: "<=", size: size, priority: hugging)))
    }

    // MARK: Entries

    /// Parses one entry and adds its parts, or reports why it cannot be added: the
    /// parser's diagnostics, unknown views (``resolveNames(_:entry:key:isVisualFormat:names:)``),
    /// VFL views in different parents (``visualFormatSuperview(_:resolved:entry:key:names:)``),
    /// a number beyond ±``maximumMagnitude`` (``reportNumberBeyondLimit(_:entry:key:)``);
    /// then each part (``addParts(_:resolved:superview:entry:key:)``).
    /// `parsers` are the entry's scene's or group's, the ``ParseOptions/suggestionComparisons``
    /// of the one used set here for this entry (set in place: a parser made per entry
    /// copies the options, which retains their metrics and views again).
    mutating func add(_ entry: ConstraintEntry, key: ConstraintKey, parsers: inout EntryParsers) {
        // Past the listed diagnostics no note is answered: no did-you-mean search either.
        let suggestionComparisons = diagnostics.count < LayoutDiagnostic.maxCount ? suggestionComparisonsLeft : 0
        let result: ParseResult
        let isVisualFormat: Bool
        switch entry.kind {
        case .visualFormat(let options):
            parsers.visualFormat.options.suggestionComparisons = suggestionComparisons
            result = parsers.visualFormat.parse(entry.source, formatOptions: options)
            isVisualFormat = true
        case .equation:
            parsers.equation.options.suggestionComparisons = suggestionComparisons
            result = parsers.equation.parse(entry.source)
            isVisualFormat = false
        }
        suggestionComparisonsLeft -= result.suggestionComparisons
        for diagnostic in result.diagnostics {
            report(LayoutDiagnostic.Code(diagnostic.code), LayoutDiagnostic(
                severity: diagnostic.severity, code: LayoutDiagnostic.Code(diagnostic.code), message: diagnostic.message,
                constraint: key, id: entry.id, column: diagnostic.column(in: entry.source), source: entry.source,
                notes: diagnostic.notes), isError: diagnostic.severity == .error)
        }
        if result.diagnostics.contains(where: { $0.severity == .error }) { return }
        var names = RecentNames()
        guard var resolved = resolveNames(result, entry: entry, key: key, isVisualFormat: isVisualFormat, names: &names) else { return }
        // Its arrays go back for the next entry (``resolvedBuffers``), whatever happens below.
        defer { resolvedBuffers = resolved }
        var vflSuperview = 0
        if isVisualFormat {
            guard let superview = visualFormatSuperview(result, resolved: resolved, entry: entry, key: key, names: &names) else { return }
            vflSuperview = superview
        }
        if reportNumberBeyondLimit(result, entry: entry, key: key) { return }
        addParts(result, resolved: &resolved, superview: vflSuperview, entry: entry, key: key)
    }

    /// The two parsers of a scene's or a group's entries, made once with its options.
    struct EntryParsers {
        var visualFormat: VisualFormatParser
        var equation: EquationParser

        init(_ options: ParseOptions) {
            visualFormat = VisualFormatParser(options: options)
            equation = EquationParser(options: options)
        }
    }

    /// The last two names looked up and their indices: a string names each of its views
    /// in several parts, so most terms resolve without searching for the name again.
    ///
    /// A name is taken from here only when it is the same `String` value bit for bit
    /// (``isSameValue(_:_:)``), else looked up: the answer is the lookup's either way (a
    /// remembered name was found, so it is ASCII, and `hierarchy.index(of:)` compares
    /// ASCII names by their bytes), but two names that differ, the common miss, are told
    /// apart by two word compares instead of a string comparison (about 20 instructions).
    struct RecentNames {
        var recent: (String, Int, String, Int) = ("", -1, "", -1)

        mutating func index(of name: String, in hierarchy: ViewHierarchy) -> Int? {
            if recent.1 >= 0 && Self.isSameValue(recent.0, name) { return recent.1 }
            if recent.3 >= 0 && Self.isSameValue(recent.2, name) { return recent.3 }
            guard let index = hierarchy.index(of: name) else { return nil }
            recent = (name, index, recent.0, recent.1)
            return index
        }

        /// Whether `a` and `b` have the same representation: the same small-string bytes
        /// (a name of at most 15 UTF-8 bytes, which the parsers make small, holds its
        /// bytes and count in its two words), or the same storage. Such strings are
        /// equal; equal strings may still answer `false` (then the name is looked up).
        @inline(__always)
        static func isSameValue(_ a: String, _ b: String) -> Bool {
            withUnsafeBytes(of: a) { a in
                withUnsafeBytes(of: b) { b in
                    a.load(as: UInt64.self) == b.load(as: UInt64.self)
                        && a.load(fromByteOffset: 8, as: UInt64.self) == b.load(fromByteOffset: 8, as: UInt64.self)
                }
            }
        }
    }

    /// The view indices of every part's terms, in one flat array: part `p`'s are
    /// `views[starts[p]..<starts[p + 1]]`; `-1` stands for VFL's `|` until the string's
    /// views are known.
    struct ResolvedTerms {
        var views: [Int] = []
        var starts: [Int] = []
    }

    /// Resolves the names of every part first, so one unknown view is one diagnostic;
    /// `nil` when a name is unknown or a guide is used where it may not be (reported).
    mutating func resolveNames(_ result: ParseResult, entry: ConstraintEntry, key: ConstraintKey, isVisualFormat: Bool,
                               names: inout RecentNames) -> ResolvedTerms? {
        var resolved = ResolvedTerms()
        swap(&resolved, &resolvedBuffers)
        resolved.views.removeAllKeepingStorage()
        resolved.starts.removeAllKeepingStorage()
        var failed = false
        var reportedUnknown: Set<String> = []
        // Reserved only when the kept storage is too small (most entries fit what an earlier
        // one reserved, and the call itself costs more than the check).
        if resolved.starts.capacity < result.constraints.count + 1 { resolved.starts.reserveCapacity(result.constraints.count + 1) }
        if resolved.views.capacity < 2 * result.constraints.count { resolved.views.reserveCapacity(2 * result.constraints.count) }
        // By index: each part's sides are read in place, not copied with the part.
        for part in result.constraints.indices {
            resolved.starts.append(resolved.views.count)
            for side in 0..<2 {
                let count = side == 0 ? result.constraints[part].lhs.terms.count : result.constraints[part].rhs.terms.count
                for termIndex in 0..<count {
                    let term = side == 0 ? result.constraints[part].lhs.terms[termIndex] : result.constraints[part].rhs.terms[termIndex]
                    switch term.item {
                    case .view(let name):
                        if let index = names.index(of: name, in: hierarchy), index != 0 {
                            if hierarchy.isGuide(index) && !acceptGuide(index, term: term, isVisualFormat: isVisualFormat, entry: entry,
                                                                        key: key, reported: &reportedUnknown) {
                                failed = true
                            } else {
                                resolved.views.append(index)
                            }
                        } else {
                            failed = true
                            if reportedUnknown.insert(name).inserted {
                                reportUnknownView(name, span: term.span, entry: entry, key: key)
                            }
                        }
                    case .container:
                        resolved.views.append(0)
                    case .superview:
                        resolved.views.append(-1)  // resolved in addParts, once the string's views are known
                    }
                }
            }
        }
        resolved.starts.append(resolved.views.count)
        // A VFL view alone (`H:[b]`) makes no constraint, but its name must be known too.
        for (name, span) in result.unconstrainedViews
        where names.index(of: name, in: hierarchy).map({ $0 == 0 || hierarchy.isGuide($0) }) ?? true {
            failed = true
            if reportedUnknown.insert(name).inserted {
                if let index = names.index(of: name, in: hierarchy), hierarchy.isGuide(index) {
                    reportGuideInVisualFormat(name, span: span, entry: entry, key: key)
                } else {
                    reportUnknownView(name, span: span, entry: entry, key: key)
                }
            }
        }
        return failed ? nil : resolved
    }

    /// VFL's `|`: the parent of the views in the string, which must share it (0, the
    /// container, when the string names none); `nil` when they do not (reported, naming
    /// the first views and the column of the first one in another parent).
    mutating func visualFormatSuperview(_ result: ParseResult, resolved: ResolvedTerms, entry: ConstraintEntry, key: ConstraintKey,
                                        names: inout RecentNames) -> Int? {
        // The first view's parent, and whether another view has a different one: one
        // pass over the string's views (a string may join thousands).
        let firstParentOfAll = resolved.views.first { $0 > 0 }.map { hierarchy.parents[$0] }
        let sharesParent = resolved.views.allSatisfy { $0 <= 0 || hierarchy.parents[$0] == firstParentOfAll }
        guard !sharesParent else { return firstParentOfAll ?? 0 }
        // Each view with its parent, in the order the string names them, and the
        // column of the first view whose parent differs from the first one's.
        var described: [String] = []
        var seen: [Int] = []
        var firstParent = -1
        var offset: Int?
        for parsed in result.constraints {
            for term in Array(parsed.lhs.terms) + parsed.rhs.terms {
                guard case .view(let name) = term.item, let index = names.index(of: name, in: hierarchy), index > 0 else { continue }
                let parent = hierarchy.parents[index]
                if firstParent < 0 { firstParent = parent } else if parent != firstParent && offset == nil {
                    offset = term.span.lowerBound
                }
                // The first four views are named, and the first in another parent
                // (a string can join thousands).
                if described.count < 4 || (offset == term.span.lowerBound && described.count < 5), !seen.contains(index) {
                    seen.append(index)
                    described.append("'\(Diagnostic.echo(name))' is in " + (parent == 0 ? "the container" : "'\(hierarchy.names[parent])'"))
                }
            }
        }
        let others = Set(resolved.views.filter { $0 > 0 }).count - described.count   // counted only
        if others > 0 { described.append("and \(others) more") }
        report(.invalidScene, LayoutDiagnostic(
            code: .invalidScene,
            message: "Views joined in one VFL string must share a parent: \(described.joined(separator: ", ")); relate views in different parents with an equation",
            constraint: key, id: entry.id, column: offset.map { Self.entryColumn(of: $0, in: entry) },
            source: entry.source))
        return nil
    }

    /// Every literal and every metric used is limited, whatever the arithmetic gives
    /// (`1e13 - 1e13 + 5` too): reports the first one beyond, at its column; true when
    /// there is one.
    mutating func reportNumberBeyondLimit(_ result: ParseResult, entry: ConstraintEntry, key: ConstraintKey) -> Bool {
        guard let beyond = result.numberBeyondLimit else { return false }
        let what: String
        // The message names the constraint (as `constraint` and `column` place it), so the
        // problem's `detail` alone says where the number is.
        if let metric = beyond.metric {
            what = "Metric '\(Diagnostic.echo(metric))' in \(key.displayName) is \(JSONWriter.format(beyond.value)), which is"
        } else {
            let bytes = Array(entry.source.utf8)
            let span = max(0, beyond.span.lowerBound)..<min(bytes.count, beyond.span.upperBound)
            what = "The number \(Diagnostic.echo(String(decoding: bytes[span], as: UTF8.self))) in \(key.displayName) is"
        }
        report(.limitExceeded, LayoutDiagnostic(
            code: .limitExceeded,
            message: "\(what) beyond ±\(JSONWriter.format(maximumMagnitude)) (limit maxMagnitude)",
            constraint: key, id: entry.id, column: Self.entryColumn(of: beyond.span.lowerBound, in: entry),
            source: entry.source))
        return true
    }

    /// Translates and adds each part of a resolved entry (`superview` standing for VFL's
    /// `|`), reporting a part that gives its priority twice or whose translated numbers
    /// pass ±``maximumMagnitude`` instead.
    mutating func addParts(_ result: ParseResult, resolved: inout ResolvedTerms, superview vflSuperview: Int,
                           entry: ConstraintEntry, key: ConstraintKey) {
        let sourceIsASCII = isASCII(entry.source)
        for part in result.constraints.indices {
            // The part's fields are read in place: it is not copied (its words keep the
            // shared array).
            let partPriority = result.constraints[part].priority
            let spanStart = result.constraints[part].span.lowerBound
            if partPriority != nil && entry.priority != nil {
                report(.invalidScene, LayoutDiagnostic(
                    code: .invalidScene,
                    message: "The constraint gives a priority both in its \"priority\" field and in its text; give one",
                    constraint: key, part: part, id: entry.id,
                    column: Self.entryColumn(of: result.constraints[part].priorityOffset ?? spanStart, in: entry),
                    source: entry.source))
                continue
            }
            let priority = partPriority ?? entry.priority ?? 1000
            let items = resolved.starts[part]..<resolved.starts[part + 1]
            for index in items where resolved.views[index] < 0 { resolved.views[index] = vflSuperview }
            pendingMentions.removeAllKeepingStorage()
            let expression = translate(result.constraints, part: part, items: resolved.views[items])
            // Each number is within the limit (checked above), but a product of them may not be.
            guard isWithinRange(expression) else {
                report(.limitExceeded, LayoutDiagnostic(
                    code: .limitExceeded,
                    message: "\(key.sentenceStart) has a number beyond ±\(JSONWriter.format(maximumMagnitude)) (limit maxMagnitude)",
                    constraint: key, part: part, id: entry.id, column: Self.entryColumn(of: spanStart, in: entry),
                    source: entry.source))
                continue
            }
            let relation: RelationalOperator
            switch result.constraints[part].relation {
            case .equal: relation = .equal
            case .lessThanOrEqual: relation = .lessThanOrEqual
            case .greaterThanOrEqual: relation = .greaterThanOrEqual
            }
            for mention in pendingMentions { mentions.append((mention, constraints.count)) }
            constraints.append(CompiledConstraint(
                constraint: Constraint(expression, relation, strength: strength(forPriority: priority)),
                storedKey: key, part: part, id: entry.id, source: entry.source, offset: spanStart,
                sourceIsASCII: sourceIsASCII,
                words: .parsed(result.constraints, part: part, objectPriority: entry.priority,
                               parent: vflSuperview > 0 ? hierarchy.names[vflSuperview] : nil)))
        }
    }

    /// The caret column of UTF-8 `offset` in `entry`'s source (the offset itself for an
    /// ASCII source, the common case).
    static func entryColumn(of offset: Int, in entry: ConstraintEntry) -> Int {
        isASCII(entry.source) ? offset : LayoutCompiler.column(of: offset, in: entry.source)
    }

    /// Reports ``unknownView(_:span:entry:key:)``, built only when it is listed
    /// (its suggestion compares the name with every view's).
    mutating func reportUnknownView(_ name: String, span: Range<Int>, entry: ConstraintEntry, key: ConstraintKey) {
        guard isListed(.unknownView) else {
            hasErrors = true
            omitted += 1
            return
        }
        let candidates = hierarchy.names.count - 1
        let suggests = candidates <= min(maxSuggestionCandidates, suggestionComparisonsLeft)
        if suggests { suggestionComparisonsLeft -= candidates }
        let diagnostic = unknownView(name, span: span, entry: entry, key: key, suggesting: suggests)
        report(.unknownView, diagnostic)
    }

    /// Names users give the container that are not views: lowercased.
    static let containerAliases: Set<String> = ["container", "view", "self", "parent", "parentview", "superview", "root", "rootview"]

    /// The diagnostic for a name that is not a view. (A VFL predicate's name that is
    /// neither a metric nor a view never gets here: the parser, given the views, reports
    /// it as `unknown_metric`, as Apple's parser does.)
    /// `suggesting`: whether to search the closest view name for a did-you-mean.
    func unknownView(_ name: String, span: Range<Int>, entry: ConstraintEntry, key: ConstraintKey, suggesting: Bool = true) -> LayoutDiagnostic {
        if name == "superview" {
            return LayoutDiagnostic(
                code: .unknownView, message: "'superview' is not a view name here: in VFL the superview is written '|' (and in equations 'superview.ATTRIBUTE')",
                constraint: key, id: entry.id, column: column(of: span.lowerBound, in: entry.source), source: entry.source)
        }
        // Among at most ``maxSuggestionCandidates`` names (else none), as every suggestion.
        let known = suggesting && hierarchy.names.count - 1 <= maxSuggestionCandidates ? Array(hierarchy.names.dropFirst()) : []
        var suggestion = closestName(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
        // Names other tools give the container (UIKit's `view`, `self`, our own
        // `container.width` refs) point to `superview` when no view is close
        // (SceneCompilerTests.containerNamesPointToSuperview).
        if suggestion.isEmpty && Self.containerAliases.contains(name.lowercased()) {
            suggestion = "; the container is 'superview' in equations (superview.ATTRIBUTE) and '|' in VFL"
        }
        return LayoutDiagnostic(
            code: .unknownView, message: "Unknown view '\(Diagnostic.echo(name))'\(suggestion)",
            constraint: key, id: entry.id, column: column(of: span.lowerBound, in: entry.source), source: entry.source)
    }

    // MARK: Translation

    /// `Σ lhs − Σ rhs` over the view variables, evaluated in the constraint's coordinate space.
    ///
    /// - Complexity: O(terms); the terms are collected into one array (the solver merges
    ///   repeated variables), with no intermediate expressions.
    /// Part `part` of `parts` is read in place (not copied).
    mutating func translate(_ parts: [ParsedConstraint], part: Int, items: ArraySlice<Int>) -> Expression {
        let space = coordinateSpace(of: items)
        // Only a right-to-left scene mirrors: the terms are not read for it otherwise.
        var mirrored = false
        if isRightToLeft {
            for index in 0..<parts[part].lhs.terms.count where parts[part].lhs.terms[index].attribute.isDirectional { mirrored = true }
            for index in 0..<parts[part].rhs.terms.count where parts[part].rhs.terms[index].attribute.isDirectional { mirrored = true }
        }
        var terms: [Term] = []
        terms.reserveCapacity(4 * (parts[part].lhs.terms.count + parts[part].rhs.terms.count))
        var constant = parts[part].lhs.constant - parts[part].rhs.constant
        var itemIndex = items.startIndex
        for sideIndex in 0..<2 {
            let sign = sideIndex == 0 ? 1.0 : -1.0
            // By index, each term read in place (no copy of the side's terms, no iterator).
            for termIndex in 0..<(sideIndex == 0 ? parts[part].lhs.terms.count : parts[part].rhs.terms.count) {
                // Only the attribute and the coefficient: the term (and its item's name) is not copied.
                let (attribute, coefficient) = sideIndex == 0 ? parts[part].lhs.terms.attributeAndCoefficient(at: termIndex)
                                                              : parts[part].rhs.terms.attributeAndCoefficient(at: termIndex)
                let view = items[itemIndex]
                let form = forms.attributeForm(attribute, of: view, mirrored: mirrored)
                let factor = sign * coefficient
                if form.origin != 0 && view != space {
                    let variable = form.isVertical ? hierarchy.yVariable(view) : hierarchy.xVariable(view)
                    terms.append(Term(variable, form.origin * factor))
                    if space != 0 {
                        let spaceVariable = form.isVertical ? hierarchy.yVariable(space) : hierarchy.xVariable(space)
                        terms.append(Term(spaceVariable, -form.origin * factor))
                    }
                }
                if form.size != 0 {
                    let variable = form.isVertical ? hierarchy.heightVariable(view) : hierarchy.widthVariable(view)
                    terms.append(Term(variable, form.size * factor))
                }
                if form.spaceWidth != 0 {
                    terms.append(Term(hierarchy.widthVariable(space), form.spaceWidth * factor))
                }
                // The space's coordinates start at its frame, which its alignment insets put
                // outside the alignment rectangle its variables hold.
                if space != 0, let spaceInsets = alignmentInsets(of: space) {
                    constant += form.origin * factor * (form.isVertical ? spaceInsets.top : spaceInsets.left)
                    constant += form.spaceWidth * factor * (spaceInsets.left + spaceInsets.right)
                }
                constant += form.constant * factor
                let key = FrameField.origin(of: view, horizontal: attribute.axis == .horizontal).key
                if !pendingMentions.contains(key) { pendingMentions.append(key) }
                itemIndex += 1
            }
        }
        return Expression(terms: terms, constant: constant)
    }

    /// The view whose coordinate space the constraint is evaluated in: the nearest common
    /// ancestor-or-self of its views, or the parent when it relates one view to itself or
    /// to constants (contract: "a position compared with a constant alone is measured in
    /// the view's parent").
    ///
    /// Always inlined into ``translate(_:part:items:)``, its one caller: a call passes it a
    /// copy of the whole compile state.
    @inline(__always) func coordinateSpace(of items: ArraySlice<Int>) -> Int {
        guard var space = items.first else { return 0 }
        var allSame = true
        for item in items.dropFirst() where item != space {
            allSame = false
            space = hierarchy.nearestCommonAncestorOrSelf(space, item)
        }
        if allSame {
            return space == 0 ? 0 : hierarchy.parents[space]
        }
        return space
    }
}

/// What ``CompileState/translate(_:part:items:)`` reads of the scene to give each term's
/// attribute its form, apart from the compile state: a method of the compile state called
/// from `translate` is passed a copy of the whole state (its scene included), per term.
struct AttributeForms {
    /// ``Scene/views``: item `i` (1 ..< ``viewCount``) is `views[i - 1]`.
    let views: [ViewSpec]
    let containerMargins: Insets
    /// ``ViewHierarchy/count``: the items from it on are guides.
    let viewCount: Int
    let isRightToLeft: Bool

    /// An attribute as `origin·o + size·s + spaceWidth·W + constant`, where `o` is the
    /// view's origin (x, or y when vertical) in the constraint's space, `s` its width
    /// (height) and `W` the width of that space (for mirroring under right-to-left).
    struct AttributeForm {
        var origin: Double
        var size: Double
        var spaceWidth: Double = 0
        var constant: Double = 0
        var isVertical = false
    }

    /// The margins of item `view` (the container's for 0) less its alignment insets
    /// (``CompileState/alignmentInsets(of:)``), as measured from the alignment rectangle
    /// its variables hold: read only by the margin attributes.
    func margins(of view: Int) -> Insets {
        let margins = view == 0 ? containerMargins : views[view - 1].margins
        guard view != 0, view < viewCount, views[view - 1].alignmentInsets != .zero else { return margins }
        let inset = views[view - 1].alignmentInsets
        return Insets(top: margins.top - inset.top, left: margins.left - inset.left,
                      bottom: margins.bottom - inset.bottom, right: margins.right - inset.right)
    }

    /// The form of `attribute` of `view`. Under right-to-left, leading/trailing (and
    /// their margins) are measured from the space's right edge (`W − x`); in a
    /// `mirrored` constraint centerX is too, so the whole constraint is the mirror image.
    ///
    /// A view's variables hold its alignment rectangle (``ViewSpec/alignmentInsets``); its
    /// margins are measured from its frame, so the margin attributes carry the insets.
    func attributeForm(_ attribute: Attribute, of view: Int, mirrored: Bool) -> AttributeForm {
        let rtl = isRightToLeft
        func flipped(_ form: AttributeForm) -> AttributeForm {
            guard mirrored else { return form }
            return AttributeForm(origin: -form.origin, size: -form.size, spaceWidth: 1 - form.spaceWidth, constant: -form.constant)
        }
        switch attribute {
        case .left: return AttributeForm(origin: 1, size: 0)
        case .right: return AttributeForm(origin: 1, size: 1)
        case .width: return AttributeForm(origin: 0, size: 1)
        case .centerX: return flipped(AttributeForm(origin: 1, size: 0.5))
        case .centerXWithinMargins: return flipped(AttributeForm(origin: 1, size: 0.5, constant: (margins(of: view).left - margins(of: view).right) / 2))
        case .leading: return rtl ? AttributeForm(origin: -1, size: -1, spaceWidth: 1) : AttributeForm(origin: 1, size: 0)
        case .trailing: return rtl ? AttributeForm(origin: -1, size: 0, spaceWidth: 1) : AttributeForm(origin: 1, size: 1)
        case .leadingMargin:
            return rtl ? AttributeForm(origin: -1, size: -1, spaceWidth: 1, constant: margins(of: view).right)
                : AttributeForm(origin: 1, size: 0, constant: margins(of: view).left)
        case .trailingMargin:
            return rtl ? AttributeForm(origin: -1, size: 0, spaceWidth: 1, constant: -margins(of: view).left)
                : AttributeForm(origin: 1, size: 1, constant: -margins(of: view).right)
        case .leftMargin: return AttributeForm(origin: 1, size: 0, constant: margins(of: view).left)
        case .rightMargin: return AttributeForm(origin: 1, size: 1, constant: -margins(of: view).right)
        case .top: return AttributeForm(origin: 1, size: 0, isVertical: true)
        case .bottom: return AttributeForm(origin: 1, size: 1, isVertical: true)
        case .height: return AttributeForm(origin: 0, size: 1, isVertical: true)
        case .centerY: return AttributeForm(origin: 1, size: 0.5, isVertical: true)
        case .topMargin: return AttributeForm(origin: 1, size: 0, constant: margins(of: view).top, isVertical: true)
        case .bottomMargin: return AttributeForm(origin: 1, size: 1, constant: -margins(of: view).bottom, isVertical: true)
        case .centerYWithinMargins:
            return AttributeForm(origin: 1, size: 0.5, constant: (margins(of: view).top - margins(of: view).bottom) / 2, isVertical: true)
        case .lastBaseline:
            if view != 0, let offset = views[view - 1].baseline { return AttributeForm(origin: 1, size: 0, constant: offset, isVertical: true) }
            return AttributeForm(origin: 1, size: 1, isVertical: true)
        case .firstBaseline:
            if view != 0, let offset = views[view - 1].firstBaseline ?? views[view - 1].baseline { return AttributeForm(origin: 1, size: 0, constant: offset, isVertical: true) }
            return AttributeForm(origin: 1, size: 1, isVertical: true)
        }
    }
}

extension CompileState {
    /// The alignment insets of hierarchy item `item`; `nil` for the container, a layout
    /// guide and a view whose insets are zero (the common case, which costs one comparison).
    @inline(__always) func alignmentInsets(of item: Int) -> Insets? {
        guard item != 0, !hierarchy.isGuide(item) else { return nil }
        // The field read in place (the index ``Scene/spec(ofView:)`` reads), not a copy of the spec.
        let insets = scene.views[item - 1].alignmentInsets
        return insets == .zero ? nil : insets
    }
}

extension Array where Element == Int {
    /// Empties the array and keeps its storage, popping element by element: O(count)
    /// as `removeAll(keepingCapacity: true)` is, without its generic range replacement,
    /// which costs more than the few elements a part's or an entry's buffers hold.
    mutating func removeAllKeepingStorage() {
        while !isEmpty { removeLast() }
    }
}

extension Attribute {
    /// Leading/trailing and their margins: the attributes that follow the layout direction.
    var isDirectional: Bool {
        switch self {
        case .leading, .trailing, .leadingMargin, .trailingMargin: return true
        default: return false
        }
    }
}

/// Whether every number of the expression is finite and within ±``maximumMagnitude``.
private func isWithinRange(_ expression: Expression) -> Bool {
    abs(expression.constant) <= maximumMagnitude && expression.terms.allSatisfy { abs($0.coefficient) <= maximumMagnitude }
}

/// ` @750` for optional priorities, nothing for required.
func priorityText(_ priority: Double) -> String {
    priority >= 1000 ? "" : " @\(JSONWriter.format(priority))"
}

/// The contract's column: 0-based, in Unicode scalars, of a UTF-8 offset into `source`.
func column(of utf8Offset: Int, in source: String) -> Int {
    var column = 0
    var offset = 0
    for scalar in source.unicodeScalars {
        if offset >= utf8Offset { break }
        offset += UTF8.width(scalar)
        column += 1
    }
    return column
}
