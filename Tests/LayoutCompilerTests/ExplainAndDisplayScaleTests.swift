@testable import LayoutCompiler
import LayoutSyntax
import Testing

/// `explain` (docs/scene-format.md, "Explaining a frame") and `options.displayScale`.
/// Each expected rate is derived by hand in a comment: a field's change per point of a
/// constraint's constant (right side minus left side).
struct ExplainAndDisplayScaleTests {
    /// The explanation of `field` as constraint text → rate, in the answer's order.
    func explanation(_ layout: Layout, _ field: String, sourceLocation: SourceLocation = #_sourceLocation) -> [(String, Double)] {
        guard let found = layout.explanations.first(where: { $0.field == field }) else {
            Issue.record("\(field) not explained; explained: \(layout.explanations.map(\.field))", sourceLocation: sourceLocation)
            return []
        }
        return found.entries.map { ($0.ref.text, $0.by) }
    }

    func same(_ lhs: [(String, Double)], _ rhs: [(String, Double)]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    // MARK: Explanations

    @Test func chainOfViews() throws {
        // 375 = 20 + a(100) + 8 + b + 20, so b.width = 227: +1 per point of the container,
        // -1 per point of each other length along the row. b.x = 20 + 100 + 8 = 128 moves
        // with the lengths before it and not with the container.
        let (_, result) = try layout(#"""
        {"container":{"width":375,"height":100},"views":["a","b"],
         "constraints":["H:|-20-[a(100)]-8-[b]-20-|","V:|[a(10)]","V:|[b(10)]"],
         "explain":["b.width","b.x","a.x"]}
        """#)
        #expect(result.frame("b") == frame(128, 0, 227, 10))
        #expect(same(explanation(result, "b.width"), [
            ("superview.width == 375", 1),
            ("a.leading == superview.leading + 20", -1), ("a.width == 100", -1),
            ("b.leading == a.trailing + 8", -1), ("superview.trailing == b.trailing + 20", -1),
        ]))
        #expect(same(explanation(result, "b.x"), [
            ("a.leading == superview.leading + 20", 1), ("a.width == 100", 1), ("b.leading == a.trailing + 8", 1),
        ]))
        #expect(same(explanation(result, "a.x"), [("a.leading == superview.leading + 20", 1)]))
        // Fields come in the order of `frames` (views by name; x y width height).
        #expect(result.explanations.map(\.field) == ["a.x", "b.x", "b.width"])
    }

    @Test func multiplierScalesTheRate() throws {
        // b.width = 2 × a.width + 10 = 110 with a.width = 50: +1 per point of the 10, +2
        // per point of a's 50.
        let (_, result) = try layout(#"""
        {"container":{"width":375,"height":100},"views":["a","b"],
         "constraints":["a.width == 50","b.width == 2 * a.width + 10","H:|[a]","H:|[b]","V:|[a(1)]","V:|[b(1)]"],
         "explain":["b.width"]}
        """#)
        #expect(result.frame("b").width == 110)
        #expect(same(explanation(result, "b.width"), [("a.width == 50", 2), ("b.width == 2 * a.width + 10", 1)]))
    }

    @Test func optionalConstraintsThatDoNotHoldAreNotListed() throws {
        // a.width <= 80 (required) beats a.width == 100 @750 and the compression
        // resistance (>= 120 @750): a.width = 80, moved by the required bound alone.
        // b.width == 60 @500 holds (nothing disagrees): listed, after the required ones.
        let (_, result) = try layout(#"""
        {"container":{"width":375,"height":100},
         "views":{"a":{"intrinsicSize":{"width":120}},"b":{}},
         "constraints":[{"equation":"a.width == 100","priority":750},"a.width <= 80",
                        {"equation":"b.width == 60","priority":500},"b.leading == a.trailing",
                        "H:|[a]","V:|[a(1)]","V:|[b(1)]"],
         "explain":["a.width","b.x","b"]}
        """#)
        #expect(result.frame("a").width == 80)
        #expect(same(explanation(result, "a.width"), [("a.width <= 80", 1)]))
        // Strongest first, then in order of addition: the required ones in scene order
        // (the VFL pin has constant 0 but holds b.x, so it is listed).
        #expect(same(explanation(result, "b.x"), [("a.width <= 80", 1), ("b.leading == a.trailing", 1), ("a.leading == superview.leading", 1)]))
        #expect(same(explanation(result, "b.width"), [("b.width == 60 @500", 1)]))
        #expect(same(explanation(result, "b.y"), [("b.top == superview.top", 1)]))
        #expect(same(explanation(result, "b.height"), [("b.height == 1", 1)]))
        #expect(result.explanations.map(\.field) == ["a.width", "b.x", "b.y", "b.width", "b.height"])
    }

    @Test func nestedViewsAreParentRelative() throws {
        // card at 16 in the container, title 12 inside card: title.x = 12 relative to card
        // depends on its own inset only; with coordinates root it is 28 and moves with both.
        let scene = #"""
        {"container":{"width":375,"height":200},
         "views":{"card":{},"title":{"parent":"card"}},
         "constraints":["H:|-16-[card]-16-|","V:|-20-[card(100)]","H:|-12-[title]-12-|","V:|-10-[title(20)]"],
         "explain":["title.x","title.width"],"options":{"coordinates":"COORDINATES"}}
        """#
        let (_, parent) = try layout(scene.replacingOccurrences(of: "COORDINATES", with: "parent"))
        #expect(parent.frame("title") == frame(12, 10, 319, 20))
        #expect(same(explanation(parent, "title.x"), [("title.leading == card.leading + 12", 1)]))
        // width = 375 - 16 - 16 - 12 - 12.
        #expect(same(explanation(parent, "title.width"), [
            ("superview.width == 375", 1), ("card.leading == superview.leading + 16", -1),
            ("superview.trailing == card.trailing + 16", -1), ("title.leading == card.leading + 12", -1),
            ("card.trailing == title.trailing + 12", -1),
        ]))
        let (_, root) = try layout(scene.replacingOccurrences(of: "COORDINATES", with: "root"))
        #expect(root.frame("title") == frame(28, 30, 319, 20))
        #expect(same(explanation(root, "title.x"), [
            ("card.leading == superview.leading + 16", 1), ("title.leading == card.leading + 12", 1),
        ]))
    }

    @Test func eachSizeIsExplainedAsASeparateSolve() throws {
        // a fills the container between standard insets of 20: a.width = W - 40.
        let json = #"""
        {"container":{"height":100},"views":["a"],
         "constraints":["H:|-[a]-|","V:|[a(10)]"],"explain":["a.width"],
         "sizes":[{"width":300},{"width":400},{"width":300}]}
        """#
        let scene = try SceneDecoder().decode(body: Array(json.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        let layouts = compiled.solve(sizes: scene.sizes ?? [])
        #expect(layouts.map { $0.frame("a").width } == [260, 360, 260])
        #expect(same(explanation(layouts[1], "a.width"), [
            ("superview.width == 400", 1), ("a.leading == superview.leading + 20", -1), ("superview.trailing == a.trailing + 20", -1),
        ]))
        for (index, size) in (scene.sizes ?? []).enumerated() {
            #expect(layouts[index].explanations == compiled.solve(size: size).explanations)
        }
    }

    @Test func withoutExplainThereAreNoExplanations() throws {
        let (_, result) = try layout(#"{"container":{"width":100,"height":100},"views":["a"],"constraints":["H:|[a]|","V:|[a]|"]}"#)
        #expect(result.explanations.isEmpty)
    }

    @Test func explainIsValidated() throws {
        func rejection(_ explain: String) -> (SceneRejection.Reason, String?)? {
            let json = #"{"views":["a"],"explain":"# + explain + "}"
            do {
                _ = try SceneDecoder().decode(body: Array(json.utf8))
                return nil
            } catch {
                return (error.reason, error.diagnostics.first?.path)
            }
        }
        #expect(rejection(#"["a", "a.x", "superview.width"]"#) == nil)
        #expect(rejection(#""a""#)?.0 == .malformed)
        #expect(rejection(#"["a", 3]"#).map { [$0.0 == .malformed, $0.1 == "$.explain[1]"] } == [true, true])
        #expect(rejection(#"["a.depth"]"#).map { [$0.0 == .malformed, $0.1 == "$.explain[0]"] } == [true, true])
        #expect(rejection(#"["a.x.y"]"#)?.0 == .malformed)
        #expect(rejection(#"["b.x"]"#).map { [$0.0 == .invalid, $0.1 == "$.explain[0]"] } == [true, true])
        var limits = SceneLimits()
        limits.maxExplainEntries = 2
        #expect(throws: SceneRejection.self) { try SceneDecoder(limits: limits).decode(body: Array(#"{"views":["a"],"explain":["a","a","a"]}"#.utf8)) }
    }

    // MARK: Display scale

    @Test func nestedViewsAt3x() throws {
        // outer: edges 10.1 and 60.1 → ×3 = 30.3, 180.3 → 30/3 = 10 and 180/3 = 60.
        // inner (in outer, 0.5 in, 20.2 wide): container edges 10.6 and 30.8 → ×3 = 31.8,
        // 92.4 → 32/3 and 92/3; relative to outer's rounded 10: x = 2/3, width = 60/3 = 20.
        let (_, result) = try layout(#"""
        {"container":{"width":100,"height":50},"views":{"outer":{},"inner":{"parent":"outer"}},
         "constraints":["H:|-10.1-[outer(50)]","V:|[outer(50)]","H:|-0.5-[inner(20.2)]","V:|[inner(10)]"],
         "options":{"displayScale":3}}
        """#)
        #expect(result.frame("outer") == frame(10, 0, 50, 50))
        #expect(result.frame("inner") == frame(0.666667, 0, 20, 10))
    }

    @Test func nestedViewsAt2xHalvesAwayFromZero() throws {
        // a at -0.25 (container coordinates), 10.5 wide: ×2 edges -0.5 and 20.5 round away
        // from zero to -1 and 21: x = -0.5, width = 11. b inside a at 0.5, 0.25 wide:
        // edges 0.25 and 0.5 → ×2 = 0.5 → 1, and 1: x = 0.5 - (-0.5) = 1, width 0.
        let (_, result) = try layout(#"""
        {"container":{"width":100,"height":50},"views":{"a":{},"b":{"parent":"a"}},
         "constraints":["a.leading == superview.leading - 0.25","a.width == 10.5","V:|[a(10)]",
                        "b.leading == a.leading + 0.5","b.width == 0.25","V:|[b(10)]"],
         "options":{"displayScale":2}}
        """#)
        #expect(result.frame("a") == frame(-0.5, 0, 11, 10))
        #expect(result.frame("b") == frame(1, 0, 0, 10))
    }

    @Test func edgesOnAHalfPixelRoundAwayFromZeroDespiteNoise() throws {
        // Three equal columns in 560 - 2 × 10 - 2 × 1 = 538: each 179.333…; the middle one
        // starts at 10 + 179.333… + 1 = 190.333…, and m, 40.5 wide, centred in it, at
        // 190.333… + (179.333… - 40.5) / 2 = 259.75: ×2 = 519.5, a half, away from zero to
        // 520 → 260. c's edges: 380.67 → 381 and 739.33 → 739, so c = 190.5 wide 179; m in
        // c at 260 - 190.5 = 69.5. Where the solver's arithmetic leaves such an edge at
        // 259.74999999999997 (an imported storyboard's cell does), it is still that half:
        // the direct call below.
        let (_, result) = try layout(#"""
        {"container":{"width":560,"height":50},"views":{"l":{},"c":{},"r":{},"m":{"parent":"c"}},
         "constraints":["H:|-10-[l]-1-[c(==l)]-1-[r(==l)]-10-|","V:|[l(10)]","V:|[c(10)]","V:|[r(10)]",
                        "m.centerX == c.centerX","m.width == 40.5","V:|[m(10)]"],
         "options":{"displayScale":2}}
        """#)
        #expect(result.frame("c") == frame(190.5, 0, 179, 10))
        #expect(result.frame("m") == frame(69.5, 0, 40.5, 10))
        // 259.74999999999997 (×2 = 519.4999999999999) is the half 519.5: 260, and its right
        // edge 260.74999999999997 is 261. Off a half pixel by more than the noise (0.2499 ×
        // 2 = 0.4998), an edge rounds to its nearest pixel: 0.
        let aligned = CompiledScene.pixelAligned([Frame(x: 0, y: 0, width: 10, height: 10),
                                                  Frame(x: 259.74999999999997, y: 0.2499, width: 1, height: 1)], scale: 2)
        #expect(aligned[1] == Frame(x: 260, y: 0, width: 1, height: 1))
    }

    @Test func diagnosticsAreJudgedOnExactValues() throws {
        // a.width = -0.2: both edges round to 10 at 1×, so the frame shows width 0, but the
        // exact width is negative: `negative_size` all the same.
        let (_, result) = try layout(#"""
        {"container":{"width":100,"height":50},"views":["a"],
         "constraints":["H:|-10-[a(-0.2)]","V:|[a(10)]"],"options":{"displayScale":1}}
        """#)
        #expect(result.frame("a") == frame(10, 0, 0, 10))
        #expect(result.codes == ["negative_size"])
    }

    @Test func displayScaleIsValidated() throws {
        for value in ["1", "2", "3", "2.0"] {
            let scene = try SceneDecoder().decode(body: Array(#"{"options":{"displayScale":\#(value)}}"#.utf8))
            #expect(scene.options.displayScale == Int(Double(value)!))
        }
        for value in ["0", "4", "1.5", "\"2\"", "null", "-1"] {
            do {
                _ = try SceneDecoder().decode(body: Array(#"{"options":{"displayScale":\#(value)}}"#.utf8))
                Issue.record("displayScale \(value) accepted")
            } catch {
                #expect(error.reason == .malformed)
                #expect(error.diagnostics.first?.path == "$.options.displayScale")
            }
        }
    }
}
