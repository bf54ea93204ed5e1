/// The relation of a ``Constraint``'s expression to zero.
public enum RelationalOperator: Sendable, Hashable {
    /// `expression <= 0`
    case lessThanOrEqual
    /// `expression == 0`
    case equal
    /// `expression >= 0`
    case greaterThanOrEqual
}

/// A linear constraint `expression relation 0` at a ``Strength``.
///
/// The error of a non-required constraint is measured on the expression as written
/// (not normalised): `|e|` for `==`, `max(0, e)` for `<=`, `max(0, -e)` for `>=`, with
/// weight 1 inside its strength level.
public struct Constraint: Hashable, Sendable {
    /// The left-hand side; the right-hand side is 0.
    public var expression: Expression
    /// How `expression` relates to 0.
    public var relation: RelationalOperator
    /// The priority level; ``Strength/required`` by default.
    public var strength: Strength

    /// Creates `expression relation 0` at `strength`.
    public init(_ expression: Expression, _ relation: RelationalOperator, strength: Strength = .required) {
        self.expression = expression
        self.relation = relation
        self.strength = strength
    }

    /// The error of this constraint when its expression evaluates to `residual`:
    /// `|r|` for `==`, `max(0, r)` for `<=`, `max(0, -r)` for `>=`.
    public func violation(residual r: Double) -> Double {
        switch relation {
        case .equal: return abs(r)
        case .lessThanOrEqual: return max(0, r)
        case .greaterThanOrEqual: return max(0, -r)
        }
    }
}

/// Identifies a constraint added to one ``Solver``: handles are handed out
/// sequentially (0, 1, 2, …) per solver and never reused, so they also record the
/// order of addition. A copied solver keeps the handles of the original.
///
/// Inside the solver a handle is also the index of the constraint's entry in its
/// per-constraint tables (``index``), and ``invalid`` stands for "no constraint" (the
/// owner of a symbol no constraint owns). A wrapper of one `Int`: the same size and
/// layout as the index, so tables of handles cost what tables of integers cost.
@frozen public struct ConstraintHandle: Hashable, Comparable, Sendable {
    /// The sequence number of the addition; -1 for ``invalid``.
    public let rawValue: Int

    /// Wraps a sequence number (for tests and tables; the solver creates handles).
    @inline(__always) public init(rawValue: Int) { self.rawValue = rawValue }

    /// "No constraint": never returned by a solver.
    static let invalid = ConstraintHandle(rawValue: -1)

    /// Whether this names a constraint (is not ``invalid``).
    @inline(__always) var isValid: Bool { rawValue >= 0 }

    /// The index of the constraint's entry in the solver's per-constraint tables
    /// (`records`, `tags`).
    @inline(__always) var index: Int { rawValue }

    /// Addition order: the tie-break of every choice among constraints.
    @inline(__always) public static func < (lhs: ConstraintHandle, rhs: ConstraintHandle) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
