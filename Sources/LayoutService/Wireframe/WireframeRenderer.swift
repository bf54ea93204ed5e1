import LayoutCompiler
import LayoutSyntax

/// Draws solved layouts as an SVG wireframe (issue 10): every view a labelled rectangle
/// at its frame, nested inside its parent, the container outlined.
///
/// Shape of the document (SVG 1.1, UTF-8, stable for tests and the playground):
///
/// ```
/// <svg class="layoutd-wireframe" data-panels="N" viewBox="0 0 W H" …>
///   <g class="panel" data-index="0" data-container-width="375" … transform="translate(…)">
///     <text class="caption">375×667</text>                      (only for `sizes`)
///     <g class="view container" data-view="superview">
///       <rect data-x="0" data-y="0" data-width="375" data-height="667" x="0" y="0" …/>
///       <clipPath id="clip-0-superview"><rect …/></clipPath>
///       <text class="label" clip-path="url(#clip-0-superview)">superview  0,0 375×667</text>
///       <g class="view" data-view="card"> <rect …/> <text …/> <g …>…</g> </g>
///     </g>
///   </g>
/// </svg>
/// ```
///
/// - A rect's `data-x`/`data-y`/`data-width`/`data-height` are the frame exactly as
///   `/solve` reports it (relative to the parent, or to the container under
///   `coordinates: root`); `x`/`y`/`width`/`height` are the view's position relative
///   to the container's origin (the sum of its ancestors' offsets), in points, y down,
///   with a negative size drawn as its absolute value from the other edge so that
///   the document stays valid.
/// - A view named by an `ambiguous_layout` or `negative_size` diagnostic (its `view`
///   field), or by the `broken`/`conflicting` constraints of an
///   `unsatisfiable_constraints` diagnostic (a `NAME.` in their text), has class
///   `warning` and a `<title>` (the tooltip) in its rect listing those messages.
/// - A layout that is rejected (`conflicts: error` or `ambiguity: error`, possible for
///   one entry of `sizes`) has no frames: its panel shows the container only, in the
///   warning style, with the diagnostics as its title.
/// - Text and attribute values are XML-escaped (`& < > " '`); characters that XML 1.0
///   forbids (C0 controls other than tab, LF, CR; U+FFFE, U+FFFF) become U+FFFD.
/// - Deterministic: the same inputs give the same bytes (views in hierarchy order,
///   children by name, numbers in the `/solve` JSON spelling).
public struct WireframeRenderer: Sendable {
    /// The text of the wireframe's `<style>` element, exactly: a `Content-Security-Policy`
    /// allows it by its SHA-256 (``PlaygroundPage/contentSecurityPolicy`` and the SVG
    /// answer's own policy), so any change here changes the hash with it.
    static let stylesheet = """

    .layoutd-wireframe .view > rect { fill: rgba(70, 130, 220, 0.10); stroke: #3a6fc4; stroke-width: 1; }
    .layoutd-wireframe .view.alternate > rect { fill: rgba(60, 170, 110, 0.12); stroke: #2f8f5a; }
    .layoutd-wireframe .view.container > rect { fill: #fafafa; stroke: #222; stroke-width: 2; }
    .layoutd-wireframe .view.stack > rect { stroke-dasharray: 6 3; }
    .layoutd-wireframe .view.warning > rect { fill: rgba(230, 150, 20, 0.22); stroke: #d9480f; stroke-width: 2; stroke-dasharray: 5 3; }
    .layoutd-wireframe .label { fill: #1b1b1b; }
    .layoutd-wireframe .view.warning > .label { fill: #b02a00; font-weight: bold; }
    .layoutd-wireframe .caption { fill: #444; font-size: 13px; font-weight: bold; }

    """
    /// Margin around the drawing and gap between panels, points.
    static let margin = 16.0
    static let panelGap = 32.0
    /// Height reserved above each panel for its caption (`sizes` only), points.
    static let captionHeight = 22.0

    /// Renders `layouts` of `compiled` as one SVG document.
    ///
    /// - Parameters:
    ///   - compiled: the scene the layouts were solved from (names, parents, options,
    ///     and its size-independent diagnostics, which are drawn on the views they name).
    ///   - layouts: one layout per panel, in order (one for a plain `/solve`).
    ///   - sizes: the requested container sizes of a `sizes` request (one per layout),
    ///     or `nil`; when given, each panel gets a caption `W×H` (the solved container
    ///     size, with `fit` noted for a fitted dimension).
    /// - Returns: the UTF-8 bytes of a standalone SVG document.
    /// - Complexity: O(panels × (views + diagnostics × text length)).
    public static func svg(compiled: CompiledScene, layouts: [Layout], sizes: [ContainerSize]?) -> [UInt8] {
        svg(compiled: compiled, layouts: layouts, sizes: sizes, maxBytes: .max, pool: nil, maxWork: .max).bytes
    }

    /// What ``svg(compiled:layouts:sizes:maxBytes:pool:maxWork:)`` made: the document,
    /// or why it stopped (then `bytes` is empty).
    public struct Output: Sendable {
        /// The SVG document; empty when ``stop`` is set.
        public var bytes: [UInt8]
        /// Why the rendering stopped before the end, or `nil`.
        public var stop: AnswerStop?
        /// Pool bytes held for the document (release by dropping it once sent).
        public var reservation: AnswerReservation?
    }

    /// The work unit of rendering: one byte written to the document, or examined to
    /// decide what to write: a frame measured counts its 32 bytes (four doubles), a
    /// diagnostic matched against the views counts the UTF-8 bytes of its message and
    /// constraint texts. Writing and examining cost a few nanoseconds per byte (no
    /// intermediate strings for escaping), so the default budget (`--max-solver-work`,
    /// 10⁸) stops a hostile scene's drawing within the solver's promise of about 2 s
    /// (e2e `hostile/answers-svg-names-sizes`; the unit: `ResponseBoundTests.renderingStopsAtItsWorkBudget`).
    public static let workUnitDescription = "bytes written or examined"

    /// Renders `layouts` of `compiled` as one SVG document of at most `maxBytes` bytes
    /// (``AnswerBytes``, drawing on `pool`), spending at most `maxWork` units of work
    /// (``workUnitDescription``); stops as soon as either would be passed, without
    /// building the rest.
    ///
    /// - Complexity: O(`maxWork`) at most.
    public static func svg(compiled: CompiledScene, layouts: [Layout], sizes: [ContainerSize]?,
                           maxBytes: Int, pool: (any AnswerBytePool)?, maxWork: Int) -> Output {
        var out = SVGWriter(limit: maxBytes, pool: pool, maxWork: maxWork)
        render(compiled: compiled, layouts: layouts, sizes: sizes, into: &out)
        out.finish()
        return Output(bytes: out.bytes, stop: out.stop, reservation: out.reservation)
    }

    private static func render(compiled: CompiledScene, layouts: [Layout], sizes: [ContainerSize]?, into out: inout SVGWriter) {
        let hierarchy = compiled.hierarchy
        let children = childLists(hierarchy)
        let hasCaptions = sizes != nil
        let captionSpace = hasCaptions ? captionHeight : 0

        // Measure every panel first: the viewBox must fit them all. The size-independent
        // diagnostics are matched to views once; a panel's own, per panel.
        guard out.charge(diagnosticBytes(compiled.diagnostics)) else { return }
        let sceneMessages = warnings(compiled.diagnostics, hierarchy: hierarchy)
        var panels: [Panel] = []
        panels.reserveCapacity(layouts.count)
        for layout in layouts {
            guard out.charge(32 * hierarchy.count + diagnosticBytes(layout.diagnostics)) else { return }
            let messages = layout.diagnostics.isEmpty ? sceneMessages
                : warnings(compiled.diagnostics + layout.diagnostics, hierarchy: hierarchy)
            panels.append(Panel(layout: layout, compiled: compiled, hierarchy: hierarchy, messages: messages))
        }
        var totalWidth = margin
        var tallest = 0.0
        var origins: [(x: Double, y: Double)] = []
        for (index, panel) in panels.enumerated() {
            if index > 0 { totalWidth += panelGap }
            origins.append((totalWidth - panel.bounds.minX, margin + captionSpace - panel.bounds.minY))
            totalWidth += panel.bounds.width
            tallest = max(tallest, panel.bounds.height)
        }
        totalWidth += margin
        let totalHeight = margin + captionSpace + tallest + margin

        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"layoutd-wireframe\"")
        out.attribute("data-panels", String(panels.count))
        out.attribute("viewBox", "0 0 \(number(totalWidth)) \(number(totalHeight))")
        out.attribute("width", number(totalWidth))
        out.attribute("height", number(totalHeight))
        out.raw(" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"11\">\n")
        out.raw("<style>")
        out.raw(Self.stylesheet)
        out.raw("</style>\n")

        for (index, panel) in panels.enumerated() {
            guard out.isWriting else { return }
            let origin = origins[index]
            let layout = layouts[index]
            out.raw("<g class=\"panel\"")
            out.attribute("data-index", String(index))
            out.attribute("data-container-width", number(layout.containerWidth))
            out.attribute("data-container-height", number(layout.containerHeight))
            out.attribute("transform", "translate(\(number(origin.x)) \(number(origin.y)))")
            out.raw(">\n")
            if hasCaptions {
                var caption = "\(number(layout.containerWidth))×\(number(layout.containerHeight))"
                if let size = sizes.flatMap({ index < $0.count ? $0[index] : nil }) {
                    if size.width == nil && size.height == nil {
                        caption += " (fitted)"
                    } else if size.width == nil {
                        caption += " (fitted width)"
                    } else if size.height == nil {
                        caption += " (fitted height)"
                    }
                }
                out.raw("<text class=\"caption\"")
                out.attribute("x", number(panel.bounds.minX))
                out.attribute("y", number(panel.bounds.minY - 8))
                out.raw(">")
                out.text(caption)
                out.raw("</text>\n")
            }
            if layout.isRejected {
                writeRejected(panel: panel, layout: layout, into: &out)
            } else {
                writeViews(panel: panel, panelIndex: index, children: children, hierarchy: hierarchy, into: &out)
            }
            out.raw("</g>\n")
        }
        out.raw("</svg>\n")
    }

    /// The bytes of text ``warnings(_:hierarchy:)`` examines in `diagnostics`.
    static func diagnosticBytes(_ diagnostics: [LayoutDiagnostic]) -> Int {
        var total = 0
        for diagnostic in diagnostics {
            total += diagnostic.message.utf8.count + (diagnostic.broken?.text.utf8.count ?? 0)
            for ref in diagnostic.conflicting ?? [] { total += ref.text.utf8.count }
        }
        return total
    }

    // MARK: - Drawing

    /// The views of one panel, parents before children, without recursion (the depth
    /// of a scene is bounded by a limit, but the drawing must not rely on it).
    private static func writeViews(panel: Panel, panelIndex: Int, children: [[Int]], hierarchy: ViewHierarchy, into out: inout SVGWriter) {
        // A stack of (view, isClosing): opening a view writes its rect and label and
        // pushes its closing marker, then its children in reverse (so they come out by name).
        var stack: [(view: Int, isClosing: Bool)] = [(0, false)]
        while let (view, isClosing) = stack.popLast() {
            guard out.isWriting else { return }
            if isClosing {
                out.raw("</g>\n")
                continue
            }
            writeViewOpening(view, panel: panel, panelIndex: panelIndex, hierarchy: hierarchy, into: &out)
            stack.append((view, true))
            for child in children[view].reversed() {
                stack.append((child, false))
            }
        }
    }

    private static func writeViewOpening(_ view: Int, panel: Panel, panelIndex: Int, hierarchy: ViewHierarchy, into out: inout SVGWriter) {
        let name = hierarchy.names[view]
        let frame = panel.reported[view]
        let absolute = panel.absolute[view]
        let messages = panel.messages[view]
        var classes = view == 0 ? "view container" : "view"
        if view != 0 && hierarchy.depths[view] % 2 == 0 { classes += " alternate" }
        if panel.isStack[view] { classes += " stack" }
        if !messages.isEmpty { classes += " warning" }
        out.raw("<g")
        out.attribute("class", classes)
        out.attribute("data-view", name)
        out.raw(">\n<rect")
        out.attribute("data-x", number(frame.x))
        out.attribute("data-y", number(frame.y))
        out.attribute("data-width", number(frame.width))
        out.attribute("data-height", number(frame.height))
        let drawn = normalized(absolute)
        out.attribute("x", number(drawn.x))
        out.attribute("y", number(drawn.y))
        out.attribute("width", number(drawn.width))
        out.attribute("height", number(drawn.height))
        if messages.isEmpty {
            out.raw("/>\n")
        } else {
            out.raw("><title>")
            out.text(messages.joined(separator: "\n"))
            out.raw("</title></rect>\n")
        }
        // The label is clipped to its rect so that small views don't write over their siblings.
        let clipID = "clip-\(panelIndex)-\(name)"
        out.raw("<clipPath")
        out.attribute("id", clipID)
        out.raw("><rect")
        out.attribute("x", number(drawn.x))
        out.attribute("y", number(drawn.y))
        out.attribute("width", number(drawn.width))
        out.attribute("height", number(drawn.height))
        out.raw("/></clipPath>\n<text class=\"label\"")
        out.attribute("x", number(drawn.x + 3))
        out.attribute("y", number(drawn.y + 12))
        out.attribute("clip-path", "url(#\(clipID))")
        out.raw(">")
        out.text("\(name)  \(number(frame.x)),\(number(frame.y)) \(number(frame.width))×\(number(frame.height))")
        out.raw("</text>\n")
    }

    private static func writeRejected(panel: Panel, layout: Layout, into out: inout SVGWriter) {
        let messages = uniqueMessages(layout.diagnostics.filter(\.isError))
        out.raw("<g class=\"view container warning rejected\" data-view=\"superview\">\n<rect")
        let drawn = normalized(Box(x: 0, y: 0, width: layout.containerWidth, height: layout.containerHeight))
        out.attribute("x", "0")
        out.attribute("y", "0")
        out.attribute("width", number(drawn.width))
        out.attribute("height", number(drawn.height))
        out.raw("><title>")
        out.text(messages.joined(separator: "\n"))
        out.raw("</title></rect>\n<text class=\"label\" x=\"3\" y=\"12\">")
        out.text("not laid out: \(messages.first ?? "rejected")")
        out.raw("</text>\n</g>\n")
    }

    // MARK: - Geometry and diagnostics of one panel

    /// One layout measured for drawing: reported and absolute frames, bounds, and the
    /// warning messages of each view (indices as in ``ViewHierarchy``).
    struct Panel {
        var reported: [Box]
        var absolute: [Box]
        var messages: [[String]]
        var bounds: Bounds
        /// Whether each view is a stack view (drawn dashed, class `stack`).
        var isStack: [Bool]

        init(layout: Layout, compiled: CompiledScene, hierarchy: ViewHierarchy, messages: [[String]]) {
            let count = hierarchy.count
            reported = (0..<count).map { index in
                index < layout.frames.count ? WireframeRenderer.finite(layout.frames[index].frame) : Box(x: 0, y: 0, width: 0, height: 0)
            }
            absolute = WireframeRenderer.absoluteFrames(reported, hierarchy: hierarchy,
                                                        relativeToRoot: compiled.scene.options.coordinates == .root)
            self.messages = messages
            isStack = [false] + compiled.scene.views.map { $0.stack != nil }
            var bounds = Bounds(minX: 0, minY: 0, maxX: finiteOrZero(layout.containerWidth), maxY: finiteOrZero(layout.containerHeight))
            if !layout.isRejected {
                for frame in absolute {
                    let drawn = WireframeRenderer.normalized(frame)
                    bounds.minX = min(bounds.minX, drawn.x)
                    bounds.minY = min(bounds.minY, drawn.y)
                    bounds.maxX = max(bounds.maxX, drawn.x + drawn.width)
                    bounds.maxY = max(bounds.maxY, drawn.y + drawn.height)
                }
            }
            self.bounds = bounds
        }
    }

    /// A rectangle in points, y down (``Frame`` has no public initializer outside its module).
    struct Box: Equatable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
    }

    struct Bounds {
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double
        var width: Double { maxX - minX }
        var height: Double { maxY - minY }
    }

    /// Each view's frame relative to the container: a view's reported frame plus its
    /// ancestors' offsets (under `coordinates: root` the reported frame already is).
    ///
    /// - Complexity: O(views); each view is resolved once, walking up to a resolved ancestor.
    static func absoluteFrames(_ reported: [Box], hierarchy: ViewHierarchy, relativeToRoot: Bool) -> [Box] {
        if relativeToRoot { return reported }
        var absolute = reported
        var isResolved = Array(repeating: false, count: reported.count)
        guard !reported.isEmpty else { return absolute }
        isResolved[0] = true
        for start in reported.indices where !isResolved[start] {
            var chain: [Int] = []
            var current = start
            // Parents form a tree rooted at 0 (validated by the decoder); the count
            // bound keeps a malformed hierarchy from looping.
            while !isResolved[current] && chain.count <= reported.count {
                chain.append(current)
                current = hierarchy.parents[current]
            }
            for view in chain.reversed() {
                let parent = absolute[hierarchy.parents[view]]
                absolute[view].x = reported[view].x + parent.x
                absolute[view].y = reported[view].y + parent.y
                isResolved[view] = true
            }
        }
        return absolute
    }

    /// The messages to show on each view: diagnostics naming it by `view`, and conflicts
    /// whose broken or conflicting constraints mention `NAME.` in their text. In
    /// diagnostic order, each message once.
    static func warnings(_ diagnostics: [LayoutDiagnostic], hierarchy: ViewHierarchy) -> [[String]] {
        var messages = Array(repeating: [String](), count: hierarchy.count)
        // Membership only (never iterated): keeps a view in thousands of conflicts linear.
        var shown = Array(repeating: Set<String>(), count: hierarchy.count)
        func add(_ message: String, to view: Int) {
            if shown[view].insert(message).inserted { messages[view].append(message) }
        }
        for diagnostic in diagnostics {
            switch diagnostic.code {
            case .ambiguousLayout, .negativeSize:
                if let name = diagnostic.view, let view = hierarchy.index(of: name) {
                    add(diagnostic.message, to: view)
                }
            case .unsatisfiableConstraints:
                var texts: [String] = []
                if let broken = diagnostic.broken { texts.append(broken.text) }
                texts += (diagnostic.conflicting ?? []).map(\.text)
                var seen = Set<Int>()
                for text in texts {
                    for name in referencedNames(in: text) {
                        if let view = hierarchy.index(of: name) { seen.insert(view) }
                    }
                }
                // Sorted: the order of a Set must not reach the output.
                for view in seen.sorted() { add(diagnostic.message, to: view) }
            default:
                if let name = diagnostic.view, let view = hierarchy.index(of: name) {
                    add(diagnostic.message, to: view)
                }
            }
        }
        return messages
    }

    /// Identifiers followed by `.` in a constraint's text (`red` and `superview` in
    /// `red.leading == superview.leading + 20`), in order of appearance.
    static func referencedNames(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        var names: [String] = []
        var index = 0
        while index < scalars.count {
            guard isIdentifierScalar(scalars[index]) else { index += 1; continue }
            let start = index
            while index < scalars.count && isIdentifierScalar(scalars[index]) { index += 1 }
            let followsDot = start > 0 && scalars[start - 1] == "."
            let precedesDot = index < scalars.count && scalars[index] == "."
            if !followsDot && precedesDot && !("0"..."9").contains(scalars[start]) {
                var name = ""
                name.unicodeScalars.append(contentsOf: scalars[start..<index])
                names.append(name)
            }
        }
        return names
    }

    private static func uniqueMessages(_ diagnostics: [LayoutDiagnostic]) -> [String] {
        var messages: [String] = []
        var seen = Set<String>()
        for diagnostic in diagnostics where seen.insert(diagnostic.message).inserted {
            messages.append(diagnostic.message)
        }
        return messages
    }

    /// Children of each view, by name (the hierarchy's order after the container).
    static func childLists(_ hierarchy: ViewHierarchy) -> [[Int]] {
        var children = Array(repeating: [Int](), count: hierarchy.count)
        for view in 1..<max(1, hierarchy.count) {
            let parent = hierarchy.parents[view]
            if parent != view { children[parent].append(view) }
        }
        return children
    }

    /// A frame with a negative width or height turned into the same rectangle drawn
    /// from its other edge, so that `width` and `height` are ≥ 0 (SVG 1.1 §9.2 makes a
    /// negative rect size an error).
    static func normalized(_ frame: Box) -> Box {
        var frame = frame
        if frame.width < 0 { frame.x += frame.width; frame.width = -frame.width }
        if frame.height < 0 { frame.y += frame.height; frame.height = -frame.height }
        return frame
    }

    static func finite(_ frame: Frame) -> Box {
        Box(x: finiteOrZero(frame.x), y: finiteOrZero(frame.y),
              width: finiteOrZero(frame.width), height: finiteOrZero(frame.height))
    }

    /// A number as `/solve` writes it (rounded to 6 places, integral without a fraction).
    static func number(_ value: Double) -> String {
        JSONWriter.format(roundedForResponse(finiteOrZero(value)))
    }
}

private func finiteOrZero(_ value: Double) -> Double { value.isFinite ? value : 0 }

/// Appends SVG markup to a bounded byte buffer (``AnswerBytes``), escaping text and
/// attribute values, and counts the rendering's work (``WireframeRenderer/workUnitDescription``):
/// the bytes written plus those ``charge(_:)`` adds. Once the buffer or the work budget
/// stops it, every call does nothing.
struct SVGWriter {
    private var out: AnswerBytes
    /// Work units examined so far (bytes written are counted by the buffer).
    private var examined = 0
    /// The most work units the rendering may spend.
    let maxWork: Int

    init(limit: Int = .max, pool: (any AnswerBytePool)? = nil, maxWork: Int = .max) {
        out = AnswerBytes(limit: limit, pool: pool, reservingCapacity: 4096)
        self.maxWork = maxWork
    }

    var bytes: [UInt8] { out.bytes }
    var stop: AnswerStop? { out.stop }
    var reservation: AnswerReservation? { out.reservation }
    /// Whether the writer still takes markup (neither bound was reached).
    var isWriting: Bool { out.stop == nil }

    /// Adds `units` of work (bytes examined); false, and stopped, when the bytes written
    /// and examined together pass ``maxWork``.
    mutating func charge(_ units: Int) -> Bool {
        guard isWriting else { return false }
        examined = examined > Int.max - units ? Int.max : examined + units
        return withinWork()
    }

    private mutating func withinWork() -> Bool {
        if out.bytes.count > maxWork - min(examined, maxWork) {
            out.halt(.workExceeded(limit: maxWork))
            return false
        }
        return true
    }

    /// Checks the final length against the byte limit and the work against its budget.
    mutating func finish() {
        if withinWork() { out.finish() }
    }

    /// Markup written as is: only for literal strings of this file.
    mutating func raw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { utf8 in
            guard out.admits(utf8.count), withinWork() else { return }
            out.append(utf8)
        }
    }

    /// ` name="value"` with the value escaped.
    mutating func attribute(_ name: StaticString, _ value: String) {
        guard out.admits(name.utf8CodeUnitCount + 4) else { return }
        out.append(UInt8(ascii: " "))
        name.withUTF8Buffer { out.append($0) }
        out.append(UInt8(ascii: "="))
        out.append(UInt8(ascii: "\""))
        text(value)
        out.append(UInt8(ascii: "\""))
    }

    /// Character data or an attribute value, escaped (XML 1.0 §2.4, §2.2): see
    /// ``escaped(_:)``. Runs without a character to escape are copied in one call.
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            // Every byte writes at least one: a value that cannot fit is not copied.
            guard out.admits(utf8.count) else { return }
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                var length = 1
                let replacement: StaticString
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                case 0x0A: replacement = "&#10;"
                case 0x09: replacement = "&#9;"
                case 0x0D: replacement = "&#13;"
                case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBF && utf8[index + 2] >= 0xBE:
                    // U+FFFE or U+FFFF (EF BF BE, EF BF BF): not XML characters.
                    replacement = "\u{FFFD}"
                    length = 3
                default:
                    if byte < 0x20 {
                        replacement = "\u{FFFD}"
                    } else {
                        index += 1
                        continue
                    }
                }
                if runStart < index { out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                // The rest writes at least a byte each; a replacement is at most 6 (the slack).
                guard out.admits(utf8.count - index) else { return }
                replacement.withUTF8Buffer { out.append($0) }
                index += length
                runStart = index
            }
            if runStart < utf8.count { out.append(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
    }

    /// `&` `<` `>` `"` `'` as entity or character references; characters outside XML
    /// 1.0's `Char` production (C0 controls except tab, LF, CR; U+FFFE; U+FFFF) → U+FFFD.
    /// Line feeds and tabs are kept in text but written as references so that they
    /// survive attribute-value normalisation too.
    static func escaped(_ value: String) -> String {
        var writer = SVGWriter()
        writer.text(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
