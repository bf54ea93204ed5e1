import Testing
@testable import LayoutSyntax

struct VisualFormatParserTests {
    // MARK: - Apple's documented examples (Auto Layout Guide, "Visual Format Language")

    @Test("Apple's documented examples", arguments: [
        ("[button]-[textField]", ["textField.leading == button.trailing + 8"]),
        ("[button(>=50)]", ["button.width >= 50"]),
        ("|-50-[orchidBox]-50-|", ["orchidBox.leading == superview.leading + 50",
                                   "superview.trailing == orchidBox.trailing + 50"]),
        ("V:[topField]-10-[bottomField]", ["bottomField.top == topField.bottom + 10"]),
        ("[maroonView][blueView]", ["blueView.leading == maroonView.trailing"]),
        ("[button(100@20)]", ["button.width == 100 @20"]),
        ("[button1(==button2)]", ["button1.width == button2.width"]),
        ("[flexibleButton(>=70,<=100)]", ["flexibleButton.width >= 70", "flexibleButton.width <= 100"]),
        ("|-[find]-[findNext]-[findField(>=20)]-|", [
            "find.leading == superview.leading + 20", "findNext.leading == find.trailing + 8",
            "findField.leading == findNext.trailing + 8", "findField.width >= 20",
            "superview.trailing == findField.trailing + 20"]),
        ("[button]-(>=0)-|", ["superview.trailing >= button.trailing"]),
    ])
    func appleExamples(_ source: String, _ expected: [String]) {
        let result = VisualFormatParser().parse(source)
        #expect(result.diagnostics == [])
        #expect(texts(result) == expected)
    }

    // MARK: - Every construct

    @Test("constructs", arguments: [
        ("H:|-5-[a]", ["a.leading == superview.leading + 5"]),
        ("H:[a]-5-|", ["superview.trailing == a.trailing + 5"]),
        ("V:|-5-[a]-6-|", ["a.top == superview.top + 5", "superview.bottom == a.bottom + 6"]),
        ("V:|[a]|", ["a.top == superview.top", "superview.bottom == a.bottom"]),
        ("|[a][b][c]|", ["a.leading == superview.leading", "b.leading == a.trailing", "c.leading == b.trailing",
                         "superview.trailing == c.trailing"]),
        ("V:[a(100)]", ["a.height == 100"]),
        ("H:[a(-5)]", ["a.width == -5"]),
        ("H:[a(>=50@750,<=100)]", ["a.width >= 50 @750", "a.width <= 100"]),
        ("H:[a(==b@750)]", ["a.width == b.width @750"]),
        ("H:[a(<=b,>=10)]", ["a.width <= b.width", "a.width >= 10"]),
        ("H:[a]-(>=8)-[b]", ["b.leading >= a.trailing + 8"]),
        ("H:[a]-(==4,<=12)-[b]", ["b.leading == a.trailing + 4", "b.leading <= a.trailing + 12"]),
        ("H:[a]-(11@750)-[b]", ["b.leading == a.trailing + 11 @750"]),
        ("H:|-(>=0)-[a]", ["a.leading >= superview.leading"]),
        ("H:[a]-(-4)-[b]", ["b.leading == a.trailing - 4"]),
        ("H:[a]-1.5-[b]", ["b.leading == a.trailing + 1.5"]),
        ("H:[a(.5)]", ["a.width == 0.5"]),
        (" H: | - [ a ( >= 10 , <= 20 @ 500 ) ] - | ", ["a.leading == superview.leading + 20", "a.width >= 10",
                                                       "a.width <= 20 @500", "superview.trailing == a.trailing + 20"]),
        ("H:\t[a]\t-\t[b]", ["b.leading == a.trailing + 8"]),
        ("[a]", []),
        ("|-[red(500)]-|", ["red.leading == superview.leading + 20", "red.width == 500",
                            "superview.trailing == red.trailing + 20"]),
    ])
    func constructs(_ source: String, _ expected: [String]) {
        let result = VisualFormatParser().parse(source)
        #expect(result.diagnostics == [])
        #expect(texts(result) == expected)
    }

    @Test("metrics in connections, predicates and priorities")
    func metrics() {
        let parser = VisualFormatParser(options: ParseOptions(metrics: ["margin": 16, "size": 48, "p": 750, "gap": 12]))
        let result = parser.parse("H:|-margin-[avatar(size@p)]-gap-[name(>=size)]-(>=margin@p)-|")
        #expect(result.diagnostics == [])
        #expect(texts(result) == [
            "avatar.leading == superview.leading + 16", "avatar.width == 48 @750",
            "name.leading == avatar.trailing + 12", "name.width >= 48",
            "superview.trailing >= name.trailing + 16 @750",
        ])
    }

    @Test("custom standard spacing")
    func standardSpacing() {
        let parser = VisualFormatParser(options: ParseOptions(siblingSpacing: 4, superviewSpacing: 10))
        #expect(texts(parser.parse("|-[a]-[b]-|")) == [
            "a.leading == superview.leading + 10", "b.leading == a.trailing + 4", "superview.trailing == b.trailing + 10",
        ])
    }

    @Test("directions", arguments: [
        ("directionLeadingToTrailing", ["a.leading == superview.leading + 5", "b.leading == a.trailing + 5",
                                        "superview.trailing == b.trailing + 5"]),
        ("directionLeftToRight", ["a.left == superview.left + 5", "b.left == a.right + 5", "superview.right == b.right + 5"]),
        ("directionRightToLeft", ["superview.right == a.right + 5", "a.left == b.right + 5", "b.left == superview.left + 5"]),
    ])
    func directions(_ option: String, _ expected: [String]) {
        let result = VisualFormatParser().parse("H:|-5-[a]-5-[b]-5-|", formatOptions: [option])
        #expect(result.diagnostics == [])
        #expect(texts(result) == expected)
    }

    @Test("alignment options come right after each later view's connection")
    func alignment() {
        let result = VisualFormatParser().parse("H:|-[icon(30)]-[label]-[badge]", formatOptions: ["alignAllCenterY", "alignAllTop"])
        #expect(result.diagnostics == [])
        #expect(texts(result) == [
            "icon.leading == superview.leading + 20", "icon.width == 30",
            "label.leading == icon.trailing + 8", "label.centerY == icon.centerY", "label.top == icon.top",
            "badge.leading == label.trailing + 8", "badge.centerY == label.centerY", "badge.top == label.top",
        ])
        let vertical = VisualFormatParser().parse("V:[a][b]", formatOptions: ["alignAllLeading"])
        #expect(texts(vertical) == ["b.top == a.bottom", "b.leading == a.leading"])
        let baseline = VisualFormatParser().parse("[a][b]", formatOptions: ["alignAllBaseline", "alignAllFirstBaseline"])
        #expect(texts(baseline) == ["b.leading == a.trailing", "b.lastBaseline == a.lastBaseline", "b.firstBaseline == a.firstBaseline"])
    }

    @Test("format options illegal for the orientation or unknown", arguments: [
        ("H:[a][b]", "alignAllLeft"), ("H:[a][b]", "alignAllRight"), ("H:[a][b]", "alignAllLeading"),
        ("H:[a][b]", "alignAllTrailing"), ("H:[a][b]", "alignAllCenterX"), ("V:[a][b]", "alignAllTop"),
        ("V:[a][b]", "alignAllBottom"), ("V:[a][b]", "alignAllCenterY"), ("V:[a][b]", "alignAllBaseline"),
        ("V:[a][b]", "alignAllLastBaseline"), ("V:[a][b]", "alignAllFirstBaseline"), ("H:[a][b]", "alignAllMiddle"),
    ])
    func illegalOptions(_ source: String, _ option: String) {
        let result = VisualFormatParser().parse(source, formatOptions: [option])
        #expect(faults(result, source: source) == ["vfl_syntax@-"])
        #expect(result.constraints.isEmpty)
    }

    /// The direction options are legal on `V:` and change nothing there (Apple's parser
    /// accepts them; the contract's "The VFL").
    @Test("direction options on V: change nothing", arguments: ["directionLeadingToTrailing", "directionLeftToRight", "directionRightToLeft"])
    func directionOnVertical(_ option: String) {
        let source = "V:|-5-[a(>=10)]-[b]-(8@750)-|"
        let plain = VisualFormatParser().parse(source)
        let directed = VisualFormatParser().parse(source, formatOptions: [option])
        #expect(directed.diagnostics == [])
        #expect(texts(directed) == ["a.top == superview.top + 5", "a.height >= 10", "b.top == a.bottom + 8",
                                    "superview.bottom == b.bottom + 8 @750"])
        #expect(texts(directed) == texts(plain))
        // With an alignment, the alignment still applies.
        let aligned = VisualFormatParser().parse("V:[a][b]", formatOptions: [option, "alignAllLeading"])
        #expect(texts(aligned) == ["b.top == a.bottom", "b.leading == a.leading"])
        // Two different directions still conflict, on V: as on H:.
        let other = option == "directionLeftToRight" ? "directionRightToLeft" : "directionLeftToRight"
        #expect(faults(VisualFormatParser().parse("V:[a][b]", formatOptions: [option, other]), source: "V:[a][b]") == ["vfl_syntax@-"])
    }

    @Test("conflicting directions and suggestions")
    func optionMessages() throws {
        let conflicting = VisualFormatParser().parse("[a]", formatOptions: ["directionLeftToRight", "directionRightToLeft"])
        #expect(conflicting.diagnostics.map(\.message) == ["Format option 'directionRightToLeft' conflicts with 'directionLeftToRight': give one direction"])
        let typo = VisualFormatParser().parse("[a]", formatOptions: ["alignAllCentreY"])
        let diagnostic = try #require(typo.diagnostics.first)
        #expect(diagnostic.message == "Unknown format option 'alignAllCentreY'")
        #expect(diagnostic.notes == ["did you mean 'alignAllCenterY'?"])
    }

    // MARK: - Spans

    @Test("spans of connections, predicates, alignment and terms")
    func spans() {
        let source = "H:|-5-[a(>=50@750)]-[b]"
        let result = VisualFormatParser().parse(source, formatOptions: ["alignAllTop"])
        #expect(result.constraints.map(\.span) == [3..<6, 9..<17, 19..<20, 21..<22])
        #expect(result.constraints[0].rhs.terms[0].span == 2..<3)
        #expect(result.constraints[0].lhs.terms[0].span == 7..<8)
        #expect(result.constraints[1].priority == 750)
        #expect(result.constraints[0].priority == nil)
        let flush = VisualFormatParser().parse("[a] [b]|")
        #expect(flush.constraints.map(\.span) == [2..<5, 6..<8])
    }

    @Test("the superview of VFL is .superview, views are .view")
    func items() {
        let constraint = VisualFormatParser().parse("|-[a]").constraints[0]
        #expect(constraint.lhs == LinearSide(terms: [AttributeTerm(item: .view("a"), attribute: .leading, span: 3..<4)]))
        #expect(constraint.rhs == LinearSide(terms: [AttributeTerm(item: .superview, attribute: .leading, span: 0..<1)], constant: 20))
        #expect(constraint.relation == .equal)
    }

    // MARK: - Malformed input: exact code and column

    @Test("malformed VFL", arguments: [
        ("H:|-0-[red-0-|", ["vfl_syntax@10"]),
        ("H:[red(=>30)]", ["vfl_syntax@8"]),
        ("V:|-(8-[red]", ["vfl_syntax@6"]),
        ("H:|-|", ["vfl_syntax@4"]),
        ("H:[]", ["vfl_syntax@3"]),
        ("H:[a]-", ["vfl_syntax@6"]),
        ("H:[a]-5", ["vfl_syntax@7"]),
        ("H:[a", ["vfl_syntax@4"]),
        ("H:[1a]", ["vfl_syntax@3"]),
        ("H:|-[a]-|-", ["vfl_syntax@9"]),
        ("H:", ["vfl_syntax@2"]),
        ("", ["vfl_syntax@0"]),
        ("H:[a(]", ["vfl_syntax@5"]),
        ("H:[a(>=)]", ["vfl_syntax@7"]),
        ("H:[a(50@)]", ["vfl_syntax@8"]),
        ("H:[a(50@1001)]", ["vfl_syntax@12"]),
        ("H:[a(50@0)]", ["vfl_syntax@9"]),
        ("H:[a(50 60)]", ["vfl_syntax@8"]),
        ("H:|-pading-[a]", ["unknown_metric@4"]),
        ("H:[a]-(>=gapp)-[b]", ["unknown_metric@9"]),
        ("H:[a(<100)]", ["vfl_syntax@6"]),
        ("H:[a]|[b]", ["vfl_syntax@6"]),
        ("H:[a]x", ["vfl_syntax@5"]),
        ("X:[a]", ["vfl_syntax@0"]),
        ("H:[a]--[b]", ["vfl_syntax@6"]),
        ("H:[a(50@p)]", ["unknown_metric@8"]),
        ("H:[a(50,)]", ["vfl_syntax@8"]),
        ("H:[a]-(5)[b]", ["vfl_syntax@9"]),
        ("H:|[a]||", ["vfl_syntax@7"]),
        ("H:[é]", ["vfl_syntax@3"]),
        ("H:[a]é", ["vfl_syntax@5"]),
        ("H:|-m1-[a]-m3-|", ["unknown_metric@4", "unknown_metric@11"]),
        ("H:|-m1-[a]-m3-[", ["unknown_metric@4", "unknown_metric@11", "vfl_syntax@15"]),
        ("H:[a(==)]", ["vfl_syntax@7"]),
        ("H:[a(50)", ["vfl_syntax@8"]),
        ("H:[a]-(5", ["vfl_syntax@8"]),
        ("H:[a]-[b]-", ["vfl_syntax@10"]),
        ("H:[a(50@@1)]", ["vfl_syntax@8"]),
        ("H:[a]-(>=5,)-[b]", ["vfl_syntax@11"]),
        ("H:[a.b]", ["vfl_syntax@4"]),
    ])
    func malformed(_ source: String, _ expected: [String]) {
        let result = VisualFormatParser().parse(source)
        #expect(faults(result, source: source) == expected)
        #expect(result.constraints.isEmpty)
    }

    /// A length too large for a double is the number beyond the magnitude limit (the
    /// compiler reports `limit_exceeded` there); a priority that large stays a syntax error.
    @Test func lengthBeyondADoubleIsBeyondTheLimit() {
        let result = VisualFormatParser().parse("H:[a(1e999)]")
        #expect(result.diagnostics.isEmpty)
        #expect(result.numberBeyondLimit?.span == 5..<10)
        #expect(result.constraints.isEmpty)   // none with an infinite number (the fuzz target's invariant)
        let priority = VisualFormatParser().parse("H:[a(50@1e999)]")
        #expect(priority.diagnostics.map(\.code) == [.vflSyntax])
        #expect(priority.diagnostics.first?.message == "Invalid priority 1e999: priorities run from 1 to 1000")
        #expect(priority.diagnostics.first?.column(in: "H:[a(50@1e999)]") == 13)   // just after the number
    }

    @Test("messages say what was expected and what was found")
    func messages() throws {
        let source = "H:|-0-[red-0-|"
        let diagnostic = try #require(VisualFormatParser().parse(source).diagnostics.first)
        #expect(diagnostic.message == "Expected ']' to close view 'red'")
        #expect(diagnostic.notes == ["found '-'"])
        #expect(diagnostic.rendered(source: source) == "Expected ']' to close view 'red'\nH:|-0-[red-0-|\n          ^\nnote: found '-'")
        let relation = try #require(VisualFormatParser().parse("H:[red(=>30)]").diagnostics.first)
        #expect(relation.message == "Unknown relation. Must be ==, >=, or <=")
        #expect(relation.notes == ["'=>': did you mean '>='?"])
        #expect(relation.span == 8..<9)   // at the '>': one past the first relation character
        // Nothing after '|' or ']' is not "after the connection".
        #expect(VisualFormatParser().parse("H:|").diagnostics.first?.message
                == "Expected a connection '-' or a view '[' after '|', found the end of the string")
        #expect(VisualFormatParser().parse("H:|10-[red]|").diagnostics.first?.message
                == "Expected a connection '-' or a view '[' after '|', found '1'")
        #expect(VisualFormatParser().parse("H:[a]x").diagnostics.first?.message
                == "Expected a connection '-', a view '[' or the superview '|' after view 'a', found 'x'")
        #expect(VisualFormatParser().parse("H:[a]-(8)-x").diagnostics.first?.message
                == "Expected a view '[' or the superview '|' after the connection, found 'x'")
        let named = try #require(VisualFormatParser().parse("H:|[red(10@high)]").diagnostics.first)
        #expect(named.message == #"Encountered metric with name "high", but value was not specified in metrics or views dictionaries"#)
        #expect(named.notes == ["named priorities are for equations; in VFL write the number (high is 750) or define a metric"])
        let uikit = try #require(VisualFormatParser().parse("H:|[red(10@defaultHigh)]").diagnostics.first)
        #expect(uikit.notes == ["named priorities are for equations; in VFL write the number (defaultHigh is 750) or define a metric"])
        let strict = try #require(VisualFormatParser().parse("H:[red(>10)]").diagnostics.first)
        #expect(strict.message == "Unknown relation. Must be ==, >=, or <=")
        #expect(strict.notes == ["'>': there are no strict inequalities: use '>='"])
        // A view name with a non-ASCII letter is one unknown view, at its start.
        let accented = VisualFormatParser().parse("H:|[réd]|")
        #expect(accented.diagnostics.map(\.message) == ["Unknown view 'réd': view names are ASCII letters, digits and '_'"])
        #expect(accented.diagnostics.first?.span == 4..<8)
        let metric = try #require(VisualFormatParser(options: ParseOptions(metrics: ["padding": 8])).parse("|-pading-[a]").diagnostics.first)
        #expect(metric.message == #"Encountered metric with name "pading", but value was not specified in metrics or views dictionaries"#)
        #expect(metric.notes == ["did you mean 'padding'?"])
        // A view of the string used as a space (Apple's VFL has no view-relative spacing):
        // without the scene's views, the string's own views tell it.
        let view = try #require(VisualFormatParser().parse("H:|[a(10)]-(==b)-[ b(10)]").diagnostics.first)
        #expect(view.message == "It's not possible to set a space equal to the width or height of a view. Perhaps you want to use a view as a spacer?")
        #expect(view.notes == ["'b' is a view, and a space is a number or a metric: a spacer view sized to it does that, [view1][spacer(==b)][view2]"])
        #expect(view.code == .vflSyntax && view.span == 15..<16)   // just after the name
        let prefix = try #require(VisualFormatParser().parse("H:|[a(10)]-(==b)-[bb(10)]").diagnostics.first)
        #expect(prefix.message == #"Encountered metric with name "b", but value was not specified in metrics or views dictionaries"#)
        #expect(prefix.code == .unknownMetric && prefix.span == 14..<15)
        let empty = try #require(VisualFormatParser().parse("H:|-|").diagnostics.first)
        #expect(empty.message == "A format string needs at least one view: expected '[' to start a view, found '|'")
    }

    // MARK: - The contract's caret table ("The VFL"): Apple's message, code and caret

    /// The scene's views, as the compiler gives them to the parser.
    struct Views: ViewNameLookup {
        var viewNames: [String]
        func containsView(named name: String) -> Bool { viewNames.contains(name) }
    }

    /// `H`/`V` not followed by `:`: caret on the character after the letter (column 1).
    @Test("orientation without ':'", arguments: [
        ("V|[a]|", "Expected ':' after 'V' to specify vertical arrangement", 1),
        ("H|[a]|", "Expected ':' after 'H' to specify horizontal arrangement", 1),
        ("V[a]", "Expected ':' after 'V' to specify vertical arrangement", 1),
        ("H", "Expected ':' after 'H' to specify horizontal arrangement", 1),
        ("H :[a]", "Expected ':' after 'H' to specify horizontal arrangement", 1),
        ("  V-[a]", "Expected ':' after 'V' to specify vertical arrangement", 3),
    ])
    func orientationWithoutColon(_ source: String, _ message: String, _ column: Int) throws {
        let result = VisualFormatParser().parse(source, formatOptions: ["alignAllTop"])
        #expect(faults(result, source: source) == ["vfl_syntax@\(column)"])
        #expect(result.diagnostics.first?.message == message)
        #expect(result.constraints.isEmpty)
    }

    /// A relation that is one of `>`, `<`, `=` alone: caret one past that character.
    @Test("unknown relation", arguments: [
        ("H:[a(>44)]", 6, "'>': there are no strict inequalities: use '>='"),
        ("H:[a(<44)]", 6, "'<': there are no strict inequalities: use '<='"),
        ("H:[a(=44)]", 6, "'=': equality is written '=='"),
        ("H:[red(=>30)]", 8, "'=>': did you mean '>='?"),
        ("H:[a(50,>b)]", 9, "'>': there are no strict inequalities: use '>='"),
        ("H:|-=5-[a]", 5, "'=': equality is written '=='"),
        ("H:[a]->5-[b]", 7, "'>': there are no strict inequalities: use '>='"),
        ("H:[a]-(=5)-[b]", 8, "'=': equality is written '=='"),
        ("V:|-(<=5,=<9)-[a]", 10, "'=<': did you mean '<='?"),
    ])
    func unknownRelation(_ source: String, _ column: Int, _ note: String) throws {
        let result = VisualFormatParser().parse(source)
        #expect(faults(result, source: source) == ["vfl_syntax@\(column)"])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.message == "Unknown relation. Must be ==, >=, or <=")
        #expect(diagnostic.notes == [note])
    }

    /// A relation before a connection's simple predicate is read (Apple reads one there).
    @Test("a relation in a simple connection", arguments: [
        ("H:[a]->=5-[b]", "b.leading >= a.trailing + 5"), ("H:|-==5-[a]", "a.leading == superview.leading + 5"),
        ("V:[a]-<=gap-|", "superview.bottom <= a.bottom + 12"), ("H:[a]- >= 5 -[b]", "b.leading >= a.trailing + 5"),
    ])
    func relationInASimpleConnection(_ source: String, _ expected: String) {
        let result = VisualFormatParser(options: ParseOptions(metrics: ["gap": 12])).parse(source)
        #expect(result.diagnostics == [])
        #expect(texts(result) == [expected])
    }

    /// A priority outside 1...1000: caret just after the number (or the metric's name).
    @Test("priority out of range", arguments: [
        ("H:[a(50@0)]", 9, "Invalid priority 0: priorities run from 1 to 1000"),
        ("H:[a(50@1001)]", 12, "Invalid priority 1001: priorities run from 1 to 1000"),
        ("H:[a(50@1000.5)]", 14, "Invalid priority 1000.5: priorities run from 1 to 1000"),
        ("H:[a]-(>=5@0)-[b]", 12, "Invalid priority 0: priorities run from 1 to 1000"),
        ("H:[a(50@ 2000 )]", 13, "Invalid priority 2000: priorities run from 1 to 1000"),
        ("H:[a(50@big)]", 11, "Invalid priority 5000: priorities run from 1 to 1000"),
    ])
    func priorityOutOfRange(_ source: String, _ column: Int, _ message: String) {
        let result = VisualFormatParser(options: ParseOptions(metrics: ["big": 5000])).parse(source)
        #expect(faults(result, source: source) == ["vfl_syntax@\(column)"])
        #expect(result.diagnostics.first?.message == message)
        #expect(result.constraints.isEmpty)
    }

    /// A view's name as a connection's space: `vfl_syntax`, caret just after the name;
    /// parsing stops there (an unknown metric after it is not reached).
    @Test("a view as a space", arguments: [
        ("H:[a]-(b)-[c]", 8), ("H:[a]-b-[c]", 7), ("H:[a]-(>=b@750)-[c]", 10), ("H:|-(5,<=b)-[a]", 10),
        ("H:|-superview-[a]", 13), ("H:[a]-b-[c]-m-|", 7), ("H:[a]->=b-[c]", 9),
    ])
    func viewAsASpace(_ source: String, _ column: Int) throws {
        let options = ParseOptions(views: Views(viewNames: ["superview", "a", "b", "c"]))
        let result = VisualFormatParser(options: options).parse(source)
        #expect(faults(result, source: source) == ["vfl_syntax@\(column)"])
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.message.hasPrefix("It's not possible to set a space equal to the width or height of a view"))
        #expect(result.constraints.isEmpty)
        // A metric of that name is a metric: no error.
        let metric = VisualFormatParser(options: ParseOptions(metrics: ["b": 4, "m": 1, "superview": 2], views: options.views)).parse(source)
        #expect(metric.diagnostics == [])
    }

    /// With the scene's views, a view of the scene is a view even when the string does not
    /// bracket it; a name the string brackets but the scene lacks is an unknown metric
    /// where it is a space (Apple reads left to right, with its views dictionary).
    @Test func viewAsASpaceFollowsTheScenesViews() {
        let options = ParseOptions(views: Views(viewNames: ["superview", "a", "c"]))
        let notInScene = VisualFormatParser(options: options).parse("H:[a]-(b)-[b]")
        #expect(faults(notInScene, source: "H:[a]-(b)-[b]") == ["unknown_metric@7"])
        let inScene = VisualFormatParser(options: options).parse("H:[a]-(c)-[a]")
        #expect(faults(inScene, source: "H:[a]-(c)-[a]") == ["vfl_syntax@8"])
    }

    /// A name that is neither a metric nor a view, in a predicate, a connection or a
    /// priority: `unknown_metric` at its first character, Apple's message; parsing goes on.
    @Test("a name neither a metric nor a view", arguments: [
        ("H:[a(m)]", ["unknown_metric@5"]), ("H:[a(>=m@750)]", ["unknown_metric@7"]),
        ("H:[a]-m-[b]", ["unknown_metric@6"]), ("H:[a]-(>=m)-[b]", ["unknown_metric@9"]),
        ("H:[a(50@m)]", ["unknown_metric@8"]), ("H:[a(m)]-n-[b(==o)]", ["unknown_metric@5", "unknown_metric@9", "unknown_metric@16"]),
        ("H:[a]->=m-[b]", ["unknown_metric@8"]), ("H:[a(m)]-(b)-[c]", ["unknown_metric@5", "vfl_syntax@11"]),
    ])
    func unknownMetric(_ source: String, _ expected: [String]) throws {
        let options = ParseOptions(metrics: ["margin": 8], views: Views(viewNames: ["superview", "a", "b", "c"]))
        let result = VisualFormatParser(options: options).parse(source)
        #expect(faults(result, source: source) == expected)
        let first = try #require(result.diagnostics.first)
        let name = String(source.utf8.dropFirst(first.span!.lowerBound).prefix(first.span!.count)) ?? ""
        #expect(first.message == "Encountered metric with name \"\(name)\", but value was not specified in metrics or views dictionaries")
        #expect(result.constraints.isEmpty)
    }

    /// Notes keep the hints: a close metric or view name, a view where a priority goes.
    @Test func unknownMetricNotes() throws {
        let options = ParseOptions(metrics: ["margin": 8], views: Views(viewNames: ["superview", "avatar", "title"]))
        let parser = VisualFormatParser(options: options)
        #expect(parser.parse("H:[title(==avatr)]").diagnostics.first?.notes == ["did you mean 'avatar'?"])
        #expect(parser.parse("H:[title]-margn-|").diagnostics.first?.notes == ["did you mean 'margin'?"])
        // A space never suggests a view (a view is no space).
        #expect(parser.parse("H:[title]-avatr-|").diagnostics.first?.notes == [])
        #expect(parser.parse("H:[title(50@avatar)]").diagnostics.first?.notes == ["'avatar' is a view, and a priority is a number or a metric"])
        // A known view in a predicate is a view, not a metric.
        #expect(texts(parser.parse("H:[title(==avatar)]")) == ["title.width == avatar.width"])
    }

    /// An equation given as VFL is said to be one, to be sent as `{"equation": …}`: the
    /// same `vfl_syntax` at the same column, with the hint; other strings keep the message.
    @Test func anEquationGivenAsVisualFormat() throws {
        let hint = "; this is an equation, not Visual Format Language: give it as {\"equation\": \"...\"} rather than {\"vfl\": \"...\"}"
        for source in ["a.width == 5", "H:a.top >= b.bottom + 8", "title.leading <= superview.leading"] {
            let diagnostic = try #require(VisualFormatParser().parse(source).diagnostics.first)
            #expect(diagnostic.code == .vflSyntax)
            #expect(diagnostic.message.hasPrefix("Expected '|' or a view '[' to start the format string, found "))
            #expect(diagnostic.message.hasSuffix(hint), "\(source)")
        }
        let first = try #require(VisualFormatParser().parse("a.width == 5").diagnostics.first)
        #expect(first.message == "Expected '|' or a view '[' to start the format string, found 'a'" + hint)
        #expect(first.column(in: "a.width == 5") == 0)
        // Not equations: no hint.
        for source in ["a == 5", "width", "a.b"] {
            let message = try #require(VisualFormatParser().parse(source).diagnostics.first).message
            #expect(!message.contains("equation"), "\(source)")
        }
    }

    @Test("diagnostics are capped at 100 per string")
    func cap() {
        let source = "H:[a]" + String(repeating: "-m-[a]", count: 150)
        let result = VisualFormatParser().parse(source)
        #expect(result.diagnostics.count == ParseResult.maximumDiagnostics)
        #expect(result.diagnostics.allSatisfy { $0.code == .unknownMetric })
    }

    // MARK: - Corpus

    @Test("corpus VFL strings parse, and the syntax cases fail at the expected column")
    func corpus() throws {
        // Every case of the public corpus (003–016, 024–026, 105, 115 are the syntax cases; the rest must parse too).
        let entries = try corpusConstraints(prefixes: [""])
        let visualFormat = entries.filter(\.isVisualFormat)
        #expect(visualFormat.count >= 40)
        for entry in visualFormat {
            let result = VisualFormatParser(options: ParseOptions(metrics: entry.metrics)).parse(entry.source, formatOptions: entry.formatOptions)
            let columns = result.diagnostics.compactMap { $0.column(in: entry.source) }
            #expect(columns == entry.expectedColumns, "\(entry.caseName): \(entry.source)")
            if entry.expectedColumns.isEmpty { #expect(!result.constraints.isEmpty || entry.source.hasPrefix("H:[") || entry.source.hasPrefix("V:["), "\(entry.caseName)") }
        }
    }

    @Test("isVisualFormat follows the contract's rule", arguments: [
        ("H:|[a]|", true), ("V:[a]", true), ("|-[a]", true), ("[a][b]", true), ("  H:[a]", true),
        ("a.width == 10", false), ("H.width == 10", false), ("align(top: a, b)", false), ("", false), ("V", false),
    ])
    func detection(_ source: String, _ expected: Bool) {
        #expect(isVisualFormat(source) == expected)
    }
}
