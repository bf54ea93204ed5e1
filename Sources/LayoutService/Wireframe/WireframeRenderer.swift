import Foundation
import LayoutCompiler
import LayoutSyntax

/// Draws solved layouts as an SVG wireframe: every view a rectangle at
/// its frame, nested inside its parent, the container outlined, each view labelled so
/// that no two labels overprint, and the layout's problems drawn and written out.
///
/// Shape of the document (SVG 1.1, UTF-8, stable for tests and the playground):
///
/// ```
/// <svg class="layoutd-wireframe" data-panels="N" viewBox="0 0 W H"
///      width="Wpx" height="Hpx" data-scale="S" font-size="F" …>
///   <g class="panel" data-index="0" data-container-width="375" … transform="translate(…)">
///     <text class="caption" font-size="…">375×667</text>          (only for `sizes`)
///     <g class="view container" data-view="superview">
///       <rect data-x="0" data-y="0" data-width="375" data-height="667" x="0" y="0" …/>
///       <g class="view warning conflict" data-view="card" data-label="1"> <rect …><title>…</title></rect> … </g>
///     </g>
///     <g class="guide" data-guide="gap1"><rect …/></g>                (layout guides, dashed)
///   </g>
///   <g class="labels">
///     <text class="label" data-for="superview" data-panel="0" x="…" y="…">superview  0,0 375×667</text>
///     <text class="label outside" …>icon 24×24</text>
///     <text class="label number" data-for="card" …>1</text>
///   </g>
///   <g class="problems"> <text class="heading">…</text> <text class="problem">…</text> … </g>
///   <g class="legend"> <text class="entry">1  card  16,20 343×61</text> … </g>
/// </svg>
/// ```
///
/// - **Units.** The `viewBox` is in points (the frames' unit), y down; `width`/`height`
///   are the display size in CSS pixels (``WireframeDisplay``); `data-scale` is pixels per
///   point. Text, margins and gaps are sized in pixels and written in points (a label's
///   font size is `11 / scale`), so labels stay readable at any scale.
/// - **Frames.** A view rect's `data-x`/`data-y`/`data-width`/`data-height` are the frame
///   exactly as `/solve` reports it (relative to the parent, or to the container under
///   `coordinates: root`); `x`/`y`/`width`/`height` are its position relative to the
///   container's origin, with a negative size drawn as its absolute value from the other edge.
/// - **Labels never overprint** (``LabelPlacer``): each label's box is estimated from its
///   position, font size and character count (``labelWidth(_:fontSize:)``), and no two
///   boxes (labels, number markers, captions) intersect. A view's label is, in this order
///   of preference: its full text (`name  x,y w×h`) inside its rect, `name w×h` inside,
///   either of them moved just outside the rect, its name inside or outside, its name
///   abbreviated with `…`, and last a number (`data-label` on the view's group) explained
///   in the legend below the drawing. A field that is ambiguous is written with `?` after
///   its number (`b  20,0? 60×10?`).
/// - **Problems.** A view named by the `broken`/`conflicting` constraints of an
///   `unsatisfiable_constraints` diagnostic has classes `warning conflict` (outlined red);
///   one with an ambiguous field `warning ambiguous` (dashed); one with a negative size
///   `warning negative` and a cross (`path.flag`) over its rect. Each such rect has a
///   `<title>` (tooltip) with the messages, and every message is also written as visible
///   `<text class="problem">` lines below the drawing (at most ``maxProblemMessages``,
///   each at most ``maxProblemLines`` lines).
/// - **`sizes`** are small multiples at one scale: panels in rows (as many per row as
///   gives the largest scale), each captioned `W×H`.
/// - A layout that is rejected (`conflicts: error` or `ambiguity: error`, possible for one
///   entry of `sizes`) has no frames: its panel shows the container only, in the warning
///   style, with the diagnostics as its title.
/// - Text and attribute values are XML-escaped (`& < > " '`); characters that XML 1.0
///   forbids (C0 controls other than tab, LF, CR; U+FFFE, U+FFFF) become U+FFFD. No
///   script, no reference to anything outside the document.
/// - Deterministic: the same inputs give the same bytes (views in hierarchy order,
///   children by name, labels placed smallest view first, numbers in the `/solve` JSON spelling).
public struct WireframeRenderer: Sendable {
    /// The text of the wireframe's `<style>` element, exactly: a `Content-Security-Policy`
    /// allows it by its SHA-256 (``PlaygroundPage/contentSecurityPolicy`` and the SVG
    /// answer's own policy), so any change here changes the hash with it. Strokes do not
    /// scale (`vector-effect`): an outline is 1–2 px at any scale.
    static let stylesheet = """

    .layoutd-wireframe rect, .layoutd-wireframe path { vector-effect: non-scaling-stroke; }
    .layoutd-wireframe .view > rect { fill: rgba(70, 130, 220, 0.10); stroke: #3a6fc4; stroke-width: 1; }
    .layoutd-wireframe .view.alternate > rect { fill: rgba(60, 170, 110, 0.12); stroke: #2f8f5a; }
    .layoutd-wireframe .view.container > rect { fill: #fafafa; stroke: #222; stroke-width: 2; }
    .layoutd-wireframe .view.stack > rect { stroke-dasharray: 6 3; }
    .layoutd-wireframe .view.warning > rect { fill: rgba(230, 150, 20, 0.22); stroke: #d9480f; stroke-width: 2; stroke-dasharray: 5 3; }
    .layoutd-wireframe .view.conflict > rect { fill: rgba(220, 30, 30, 0.16); stroke: #d00000; stroke-width: 2.5; stroke-dasharray: none; }
    .layoutd-wireframe .view.negative > path.flag { stroke: #d00000; stroke-width: 1.5; fill: none; }
    .layoutd-wireframe .guide > rect { fill: none; stroke: #7048c8; stroke-width: 1.5; stroke-dasharray: 6 4; }
    .layoutd-wireframe .guide.warning > rect { stroke: #d9480f; stroke-width: 2; }
    .layoutd-wireframe .label { fill: #1b1b1b; }
    .layoutd-wireframe .label.outside { fill: #2a4f8f; }
    .layoutd-wireframe .label.number { fill: #0b3d91; font-weight: bold; }
    .layoutd-wireframe .label.problem { fill: #b00000; font-weight: bold; }
    .layoutd-wireframe .caption { fill: #444; font-weight: bold; }
    .layoutd-wireframe .problems .heading { fill: #b00000; font-weight: bold; }
    .layoutd-wireframe .problems .problem { fill: #8a0000; }
    .layoutd-wireframe .legend .heading { fill: #222; font-weight: bold; }
    .layoutd-wireframe .legend .entry { fill: #222; white-space: pre; }

    """
    /// Margin around the drawing and gap between panels, pixels.
    static let margin = 16.0
    static let panelGap = 32.0
    /// Height reserved above each panel for its caption (`sizes` only), pixels.
    static let captionHeight = 22.0
    /// How many times the default display arranges and labels the drawing to fit the
    /// lists below it in ``WireframeDisplay/fitHeight`` (each time places every label,
    /// charged to the rendering's work).
    static let fitAttempts = 4
    /// Font sizes, pixels: labels, number markers, captions, the problems and legend lists.
    static let labelFont = 11.0
    static let numberFont = 10.0
    static let captionFont = 13.0
    static let listFont = 12.0
    /// Line height of the problems and legend lists, pixels.
    static let listLineHeight = 16.0
    /// The advance of one character of the monospace font, in ems (DejaVu Sans Mono's is
    /// 0.602; rounded up so that an estimate is never short): a label's box is
    /// `characters × 0.62 × fontSize` wide.
    public static let characterWidth = 0.62
    /// A label's box extends this many ems above its baseline and ``descent`` below.
    public static let ascent = 0.95
    public static let descent = 0.3
    /// The narrowest document that has a problems or legend list, pixels.
    static let minListWidth = 480.0
    /// At most this many problem messages are written below the drawing, each in at most
    /// ``maxProblemLines`` lines; the rest are counted in one line.
    static let maxProblemMessages = 30
    static let maxProblemLines = 4
    /// At most this many views are numbered (and listed in the legend); views beyond it
    /// that have no room for a label are counted in the legend's last line.
    static let maxNumberedViews = 1_000
    /// At most this many views and guides (all panels together, in panel order, smallest
    /// first in each) get a label, so that placing labels stays a bounded part of the work
    /// however many views and sizes a scene has; the others are counted in the legend.
    static let maxLabelledViews = 2_000

    /// A layout guide to draw dashed (the contract's "Layout guides and the safe area"):
    /// its name, its owner's index in ``ViewHierarchy``, and its frame as `/solve`
    /// reports it (relative to the owner, or to the container under `coordinates: root`).
    public struct Guide: Sendable {
        public var name: String
        public var owner: Int
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

        public init(name: String, owner: Int, x: Double, y: Double, width: Double, height: Double) {
            self.name = name
            self.owner = owner
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// Renders `layouts` of `compiled` as one SVG document at the default display size.
    ///
    /// - Parameters:
    ///   - compiled: the scene the layouts were solved from (names, parents, options,
    ///     and its size-independent diagnostics, which are drawn on the views they name).
    ///   - layouts: one layout per panel, in order (one for a plain `/solve`).
    ///   - sizes: the requested container sizes of a `sizes` request (one per layout),
    ///     or `nil`; when given, each panel gets a caption `W×H` (the solved container
    ///     size, with `fit` noted for a fitted dimension).
    /// - Returns: the UTF-8 bytes of a standalone SVG document.
    /// - Complexity: O(panels × (views + diagnostics × text length)) and the label
    ///   placement's (``LabelPlacer``).
    public static func svg(compiled: CompiledScene, layouts: [Layout], sizes: [ContainerSize]?) -> [UInt8] {
        svg(compiled: compiled, layouts: layouts, sizes: sizes, maxBytes: .max, pool: nil, maxWork: .max).bytes
    }

    /// What ``svg(compiled:layouts:sizes:display:guides:maxBytes:pool:maxWork:)`` made:
    /// the document, or why it stopped (then `bytes` is empty).
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
    /// constraint texts, a label position tried counts the bytes of its text plus 16 per
    /// label box it is compared with. Writing and examining cost a few nanoseconds per
    /// byte (no intermediate strings for escaping), so the default budget
    /// (`--max-solver-work`, 10⁸) stops a hostile scene's drawing within the solver's
    /// promise of about 2 s (e2e `hostile/answers-svg-names-sizes`; the unit:
    /// `ResponseBoundTests.renderingStopsAtItsWorkBudget`).
    public static let workUnitDescription = "bytes written or examined"

    /// Renders `layouts` of `compiled` as one SVG document of at most `maxBytes` bytes
    /// (``AnswerBytes``, drawing on `pool`), spending at most `maxWork` units of work
    /// (``workUnitDescription``); stops as soon as either would be passed, without
    /// building the rest.
    ///
    /// - Parameters:
    ///   - display: the display size (``WireframeDisplay``; the default fits 1,200 × 900 px).
    ///   - guides: the layout guides of each layout (same order as `layouts`; missing
    ///     entries draw none), drawn dashed and labelled like views; `nil` (the default):
    ///     each layout's own ``Layout/guides`` (``guides(of:hierarchy:)``).
    /// - Complexity: O(`maxWork`) at most.
    public static func svg(compiled: CompiledScene, layouts: [Layout], sizes: [ContainerSize]?,
                           display: WireframeDisplay = WireframeDisplay(), guides: [[Guide]]? = nil,
                           maxBytes: Int, pool: (any AnswerBytePool)?, maxWork: Int) -> Output {
        var out = SVGWriter(limit: maxBytes, pool: pool, maxWork: maxWork)
        let guides = guides ?? layouts.map { Self.guides(of: $0, hierarchy: compiled.hierarchy) }
        render(compiled: compiled, layouts: layouts, sizes: sizes, display: display, guides: guides, into: &out)
        out.finish()
        return Output(bytes: out.bytes, stop: out.stop, reservation: out.reservation)
    }

    /// The layout guides of `layout` as drawn: ``Layout/guides`` (in ``ViewHierarchy/guides``
    /// order, frames as answered) with each guide's owner. Empty for a rejected layout.
    /// - Complexity: O(guides).
    public static func guides(of layout: Layout, hierarchy: ViewHierarchy) -> [Guide] {
        zip(hierarchy.guides, layout.guides).map { index, guide in
            Guide(name: guide.name, owner: hierarchy.parents[index], x: guide.frame.x, y: guide.frame.y,
                  width: guide.frame.width, height: guide.frame.height)
        }
    }

    // MARK: - The document

    private static func render(compiled: CompiledScene, layouts: [Layout], sizes: [ContainerSize]?,
                               display: WireframeDisplay, guides: [[Guide]], into out: inout SVGWriter) {
        let hierarchy = compiled.hierarchy
        let children = childLists(hierarchy)
        let hasCaptions = sizes != nil

        // Measure every panel first: the viewBox must fit them all. The size-independent
        // diagnostics are matched to views once; a panel's own, per panel.
        guard out.charge(diagnosticBytes(compiled.diagnostics)) else { return }
        let sceneMarks = marks(compiled.diagnostics, hierarchy: hierarchy)
        var panels: [Panel] = []
        panels.reserveCapacity(layouts.count)
        for (index, layout) in layouts.enumerated() {
            let panelGuides = index < guides.count ? guides[index] : []
            guard out.charge(32 * (hierarchy.count + panelGuides.count) + diagnosticBytes(layout.diagnostics)) else { return }
            let viewMarks = layout.diagnostics.isEmpty ? sceneMarks
                : marks(compiled.diagnostics + layout.diagnostics, hierarchy: hierarchy)
            panels.append(Panel(layout: layout, compiled: compiled, hierarchy: hierarchy, marks: viewMarks, guides: panelGuides))
        }
        // Every view of a laid-out panel writes its group and rect, at least 90 bytes and
        // its name: a document that cannot be sent is refused before labels are placed.
        let nameBytes = hierarchy.names.reduce(0) { $0 + $1.utf8.count }
        let laidOut = panels.count { !$0.isRejected }
        let (perPanel, overflow) = (90 * hierarchy.count).addingReportingOverflow(nameBytes)
        let (least, overflow2) = perPanel.multipliedReportingOverflow(by: laidOut)
        guard out.expect(atLeast: overflow || overflow2 ? .max : least) else { return }
        let captions = panels.indices.map { caption(layouts[$0], size: sizeAt(sizes, $0)) }
        let problems = problemList(compiled: compiled, layouts: layouts, captions: hasCaptions ? captions : nil)
        guard out.charge(problems.reduce(0) { $0 + $1.utf8.count }) else { return }

        // Arrange and label; when the lists below the drawing push the default display
        // past its height, arrange again in the height that is left (a smaller drawing can
        // number more views, so up to `fitAttempts` times, the height only shrinking).
        // Lists that need half the height or more keep the drawing's own fit: the drawing
        // fits, the lists add height below it (WireframeReadabilityTests.theDefaultFitCountsTheListsBelowTheDrawing,
        // aLegendTallerThanHalfTheFitKeepsTheDrawingsFit).
        var available = WireframeDisplay.fitHeight
        var arrangement = arrange(panels.map(\.bounds), captionSpace: hasCaptions ? captionHeight : 0, display: display, fitHeight: available)
        var labels = LabelSet()
        var problemLines: [String] = []
        var legend: [String] = []
        var listWidth = 0.0
        for attempt in 0..<fitAttempts {
            guard let placed = placeLabels(panels: panels, arrangement: arrangement, captions: hasCaptions ? captions : nil,
                                           hierarchy: hierarchy, into: &out) else { return }
            labels = placed
            listWidth = max(arrangement.widthPx, problems.isEmpty && labels.legend.isEmpty ? 0 : minListWidth)
            // A long legend gets the default display's full width for its columns.
            if labels.legend.count > 8 { listWidth = max(listWidth, WireframeDisplay.fitWidth) }
            problemLines = wrapProblems(problems, width: listWidth)
            legend = legendLines(labels, width: listWidth)
            let extra = listsHeight(problemLines: problemLines.count, legendLines: legend.count)
            guard attempt < fitAttempts - 1, display.sizing == .fit, arrangement.heightPx + extra > WireframeDisplay.fitHeight,
                  extra < WireframeDisplay.fitHeight / 2 else { break }
            available = min(available, WireframeDisplay.fitHeight - extra)
            arrangement = arrange(panels.map(\.bounds), captionSpace: hasCaptions ? captionHeight : 0, display: display, fitHeight: available)
        }
        let scale = arrangement.scale
        func units(_ pixels: Double) -> String { number(pixels / scale) }
        let widthPx = listWidth
        let heightPx = arrangement.heightPx + listsHeight(problemLines: problemLines.count, legendLines: legend.count)

        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"layoutd-wireframe\"")
        out.attribute("data-panels", String(panels.count))
        out.attribute("viewBox", "0 0 \(units(widthPx)) \(units(heightPx))")
        out.attribute("width", number(widthPx))
        out.attribute("height", number(heightPx))
        out.attribute("data-scale", scaleText(scale))
        out.raw(" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\"")
        out.attribute("font-size", units(labelFont))
        out.raw(">\n<style>")
        out.raw(Self.stylesheet)
        out.raw("</style>\n")

        for (index, panel) in panels.enumerated() {
            guard out.isWriting else { return }
            let origin = arrangement.origins[index]
            let layout = layouts[index]
            out.raw("<g class=\"panel\"")
            out.attribute("data-index", String(index))
            out.attribute("data-container-width", number(layout.containerWidth))
            out.attribute("data-container-height", number(layout.containerHeight))
            out.attribute("transform", "translate(\(number(origin.x)) \(number(origin.y)))")
            out.raw(">\n")
            if layout.isRejected {
                writeRejected(panel: panel, layout: layout, into: &out)
            } else {
                writeViews(panel: panel, children: children, hierarchy: hierarchy, numbers: labels.numbers[index], into: &out)
                writeGuides(panel: panel, hierarchy: hierarchy, into: &out)
            }
            out.raw("</g>\n")
        }

        out.raw("<g class=\"labels\">\n")
        for label in labels.labels {
            guard out.isWriting else { return }
            out.raw("<text")
            out.attribute("class", label.kind.className)
            if let view = label.view { out.attribute("data-for", view) }
            out.attribute("data-panel", String(label.panel))
            out.attribute("x", units(label.box.minX))
            out.attribute("y", units(label.box.minY + ascent * label.fontSize))
            if label.fontSize != labelFont { out.attribute("font-size", units(label.fontSize)) }
            out.raw(">")
            out.text(label.text)
            out.raw("</text>\n")
        }
        out.raw("</g>\n")

        // The problems, then the legend, below the drawing: one <g> each, a heading line first.
        var y = arrangement.heightPx
        for (group, lines, entry) in [("problems", problemLines, "<text class=\"problem\""),
                                      ("legend", legend, "<text class=\"entry\" xml:space=\"preserve\"")] where !lines.isEmpty {
            if group == "legend" && !problemLines.isEmpty { y += listLineHeight / 2 }
            out.raw("<g class=\"\(group)\"")
            out.attribute("font-size", units(listFont))
            out.raw(">\n")
            for (line, text) in lines.enumerated() {
                guard out.isWriting else { return }
                y += listLineHeight
                out.raw(line == 0 ? "<text class=\"heading\"" : entry)
                out.attribute("x", units(margin))
                out.attribute("y", units(y))
                out.raw(">")
                out.text(text)
                out.raw("</text>\n")
            }
            out.raw("</g>\n")
        }
        out.raw("</svg>\n")
    }

    static func sizeAt(_ sizes: [ContainerSize]?, _ index: Int) -> ContainerSize? {
        guard let sizes, index < sizes.count else { return nil }
        return sizes[index]
    }

    /// A panel's caption: the solved container size, `W×H`, noting a fitted dimension.
    static func caption(_ layout: Layout, size: ContainerSize?) -> String {
        var caption = "\(number(layout.containerWidth))×\(number(layout.containerHeight))"
        if let size {
            if size.width == nil && size.height == nil {
                caption += " (fitted)"
            } else if size.width == nil {
                caption += " (fitted width)"
            } else if size.height == nil {
                caption += " (fitted height)"
            }
        }
        return caption
    }

    /// Height of the problems and legend lists, pixels (0 when both are empty).
    static func listsHeight(problemLines: Int, legendLines: Int) -> Double {
        var height = 0.0
        if problemLines > 0 { height += Double(problemLines) * listLineHeight + listLineHeight / 2 }
        if legendLines > 0 { height += Double(legendLines) * listLineHeight + listLineHeight / 2 }
        return height
    }

    /// The bytes of text ``marks(_:hierarchy:)`` examines in `diagnostics`.
    static func diagnosticBytes(_ diagnostics: [LayoutDiagnostic]) -> Int {
        var total = 0
        for diagnostic in diagnostics {
            total += diagnostic.message.utf8.count + (diagnostic.broken?.text.utf8.count ?? 0)
            for ref in diagnostic.conflicting ?? [] { total += ref.text.utf8.count }
        }
        return total
    }

    // MARK: - Arrangement

    /// Where each panel goes and at what scale.
    struct Arrangement {
        /// Pixels per point.
        var scale: Double
        /// Each panel's translation, points (the viewBox's unit).
        var origins: [(x: Double, y: Double)]
        /// Each panel's origin in display pixels (`origins × scale`).
        var originsPx: [(x: Double, y: Double)]
        /// The drawing's display size (margins included), pixels.
        var widthPx: Double
        var heightPx: Double
    }

    /// Arranges panels of the given bounds (points) in rows and chooses the scale:
    /// ``WireframeDisplay/Sizing/fit`` picks the number of panels per row that allows the
    /// largest scale ≤ 1 fitting `fitWidth` × `fitHeight` pixels (ties: fewer rows);
    /// `scale` and `width` keep that arrangement and set the scale; any scale is then
    /// reduced so that the drawing is at most ``WireframeDisplay/maxDimension`` pixels.
    ///
    /// - Complexity: O(panels²) for `fit` (each row count tried).
    static func arrange(_ bounds: [Bounds], captionSpace: Double, display: WireframeDisplay, fitHeight: Double) -> Arrangement {
        let count = max(1, bounds.count)
        func rows(_ columns: Int) -> [Range<Int>] {
            stride(from: 0, to: bounds.count, by: columns).map { $0..<min(bounds.count, $0 + columns) }
        }
        /// Points and pixels of a row arrangement: widest row, sum of row heights.
        func extent(_ rows: [Range<Int>]) -> (widths: [(points: Double, pixels: Double)], height: (points: Double, pixels: Double)) {
            let widths = rows.map { row in
                (row.reduce(0.0) { $0 + bounds[$1].width }, 2 * margin + Double(row.count - 1) * panelGap)
            }
            let heightPoints = rows.reduce(0.0) { total, row in total + row.map { bounds[$0].height }.max()! }
            let heightPixels = 2 * margin + Double(rows.count) * captionSpace + Double(max(0, rows.count - 1)) * panelGap
            return (widths, (heightPoints, heightPixels))
        }
        /// The largest scale at which `rows` fit `width` × `height` pixels (∞ when nothing
        /// has a size; ≤ 0 when the fixed pixels alone do not fit).
        func fitting(_ rows: [Range<Int>], width: Double, height: Double) -> Double {
            let (widths, tall) = extent(rows)
            var scale = Double.infinity
            for row in widths {
                if row.pixels > width { return 0 }
                if row.points > 0 { scale = min(scale, (width - row.pixels) / row.points) }
            }
            if tall.pixels > height { return 0 }
            if tall.points > 0 { scale = min(scale, (height - tall.pixels) / tall.points) }
            return scale
        }
        var columns = count
        var best = -1.0
        if bounds.count > 1 {
            for candidate in stride(from: count, through: 1, by: -1) {
                let scale = min(1, fitting(rows(candidate), width: WireframeDisplay.fitWidth, height: fitHeight))
                if scale > best { best = scale; columns = candidate }
            }
            if !(best > 0) { columns = min(count, max(1, Int(WireframeDisplay.fitWidth / (panelGap + 8)))) }
        }
        let arranged = rows(columns)
        let (widths, tall) = extent(arranged)
        let widestPoints = widths.map(\.points).max() ?? 0
        var scale: Double
        switch display.sizing {
        case .fit:
            scale = min(1, fitting(arranged, width: WireframeDisplay.fitWidth, height: fitHeight))
        case .scale(let value):
            scale = value
        case .width(let pixels):
            scale = min(WireframeDisplay.maxScale, fitting(arranged, width: Double(pixels), height: .infinity))
        }
        // Nothing to fit (every panel 0 × 0) draws at 1; no room at all, at a scale that
        // makes the drawing one pixel.
        if scale == .infinity { scale = 1 }
        let largest = max(widestPoints, tall.points)
        if !(scale > 0) { scale = largest > 0 ? 1 / largest : 1 }
        // The cap counts the margins, gaps and captions too: the drawing is at most
        // maxDimension pixels a side (WireframeReadabilityTests.theReducedScaleHonoursTheCapWithMargins).
        let capped = fitting(arranged, width: WireframeDisplay.maxDimension, height: WireframeDisplay.maxDimension)
        if capped > 0 {
            scale = min(scale, capped)
        } else if largest > 0 {
            scale = min(scale, WireframeDisplay.maxDimension / largest)
        }
        if !(scale > 0) || !scale.isFinite { scale = .leastNormalMagnitude }

        var origins: [(x: Double, y: Double)] = Array(repeating: (0, 0), count: bounds.count)
        var originsPx = origins
        var widthPx = 0.0
        var yPx = margin
        for row in arranged {
            yPx += captionSpace
            var xPx = margin
            for (position, panel) in row.enumerated() {
                if position > 0 { xPx += panelGap }
                originsPx[panel] = (xPx - bounds[panel].minX * scale, yPx - bounds[panel].minY * scale)
                // Points from the pixels: at scale 1 the same numbers as the pixels.
                origins[panel] = (originsPx[panel].x / scale, originsPx[panel].y / scale)
                xPx += bounds[panel].width * scale
            }
            widthPx = max(widthPx, xPx + margin)
            yPx += (row.map { bounds[$0].height }.max() ?? 0) * scale + panelGap
        }
        let heightPx = arranged.isEmpty ? 2 * margin : yPx - panelGap + margin
        return Arrangement(scale: scale, origins: origins, originsPx: originsPx, widthPx: max(widthPx, 2 * margin), heightPx: heightPx)
    }

    // MARK: - Labels

    /// A label's kind, written as its `class`.
    enum LabelKind {
        case inside, outside, number, caption, problem

        var className: String {
            switch self {
            case .inside: "label"
            case .outside: "label outside"
            case .number: "label number"
            case .caption: "caption"
            case .problem: "label problem"
            }
        }
    }

    /// One placed text: its box in display pixels (the text starts at `box.minX`, its
    /// baseline is `box.minY + ascent × fontSize`).
    struct PlacedLabel {
        var text: String
        var kind: LabelKind
        var view: String?
        var panel: Int
        var fontSize: Double
        var box: Rect
    }

    /// The labels of a document, the number given to each view that has no room for a
    /// label (`numbers[panel][view]`, 0 for none; guides after the views), and the legend entries.
    struct LabelSet {
        var labels: [PlacedLabel] = []
        var numbers: [[Int]] = []
        var legend: [String] = []
        /// Views with no label, no number and no legend entry (beyond ``maxNumberedViews``).
        var unlisted = 0
    }

    /// A rectangle in display pixels.
    struct Rect: Equatable {
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double
        var width: Double { maxX - minX }
        var height: Double { maxY - minY }

        init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }

        init(x: Double, y: Double, width: Double, height: Double) {
            self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
        }

        /// Whether the two overlap with a positive area (touching edges do not).
        func intersects(_ other: Rect) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }

        func contains(_ other: Rect) -> Bool {
            other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
        }
    }

    /// The estimated width of `text` at `fontSize`, pixels: ``characterWidth`` em per
    /// character of the monospace font, two for an East Asian wide character, none for a
    /// combining mark.
    public static func labelWidth(_ text: String, fontSize: Double) -> Double {
        var columns = 0
        for scalar in text.unicodeScalars { columns += Self.columns(scalar) }
        return Double(columns) * characterWidth * fontSize
    }

    /// Character cells of one scalar in a monospace font: 2 East Asian wide, 0 combining, else 1.
    static func columns(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x300 { return 1 }
        return switch scalar.value {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: 0
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD: 2
        default: 1
        }
    }

    /// The box of a text of `fontSize` starting at `x` with its box's top at `top`.
    static func labelBox(_ text: String, fontSize: Double, x: Double, top: Double) -> Rect {
        Rect(x: x, y: top, width: labelWidth(text, fontSize: fontSize), height: (ascent + descent) * fontSize)
    }

    /// Places label boxes so that no two intersect: a uniform grid of 64-px cells over the
    /// document lists the boxes that touch each cell (looked up, never iterated), so a
    /// candidate is compared only with the boxes near it. Boxes are kept 1 px apart.
    ///
    /// - Complexity: a candidate costs the boxes in the cells it covers; as boxes do not
    ///   overlap, a cell holds at most about (64 + w)(64 + h)/(w·h) of the smallest boxes.
    struct LabelPlacer {
        static let cell = 64.0
        /// Where a moved label may go: the drawing with its margins.
        let area: Rect
        private(set) var boxes: [Rect] = []
        private var grid: [Int: [Int32]] = [:]

        init(area: Rect) {
            self.area = area
        }

        static func cellRange(_ low: Double, _ high: Double) -> ClosedRange<Int> {
            // Extreme frames can make a coordinate infinite or NaN: such a box is kept
            // in the cells at the grid's edge (never converted to Int unbounded).
            guard low.isFinite, high.isFinite else {
                let edge = (low.isNaN || high.isNaN) ? 0 : (high < 0 ? -(1 << 20) : 1 << 20)
                return edge...edge
            }
            let bound = Double(1 << 20)
            let first = Int(max(-bound, min(bound, (low / cell).rounded(.down))))
            let last = Int(max(-bound, min(bound, (high / cell).rounded(.down))))
            return first...max(first, last)
        }

        static func key(_ x: Int, _ y: Int) -> Int { (y + (1 << 20)) << 22 | (x + (1 << 20)) }

        /// Whether `box` (kept 1 px from every placed box) is free, and how many boxes were compared.
        func isFree(_ box: Rect) -> (free: Bool, compared: Int) {
            let padded = Rect(minX: box.minX - 1, minY: box.minY - 1, maxX: box.maxX + 1, maxY: box.maxY + 1)
            var compared = 0
            for y in Self.cellRange(padded.minY, padded.maxY) {
                for x in Self.cellRange(padded.minX, padded.maxX) {
                    for index in grid[Self.key(x, y)] ?? [] {
                        compared += 1
                        if boxes[Int(index)].intersects(padded) { return (false, compared) }
                    }
                }
            }
            return (true, compared)
        }

        mutating func insert(_ box: Rect) {
            let index = Int32(boxes.count)
            boxes.append(box)
            for y in Self.cellRange(box.minY, box.maxY) {
                for x in Self.cellRange(box.minX, box.maxX) {
                    grid[Self.key(x, y), default: []].append(index)
                }
            }
        }
    }

    /// The views' rects of one panel, to keep labels off their edges: a label box is
    /// *clean* when every rect (other than its own view's) either misses it or holds it
    /// whole (an ancestor). Same grid as ``LabelPlacer``.
    struct ObstacleGrid {
        private var rects: [Rect] = []
        private var owners: [Int] = []
        private var grid: [Int: [Int32]] = [:]

        mutating func insert(_ rect: Rect, owner: Int) {
            let index = Int32(rects.count)
            rects.append(rect)
            owners.append(owner)
            for y in LabelPlacer.cellRange(rect.minY, rect.maxY) {
                for x in LabelPlacer.cellRange(rect.minX, rect.maxX) {
                    grid[LabelPlacer.key(x, y), default: []].append(index)
                }
            }
        }

        /// Whether `box`, the label of `owner`, crosses no other rect's edge; and how many rects were compared.
        func isClean(_ box: Rect, owner: Int) -> (clean: Bool, compared: Int) {
            var compared = 0
            for y in LabelPlacer.cellRange(box.minY, box.maxY) {
                for x in LabelPlacer.cellRange(box.minX, box.maxX) {
                    for index in grid[LabelPlacer.key(x, y)] ?? [] {
                        compared += 1
                        let rect = rects[Int(index)]
                        if owners[Int(index)] != owner && rect.intersects(box) && !rect.contains(box) { return (false, compared) }
                    }
                }
            }
            return (true, compared)
        }
    }

    /// At most this many views and guides (all panels together) get the first pass that
    /// keeps labels off other views' edges (``ObstacleGrid``); beyond it labels are only
    /// kept apart from each other.
    static let maxViewsAvoided = 3_000

    /// Positions inside `rect` for a box of `width` × `height` (2 px from the top or bottom
    /// edge, 3 px from the left or right): top left, bottom left, top right, bottom right.
    static func insidePositions(_ rect: Rect, width: Double, height: Double) -> [(x: Double, y: Double)] {
        guard width + 6 <= rect.width, height + 4 <= rect.height else { return [] }
        return [(rect.minX + 3, rect.minY + 2), (rect.minX + 3, rect.maxY - 2 - height),
                (rect.maxX - 3 - width, rect.minY + 2), (rect.maxX - 3 - width, rect.maxY - 2 - height)]
    }

    /// Positions just outside `rect`: above and below (left-aligned, then right-aligned),
    /// right of it, left of it.
    static func outsidePositions(_ rect: Rect, width: Double, height: Double) -> [(x: Double, y: Double)] {
        [(rect.minX, rect.minY - 2 - height), (rect.minX, rect.maxY + 2),
         (rect.maxX - width, rect.minY - 2 - height), (rect.maxX - width, rect.maxY + 2),
         (rect.maxX + 3, rect.minY), (rect.minX - 3 - width, rect.minY),
         (rect.maxX + 3, rect.maxY - height), (rect.minX - 3 - width, rect.maxY - height)]
    }

    /// What to label in one panel: a view or a guide, its rect in display pixels, its name
    /// and the label texts from most to least informative.
    private struct Subject {
        var view: Int            // index in the panel's views, then guides after them
        var name: String
        var rect: Rect
        var full: String
        var short: String
    }

    /// Places every label of the document (``LabelPlacer``), smallest view first in each
    /// panel so that small views get the places next to them; `nil` when the work budget ran out.
    static func placeLabels(panels: [Panel], arrangement: Arrangement, captions: [String]?,
                            hierarchy: ViewHierarchy, into out: inout SVGWriter) -> LabelSet? {
        let scale = arrangement.scale
        var placer = LabelPlacer(area: Rect(minX: 0, minY: 0, maxX: arrangement.widthPx, maxY: arrangement.heightPx))
        var set = LabelSet()
        set.numbers = panels.map { Array(repeating: 0, count: hierarchy.count + $0.guides.count) }

        /// Tries `text` at each position; true when it was placed.
        var obstacles = ObstacleGrid()
        func place(_ text: String, kind: LabelKind, view: String?, panel: Int, fontSize: Double,
                   at positions: [(x: Double, y: Double)], withinArea: Bool, cleanFor owner: Int? = nil,
                   _ out: inout SVGWriter) -> Bool? {
            let width = labelWidth(text, fontSize: fontSize)
            for position in positions {
                let box = Rect(x: position.x, y: position.y, width: width, height: (ascent + descent) * fontSize)
                if withinArea && !placer.area.contains(box) { continue }
                let (free, compared) = placer.isFree(box)
                guard out.charge(text.utf8.count + 16 * compared) else { return nil }
                if free, let owner {
                    let (clean, crossed) = obstacles.isClean(box, owner: owner)
                    guard out.charge(16 * crossed) else { return nil }
                    if !clean { continue }
                }
                if free {
                    placer.insert(box)
                    set.labels.append(PlacedLabel(text: text, kind: kind, view: view, panel: panel, fontSize: fontSize, box: box))
                    return true
                }
            }
            return false
        }
        let height = (ascent + descent) * labelFont

        // Captions first, cut to their panel's width and gap.
        if let captions {
            for (index, panel) in panels.enumerated() {
                let x = arrangement.originsPx[index].x + panel.bounds.minX * scale
                let top = arrangement.originsPx[index].y + panel.bounds.minY * scale - 8 - ascent * captionFont
                let room = panel.bounds.width * scale + panelGap - 4
                let text = abbreviated(captions[index], toFit: room, fontSize: captionFont) ?? String(captions[index].prefix(1))
                guard let placed = place(text, kind: .caption, view: nil, panel: index, fontSize: captionFont,
                                         at: [(x, top)], withinArea: false, &out) else { return nil }
                _ = placed
            }
        }

        var labelled = 0
        for (index, panel) in panels.enumerated() {
            let origin = arrangement.originsPx[index]
            func pixels(_ box: Box) -> Rect {
                let drawn = normalized(box)
                return Rect(x: origin.x + drawn.x * scale, y: origin.y + drawn.y * scale,
                            width: drawn.width * scale, height: drawn.height * scale)
            }
            let prefix = captions.map { "[\($0[index])] " } ?? ""
            if panel.isRejected {
                let rect = pixels(Box(x: 0, y: 0, width: panel.bounds.width, height: panel.bounds.height))
                let text = "not laid out: \(panel.rejection)"
                let fitting = abbreviated(text, toFit: max(rect.width - 6, 60), fontSize: labelFont) ?? "not laid out"
                guard let placed = place(fitting, kind: .problem, view: "superview", panel: index, fontSize: labelFont,
                                         at: insidePositions(rect, width: labelWidth(fitting, fontSize: labelFont), height: height)
                                            + outsidePositions(rect, width: labelWidth(fitting, fontSize: labelFont), height: height),
                                         withinArea: true, &out) else { return nil }
                _ = placed
                continue
            }
            var subjects: [Subject] = []
            subjects.reserveCapacity(hierarchy.count + panel.guides.count)
            for view in 0..<hierarchy.count {
                let frame = panel.reported[view]
                let fields = panel.marks[view].ambiguous
                func field(_ value: Double, _ name: String) -> String { number(value) + (fields.contains(name) ? "?" : "") }
                let size = "\(field(frame.width, "width"))×\(field(frame.height, "height"))"
                let name = hierarchy.names[view]
                subjects.append(Subject(view: view, name: name, rect: pixels(panel.absolute[view]),
                                        full: "\(name)  \(field(frame.x, "x")),\(field(frame.y, "y")) \(size)",
                                        short: "\(name) \(size)"))
            }
            for (offset, guide) in panel.guides.enumerated() {
                // A guide's fields are judged for ambiguity like a view's (the contract's
                // "Layout guides and the safe area"): same `?` marks (GuideAnswerTests.aGuidesLabelMarksAmbiguousFieldsLikeAView).
                let fields = hierarchy.index(of: guide.name).map { $0 < panel.marks.count ? panel.marks[$0].ambiguous : [] } ?? []
                func field(_ value: Double, _ name: String) -> String { number(value) + (fields.contains(name) ? "?" : "") }
                let size = "\(field(guide.width, "width"))×\(field(guide.height, "height"))"
                subjects.append(Subject(view: hierarchy.count + offset, name: guide.name, rect: pixels(panel.guideBoxes[offset]),
                                        full: "\(guide.name)  \(field(guide.x, "x")),\(field(guide.y, "y")) \(size)",
                                        short: "\(guide.name) \(size)"))
            }
            let avoidEdges = panels.count * subjects.count <= maxViewsAvoided
            obstacles = ObstacleGrid()
            if avoidEdges {
                guard out.charge(32 * subjects.count) else { return nil }
                for subject in subjects { obstacles.insert(subject.rect, owner: subject.view) }
            }
            // Smallest first: the large views (the container last) have room elsewhere.
            let order = subjects.indices.sorted { left, right in
                let a = subjects[left].rect.width * subjects[left].rect.height
                let b = subjects[right].rect.width * subjects[right].rect.height
                return a != b ? a < b : left < right
            }
            for position in order {
                guard labelled < maxLabelledViews else {
                    set.unlisted += 1
                    continue
                }
                labelled += 1
                let subject = subjects[position]
                let rect = subject.rect
                var attempts: [(text: String, kind: LabelKind, positions: [(x: Double, y: Double)])] = []
                func inside(_ text: String) {
                    let positions = insidePositions(rect, width: labelWidth(text, fontSize: labelFont), height: height)
                    if !positions.isEmpty { attempts.append((text, .inside, positions)) }
                }
                func outside(_ text: String) {
                    attempts.append((text, .outside, outsidePositions(rect, width: labelWidth(text, fontSize: labelFont), height: height)))
                }
                inside(subject.full)
                inside(subject.short)
                outside(subject.full)
                outside(subject.short)
                inside(subject.name)
                outside(subject.name)
                guard out.charge(2 * subject.name.utf8.count) else { return nil }
                if let cut = abbreviated(subject.name, toFit: rect.width - 6, fontSize: labelFont), cut != subject.name {
                    inside(cut)
                }
                if let cut = abbreviated(subject.name, toFit: 12 * characterWidth * labelFont, fontSize: labelFont), cut != subject.name {
                    outside(cut)
                }
                // First off every other view's edges, then anywhere free.
                var placed = false
                passes: for clean in avoidEdges ? [true, false] : [false] {
                    for attempt in attempts {
                        guard let done = place(attempt.text, kind: attempt.kind, view: subject.name, panel: index, fontSize: labelFont,
                                               at: attempt.positions, withinArea: attempt.kind == .outside,
                                               cleanFor: clean ? subject.view : nil, &out) else { return nil }
                        if done { placed = true; break passes }
                    }
                }
                if placed { continue }
                guard set.legend.count < maxNumberedViews else {
                    set.unlisted += 1
                    continue
                }
                let numberText = String(set.legend.count + 1)
                set.numbers[index][subject.view] = set.legend.count + 1
                set.legend.append("\(numberText)  \(prefix)\(subject.full)")
                let width = labelWidth(numberText, fontSize: numberFont)
                let tall = (ascent + descent) * numberFont
                guard place(numberText, kind: .number, view: subject.name, panel: index, fontSize: numberFont,
                            at: insidePositions(rect, width: width, height: tall) + outsidePositions(rect, width: width, height: tall),
                            withinArea: true, &out) != nil else { return nil }
            }
        }
        return set
    }

    /// `text`, or its longest prefix followed by `…`, whose label is at most `width`
    /// pixels wide at `fontSize`; `nil` when not even one character and `…` fit.
    ///
    /// - Complexity: O(length of `text`).
    static func abbreviated(_ text: String, toFit width: Double, fontSize: Double) -> String? {
        if labelWidth(text, fontSize: fontSize) <= width { return text }
        let cell = characterWidth * fontSize
        // The ellipsis takes one cell.
        var used = 1
        var end = text.startIndex
        var fits = false
        for index in text.indices {
            let character = text[index]
            let cells = character.unicodeScalars.reduce(0) { $0 + columns($1) }
            if Double(used + cells) * cell > width { break }
            used += cells
            end = text.index(after: index)
            fits = true
        }
        return fits ? String(text[..<end]) + "…" : nil
    }

    // MARK: - Problems and legend

    /// The layouts' problems as one message each, in order of first appearance, each
    /// once (with the captions of the panels it occurs in when there are several panels
    /// and it is not in all of them): `Conflict (views a, b): …`, `Ambiguous: …`,
    /// `Negative size: …`, otherwise the diagnostic's code.
    static func problemList(compiled: CompiledScene, layouts: [Layout], captions: [String]?) -> [String] {
        var order: [String] = []
        // Looked up only; the output follows `order`.
        var panelsOf: [String: [Int]] = [:]
        func add(_ diagnostic: LayoutDiagnostic, panel: Int?) {
            let kind: String
            switch diagnostic.code {
            case .unsatisfiableConstraints:
                var names: [String] = []
                var texts: [String] = []
                if let broken = diagnostic.broken { texts.append(broken.text) }
                texts += (diagnostic.conflicting ?? []).map(\.text)
                for text in texts {
                    for name in referencedNames(in: text) where !names.contains(name) && names.count < 12 { names.append(name) }
                }
                kind = names.isEmpty ? "Conflict" : "Conflict (views \(names.joined(separator: ", ")))"
            case .ambiguousLayout: kind = "Ambiguous"
            case .negativeSize: kind = "Negative size"
            default: kind = diagnostic.code.rawValue
            }
            let message = "\(kind): \(diagnostic.message)"
            if panelsOf[message] == nil { order.append(message) }
            if let panel { panelsOf[message, default: []].append(panel) }
        }
        for diagnostic in compiled.diagnostics { add(diagnostic, panel: nil) }
        for (index, layout) in layouts.enumerated() {
            for diagnostic in layout.diagnostics { add(diagnostic, panel: index) }
        }
        var result: [String] = []
        for message in order.prefix(maxProblemMessages) {
            if let captions, layouts.count > 1, let panels = panelsOf[message], Set(panels).count < layouts.count {
                var seen = Set<Int>()
                let named = panels.filter { seen.insert($0).inserted }.prefix(6).map { $0 < captions.count ? captions[$0] : "" }
                let more = seen.count > 6 ? ", …" : ""
                result.append("[\(named.joined(separator: ", "))\(more)] \(message)")
            } else {
                result.append(message)
            }
        }
        if order.count > maxProblemMessages {
            result.append("… and \(order.count - maxProblemMessages) more problems: the JSON answer lists every diagnostic")
        }
        return result
    }

    /// The problems list's lines: a heading, then each message wrapped to `width` pixels
    /// at ``listFont`` (at most ``maxProblemLines`` lines, the last ending in `…`).
    static func wrapProblems(_ problems: [String], width: Double) -> [String] {
        guard !problems.isEmpty else { return [] }
        let columns = max(20, Int((width - 2 * margin) / (characterWidth * listFont)))
        var lines = ["⚠ \(problems.count) problem\(problems.count == 1 ? "" : "s") in this layout:"]
        for problem in problems {
            var wrapped = wrap(problem.replacingOccurrences(of: "\n", with: " "), columns: columns - 2)
            if wrapped.count > maxProblemLines {
                wrapped = Array(wrapped.prefix(maxProblemLines))
                wrapped[maxProblemLines - 1] = String(wrapped[maxProblemLines - 1].prefix(columns - 3)) + "…"
            }
            for (index, line) in wrapped.enumerated() { lines.append((index == 0 ? "• " : "  ") + line) }
        }
        return lines
    }

    /// `text` in lines of at most `columns` characters, broken at spaces where possible.
    static func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while rest.count > columns {
            let window = rest.prefix(columns + 1)
            if let space = window.lastIndex(of: " "), space > rest.startIndex {
                lines.append(String(rest[..<space]))
                rest = rest[rest.index(after: space)...]
            } else {
                let end = rest.index(rest.startIndex, offsetBy: columns)
                lines.append(String(rest[..<end]))
                rest = rest[end...]
            }
        }
        if !rest.isEmpty || lines.isEmpty { lines.append(String(rest)) }
        return lines
    }

    /// The legend's lines: a heading, then the numbered views in columns (each entry cut
    /// to 60 characters), and a count of the views beyond ``maxNumberedViews``.
    static func legendLines(_ labels: LabelSet, width: Double) -> [String] {
        guard !labels.legend.isEmpty || labels.unlisted > 0 else { return [] }
        let entries = labels.legend.map { $0.count > 60 ? String($0.prefix(59)) + "…" : $0 }
        let entryWidth = (entries.map(\.count).max() ?? 0) + 3
        let available = max(20, Int((width - 2 * margin) / (characterWidth * listFont)))
        let columns = max(1, available / max(1, entryWidth))
        let rows = (entries.count + columns - 1) / columns
        var lines = ["Numbered views (no room for their label):"]
        for row in 0..<rows {
            var line = ""
            for column in 0..<columns {
                let index = column * rows + row
                guard index < entries.count else { break }
                if column > 0 { line += String(repeating: " ", count: max(0, entryWidth * column - line.count)) }
                line += entries[index]
            }
            lines.append(line)
        }
        if labels.unlisted > 0 {
            lines.append("… and \(labels.unlisted) more views and guides without a label: the JSON answer lists every frame")
        }
        return lines
    }

    // MARK: - Drawing

    /// The views of one panel, parents before children, without recursion (the depth
    /// of a scene is bounded by a limit, but the drawing must not rely on it).
    private static func writeViews(panel: Panel, children: [[Int]], hierarchy: ViewHierarchy, numbers: [Int], into out: inout SVGWriter) {
        // A stack of (view, isClosing): opening a view writes its rect and pushes its
        // closing marker, then its children in reverse (so they come out by name).
        var stack: [(view: Int, isClosing: Bool)] = [(0, false)]
        while let (view, isClosing) = stack.popLast() {
            guard out.isWriting else { return }
            if isClosing {
                out.raw("</g>\n")
                continue
            }
            writeViewOpening(view, panel: panel, hierarchy: hierarchy, number: numbers[view], into: &out)
            stack.append((view, true))
            for child in children[view].reversed() {
                stack.append((child, false))
            }
        }
    }

    private static func writeViewOpening(_ view: Int, panel: Panel, hierarchy: ViewHierarchy, number labelNumber: Int, into out: inout SVGWriter) {
        let frame = panel.reported[view]
        let mark = panel.marks[view]
        var classes = view == 0 ? "view container" : "view"
        if view != 0 && hierarchy.depths[view] % 2 == 0 { classes += " alternate" }
        if panel.isStack[view] { classes += " stack" }
        if !mark.messages.isEmpty { classes += " warning" }
        if mark.conflict { classes += " conflict" }
        if !mark.ambiguous.isEmpty { classes += " ambiguous" }
        if mark.negative { classes += " negative" }
        out.raw("<g")
        out.attribute("class", classes)
        out.attribute("data-view", hierarchy.names[view])
        if labelNumber > 0 { out.attribute("data-label", String(labelNumber)) }
        out.raw(">\n<rect")
        out.attribute("data-x", number(frame.x))
        out.attribute("data-y", number(frame.y))
        out.attribute("data-width", number(frame.width))
        out.attribute("data-height", number(frame.height))
        let drawn = normalized(panel.absolute[view])
        out.attribute("x", number(drawn.x))
        out.attribute("y", number(drawn.y))
        out.attribute("width", number(drawn.width))
        out.attribute("height", number(drawn.height))
        if mark.messages.isEmpty {
            out.raw("/>\n")
        } else {
            out.raw("><title>")
            out.text(mark.messages.joined(separator: "\n"))
            out.raw("</title></rect>\n")
        }
        if mark.negative {
            // A cross over the rect: the size is negative.
            out.raw("<path class=\"flag\"")
            let right = drawn.x + drawn.width, bottom = drawn.y + drawn.height
            out.attribute("d", "M\(number(drawn.x)) \(number(drawn.y))L\(number(right)) \(number(bottom))M\(number(right)) \(number(drawn.y))L\(number(drawn.x)) \(number(bottom))")
            out.raw("/>\n")
        }
    }

    /// The panel's layout guides, dashed, after its views.
    private static func writeGuides(panel: Panel, hierarchy: ViewHierarchy, into out: inout SVGWriter) {
        for (index, guide) in panel.guides.enumerated() {
            guard out.isWriting else { return }
            let drawn = normalized(panel.guideBoxes[index])
            let messages = hierarchy.index(of: guide.name).map { $0 < panel.marks.count ? panel.marks[$0].messages : [] } ?? []
            out.raw("<g")
            out.attribute("class", messages.isEmpty ? "guide" : "guide warning")
            out.attribute("data-guide", guide.name)
            if hierarchy.names.indices.contains(guide.owner) { out.attribute("data-owner", hierarchy.names[guide.owner]) }
            out.raw("><rect")
            out.attribute("data-x", number(guide.x))
            out.attribute("data-y", number(guide.y))
            out.attribute("data-width", number(guide.width))
            out.attribute("data-height", number(guide.height))
            out.attribute("x", number(drawn.x))
            out.attribute("y", number(drawn.y))
            out.attribute("width", number(drawn.width))
            out.attribute("height", number(drawn.height))
            if messages.isEmpty {
                out.raw("/></g>\n")
            } else {
                out.raw("><title>")
                out.text(messages.joined(separator: "\n"))
                out.raw("</title></rect></g>\n")
            }
        }
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
        out.raw("</title></rect>\n</g>\n")
    }

    // MARK: - Geometry and diagnostics of one panel

    /// What the diagnostics say about one view: the messages of its tooltip, whether a
    /// conflict names it, its ambiguous fields (`x`, `y`, `width`, `height`, in that
    /// order), and whether a size is negative.
    struct Mark {
        var messages: [String] = []
        var conflict = false
        var ambiguous: [String] = []
        var negative = false
    }

    /// One layout measured for drawing: reported and absolute frames, bounds, the marks
    /// of each view (indices as in ``ViewHierarchy``) and the guides.
    struct Panel {
        var reported: [Box]
        var absolute: [Box]
        var marks: [Mark]
        var guides: [Guide]
        /// The guides' rectangles relative to the container's origin.
        var guideBoxes: [Box]
        var bounds: Bounds
        var isRejected: Bool
        /// The first error's message of a rejected layout.
        var rejection: String
        /// Whether each view is a stack view (drawn dashed, class `stack`).
        var isStack: [Bool]

        init(layout: Layout, compiled: CompiledScene, hierarchy: ViewHierarchy, marks: [Mark], guides: [Guide]) {
            let count = hierarchy.count
            reported = (0..<count).map { index in
                index < layout.frames.count ? WireframeRenderer.finite(layout.frames[index].frame) : Box(x: 0, y: 0, width: 0, height: 0)
            }
            let relativeToRoot = compiled.scene.options.coordinates == .root
            absolute = WireframeRenderer.absoluteFrames(reported, hierarchy: hierarchy, relativeToRoot: relativeToRoot)
            self.marks = marks
            isRejected = layout.isRejected
            rejection = layout.diagnostics.first(where: \.isError)?.message ?? "rejected"
            self.guides = isRejected ? [] : guides
            let owners = absolute
            guideBoxes = self.guides.map { guide in
                var box = Box(x: finiteOrZero(guide.x), y: finiteOrZero(guide.y),
                              width: finiteOrZero(guide.width), height: finiteOrZero(guide.height))
                if !relativeToRoot && owners.indices.contains(guide.owner) {
                    box.x += owners[guide.owner].x
                    box.y += owners[guide.owner].y
                }
                return box
            }
            isStack = [false] + compiled.scene.views.map { $0.stack != nil }
            var bounds = Bounds(minX: 0, minY: 0, maxX: finiteOrZero(layout.containerWidth), maxY: finiteOrZero(layout.containerHeight))
            if !layout.isRejected {
                for frame in absolute + guideBoxes {
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

    /// What to show on each view: the messages of diagnostics naming it by `view`, and
    /// of conflicts whose broken or conflicting constraints mention `NAME.` in their
    /// text (in diagnostic order, each message once), with the conflict, ambiguity and
    /// negative-size marks.
    static func marks(_ diagnostics: [LayoutDiagnostic], hierarchy: ViewHierarchy) -> [Mark] {
        var marks = Array(repeating: Mark(), count: hierarchy.itemCount)
        // Membership only (never iterated): keeps a view in thousands of conflicts linear.
        var shown = Array(repeating: Set<String>(), count: hierarchy.itemCount)
        func add(_ message: String, to view: Int) {
            if shown[view].insert(message).inserted { marks[view].messages.append(message) }
        }
        for diagnostic in diagnostics {
            switch diagnostic.code {
            case .ambiguousLayout, .negativeSize:
                if let name = diagnostic.view, let view = hierarchy.index(of: name) {
                    add(diagnostic.message, to: view)
                    if diagnostic.code == .negativeSize {
                        marks[view].negative = true
                    } else if let field = diagnostic.attribute, !marks[view].ambiguous.contains(field) {
                        marks[view].ambiguous.append(field)
                        marks[view].ambiguous.sort { fieldOrder($0) < fieldOrder($1) }
                    }
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
                for view in seen.sorted() {
                    add(diagnostic.message, to: view)
                    marks[view].conflict = true
                }
            default:
                if let name = diagnostic.view, let view = hierarchy.index(of: name) {
                    add(diagnostic.message, to: view)
                }
            }
        }
        return marks
    }

    private static func fieldOrder(_ field: String) -> Int {
        ["x", "y", "width", "height"].firstIndex(of: field) ?? 4
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

    /// `data-scale`: pixels per point rounded to 6 significant digits (`%.6g`: `0.728223`,
    /// `8.192`, `16`, `2.83809e-05` below 10⁻⁴), so a small scale keeps its precision
    /// without printing 17 digits.
    static func scaleText(_ scale: Double) -> String {
        String(format: "%.6g", finiteOrZero(scale))
    }

    /// A number as `/solve` writes it (rounded to 6 places, integral without a fraction).
    static func number(_ value: Double) -> String {
        JSONWriter.format(roundedForResponse(finiteOrZero(value)))
    }
}

private func finiteOrZero(_ value: Double) -> Double { value.isFinite ? value : 0 }
