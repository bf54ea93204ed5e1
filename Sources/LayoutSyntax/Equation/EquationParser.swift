/// Parses constraint equations into ``ParsedConstraint``s.
///
/// Grammar (spaces and tabs between tokens are ignored):
///
/// ```
/// equation   ::= helper | expression relation expression priority?
/// relation   ::= '~'? ('==' | '>=' | '<=')       (`~`: SwiftLayoutConstraints' spelling, the same relation)
/// expression ::= product (('+' | '-') product)*
/// product    ::= unary (('*' | '/') unary)*
/// unary      ::= ('+' | '-')* primary
/// primary    ::= number | metricName | item '.' attribute ('|' attribute)* | item
///              | '(' expression ')' | 'inset' '(' expression (',' expression){4} ')'
/// priority   ::= '@' (number | metricName | 'required' | 'high' | 'low' | 'fittingSize')
///              | '~' (number | metricName | …)
/// helper     ::= 'align' '(' attribute ':' item (',' item)+ ')' priority?
///              | 'distribute' '(' 'by' ':' expression ',' ('horizontally' | 'vertically') ':' item (',' item)+ ')' priority?
/// ```
///
/// Attributes are Apple's names, case-insensitive (`baseline` is `lastBaseline`), plus
/// the compound `edges` (top, leading, bottom, trailing; a constant insets, so bottom
/// and trailing get it negated), `size` (width, height) and `center` (centerX, centerY).
/// `superview` names the scene's container. Attribute lists (`a.top | left == b`) and
/// Cartography's `align`/`distribute` give one constraint per attribute or pair.
///
/// Faults: syntax → `equation_syntax` (parsing of the string stops); unknown metric and
/// attribute names are collected (`unknown_metric`, `unknown_attribute`); a product of
/// two attribute terms or a division by one → `nonlinear`; Apple's pairing rules
/// (horizontal with vertical, size with position, leading/trailing with left/right),
/// and inequalities on `edges`/`center` → `incompatible_attributes`.
///
/// - Complexity: O(n) in the length of the string (nesting is capped at
///   ``maximumNestingDepth``, so no input overflows the stack).
public struct EquationParser: Sendable {
    /// Metrics (standard spacing is not used by equations).
    public var options: ParseOptions

    /// Parentheses and `inset(…)` nest at most this deep (an `equation_syntax` error beyond).
    public static let maximumNestingDepth = 256

    /// Creates a parser.
    public init(options: ParseOptions = .init()) {
        self.options = options
    }

    /// Parses one equation or helper call.
    ///
    /// - Returns: the constraints (compound attributes and helpers give several, left
    ///   to right), or no constraints and the diagnostics.
    public func parse(_ source: String) -> ParseResult {
        withSourceCursor(source) { cursor in
            var run = EquationRun(cursor: cursor, options: options)
            return run.parse()
        }
    }
}

/// The named priorities (Apple's `UILayoutPriority` constants).
let namedPriorities: [(String, Double)] = [("required", 1000), ("high", 750), ("low", 250), ("fittingSize", 50)]

/// UIKit's names of the same priorities (`UILayoutPriority.defaultHigh`, `.defaultLow`,
/// `.fittingSizeLevel`), as a `priority` member takes them. An equation reads them after
/// its metrics, so a metric of one of these names keeps its meaning
/// (EquationParserTests.uikitPriorityNamesAfterMetrics).
let uikitPriorityNames: [(String, Double)] = [("defaultHigh", 750), ("defaultLow", 250), ("fittingSizeLevel", 50)]

/// "did you mean" notes for an unknown metric; candidates sorted so dictionary order never shows.
func metricSuggestion(for name: String, in options: ParseOptions, collector: inout DiagnosticCollector) -> [String] {
    guard collector.admitsSuggestion(among: options.metrics.count) else { return [] }
    return closestName(to: name, among: options.metrics.keys.sorted()).map { ["did you mean '\($0)'?"] } ?? []
}

/// The state of one equation parse.
struct EquationRun {
    var cursor: SourceCursor
    let options: ParseOptions
    var collector = DiagnosticCollector()
    var constraints: [ParsedConstraint] = []
    /// Set when a collected fault means the string must produce nothing.
    var isInvalid = false
    /// The first number beyond the limit (see ``ParseResult/numberBeyondLimit``).
    var numberBeyondLimit: NumberBeyondLimit?
    /// Where the statement's `@` or `~` is, once read.
    var priorityOffset: Int?

    init(cursor: SourceCursor, options: ParseOptions) {
        self.cursor = cursor
        self.options = options
        collector.suggestionBudget = options.suggestionComparisons
    }

    mutating func parse() -> ParseResult {
        do {
            try parseStatement()
        } catch {
            collector.append(error.diagnostic)
        }
        if collector.hasErrors { return collector.result([]) }
        guard numberBeyondLimit != nil else { return collector.result(constraints) }
        var result = collector.result(constraints, numberBeyondLimit: numberBeyondLimit)
        result.dropNonFiniteConstraints()
        return result
    }

    /// Remembers the first literal or metric use beyond ``ParseOptions/maximumMagnitude``.
    mutating func checkMagnitude(_ value: Double, span: Range<Int>, metric: String? = nil) {
        if numberBeyondLimit == nil && options.isBeyondLimit(value) {
            numberBeyondLimit = NumberBeyondLimit(span: span, value: value, metric: metric)
        }
    }

    // MARK: - Faults

    func fault(_ message: String, code: Diagnostic.Code = .equationSyntax, at position: Int? = nil,
               span: Range<Int>? = nil, notes: [String] = []) -> SyntaxFault {
        SyntaxFault(diagnostic: Diagnostic(code: code, message: message, span: span ?? cursor.characterSpan(at: position), notes: notes))
    }

    mutating func collect(_ code: Diagnostic.Code, _ message: String, span: Range<Int>, notes: [String] = []) {
        isInvalid = true
        collector.append(Diagnostic(code: code, message: message, span: span, notes: notes))
    }

    /// The span of the whole statement: first to last non-blank byte.
    var statementSpan: Range<Int> {
        var start = 0
        while start < cursor.bytes.count, cursor.bytes[start] == 0x20 || cursor.bytes[start] == 0x09 { start += 1 }
        var end = cursor.bytes.count
        while end > start, cursor.bytes[end - 1] == 0x20 || cursor.bytes[end - 1] == 0x09 { end -= 1 }
        return start..<end
    }

    // MARK: - Statement

    mutating func parseStatement() throws(SyntaxFault) {
        cursor.skipWhitespace()
        // A string the contract's bare-string rule reads as VFL (``isVisualFormat(_:)``) only
        // reaches this parser from an `equation` member: said so at the first character an
        // equation cannot take (`:` after the orientation, or the `|` / `[` it starts with).
        // EquationParserTests.visualFormatGivenAsAnEquation.
        if let first = cursor.current {
            let orientation = (first == UInt8(ascii: "H") || first == UInt8(ascii: "V")) && cursor.next == UInt8(ascii: ":")
            if orientation || first == UInt8(ascii: "|") || first == UInt8(ascii: "[") {
                let start = orientation ? (first == UInt8(ascii: "H") ? "H:" : "V:") : (first == UInt8(ascii: "|") ? "|" : "[")
                throw fault("This is Visual Format Language (it starts with '\(start)'), not an equation: "
                                + "give it as {\"vfl\": \"...\"} rather than {\"equation\": \"...\"}",
                            code: .vflSyntax, at: orientation ? cursor.offset + 1 : cursor.offset)
            }
        }
        if cursor.isAtIdentifier {
            let saved = cursor.offset
            let (name, _) = cursor.readIdentifier()
            cursor.skipWhitespace()
            if cursor.current == UInt8(ascii: "(") {
                if name == "align" { return try parseAlign() }
                if name == "distribute" { return try parseDistribute() }
            }
            // A mistyped VFL orientation (`h:`, `X:`, `H :`, `H|[a]`) is not an equation:
            // said so at the first character an equation cannot take.
            let next = cursor.current
            if (name == "H" || name == "V") && cursor.offset == saved + 1
                && (next == UInt8(ascii: "|") || next == UInt8(ascii: "[")) {
                // Apple's message and caret for an orientation without its colon (`V|[a]|`).
                throw fault(name == "V" ? "Expected ':' after 'V' to specify vertical arrangement"
                                        : "Expected ':' after 'H' to specify horizontal arrangement",
                            code: .vflSyntax, notes: ["found \(cursor.describeFound())"])
            }
            if name.utf8.count == 1, next == UInt8(ascii: ":")
                || ((name == "H" || name == "V") && (next == UInt8(ascii: "|") || next == UInt8(ascii: "["))) {
                throw fault("A VFL string starts with 'H:' or 'V:' (capital, ':' right after it) or with '|' or '[', found \(cursor.describeFound(at: saved)) followed by \(cursor.describeFound())",
                            code: .vflSyntax)
            }
            cursor.offset = saved
        }
        if cursor.isAtEnd { throw fault("Expected an equation like 'a.width == 100', found the end of the string") }
        let lhs = try parseExpression(depth: 0)
        cursor.skipWhitespace()
        let relation = try parseRelation(expected: "after the left side")
        let rhs = try parseExpression(depth: 0)
        let priorityStart = cursor.offset
        let priority = try parseOptionalPriority()
        try expectEnd(secondRelationIsPossible: true, afterPriority: cursor.offset > priorityStart)
        try emit(lhs: lhs, relation: relation, rhs: rhs, priority: priority, span: statementSpan)
    }

    /// `relation`: `==`, `>=`, `<=`, or SwiftLayoutConstraints' `~==`, `~>=`, `~<=` (the
    /// same relations). Held by `EquationParserTests.swiftLayoutConstraintsRelations`.
    mutating func parseRelation(expected context: String) throws(SyntaxFault) -> Relation {
        if cursor.current == UInt8(ascii: "~"), let next = cursor.next,
           next == UInt8(ascii: "=") || next == UInt8(ascii: "<") || next == UInt8(ascii: ">") {
            cursor.offset += 1
        }
        guard let first = cursor.current, first == UInt8(ascii: "=") || first == UInt8(ascii: "<") || first == UInt8(ascii: ">") else {
            throw fault("Expected '==', '>=' or '<=' \(context), found \(cursor.describeFound())")
        }
        cursor.offset += 1
        guard cursor.consume(UInt8(ascii: "=")) else {
            // At the first character that cannot be consumed (the contract's column), as before.
            throw fault(SourceCursor.unknownRelationMessage(first, next: cursor.current))
        }
        return first == UInt8(ascii: "=") ? .equal : first == UInt8(ascii: "<") ? .lessThanOrEqual : .greaterThanOrEqual
    }

    /// `afterPriority`: a priority was just read, so only the end may follow.
    mutating func expectEnd(secondRelationIsPossible: Bool, afterPriority: Bool = false) throws(SyntaxFault) {
        cursor.skipWhitespace()
        guard let byte = cursor.current else { return }
        if secondRelationIsPossible, byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") {
            throw fault("An equation has one relation; found a second one at \(cursor.describeFound())")
        }
        if afterPriority {
            if byte == UInt8(ascii: "@") || byte == UInt8(ascii: "~") {
                throw fault("An equation has one priority; found a second one at \(cursor.describeFound())")
            }
            throw fault("The priority ends the equation: expected the end after it, found \(cursor.describeFound())")
        }
        throw fault("Expected an operator (+ - * /), a priority ('@750') or the end of the equation, found \(cursor.describeFound())")
    }

    /// `@ priority` or `~ priority`, if present; checks 1...1000.
    mutating func parseOptionalPriority() throws(SyntaxFault) -> Double? {
        cursor.skipWhitespace()
        guard cursor.current == UInt8(ascii: "@") || cursor.current == UInt8(ascii: "~") else { return nil }
        priorityOffset = cursor.offset
        cursor.offset += 1
        cursor.skipWhitespace()
        let start = cursor.offset
        var value: Double?
        var literal: String?   // as written, for a number too large for a double
        if cursor.isAtNumber {
            let (number, span) = cursor.readNumber()
            value = number
            if !number.isFinite { literal = cursor.text(span) }
        } else if cursor.isAtIdentifier {
            let (name, span) = cursor.readWord()
            // By bytes, case-insensitively in ASCII (a name outside ASCII names none).
            if cursor.lastWordIsASCII, let named = namedPriorities.first(where: { $0.0.lowercased() == name.lowercased() }) {
                value = named.1
            } else if let metric = options.metric(named: name) {
                value = metric
            } else if cursor.lastWordIsASCII, let named = uikitPriorityNames.first(where: { $0.0.lowercased() == name.lowercased() }) {
                value = named.1
            } else {
                // The did-you-mean ends the message, as for a `priority` member's value.
                var suggestion = ""
                if collector.admitsSuggestion(among: namedPriorities.count + options.metrics.count) {
                    suggestion = closestNameOrCompletion(to: name, among: namedPriorities.map(\.0) + options.metrics.keys.sorted())
                        .map { "; did you mean '\($0)'?" } ?? ""
                }
                collect(.unknownMetric, "Unknown priority '\(Diagnostic.echo(name))': use a number from 1 to 1000, required, high, low, fittingSize or a metric\(suggestion)",
                        span: span)
                return nil
            }
        } else {
            throw fault("Expected a priority (a number from 1 to 1000, required, high, low, fittingSize or a metric), found \(cursor.describeFound())")
        }
        if let value, !(1...1000).contains(value) {
            throw fault("Priority \(literal ?? ConstraintText.format(value)) is out of range: priorities run from 1 to 1000", at: start)
        }
        return value
    }

    // MARK: - Expressions

    mutating func parseExpression(depth: Int) throws(SyntaxFault) -> LinearExpression {
        var result = try parseProduct(depth: depth)
        while true {
            cursor.skipWhitespace()
            guard let byte = cursor.current, byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return result }
            cursor.offset += 1
            let operand = try parseProduct(depth: depth)
            result.add(operand, sign: byte == UInt8(ascii: "-") ? -1 : 1)
        }
    }

    mutating func parseProduct(depth: Int) throws(SyntaxFault) -> LinearExpression {
        var value = try parseUnary(depth: depth)
        // With terms, factors are applied once at the end: `(a + b + …) * 2 * 2 * …` stays linear.
        var numerator = 1.0
        var denominator = 1.0
        while true {
            cursor.skipWhitespace()
            guard let byte = cursor.current, byte == UInt8(ascii: "*") || byte == UInt8(ascii: "/") else { break }
            cursor.offset += 1
            cursor.skipWhitespace()
            let operandStart = cursor.offset
            var operand = try parseUnary(depth: depth)
            if byte == UInt8(ascii: "*") {
                if value.hasTerms && operand.hasTerms {
                    if reportBareNamesAsMetrics(in: &operand) {
                        continue
                    } else if reportBareNamesAsMetrics(in: &value) {
                        value = operand
                        continue
                    }
                    throw fault("Nonlinear: a product of two view attributes cannot be a linear constraint",
                                code: .nonlinear, at: operandStart,
                                notes: ["multiply attributes by numbers or metrics only, e.g. '0.5 * b.width'"])
                }
                if operand.hasTerms {
                    let factor = value.constant * numerator / denominator
                    value = operand
                    numerator = factor
                    denominator = 1
                } else if value.hasTerms {
                    numerator *= operand.constant
                } else {
                    value.constant *= operand.constant
                }
            } else {
                if operand.hasTerms {
                    if reportBareNamesAsMetrics(in: &operand) { continue }
                    throw fault("Nonlinear: division by a view attribute cannot be a linear constraint",
                                code: .nonlinear, at: operandStart)
                }
                guard operand.constant != 0 else {
                    throw fault("Division by zero", at: operandStart)
                }
                if value.hasTerms {
                    denominator *= operand.constant
                } else {
                    value.constant /= operand.constant
                }
            }
        }
        if value.hasTerms && (numerator != 1 || denominator != 1) {
            value.scale(numerator: numerator, denominator: denominator)
        }
        return value
    }

    /// When every term of `expression` is a bare name (never a view inside a product),
    /// reports each as an unknown metric, makes the expression the constant 1, and
    /// returns true.
    mutating func reportBareNamesAsMetrics(in expression: inout LinearExpression) -> Bool {
        guard expression.terms.allSatisfy({ $0.slot == .bare }) else { return false }
        for term in expression.terms { reportUnknownMetric(term) }
        expression = LinearExpression(constant: 1, start: expression.start)
        return true
    }

    mutating func reportUnknownMetric(_ term: ExpressionTerm) {
        let name = term.item.displayName
        var notes = metricSuggestion(for: name, in: options, collector: &collector)
        if notes.isEmpty { notes = ["if '\(Diagnostic.echo(name))' is a view, name one of its attributes, e.g. '\(Diagnostic.echo(name)).width'"] }
        collect(.unknownMetric, "Unknown metric '\(Diagnostic.echo(name))'", span: term.itemSpan, notes: notes)
    }

    mutating func parseUnary(depth: Int) throws(SyntaxFault) -> LinearExpression {
        var isNegative = false
        while true {
            cursor.skipWhitespace()
            if cursor.consume(UInt8(ascii: "-")) {
                isNegative.toggle()
            } else if !cursor.consume(UInt8(ascii: "+")) {
                break
            }
        }
        var value = try parsePrimary(depth: depth)
        if isNegative { value.scale(numerator: -1) }
        return value
    }

    mutating func parsePrimary(depth: Int) throws(SyntaxFault) -> LinearExpression {
        cursor.skipWhitespace()
        let start = cursor.offset
        if cursor.current == UInt8(ascii: "(") {
            guard depth < EquationParser.maximumNestingDepth else {
                throw fault("The expression is nested too deeply (more than \(EquationParser.maximumNestingDepth) levels; limit maxNestingDepth)", code: .limitExceeded)
            }
            cursor.offset += 1
            var inner = try parseExpression(depth: depth + 1)
            cursor.skipWhitespace()
            guard cursor.consume(UInt8(ascii: ")")) else {
                throw fault("Expected ')' to close the '(' at column \(Diagnostic.scalarColumn(ofByteOffset: start, in: String(decoding: cursor.bytes[..<start], as: UTF8.self))), found \(cursor.describeFound())")
            }
            inner.start = start
            return inner
        }
        if cursor.isAtNumber {
            let (value, span) = cursor.readNumber()
            // One too large for a double (`1e309`) is beyond the magnitude limit like any
            // other: recorded here, reported at it (the arithmetic guard below then stops).
            checkMagnitude(value, span: span)
            return LinearExpression(constant: value, start: start)
        }
        guard cursor.isAtIdentifier else {
            throw fault("Expected a number, a view attribute like 'a.width', a metric name or '(', found \(cursor.describeFound())")
        }
        let (name, nameSpan) = cursor.readWord()
        let afterName = cursor.offset
        cursor.skipWhitespace()
        if name == "inset" && cursor.current == UInt8(ascii: "(") {
            return try parseInset(depth: depth, start: start)
        }
        let item: ItemReference = name == "superview" ? .container : .view(name)
        guard cursor.consume(UInt8(ascii: ".")) else {
            cursor.offset = afterName
            if !cursor.lastWordIsASCII {
                // No metric has such a name: reported here, at the name, and read as 1.
                collect(.unknownMetric, "Unknown metric '\(Diagnostic.echo(name))': metric names are ASCII letters, digits and '_'", span: nameSpan)
                return LinearExpression(constant: 1, start: start)
            }
            if let value = options.metric(named: name) {
                checkMagnitude(value, span: nameSpan, metric: name)
                return LinearExpression(constant: value, start: start)
            }
            let term = ExpressionTerm(item: item, slot: .bare, coefficient: 1, itemSpan: nameSpan, attributeSpan: nameSpan)
            return LinearExpression(terms: [term], start: start)
        }
        if !cursor.lastWordIsASCII { collect(.unknownView, SourceCursor.nonASCIIViewNameMessage(name), span: nameSpan) }
        cursor.skipWhitespace()
        let slot = try parseAttributeSlot(of: name)
        let term = ExpressionTerm(item: item, slot: slot.slot, coefficient: 1, itemSpan: nameSpan, attributeSpan: slot.span)
        return LinearExpression(terms: [term], start: start)
    }

    /// `attribute ('|' attribute)*` after `item.`.
    mutating func parseAttributeSlot(of itemName: String) throws(SyntaxFault) -> (slot: AttributeSlot, span: Range<Int>) {
        guard cursor.isAtIdentifier else {
            throw fault("Expected an attribute name after '\(Diagnostic.echo(itemName)).', found \(cursor.describeFound())")
        }
        let (first, firstSpan) = cursor.readWord()
        let afterFirst = cursor.offset
        cursor.skipWhitespace()
        guard cursor.current == UInt8(ascii: "|") else {
            cursor.offset = afterFirst
            if let compound = CompoundAttribute(name: first) { return (.compound(compound), firstSpan) }
            guard let attribute = resolveAttribute(first, span: firstSpan) else { return (.invalid, firstSpan) }
            return (.single(attribute), firstSpan)
        }
        var attributes: [Attribute] = []
        var isValid = true
        var name = first
        var span = firstSpan
        while true {
            if CompoundAttribute(name: name) != nil {
                throw fault("The compound attribute '\(Diagnostic.echo(name))' cannot be part of an attribute list",
                            code: .incompatibleAttributes, span: span)
            }
            if let attribute = resolveAttribute(name, span: span) { attributes.append(attribute) } else { isValid = false }
            let afterName = cursor.offset
            cursor.skipWhitespace()
            guard cursor.consume(UInt8(ascii: "|")) else {
                cursor.offset = afterName
                break
            }
            cursor.skipWhitespace()
            guard cursor.isAtIdentifier else {
                throw fault("Expected an attribute name after '|', found \(cursor.describeFound())")
            }
            (name, span) = cursor.readWord()
        }
        return (isValid ? .list(attributes) : .invalid, firstSpan)
    }

    /// Looks an attribute up; an unknown one is collected with a suggestion.
    mutating func resolveAttribute(_ name: String, span: Range<Int>) -> Attribute? {
        if let attribute = Attribute(name: name) { return attribute }
        let candidates = Attribute.allCases.map(\.rawValue) + ["baseline", "edges", "size", "center"]
        let suggestion = closestName(to: name, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
        collect(.unknownAttribute, "Unknown attribute '\(Diagnostic.echo(name))'\(suggestion)", span: span)
        return nil
    }

    /// `inset(b.edges, top, leading, bottom, trailing)`, at the `(`; also Cartography's
    /// `inset(b.edges, all)` and `inset(b.edges, horizontal, vertical)` (horizontal
    /// insets leading and trailing, vertical top and bottom).
    mutating func parseInset(depth: Int, start: Int) throws(SyntaxFault) -> LinearExpression {
        guard depth < EquationParser.maximumNestingDepth else {
            throw fault("The expression is nested too deeply (more than \(EquationParser.maximumNestingDepth) levels; limit maxNestingDepth)", code: .limitExceeded, at: start)
        }
        cursor.offset += 1
        var edges = try parseExpression(depth: depth + 1)
        guard edges.hasTerms, edges.insets == nil,
              edges.terms.allSatisfy({ $0.slot == .compound(.edges) || $0.slot == .invalid }) else {
            throw fault("inset(…) takes an edges expression first, like 'inset(b.edges, 8, 16, 8, 16)'", at: edges.start)
        }
        var amounts: [Double] = []
        for index in 0..<4 {
            cursor.skipWhitespace()
            if (index == 1 || index == 2) && cursor.current == UInt8(ascii: ")") { break }
            guard cursor.consume(UInt8(ascii: ",")) else {
                throw fault(index == 0
                    ? "Expected ',' and an inset amount: inset(edges, all), inset(edges, horizontal, vertical) or inset(edges, top, leading, bottom, trailing); found \(cursor.describeFound())"
                    : "Expected ',' and the next inset (one amount for all sides, two for horizontal and vertical, or four for top, leading, bottom, trailing), found \(cursor.describeFound())")
            }
            let amount = try parseExpression(depth: depth + 1)
            if amount.hasTerms {
                if amount.terms.allSatisfy({ $0.slot == .bare }) {
                    for term in amount.terms { reportUnknownMetric(term) }
                } else {
                    throw fault("An inset amount must be a number or a metric", at: amount.start)
                }
            }
            amounts.append(amount.constant)
        }
        cursor.skipWhitespace()
        guard cursor.consume(UInt8(ascii: ")")) else {
            throw fault("Expected ')' to close inset(…) after four amounts, found \(cursor.describeFound())")
        }
        // Cartography's shorter forms: inset(edges, all) and inset(edges, horizontal, vertical).
        if amounts.count == 1 { amounts = [amounts[0], amounts[0], amounts[0], amounts[0]] }
        if amounts.count == 2 { amounts = [amounts[1], amounts[0], amounts[1], amounts[0]] }
        edges.insets = amounts
        edges.start = start
        return edges
    }

    // MARK: - Helpers (Cartography)

    /// Attributes `align(…)` takes, as Cartography's `align(top:…)` family.
    static let alignableAttributes: [Attribute] = [.top, .bottom, .left, .right, .leading, .trailing, .centerX, .centerY,
                                                   .lastBaseline, .firstBaseline]

    /// `align(attribute: a, b, c)`: each later view against the first.
    mutating func parseAlign() throws(SyntaxFault) {
        cursor.offset += 1
        cursor.skipWhitespace()
        guard cursor.isAtIdentifier else {
            throw fault("Expected an attribute label like 'top:' in align(…), found \(cursor.describeFound())")
        }
        let (label, labelSpan) = cursor.readIdentifier()
        let attribute = resolveAttribute(label, span: labelSpan)
        if let attribute, !Self.alignableAttributes.contains(attribute) {
            throw fault("align(…) takes top, bottom, left, right, leading, trailing, centerX, centerY or baseline, not '\(Diagnostic.echo(label))'",
                        code: .incompatibleAttributes, span: labelSpan)
        }
        try expectLabelColon(label)
        let views = try parseViewList()
        let priority = try parseOptionalPriority()
        try expectEnd(secondRelationIsPossible: false)
        guard let attribute, !isInvalid else { return }
        let first = views[0]
        for other in views.dropFirst() {
            let lhs = LinearSide.inline(AttributeTerm(item: first.item, attribute: attribute, span: first.span))
            let rhs = LinearSide.inline(AttributeTerm(item: other.item, attribute: attribute, span: other.span))
            constraints.append(ParsedConstraint(lhs: lhs, relation: .equal, rhs: rhs, priority: priority, span: other.span,
                                               priorityOffset: priorityOffset))
        }
    }

    /// `distribute(by: spacing, horizontally: a, b, c)` / `vertically:`: consecutive views `spacing` apart.
    mutating func parseDistribute() throws(SyntaxFault) {
        cursor.offset += 1
        cursor.skipWhitespace()
        let labelStart = cursor.offset
        guard cursor.isAtIdentifier, cursor.readIdentifier().name == "by" else {
            throw fault("Expected 'by:' in distribute(by: 8, horizontally: a, b)", at: labelStart)
        }
        try expectLabelColon("by")
        let spacing = try parseExpression(depth: 1)
        if spacing.hasTerms {
            if spacing.terms.allSatisfy({ $0.slot == .bare }) {
                for term in spacing.terms { reportUnknownMetric(term) }
            } else {
                throw fault("The spacing of distribute(…) must be a number or a metric", at: spacing.start)
            }
        }
        cursor.skipWhitespace()
        guard cursor.consume(UInt8(ascii: ",")) else {
            throw fault("Expected ',' and 'horizontally:' or 'vertically:' after the spacing, found \(cursor.describeFound())")
        }
        cursor.skipWhitespace()
        let axisStart = cursor.offset
        guard cursor.isAtIdentifier else {
            throw fault("Expected 'horizontally:' or 'vertically:', found \(cursor.describeFound())")
        }
        let (axisName, _) = cursor.readIdentifier()
        let edges: (Attribute, Attribute)
        switch axisName {
        case "horizontally": edges = (.trailing, .leading)
        case "vertically": edges = (.bottom, .top)
        default: throw fault("Expected 'horizontally:' or 'vertically:', found '\(Diagnostic.echo(axisName))'", at: axisStart)
        }
        try expectLabelColon(axisName)
        let views = try parseViewList()
        let priority = try parseOptionalPriority()
        try expectEnd(secondRelationIsPossible: false)
        guard !isInvalid else { return }
        guard spacing.constant.isFinite else {
            if numberBeyondLimit != nil { return }
            throw fault("Number is out of range", at: spacing.start)
        }
        for (earlier, later) in zip(views, views.dropFirst()) {
            let lhs = LinearSide.inline(AttributeTerm(item: later.item, attribute: edges.1, span: later.span))
            let rhs = LinearSide.inline(AttributeTerm(item: earlier.item, attribute: edges.0, span: earlier.span),
                                 constant: spacing.constant)
            constraints.append(ParsedConstraint(lhs: lhs, relation: .equal, rhs: rhs, priority: priority, span: later.span,
                                               priorityOffset: priorityOffset))
        }
    }

    mutating func expectLabelColon(_ label: String) throws(SyntaxFault) {
        cursor.skipWhitespace()
        guard cursor.consume(UInt8(ascii: ":")) else {
            throw fault("Expected ':' after '\(Diagnostic.echo(label))', found \(cursor.describeFound())")
        }
    }

    /// `item (',' item)* ')'` with at least two items.
    mutating func parseViewList() throws(SyntaxFault) -> [(item: ItemReference, span: Range<Int>)] {
        var views: [(item: ItemReference, span: Range<Int>)] = []
        while true {
            cursor.skipWhitespace()
            guard cursor.isAtIdentifier else {
                throw fault("Expected a view name, found \(cursor.describeFound())")
            }
            let (name, span) = cursor.readWord()
            if !cursor.lastWordIsASCII { collect(.unknownView, SourceCursor.nonASCIIViewNameMessage(name), span: span) }
            views.append((name == "superview" ? .container : .view(name), span))
            cursor.skipWhitespace()
            if cursor.consume(UInt8(ascii: ")")) { break }
            guard cursor.consume(UInt8(ascii: ",")) else {
                throw fault("Expected ',' before another view or ')' to close the list, found \(cursor.describeFound())")
            }
        }
        guard views.count >= 2 else {
            throw fault("At least two views are needed, found one", at: cursor.offset - 1)
        }
        return views
    }

    // MARK: - Expansion and Apple's rules

    /// Expands compound attributes, attribute lists and bare views, checks Apple's pairing
    /// rules, and appends the constraints.
    mutating func emit(lhs: LinearExpression, relation: Relation, rhs: LinearExpression, priority: Double?,
                       span: Range<Int>) throws(SyntaxFault) {
        var expansion: [Attribute]?
        var compound: CompoundAttribute?
        var expansionName = ""
        var compoundSpan = span
        var firstSingle: ExpressionTerm?
        var bareTerms: [ExpressionTerm] = []
        for term in lhs.terms + rhs.terms {
            let attributes: [Attribute]
            let name: String
            switch term.slot {
            case .single:
                if firstSingle == nil { firstSingle = term }
                continue
            case .bare:
                bareTerms.append(term)
                continue
            case .invalid:
                continue
            case .compound(let kind):
                attributes = kind.attributes
                name = kind.name
                if compound == nil { compound = kind; compoundSpan = term.attributeSpan }
            case .list(let list):
                attributes = list
                name = list.map(\.rawValue).joined(separator: " | ")
            }
            if let expansion, expansion != attributes {
                throw fault("Cannot relate '\(Diagnostic.echo(name))' to '\(Diagnostic.echo(expansionName))': both sides need the same attributes",
                            code: .incompatibleAttributes, span: term.attributeSpan)
            }
            expansion = attributes
            expansionName = name
        }
        guard let attributes = expansion else {
            for term in bareTerms { reportUnknownMetric(term) }
            guard !isInvalid else { return }
            try emitPart(lhs: lhs, relation: relation, rhs: rhs, priority: priority, span: span, component: nil)
            return
        }
        if let single = firstSingle, case .single(let attribute) = single.slot {
            throw fault("Cannot relate '\(attribute.rawValue)' to '\(Diagnostic.echo(expansionName))': write the same attributes on both sides, or the view alone",
                        code: .incompatibleAttributes, span: single.attributeSpan)
        }
        if let compound, compound != .size, relation != .equal {
            throw fault("'\(Diagnostic.echo(compound.name))' takes '==' only; write each attribute's inequality separately",
                        code: .incompatibleAttributes, span: compoundSpan)
        }
        guard !isInvalid else { return }
        for index in attributes.indices {
            try emitPart(lhs: lhs, relation: relation, rhs: rhs, priority: priority, span: span,
                         component: (index, attributes[index], compound == .edges))
        }
    }

    /// One constraint of an equation: `component` picks the attribute of compound and bare terms.
    mutating func emitPart(lhs: LinearExpression, relation: Relation, rhs: LinearExpression, priority: Double?,
                           span: Range<Int>, component: (index: Int, attribute: Attribute, isEdges: Bool)?) throws(SyntaxFault) {
        var attributeSpans: [Range<Int>] = []
        func side(_ expression: LinearExpression, spans: inout [Range<Int>]) -> LinearSide {
            var terms: [AttributeTerm] = []
            var indexByKey: [TermKey: Int] = [:]
            if expression.terms.count > 16 { indexByKey.reserveCapacity(expression.terms.count) }
            for term in expression.terms {
                let attribute: Attribute
                switch term.slot {
                case .single(let single): attribute = single
                case .compound, .list, .bare:
                    guard let component else { continue }
                    attribute = component.attribute
                case .invalid: continue
                }
                // Like terms: a linear scan for the usual few terms, a table beyond that.
                let existing: Int?
                if expression.terms.count <= 16 {
                    existing = terms.firstIndex { $0.item == term.item && $0.attribute == attribute }
                } else {
                    existing = indexByKey[TermKey(item: term.item, attribute: attribute)]
                }
                if let existing {
                    terms[existing].coefficient += term.coefficient
                } else {
                    if expression.terms.count > 16 { indexByKey[TermKey(item: term.item, attribute: attribute)] = terms.count }
                    terms.append(AttributeTerm(item: term.item, attribute: attribute, coefficient: term.coefficient, span: term.itemSpan))
                    spans.append(term.attributeSpan)
                }
            }
            var constant = expression.constant
            if let component {
                if let insets = expression.insets, insets.indices.contains(component.index) {
                    constant += insets[component.index]
                }
                if component.isEdges && (component.attribute == .bottom || component.attribute == .trailing) {
                    constant = -constant
                }
            }
            guard terms.contains(where: { $0.coefficient == 0 }) else {
                return LinearSide(terms: terms, constant: constant)
            }
            // Drop terms that cancelled out (`2 * a.width - 2 * a.width`), with their spans.
            var kept: [AttributeTerm] = []
            var keptSpans: [Range<Int>] = []
            let firstSpan = spans.count - terms.count
            for (offset, term) in terms.enumerated() where term.coefficient != 0 {
                kept.append(term)
                keptSpans.append(spans[firstSpan + offset])
            }
            spans.removeLast(terms.count)
            spans.append(contentsOf: keptSpans)
            return LinearSide(terms: kept, constant: constant)
        }
        let left = side(lhs, spans: &attributeSpans)
        let right = side(rhs, spans: &attributeSpans)
        guard !left.terms.isEmpty || !right.terms.isEmpty else {
            if !lhs.terms.isEmpty || !rhs.terms.isEmpty {
                throw fault("The view attributes of this equation cancel out (or are multiplied by 0), so it constrains no view",
                            at: span.lowerBound)
            }
            throw fault("An equation needs at least one view attribute, like 'a.width == 100'", at: span.lowerBound)
        }
        try checkPairing(left.terms, right.terms, spans: attributeSpans)
        guard left.constant.isFinite, right.constant.isFinite,
              left.terms.allSatisfy({ $0.coefficient.isFinite }), right.terms.allSatisfy({ $0.coefficient.isFinite }) else {
            // The arithmetic overflowed. A number beyond the magnitude limit (the usual
            // cause: `1e300 * 1e300`) is already recorded and is the error the caller
            // reports, at that number; the constraint itself is left out.
            if numberBeyondLimit != nil { return }
            throw fault("Number is out of range", at: span.lowerBound)
        }
        constraints.append(ParsedConstraint(lhs: left, relation: relation, rhs: right, priority: priority, span: span,
                                               priorityOffset: priorityOffset))
    }

    /// Apple's pairing rules: no horizontal with vertical (except width with height), no
    /// leading/trailing with left/right, and in Apple's form (one term each side) no size
    /// with position. - Complexity: O(terms × distinct attributes), at most 20 distinct.
    func checkPairing(_ lhs: AttributeTerms, _ rhs: AttributeTerms, spans: [Range<Int>]) throws(SyntaxFault) {
        var seen: [Attribute] = []
        seen.reserveCapacity(4)
        for index in 0..<(lhs.count + rhs.count) {
            let attribute = index < lhs.count ? lhs[index].attribute : rhs[index - lhs.count].attribute
            for earlier in seen {
                if earlier.axis != attribute.axis && !(earlier.isSize && attribute.isSize) {
                    throw fault("Cannot relate '\(attribute.rawValue)' (\(attribute.axis == .vertical ? "vertical" : "horizontal")) to '\(earlier.rawValue)' (\(earlier.axis == .vertical ? "vertical" : "horizontal"))",
                                code: .incompatibleAttributes, span: spans[index])
                }
                if (earlier.isDirectional && attribute.isAbsoluteHorizontalEdge) || (earlier.isAbsoluteHorizontalEdge && attribute.isDirectional) {
                    throw fault("Cannot relate '\(attribute.rawValue)' to '\(earlier.rawValue)': leading/trailing and left/right do not mix",
                                code: .incompatibleAttributes, span: spans[index])
                }
            }
            if !seen.contains(attribute) { seen.append(attribute) }
        }
        if lhs.count == 1, rhs.count == 1, lhs[0].attribute.isSize != rhs[0].attribute.isSize {
            let (first, second) = (lhs[0].attribute, rhs[0].attribute)
            throw fault("Cannot relate the \(second.isSize ? "size" : "position") '\(second.rawValue)' to the \(first.isSize ? "size" : "position") '\(first.rawValue)'",
                        code: .incompatibleAttributes, span: spans[1])
        }
    }
}

/// Identifies like terms (same item and attribute) for combining.
struct TermKey: Hashable {
    var item: ItemReference
    var attribute: Attribute
}
