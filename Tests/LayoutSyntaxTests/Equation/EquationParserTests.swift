import Testing
@testable import LayoutSyntax

struct EquationParserTests {
    static let metrics: [String: Double] = ["pad": 8, "gap": 12, "p": 600, "padding": 16]

    func parse(_ source: String) -> ParseResult {
        EquationParser(options: ParseOptions(metrics: Self.metrics)).parse(source)
    }

    /// A literal too large for a double is not a syntax error: it is recorded as the
    /// number beyond the magnitude limit (the compiler reports `limit_exceeded` there).
    @Test func literalBeyondADoubleIsBeyondTheLimit() {
        let result = parse("a.width == 1e999")
        #expect(result.diagnostics.isEmpty)
        #expect(result.numberBeyondLimit?.span == 11..<16)
        #expect(result.numberBeyondLimit?.value == .infinity)
        #expect(result.constraints.isEmpty)
        // A priority that large is quoted as written.
        #expect(parse("a.width == 10 @1e999").diagnostics.first?.message
            == "Priority 1e999 is out of range: priorities run from 1 to 1000")
        let inset = parse("a.edges == inset(b.edges, 1e999)")
        #expect(inset.numberBeyondLimit?.span == 26..<31)
        #expect(inset.constraints.isEmpty)
    }

    // MARK: - Every construct

    @Test("linear equations", arguments: [
        ("red.width == 100", ["red.width == 100"]),
        ("red.top >= 20", ["red.top >= 20"]),
        ("photo.height == photo.width", ["photo.height == photo.width"]),
        ("a.centerX == card.centerX * 0.5", ["a.centerX == 0.5 * card.centerX"]),
        ("a.width == 2 * b.width + 10", ["a.width == 2 * b.width + 10"]),
        ("a.width == (superview.width - 50) * 0.5", ["a.width == 0.5 * superview.width - 25"]),
        ("a.width == superview.width * 1/3", ["a.width == 0.3333333333333333 * superview.width"]),
        ("a.width == superview.width / 3", ["a.width == 0.3333333333333333 * superview.width"]),
        ("a.width == b.width * 3 / 3", ["a.width == b.width"]),
        ("a.width == 6 / 3", ["a.width == 2"]),
        ("a.width == -b.width", ["a.width == -b.width"]),
        ("a.width <= b.width - 8", ["a.width <= b.width - 8"]),
        ("a.width == pad * 2", ["a.width == 16"]),
        ("a.left == superview.left + pad", ["a.left == superview.left + 8"]),
        ("a.WIDTH == 10", ["a.width == 10"]),
        ("a.baseline == b.Baseline", ["a.lastBaseline == b.lastBaseline"]),
        ("a.firstBaseline == b.top + 4", ["a.firstBaseline == b.top + 4"]),
        ("a.leadingMargin == b.leading", ["a.leadingMargin == b.leading"]),
        ("a.centerXWithinMargins == superview.centerX", ["a.centerXWithinMargins == superview.centerX"]),
        ("a.topMargin >= b.bottomMargin - gap", ["a.topMargin >= b.bottomMargin - 12"]),
        ("a.centerX == superview.left + superview.width * 0.5", ["a.centerX == superview.left + 0.5 * superview.width"]),
        ("a.width + a.width == 100", ["2 * a.width == 100"]),
        ("2 * a.width - a.width == b.width", ["a.width == b.width"]),
        ("a.width == 10 - -5", ["a.width == 15"]),
        ("a.width == (((1)))", ["a.width == 1"]),
        ("100 == a.width", ["100 == a.width"]),
        ("a.width - 10 >= 0", ["a.width - 10 >= 0"]),
        ("  a . width==b . width  ", ["a.width == b.width"]),
        ("signup.trailing == superview.centerX - 20", ["signup.trailing == superview.centerX - 20"]),
        ("a.width == 1.5e1", ["a.width == 15"]),
        ("a.width == .5 * b.width", ["a.width == 0.5 * b.width"]),
    ])
    func equations(_ source: String, _ expected: [String]) {
        let result = parse(source)
        #expect(result.diagnostics == [])
        #expect(texts(result) == expected)
    }

    @Test("compound attributes, attribute lists and helpers", arguments: [
        ("a.edges == b.edges", ["a.top == b.top", "a.leading == b.leading", "a.bottom == b.bottom", "a.trailing == b.trailing"]),
        ("a.edges == b.edges + 10", ["a.top == b.top + 10", "a.leading == b.leading + 10",
                                     "a.bottom == b.bottom - 10", "a.trailing == b.trailing - 10"]),
        ("a.edges == inset(b.edges, 1, 2, 3, 4)", ["a.top == b.top + 1", "a.leading == b.leading + 2",
                                                   "a.bottom == b.bottom - 3", "a.trailing == b.trailing - 4"]),
        // Cartography's shorter forms: one amount for all sides; horizontal, then vertical.
        ("a.edges == inset(b.edges, 5)", ["a.top == b.top + 5", "a.leading == b.leading + 5",
                                          "a.bottom == b.bottom - 5", "a.trailing == b.trailing - 5"]),
        ("a.edges == inset(b.edges, 2, 7)", ["a.top == b.top + 7", "a.leading == b.leading + 2",
                                             "a.bottom == b.bottom - 7", "a.trailing == b.trailing - 2"]),
        ("a.edges == superview", ["a.top == superview.top", "a.leading == superview.leading",
                                  "a.bottom == superview.bottom", "a.trailing == superview.trailing"]),
        ("a.edges == inset(b.edges, 1, 2, 3, 4) + 5", ["a.top == b.top + 6", "a.leading == b.leading + 7",
                                                       "a.bottom == b.bottom - 8", "a.trailing == b.trailing - 9"]),
        ("a.edges - 10 == b.edges", ["a.top - 10 == b.top", "a.leading - 10 == b.leading",
                                     "a.bottom + 10 == b.bottom", "a.trailing + 10 == b.trailing"]),
        ("a.size == 2 * b", ["a.width == 2 * b.width", "a.height == 2 * b.height"]),
        ("a.Size == b.SIZE", ["a.width == b.width", "a.height == b.height"]),
        ("a.size == b.size * 0.5", ["a.width == 0.5 * b.width", "a.height == 0.5 * b.height"]),
        ("a.size >= 44", ["a.width >= 44", "a.height >= 44"]),
        ("a.size <= b + pad", ["a.width <= b.width + 8", "a.height <= b.height + 8"]),
        ("a.center == b.center + 5", ["a.centerX == b.centerX + 5", "a.centerY == b.centerY + 5"]),
        ("a.top | left | right == b", ["a.top == b.top", "a.left == b.left", "a.right == b.right"]),
        ("a.top | bottom == b.top | bottom + 8", ["a.top == b.top + 8", "a.bottom == b.bottom + 8"]),
        ("a.top|left == b + 5", ["a.top == b.top + 5", "a.left == b.left + 5"]),
        ("align(top: a, b, c)", ["a.top == b.top", "a.top == c.top"]),
        ("align(centerY: a, b)", ["a.centerY == b.centerY"]),
        ("align(baseline: a, b)", ["a.lastBaseline == b.lastBaseline"]),
        ("align(leading: a, superview) @high", ["a.leading == superview.leading @750"]),
        ("distribute(by: 10, horizontally: a, b, c)", ["b.leading == a.trailing + 10", "c.leading == b.trailing + 10"]),
        ("distribute(by: gap, vertically: a, b)", ["b.top == a.bottom + 12"]),
        ("distribute(by: -pad, horizontally: a, b)", ["b.leading == a.trailing - 8"]),
    ])
    func compounds(_ source: String, _ expected: [String]) {
        let result = parse(source)
        #expect(result.diagnostics == [])
        #expect(texts(result) == expected)
    }

    @Test("priority spellings", arguments: [
        ("a.width == 10 @750", 750.0), ("a.width == 10 @high", 750.0), ("a.width == 10 @required", 1000.0),
        ("a.width == 10 @low", 250.0), ("a.width == 10 @fittingSize", 50.0), ("a.width == 10 ~ 750", 750.0),
        ("a.width == 10 ~low", 250.0), ("a.width == 10 @p", 600.0), ("a.width == 10@1", 1.0), ("a.width == 10 @ 999.5", 999.5),
    ])
    func priorities(_ source: String, _ expected: Double) throws {
        let result = parse(source)
        #expect(result.diagnostics == [])
        let constraint = try #require(result.constraints.first)
        #expect(constraint.priority == expected)
    }

    /// UIKit's `defaultHigh`, `defaultLow` and `fittingSizeLevel` are read as a `priority`
    /// member reads them, after the scene's metrics: a metric of that name keeps its value.
    @Test func uikitPriorityNamesAfterMetrics() throws {
        for (source, expected) in [("a.width == 10 @defaultHigh", 750.0), ("a.width == 10 @defaultlow", 250.0),
                                   ("a.width == 10 ~fittingSizeLevel", 50.0)] {
            let result = parse(source)
            #expect(result.diagnostics == [], "\(source)")
            #expect(result.constraints.first?.priority == expected, "\(source)")
        }
        let shadowed = EquationParser(options: ParseOptions(metrics: ["defaultHigh": 600])).parse("a.width == 10 @defaultHigh")
        #expect(shadowed.constraints.first?.priority == 600)
    }

    /// SwiftLayoutConstraints' `~==`, `~>=`, `~<=` are the relations `==`, `>=`, `<=`
    /// (the contract's "The equations"), with or without a Cartography priority after.
    @Test("SwiftLayoutConstraints' relations", arguments: [
        ("a.width ~== b.width", "a.width == b.width"), ("a.width ~>= 10", "a.width >= 10"),
        ("a.width ~<= b.width * 2 + 5", "a.width <= 2 * b.width + 5"), ("a.top ~== b.bottom + 8 ~ 750", "a.top == b.bottom + 8 @750"),
        ("a.width~>=10", "a.width >= 10"), ("a.edges ~== b.edges", "a.top == b.top"),
    ])
    func swiftLayoutConstraintsRelations(_ source: String, _ expected: String) throws {
        let result = parse(source)
        #expect(result.diagnostics == [])
        #expect(try #require(result.constraints.first).text == expected)
    }

    /// A `~` before something that is not a relation is no relation; `~=` is an unknown one.
    @Test("a tilde alone is not a relation", arguments: [
        ("a.width ~ 10", "Expected '==', '>=' or '<=' after the left side, found '~'", 8),
        ("a.width ~= 10", "Unknown relation '='; equality is written '=='", 10),
        ("a.width ~~== 10", "Expected '==', '>=' or '<=' after the left side, found '~'", 8),
    ])
    func tildeAlone(_ source: String, _ message: String, _ column: Int) throws {
        let diagnostic = try #require(parse(source).diagnostics.first)
        #expect(diagnostic.code == .equationSyntax)
        #expect(diagnostic.message == message)
        #expect(diagnostic.column(in: source) == column)
    }

    @Test("no priority is nil")
    func noPriority() throws {
        #expect(try #require(parse("a.width == 10").constraints.first).priority == nil)
    }

    @Test("structure: items, coefficients, spans")
    func structure() throws {
        let source = "a.centerX == superview.centerX * 0.5 + 4 @750"
        let constraint = try #require(parse(source).constraints.first)
        #expect(constraint.lhs == LinearSide(terms: [AttributeTerm(item: .view("a"), attribute: .centerX, span: 0..<1)]))
        #expect(constraint.rhs == LinearSide(terms: [AttributeTerm(item: .container, attribute: .centerX, coefficient: 0.5, span: 13..<22)],
                                             constant: 4))
        #expect(constraint.relation == .equal)
        #expect(constraint.span == 0..<source.utf8.count)
        let padded = try #require(parse("  a.width == 1  ").constraints.first)
        #expect(padded.span == 2..<14)
        let helper = parse("align(top: a, bb, c)")
        #expect(helper.constraints.map(\.span) == [14..<16, 18..<19])
        #expect(helper.constraints[0].lhs.terms[0].span == 11..<12)
    }

    // MARK: - Malformed input: exact code and column

    @Test("malformed equations", arguments: [
        ("a.widht == 10", ["unknown_attribute@2"]),
        ("a.width == pading", ["unknown_metric@11"]),
        ("a.width * b.width == 10", ["nonlinear@10"]),
        ("a.width == 10 / b.width", ["nonlinear@16"]),
        ("a.width => 10", ["equation_syntax@9"]),
        ("a.width = 10", ["equation_syntax@9"]),
        ("a.width 10", ["equation_syntax@8"]),
        ("a.width ==", ["equation_syntax@10"]),
        ("a.width == 10 @1001", ["equation_syntax@15"]),
        ("a.width == 10 @0", ["equation_syntax@15"]),
        ("a.width == 10 @", ["equation_syntax@15"]),
        ("a.width == (b.width", ["equation_syntax@19"]),
        ("a.top == b.leading", ["incompatible_attributes@11"]),
        ("a.leading == b.left", ["incompatible_attributes@15"]),
        ("a.width == b.left", ["incompatible_attributes@13"]),
        ("a.edges >= b.edges", ["incompatible_attributes@2"]),
        ("a.center <= b.center", ["incompatible_attributes@2"]),
        ("5 == 5", ["equation_syntax@0"]),
        ("a.width == 10 == 20", ["equation_syntax@14"]),
        ("a.width == 10 / 0", ["equation_syntax@16"]),
        ("a. == 5", ["equation_syntax@3"]),
        ("a.width == )", ["equation_syntax@11"]),
        ("a.size == b.edges", ["incompatible_attributes@12"]),
        ("a.edges == b.top", ["incompatible_attributes@13"]),
        ("a.top | edges == b", ["incompatible_attributes@8"]),
        ("a.widht == b.heigth", ["unknown_attribute@2", "unknown_attribute@13"]),
        ("a.width == 10 @hgh", ["unknown_metric@15"]),
        ("align(top: a)", ["equation_syntax@12"]),
        ("align(width: a, b)", ["incompatible_attributes@6"]),
        ("align(tpo: a, b)", ["unknown_attribute@6"]),
        ("distribute(by: 10, sideways: a, b)", ["equation_syntax@19"]),
        ("distribute(by: a.width, horizontally: a, b)", ["equation_syntax@15"]),
        ("a.width == b", ["unknown_metric@11"]),
        ("a.width == 2 * x", ["unknown_metric@15"]),
        ("a.width @750 == 5", ["equation_syntax@8"]),
        ("", ["equation_syntax@0"]),
        ("a.width == 10 extra", ["equation_syntax@14"]),
        ("a.wídth == 5", ["unknown_attribute@2"]),
        ("a.width * 2 * b.height == 1", ["nonlinear@14"]),
        ("inset(b.edges, 1, 2, 3) == a.edges", ["equation_syntax@22"]),
        ("a.edges == inset(b.edges)", ["equation_syntax@24"]),
        ("a.edges == inset(b.width, 1, 2, 3, 4)", ["equation_syntax@17"]),
        ("a.width - a.width == 5", ["equation_syntax@0"]),
        ("a.top == b.height", ["incompatible_attributes@11"]),
        ("a.width == b.width +", ["equation_syntax@20"]),
        ("a.width == x + y.width + z", ["unknown_metric@11", "unknown_metric@25"]),
    ])
    func malformed(_ source: String, _ expected: [String]) {
        let result = parse(source)
        #expect(faults(result, source: source) == expected)
        #expect(result.constraints.isEmpty)
    }

    /// A misspelt or shortened named priority gets the did-you-mean in its message, as a
    /// `priority` member's value does (SceneDecoderTests.enumTyposSuggestTheValue); the
    /// code and the caret stay the unknown name's. Names match case-insensitively.
    @Test func namedPriorityTyposSuggestTheName() throws {
        let typo = try #require(parse("a.left == b.right + 8 @requird").diagnostics.first)
        #expect(typo.code == .unknownMetric)
        #expect(typo.message == "Unknown priority 'requird': use a number from 1 to 1000, required, high, low, fittingSize or a metric; did you mean 'required'?")
        #expect(typo.span == 23..<30)
        #expect(typo.notes == [])
        #expect(parse("a.width == 10 @hi").diagnostics.map(\.message)
                == ["Unknown priority 'hi': use a number from 1 to 1000, required, high, low, fittingSize or a metric; did you mean 'high'?"])
        #expect(parse("a.width == 10 @zz").diagnostics.map(\.message)
                == ["Unknown priority 'zz': use a number from 1 to 1000, required, high, low, fittingSize or a metric"])
        #expect(parse("a.width == 10 @Required").constraints.first?.priority == 1000)
    }

    @Test("messages say what was expected and what was found")
    func messages() throws {
        let attribute = try #require(parse("a.widht == 10").diagnostics.first)
        #expect(attribute.message == "Unknown attribute 'widht'; did you mean 'width'?")
        // An accented letter is part of the name: one diagnostic, at the name, not an
        // unknown 'w' and a syntax error at the 'í'.
        let accented = parse("red.wídth == 5")
        #expect(accented.diagnostics.map(\.message) == ["Unknown attribute 'wídth'; did you mean 'width'?"])
        #expect(accented.diagnostics.first?.span == 4..<10)   // UTF-8 offsets: 'í' is two bytes
        let list = parse("a.top|bóttom == 5")
        #expect(list.diagnostics.map(\.message) == ["Unknown attribute 'bóttom'; did you mean 'bottom'?"])
        // Anything else that is not ASCII still ends the name (here a no-break space).
        let space = parse("a.width\u{A0}== 5")
        #expect(space.diagnostics.first?.code == .equationSyntax)
        let metric = try #require(parse("a.width == pading").diagnostics.first)
        #expect(metric.message == "Unknown metric 'pading'")
        #expect(metric.notes == ["did you mean 'padding'?"])
        let relation = try #require(parse("a.width => 10").diagnostics.first)
        #expect(relation.message == "Unknown relation '=>'; did you mean '>='?")
        let single = try #require(parse("red.width = 5").diagnostics.first)
        #expect(single.message == "Unknown relation '='; equality is written '=='")
        #expect(single.span == 11..<12)   // the first character that cannot be consumed
        #expect(parse("red.width < 5").diagnostics.first?.message == "Unknown relation '<'; there are no strict inequalities: use '<='")
        // After a priority only the end may follow.
        #expect(parse("red.width == 5 @750 + 3").diagnostics.map(\.message) == ["The priority ends the equation: expected the end after it, found '+'"])
        #expect(parse("red.width == 5 @750 @250").diagnostics.map(\.message) == ["An equation has one priority; found a second one at '@'"])
        // Attributes written but cancelled are not "missing".
        for source in ["red.width * 0 == 5", "red.width - red.width == 5"] {
            #expect(parse(source).diagnostics.map(\.message) == ["The view attributes of this equation cancel out (or are multiplied by 0), so it constrains no view"])
        }
        #expect(parse("5 == 5").diagnostics.map(\.message) == ["An equation needs at least one view attribute, like 'a.width == 100'"])
        // Non-ASCII letters (precomposed or combining) keep a view or metric name whole.
        let view = parse("réd.width == blue.width")
        #expect(view.diagnostics.map(\.message) == ["Unknown view 'réd': view names are ASCII letters, digits and '_'"])
        #expect(view.diagnostics.first?.span == 0..<4)
        #expect(parse("red.wi\u{301}dth == 5").diagnostics.map(\.message) == ["Unknown attribute 'wi\u{301}dth'; did you mean 'width'?"])
        // Mistyped VFL orientations are said to be VFL, at the character after the letter.
        for (source, column) in [("h:|[red]|", 1), ("X:|[red]|", 1), ("H :|[red]|", 2)] {
            let orientation = try #require(parse(source).diagnostics.first)
            #expect(orientation.code == .vflSyntax)
            #expect(orientation.message.hasPrefix("A VFL string starts with 'H:' or 'V:'"))
            #expect(orientation.column(in: source) == column)
        }
        // `H`/`V` right before '|' or '[' is an orientation without its colon: Apple's
        // message, at the character after the letter (the contract's caret table).
        for (source, message) in [("H|[red]|", "Expected ':' after 'H' to specify horizontal arrangement"),
                                  ("V|[a]|", "Expected ':' after 'V' to specify vertical arrangement"),
                                  ("V[a]-|", "Expected ':' after 'V' to specify vertical arrangement")] {
            let orientation = try #require(parse(source).diagnostics.first)
            #expect(orientation.code == .vflSyntax)
            #expect(orientation.message == message)
            #expect(orientation.column(in: source) == 1)
        }
        #expect(parse("h.width == 5").diagnostics.isEmpty)   // a view named h is still an equation
        let accentedMetric = parse("red.width == padé")
        #expect(accentedMetric.diagnostics.map(\.message) == ["Unknown metric 'padé': metric names are ASCII letters, digits and '_'"])
        let paren = try #require(parse("a.width == (b.width").diagnostics.first)
        #expect(paren.message == "Expected ')' to close the '(' at column 11, found the end of the string")
        let nonlinear = try #require(parse("a.width * b.width == 10").diagnostics.first)
        #expect(nonlinear.message == "Nonlinear: a product of two view attributes cannot be a linear constraint")
        let pairing = try #require(parse("a.top == b.leading").diagnostics.first)
        #expect(pairing.message == "Cannot relate 'leading' (horizontal) to 'top' (vertical)")
    }

    /// A string the bare-string rule reads as VFL (`H:`, `V:`, `|`, `[`) given as an
    /// equation is said to be VFL, to be sent as `{"vfl": …}`; `vfl_syntax` at the first
    /// character an equation cannot take.
    @Test func visualFormatGivenAsAnEquation() throws {
        for (source, start, column) in [("H:|[red]|", "H:", 1), ("  V:|-[a]-|", "V:", 3), ("|-[red]-|", "|", 0), ("[a][b]", "[", 0)] {
            let diagnostics = parse(source).diagnostics
            #expect(diagnostics.count == 1)
            let visual = try #require(diagnostics.first)
            #expect(visual.code == .vflSyntax)
            #expect(visual.message == "This is Visual Format Language (it starts with '\(start)'), not an equation: "
                + "give it as {\"vfl\": \"...\"} rather than {\"equation\": \"...\"}")
            #expect(visual.column(in: source) == column, "\(source)")
        }
        // A view named H or V is still an equation.
        #expect(parse("H.width == V.width").diagnostics.isEmpty)
    }

    // MARK: - Depth and size

    @Test("100,000 nested parentheses are an error at the 257th, not a stack overflow")
    func deepNesting() {
        let source = String(repeating: "(", count: 100_000) + "a.width" + String(repeating: ")", count: 100_000) + " == 1"
        let result = parse(source)
        #expect(faults(result, source: source) == ["limit_exceeded@256"])
        #expect(result.diagnostics.first?.message == "The expression is nested too deeply (more than 256 levels; limit maxNestingDepth)")
        let insets = String(repeating: "inset(", count: 100_000)
        #expect(faults(parse(insets), source: insets) == ["limit_exceeded@1536"])
    }

    @Test("256 levels are fine; long sign chains and long sums parse")
    func deepButLegal() {
        let source = String(repeating: "(", count: 256) + "a.width" + String(repeating: ")", count: 256) + " == 1"
        #expect(texts(parse(source)) == ["a.width == 1"])
        let signs = String(repeating: "-", count: 100_001) + "a.width == 5"
        #expect(texts(parse(signs)) == ["-a.width == 5"])
        let sum = (0..<10_000).map { "v\($0).width" }.joined(separator: " + ") + " == 1"
        let result = parse(sum)
        #expect(result.diagnostics == [])
        #expect(result.constraints.first?.lhs.terms.count == 10_000)
        let factors = "(" + (0..<1_000).map { "v\($0).width" }.joined(separator: " + ") + ")" + String(repeating: " * 1", count: 50_000) + " == 1"
        #expect(parse(factors).constraints.first?.lhs.terms.count == 1_000)
    }

    // MARK: - Corpus

    @Test("corpus equations parse without diagnostics")
    func corpus() throws {
        let entries = try corpusConstraints(prefixes: [""])
        let equations = entries.filter { !$0.isVisualFormat }
        #expect(equations.count >= 8)
        for entry in equations {
            let result = EquationParser(options: ParseOptions(metrics: entry.metrics)).parse(entry.source)
            #expect(result.diagnostics == [], "\(entry.caseName): \(entry.source)")
            #expect(!result.constraints.isEmpty, "\(entry.caseName): \(entry.source)")
        }
    }
}
