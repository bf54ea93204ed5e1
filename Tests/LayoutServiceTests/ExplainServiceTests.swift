import LayoutCompiler
@testable import LayoutService
import Testing

/// `explain` through the scene engine and the command line: `explanations` in the answer
/// (single and `sizes`), its cache key, and `layoutd solve --explain`.
struct ExplainServiceTests {
    static let scene = #"""
    {"container":{"width":375,"height":100},"views":["title"],
     "constraints":["H:|-20-[title]-20-|","V:|-10-[title(21)]"],"explain":["title.width"]}
    """#

    func prepared(_ body: String, engine: SceneEngine = SceneEngine()) throws -> SceneEngine.Prepared {
        switch engine.prepare(body: Array(body.utf8), resolveGroup: { _ in nil }) {
        case .success(let prepared): return prepared
        case .failure(let failure):
            Issue.record("not prepared: \(failure.diagnostics.map(\.message))")
            throw failure
        }
    }

    @Test func solveAnswersExplanationsBetweenFramesAndDiagnostics() throws {
        let engine = SceneEngine()
        let answer = engine.solve(try prepared(Self.scene))
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"frames":{"superview":{"x":0,"y":0,"width":375,"height":100},"title":{"x":20,"y":10,"width":335,"height":21}},"explanations":{"title.width":[{"ref":{"constraint":"container.width","text":"superview.width == 375"},"by":1},{"ref":{"constraint":0,"part":0,"column":3,"text":"title.leading == superview.leading + 20"},"by":-1},{"ref":{"constraint":0,"part":1,"column":14,"text":"superview.trailing == title.trailing + 20"},"by":-1}]},"diagnostics":[]}"#)
    }

    @Test func eachLayoutOfSizesHoldsItsExplanations() throws {
        let body = Self.scene.replacingOccurrences(of: #""explain""#, with: #""sizes":[{"width":300},{"width":400,"height":50}],"explain""#)
        let answer = SceneEngine().solve(try prepared(body))
        let json = try JSONParser().parse(answer.body)
        guard case .array(let layouts)? = json["layouts"] else { Issue.record("no layouts"); return }
        #expect(layouts.count == 2)
        for (layout, width) in zip(layouts, [300.0, 400]) {
            #expect(layout["frames"]?["title"]?["width"] == .number(width - 40))
            guard case .array(let entries)? = layout["explanations"]?["title.width"], let first = entries.first else {
                Issue.record("title.width not explained at \(width)")
                continue
            }
            #expect(entries.count == 3)
            #expect(first["ref"]?["text"] == .string("superview.width == \(Int(width))"))
            #expect(first["by"] == .number(1))
        }
        #expect(json["explanations"] == nil)
    }

    @Test func validateChecksExplainButAnswersNoExplanations() throws {
        let engine = SceneEngine()
        let answer = engine.validate(try prepared(Self.scene))
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"valid":true,"diagnostics":[]}"#)
        let unknown = engine.prepare(body: Array(Self.scene.replacingOccurrences(of: "title.width", with: "titel.width").utf8), resolveGroup: { _ in nil })
        guard case .failure(let failure) = unknown else { Issue.record("an unknown view was accepted"); return }
        #expect(failure.status == 422)
        #expect(failure.diagnostics.map(\.code) == [.unknownView])
        let malformed = engine.prepare(body: Array(Self.scene.replacingOccurrences(of: "title.width", with: "title.depth").utf8), resolveGroup: { _ in nil })
        guard case .failure(let failure) = malformed else { Issue.record("a bad field was accepted"); return }
        #expect(failure.status == 400)
        #expect(failure.diagnostics.map(\.path) == ["$.explain[0]"])
    }

    @Test func explainNamesALayoutGuideLikeAView() throws {
        // g, owned by a (10, 20, 200, 100): x = 5 from its owner, width 30, y 0, height
        // half a's; explained after the views (the order of frames, then guides).
        let body = #"""
        {"container":{"width":300,"height":200},"views":["a"],"guides":{"g":{"owner":"a"}},
         "constraints":["H:|-10-[a(200)]","V:|-20-[a(100)]","g.leading == a.leading + 5","g.width == 30",
                        "g.top == a.top","g.height == a.height * 0.5"],
         "explain":["g","a.width"]}
        """#
        let answer = SceneEngine().solve(try prepared(body))
        #expect(answer.status == 200)
        let json = try JSONParser().parse(answer.body)
        #expect(json["guides"]?["g"]?["x"] == .number(5) && json["guides"]?["g"]?["height"] == .number(50))
        guard case .object(let fields)? = json["explanations"] else { Issue.record("no explanations"); return }
        #expect(fields.map(\.0) == ["a.width", "g.x", "g.y", "g.width", "g.height"])
        func texts(_ field: String) -> [String] {
            guard case .array(let entries)? = json["explanations"]?[field] else { return [] }
            return entries.compactMap { $0["ref"]?["text"]?.stringValue }
        }
        func rates(_ field: String) -> [JSONValue?] {
            guard case .array(let entries)? = json["explanations"]?[field] else { return [] }
            return entries.map { $0["by"] }
        }
        // Relative to its owner: only its own offset moves g.x, not a's 10.
        #expect(texts("g.x") == ["g.leading == a.leading + 5"] && rates("g.x") == [.number(1)])
        #expect(texts("g.width") == ["g.width == 30"])
        // Half of a's height: a's 100 moves it by 0.5.
        #expect(texts("g.height") == ["a.height == 100", "g.height == 0.5 * a.height"])
        #expect(rates("g.height").first == .number(0.5))
    }

    @Test func explainRefusesSafeAreaAndNamesAMisspeltGuide() throws {
        let body = #"""
        {"views":["a"],"guides":{"gap":{}},"constraints":["H:|[a]|","V:|[a]|","gap.edges == a.edges"],"explain":["safeArea","gpa.x"]}
        """#
        guard case .failure(let failure) = SceneEngine().prepare(body: Array(body.utf8), resolveGroup: { _ in nil }) else {
            Issue.record("accepted"); return
        }
        #expect(failure.status == 422)
        #expect(failure.diagnostics.map(\.code) == [.unknownView, .unknownView])
        #expect(failure.diagnostics.map(\.path) == ["$.explain[0]", "$.explain[1]"])
        #expect(failure.diagnostics.map(\.message) == [
            "'safeArea' is the container's safe-area layout guide, set by container.safeArea; explain takes views and the scene's layout guides",
            "Unknown view or layout guide 'gpa' in explain; did you mean 'gap'?"])
    }

    @Test func theResultKeyIncludesExplainAndDisplayScale() throws {
        let plain = try prepared(Self.scene.replacingOccurrences(of: #","explain":["title.width"]"#, with: ""))
        let explained = try prepared(Self.scene)
        let other = try prepared(Self.scene.replacingOccurrences(of: "title.width", with: "title.x"))
        let scaled = try prepared(Self.scene.replacingOccurrences(of: #""explain""#, with: #""options":{"displayScale":2},"explain""#))
        let reordered = try prepared(#"{"explain":["title.width"],"views":["title"],"container":{"height":100,"width":375},"constraints":["H:|-20-[title]-20-|","V:|-10-[title(21)]"]}"#)
        let keys = [plain, explained, other, scaled].map { CacheKey.result($0, route: .solve) }
        #expect(Set(keys).count == 4)
        #expect(CacheKey.result(reordered, route: .solve) == CacheKey.result(explained, route: .solve))
    }

    @Test func commandLineAddsExplainAndRendersIt() throws {
        let body = LayoutdCommand.withExplain(Array(#"{"views":["a"],"explain":["a.x"]}"#.utf8), fields: " a.width, ,a.y")
        #expect(String(decoding: body, as: UTF8.self) == #"{"views":["a"],"explain":["a.x","a.width","a.y"]}"#)
        #expect(String(decoding: LayoutdCommand.withExplain(Array(#"{"views":["a"]}"#.utf8), fields: "a"), as: UTF8.self) == #"{"views":["a"],"explain":["a"]}"#)
        #expect(LayoutdCommand.withExplain(Array("[1]".utf8), fields: "a") == Array("[1]".utf8))

        let answer = SceneEngine().solve(try prepared(Self.scene))
        #expect(LayoutdCommand.renderExplanations(answer) == """
        title.width = 335
          +1  superview.width == 375  [container.width]
          -1  title.leading == superview.leading + 20  [constraints[0] part 0]
          -1  superview.trailing == title.trailing + 20  [constraints[0] part 1]
        """)
    }
}
