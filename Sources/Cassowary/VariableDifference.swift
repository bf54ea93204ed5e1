// A compact form of the expressions the ambiguity queries are asked most: one variable,
// or the difference of two (a layout's frame fields).

/// The expression `1·plus − 1·minus`, or `1·plus` alone: held inline, so a list of them
/// is one array instead of one ``Expression`` (and its own terms array) each.
/// ``Solver``'s `areDetermined(_:workLimit:work:)` and `ambiguityCauses(_:workLimit:)`
/// over a list of them answer exactly as over their ``expression``s.
public struct VariableDifference: Hashable, Sendable {
    /// The variable added.
    public var plus: Variable
    /// The variable subtracted, if any.
    public var minus: Variable?

    /// Creates `plus − minus`, or `plus` when `minus` is `nil`.
    public init(_ plus: Variable, minus: Variable? = nil) {
        self.plus = plus
        self.minus = minus
    }

    /// The same expression as an ``Expression``: the terms `1·plus`, then `-1·minus`, and
    /// the constant 0.
    public var expression: Expression {
        Expression(terms: Array(terms), constant: 0)
    }

    /// The terms of ``expression``, in its order, without an array.
    var terms: Terms { Terms(difference: self) }

    /// `1·plus`, then `-1·minus` when there is one.
    struct Terms: RandomAccessCollection {
        let difference: VariableDifference
        var startIndex: Int { 0 }
        var endIndex: Int { difference.minus == nil ? 1 : 2 }
        subscript(position: Int) -> Term {
            position == 0 ? Term(difference.plus, 1) : Term(difference.minus!, -1)
        }
    }
}

/// What the ambiguity queries read of an expression (``Expression`` or
/// ``VariableDifference``): its terms in order, its constant, whether all are finite.
protocol AmbiguityQuery {
    associatedtype Terms: RandomAccessCollection<Term> where Terms.Index == Int
    /// The summands, in order; a variable may repeat.
    var queryTerms: Terms { get }
    /// The constant summand.
    var constant: Double { get }
    /// Whether every coefficient and the constant are finite.
    var isFinite: Bool { get }
}

extension Expression: AmbiguityQuery {
    var queryTerms: [Term] { terms }
}

extension VariableDifference: AmbiguityQuery {
    var queryTerms: Terms { terms }
    var constant: Double { 0 }
    var isFinite: Bool { true }
}
