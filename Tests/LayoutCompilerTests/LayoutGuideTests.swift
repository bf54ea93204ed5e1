import LayoutCompiler
import LayoutSyntax
import Testing

/// Layout guides (`guides`) and the container's `safeArea` (contract, "Layout
/// guides and the safe area"). Each expected frame is derived by hand in a comment.
struct LayoutGuideTests {
    /// `card` at (20, 40, 360, 200) in a 400 × 300 container, for guides owned by it.
    static let card = #""container":{"width":400,"height":300},"views":{"card":{},"label":{"parent":"card"}}"#
    static let cardConstraints = #""H:|-20-[card]-20-|","V:|-40-[card(200)]""#

    @Test func guideOwnedByAViewIsAnsweredRelativeToItsOwner() throws {
        // gap spans card from 10 to 360 − 30 = 330: x 10, width 320 (relative to card);
        // top on card's top, height 50. label (in card) starts at gap's trailing (330)
        // and 5 below its bottom (55), 20 × 10.
        let (_, result) = try layout(#"""
        {\#(Self.card),"guides":{"gap":{"owner":"card"}},
         "constraints":[\#(Self.cardConstraints),
           "gap.leading == card.leading + 10","gap.trailing == card.trailing - 30",
           "gap.top == card.top","gap.height == 50",
           "label.leading == gap.trailing","label.top == gap.bottom + 5","label.width == 20","label.height == 10"]}
        """#)
        #expect(result.frame("card") == frame(20, 40, 360, 200))
        #expect(result.guideFrame("gap") == frame(10, 0, 320, 50))
        #expect(result.frame("label") == frame(330, 55, 20, 10))
        #expect(result.diagnostics.isEmpty)
        #expect(result.guides.map(\.name) == ["gap"])
        #expect(!result.frames.contains { $0.name == "gap" || $0.name == "safeArea" })
    }

    @Test func rootCoordinatesGiveGuidesRelativeToTheContainer() throws {
        // The same guide as above, at card's origin (20, 40) plus (10, 0): (30, 40).
        let (_, result) = try layout(#"""
        {\#(Self.card),"guides":{"gap":{"owner":"card"}},"options":{"coordinates":"root"},
         "constraints":[\#(Self.cardConstraints),
           "gap.leading == card.leading + 10","gap.trailing == card.trailing - 30","gap.top == card.top","gap.height == 50"]}
        """#)
        #expect(result.guideFrame("gap") == frame(30, 40, 320, 50))
    }

    @Test func aMultiplierOnAGuidesPositionIsInItsOwnersBounds() throws {
        // Evaluated in card's bounds (the nearest common ancestor of gap and card is
        // card): gap.centerX = 360 × 0.5 × 0.5 = 90 from card's left, so with width 40
        // x = 70 relative to card (90 in the container, not 0.25 × 400 = 100).
        let (_, result) = try layout(#"""
        {\#(Self.card),"guides":{"gap":{"owner":"card"}},
         "constraints":[\#(Self.cardConstraints),
           "gap.centerX == card.centerX * 0.5","gap.width == 40","gap.top == card.top","gap.height == card.height"]}
        """#)
        #expect(result.guideFrame("gap") == frame(70, 0, 40, 200))
    }

    @Test func compoundAttributesAndInsetTakeGuides() throws {
        // inner: 10 inside card on every side: (10, 10, 340, 180) in card.
        // framed: inset(inner.edges, 1, 2, 3, 4): x 10 + 2 = 12, y 11, width 340 − 6 = 334,
        // height 180 − 4 = 176 (top 1, leading 2, bottom 3, trailing 4).
        // box: 340 − 300 = 40 wide, 20 high, centred on inner's centre (10 + 170,
        // 10 + 90) = (180, 100) in card: x 160, y 90.
        let (_, result) = try layout(#"""
        {\#(Self.card),"guides":{"inner":{"owner":"card"},"framed":{"owner":"card"}},
         "views":{"card":{},"box":{"parent":"card"}},
         "constraints":[\#(Self.cardConstraints),
           "inner.edges == card.edges + 10",
           "framed.edges == inset(inner.edges, 1, 2, 3, 4)",
           "box.width == inner.width - 300","box.height == 20","box.center == inner.center"]}
        """#.replacingOccurrences(of: #","views":{"card":{},"label":{"parent":"card"}}"#, with: ""))
        #expect(result.guideFrame("inner") == frame(10, 10, 340, 180))
        #expect(result.guideFrame("framed") == frame(12, 11, 334, 176))
        #expect(result.frame("box") == frame(160, 90, 40, 20))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func attributeListsAlignAndDistributeTakeGuides() throws {
        // a.top | leading == g: a's top and leading on g's (g at (30, 20)); a 10 × 10.
        // align(top: g, b): b's top 20; distribute(by: 5, horizontally: a, b): b.leading =
        // a.trailing + 5 = 45; b 10 × 10. g is 100 × 50.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":200},"views":["a","b"],"guides":{"g":{}},
         "constraints":["g.leading == 30","g.top == 20","g.size == superview.size - 150",
           "a.top | leading == g","a.size == 10","b.size == 10",
           "align(top: g, b)","distribute(by: 5, horizontally: a, b)"]}
        """#)
        #expect(result.guideFrame("g") == frame(30, 20, 150, 50))
        #expect(result.frame("a") == frame(30, 20, 10, 10))
        #expect(result.frame("b") == frame(45, 20, 10, 10))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func guideLeadingFollowsRightToLeft() throws {
        // Under rightToLeft, leading is the right edge: g's right edge 10 from the
        // container's right (300 − 10 = 290), width 50: x = 240.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"guides":{"g":{}},"options":{"layoutDirection":"rightToLeft"},
         "constraints":["g.leading == superview.leading + 10","g.width == 50","g.top == 0","g.height == 100"]}
        """#)
        #expect(result.guideFrame("g") == frame(240, 0, 50, 100))
    }

    // MARK: safeArea

    static let phone = #"{"width":390,"height":844,"safeArea":{"top":47,"bottom":34}}"#

    @Test func safeAreaIsTheContainerInsetBySafeArea() throws {
        // Safe area of 390 × 844 inset 47 top, 34 bottom: (0, 47, 390, 763). header sits on
        // its top: y 47, full width, 44 high. footer's bottom on its bottom 844 − 34 = 810,
        // 49 high: y 761. badge: centred on it, centre y 47 + 763/2 = 428.5, 20 × 20.
        let (compiled, result) = try layout(#"""
        {"container":\#(Self.phone),"views":["header","footer","badge"],
         "constraints":["header.top == safeArea.top","header.leading == safeArea.leading",
           "header.trailing == safeArea.trailing","header.height == 44",
           "footer.bottom == safeArea.bottom","footer.width == safeArea.width","footer.left == 0","footer.height == 49",
           "badge.center == safeArea.center","badge.size == 20"]}
        """#)
        #expect(result.frame("header") == frame(0, 47, 390, 44))
        #expect(result.frame("footer") == frame(0, 761, 390, 49))
        #expect(result.frame("badge") == frame(185, 418.5, 20, 20))
        #expect(result.diagnostics.isEmpty)
        #expect(result.guides.isEmpty)
        // Its four definitions come once, first.
        let keys = compiled.constraints.map(\.ref.key)
        #expect(keys.filter { if case .implicit(let name) = $0 { name.hasPrefix("container.safeArea.") } else { false } }.count == 4)
        #expect(keys.first == .implicit("container.safeArea.top"))
    }

    @Test func safeAreaDefinitionsComeFirstAndMentionsFollowThem() throws {
        // The four definitions are the container's: before a's intrinsic-size pair. a's x is
        // open (only its intrinsic width is horizontal): its ambiguity note still names the
        // intrinsic constraints, whose indices moved by 4.
        let (compiled, result) = try layout(#"""
        {"container":\#(Self.phone),"views":{"a":{"intrinsicSize":{"width":100}}},
         "constraints":["a.top == safeArea.top","a.height == 10"]}
        """#)
        #expect(compiled.constraints.map(\.ref.key) == [
            .implicit("container.safeArea.top"), .implicit("container.safeArea.left"),
            .implicit("container.safeArea.width"), .implicit("container.safeArea.height"),
            .implicit("a.compressionResistance.horizontal"), .implicit("a.hugging.horizontal"), .scene(0), .scene(1)])
        #expect(result.frame("a").y == 47)
        #expect(result.frame("a").width == 100)
        let x = try #require(result.diagnostics.first { $0.view == "a" && $0.attribute == "x" })
        #expect(x.notes == ["Its horizontal constraints: 'a.width >= 100 @750' (a.compressionResistance.horizontal), 'a.width <= 100 @250' (a.hugging.horizontal)",
                            "Nothing places it: these give only its width. Fix it with a required constraint on its leading, centerX or trailing, such as 'a.leading == superview.leading + 16'"])
    }

    @Test func safeAreaFollowsSizesAndFittedSizes() throws {
        // At 844 × 390 (landscape, same insets) the footer's bottom is 390 − 34 = 356: y 307,
        // and the safe area's width 844 (sides inset 0). With the height fitted, content
        // (100 high) fills the safe area: the container is 47 + 100 + 34 = 181 high, and
        // the footer's bottom is 181 − 34 = 147: y 98.
        let json = #"""
        {"container":\#(Self.phone),"views":["footer","content"],
         "constraints":["footer.bottom == safeArea.bottom","footer.width == safeArea.width","footer.left == 0","footer.height == 49",
           "content.top == safeArea.top","content.bottom == safeArea.bottom - 0 @500","content.height == 100 @600",
           "content.left == safeArea.left","content.width == 10"]}
        """#
        let scene = try SceneDecoder().decode(body: Array(json.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        let layouts = compiled.solve(sizes: [ContainerSize(width: 844, height: 390), ContainerSize(width: 390)])
        #expect(layouts[0].frame("footer") == frame(0, 307, 844, 49))
        #expect(layouts[1].containerHeight == 181)
        #expect(layouts[1].frame("content") == frame(0, 47, 10, 100))
        #expect(layouts[1].frame("footer") == frame(0, 98, 390, 49))
        // Each entry is what a separate solve answers.
        for (index, size) in [ContainerSize(width: 844, height: 390), ContainerSize(width: 390)].enumerated() {
            #expect(layouts[index].frames.map(\.frame) == compiled.solve(size: size).frames.map(\.frame))
        }
    }

    @Test func safeAreaLeftAndRightInsets() throws {
        // Landscape insets left 59, right 59, bottom 21 on 844 × 390: safe area
        // (59, 0, 726, 369). bar: leading on it + 16 = 75, trailing − 16: width 694.
        let (_, result) = try layout(#"""
        {"container":{"width":844,"height":390,"safeArea":{"left":59,"right":59,"bottom":21}},"views":["bar"],
         "constraints":["bar.leading == safeArea.leading + 16","bar.trailing == safeArea.trailing - 16",
           "bar.bottom == safeArea.bottom","bar.height == 40"]}
        """#)
        #expect(result.frame("bar") == frame(75, 329, 694, 40))
    }

    @Test func aConflictWithTheSafeAreaNamesItsDefinition() throws {
        // safeArea.width is 390 (no side insets): `== 300` conflicts with its definition
        // and the container's width.
        let (_, result) = try layout(#"""
        {"container":\#(Self.phone),"views":["a"],"constraints":["safeArea.width == 300"]}
        """#)
        let conflict = try #require(result.diagnostics.first { $0.code == .unsatisfiableConstraints })
        #expect(conflict.broken?.key == .scene(0))
        #expect(conflict.conflicting?.map(\.text) == ["superview.width == 390", "safeArea.width == superview.width", "safeArea.width == 300"])
    }

    // MARK: Diagnostics

    @Test("a guide in VFL is unknown_view with a note", arguments: [
        ("H:|[gap]|", 4), ("V:|-24-[logo(80)][gap][caption(20)]", 18), ("H:[logo(==gap)]", 10),
        ("H:[logo]-(gap)-[caption]", 10), ("H:[gap]", 3), ("V:|[safeArea]", 4),
    ])
    func guideInVisualFormat(_ source: String, _ column: Int) throws {
        let scene = try SceneDecoder().decode(body: Array(#"""
        {"container":{"width":320,"height":568},"views":["logo","caption"],"guides":{"gap":{}},
         "constraints":["gap.height == 40",\#(jsonString(source))]}
        """#.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        #expect(compiled.hasErrors)
        let diagnostic = try #require(compiled.diagnostics.first)
        #expect(compiled.diagnostics.count == 1)
        #expect(diagnostic.code == .unknownView)
        #expect(diagnostic.constraint == .scene(1))
        #expect(diagnostic.column == column)
        let name = source.contains("safeArea") ? "safeArea" : "gap"
        #expect(diagnostic.message == "Unknown view '\(name)' in a VFL string")
        #expect(diagnostic.notes.first?.hasPrefix("'\(name)' is a layout guide, and VFL takes views only") == true)
    }

    /// The message names the attribute as the constraint spells it (`gap.baseline`, not
    /// the `lastBaseline` it parses as) and says what a guide lacks.
    @Test("margins and baselines of a guide are unknown_attribute", arguments: [
        ("gap.leadingMargin == a.leading", 0, "Layout guide 'gap' has no margins ('gap.leadingMargin')"),
        ("a.lastBaseline == gap.baseline", 18, "Layout guide 'gap' has no baseline ('gap.baseline')"),
        ("a.top == safeArea.topMargin", 9, "Layout guide 'safeArea' has no margins ('safeArea.topMargin')"),
        ("gap.centerYWithinMargins == a.centerY", 0, "Layout guide 'gap' has no margins ('gap.centerYWithinMargins')"),
        ("gap.firstBaseline == a.top", 0, "Layout guide 'gap' has no baseline ('gap.firstBaseline')"),
    ])
    func guideHasNoMarginsOrBaselines(_ source: String, _ column: Int, _ lacks: String) throws {
        let scene = try SceneDecoder().decode(body: Array(#"""
        {"container":{"width":320,"height":568},"views":["a"],"guides":{"gap":{}},"constraints":[\#(jsonString(source))]}
        """#.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        #expect(compiled.hasErrors)
        #expect(compiled.diagnostics.map(\.code) == [.unknownAttribute])
        #expect(compiled.diagnostics.first?.column == column)
        #expect(compiled.diagnostics.first?.message
            == lacks + ": a guide is an empty rectangle, with no text and no margins; use its edges, centre or size")
    }

    @Test func guideFieldsAreJudgedForAmbiguity() throws {
        // Only gap's width is fixed: x, y and height are open, each one ambiguous_layout
        // naming the guide.
        let (_, result) = try layout(#"""
        {"container":{"width":100,"height":100},"guides":{"gap":{}},"constraints":["gap.width == 30"]}
        """#)
        #expect(result.ambiguous("gap") == ["x", "y", "height"])
        #expect(result.guideFrame("gap").width == 30)
    }

    @Test func anUnconstrainedGuideIsAmbiguousInEveryField() throws {
        // No constraint names g: all four fields are open; its answered frame is the
        // solver's value for variables it never saw, (0, 0, 0, 0).
        let (_, result) = try layout(#"""
        {"container":{"width":100,"height":100},"views":["a"],"guides":{"g":{}},"constraints":["H:|[a]|","V:|[a]|"]}
        """#)
        #expect(result.ambiguous("g") == ["x", "y", "width", "height"])
        #expect(result.ambiguous("a").isEmpty)
        #expect(result.guideFrame("g") == frame(0, 0, 0, 0))
        let messages = result.diagnostics.filter { $0.view == "g" }.map(\.message)
        #expect(messages.first == "The x of 'g' is ambiguous: other layouts satisfy the same constraints equally well; no constraint mentions its horizontal attributes")
    }

    @Test func aFittedContainersNoteOnANegativeGuideOffersNoIntrinsicSize() throws {
        // Width fitted: the container is as narrow as allowed, 0 (nothing holds it wider
        // at a priority above 50); g runs from 10 to the container's right edge: −10.
        let (_, result) = try layout(#"""
        {"container":{"height":100},"guides":{"g":{}},
         "constraints":["g.leading == 10","g.trailing == superview.trailing","g.width <= 300","g.top == 0","g.height == 5"]}
        """#)
        let warning = try #require(result.diagnostics.first { $0.code == .negativeSize })
        #expect(warning.view == "g")
        #expect(warning.notes == ["the container's width was fitted (none was given) to 0 points, the least the constraints allow; give the container a width, or 'g' a width"])
    }

    @Test func aGuidesNegativeSizeIsReportedOnlyWhenNamed() throws {
        // gap runs from a's trailing (60) back to a's leading (10): width −50. Nothing
        // names its width: no negative_size. Adding `gap.width <= 100` names it.
        let base = #""container":{"width":100,"height":100},"views":["a"],"guides":{"gap":{}}"#
        let fixed = #""H:|-10-[a(50)]","V:|[a(10)]","gap.leading == a.trailing","gap.trailing == a.leading","gap.top == 0","gap.bottom == 10""#
        let (_, quiet) = try layout("{\(base),\"constraints\":[\(fixed)]}")
        #expect(quiet.guideFrame("gap") == frame(60, 0, -50, 10))
        #expect(quiet.diagnostics.isEmpty)
        let (_, named) = try layout("{\(base),\"constraints\":[\(fixed),\"gap.width <= 100\"]}")
        let warning = try #require(named.diagnostics.first)
        #expect(named.diagnostics.count == 1)
        #expect(warning.code == .negativeSize)
        #expect(warning.view == "gap")
        #expect(warning.attribute == "width")
        #expect(warning.message == "'gap' has a negative width (-50 points)")
    }
}

extension Layout {
    /// The frame of guide `name`, or a failed expectation.
    func guideFrame(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Frame {
        guard let entry = guides.first(where: { $0.name == name }) else {
            Issue.record("no guide frame for \(name)", sourceLocation: sourceLocation)
            return Frame(x: .nan, y: .nan, width: .nan, height: .nan)
        }
        return entry.frame
    }
}

/// `text` as a JSON string literal (quotes and backslashes escaped).
private func jsonString(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
