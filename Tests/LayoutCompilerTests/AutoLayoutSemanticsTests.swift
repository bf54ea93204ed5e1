import Foundation
import LayoutCompiler
import LayoutSyntax
import Testing

/// Intrinsic size, hugging, compression resistance, fitting size, baselines,
/// margins, right-to-left, many sizes. Each expected frame is derived by hand in a comment.
struct AutoLayoutSemanticsTests {
    // MARK: Intrinsic content size

    @Test func lowerHuggingStretches() throws {
        // Row of 375: 20 + a + 8 + b + 20. Intrinsic a=100, b=70. a hugs at 250, b at 251:
        // the 250 constraint (a.width <= 100) gives way first, so b keeps 70 and
        // a = 375 - 20 - 8 - 70 - 20 = 257.
        let (_, result) = try layout(#"""
        {"container":{"width":375,"height":44},
         "views":{"a":{"intrinsicSize":{"width":100,"height":21}},
                  "b":{"intrinsicSize":{"width":70,"height":21},"hugging":{"horizontal":251}}},
         "constraints":["H:|-[a]-[b]-|","V:|-[a]","V:|-[b]"]}
        """#)
        #expect(result.frame("a") == frame(20, 20, 257, 21))
        #expect(result.frame("b") == frame(285, 20, 70, 21))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func lowerCompressionResistanceIsSqueezedFirst() throws {
        // Row of 200: 20 + a + 8 + b + 20 leaves 152 for two labels wanting 100 each.
        // a resists at 749, b at 750: a is squeezed, b keeps 100, a = 152 - 100 = 52.
        let (_, result) = try layout(#"""
        {"container":{"width":200,"height":44},
         "views":{"a":{"intrinsicSize":{"width":100,"height":21},"compressionResistance":{"horizontal":749}},
                  "b":{"intrinsicSize":{"width":100,"height":21}}},
         "constraints":["H:|-[a]-[b]-|","V:|[a]","V:|[b]"]}
        """#)
        #expect(result.frame("a").width == 52)
        #expect(result.frame("b").width == 100)
        #expect(result.frame("b").x == 80)
    }

    @Test func priority751BeatsAnyNumberOf750() throws {
        // a.width >= 100 @751 against ten a.width == 90 @750: strict priorities keep 100.
        let tens = (0..<10).map { _ in "\"a.width == 90 @750\"" }.joined(separator: ",")
        let (_, result) = try layout(#"""
        {"container":{"width":320,"height":100},"views":["a"],
         "constraints":["a.width >= 100 @751",\#(tens),"a.left == 0","a.top == 0","a.height == 10"]}
        """#)
        #expect(result.frame("a").width == 100)
    }

    @Test func noIntrinsicMetricMeansNoConstraint() throws {
        // width -1 is UIView.noIntrinsicMetric: only the height has intrinsic constraints,
        // so the width is ambiguous and the height is 30.
        let (compiled, result) = try layout(#"""
        {"container":{"width":100,"height":100},
         "views":{"a":{"intrinsicSize":{"width":-1,"height":30}}},
         "constraints":["a.left == 0","a.top == 0"]}
        """#)
        #expect(compiled.constraints.count == 2 + 2)
        #expect(result.frame("a").height == 30)
        #expect(result.ambiguous("a") == ["width"])
    }

    // MARK: Fitting size

    @Test func fittingSizeCellWithNestedLabels() throws {
        // Width 375 given, height fitted. cell is |-0-[cell]-0-| with V:|[cell]|; inside it
        // title (21 high) and subtitle (17 high) stack: 12 + 21 + 4 + 17 + 12 = 66.
        let (_, result) = try layout(#"""
        {"container":{"width":375},
         "views":{"cell":{},
                  "title":{"parent":"cell","intrinsicSize":{"width":200,"height":21}},
                  "subtitle":{"parent":"cell","intrinsicSize":{"width":120,"height":17}}},
         "constraints":["H:|[cell]|","V:|[cell]|",
                        "H:|-16-[title]-(>=16)-|","H:|-16-[subtitle]-(>=16)-|",
                        "V:|-12-[title]-4-[subtitle]-12-|"]}
        """#)
        #expect(result.containerHeight == 66)
        #expect(result.frame("superview") == frame(0, 0, 375, 66))
        #expect(result.frame("cell") == frame(0, 0, 375, 66))
        #expect(result.frame("title") == frame(16, 12, 200, 21))
        #expect(result.frame("subtitle") == frame(16, 37, 120, 17))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func fittingSizeBothDimensions() throws {
        // Contract corpus 018: 20 + 50 + 8 + 70 + 20 = 168 wide, 20 + 30 + 20 = 70 high.
        let (_, result) = try layout(#"""
        {"container":{},"views":["red","green"],
         "constraints":["H:|-[red(50)]-[green(70)]-|","V:|-[red(30)]-|","V:|-[green(30)]-|"]}
        """#)
        #expect(result.containerWidth == 168)
        #expect(result.containerHeight == 70)
    }

    // MARK: Baselines and margins

    @Test func baselineAlignment() throws {
        // a.baseline = a.top + 17 (a at y 10 → 27); b has no baseline: its bottom is used,
        // so b.bottom == 27 and b (height 10) sits at y 17. c.firstBaseline falls back to its
        // baseline 5: c.top + 5 == 27 → c.y = 22.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},
         "views":{"a":{"baseline":17},"b":{},"c":{"baseline":5}},
         "constraints":["H:|[a(50)][b(50)][c(50)]","a.top == 10","a.height == 21","b.height == 10","c.height == 10",
                        "b.baseline == a.baseline","c.firstBaseline == a.lastBaseline"]}
        """#)
        #expect(result.frame("b").y == 17)
        #expect(result.frame("c").y == 22)
    }

    @Test func alignAllBaselineOption() throws {
        // H: string with alignAllBaseline: b.lastBaseline == a.lastBaseline; a at y 10 with
        // baseline 15 → 25; b's baseline offset 4 → b.y = 21.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},
         "views":{"a":{"baseline":15},"b":{"baseline":4}},
         "constraints":[{"vfl":"H:|[a(50)]-[b(50)]","options":["alignAllBaseline"]},
                        "a.top == 10","a.height == 20","b.height == 8"]}
        """#)
        #expect(result.frame("b").y == 21)
    }

    @Test func marginsAttributes() throws {
        // card at x 10 width 200 with margins left 12, right 20 (top/bottom default 8).
        // a.leading == card.leadingMargin → a.x = 12 in card; a.trailing == card.trailingMargin
        // → a.right = 200 - 20 = 180 → a.width = 168. a.top == card.topMargin → 8.
        // b.centerX == card.centerXWithinMargins → centre (12 + 180) / 2 = 96, b.width 20 → x 86.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":300},
         "views":{"card":{"margins":{"left":12,"right":20}},"a":{"parent":"card"},"b":{"parent":"card"}},
         "constraints":["H:|-10-[card(200)]","V:|-10-[card(100)]",
                        "a.leading == card.leadingMargin","a.trailing == card.trailingMargin",
                        "a.top == card.topMargin","a.height == 10",
                        "b.centerX == card.centerXWithinMargins","b.width == 20","b.top == 50","b.height == 10"]}
        """#)
        #expect(result.frame("a") == frame(12, 8, 168, 10))
        #expect(result.frame("b").x == 86)
    }

    // MARK: Right to left

    static let mirrorScene = #"""
    {"container":{"width":375,"height":200},
     "views":{"icon":{"intrinsicSize":{"width":24,"height":24}},"title":{"intrinsicSize":{"width":120,"height":21}},
              "card":{},"inner":{"parent":"card"}},
     "constraints":["H:|-[icon]-[title]-(>=8)-|","V:|-[icon]","V:|-[title]",
                    "card.leading == superview.leading + 30","card.width == 100","card.top == 100","card.height == 50",
                    "inner.leading == card.leading + 10","inner.width == card.width * 0.5","inner.top == 5","inner.height == 5",
                    "title.trailing <= superview.centerX + 100"],
     "options":{"layoutDirection":"DIRECTION"}}
    """#

    @Test func rightToLeftIsTheExactMirror() throws {
        // Every frame of the RTL layout is the LTR frame reflected inside its parent:
        // x_rtl = parentWidth - x_ltr - width, y unchanged.
        let (_, ltr) = try layout(Self.mirrorScene.replacingOccurrences(of: "DIRECTION", with: "leftToRight"))
        let (compiled, rtl) = try layout(Self.mirrorScene.replacingOccurrences(of: "DIRECTION", with: "rightToLeft"))
        // LTR by hand: icon x 20; title x 20 + 24 + 8 = 52; card x 30; inner x 10 in card, width 50.
        #expect(ltr.frame("icon") == frame(20, 20, 24, 24))
        #expect(ltr.frame("title") == frame(52, 20, 120, 21))
        #expect(ltr.frame("card") == frame(30, 100, 100, 50))
        #expect(ltr.frame("inner") == frame(10, 5, 50, 5))
        for (index, entry) in ltr.frames.enumerated() where entry.name != "superview" {
            let parent = compiled.hierarchy.parents[index]
            let parentWidth = ltr.frames[parent].frame.width
            let mirrored = rtl.frames[index].frame
            #expect(mirrored.x == parentWidth - entry.frame.x - entry.frame.width, "\(entry.name)")
            #expect(mirrored.y == entry.frame.y, "\(entry.name)")
            #expect(mirrored.width == entry.frame.width, "\(entry.name)")
        }
        #expect(rtl.frame("icon") == frame(331, 20, 24, 24))
    }

    @Test func leftAndRightStayAbsoluteUnderRightToLeft() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":375,"height":100},"views":["a","b"],
         "constraints":["a.left == superview.left + 10","a.width == 20","a.top == 0","a.height == 10",
                        {"vfl":"H:|-5-[b(30)]","options":["directionLeftToRight"]},"V:|[b(10)]"],
         "options":{"layoutDirection":"rightToLeft"}}
        """#)
        #expect(result.frame("a").x == 10)
        #expect(result.frame("b").x == 5)
    }

    @Test func directionRightToLeftOptionUnderLeftToRight() throws {
        // directionRightToLeft: |-5-[b(30)] runs from the right edge: b.x = 375 - 5 - 30.
        let (_, result) = try layout(#"""
        {"container":{"width":375,"height":100},"views":["b"],
         "constraints":[{"vfl":"H:|-5-[b(30)]","options":["directionRightToLeft"]},"V:|[b(10)]"]}
        """#)
        #expect(result.frame("b").x == 340)
    }

    // MARK: Many sizes

    @Test func sizesMatchSeparateSolves() throws {
        let json = #"""
        {"container":{"width":320,"height":480},"views":{"a":{"intrinsicSize":{"width":80,"height":20}},"b":{}},
         "constraints":["H:|-[a]-[b(>=40)]-|","V:|-[a]-[b(==a)]"]}
        """#
        let scene = try SceneDecoder().decode(body: Array(json.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        let sizes = [ContainerSize(width: 320, height: 480), ContainerSize(width: 100), ContainerSize(width: 320, height: 480)]
        let layouts = compiled.solve(sizes: sizes)
        let separate = sizes.map { compiled.solve(size: $0) }
        #expect(layouts.map { $0.frames.map(\.frame) } == separate.map { $0.frames.map(\.frame) })
        #expect(layouts.map(\.diagnostics) == separate.map(\.diagnostics))
        #expect(layouts[0].frames.map(\.frame) == layouts[2].frames.map(\.frame))
        // 100 wide: 20 + a + 8 + b + 20 with b >= 40 → a is squeezed to 12 (CR 750 < required).
        #expect(layouts[1].frame("a").width == 12)
        #expect(layouts[1].frame("b").width == 40)
        // At 320: b = 320 - 20 - 80 - 8 - 20 = 192.
        #expect(layouts[0].frame("b").width == 192)
        // The fitted height: nothing pins b's bottom to the container, so no constraint
        // above priority 50 holds the height up and the `== 0 @50` pull wins.
        #expect(layouts[1].containerHeight == 0)
    }

    @Test func sizeTheRequiredConstraintsCannotMeetIsAConflictAtThatSize() throws {
        let json = #"{"container":{"width":320,"height":100},"views":["a"],"constraints":["H:|-[a(300)]-|","V:|[a]|"]}"#
        let scene = try SceneDecoder().decode(body: Array(json.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        let layouts = compiled.solve(sizes: [ContainerSize(width: 340, height: 100), ContainerSize(width: 320, height: 100),
                                             ContainerSize(width: 340, height: 100)])
        let fits = layouts[0]
        let tooSmall = layouts[1]
        #expect(layouts[2].frames.map(\.frame) == fits.frames.map(\.frame))
        // Exactly what a separate solve at that size reports: the broken constraint is the
        // trailing connection, added after the container's width.
        #expect(tooSmall.diagnostics == compiled.solve(size: ContainerSize(width: 320, height: 100)).diagnostics)
        #expect(tooSmall.diagnostics.first?.broken?.text == "superview.trailing == a.trailing + 20")
        #expect(fits.diagnostics.isEmpty)
        #expect(tooSmall.codes == ["unsatisfiable_constraints"])
        // The container never moves: it stays 320 wide.
        #expect(tooSmall.containerWidth == 320)
    }

    // MARK: Coordinates

    @Test func nestedFramesAreRelativeToTheParentOrTheRoot() throws {
        let json = #"""
        {"container":{"width":400,"height":300},"views":{"card":{},"a":{"parent":"card"}},
         "constraints":["H:|-100-[card(200)]","V:|-50-[card(100)]","H:|-10-[a(20)]","V:|-5-[a(10)]"],
         "options":{"coordinates":"COORDS"}}
        """#
        let (_, parent) = try layout(json.replacingOccurrences(of: "COORDS", with: "parent"))
        let (_, root) = try layout(json.replacingOccurrences(of: "COORDS", with: "root"))
        #expect(parent.frame("a") == frame(10, 5, 20, 10))
        #expect(root.frame("a") == frame(110, 55, 20, 10))
    }
}
