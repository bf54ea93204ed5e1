import Cassowary
import LayoutSyntax

/// The views of a scene as a tree of indices, with the solver variables of each view.
///
/// Index 0 is the container (`superview`); views follow sorted by name. Each view has
/// four solver variables: its origin relative to the **container** (`x`, `y`) and its
/// size (`width`, `height`), all in points, y down. The container's origin is the
/// constant (0, 0), so only its size has variables.
public struct ViewHierarchy: Sendable, ViewNameLookup {
    /// `names[0] == "superview"`; the rest sorted by name.
    public let names: [String]
    /// The parent's index of each view; `parents[0] == 0`.
    public let parents: [Int]
    /// Depth in the tree: 0 for the container.
    public let depths: [Int]
    private let indexByName: [String: Int]

    /// Builds the tree from views already validated by ``SceneDecoder`` (sorted, acyclic).
    public init(views: [ViewSpec]) {
        var names: [String] = []
        names.reserveCapacity(views.count + 1)
        names.append("superview")
        var indexByName = [String: Int](minimumCapacity: views.count + 1)
        indexByName["superview"] = 0
        for index in views.indices {
            indexByName[views[index].name] = names.count
            names.append(views[index].name)
        }
        var parents: [Int] = []
        parents.reserveCapacity(views.count + 1)
        parents.append(0)
        for index in views.indices {
            parents.append(views[index].parent.flatMap { indexByName[$0] } ?? 0)
        }
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
        self.names = names
        self.parents = parents
        self.depths = depths
        self.indexByName = indexByName
    }

    public var count: Int { names.count }

    /// The index of the view named `name` (`superview` is 0), or `nil`.
    public func index(of name: String) -> Int? { indexByName[name] }

    /// Views the VFL parser tells from metrics (Apple's views dictionary): the container
    /// too, so `[a(==superview)]` reaches the compiler's own message for it.
    public func containsView(named name: String) -> Bool { indexByName[name] != nil }

    /// ``names``: `superview`, then the views sorted by name.
    public var viewNames: [String] { names }

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
    public func xVariable(_ view: Int) -> Variable { Variable(id: 4 * view) }
    /// y of the view's origin relative to the container's origin, points.
    public func yVariable(_ view: Int) -> Variable { Variable(id: 4 * view + 1) }
    public func widthVariable(_ view: Int) -> Variable { Variable(id: 4 * view + 2) }
    public func heightVariable(_ view: Int) -> Variable { Variable(id: 4 * view + 3) }

    /// The view's x relative to the container, as an expression (the constant 0 for the container).
    public func absoluteX(_ view: Int) -> Expression {
        view == 0 ? Expression() : Expression(terms: [Term(xVariable(view), 1)])
    }

    /// The view's y relative to the container, as an expression (the constant 0 for the container).
    public func absoluteY(_ view: Int) -> Expression {
        view == 0 ? Expression() : Expression(terms: [Term(yVariable(view), 1)])
    }
}
