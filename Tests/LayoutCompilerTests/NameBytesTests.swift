import LayoutCompiler
import LayoutSyntax
import Testing

/// Names are bytes: every name of a scene is validated by its rule (ASCII) before it is
/// compared with anything, so a spelling that Swift's `String ==` finds canonically
/// equivalent (U+212A KELVIN SIGN and `K`, `e` + U+0301 and `é`) or a compatibility
/// character (U+FF21 FULLWIDTH A) is never another name's twin; repeated names are an
/// error in every object; and the decoder does no per-element work once a count limit is
/// exceeded, nor a did-you-mean search past its bounds.
struct NameBytesTests {
    func rejection(_ json: String, limits: SceneLimits = SceneLimits()) -> SceneRejection? {
        do {
            _ = try SceneDecoder(limits: limits).decode(body: Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// 62 metrics `m0`…`m61` as JSON members (with the pair below, 64: past the canonical
    /// writer's small-object path).
    static let otherMetrics = (0..<62).map { "\"m\($0)\":\($0)" }.joined(separator: ",")

    /// `K` and U+212A as two metrics: the second is not a valid name (422), whichever
    /// comes first, so the pair never reaches the canonical form.
    @Test(arguments: ["\"K\":34,\"\\u212a\":32", "\"\\u212a\":32,\"K\":34"])
    func kelvinMetricIsInvalid(_ pair: String) throws {
        let body = #"{"views":["a"],"metrics":{\#(Self.otherMetrics),\#(pair)},"constraints":["H:|[a(==K)]"]}"#
        let found = try #require(rejection(body))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.message) == ["Metric name '\u{212A}' is invalid: names match [A-Za-z_][A-Za-z0-9_]* (U+212A is not ASCII)"])
        #expect(found.diagnostics.map(\.path) == [#"$.metrics["\#u{212A}"]"#])
    }

    /// A metric given twice is a 400 at the second, as a repeated field is.
    @Test func repeatedMetricIsRefused() throws {
        let found = try #require(rejection(#"{"views":["a"],"metrics":{"w":1,"x":2,"w":3}}"#))
        #expect(found.reason == .malformed)
        #expect(found.diagnostics.map(\.message) == ["Metric 'w' is given more than once at $.metrics; give it once"])
        #expect(found.diagnostics.map(\.path) == ["$.metrics.w"])
        // In a group's body too.
        let group = try JSONParser().parse(Array(#"{"constraints":[],"metrics":{"w":1,"w":1}}"#.utf8))
        do {
            _ = try SceneDecoder().decodeGroupBody(group)
            Issue.record("expected a rejection")
        } catch {
            #expect(error.reason == .malformed)
            #expect(error.diagnostics.map(\.path) == ["$.metrics.w"])
        }
    }

    /// Unique valid metrics decode as given.
    @Test func metricsDecode() throws {
        let scene = try SceneDecoder().decode(body: Array(#"{"views":["a"],"metrics":{"w":1,"W":2,"w_2":3}}"#.utf8))
        #expect(scene.metrics == ["w": 1, "W": 2, "w_2": 3])
    }

    /// Parents and guide owners that are not valid names are unknown, whatever view they
    /// look like; the message names the first character outside ASCII.
    @Test(arguments: [
        ("\\u212a", "\u{212A}", "U+212A"), ("e\\u0301", "e\u{301}", "U+0301"), ("\\u00e9", "\u{E9}", "U+00E9"),
        ("\\uff21", "\u{FF21}", "U+FF21"),
    ])
    func parentsAndOwnersAreComparedAsBytes(_ written: String, _ name: String, _ codePoint: String) throws {
        let views = #""K":{},"e":{},"A":{},"x":{"parent":"\#(written)"}"#
        let parent = try #require(rejection("{\"views\":{\(views)}}"))
        #expect(parent.diagnostics.map(\.message) == ["View 'x' names an unknown parent '\(name)': names match [A-Za-z_][A-Za-z0-9_]* (\(codePoint) is not ASCII)"])
        let owner = try #require(rejection(#"{"views":{"K":{},"e":{},"A":{}},"guides":{"g":{"owner":"\#(written)"}}}"#))
        #expect(owner.diagnostics.map(\.message) == ["Layout guide 'g' names an unknown owner '\(name)': names match [A-Za-z_][A-Za-z0-9_]* (\(codePoint) is not ASCII)"])
        #expect(owner.diagnostics.map(\.path) == ["$.guides.g.owner"])
    }

    /// A stack's arranged names and `customSpacing` keys are names: U+212A arranges no
    /// view `K`, spaces after no view `K`, and a view whose `parent` is U+212A is not the
    /// subview of stack `K`.
    @Test func stackNamesAreComparedAsBytes() throws {
        let arranged = try #require(rejection(#"{"views":{"s":{"stack":{"arranged":["K","\u212a"]}},"K":{}}}"#))
        #expect(arranged.diagnostics.map(\.message) == ["Stack 's' arranges an unknown view '\u{212A}': names match [A-Za-z_][A-Za-z0-9_]* (U+212A is not ASCII)"])
        let custom = try #require(rejection(#"{"views":{"s":{"stack":{"arranged":["K"],"customSpacing":{"\u212a":4}}},"K":{}}}"#))
        #expect(custom.diagnostics.map(\.message) == ["customSpacing names '\u{212A}', which is not a view name: names match [A-Za-z_][A-Za-z0-9_]* (U+212A is not ASCII)"])
        #expect(custom.diagnostics.map(\.path) == [#"$.views.s.stack.customSpacing["\#u{212A}"]"#])
        // `K` and U+212A are two keys, not one given twice.
        let both = try #require(rejection(#"{"views":{"s":{"stack":{"arranged":["K"],"customSpacing":{"K":4,"\u212a":4}}},"K":{}}}"#))
        #expect(both.reason == .invalid)
        #expect(both.diagnostics.count == 1)
        let parent = try #require(rejection(#"{"views":{"K":{"stack":{"arranged":["a"]}},"a":{"parent":"\u212a"}}}"#))
        #expect(parent.diagnostics.map(\.message) == [
            "View 'a' is arranged in stack 'K' but its parent is '\u{212A}': an arranged view's parent is its stack (leave \"parent\" out)",
            "View 'a' names an unknown parent '\u{212A}': names match [A-Za-z_][A-Za-z0-9_]* (U+212A is not ASCII)",
        ])
    }

    /// View, guide and group names are validated before they are compared: U+212A is an
    /// invalid name (never a repeat of `K`), and `superview` spelled with a combining mark
    /// is invalid, not reserved.
    @Test func namesAreValidatedBeforeComparison() throws {
        let views = try #require(rejection(#"{"views":["K","\u212a","K"]}"#))
        #expect(views.diagnostics.map(\.message) == [
            "View name '\u{212A}' is invalid: names match [A-Za-z_][A-Za-z0-9_]* (U+212A is not ASCII)",
            "View 'K' is listed twice",
        ])
        let guides = try #require(rejection(#"{"views":["a"],"guides":{"K":{},"\u212a":{}}}"#))
        #expect(guides.diagnostics.map(\.message) == ["Layout guide name '\u{212A}' is invalid: names match [A-Za-z_][A-Za-z0-9_]* (U+212A is not ASCII)"])
        let groups = try #require(rejection(#"{"views":["a"],"groups":["K","\u212a"]}"#))
        #expect(groups.diagnostics.map(\.message) == ["'\u{212A}' is not a valid group name: names match [A-Za-z0-9][A-Za-z0-9._-]{0,127}"])
        let version = try #require(rejection(#"{"views":["a"],"groups":["g@\uff11"]}"#))
        #expect(version.diagnostics.map(\.message) == ["'g@\u{FF11}' is not a group reference: write NAME or NAME@VERSION (VERSION ≥ 1)"])
    }

    /// Fixed fields, option values and `explain` entries match by bytes only.
    @Test func fieldsAndValuesMatchByBytes() throws {
        let field = try #require(rejection(#"{"views":{"a":{"hidde\u006e":true,"hidden\u0301":true}}}"#))
        #expect(field.reason == .malformed)
        #expect(field.diagnostics.map(\.message) == ["Unknown field 'hidden\u{301}' at $.views.a; did you mean 'hidden'?"])
        let option = try #require(rejection(#"{"views":["a"],"options":{"layoutDirection":"leftToRight\u0301"}}"#))
        #expect(option.reason == .malformed)
        let priority = try #require(rejection(#"{"views":["a"],"constraints":[{"equation":"a.width == 1","priority":"low\u0301"}]}"#))
        #expect(priority.reason == .malformed)
        let explain = try #require(rejection(#"{"views":["a"],"explain":["a.widt\u0068\u0301"]}"#))
        #expect(explain.diagnostics.map(\.path) == ["$.explain[0]"])
    }

    /// Past a count limit nothing else is checked: 20,001 invalid view names are one
    /// diagnostic, the limit's, and so are 1,001 explain entries with them.
    @Test func countLimitsComeFirst() throws {
        let names = (0...20_000).map { "\"\\u212a\($0)\"" }.joined(separator: ",")
        let found = try #require(rejection(#"{"views":[\#(names)],"explain":[\#(names)]}"#))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.message) == [
            "The scene has 20001 views; at most 20000 are allowed (limit maxViews)",
            "The scene asks to explain 20001 entries; at most 1000 are allowed (limit maxExplainEntries)",
        ])
        var limits = SceneLimits()
        limits.maxViews = 3
        let guides = try #require(rejection(#"{"views":["a","b"],"guides":{"g":{},"h":{"owner":"zz"}}}"#, limits: limits))
        #expect(guides.diagnostics.map(\.message) == ["The scene has 2 views and 2 layout guides; at most 3 together are allowed (limit maxViews)"])
        // A type error of the top level is still the 400 it was.
        let typed = try #require(rejection(#"{"views":[\#(names)],"vews":1}"#))
        #expect(typed.reason == .malformed)
    }

    /// Did-you-mean for `explain`: among at most `maxSuggestionCandidates` names, for the
    /// listed diagnostics only, and not once the scene is refused for something else.
    @Test func explainSuggestionsAreBounded() throws {
        func body(views: Int, explain: [String], extra: String = "") -> String {
            let names = (0..<views).map { "\"view\($0)\"" }.joined(separator: ",")
            return #"{"views":[\#(names)\#(extra)],"explain":[\#(explain.map { "\"\($0)\"" }.joined(separator: ","))]}"#
        }
        let small = try #require(rejection(body(views: 1_000, explain: ["veiw7"])))
        #expect(small.diagnostics.map(\.message) == ["Unknown view or layout guide 'veiw7' in explain; did you mean 'view7'?"])
        let large = try #require(rejection(body(views: 1_001, explain: ["veiw7"])))
        #expect(large.diagnostics.map(\.message) == ["Unknown view or layout guide 'veiw7' in explain"])
        let refused = try #require(rejection(body(views: 10, explain: ["veiw7"], extra: ",\"9bad\"")))
        #expect(refused.diagnostics.map(\.message).last == "Unknown view or layout guide 'veiw7' in explain")
        // Past the listed diagnostics, no suggestion is searched (their messages are
        // never answered; each still counts).
        let many = try #require(rejection(body(views: 10, explain: (0..<150).map { _ in "veiw7" })))
        #expect(many.diagnostics.count == 150)
        #expect(many.diagnostics[99].message.hasSuffix("did you mean 'view7'?"))
        #expect(many.diagnostics[100].message == "Unknown view or layout guide 'veiw7' in explain")
    }

    /// The suggestion helper itself: nothing among more than 1,000 candidates.
    @Test func suggestionsAmongAtMostAThousand() {
        let names = (0..<1_000).map { "view\($0)" }
        #expect(closestName(to: "veiw7", among: names) == "view7")
        #expect(closestName(to: "veiw7", among: names + ["other"]) == nil)
    }

    /// A stored group's body is read back as the build that stored it read it: repeated
    /// metrics (accepted then) keep their last value, so a stored version keeps its
    /// meaning; a new body with them is a 400.
    @Test func storedGroupMetricsAreReadAsStored() throws {
        let repeated = try JSONParser().parse(Array(#"{"constraints":["a.width == m"],"metrics":{"m":1,"m":2}}"#.utf8))
        let decoded = try SceneDecoder().decodeGroupBody(repeated, stored: true)
        #expect(decoded.metrics == ["m": 2])
        #expect(decoded.constraints.map(\.source) == ["a.width == m"])
        #expect(throws: SceneRejection.self) { try SceneDecoder().decodeGroupBody(repeated) }
    }

    /// The parsers look metrics up by bytes: `x` + U+212A is not the metric `xK`.
    @Test func parsersLookMetricsUpByBytes() {
        let options = ParseOptions(metrics: ["xK": 5])
        let predicate = VisualFormatParser(options: options).parse("H:[a(==x\u{212A})]", formatOptions: [])
        #expect(predicate.diagnostics.map(\.code) == [.unknownView])
        let space = VisualFormatParser(options: options).parse("H:[a]-x\u{212A}-[b]", formatOptions: [])
        #expect(space.diagnostics.map(\.code) == [.unknownMetric])
        let plain = VisualFormatParser(options: options).parse("H:[a]-xK-[b]", formatOptions: [])
        #expect(plain.diagnostics.isEmpty)
        let equation = EquationParser(options: options).parse("a.width == x\u{212A}")
        #expect(equation.diagnostics.map(\.code) == [.unknownMetric])
    }

    /// The compiler's did-you-mean searches compare at most `maxSuggestionComparisons`
    /// names in all, and none past the listed diagnostics: with 10 metrics every listed
    /// unknown metric gets its note; with 998 metrics and the 2 view names (`superview`,
    /// `a`) the first 20 do (20 × 1,000 names), the rest none.
    @Test(arguments: [(10, 100), (998, 20)])
    func compilerSuggestionsAreBounded(_ metricCount: Int, _ noted: Int) throws {
        let metrics = (0..<metricCount).map { "\"m\($0)\":\($0)" }.joined(separator: ",")
        let constraints = (0..<150).map { "\"H:[a(==n\($0 % 10))]\"" }.joined(separator: ",")
        let scene = try SceneDecoder().decode(body: Array(#"{"views":["a"],"metrics":{\#(metrics)},"constraints":[\#(constraints)]}"#.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        // 100 listed, and the count of the other 50.
        #expect(compiled.diagnostics.map(\.code) == Array(repeating: .unknownMetric, count: 100) + [.limitExceeded])
        let withNotes = compiled.diagnostics.filter { $0.notes.contains { $0.hasPrefix("did you mean") } }.count
        #expect(withNotes == noted)
        #expect(compiled.diagnostics[0].notes == ["did you mean 'm0'?"])
    }
}
