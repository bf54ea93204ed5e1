import Cassowary
import LayoutSyntax

/// The views of a scene as a tree of indices, with the solver variables of each view.
///
/// Index 0 is the container (`superview`); views follow sorted by name (``count`` items
/// in all), then the layout guides sorted by name (``guides``), then the container's
/// `safeArea` guide (``safeArea``): ``itemCount`` items. A guide's parent is its owner,
/// so it takes part in coordinate spaces as a child of its owner. Each item has four
/// solver variables: its origin relative to the **container** (`x`, `y`) and its size
/// (`width`, `height`), all in points, y down. The container's origin is the constant
/// (0, 0), so only its size has variables.
public struct ViewHierarchy: Sendable, ViewNameLookup {
    /// `names[0] == "superview"`; the views sorted by name; the guides sorted by name;
    /// `safeArea`.
    public let names: [String]
    /// The parent's index of each item (a guide's: its owner's); `parents[0] == 0`.
    public let parents: [Int]
    /// Depth in the tree: 0 for the container.
    public let depths: [Int]
    /// Name → index, only when the views or the guides are not in strictly increasing
    /// name order (``ViewHierarchy`` built from unsorted specs); `nil` in the sorted case,
    /// where ``index(of:)`` searches ``names`` by bisection instead (no table to hash and
    /// build per compile).
    private let indexByName: [String: Int]?

    /// Views (the container and the scene's views): indices `0..<count`.
    public let count: Int
    /// Indices of the scene's layout guides (`guides`), sorted by name.
    public let guides: Range<Int>
    /// Index of the container's safe-area layout guide, the last item.
    public let safeArea: Int
    /// Views, guides and the safe area: every item with variables.
    public var itemCount: Int { names.count }

    /// Builds the tree from views and guides already validated by ``SceneDecoder``
    /// (sorted, acyclic, owners known).
    public init(views: [ViewSpec], guides: [GuideSpec] = []) {
        var names: [String] = []
        let total = views.count + guides.count + 2
        names.reserveCapacity(total)
        names.append("superview")
        // The decoder sorts views and guides by name (``Scene``): then a name is found by
        // bisection. Views or guides in another order (or with a name twice) get the table.
        var sorted = true
        for index in views.indices {
            if index > 0 && !(views[index - 1].name < views[index].name) { sorted = false }
            names.append(views[index].name)
        }
        self.count = names.count
        for index in guides.indices {
            if index > 0 && !(guides[index - 1].name < guides[index].name) { sorted = false }
            names.append(guides[index].name)
        }
        self.guides = count..<names.count
        self.safeArea = names.count
        names.append(GuideSpec.safeAreaName)
        if sorted {
            indexByName = nil
        } else {
            var table = [String: Int](minimumCapacity: total)
            for index in names.indices { table[names[index]] = index }
            indexByName = table
        }
        self.names = names
        let (count, guideRange, safeArea, table) = (self.count, self.guides, self.safeArea, self.indexByName)
        func lookUp(_ name: String) -> Int? {
            Self.find(name, names: names, count: count, guides: guideRange, safeArea: safeArea, table: table)
        }
        var parents: [Int] = []
        parents.reserveCapacity(total)
        parents.append(0)
        for index in views.indices {
            parents.append(views[index].parent.flatMap { lookUp($0) } ?? 0)
        }
        for guide in guides {
            parents.append(guide.owner.flatMap { lookUp($0) } ?? 0)
        }
        parents.append(0)
        var depths = Array(repeating: -1, count: names.count)
        depths[0] = 0
        var chain: [Int] = []
        for start in names.indices {
            // Walk up to a view of known depth (the chain is acyclic, validated earlier).
            chain.removeAll(keepingCapacity: true)
            var current = start
            while depths[current] < 0 {
                chain.append(current)
                current = parents[current]
            }
            var depth = depths[current]
            for index in chain.reversed() {
                depth += 1
                depths[index] = depth
            }
        }
        self.parents = parents
        self.depths = depths
    }

    /// The index of the view or guide named `name` (`superview` is 0), or `nil`.
    /// By bytes: the names are ASCII, and a name with another character (which Swift's
    /// `String` hashing may equate with one of them: `x` + U+212A and `xK`) is none of them.
    public func index(of name: String) -> Int? { isASCII(name) ? lookUp(name) : nil }

    /// ``find(_:names:count:guides:safeArea:table:)`` in this hierarchy.
    private func lookUp(_ name: String) -> Int? {
        Self.find(name, names: names, count: count, guides: guides, safeArea: safeArea, table: indexByName)
    }

    /// The index of `name` in `names`, the last item of that name: `safeArea`, a guide, a
    /// view, `superview`, in that precedence (a table filled in index order has it too).
    /// `table` when the views or guides are not sorted, else bisection.
    /// - Complexity: O(log items) string comparisons when sorted.
    private static func find(_ name: String, names: [String], count: Int, guides: Range<Int>, safeArea: Int,
                             table: [String: Int]?) -> Int? {
        if let table { return table[name] }
        if name == names[safeArea] { return safeArea }
        if let guide = bisect(name, in: guides, of: names) { return guide }
        if let view = bisect(name, in: 1..<count, of: names) { return view }
        return name == names[0] ? 0 : nil
    }

    /// The index of `name` in `names[range]`, which is in strictly increasing order.
    private static func bisect(_ name: String, in range: Range<Int>, of names: [String]) -> Int? {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if names[middle] < name { low = middle + 1 } else { high = middle }
        }
        return low < range.upperBound && names[low] == name ? low : nil
    }

    /// Whether item `index` is a layout guide (one of ``guides``, or ``safeArea``).
    public func isGuide(_ index: Int) -> Bool { index >= count }

    /// Views the VFL parser tells from metrics (Apple's views dictionary): the container
    /// too, so `[a(==superview)]` reaches the compiler's own message for it, and the
    /// layout guides, so a guide in VFL is an `unknown_view` that says it is a guide
    /// rather than an unknown metric.
    public func containsView(named name: String) -> Bool { index(of: name) != nil }

    /// Whether `name` is a layout guide (`guides` or `safeArea`), which VFL does not take.
    public func isLayoutGuide(named name: String) -> Bool { index(of: name).map(isGuide) ?? false }

    /// `superview`, then the views sorted by name (no guides: VFL names views only).
    public var viewNames: [String] { Array(names[..<count]) }

    /// ``viewNames``' count: the views and `superview`.
    public var viewNameCount: Int { count }

    /// The deepest view that is an ancestor of both `a` and `b`, or one of them.
    ///
    /// - Complexity: O(depth).
    public func nearestCommonAncestorOrSelf(_ a: Int, _ b: Int) -> Int {
        var a = a
        var b = b
        while depths[a] > depths[b] { a = parents[a] }
        while depths[b] > depths[a] { b = parents[b] }
        while a != b {
            a = parents[a]
            b = parents[b]
        }
        return a
    }

    // MARK: Variables

    /// x of the view's origin relative to the container's origin, points.
    public func xVariable(_ view: Int) -> Variable { FrameField(view: view, .x).variable }
    /// y of the view's origin relative to the container's origin, points.
    public func yVariable(_ view: Int) -> Variable { FrameField(view: view, .y).variable }
    /// The view's width, points.
    public func widthVariable(_ view: Int) -> Variable { FrameField(view: view, .width).variable }
    /// The view's height, points.
    public func heightVariable(_ view: Int) -> Variable { FrameField(view: view, .height).variable }

    /// The hierarchy index of `scene.views[offset]`: the container is 0 and the views
    /// follow in the scene's order (the decoder sorts them by name).
    @inline(__always) public static func index(ofSceneView offset: Int) -> Int { offset + 1 }

    /// The view's x relative to the container, as an expression (the constant 0 for the container).
    public func absoluteX(_ view: Int) -> Expression {
        view == 0 ? Expression() : Expression(terms: [Term(xVariable(view), 1)])
    }

    /// The view's y relative to the container, as an expression (the constant 0 for the container).
    public func absoluteY(_ view: Int) -> Expression {
        view == 0 ? Expression() : Expression(terms: [Term(yVariable(view), 1)])
    }
}
