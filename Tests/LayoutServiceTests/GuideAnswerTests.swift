import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing

/// Layout guides in answers: the `guides` member of `/solve` and of each
/// `layouts` entry, byte for byte; the corpus cases of contract v1.1 for guides and the
/// safe area (`../shared/corpus/v1.1/309`–`311`); guides drawn dashed in the SVG.
struct GuideAnswerTests {
    static func solve(_ json: String) throws -> EngineAnswer {
        let engine = SceneEngine()
        switch engine.prepare(body: Array(json.utf8), resolveGroup: { _ in nil }) {
        case .success(let prepared): return engine.solve(prepared)
        case .failure(let failure): return engine.problem(status: failure.status, diagnostics: failure.diagnostics)
        }
    }

    @Test func guidesFollowFramesSortedByName() throws {
        // zeta: left half of the 200 × 100 container (0, 0, 100, 100); alpha owned by a
        // (at (20, 10), 50 × 50), its right half: (25, 0, 25, 50) relative to a.
        let answer = try Self.solve(#"""
        {"container":{"width":200,"height":100},"views":["a"],"guides":{"zeta":{},"alpha":{"owner":"a"}},
         "constraints":["H:|-20-[a(50)]","V:|-10-[a(50)]",
           "zeta.edges == superview.edges + inset(0, 0, 0, 100)",
           "alpha.leading == a.centerX","alpha.trailing == a.trailing","alpha.top == a.top","alpha.bottom == a.bottom"]}
        """#.replacingOccurrences(of: "superview.edges + inset(0, 0, 0, 100)", with: "inset(superview.edges, 0, 0, 0, 100)"))
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"""
        {"frames":{"superview":{"x":0,"y":0,"width":200,"height":100},"a":{"x":20,"y":10,"width":50,"height":50}},"guides":{"alpha":{"x":25,"y":0,"width":25,"height":50},"zeta":{"x":0,"y":0,"width":100,"height":100}},"diagnostics":[]}
        """#)
    }

    @Test func aSceneWithoutGuidesHasNoGuidesMember() throws {
        // The safe area alone is the container's: it is not listed.
        let answer = try Self.solve(#"""
        {"container":{"width":200,"height":100,"safeArea":{"top":20}},"views":["a"],
         "constraints":["a.top == safeArea.top","a.left == 0","a.size == 10"]}
        """#)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"""
        {"frames":{"superview":{"x":0,"y":0,"width":200,"height":100},"a":{"x":0,"y":20,"width":10,"height":10}},"diagnostics":[]}
        """#)
    }

    @Test func eachLayoutOfSizesHasItsGuides() throws {
        // g spans the safe area's width (container width − 10 − 30): at 200, x 10 and
        // width 160; at 100, width 60. Its height: 5.
        let answer = try Self.solve(#"""
        {"container":{"safeArea":{"left":10,"right":30}},"guides":{"g":{}},
         "constraints":["g.leading == safeArea.leading","g.width == safeArea.width","g.top == 0","g.height == 5"],
         "sizes":[{"width":200,"height":50},{"width":100,"height":50}]}
        """#)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"""
        {"layouts":[{"container":{"width":200,"height":50},"frames":{"superview":{"x":0,"y":0,"width":200,"height":50}},"guides":{"g":{"x":10,"y":0,"width":160,"height":5}},"diagnostics":[]},{"container":{"width":100,"height":50},"frames":{"superview":{"x":0,"y":0,"width":100,"height":50}},"guides":{"g":{"x":10,"y":0,"width":60,"height":5}},"diagnostics":[]}],"diagnostics":[]}
        """#)
    }

    @Test func anAmbiguousGuideIsNamedInItsDiagnostic() throws {
        let answer = try Self.solve(#"""
        {"container":{"width":100,"height":100},"guides":{"g":{}},"constraints":["g.width == 10","g.height == 10","g.top == 0"],
         "options":{"ambiguity":"error"}}
        """#)
        #expect(answer.status == 422)
        let problem = try JSONParser().parse(answer.body)
        guard case .array(let diagnostics)? = problem["diagnostics"] else { Issue.record("no diagnostics"); return }
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["code"] == .string("ambiguous_layout"))
        #expect(diagnostics.first?["view"] == .string("g"))
        #expect(diagnostics.first?["attribute"] == .string("x"))
    }

    @Test func theStructureCacheAnswersGuidesAsWithoutIt() throws {
        // The safe area's insets are part of the scene's structure (not its size): two
        // scenes that differ only in them are never answered from each other's bases.
        let engine = StructureCacheTests.cachingEngine()
        for (top, width) in [(47.0, 390.0), (47, 844), (20, 390), (47, 390)] {
            let body = Array(#"""
            {"container":{"width":\#(width),"height":600,"safeArea":{"top":\#(top),"left":4}},"views":["a"],"guides":{"g":{"owner":"a"}},
             "constraints":["a.top == safeArea.top","a.leading == safeArea.leading","a.width == safeArea.width * 0.5","a.height == 10",
               "g.leading == a.centerX","g.trailing == a.trailing","g.top == a.top","g.height == a.height"]}
            """#.utf8)
            let cached = StructureCacheTests.answer(engine, body: body)
            let fresh = StructureCacheTests.answer(SceneEngine(), body: body)
            #expect(String(decoding: cached.body, as: UTF8.self) == String(decoding: fresh.body, as: UTF8.self))
            // a: x 4, y top, width (width − 4) / 2; g its right half, relative to a.
            let half = (width - 4) / 2
            let response = try JSONParser().parse(cached.body)
            #expect(response["frames"]?["a"]?["y"] == .number(top))
            #expect(response["frames"]?["a"]?["width"] == .number(half))
            #expect(response["guides"]?["g"]?["x"] == .number(half / 2))
            #expect(response["guides"]?["g"]?["y"] == .number(0))
        }
    }

    // MARK: Corpus v1.1

    static let corpusCases = ["309_spacer_guides_center_buttons.json", "310_safe_area_header_footer.json",
                              "311_guide_in_vfl_unknown_view.json"]

    @Test("corpus v1.1 guide case", arguments: corpusCases)
    func corpusCase(_ file: String) throws {
        // Frames, status and diagnostics as the corpus runner compares them.
        try CorpusTests().corpusCase("v1.1/" + file)
        // And `expect.guides`, relative to each guide's owner.
        let data = try Data(contentsOf: CorpusTests.corpusDirectory.appendingPathComponent("v1.1/" + file))
        let testCase = try JSONParser().parse([UInt8](data))
        var writer = JSONWriter()
        writer.value(try #require(testCase["scene"]))
        let answer = try Self.solve(String(decoding: writer.bytes, as: UTF8.self))
        let response = try JSONParser().parse(answer.body)
        guard let expected = testCase["expect"]?["guides"] else {
            // A case that expects no guides (the error case) answers none.
            #expect(response["guides"] == nil, "\(file): \(String(decoding: answer.body, as: UTF8.self))")
            return
        }
        guard case .object(let guides) = expected, case .object(let got)? = response["guides"] else {
            Issue.record("\(file): no guides in \(String(decoding: answer.body, as: UTF8.self))")
            return
        }
        #expect(got.map(\.0) == guides.map(\.0).sorted())
        for (name, frame) in guides {
            for field in ["x", "y", "width", "height"] {
                guard case .number(let want)? = frame[field], case .number(let have)? = response["guides"]?[name]?[field] else {
                    Issue.record("\(file): \(name).\(field) missing")
                    continue
                }
                #expect(abs(want - have) <= 1e-6, "\(file): \(name).\(field) is \(have), expected \(want)")
            }
        }
    }

    @Test func guideInVisualFormatNoteInTheProblem() throws {
        // 311: breathingRoom in the V: string is unknown_view at its name (column 18),
        // with the note saying it is a layout guide.
        let answer = try Self.solve(#"""
        {"container":{"width":320,"height":568},"views":["logo","caption"],"guides":{"breathingRoom":{}},
         "constraints":["breathingRoom.height == 40","V:|-24-[logo(80)][breathingRoom][caption(20)]"]}
        """#)
        #expect(answer.status == 422)
        let problem = try JSONParser().parse(answer.body)
        guard case .array(let diagnostics)? = problem["diagnostics"], let diagnostic = diagnostics.first,
              case .array(let notes)? = diagnostic["notes"] else {
            Issue.record("no diagnostic with notes: \(String(decoding: answer.body, as: UTF8.self))")
            return
        }
        #expect(diagnostics.count == 1)
        #expect(diagnostic["code"] == .string("unknown_view"))
        #expect(diagnostic["constraint"] == .number(1))
        #expect(diagnostic["column"] == .number(18))
        #expect(diagnostic["message"] == .string("Unknown view 'breathingRoom' in a VFL string"))
        #expect(notes.first == .string("'breathingRoom' is a layout guide, and VFL takes views only (as Apple's does): relate a guide with an equation, such as 'breathingRoom.leading == a.trailing'"))
    }

    // MARK: SVG

    @Test func theWireframeDrawsGuidesDashedAtTheirFrames() throws {
        // gap owned by card (20, 10): reported (5, 0, 30, 40), drawn at (25, 10).
        let prepared = try WireframeTests.prepare(#"""
        {"container":{"width":200,"height":100},"views":["card"],"guides":{"gap":{"owner":"card"}},
         "constraints":["H:|-20-[card(100)]","V:|-10-[card(60)]",
           "gap.leading == card.leading + 5","gap.width == 30","gap.top == card.top","gap.height == 40"]}
        """#)
        let engine = SceneEngine()
        let (compiled, layouts) = engine.compileAndSolve(prepared)
        let svg = WireframeRenderer.svg(compiled: compiled, layouts: layouts, sizes: nil)
        let elements = try WireframeTests.parse(svg)
        let groups = elements.filter { $0.name == "g" && $0.attributes["data-guide"] != nil }
        #expect(groups.map { $0.attributes["data-guide"] } == ["gap"])
        #expect(groups.first?.attributes["class"] == "guide")
        #expect(groups.first?.attributes["data-owner"] == "card")
        let index = try #require(elements.firstIndex { $0.name == "g" && $0.attributes["data-guide"] == "gap" })
        let rect = elements[index + 1]
        #expect(rect.name == "rect")
        #expect(["data-x", "data-y", "data-width", "data-height", "x", "y", "width", "height"].map { rect.attributes[$0] }
                == ["5", "0", "30", "40", "25", "10", "30", "40"])
        #expect(WireframeRenderer.stylesheet.contains(".guide > rect { fill: none; stroke: #7048c8; stroke-width: 1.5; stroke-dasharray: 6 4; }"))
        // Not drawn as a view, and `safeArea` not at all.
        #expect(!elements.contains { $0.attributes["data-view"] == "gap" || $0.attributes["data-guide"] == "safeArea" })
    }

    /// The label texts of `name` in the wireframe of `scene`.
    static func labels(_ scene: String, for name: String) throws -> [String] {
        let (compiled, layouts) = SceneEngine().compileAndSolve(try WireframeTests.prepare(scene))
        let elements = try WireframeTests.parse(WireframeRenderer.svg(compiled: compiled, layouts: layouts, sizes: nil))
        return elements.filter { $0.name == "text" && $0.attributes["data-for"] == name }.map(\.text)
    }

    @Test func aGuidesLabelMarksAmbiguousFieldsLikeAView() throws {
        // u.width ≥ 50 and no height: both ambiguous (solved 50 and 0), like a view's.
        let constraints = #""constraints":["H:|-[a]-|","V:|-[a]-|","u.left == 100","u.top == 100","u.width >= 50"]"#
        let guide = #"{"container":{"width":300,"height":200},"views":["a"],"guides":{"u":{}},\#(constraints)}"#
        let view = #"{"container":{"width":300,"height":200},"views":["a","u"],\#(constraints)}"#
        #expect(try Self.labels(guide, for: "u") == ["u  100,100 50?×0?"])
        #expect(try Self.labels(view, for: "u") == ["u  100,100 50?×0?"])
        // Unconstrained: every field ambiguous, none drawn as a determined 0 × 0.
        let free = #"{"container":{"width":300,"height":200},"views":["a"],"guides":{"u":{}},"constraints":["H:|-[a]-|","V:|-[a]-|"]}"#
        #expect(try Self.labels(free, for: "u") == ["u  0?,0? 0?×0?"])
    }

    @Test func anAmbiguousGuideIsDrawnAsAWarning() throws {
        let prepared = try WireframeTests.prepare(#"""
        {"container":{"width":100,"height":100},"guides":{"g":{}},"constraints":["g.width == 10","g.height == 10","g.top == 0"]}
        """#)
        let (compiled, layouts) = SceneEngine().compileAndSolve(prepared)
        let elements = try WireframeTests.parse(WireframeRenderer.svg(compiled: compiled, layouts: layouts, sizes: nil))
        let group = try #require(elements.first { $0.attributes["data-guide"] == "g" })
        #expect(group.attributes["class"] == "guide warning")
        #expect(elements.contains { $0.name == "title" && $0.text.contains("The x of 'g' is ambiguous") })
    }
}
