import LayoutCompiler

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
///     <g class="text" data-view="body" font-family="'Inter', sans-serif" font-size="15" …>
///       <text x="16" y="46.52" textLength="…" …>Tomorrow will be sunny</text> …  (labels' lines)
///     </g>
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
/// - **Labels' text** (views with `text`) is drawn in its font at its measured baselines,
///   a truncated label outlined and ended with `…` (`+Text`, ``writeTexts(_:into:)``).
/// - Text and attribute values are XML-escaped (`& < > " '`); characters that XML 1.0
///   forbids (C0 controls other than tab, LF, CR; U+FFFE, U+FFFF) become U+FFFD;
///   directional formatting characters are written as character references. No
///   script, no reference to anything outside the document.
/// - Deterministic: the same inputs give the same bytes (views in hierarchy order,
///   children by name, labels placed smallest view first, numbers in the `/solve` JSON spelling).
///
/// The type is written in files by concern: the entry points, the stylesheet and the
/// dimensions (this file); the document written in one pass (`+Document`); panels
/// arranged in rows and scaled (`+Arrangement`); one layout measured and its diagnostics
/// matched to its views (`+Panel`); labels placed (`+Labels`, on the grids of
/// `LabelPlacer.swift`); the problems and legend lists (`+Lists`). Every byte goes
/// through ``SVGWriter``.
public struct WireframeRenderer: Sendable {
    /// The text of the wireframe's `<style>` element, exactly: a `Content-Security-Policy`
    /// allows it by its SHA-256 (``PlaygroundPage/contentSecurityPolicy`` and the SVG
    /// answer's own policy), so any change here changes the hash with it. Strokes do not
    /// scale (`vector-effect`): an outline is 1–2 px at any scale.
    public static let stylesheet = """

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
    .layoutd-wireframe .text > text { fill: #111; pointer-events: none; }
    .layoutd-wireframe .text > rect.outline { fill: none; stroke: #c2255c; stroke-width: 1.5; stroke-dasharray: 3 2; }
    .layoutd-wireframe .text > text.ellipsis { fill: #c2255c; font-weight: bold; }

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
    /// promise of about 3.5 s of one core (e2e `hostile/answers-svg-names-sizes`; the unit:
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
    ///   - texts: the labels' lines of each layout (same order as `layouts`; missing
    ///     entries draw none), drawn in their fonts at their baselines (``writeTexts(_:into:)``):
    ///     ``SceneText/drawnLabels(in:budget:)`` with at most ``maxDrawnTextBytes``.
    /// - Complexity: O(`maxWork`) at most.
    public static func svg(compiled: CompiledScene, layouts: [Layout], sizes: [ContainerSize]?,
                           display: WireframeDisplay = WireframeDisplay(), guides: [[Guide]]? = nil,
                           texts: [[DrawnLabel]] = [],
                           maxBytes: Int, pool: (any AnswerBytePool)?, maxWork: Int) -> Output {
        var out = SVGWriter(limit: maxBytes, pool: pool, maxWork: maxWork)
        let guides = guides ?? layouts.map { Self.guides(of: $0, hierarchy: compiled.hierarchy) }
        render(compiled: compiled, layouts: layouts, sizes: sizes, display: display, guides: guides, texts: texts, into: &out)
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
}
