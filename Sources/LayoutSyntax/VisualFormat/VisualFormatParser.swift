/// Parses Apple's Visual Format Language into ``ParsedConstraint``s.
///
/// The grammar is Apple's ("Visual Format Language", Auto Layout Guide, appendix):
///
/// ```
/// visualFormatString ::= (orientation ':')? (superview connection)? view (connection view)* (connection superview)?
/// orientation        ::= 'H' | 'V'
/// superview          ::= '|'
/// view               ::= '[' viewName predicateListWithParens? ']'
/// connection         ::= ε | '-' predicateList '-' | '-'
/// predicateList      ::= simplePredicate | predicateListWithParens
/// simplePredicate    ::= relation? (metricName | positiveNumber)
/// predicateListWithParens ::= '(' predicate (',' predicate)* ')'
/// predicate          ::= relation? objectOfPredicate ('@' priority)?
/// relation           ::= '==' | '<=' | '>='
/// objectOfPredicate  ::= constant | viewName      (a view name only inside a view)
/// priority, constant ::= metricName | number
/// ```
///
/// Spaces and tabs between tokens are allowed (Apple rejects them). Errors are Apple's
/// where the contract's caret table ("The VFL") names them: the message and the caret
/// column of `H`/`V` without `:`, a relation character alone, a priority out of range,
/// a view's name as a space, and a name that is neither a metric nor a view. The generated
/// constraints are exactly Apple's: `|-5-[a]` is `a.leading == superview.leading + 5`,
/// `[a]-5-|` is `superview.trailing == a.trailing + 5`, `[a]-5-[b]` is
/// `b.leading == a.trailing + 5`; `V:` uses top/bottom; the standard space `-` is
/// ``ParseOptions/siblingSpacing`` between views and ``ParseOptions/superviewSpacing``
/// next to `|`. `directionLeftToRight` uses left/right; `directionRightToLeft` runs from
/// the right edge (`[a]-5-[b]` is `a.left == b.right + 5`); on `V:` the direction
/// options are accepted and change nothing, as in Apple's parser.
///
/// Parts come out in source order: each connection, then (with an `alignAll…` option)
/// the alignment of the view it leads to with the previous view, then that view's
/// predicates.
///
/// - Complexity: O(n) in the length of the string.
public struct VisualFormatParser: Sendable {
    /// Metrics and standard spacing.
    public var options: ParseOptions

    /// Creates a parser.
    public init(options: ParseOptions = .init()) {
        self.options = options
    }

    /// Parses one format string.
    ///
    /// - Parameters:
    ///   - source: the format string, e.g. `H:|-[icon]-[title]-|`.
    ///   - formatOptions: the JSON object form's `options` strings (`alignAllCenterY`,
    ///     `directionRightToLeft`, …). Unknown options, options illegal for the
    ///     orientation (`alignAllLeft` on `H:`) and two different directions are
    ///     `vfl_syntax` diagnostics without a span, as Apple rejects them; a direction on
    ///     `V:` is legal and changes nothing.
    /// - Returns: the constraints, or no constraints and the diagnostics: the first
    ///   syntax error (parsing stops there) and every unknown metric before it.
    public func parse(_ source: String, formatOptions: [String] = []) -> ParseResult {
        withSourceCursor(source) { cursor in
            var run = VisualFormatRun(cursor: cursor, options: options)
            return run.parse(formatOptions: formatOptions)
        }
    }
}

/// The layout direction a horizontal format string runs in.
enum VisualFormatDirection {
    case leadingToTrailing, leftToRight, rightToLeft
}

/// One predicate of a view or a connection.
struct VisualFormatPredicate {
    enum Object {
        case constant(Double)
        case view(String, Range<Int>)
        /// An unknown metric (already diagnosed): the predicate produces nothing.
        case invalid
    }

    var relation: Relation
    var object: Object
    var priority: Double?
    var span: Range<Int>
    /// Where its `@` is, when it gives a priority.
    var priorityOffset: Int? = nil
}

/// A connection between two elements: its predicates, or the standard space.
struct VisualFormatConnection {
    enum Kind {
        case standard
        case flush
        /// A simple predicate (`-8-`, `->=gap-`), held inline (no array): its gap, `nil`
        /// for an unknown metric (already diagnosed: it produces nothing).
        case simple(relation: Relation, gap: Double?)
        case predicates([VisualFormatPredicate])
    }

    var kind: Kind
    var span: Range<Int>
}

/// An element of the string: the superview `|` or a view.
enum VisualFormatEndpoint {
    case superview(Range<Int>)
    case view(String, Range<Int>)

    var item: ItemReference {
        switch self {
        case .superview: return .superview
        case .view(let name, _): return .view(name)
        }
    }

    var span: Range<Int> {
        switch self {
        case .superview(let span), .view(_, let span): return span
        }
    }
}

/// The state of one parse.
struct VisualFormatRun {
    var cursor: SourceCursor
    let options: ParseOptions
    var collector = DiagnosticCollector()
    var constraints: [ParsedConstraint] = []
    var isVertical = false
    var direction = VisualFormatDirection.leadingToTrailing
    var alignments: [Attribute] = []
    /// The first view of the string (with its name's span).
    var firstView: (String, Range<Int>)?
    /// The first length beyond the limit (see ``ParseResult/numberBeyondLimit``).
    var numberBeyondLimit: NumberBeyondLimit?

    init(cursor: SourceCursor, options: ParseOptions) {
        self.cursor = cursor
        self.options = options
        collector.suggestionBudget = options.suggestionComparisons
    }

    mutating func parse(formatOptions: [String]) -> ParseResult {
        do {
            try parseOrientation()
        } catch {
            return ParseResult(constraints: [], diagnostics: [error.diagnostic])
        }
        applyFormatOptions(formatOptions)
        // About one connection per view plus one per predicate and alignment: reserved
        // once rather than grown constraint by constraint.
        var views = 0
        for byte in cursor.bytes where byte == UInt8(ascii: "[") || byte == UInt8(ascii: ",") { views += 1 }
        constraints.reserveCapacity((views + 1) * (alignments.count + 2))
        do {
            try parseBody()
        } catch {
            collector.append(error.diagnostic)
        }
        if collector.hasErrors { return collector.result([]) }
        // Two elements or more always make a connection, and a valid predicate names its
        // view: only a view alone (`H:[a]`) makes nothing, and its name is passed on.
        var unconstrainedViews: [(name: String, span: Range<Int>)] = []
        if constraints.isEmpty, let firstView { unconstrainedViews = [(firstView.0, firstView.1)] }
        guard numberBeyondLimit != nil else {
            return collector.result(constraints, unconstrainedViews: unconstrainedViews)
        }
        var result = collector.result(constraints, numberBeyondLimit: numberBeyondLimit, unconstrainedViews: unconstrainedViews)
        result.dropNonFiniteConstraints()
        return result
    }

    /// `(orientation ':')?`. An `H` or `V` not followed by `:` is Apple's "Expected ':'
    /// after 'V' to specify vertical arrangement", with the caret on the character after
    /// the letter (no format string starts with a letter otherwise).
    /// Held by `VisualFormatParserTests.orientationWithoutColon`.
    mutating func parseOrientation() throws(SyntaxFault) {
        cursor.skipWhitespace()
        guard let first = cursor.current, first == UInt8(ascii: "H") || first == UInt8(ascii: "V") else { return }
        isVertical = first == UInt8(ascii: "V")
        cursor.offset += 1
        guard cursor.consume(UInt8(ascii: ":")) else {
            throw fault(isVertical ? "Expected ':' after 'V' to specify vertical arrangement"
                                   : "Expected ':' after 'H' to specify horizontal arrangement",
                        notes: ["found \(cursor.describeFound())"])
        }
    }

    // MARK: - Format options

    /// Apple's `NSLayoutConstraint.FormatOptions` names → the aligned attribute.
    static let alignmentOptions: [(String, Attribute)] = [
        ("alignAllLeft", .left), ("alignAllRight", .right), ("alignAllTop", .top),
        ("alignAllBottom", .bottom), ("alignAllLeading", .leading), ("alignAllTrailing", .trailing),
        ("alignAllCenterX", .centerX), ("alignAllCenterY", .centerY), ("alignAllBaseline", .lastBaseline),
        ("alignAllLastBaseline", .lastBaseline), ("alignAllFirstBaseline", .firstBaseline),
    ]

    static let directionOptions: [(String, VisualFormatDirection)] = [
        ("directionLeadingToTrailing", .leadingToTrailing), ("directionLeftToRight", .leftToRight),
        ("directionRightToLeft", .rightToLeft),
    ]

    mutating func applyFormatOptions(_ formatOptions: [String]) {
        let orientation = isVertical ? "V:" : "H:"
        var chosenDirection: String?
        for option in formatOptions {
            if let (_, attribute) = Self.alignmentOptions.first(where: { $0.0 == option }) {
                // Apple: the alignment must be across the orientation's axis.
                if (attribute.axis == .vertical) == isVertical {
                    collector.append(Diagnostic(
                        code: .vflSyntax,
                        message: "Format option '\(Diagnostic.echo(option))' is not allowed in a \(orientation) string: it aligns along the same axis the views are laid out on",
                        notes: [isVertical ? "V: strings take alignAllLeft, alignAllRight, alignAllLeading, alignAllTrailing or alignAllCenterX"
                                           : "H: strings take alignAllTop, alignAllBottom, alignAllCenterY, alignAllBaseline, alignAllLastBaseline or alignAllFirstBaseline"]))
                } else if !alignments.contains(attribute) {
                    alignments.append(attribute)
                }
            } else if let (_, optionDirection) = Self.directionOptions.first(where: { $0.0 == option }) {
                // Legal on both orientations; on `V:` it changes nothing (``startAndEnd``),
                // as Apple's parser accepts it there.
                if let chosenDirection, chosenDirection != option {
                    collector.append(Diagnostic(
                        code: .vflSyntax,
                        message: "Format option '\(Diagnostic.echo(option))' conflicts with '\(chosenDirection)': give one direction"))
                } else {
                    chosenDirection = option
                    direction = optionDirection
                }
            } else {
                let known = Self.alignmentOptions.map(\.0) + Self.directionOptions.map(\.0)
                var notes: [String] = []
                if let suggestion = closestName(to: option, among: known) { notes.append("did you mean '\(suggestion)'?") }
                collector.append(Diagnostic(code: .vflSyntax, message: "Unknown format option '\(Diagnostic.echo(option))'", notes: notes))
            }
        }
    }

    // MARK: - Grammar

    func fault(_ message: String, at position: Int? = nil, notes: [String] = []) -> SyntaxFault {
        SyntaxFault(diagnostic: Diagnostic(code: .vflSyntax, message: message, span: cursor.characterSpan(at: position), notes: notes))
    }

    /// Whether `bytes` hold a relation (`==`, `>=`, `<=`) and, before it, a `.` (an
    /// attribute: `a.width`), with no `[` or `|`: an equation, never a format string.
    /// - Complexity: O(n).
    static func looksLikeEquation(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var dot = false
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "["), UInt8(ascii: "|"): return false
            case UInt8(ascii: "."): dot = true
            case UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "<"):
                if dot && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "=") { return true }
            default: continue
            }
        }
        return false
    }

    mutating func parseBody() throws(SyntaxFault) {
        cursor.skipWhitespace()
        var previous: VisualFormatEndpoint?
        var previousView: (String, Range<Int>)?
        var connection: VisualFormatConnection?
        if cursor.current == UInt8(ascii: "|") {
            previous = .superview(cursor.offset..<cursor.offset + 1)
            cursor.offset += 1
            connection = try parseConnection(after: cursor.offset - 1)
        } else if cursor.current != UInt8(ascii: "[") {
            // An equation given as VFL (`{"vfl": "a.width == 5"}`) is said to be one, as VFL
            // given as an equation is (VisualFormatParserTests.anEquationGivenAsVisualFormat).
            let equation = Self.looksLikeEquation(cursor.bytes)
                ? "; this is an equation, not Visual Format Language: give it as {\"equation\": \"...\"} rather than {\"vfl\": \"...\"}" : ""
            throw fault("Expected '|' or a view '[' to start the format string, found \(cursor.describeFound())\(equation)")
        }
        while true {
            cursor.skipWhitespace()
            guard cursor.current == UInt8(ascii: "[") else {
                if cursor.current == UInt8(ascii: "|") && previousView == nil {
                    throw fault("A format string needs at least one view: expected '[' to start a view, found '|'")
                }
                if previousView == nil, let connection, case .flush = connection.kind {
                    // Nothing after the leading '|': there is no connection to be after.
                    throw fault("Expected a connection '-' or a view '[' after '|', found \(cursor.describeFound())")
                }
                throw fault("Expected a view '[' or the superview '|' after the connection, found \(cursor.describeFound())")
            }
            let viewStart = cursor.offset
            let (name, nameSpan, predicates) = try parseView()
            let view = VisualFormatEndpoint.view(name, nameSpan)
            if firstView == nil { firstView = (name, nameSpan) }
            if let previous, var connection {
                if case .flush = connection.kind { connection.span = connection.span.lowerBound..<viewStart + 1 }
                emitConnection(connection, from: previous, to: view)
            }
            if let previousView {
                for attribute in alignments {
                    let lhs = LinearSide.inline(AttributeTerm(item: .view(name), attribute: attribute, span: nameSpan))
                    let rhs = LinearSide.inline(AttributeTerm(item: .view(previousView.0), attribute: attribute, span: previousView.1))
                    constraints.append(ParsedConstraint(lhs: lhs, relation: .equal, rhs: rhs, priority: nil, span: nameSpan))
                }
            }
            emitPredicates(predicates, of: name, span: nameSpan)
            previous = view
            previousView = (name, nameSpan)
            let closingBracket = cursor.offset - 1
            cursor.skipWhitespace()
            if cursor.isAtEnd { return }
            guard cursor.current == UInt8(ascii: "-") || cursor.current == UInt8(ascii: "[") || cursor.current == UInt8(ascii: "|") else {
                throw fault("Expected a connection '-', a view '[' or the superview '|' after view '\(Diagnostic.echo(name))', found \(cursor.describeFound())")
            }
            var next = try parseConnection(after: closingBracket)
            cursor.skipWhitespace()
            if cursor.current == UInt8(ascii: "|") {
                let bar = cursor.offset..<cursor.offset + 1
                cursor.offset += 1
                if case .flush = next.kind { next.span = next.span.lowerBound..<bar.upperBound }
                emitConnection(next, from: view, to: .superview(bar))
                cursor.skipWhitespace()
                if !cursor.isAtEnd {
                    throw fault("Expected the end of the format string after the closing '|', found \(cursor.describeFound())")
                }
                return
            }
            connection = next
        }
    }

    /// `'[' viewName predicateListWithParens? ']'`, at a `[`.
    mutating func parseView() throws(SyntaxFault) -> (String, Range<Int>, [VisualFormatPredicate]) {
        cursor.offset += 1
        cursor.skipWhitespace()
        guard cursor.isAtIdentifier else {
            throw fault("Expected a view name after '[', found \(cursor.describeFound())",
                        notes: ["view names match [A-Za-z_][A-Za-z0-9_]*"])
        }
        let (name, nameSpan) = cursor.readWord()
        if !cursor.lastWordIsASCII {
            collector.append(Diagnostic(code: .unknownView, message: SourceCursor.nonASCIIViewNameMessage(name), span: nameSpan))
        }
        cursor.skipWhitespace()
        var predicates: [VisualFormatPredicate] = []
        if cursor.current == UInt8(ascii: "(") {
            predicates = try parsePredicateList(allowsViews: true)
            cursor.skipWhitespace()
        }
        guard cursor.consume(UInt8(ascii: "]")) else {
            throw fault("Expected ']' to close view '\(Diagnostic.echo(name))'", notes: ["found \(cursor.describeFound())"])
        }
        return (name, nameSpan, predicates)
    }

    /// A connection after the byte at `lastOffset` (`]` or `|`): flush, `-`, or `-…-`.
    mutating func parseConnection(after lastOffset: Int) throws(SyntaxFault) -> VisualFormatConnection {
        cursor.skipWhitespace()
        guard cursor.current == UInt8(ascii: "-") else {
            return VisualFormatConnection(kind: .flush, span: lastOffset..<lastOffset + 1)
        }
        let start = cursor.offset
        cursor.offset += 1
        cursor.skipWhitespace()
        let kind: VisualFormatConnection.Kind
        switch cursor.current {
        case UInt8(ascii: "["), UInt8(ascii: "|"):
            return VisualFormatConnection(kind: .standard, span: start..<start + 1)
        case UInt8(ascii: "("):
            kind = .predicates(try parsePredicateList(allowsViews: false))
        case UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"):
            // Apple's parser reads a relation before a simple predicate too (`->=20-`).
            let relation = try parseRelation() ?? .equal
            cursor.skipWhitespace()
            kind = try parseSimplePredicate(relation: relation)
        case _ where cursor.isAtNumber || cursor.isAtIdentifier:
            kind = try parseSimplePredicate(relation: .equal)
        case nil:
            throw fault("Expected a view '[' or the superview '|' after '-', found the end of the string")
        default:
            throw fault("Expected a number, a metric name, '(' or a view '[' after '-', found \(cursor.describeFound())")
        }
        cursor.skipWhitespace()
        guard cursor.consume(UInt8(ascii: "-")) else {
            throw fault("Expected '-' to end the connection, found \(cursor.describeFound())")
        }
        return VisualFormatConnection(kind: kind, span: start..<cursor.offset)
    }

    /// A connection's `simplePredicate` (a number or a metric name) after its optional
    /// `relation`.
    mutating func parseSimplePredicate(relation: Relation) throws(SyntaxFault) -> VisualFormatConnection.Kind {
        if cursor.isAtNumber {
            let (value, span) = cursor.readNumber()   // infinite beyond a double: beyond the limit
            checkMagnitude(value, span: span)
            return .simple(relation: relation, gap: value)
        } else if cursor.isAtIdentifier {
            guard case .constant(let gap) = try space(at: cursor.readWordSpan()) else { return .simple(relation: relation, gap: nil) }
            return .simple(relation: relation, gap: gap)
        } else {
            throw fault("Expected a number or a metric name after the relation, found \(cursor.describeFound())")
        }
    }

    /// `relation?`: `==`, `<=` or `>=`, or `nil` when no relation character is next. A
    /// relation character alone (`>44`, `=5`) is Apple's "Unknown relation" with the
    /// caret one past it, the first character that cannot be consumed.
    /// Held by `VisualFormatParserTests.unknownRelation`.
    mutating func parseRelation() throws(SyntaxFault) -> Relation? {
        guard let first = cursor.current, first == UInt8(ascii: "=") || first == UInt8(ascii: "<") || first == UInt8(ascii: ">") else {
            return nil
        }
        cursor.offset += 1
        guard cursor.consume(UInt8(ascii: "=")) else {
            let (written, hint) = SourceCursor.unknownRelationHint(first, next: cursor.current)
            throw fault("Unknown relation. Must be ==, >=, or <=", notes: ["'\(written)': \(hint)"])
        }
        return first == UInt8(ascii: "=") ? .equal : first == UInt8(ascii: "<") ? .lessThanOrEqual : .greaterThanOrEqual
    }

    /// `'(' predicate (',' predicate)* ')'`, at a `(`.
    mutating func parsePredicateList(allowsViews: Bool) throws(SyntaxFault) -> [VisualFormatPredicate] {
        cursor.offset += 1
        var predicates: [VisualFormatPredicate] = []
        while true {
            cursor.skipWhitespace()
            predicates.append(try parsePredicate(allowsViews: allowsViews))
            cursor.skipWhitespace()
            if cursor.consume(UInt8(ascii: ")")) { return predicates }
            guard cursor.consume(UInt8(ascii: ",")) else {
                throw fault("Expected ')' at the end of the predicate list, or ',' before another predicate, found \(cursor.describeFound())")
            }
        }
    }

    /// `relation? objectOfPredicate ('@' priority)?`.
    mutating func parsePredicate(allowsViews: Bool) throws(SyntaxFault) -> VisualFormatPredicate {
        let start = cursor.offset
        var relation = Relation.equal
        if let written = try parseRelation() {
            relation = written
            cursor.skipWhitespace()
        }
        let object: VisualFormatPredicate.Object
        if cursor.isAtIdentifier {
            let span = cursor.readWordSpan()
            if let value = options.metric(at: span, in: cursor) {
                checkMagnitude(value, span: span, isMetric: true)
                object = .constant(value)
            } else if allowsViews {
                let name = cursor.text(span)
                if let views = options.views, !views.containsView(named: name) {
                    object = unknownMetric(name, span: span, suggestingViews: true)
                } else {
                    if !cursor.lastWordIsASCII {
                        collector.append(Diagnostic(code: .unknownView, message: SourceCursor.nonASCIIViewNameMessage(name), span: span))
                    }
                    object = .view(name, span)
                }
            } else {
                object = try space(at: span)
            }
        } else if let sign = signedNumberPrefix() {
            let (value, span) = cursor.readNumber()   // infinite beyond a double: beyond the limit
            checkMagnitude(value, span: span)
            object = .constant(sign * value)
        } else {
            let what = allowsViews ? "a number, a metric name or a view name" : "a number or a metric name"
            throw fault("Expected \(what) in the predicate, found \(cursor.describeFound())")
        }
        var end = cursor.offset
        cursor.skipWhitespace()
        var priority: Double?
        let priorityOffset = cursor.offset
        if cursor.consume(UInt8(ascii: "@")) {
            cursor.skipWhitespace()
            var literal: String?   // as written, for a number too large for a double
            if cursor.isAtIdentifier {
                let span = cursor.readWordSpan()
                if let value = options.metric(at: span, in: cursor) {
                    priority = value
                } else {
                    _ = unknownMetric(cursor.text(span), span: span, isPriority: true)
                }
            } else if cursor.isAtNumber {
                let (number, span) = cursor.readNumber()
                priority = number
                if !number.isFinite { literal = cursor.text(span) }   // too large for a double: quoted as written
            } else {
                throw fault("Expected a priority (a number or a metric name) after '@', found \(cursor.describeFound())")
            }
            // Apple's caret: just after the number (or the metric's name).
            // Held by `VisualFormatParserTests.priorityOutOfRange`.
            if let value = priority, !(1...1000).contains(value) {
                throw fault("Invalid priority \(literal ?? ConstraintText.format(value)): priorities run from 1 to 1000")
            }
            end = cursor.offset
        }
        return VisualFormatPredicate(relation: relation, object: object, priority: priority, span: start..<end,
                                     priorityOffset: priority == nil ? nil : priorityOffset)
    }

    /// Consumes an optional sign before a number and returns its factor; `nil` when no number follows.
    mutating func signedNumberPrefix() -> Double? {
        let start = cursor.offset
        var sign = 1.0
        if cursor.current == UInt8(ascii: "-") || cursor.current == UInt8(ascii: "+") {
            sign = cursor.current == UInt8(ascii: "-") ? -1 : 1
            cursor.offset += 1
        }
        if cursor.isAtNumber { return sign }
        cursor.offset = start
        return nil
    }

    /// Remembers the first literal or metric use (`isMetric`: the metric named at `span`)
    /// beyond ``ParseOptions/maximumMagnitude``.
    mutating func checkMagnitude(_ value: Double, span: Range<Int>, isMetric: Bool = false) {
        if numberBeyondLimit == nil && options.isBeyondLimit(value) {
            numberBeyondLimit = NumberBeyondLimit(span: span, value: value, metric: isMetric ? cursor.text(span) : nil)
        }
    }

    /// The name read last (at `span`) as a connection's space: a metric's value; a view's
    /// name is Apple's "It's not possible to set a space equal to the width or height of a
    /// view" (`vfl_syntax`, caret just after the name, parsing stops); a layout guide's is
    /// `unknown_view` (``layoutGuideInVisualFormat(_:span:)``); any other name is an
    /// unknown metric. The name's `String` is made only when it is not a metric.
    /// Held by `VisualFormatParserTests.viewAsASpace`.
    mutating func space(at span: Range<Int>) throws(SyntaxFault) -> VisualFormatPredicate.Object {
        if let value = options.metric(at: span, in: cursor) {
            checkMagnitude(value, span: span, isMetric: true)
            return .constant(value)
        }
        // Past the cap no diagnostic is kept, so the string's scan (O(length)) is skipped:
        // a string of 200,000 unknown spaces stays linear (`RobustnessTests.largeInputs`).
        guard collector.diagnostics.count < ParseResult.maximumDiagnostics else { return .invalid }
        let name = cursor.text(span)
        if options.views?.isLayoutGuide(named: name) == true {
            collector.append(layoutGuideInVisualFormat(name, span: span))
            return .invalid
        }
        if isView(name) {
            throw fault("It's not possible to set a space equal to the width or height of a view. Perhaps you want to use a view as a spacer?",
                        at: span.upperBound,
                        notes: ["'\(Diagnostic.echo(name))' is a view, and a space is a number or a metric: a spacer view sized to it does that, [view1][spacer(==\(Diagnostic.echo(name)))][view2]"])
        }
        return unknownMetric(name, span: span)
    }

    /// Whether `name` is a view: of the scene when ``ParseOptions/views`` is given, else
    /// of this string (``namesView(_:)``).
    func isView(_ name: String) -> Bool {
        options.views?.containsView(named: name) ?? namesView(name)
    }

    /// Diagnoses a name in a predicate, a connection or a priority that is neither a
    /// metric nor a view, with Apple's message, at the name's first character (parsing
    /// goes on). Notes suggest a close metric name (or view name, where a view may stand).
    /// Held by `VisualFormatParserTests.unknownMetric`.
    mutating func unknownMetric(_ name: String, span: Range<Int>, isPriority: Bool = false,
                                suggestingViews: Bool = false) -> VisualFormatPredicate.Object {
        // (The suggestion and view scans only for a diagnostic that is kept: at most 100 a string.)
        guard collector.diagnostics.count < ParseResult.maximumDiagnostics else { return .invalid }
        var notes = suggestion(for: name, includingViews: suggestingViews)
        // Equations name priorities (`@high`); Apple's VFL takes a number or a metric.
        if isPriority, let named = (namedPriorities + uikitPriorityNames).first(where: { $0.0.lowercased() == name.lowercased() }) {
            notes.append("named priorities are for equations; in VFL write the number (\(name) is \(ConstraintText.format(named.1))) or define a metric")
        } else if isPriority && isView(name) {
            notes.append("'\(Diagnostic.echo(name))' is a view, and a priority is a number or a metric")
        }
        collector.append(Diagnostic(
            code: .unknownMetric,
            message: "Encountered metric with name \"\(Diagnostic.echo(name))\", but value was not specified in metrics or views dictionaries",
            span: span, notes: notes))
        return .invalid
    }

    /// Whether the string has a view `[name` (whitespace allowed after the `[`).
    /// - Complexity: O(length of the string); only for an unknown metric's message.
    func namesView(_ name: String) -> Bool {
        let bytes = cursor.bytes
        let target = Array(name.utf8)
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "[") else { continue }
            var start = index + 1
            while start < bytes.count && (bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t")) { start += 1 }
            let end = start + target.count
            guard end <= bytes.count, bytes[start..<end].elementsEqual(target) else { continue }
            if end == bytes.count || !SourceCursor.isIdentifierContinuation(bytes[end]) { return true }
        }
        return false
    }

    /// A "did you mean" note: the closest metric name, and view name when
    /// `includingViews`; none when there are more than 1,000 candidates (a bound on the
    /// work a diagnostic may cost).
    mutating func suggestion(for name: String, includingViews: Bool = false) -> [String] {
        let viewCount = includingViews ? options.views?.viewNameCount ?? 0 : 0
        guard collector.admitsSuggestion(among: options.metrics.count + viewCount) else { return [] }
        let views = includingViews ? options.views?.viewNames ?? [] : []
        // Sorted, so the suggestion never depends on dictionary order.
        let names = options.metrics.keys.sorted() + views
        return closestName(to: name, among: names).map { ["did you mean '\($0)'?"] } ?? []
    }

    // MARK: - Constraints

    /// The attributes on the start and end side of an element along the orientation.
    var startAndEnd: (Attribute, Attribute) {
        if isVertical { return (.top, .bottom) }
        switch direction {
        case .leadingToTrailing: return (.leading, .trailing)
        case .leftToRight: return (.left, .right)
        case .rightToLeft: return (.right, .left)
        }
    }

    mutating func emitConnection(_ connection: VisualFormatConnection, from first: VisualFormatEndpoint, to second: VisualFormatEndpoint) {
        let (startAttribute, endAttribute) = startAndEnd
        // Apple: the later element's start edge == the earlier element's end edge + gap;
        // the superview contributes the edge it shares with its child.
        let laterAttribute: Attribute
        let earlierAttribute: Attribute
        let later: VisualFormatEndpoint
        let earlier: VisualFormatEndpoint
        if case .view = second {
            (later, laterAttribute) = (second, startAttribute)
            (earlier, earlierAttribute) = (first, { if case .superview = first { return startAttribute } else { return endAttribute } }())
        } else {
            (later, laterAttribute) = (second, endAttribute)
            (earlier, earlierAttribute) = (first, endAttribute)
        }
        let touchesSuperview: Bool = { if case .superview = first { return true }; if case .superview = second { return true }; return false }()
        func emit(_ relation: Relation, _ gap: Double, _ priority: Double?, _ priorityOffset: Int? = nil) {
            var lhsTerm = AttributeTerm(item: later.item, attribute: laterAttribute, span: later.span)
            var rhsTerm = AttributeTerm(item: earlier.item, attribute: earlierAttribute, span: earlier.span)
            if direction == .rightToLeft && !isVertical { swap(&lhsTerm, &rhsTerm) }
            constraints.append(ParsedConstraint(
                lhs: LinearSide.inline(lhsTerm), relation: relation,
                rhs: LinearSide.inline(rhsTerm, constant: gap), priority: priority, span: connection.span,
                priorityOffset: priorityOffset))
        }
        // Flush and standard connections are one equality each (no predicate list built).
        switch connection.kind {
        case .flush:
            emit(.equal, 0, nil)
        case .standard:
            emit(.equal, touchesSuperview ? options.superviewSpacing : options.siblingSpacing, nil)
        case .simple(let relation, let gap):
            guard let gap else { return }
            emit(relation, gap, nil)
        case .predicates(let list):
            for predicate in list {
                guard case .constant(let gap) = predicate.object else { continue }
                emit(predicate.relation, gap, predicate.priority, predicate.priorityOffset)
            }
        }
    }

    mutating func emitPredicates(_ predicates: [VisualFormatPredicate], of name: String, span: Range<Int>) {
        let attribute: Attribute = isVertical ? .height : .width
        for predicate in predicates {
            let lhs = LinearSide.inline(AttributeTerm(item: .view(name), attribute: attribute, span: span))
            let rhs: LinearSide
            switch predicate.object {
            case .constant(let value): rhs = LinearSide(constant: value)
            case .view(let other, let otherSpan): rhs = LinearSide.inline(AttributeTerm(item: .view(other), attribute: attribute, span: otherSpan))
            case .invalid: continue
            }
            constraints.append(ParsedConstraint(lhs: lhs, relation: predicate.relation, rhs: rhs, priority: predicate.priority,
                                                span: predicate.span, priorityOffset: predicate.priorityOffset))
        }
    }
}
