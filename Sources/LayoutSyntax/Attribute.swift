/// The axis an ``Attribute`` lies on.
///
/// Apple's pairing rule: a constraint may not relate a horizontal position to a
/// vertical one (`NSLayoutConstraint` raises for `a.top == b.leading`).
public enum Axis: Sendable, Hashable {
    /// x: left, right, leading, trailing, width, centerX and their margin forms.
    case horizontal
    /// y: top, bottom, height, centerY, the baselines and their margin forms.
    case vertical
}

/// A layout attribute of a view, with Apple's `NSLayoutConstraint.Attribute` names.
///
/// The compound attributes of the equation syntax (`edges`, `size`, `center`) are
/// not cases: the parsers expand them into these. `baseline` parses as
/// ``lastBaseline`` (Apple: `NSLayoutAttributeBaseline == NSLayoutAttributeLastBaseline`).
/// Positions are in points in the coordinate space of the nearest common ancestor
/// (see the contract's "Coordinate spaces").
public enum Attribute: String, CaseIterable, Sendable, Hashable {
    case left, right, top, bottom, leading, trailing, width, height, centerX, centerY
    case lastBaseline, firstBaseline
    case leftMargin, rightMargin, topMargin, bottomMargin, leadingMargin, trailingMargin
    case centerXWithinMargins, centerYWithinMargins

    /// The axis the attribute measures along.
    public var axis: Axis {
        switch self {
        case .left, .right, .leading, .trailing, .width, .centerX,
             .leftMargin, .rightMargin, .leadingMargin, .trailingMargin, .centerXWithinMargins:
            return .horizontal
        case .top, .bottom, .height, .centerY, .lastBaseline, .firstBaseline,
             .topMargin, .bottomMargin, .centerYWithinMargins:
            return .vertical
        }
    }

    /// Whether the attribute is a size (`width`, `height`) rather than a position.
    public var isSize: Bool { self == .width || self == .height }

    /// Whether the attribute follows the layout direction (`leading`, `trailing` and
    /// their margins); Apple forbids relating these to `left`/`right`.
    var isDirectional: Bool {
        self == .leading || self == .trailing || self == .leadingMargin || self == .trailingMargin
    }

    /// Whether the attribute is an absolute horizontal edge (`left`, `right` and their margins).
    var isAbsoluteHorizontalEdge: Bool {
        self == .left || self == .right || self == .leftMargin || self == .rightMargin
    }

    /// Looks up an attribute name case-insensitively; `baseline` is ``lastBaseline``.
    ///
    /// - Complexity: O(1) for the fixed set of names (a lowercase table).
    init?(name: String) {
        // Fast path: the usual spelling, without lowercasing or hashing.
        if let exact = Attribute(rawValue: name) {
            self = exact
            return
        }
        let lowered = name.lowercased()
        if lowered == "baseline" {
            self = .lastBaseline
            return
        }
        guard let found = Attribute.lowercasedNames[lowered] else { return nil }
        self = found
    }

    /// Lowercase name → attribute. Only looked up, never iterated.
    static let lowercasedNames: [String: Attribute] = {
        var table: [String: Attribute] = [:]
        for attribute in Attribute.allCases { table[attribute.rawValue.lowercased()] = attribute }
        return table
    }()
}

/// The relation of a constraint, spelled as in the VFL and the equations.
public enum Relation: String, Sendable, Hashable {
    case equal = "=="
    case lessThanOrEqual = "<="
    case greaterThanOrEqual = ">="
}

/// What a term of a constraint refers to.
public enum ItemReference: Hashable, Sendable {
    /// A named view. The parser does not know which views exist; the compiler checks.
    case view(String)
    /// `superview` written in an equation: always the scene's container.
    case container
    /// VFL `|`: the parent of the views in that string (the compiler resolves it).
    case superview

    /// The name used in constraint text: the view's name, or `superview`.
    public var displayName: String {
        switch self {
        case .view(let name): return name
        case .container, .superview: return "superview"
        }
    }
}

/// One `coefficient × item.attribute` term of a ``LinearSide``.
public struct AttributeTerm: Hashable, Sendable {
    /// The view the attribute belongs to.
    public var item: ItemReference
    /// The attribute (compound attributes are already expanded).
    public var attribute: Attribute
    /// The multiplier of the term (Apple's `multiplier` when it is the only term).
    public var coefficient: Double
    /// UTF-8 byte offsets (into the source string) of the item's name (`|` for VFL superview).
    public var span: Range<Int>

    /// Creates a term.
    public init(item: ItemReference, attribute: Attribute, coefficient: Double = 1, span: Range<Int>) {
        self.item = item
        self.attribute = attribute
        self.coefficient = coefficient
        self.span = span
    }
}

/// The terms of a ``LinearSide``, in source order: a random-access collection of
/// ``AttributeTerm`` that holds a single term inline, so a side of one term (every side
/// a VFL string makes, most equations') costs no heap array; more terms (or none) are an
/// array. The representation is canonical (one term is always held inline), so equal
/// term lists compare and hash equal however they were made.
public struct AttributeTerms: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
    /// The only term, when there is exactly one (`nil` otherwise).
    @usableFromInline var single: AttributeTerm?
    /// The terms when there are none or more than one (empty when ``single`` is set).
    @usableFromInline var many: [AttributeTerm]
    /// How many terms there are (read without copying a term).
    public let count: Int

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public var isEmpty: Bool { count == 0 }

    /// The term at `position` (`0..<count`).
    @inlinable public subscript(position: Int) -> AttributeTerm {
        if count == 1 {
            precondition(position == 0, "AttributeTerms index out of range")
            return single.unsafelyUnwrapped
        }
        return many[position]
    }

    /// The attribute and coefficient of the term at `position` (`0..<count`), read in
    /// place: the term, and the name of its item, are not copied.
    @inlinable public func attributeAndCoefficient(at position: Int) -> (attribute: Attribute, coefficient: Double) {
        if count == 1 {
            precondition(position == 0, "AttributeTerms index out of range")
            return (single.unsafelyUnwrapped.attribute, single.unsafelyUnwrapped.coefficient)
        }
        return (many[position].attribute, many[position].coefficient)
    }
}

// The initializers are in an extension so the struct keeps its (internal) memberwise
// initializer, which builds a value in place: the parsers use it (``LinearSide/inline(_:constant:)``).
extension AttributeTerms {
    /// The terms of `terms`, in order.
    @inlinable public init(_ terms: [AttributeTerm]) {
        count = terms.count
        if terms.count == 1 {
            single = terms[0]
            many = []
        } else {
            single = nil
            many = terms
        }
    }

    /// One term, held inline (no allocation).
    @inlinable public init(_ term: AttributeTerm) {
        single = term
        many = []
        count = 1
    }

    /// The terms of the literal, in order.
    @inlinable public init(arrayLiteral elements: AttributeTerm...) {
        self.init(elements)
    }
}

/// One side of a linear constraint: `Σ coefficient × item.attribute + constant`.
public struct LinearSide: Hashable, Sendable {
    /// The attribute terms, in source order; like terms are combined, zero ones dropped.
    public var terms: AttributeTerms
    /// The constant, in points.
    public var constant: Double
}

// The initializers are in an extension so the struct keeps its (internal) memberwise
// initializer: an initializer that assigns field by field builds the value on the stack
// and copies it out (a retain and a release per field), the memberwise one builds it in place.
extension LinearSide {
    /// Creates a side.
    @inlinable public init(terms: [AttributeTerm] = [], constant: Double = 0) {
        self.terms = AttributeTerms(terms)
        self.constant = constant
    }

    /// Creates a side of one term (held inline: no array is allocated).
    @inlinable public init(term: AttributeTerm, constant: Double = 0) {
        self.terms = AttributeTerms(term)
        self.constant = constant
    }

    /// ``init(term:constant:)`` built in place with the memberwise initializers (no copy
    /// of the side): what the parsers call for every part.
    static func inline(_ term: AttributeTerm, constant: Double = 0) -> LinearSide {
        LinearSide(terms: AttributeTerms(single: term, many: [], count: 1), constant: constant)
    }
}

/// A constraint produced by a parser: `lhs relation rhs @ priority`, with where it came from.
public struct ParsedConstraint: Hashable, Sendable {
    /// The left side as written.
    public var lhs: LinearSide
    /// The relation between the sides.
    public var relation: Relation
    /// The right side as written.
    public var rhs: LinearSide
    /// The priority (1...1000) when the string gives one; `nil` otherwise (the compiler
    /// applies the object's `priority` or 1000, required).
    public var priority: Double?
    /// UTF-8 offsets of the connection, predicate, equation or helper argument that
    /// produced the constraint.
    public var span: Range<Int>
    /// UTF-8 offset of the `@` (or `~`) that gives ``priority``; `nil` without one.
    public var priorityOffset: Int?
    /// The constraint as an equation, Apple style, for messages and constraint refs:
    /// `green.leading == red.trailing + 8`, `superview.trailing == a.trailing + 5`,
    /// `a.width >= 50 @750`, `a.centerX == 0.5 * card.centerX`. VFL `|` renders as `superview`.
    ///
    /// Rendered from the other fields on each access (so it always agrees with them, and
    /// parsing does not pay for text that only conflict messages need).
    /// - Complexity: O(terms).
    public var text: String { text(superview: nil) }

    /// ``text`` with VFL `|` written as `parent`, the view it stands for (`nil`: the
    /// container, written `superview`). In an equation `superview` always names the
    /// container, so a VFL string about a nested view's parent must name the parent to
    /// read back as the same constraint.
    public func text(superview parent: String?) -> String {
        ConstraintText.render(lhs: lhs, relation: relation, rhs: rhs, priority: priority, superview: parent)
    }

    /// Creates a constraint.
    public init(lhs: LinearSide, relation: Relation, rhs: LinearSide, priority: Double?, span: Range<Int>,
                priorityOffset: Int? = nil) {
        self.lhs = lhs
        self.relation = relation
        self.rhs = rhs
        self.priority = priority
        self.span = span
        self.priorityOffset = priority == nil ? nil : priorityOffset
    }
}

/// Settings shared by both parsers.
public struct ParseOptions: Sendable {
    /// Metric name → value in points. Looked up by name only; never iterated for output.
    public var metrics: [String: Double] {
        didSet { packedMetrics = PackedName.metrics(metrics) }
    }
    /// ``metrics`` packed (``PackedName``) when there are at most ``fewMetrics``, each an
    /// ASCII name of at most 16 bytes: then a name is looked up by comparing two words
    /// with each one's (``metric(at:in:)``); `nil` otherwise (looked up by hashing).
    private(set) var packedMetrics: [(name: PackedName, value: Double)]?
    /// The VFL standard space `-` between two sibling views, in points (Apple: 8).
    public var siblingSpacing: Double = 8
    /// The VFL standard space `-` to the superview edge `|`, in points (Apple: 20).
    public var superviewSpacing: Double = 20
    /// The largest magnitude of a number literal or a metric used as one (priorities
    /// aside); the first one beyond it is ``ParseResult/numberBeyondLimit``.
    public var maximumMagnitude: Double = 1e12
    /// The scene's views, when known: the VFL parser's counterpart of the views
    /// dictionary Apple's parser is given. With it, a name in a VFL predicate or
    /// connection that is neither a metric nor a view is `unknown_metric` at the parser,
    /// and a view's name as a connection's space is told from an unknown metric by the
    /// scene's views; without it (a group checked before any scene includes it), a
    /// predicate's name is taken for a view and a space's name is a view when the string
    /// has it in brackets.
    public var views: (any ViewNameLookup)?
    /// How many candidate names this parse's did-you-mean searches for unknown metrics
    /// may compare in all (a search among at most ``maxSuggestionCandidates`` metric and
    /// view names is made only while that many are left; the names compared are
    /// ``ParseResult/suggestionComparisons``). The compiler gives each string what is left
    /// of the scene's ``maxSuggestionComparisons``, and none once its list of diagnostics
    /// is full (the note would never be answered).
    public var suggestionComparisons = Int.max

    /// Creates options.
    public init(metrics: [String: Double] = [:], siblingSpacing: Double = 8, superviewSpacing: Double = 20,
                maximumMagnitude: Double = 1e12, views: (any ViewNameLookup)? = nil) {
        self.metrics = metrics
        self.packedMetrics = PackedName.metrics(metrics)
        self.siblingSpacing = siblingSpacing
        self.superviewSpacing = superviewSpacing
        self.maximumMagnitude = maximumMagnitude
        self.views = views
    }

    /// Whether `value` is beyond ±``maximumMagnitude`` (or not a number).
    func isBeyondLimit(_ value: Double) -> Bool { !(abs(value) <= maximumMagnitude) }

    /// The value of the metric named `name`, by bytes: a name with a character outside
    /// ASCII (`x` + U+212A, which Swift's `String` hashing equates with `xK`) names no
    /// metric, as metric names are ASCII.
    func metric(named name: String) -> Double? {
        name.utf8.allSatisfy { $0 < 0x80 } ? metrics[name] : nil
    }

    /// The most metrics ``metric(at:in:)`` compares a name with one by one (a scene's
    /// usual handful) rather than hashing it.
    static var fewMetrics: Int { 8 }

    /// ``metric(named:)`` of the word ``SourceCursor/readWordSpan()`` read last, at
    /// `span`, without making its name when the metrics are packed (``packedMetrics``).
    /// Equal bytes are then what `String` equality is (an ASCII name equals only itself),
    /// so the answer is the dictionary's; at most one name matches (the names are
    /// distinct), so the order chooses nothing.
    func metric(at span: Range<Int>, in cursor: SourceCursor) -> Double? {
        guard cursor.lastWordIsASCII else { return nil }
        guard let packedMetrics else { return metrics[cursor.text(span)] }
        guard let word = PackedName(UnsafeBufferPointer(rebasing: cursor.bytes[span])) else { return nil }
        for index in packedMetrics.indices where packedMetrics[index].name == word { return packedMetrics[index].value }
        return nil
    }
}

/// A name of at most 16 bytes as two words (its bytes in order, zero-padded) and its
/// length: two names are equal exactly when their packings are.
struct PackedName: Equatable, Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var count = 0

    /// The packing of `bytes`; `nil` beyond 16 bytes.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 16 else { return nil }
        count = bytes.count
        for index in bytes.indices {
            if index < 8 { low |= UInt64(bytes[index]) << (8 * UInt64(index)) }
            else { high |= UInt64(bytes[index]) << (8 * UInt64(index - 8)) }
        }
    }

    /// ``ParseOptions/packedMetrics`` of `metrics`: `nil` past ``ParseOptions/fewMetrics``
    /// names, or with a name that is not ASCII or is longer than 16 bytes. In the
    /// dictionary's order, which chooses nothing (the names are distinct).
    static func metrics(_ metrics: [String: Double]) -> [(name: PackedName, value: Double)]? {
        guard metrics.count <= ParseOptions.fewMetrics else { return nil }
        var packed: [(name: PackedName, value: Double)] = []
        packed.reserveCapacity(metrics.count)
        for (name, value) in metrics {
            var name = name
            guard let packing = name.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } ? PackedName(bytes) : nil }) else { return nil }
            packed.append((packing, value))
        }
        return packed
    }
}

/// The names of a scene's views, as the VFL parser looks them up (see
/// ``ParseOptions/views``).
public protocol ViewNameLookup: Sendable {
    /// Whether `name` is a view of the scene (the container's `superview` included).
    /// - Complexity: expected O(length of `name`) (a hash lookup).
    func containsView(named name: String) -> Bool
    /// Every view name, in an order that does not depend on hashing (candidates for
    /// "did you mean" notes).
    var viewNames: [String] { get }
    /// How many ``viewNames`` there are, without building the list.
    var viewNameCount: Int { get }
    /// Whether `name` (one ``containsView(named:)`` accepts) is a layout guide, which
    /// VFL does not take (Apple's views dictionary holds views only). Default: `false`.
    func isLayoutGuide(named name: String) -> Bool
}

extension ViewNameLookup {
    /// ``viewNames``' count (built).
    public var viewNameCount: Int { viewNames.count }

    /// No layout guides.
    public func isLayoutGuide(named name: String) -> Bool { false }
}

/// The `unknown_view` for a layout guide named in a VFL string, at its name: VFL names
/// views only, as Apple's (contract, "Layout guides and the safe area").
public func layoutGuideInVisualFormat(_ name: String, span: Range<Int>) -> Diagnostic {
    Diagnostic(code: .unknownView, message: "Unknown view '\(Diagnostic.echo(name))' in a VFL string",
               span: span,
               notes: ["'\(Diagnostic.echo(name))' is a layout guide, and VFL takes views only (as Apple's does): relate a guide with an equation, such as '\(Diagnostic.echo(name)).leading == a.trailing'"])
}

/// A number literal, or a use of a metric, whose magnitude is beyond
/// ``ParseOptions/maximumMagnitude``.
public struct NumberBeyondLimit: Hashable, Sendable {
    /// UTF-8 offsets of the literal (its digits, without a sign) or of the metric's name.
    public var span: Range<Int>
    /// Its value (the metric's value for a metric).
    public var value: Double
    /// The metric's name, `nil` for a literal.
    public var metric: String?

    /// Creates one.
    public init(span: Range<Int>, value: Double, metric: String? = nil) {
        self.span = span
        self.value = value
        self.metric = metric
    }
}

/// The outcome of parsing one constraint string.
///
/// When `diagnostics` holds an error, `constraints` is empty: a string is used
/// whole or not at all.
public struct ParseResult: Sendable {
    /// The constraints, in the order the contract adds them (parts left to right).
    public var constraints: [ParsedConstraint]
    /// Every fault found, in source order, at most ``maximumDiagnostics``.
    public var diagnostics: [Diagnostic]
    /// Views the string names that none of ``constraints`` mentions, with the spans of
    /// their names: the view of a VFL string that is one view alone (`H:[a]`), which
    /// produces no constraint but whose name must still be known.
    public var unconstrainedViews: [(name: String, span: Range<Int>)] = []
    /// The first number literal or metric use (in source order; priorities aside) beyond
    /// ``ParseOptions/maximumMagnitude``, whatever the arithmetic around it gives
    /// (`1e13 - 1e13` still has one); `nil` when there is none. Not a diagnostic: the
    /// compiler reports it, where metrics are final.
    public var numberBeyondLimit: NumberBeyondLimit?

    /// The most diagnostics one string reports.
    public static let maximumDiagnostics = 100

    /// Candidate names the did-you-mean searches of this parse compared
    /// (at most ``ParseOptions/suggestionComparisons``).
    public var suggestionComparisons = 0

    /// Whether a diagnostic of severity `error` is present.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Drops every constraint with a number that is not finite. Such a number comes
    /// only from a literal too large for a double (`1e999`) or arithmetic on numbers
    /// beyond the limit, so ``numberBeyondLimit`` is set and the compiler reports that
    /// instead of using any constraint; every constraint a parse returns is finite.
    mutating func dropNonFiniteConstraints() {
        constraints.removeAll { constraint in
            !constraint.lhs.constant.isFinite || !constraint.rhs.constant.isFinite
                || constraint.lhs.terms.contains { !$0.coefficient.isFinite }
                || constraint.rhs.terms.contains { !$0.coefficient.isFinite }
        }
    }
}

// The initializer is in an extension so the struct keeps its (internal) memberwise
// initializer, which builds a value in place (``DiagnosticCollector/result(_:numberBeyondLimit:unconstrainedViews:)``).
extension ParseResult {
    /// Creates a result.
    public init(constraints: [ParsedConstraint], diagnostics: [Diagnostic]) {
        self.constraints = constraints
        self.diagnostics = diagnostics
    }
}

/// Decides the contract's rule: a bare constraint string is VFL when it starts with
/// `H:`, `V:`, `|` or `[` (leading spaces and tabs are skipped); otherwise it is an equation.
///
/// - Complexity: O(1) beyond the leading whitespace.
public func isVisualFormat(_ source: String) -> Bool {
    var iterator = source.utf8.makeIterator()
    var first = iterator.next()
    while first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { first = iterator.next() }
    switch first {
    case UInt8(ascii: "|"), UInt8(ascii: "["): return true
    case UInt8(ascii: "H"), UInt8(ascii: "V"): return iterator.next() == UInt8(ascii: ":")
    default: return false
    }
}
