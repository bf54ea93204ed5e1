import Cassowary
import LayoutSyntax
import TextLayout

/// A label's `text` answer at one layout (contract, "Text").
public struct LabelText: Sendable, Hashable {
    public var name: String
    /// The lines shown: the text wrapped at the solved width (unwrapped with `numberOfLines`
    /// 1), fewer when the frame is lower than they need.
    public var lines: Int
    /// The text does not fit its solved frame: a line wider than the frame, more lines
    /// needed than `numberOfLines` allows, or a frame lower than the lines need.
    public var truncated: Bool
}

/// The labels of a scene (views with `text`), their text prepared once per request
/// (paragraphs shaped, break opportunities found), and the two passes of UIKit's
/// automatic `preferredMaxLayoutWidth` (contract, "Text", "Two passes, as UIKit").
public struct SceneText: Sendable {
    /// The one measurer of the process: fonts are found and faces loaded once.
    public static let measurer = TextMeasurer()

    /// The most passes (the first included).
    public static let maxPasses = 8
    /// Cell operations charged to the solver work budget per UTF-16 code unit prepared
    /// (the paragraph shaped whole, its break opportunities found) and per unit given to
    /// HarfBuzz by a layout, so that text work is bounded by ``SceneLimits/maxSolverWork``
    /// too, where a cell operation takes about 6 ns. Measured with a release build on the
    /// 2-core machine: 100 labels of 10,000 `W` prepared and laid out on one line each took
    /// about 1.0 s of CPU for about 2 million units shaped and 1 million prepared, about
    /// 0.45 µs a unit: 75 cell operations.
    public static let workPerCodeUnit = 75
    /// Cell operations charged per HarfBuzz call of a layout (a line shaped on its own),
    /// besides its units: the same 100 labels wrapped at 47 points (3 characters a line)
    /// took 2.4 s more for about 500,000 calls, about 4.8 µs a call: 800 cell operations.
    /// `TextSceneTests.narrowLabelsAreChargedPerLineShaped` holds the bound.
    public static let workPerShapingCall = 800

    /// Whether any constraint's source text names a baseline attribute (`firstBaseline`,
    /// `lastBaseline`, `baseline`), so that a pass must compile the scene again; and the
    /// UTF-8 bytes examined to find out.
    ///
    /// The constraints parsed from one entry share its source string and follow each other,
    /// so each entry's text is searched once: O(the scene's constraint text), never
    /// O(constraints × text) (5,000 labels in one `V:` chain searched its 40 KB 5,000
    /// times, 3 s of uncharged work; `SceneTextBaselineScanTests`).
    static func mentionsBaselines(_ constraints: [CompiledConstraint]) -> (mentions: Bool, bytesExamined: Int) {
        var examined = 0
        var previous: String?
        for constraint in constraints {
            guard let source = constraint.source, source != previous else { continue }
            previous = source
            var text = source
            let found = text.withUTF8 { contains($0, "aseline") }
            examined += source.utf8.count
            if found { return (true, examined) }
        }
        return (false, examined)
    }

    /// Whether `bytes` contains `needle`'s bytes (naive search: the needle is 7 bytes).
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: count)
        var index = 0
        while index <= bytes.count - count {
            var matched = 0
            while matched < count && bytes[index + matched] == pattern[matched] { matched += 1 }
            if matched == count { return true }
            index += 1
        }
        return false
    }

    /// The cell operations `shaping` stands for.
    static func work(_ shaping: PreparedText.ShapingCount) -> Int {
        shaping.calls &* workPerShapingCall &+ shaping.units &* workPerCodeUnit
    }

    struct Label: Sendable {
        /// Index into ``Scene/views``.
        let view: Int
        let name: String
        let spec: TextSpec
        let prepared: PreparedText
        /// Wraps at the width the layout gives it (numberOfLines ≠ 1, no preferred width).
        var isAutomatic: Bool { spec.numberOfLines != 1 && spec.preferredMaxLayoutWidth <= 0 }
        /// The width its intrinsic size is measured at when that does not depend on the layout.
        var fixedWidth: Double? { spec.preferredMaxLayoutWidth > 0 ? spec.preferredMaxLayoutWidth : nil }
        /// Measured at ``fixedWidth`` but shown wrapped at its solved width: UILabel draws its
        /// text in its bounds (`textRect(forBounds:limitedToNumberOfLines:)`), while
        /// `preferredMaxLayoutWidth` "affects the size of the label when the system applies
        /// layout constraints to it" (Apple's UILabel documentation).
        var wrapsShownAtFrame: Bool { spec.numberOfLines != 1 && fixedWidth != nil }
    }

    let labels: [Label]
    /// Each label measured for the first pass (``firstPass()``), in ``labels``' order.
    let first: [TextMeasurement]
    /// Size-independent warnings (`missing_glyphs`).
    public let diagnostics: [LayoutDiagnostic]
    /// Cell operations the preparation cost (charged to the first solve's budget).
    public let preparationWork: Int

    /// Whether the scene has labels.
    public var isEmpty: Bool { labels.isEmpty }

    /// The most stored families an `unknown_font` note names (then a count).
    static let maxListedStoredFamilies = 20

    /// `"; stored: A, B, …"` for an `unknown_font` note: the stored families (sorted), the
    /// first ``maxListedStoredFamilies`` then how many more; empty without any.
    static func storedNote(_ families: [String]) -> String {
        guard !families.isEmpty else { return "" }
        let more = families.count - maxListedStoredFamilies
        return "; stored: " + families.prefix(maxListedStoredFamilies).joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }

    /// Prepares every label of `scene` (views sorted by name).
    /// - Throws: the `unknown_font` diagnostics (a 422), one per label naming an unknown
    ///   family, with a did-you-mean note when a family is close; a `limit_exceeded` when
    ///   the text alone takes more than `limits.maxSolverWork`.
    /// A label whose family is not built in measures with `stored`'s face for it
    /// (``StoredFonts``), when the family is stored.
    public init(scene: Scene, limits: SceneLimits, stored: StoredFonts = .none, measurer: TextMeasurer = SceneText.measurer) throws(SceneRejection) {
        var labels: [Label] = []
        var errors: [LayoutDiagnostic] = []
        var warnings: [LayoutDiagnostic] = []
        var first: [TextMeasurement] = []
        var work = 0
        /// The refusal at the label whose string passed the limit (its text is what costs).
        func overLimit(_ textPath: String, view: String) -> SceneRejection {
            SceneRejection(.invalid, diagnostics: [LayoutDiagnostic(
                code: .limitExceeded,
                message: "The scene's labels take more work to measure than allowed (limit maxSolverWork, \(limits.maxSolverWork) cell operations for a request): shorten or split them, or raise --max-solver-work",
                path: textPath + ".string", view: view)])
        }
        for (index, view) in scene.views.enumerated() {
            guard let spec = view.text else { continue }
            let textPath = (view.jsonPath ?? "$.views." + view.name) + ".text"
            let path = textPath + ".font.family"
            work += (spec.string.utf16.count + 1) * Self.workPerCodeUnit
            if work > limits.maxSolverWork { throw overLimit(textPath, view: view.name) }
            let font = FontRequest(family: spec.family, size: spec.size, weight: spec.weight, italic: spec.italic)
            do throws(FontError) {
                let prepared: PreparedText
                do throws(FontError) {
                    prepared = try measurer.prepare(spec.string, font: font)
                } catch {
                    // Built-in families first: a stored one is only asked for a name they lack.
                    guard case .unknownFamily = error, let face = stored.face(for: font) else { throw error }
                    prepared = measurer.prepare(spec.string, font: font, primary: face)
                }
                let label = Label(view: index, name: view.name, spec: spec, prepared: prepared)
                labels.append(label)
                // The first pass, charged as it is laid out: a label of many short lines
                // costs a HarfBuzz call a line.
                var shaping = PreparedText.ShapingCount()
                first.append(prepared.layout(width: label.fixedWidth, numberOfLines: spec.numberOfLines, shaping: &shaping))
                work &+= Self.work(shaping)
                if prepared.missingGlyphs {
                    warnings.append(LayoutDiagnostic(
                        severity: .warning, code: .missingGlyphs,
                        message: "Label '\(view.name)' has characters that neither \(spec.family) nor any built-in family has ("
                            + prepared.missingScalars.map(codePoint).joined(separator: ", ")
                            + (prepared.missingScalars.count == PreparedText.maxMissingListed ? ", …" : "")
                            + "): they are measured as the font's .notdef glyph",
                        view: view.name))
                }
            } catch {
                switch error {
                case .unknownFamily(let name, let builtInSuggestion):
                    let storedNames = stored.storedFamilies.isEmpty ? stored.familyNames : stored.storedFamilies
                    // A known or Apple family with a style (``FontFamilyHint``) first, else a
                    // close built-in family, else a close stored one.
                    let hint = FontFamilyHint.hint(for: name, stored: storedNames)
                        ?? (builtInSuggestion ?? FontCatalog.suggestion(for: name, among: stored.storedFamilies)).map { "; did you mean '\($0)'?" }
                    errors.append(LayoutDiagnostic(
                        code: .unknownFont,
                        message: "Unknown font family '\(Diagnostic.echo(name))'" + (hint ?? ""),
                        path: path, view: view.name,
                        notes: ["Families: " + measurer.catalog.familyNames.joined(separator: ", ") + " and system (Inter)"
                                + Self.storedNote(storedNames)]))
                case .familyNotInstalled(let name):
                    errors.append(LayoutDiagnostic(
                        code: .unknownFont,
                        message: "Font family '\(name)' is built in but its files are not installed on this server",
                        path: path, view: view.name))
                }
            }
            if work > limits.maxSolverWork { throw overLimit(textPath, view: view.name) }
        }
        if !errors.isEmpty { throw SceneRejection(.invalid, diagnostics: errors) }
        self.labels = labels
        self.first = first
        self.diagnostics = warnings
        self.preparationWork = work
    }

    /// The measurement of each label for the first pass: unwrapped when automatic.
    func firstPass() -> [TextMeasurement] { first }

    /// `scene` with each label's intrinsic size and baselines set from `measurements`.
    func applying(_ measurements: [TextMeasurement], to scene: Scene) -> Scene {
        var scene = scene
        let scale = scene.options.displayScale.map(Double.init)
        for (label, measured) in zip(labels, measurements) {
            let size = measured.intrinsicSize(displayScale: scale)
            scene.views[label.view].intrinsicWidth = size.width
            scene.views[label.view].intrinsicHeight = size.height
            scene.views[label.view].baseline = measured.lastBaseline
            scene.views[label.view].firstBaseline = measured.firstBaseline
        }
        return scene
    }

    /// The scene with its labels measured for the first pass (what is compiled).
    public func firstPassScene(_ scene: Scene) -> Scene {
        applying(firstPass(), to: scene)
    }

    /// Solves `compiled` (the first-pass scene) at each size, with further passes per size
    /// for automatic labels, all within one ``SceneLimits/maxSolverWork`` budget (the text
    /// measured charged at ``workPerCodeUnit`` a UTF-16 unit).
    ///
    /// Each later pass wraps each automatic label at the width the previous pass's frame
    /// gave it; when no intrinsic size changes by more than 10⁻⁶, the previous pass is the
    /// answer; after ``maxPasses`` the last pass is answered with `text_layout_unstable`.
    /// A pass re-solves the compiled constraints with only the labels' intrinsic-size
    /// constants changed; a scene whose constraints use baselines or stack views (whose
    /// constraints are derived from intrinsic sizes and baselines) is compiled again.
    public func solve(_ compiled: CompiledScene, groups: [ResolvedGroup], sizes: [ContainerSize],
                      base makeBase: ((_ fitsWidth: Bool, _ fitsHeight: Bool) -> ResizableBase)?) -> [Layout] {
        var budget = compiled.limits.maxSolverWork - min(compiled.limits.maxSolverWork, preparationWork)
        let first = firstPass()
        var layouts = compiled.solve(sizes: sizes, base: makeBase, budget: &budget)
        let automatic = labels.indices.filter { labels[$0].isAutomatic }
        let recompiles = !automatic.isEmpty
            && (compiled.scene.views.contains { $0.stack != nil } || Self.mentionsBaselines(compiled.constraints).mentions)
        let intrinsicPositions = automatic.isEmpty || recompiles ? [:] : compiled.intrinsicConstraintPositions(of: Set(automatic.map { labels[$0].name }))
        let scale = compiled.scene.options.displayScale.map(Double.init)
        for (sizeIndex, size) in sizes.enumerated() {
            var measurements = first
            // What each label shows in this size's answer: an automatic one wrapped at the
            // width the last pass solved (computed once, in the loop, and charged there), one
            // of fixed preferred width at its solved width (after the loop).
            var shown = first
            var layout = layouts[sizeIndex]
            var current = compiled
            var pass = 1
            while !automatic.isEmpty && !layout.isRejected {
                // The next pass's measurements, at the widths this pass solved.
                var next = measurements
                var changed = false
                for index in automatic {
                    let label = labels[index]
                    budget -= min(budget, (label.prepared.utf16.count + 1) * Self.workPerCodeUnit)
                    // No text is laid out past the budget (TextSceneTests.aThousandLabelsAtAThousandSizesIsOverTheWorkLimit).
                    if budget == 0 { break }
                    guard let width = layout.frame(of: label.name)?.width else { continue }
                    var shaping = PreparedText.ShapingCount()
                    next[index] = label.prepared.layout(width: width, numberOfLines: label.spec.numberOfLines, shaping: &shaping)
                    // The lines shaped, charged after the label (it overruns by one label at most).
                    budget -= min(budget, Self.work(shaping))
                    if budget == 0 { break }
                    let old = measurements[index].intrinsicSize(displayScale: scale)
                    let new = next[index].intrinsicSize(displayScale: scale)
                    if abs(old.width - new.width) > 1e-6 || abs(old.height - new.height) > 1e-6 { changed = true }
                }
                if budget == 0 { layout = compiled.workLimitLayout([], size: size, reason: "measuring its labels"); break }
                shown = next
                if !changed { break }
                if pass == Self.maxPasses {
                    layout.diagnostics.append(LayoutDiagnostic(
                        severity: .warning, code: .textLayoutUnstable,
                        message: "The sizes of labels \(automatic.map { "'\(labels[$0].name)'" }.joined(separator: ", ")) still changed after \(Self.maxPasses) passes: the last pass is answered",
                        view: labels[automatic[0]].name))
                    break
                }
                measurements = next
                pass += 1
                let scene = applying(measurements, to: compiled.scene)
                if recompiles {
                    current = SceneCompiler(scene: scene, groups: groups, limits: compiled.limits).compile()
                } else {
                    current = compiled.replacingIntrinsicSizes(of: scene, at: intrinsicPositions)
                }
                layout = current.solve(sizes: [size], base: nil, budget: &budget)[0]
            }
            // A label of fixed preferred width shows its text wrapped at its solved width.
            for index in labels.indices where labels[index].wrapsShownAtFrame && !layout.isRejected {
                let label = labels[index]
                guard let width = layout.frame(of: label.name)?.width, width != label.fixedWidth else { continue }
                budget -= min(budget, (label.prepared.utf16.count + 1) * Self.workPerCodeUnit)
                var shaping = PreparedText.ShapingCount()
                if budget > 0 { shown[index] = label.prepared.layout(width: width, numberOfLines: label.spec.numberOfLines, shaping: &shaping) }
                budget -= min(budget, Self.work(shaping))
                if budget == 0 { layout = compiled.workLimitLayout([], size: size, reason: "measuring its labels") }
            }
            layout.text = answers(layout, shown: shown)
            layouts[sizeIndex] = layout
        }
        return layouts
    }

    /// The `text` answer of each label in `layout`, from `shown`: the measurement of each
    /// label as it is drawn (one of several lines wrapped at its width in `layout`).
    func answers(_ layout: Layout, shown measurements: [TextMeasurement]) -> [LabelText] {
        guard !layout.isRejected else { return [] }
        return labels.indices.map { index in
            let label = labels[index]
            guard let frame = layout.frame(of: label.name) else { return LabelText(name: label.name, lines: 0, truncated: false) }
            let shown = measurements[index]
            // Lines the frame's height holds, compared as a Double first: a tiny font's line
            // height makes the ratio exceed Int.max (TextSceneTests.aTinyFontIsNotACrash).
            let ratio = shown.lineHeight > 0 ? (frame.height + 1e-6) / shown.lineHeight : .infinity
            let lines = !(ratio >= 0) ? 0 : ratio >= Double(shown.lines.count) ? shown.lines.count : Int(ratio.rounded(.down))
            let truncated = shown.truncated || lines < shown.lines.count
                || shown.lines.contains { $0.width > frame.width + 1e-6 }
            return LabelText(name: label.name, lines: lines, truncated: truncated)
        }
    }
}

extension Layout {
    /// The answered frame of the view called `name` (frames are sorted by name after the
    /// container). O(log n).
    func frame(of name: String) -> Frame? {
        var low = 1, high = frames.count
        while low < high {
            let middle = (low + high) / 2
            if frames[middle].name < name { low = middle + 1 } else { high = middle }
        }
        return low < frames.count && frames[low].name == name ? frames[low].frame : nil
    }
}

extension CompiledScene {
    /// For each label name: the positions in ``constraints`` of its intrinsic-size
    /// constraints (two per axis, width first). O(constraints).
    func intrinsicConstraintPositions(of names: Set<String>) -> [String: [Int]] {
        var positions: [String: [Int]] = [:]
        for (position, compiled) in constraints.enumerated() {
            if case .intrinsic(let view, _, _, _, _) = compiled.words, names.contains(view) {
                positions[view, default: []].append(position)
            }
        }
        return positions
    }

    /// This compiled scene with the intrinsic-size constraints at `positions` given the
    /// intrinsic sizes of `scene`'s views (only constants change: nothing is parsed or
    /// translated again).
    func replacingIntrinsicSizes(of scene: Scene, at positions: [String: [Int]]) -> CompiledScene {
        var constraints = self.constraints
        for view in scene.views {
            guard let list = positions[view.name] else { continue }
            for position in list {
                guard case .intrinsic(let name, let attribute, let relation, _, let priority) = constraints[position].words else { continue }
                guard let size = attribute == "width" ? view.intrinsicWidth : view.intrinsicHeight else { continue }
                let old = constraints[position].constraint
                constraints[position].constraint = Constraint(
                    Expression(terms: old.expression.terms, constant: -size), old.relation, strength: old.strength)
                constraints[position].words = .intrinsic(view: name, attribute: attribute, relation: relation, size: size, priority: priority)
            }
        }
        return CompiledScene(scene: scene, limits: limits, hierarchy: hierarchy, constraints: constraints, diagnostics: diagnostics,
                             mentioned: mentioned, frameFields: frameFields, frameFieldDifferences: frameFieldDifferences,
                             hasErrors: hasErrors, guideSizesNamed: guideSizesNamed)
    }
}
