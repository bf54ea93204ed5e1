/// A solver variable: an opaque integer identity handed out by the caller (the
/// layout compiler numbers frame fields densely from 0).
///
/// Names live in the caller's side table; the solver only ever compares ids, so two
/// `Variable`s with the same `id` are the same unknown. Ordered by `id`.
public struct Variable: Hashable, Comparable, Sendable {
    /// The identity of this variable; any `Int` is allowed.
    public let id: Int

    /// Creates the variable with identity `id`.
    public init(id: Int) { self.id = id }

    public static func < (lhs: Variable, rhs: Variable) -> Bool { lhs.id < rhs.id }
}

/// One summand `coefficient · variable` of a linear ``Expression``.
public struct Term: Hashable, Sendable {
    /// The variable multiplied.
    public var variable: Variable
    /// The multiplier; must be finite when the term reaches the solver.
    public var coefficient: Double

    /// Creates `coefficient · variable`.
    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// A linear expression `Σ coefficientᵢ · variableᵢ + constant`.
///
/// Terms need not be merged: the solver adds the coefficients of repeated variables
/// and drops terms that cancel. The operators below only concatenate and scale, so
/// building an expression is O(number of terms).
public struct Expression: Hashable, Sendable {
    /// The summands, in the order given; a variable may repeat.
    public var terms: [Term]
    /// The constant summand.
    public var constant: Double

    /// Creates `Σ terms + constant`.
    public init(terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    /// The expression `1 · variable`.
    public init(_ variable: Variable) {
        self.init(terms: [Term(variable)], constant: 0)
    }

    /// The constant expression `constant`.
    public init(constant: Double) {
        self.init(terms: [], constant: constant)
    }

    /// Evaluates the expression with `value(of:)` giving each variable's value.
    public func evaluate(_ value: (Variable) -> Double) -> Double {
        var sum = constant
        for term in terms { sum += term.coefficient * value(term.variable) }
        return sum
    }

    /// Whether every coefficient and the constant are finite (neither NaN nor ±∞).
    public var isFinite: Bool {
        constant.isFinite && terms.allSatisfy { $0.coefficient.isFinite }
    }

    // MARK: - Operators

    /// Sum of two expressions (terms concatenated, constants added).
    public static func + (lhs: Expression, rhs: Expression) -> Expression {
        Expression(terms: lhs.terms + rhs.terms, constant: lhs.constant + rhs.constant)
    }

    /// `lhs + rhs` with a constant right-hand side.
    public static func + (lhs: Expression, rhs: Double) -> Expression {
        Expression(terms: lhs.terms, constant: lhs.constant + rhs)
    }

    /// Difference of two expressions.
    public static func - (lhs: Expression, rhs: Expression) -> Expression {
        lhs + (-rhs)
    }

    /// `lhs - rhs` with a constant right-hand side.
    public static func - (lhs: Expression, rhs: Double) -> Expression {
        Expression(terms: lhs.terms, constant: lhs.constant - rhs)
    }

    /// The expression with every coefficient and the constant negated.
    public static prefix func - (operand: Expression) -> Expression {
        operand * -1
    }

    /// Every coefficient and the constant multiplied by `rhs`.
    public static func * (lhs: Expression, rhs: Double) -> Expression {
        Expression(
            terms: lhs.terms.map { Term($0.variable, $0.coefficient * rhs) },
            constant: lhs.constant * rhs)
    }

    /// Every coefficient and the constant multiplied by `lhs`.
    public static func * (lhs: Double, rhs: Expression) -> Expression {
        rhs * lhs
    }

    /// Every coefficient and the constant divided by `rhs` (division by 0 gives
    /// non-finite values, which the solver rejects with ``SolverError/nonFiniteInput``).
    public static func / (lhs: Expression, rhs: Double) -> Expression {
        Expression(
            terms: lhs.terms.map { Term($0.variable, $0.coefficient / rhs) },
            constant: lhs.constant / rhs)
    }
}
