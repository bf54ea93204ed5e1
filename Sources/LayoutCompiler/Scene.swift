import LayoutSyntax

/// A decoded scene: the request body of `POST /solve` (contract, "Request: a scene").
///
/// All lengths are in points. Names are validated by ``SceneDecoder``; views are kept
/// sorted by name so nothing downstream depends on JSON member order.
public struct Scene: Sendable {
    /// The root view, always named `superview`.
    public var container: Container
    /// The views other than the container, sorted by name.
    public var views: [ViewSpec]
    /// The layout guides (`guides`), sorted by name; see ``GuideSpec``.
    public var guides: [GuideSpec] = []
    /// Metric name → value in points, usable in VFL and equations.
    public var metrics: [String: Double]
    /// The scene's constraint entries, in request order.
    public var constraints: [ConstraintEntry]
    /// Named groups to include, in request order.
    public var groups: [GroupReference]
    public var options: Options
    /// Container sizes to solve at (`sizes`); `nil` for a single layout.
    public var sizes: [ContainerSize]?
    /// The frame fields to explain (`explain`, contract "Explaining a frame"), as asked:
    /// each names a view and one field, or all four. Empty for none.
    public var explain: [FieldReference] = []

    public init(container: Container = Container(), views: [ViewSpec] = [], metrics: [String: Double] = [:],
                constraints: [ConstraintEntry] = [], groups: [GroupReference] = [], options: Options = Options(),
                sizes: [ContainerSize]? = nil) {
        self.container = container
        self.views = views
        self.metrics = metrics
        self.constraints = constraints
        self.groups = groups
        self.options = options
        self.sizes = sizes
    }

    /// About how many bytes it holds: its constraint texts and labels' strings, 300 per view
    /// or guide and 100 per constraint, metric, size and stack entry (arranged view or
    /// custom spacing) for the rest. An estimate for cache limits.
    /// - Complexity: O(constraints + views).
    public var approximateByteCount: Int {
        var bytes = 300 * (views.count + guides.count) + 100 * (constraints.count + metrics.count + (sizes?.count ?? 0))
        for entry in constraints { bytes += entry.source.utf8.count }
        for view in views {
            if let stack = view.stack { bytes += 100 * (stack.arranged.count + stack.customSpacing.count) }
            if let text = view.text { bytes += text.string.utf8.count + text.family.utf8.count }
        }
        return bytes
    }
}

/// One entry of `explain`: `"VIEW"` (its four fields) or `"VIEW.FIELD"`.
extension Scene {
    /// The spec of the view at hierarchy index `view` (1 ..< 1 + `views.count`; see
    /// ``ViewHierarchy/index(ofSceneView:)``: the container, 0, has none).
    @inline(__always) func spec(ofView view: Int) -> ViewSpec { views[view - 1] }
}

public struct FieldReference: Sendable, Hashable {
    /// The fields a frame answers, in the order they are written.
    public static let fieldNames = ["x", "y", "width", "height"]

    /// A view's name (`superview` names the container).
    public var view: String
    /// One of ``fieldNames``, or `nil` for all four.
    public var field: String?

    public init(view: String, field: String? = nil) {
        self.view = view
        self.field = field
    }
}

/// A container size; a `nil` dimension is computed as the fitting size.
public struct ContainerSize: Sendable, Hashable {
    /// Points, or `nil` for the fitting size (`== 0` at priority 50).
    public var width: Double?
    /// Points, or `nil` for the fitting size (`== 0` at priority 50).
    public var height: Double?

    public init(width: Double? = nil, height: Double? = nil) {
        self.width = width
        self.height = height
    }
}

/// The container (root view): its size, margins and safe area.
public struct Container: Sendable {
    public var size: ContainerSize
    public var margins: Insets
    /// `container.safeArea`: the insets of the `safeArea` layout guide from the
    /// container's bounds, points (default 0 each side; UIKit's `safeAreaInsets`).
    public var safeArea = Insets(top: 0, left: 0, bottom: 0, right: 0)

    public init(size: ContainerSize = ContainerSize(), margins: Insets = Insets()) {
        self.size = size
        self.margins = margins
    }
}

/// Insets in points for the `…Margin` attributes (UIKit's `layoutMargins`; default 8 each side).
public struct Insets: Sendable, Hashable {
    public var top: Double = 8
    public var left: Double = 8
    public var bottom: Double = 8
    public var right: Double = 8

    public init(top: Double = 8, left: Double = 8, bottom: Double = 8, right: Double = 8) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Zero on every side (the default `safeArea` and `alignmentInsets`).
    public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)
}

/// A pair of priorities, one per axis (hugging or compression resistance).
public struct AxisPriorities: Sendable, Hashable {
    /// 1...1000.
    public var horizontal: Double
    /// 1...1000.
    public var vertical: Double
}

/// One view of the scene.
public struct ViewSpec: Sendable {
    public var name: String
    /// The parent's name, or `nil` for a child of the container.
    public var parent: String?
    /// Intrinsic content size in points per axis; `nil` is `UIView.noIntrinsicMetric`.
    public var intrinsicWidth: Double?
    public var intrinsicHeight: Double?
    /// Content hugging priorities (UIKit default 250).
    public var hugging = ViewSpec.defaultHugging
    /// Compression resistance priorities (UIKit default 750).
    public var compressionResistance = ViewSpec.defaultCompressionResistance
    /// Offset of the last baseline from the view's top, in points (`nil`: the bottom edge).
    public var baseline: Double?
    /// Offset of the first baseline from the view's top (`nil`: as ``baseline``).
    public var firstBaseline: Double?
    public var margins = Insets()
    /// `alignmentInsets` (UIKit's `alignmentRectInsets`), points, finite, negative allowed:
    /// the view's alignment rectangle is its frame inset by these. Constraints (edges,
    /// centres, sizes, baselines), the intrinsic size and stacks act on the alignment
    /// rectangle; the answered frame is it grown by the insets; the margin attributes are
    /// measured from the frame, as UIKit's `layoutMarginsGuide` is from the bounds; so are
    /// the positions of the view's subviews. Zero by default.
    public var alignmentInsets = Insets.zero
    /// `stack`: the view is a stack view (UIStackView) arranging these views; `nil` otherwise.
    public var stack: StackSpec?
    /// `hidden` (UIKit's `isHidden`): only an arranged view of a stack is laid out
    /// differently when hidden (see ``StackSpec``).
    public var isHidden = false
    /// `text`: the view is a label (UILabel) whose intrinsic size and baselines are its
    /// text measured (contract, "Text"); `nil` otherwise.
    public var text: TextSpec?
    /// Where the view was given in the request (`$.views[2]` for the array form), for
    /// diagnostics; `nil` for `$.views.NAME`.
    public var jsonPath: String?

    /// UIKit's default content hugging priorities (250 on each axis).
    static let defaultHugging = AxisPriorities(horizontal: 250, vertical: 250)
    /// UIKit's default compression resistance priorities (750 on each axis).
    static let defaultCompressionResistance = AxisPriorities(horizontal: 750, vertical: 750)
}

extension ViewSpec {
    // Declared outside the type so that the memberwise initializer is kept: the decoder
    // builds each view with it, in place, rather than mutating a copy field by field.
    /// A view named `name` under `parent` (`nil`: the container), every other field its default.
    public init(name: String, parent: String? = nil) {
        self.init(name: name, parent: parent, intrinsicWidth: nil, intrinsicHeight: nil,
                  hugging: ViewSpec.defaultHugging, compressionResistance: ViewSpec.defaultCompressionResistance,
                  baseline: nil, firstBaseline: nil, margins: Insets(), alignmentInsets: .zero,
                  stack: nil, isHidden: false, text: nil, jsonPath: nil)
    }
}

/// A label's `text` member (contract, "Text"): what is measured and how it wraps.
public struct TextSpec: Sendable, Hashable {
    /// At most ``TextSpec/maxStringLength`` characters.
    public var string: String
    /// `font.family`, as written (matched without regard to case; `system` is Inter).
    public var family = "system"
    /// `font.size`, points, in (0, ``TextSpec/maxFontSize``].
    public var size = 17.0
    /// `font.weight`, CSS 100–900.
    public var weight = 400
    public var italic = false
    /// 0 = as many as needed; 1 (the default) never wraps.
    public var numberOfLines = 1
    /// Points; 0 = automatic (the width the layout gives the label, found in passes).
    public var preferredMaxLayoutWidth = 0.0

    /// The most characters (Swift `Character`s, i.e. grapheme clusters) of a string.
    public static let maxStringLength = 10_000
    /// The largest font size, points (a documented bound: lines of a larger font would
    /// exceed every screen; operations.md).
    public static let maxFontSize = 1_000.0
    /// The most lines `numberOfLines` may ask for (0 is unlimited all the same).
    public static let maxNumberOfLines = 100_000

    public init(string: String) {
        self.string = string
    }
}

/// One entry of `constraints`: a VFL string or an equation, with its object fields.
public struct ConstraintEntry: Sendable {
    public enum Kind: Sendable, Hashable {
        case visualFormat(options: [String])
        case equation
    }
    public var kind: Kind
    /// The constraint text as written.
    public var source: String
    /// The object form's `id`.
    public var id: String?
    /// The object form's `priority` (1...1000), applied to parts that give none.
    public var priority: Double?

    public init(kind: Kind, source: String, id: String? = nil, priority: Double? = nil) {
        self.kind = kind
        self.source = source
        self.id = id
        self.priority = priority
    }
}

/// `"name"` or `"name@3"` in a scene's `groups`.
public struct GroupReference: Sendable, Hashable {
    public var name: String
    /// A pinned version, or `nil` for the current one.
    public var version: Int?

    /// A reference to `name`, pinned at `version` (`nil`: the current version).
    public init(name: String, version: Int?) {
        self.name = name
        self.version = version
    }
}

/// A stored group's content, resolved by the service for the compiler.
public struct ResolvedGroup: Sendable {
    public var name: String
    public var version: Int
    public var constraints: [ConstraintEntry]
    /// The group's own metrics; they override the scene's inside this group's constraints.
    public var metrics: [String: Double]

    public init(name: String, version: Int, constraints: [ConstraintEntry], metrics: [String: Double]) {
        self.name = name
        self.version = version
        self.constraints = constraints
        self.metrics = metrics
    }
}

/// `options` of a scene (contract defaults).
public struct Options: Sendable, Hashable {
    public enum LayoutDirection: String, Sendable { case leftToRight, rightToLeft }
    public enum ConflictPolicy: String, Sendable { case `break`, error }
    public enum AmbiguityPolicy: String, Sendable { case warn, error, ignore }
    public enum Coordinates: String, Sendable { case parent, root }

    /// VFL standard space between siblings, points (Apple: 8).
    public var siblingSpacing: Double = 8
    /// VFL standard space to the superview edge, points (Apple: 20).
    public var superviewSpacing: Double = 20
    public var layoutDirection: LayoutDirection = .leftToRight
    public var conflicts: ConflictPolicy = .break
    public var ambiguity: AmbiguityPolicy = .warn
    public var coordinates: Coordinates = .parent
    /// `displayScale`: 1, 2 or 3 pixels per point, or `nil` for exact values. Frames are
    /// answered with each view's edges in container coordinates rounded to the nearest
    /// `1/displayScale` point (halves away from zero), each frame derived from its
    /// rounded edges and its parent's.
    public var displayScale: Int?

    public init() {}
}
