/// A priority level of a constraint or edit variable.
///
/// Levels are compared strictly (lexicographically), as the symbolic weights of the
/// Cassowary paper (Badros, Borning & Stuckey, ACM TOCHI 2001, §2): a constraint at a
/// larger `value` always wins over any number of constraints at smaller values, and
/// within one level the solver minimises the sum of the errors. This is unlike kiwi,
/// whose strengths are one weighted double (`1e6·strong + 1e3·medium + weak`).
///
/// `value` is only an ordering key: layoutd uses 1…999 for optional Auto Layout
/// priorities, the benchmark uses kiwi's numbers. ``required`` (`+∞`) must hold exactly.
public struct Strength: Hashable, Comparable, Sendable {
    /// The ordering key; larger is stronger. `+∞` means required.
    public let value: Double

    /// Creates the level `value`. A non-finite value other than `+∞` is rejected
    /// when the constraint is added (``SolverError/nonFiniteInput``).
    public init(_ value: Double) { self.value = value }

    /// The required level: the constraint must hold exactly.
    public static let required = Strength(.infinity)

    /// Whether this is the ``required`` level.
    public var isRequired: Bool { value == .infinity }

    /// Whether the value is usable: finite, or `+∞` (required).
    var isValid: Bool { value.isFinite || value == .infinity }

    public static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.value < rhs.value }
}
