import LayoutCompiler
import LayoutSyntax
import Testing

/// Stack views (docs/scene-format.md, "Stack views"). Every expected frame is derived by
/// hand in the test's comment.
struct StackViewTests {
    /// Whether two frames agree within 1e-6 points.
    static func close(_ a: Frame, _ b: Frame) -> Bool {
        abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6 && abs(a.width - b.width) < 1e-6 && abs(a.height - b.height) < 1e-6
    }

    /// Expects the frames of `expected` (name → frame) in `result`.
    func expectFrames(_ result: Layout, _ expected: [(String, Frame)], _ comment: String = "",
                      sourceLocation: SourceLocation = #_sourceLocation) {
        for (name, frame) in expected {
            let got = result.frame(name, sourceLocation: sourceLocation)
            #expect(Self.close(got, frame), "\(comment) \(name): got \(got), expected \(frame)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Distribution × alignment

    /// The main-axis frames (offset, length) of a, b, c in a stack 300 long with spacing
    /// 15; intrinsic lengths a 40, b 60, c 30; hugging along the axis a 251, b 250, c 251.
    static let mainAxis: [(StackSpec.Distribution, [(Double, Double)])] = [
        // fill: b hugs least and takes the rest: 300 - 40 - 30 - 2*15 = 200; offsets 0, 55, 270.
        (.fill, [(0, 40), (55, 200), (270, 30)]),
        // fillEqually: 3w + 30 = 300, w = 90; offsets 0, 105, 210.
        (.fillEqually, [(0, 90), (105, 90), (210, 90)]),
        // fillProportionally: shares of 40 + 60 + 30 + 2*15 = 160: a 300*40/160 = 75 @999 and
        // b 300*60/160 = 112.5 @998 hold; c's 56.25 @997 gives way to the required canvas and
        // spacing: c = 300 - 30 - 75 - 112.5 = 82.5; offsets 0, 90, 217.5.
        (.fillProportionally, [(0, 75), (90, 112.5), (217.5, 82.5)]),
        // equalSpacing: intrinsic lengths, two equal gaps (300 - 130)/2 = 85 (>= 15);
        // offsets 0, 125, 270.
        (.equalSpacing, [(0, 40), (125, 60), (270, 30)]),
        // equalCentering: a's centre at 20, c's at 285, b's halfway at 152.5 (the equal
        // centre gaps @150 hold, the gaps 82.5 and 87.5 are >= 15); offsets 0, 122.5, 270.
        (.equalCentering, [(0, 40), (122.5, 60), (270, 30)]),
    ]

    /// The cross-axis frames (offset, length) of a, b, c in a stack 60 across; intrinsic
    /// cross lengths a 20, b 30, c 40; baselines (horizontal only) firstBaseline 5, 10, 12
    /// and baseline (the last) 15, 20, 30.
    static let crossAxis: [(StackSpec.Alignment, [(Double, Double)])] = [
        // fill: every view as tall as the stack.
        (.fill, [(0, 60), (0, 60), (0, 60)]),
        // leading (top): at 0, intrinsic lengths (hugging 250 beats the suppression at 25).
        (.leading, [(0, 20), (0, 30), (0, 40)]),
        // center: (60 - 20)/2 = 20, (60 - 30)/2 = 15, (60 - 40)/2 = 10.
        (.center, [(20, 20), (15, 30), (10, 40)]),
        // trailing (bottom): 60 - 20 = 40, 60 - 30 = 30, 60 - 40 = 20.
        (.trailing, [(40, 20), (30, 30), (20, 40)]),
        // firstBaseline: tops B-5, B-10, B-12; packed at the top, the highest (c) at 0:
        // B = 12, tops 7, 2, 0.
        (.firstBaseline, [(7, 20), (2, 30), (0, 40)]),
        // lastBaseline: tops B-15, B-20, B-30; c at 0: B = 30, tops 15, 10, 0.
        (.lastBaseline, [(15, 20), (10, 30), (0, 40)]),
    ]

    /// The scene: a stack `s` 300 along its axis and 60 across at (10, 20), arranging a, b, c.
    static func scene(axis: StackSpec.Axis, distribution: StackSpec.Distribution, alignment: StackSpec.Alignment) -> String {
        let horizontal = axis == .horizontal
        func size(_ main: Int, _ cross: Int) -> String {
            horizontal ? #"{"width":\#(main),"height":\#(cross)}"# : #"{"width":\#(cross),"height":\#(main)}"#
        }
        let hugAxis = horizontal ? "horizontal" : "vertical"
        return #"""
        {"container":{"width":400,"height":400},
         "views":{"s":{"stack":{"axis":"\#(axis.rawValue)","distribution":"\#(distribution.rawValue)","alignment":"\#(alignment.rawValue)",
                                "spacing":15,"arranged":["a","b","c"]}},
                  "a":{"intrinsicSize":\#(size(40, 20)),"hugging":{"\#(hugAxis)":251},"firstBaseline":5,"baseline":15},
                  "b":{"intrinsicSize":\#(size(60, 30)),"firstBaseline":10,"baseline":20},
                  "c":{"intrinsicSize":\#(size(30, 40)),"hugging":{"\#(hugAxis)":251},"firstBaseline":12,"baseline":30}},
         "constraints":["s.left == 10","s.top == 20","s.\#(horizontal ? "width" : "height") == 300","s.\#(horizontal ? "height" : "width") == 60"]}
        """#
    }

    static let horizontalCases = mainAxis.flatMap { main in crossAxis.map { (main.0, $0.0) } }.map { "\($0.0.rawValue) \($0.1.rawValue)" }
    static let verticalCases = mainAxis.flatMap { main in crossAxis.filter { !$0.0.isBaseline }.map { (main.0, $0.0) } }
        .map { "\($0.0.rawValue) \($0.1.rawValue)" }

    func check(axis: StackSpec.Axis, _ combination: String) throws {
        let words = combination.split(separator: " ").map(String.init)
        let distribution = try #require(StackSpec.Distribution(rawValue: words[0]))
        let alignment = try #require(StackSpec.Alignment(rawValue: words[1]))
        let main = try #require(Self.mainAxis.first { $0.0 == distribution }?.1)
        let cross = try #require(Self.crossAxis.first { $0.0 == alignment }?.1)
        let (_, result) = try layout(Self.scene(axis: axis, distribution: distribution, alignment: alignment))
        let horizontal = axis == .horizontal
        let expected = zip(["a", "b", "c"], zip(main, cross)).map { name, pair in
            let ((offset, length), (crossOffset, crossLength)) = pair
            return (name, horizontal ? frame(offset, crossOffset, length, crossLength) : frame(crossOffset, offset, crossLength, length))
        }
        expectFrames(result, expected + [("s", horizontal ? frame(10, 20, 300, 60) : frame(10, 20, 60, 300))], combination)
        #expect(result.diagnostics.isEmpty, "\(combination): \(result.diagnostics.map(\.message))")
    }

    @Test("horizontal stack: distribution × alignment", arguments: horizontalCases)
    func horizontalStack(_ combination: String) throws {
        try check(axis: .horizontal, combination)
    }

    @Test("vertical stack: distribution × alignment", arguments: verticalCases)
    func verticalStack(_ combination: String) throws {
        // The same stack turned on its side: the vertical offsets are the horizontal
        // stack's x, the horizontal ones its y.
        try check(axis: .vertical, combination)
    }

    @Test func topAndBottomAreLeadingAndTrailing() throws {
        // UIKit's top is leading and bottom is trailing: the frames of the leading and
        // trailing rows above (a at y 0 and 40).
        let (_, top) = try layout(Self.scene(axis: .horizontal, distribution: .fill, alignment: .top))
        let (_, bottom) = try layout(Self.scene(axis: .horizontal, distribution: .fill, alignment: .bottom))
        #expect(top.frame("a") == frame(0, 0, 40, 20))
        #expect(bottom.frame("a") == frame(0, 40, 40, 20))
    }

    // MARK: Hidden arranged views

    /// A fill row 300 x 50, spacing 10: a 40 (hugging 251), b 60 (250), c 30 (252).
    static func hiddenScene(hiding name: String, distribution: String = "fill") -> String {
        func hidden(_ view: String) -> String { view == name ? #","hidden":true"# : "" }
        return #"""
        {"container":{"width":320,"height":100},
         "views":{"row":{"stack":{"distribution":"\#(distribution)","spacing":10,"arranged":["a","b","c"]}},
                  "a":{"intrinsicSize":{"width":40,"height":20},"hugging":{"horizontal":251}\#(hidden("a"))},
                  "b":{"intrinsicSize":{"width":60,"height":20}\#(hidden("b"))},
                  "c":{"intrinsicSize":{"width":30,"height":20},"hugging":{"horizontal":252}\#(hidden("c"))}},
         "constraints":["H:|-10-[row]-10-|","V:|-10-[row(50)]"]}
        """#
    }

    @Test func hiddenAtTheStartSitsAtTheLeadingEdge() throws {
        // a hidden: b and c are the arrangement; b (hugging 250) stretches to
        // 300 - 30 - 10 = 260; c at 270. a is 0 wide at the leading edge, as tall as the row.
        let (_, result) = try layout(Self.hiddenScene(hiding: "a"))
        #expect(result.frame("a") == frame(0, 0, 0, 50))
        #expect(result.frame("b") == frame(0, 0, 260, 50))
        #expect(result.frame("c") == frame(270, 0, 30, 50))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func hiddenInTheMiddleSitsHalfwayBetweenItsNeighbours() throws {
        // b hidden: a (hugging 251 < c's 252) stretches to 300 - 30 - 10 = 260, c at 270;
        // b sits half the spacing after a: x = 260 + 5 = 265, 0 wide.
        let (_, result) = try layout(Self.hiddenScene(hiding: "b"))
        #expect(result.frame("a") == frame(0, 0, 260, 50))
        #expect(result.frame("b") == frame(265, 0, 0, 50))
        #expect(result.frame("c") == frame(270, 0, 30, 50))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func hiddenAtTheEndSitsAtTheTrailingEdge() throws {
        // c hidden: a 40 at 0, b (hugging 250) takes 300 - 40 - 10 = 250 at 50; c 0 wide at 300.
        let (_, result) = try layout(Self.hiddenScene(hiding: "c"))
        #expect(result.frame("a") == frame(0, 0, 40, 50))
        #expect(result.frame("b") == frame(50, 0, 250, 50))
        #expect(result.frame("c") == frame(300, 0, 0, 50))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func hiddenInAnEqualSpacingStackSitsInTheMiddleOfTheGap() throws {
        // equalSpacing with b hidden: a 40 at 0, c 30 at 270 (one gap of 230); b in its
        // middle: 40 + 115 = 155.
        let (_, result) = try layout(Self.hiddenScene(hiding: "b", distribution: "equalSpacing"))
        #expect(result.frame("a") == frame(0, 0, 40, 50))
        #expect(result.frame("b") == frame(155, 0, 0, 50))
        #expect(result.frame("c") == frame(270, 0, 30, 50))
    }

    @Test func hiddenOutsideAStackIsLaidOutAsUsual() throws {
        // `hidden` changes nothing for a view that is not arranged: 100 x 20 at (5, 5).
        let (_, result) = try layout(#"""
        {"container":{"width":200,"height":100},"views":{"a":{"hidden":true}},
         "constraints":["H:|-5-[a(100)]","V:|-5-[a(20)]"]}
        """#)
        #expect(result.frame("a") == frame(5, 5, 100, 20))
    }

    // MARK: Nesting

    @Test func nestedStacksSizeThemselvesFromTheirContent() throws {
        // outer: vertical, spacing 8, alignment leading, at (10, 10), sized by its content.
        // row1: horizontal, spacing 4, center: p 20x20, q 50x10 -> 20 + 4 + 50 = 74 wide,
        //   20 tall (the span fits the tallest), q centred at (20 - 10)/2 = 5.
        // row2: horizontal, spacing 6, top: r 30x16, s 40x24 -> 76 wide, 24 tall, both at 0.
        // outer: as wide as the widest row (76, the span fits), 20 + 8 + 24 = 52 tall;
        // rows at y 0 and 28 with their own widths (alignment leading, suppression at 25).
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":200},
         "views":{"outer":{"stack":{"axis":"vertical","spacing":8,"alignment":"leading","arranged":["row1","row2"]}},
                  "row1":{"stack":{"spacing":4,"alignment":"center","arranged":["p","q"]}},
                  "row2":{"stack":{"spacing":6,"alignment":"top","arranged":["r","s"]}},
                  "p":{"intrinsicSize":{"width":20,"height":20}},
                  "q":{"intrinsicSize":{"width":50,"height":10}},
                  "r":{"intrinsicSize":{"width":30,"height":16}},
                  "s":{"intrinsicSize":{"width":40,"height":24}}},
         "constraints":["H:|-10-[outer]","V:|-10-[outer]"]}
        """#)
        expectFrames(result, [("outer", frame(10, 10, 76, 52)), ("row1", frame(0, 0, 74, 20)), ("row2", frame(0, 28, 76, 24)),
                              ("p", frame(0, 0, 20, 20)), ("q", frame(24, 5, 50, 10)),
                              ("r", frame(0, 0, 30, 16)), ("s", frame(36, 0, 40, 24))])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
    }

    // MARK: Content-sized, pinned, stretched, compressed

    /// A horizontal fill row at (10, 10): a 40x20, b 60x30, spacing 10; `width` is the VFL predicate of its width (or nothing).
    static func sizingScene(width: String, aPriorities: String = "") -> String {
        #"""
        {"container":{"width":400,"height":100},
         "views":{"row":{"stack":{"spacing":10,"arranged":["a","b"]}},
                  "a":{"intrinsicSize":{"width":40,"height":20}\#(aPriorities)},
                  "b":{"intrinsicSize":{"width":60,"height":30}}},
         "constraints":["H:|-10-[row\#(width)]","V:|-10-[row]"]}
        """#
    }

    @Test func contentSizedStackHugsItsViews() throws {
        // No width or height given: the row is 40 + 10 + 60 = 110 wide; fill alignment makes
        // both as tall as the row, which b's compression resistance (750) keeps at 30
        // against a's hugging (250): a is stretched to 30.
        let (_, result) = try layout(Self.sizingScene(width: ""))
        #expect(result.frame("row") == frame(10, 10, 110, 30))
        #expect(result.frame("a") == frame(0, 0, 40, 30))
        #expect(result.frame("b") == frame(50, 0, 60, 30))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func stretchedStackGrowsTheViewThatHugsLeast() throws {
        // 300 wide, a hugs at 251: b takes 300 - 40 - 10 = 250.
        let (_, result) = try layout(Self.sizingScene(width: "(300)", aPriorities: #","hugging":{"horizontal":251}"#))
        #expect(result.frame("a") == frame(0, 0, 40, 30))
        #expect(result.frame("b") == frame(50, 0, 250, 30))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func compressedStackSqueezesTheViewThatResistsLeast() throws {
        // 80 wide, a resists at 751: b is squeezed to 80 - 40 - 10 = 30.
        let (_, result) = try layout(Self.sizingScene(width: "(80)", aPriorities: #","compressionResistance":{"horizontal":751}"#))
        #expect(result.frame("a") == frame(0, 0, 40, 30))
        #expect(result.frame("b") == frame(50, 0, 30, 30))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func equalHuggingWhenStretchedIsAnAmbiguityNamingTheTiedViews() throws {
        // 300 wide, a and b both hug at 250: UIKit leaves the 200 extra points to the order
        // of the views; here both widths are ambiguous_layout warnings whose notes name the
        // two hugging constraints, and the frames are the same in every run.
        let json = Self.sizingScene(width: "(300)")
        let (_, first) = try layout(json)
        let (_, second) = try layout(json)
        #expect(first.ambiguous("a").contains("width"))
        #expect(first.ambiguous("b").contains("width"))
        let notes = first.diagnostics.filter { $0.code == .ambiguousLayout && $0.view == "a" }.flatMap(\.notes).joined()
        #expect(notes.contains("a.hugging.horizontal") && notes.contains("b.hugging.horizontal"), "\(notes)")
        #expect(notes.contains("Content priority ambiguity in stack 'row': 'a' and 'b' have the same horizontal hugging priority (250)"), "\(notes)")
        #expect(first.frames.map(\.frame) == second.frames.map(\.frame))
        #expect(first.frame("a").width + first.frame("b").width == 290)
    }

    @Test func equalCompressionResistanceWhenCompressedIsAnAmbiguity() throws {
        // 80 wide, both resist at 750: which one gives the 30 points is a tie.
        let (_, result) = try layout(Self.sizingScene(width: "(80)"))
        #expect(result.ambiguous("a").contains("width"))
        #expect(result.ambiguous("b").contains("width"))
        let notes = result.diagnostics.filter { $0.code == .ambiguousLayout && $0.view == "b" }.flatMap(\.notes).joined()
        #expect(notes.contains("compressionResistance"), "\(notes)")
        #expect(notes.contains("Content priority ambiguity in stack 'row': 'a' and 'b' have the same horizontal compression resistance priority (750)"), "\(notes)")
    }

    // MARK: Margins, baselines, right to left

    /// A horizontal fill row 300 x 60 at (10, 10) arranging a 40 (hugging 251) and b 60,
    /// spacing 10, inside margins left 5, right 15, top 4, bottom 6.
    static func marginsScene(direction: String) -> String {
        #"""
        {"container":{"width":320,"height":100},
         "views":{"row":{"stack":{"spacing":10,"layoutMarginsRelative":true,"arranged":["a","b"]},
                         "margins":{"left":5,"right":15,"top":4,"bottom":6}},
                  "a":{"intrinsicSize":{"width":40,"height":20},"hugging":{"horizontal":251}},
                  "b":{"intrinsicSize":{"width":60,"height":20}}},
         "constraints":["H:|-10-[row(300)]","V:|-10-[row(60)]"],
         "options":{"layoutDirection":"\#(direction)"}}
        """#
    }

    @Test func marginsRelativeArrangesInsideTheMargins() throws {
        // The canvas is 300 - 5 - 15 = 280 by 60 - 4 - 6 = 50 at (5, 4): a at x 5, 40 wide;
        // b from 5 + 40 + 10 = 55, 280 - 40 - 10 = 230 wide; both y 4, 50 tall.
        let (_, result) = try layout(Self.marginsScene(direction: "leftToRight"))
        #expect(result.frame("a") == frame(5, 4, 40, 50))
        #expect(result.frame("b") == frame(55, 4, 230, 50))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func rightToLeftArrangesFromTheRightMargin() throws {
        // Leading is the right edge: a's right edge at 300 - 15 = 285 (x 245); b's right
        // edge 10 before a (235), 230 wide: x 5.
        let (_, result) = try layout(Self.marginsScene(direction: "rightToLeft"))
        #expect(result.frame("a") == frame(245, 4, 40, 50))
        #expect(result.frame("b") == frame(5, 4, 230, 50))
        #expect(result.diagnostics.isEmpty)
    }

    @Test func baselineRelativeSpacingRunsFromBaselineToBaseline() throws {
        // Vertical, spacing 10, baselineRelative: a (30 tall, last baseline 20) at y 0;
        // b's first baseline (15) is 10 below a's last: 30, so b's top is 15; the column is
        // as tall as its content: 15 + 40 = 55. Alignment fill: both 100 wide.
        let (_, result) = try layout(#"""
        {"container":{"width":200,"height":200},
         "views":{"col":{"stack":{"axis":"vertical","spacing":10,"baselineRelative":true,"arranged":["a","b"]}},
                  "a":{"intrinsicSize":{"height":30},"firstBaseline":12,"baseline":20},
                  "b":{"intrinsicSize":{"height":40},"firstBaseline":15,"baseline":30}},
         "constraints":["H:|[col(100)]","V:|[col]"]}
        """#)
        #expect(result.frame("col") == frame(0, 0, 100, 55))
        #expect(result.frame("a") == frame(0, 0, 100, 30))
        #expect(result.frame("b") == frame(0, 15, 100, 40))
        #expect(result.diagnostics.isEmpty)
    }

    /// A baseline-aligned row of `title` (50 x 30, baselines 22) and a vertical stack
    /// `col` of `name` (60 x 20, baselines 15) over `detail` (60 x 14, baselines 11), spacing
    /// 8, the row pinned at (0, 0). `colExtra` and `nameExtra` are added to those views.
    static func nestedBaselineScene(alignment: String, colExtra: String = "", nameExtra: String = "") -> String {
        #"""
        {"container":{"width":300,"height":300},
         "views":{"row":{"stack":{"alignment":"\#(alignment)","spacing":8,"arranged":["title","col"]}},
                  "title":{"intrinsicSize":{"width":50,"height":30},"baseline":22,"firstBaseline":22},
                  "col":{"stack":{"axis":"vertical","arranged":["name","detail"]}\#(colExtra)},
                  "name":{"intrinsicSize":{"width":60,"height":20},"baseline":15,"firstBaseline":15\#(nameExtra)},
                  "detail":{"intrinsicSize":{"width":60,"height":14},"baseline":11,"firstBaseline":11}},
         "constraints":["row.top == 0","row.leading == 0"]}
        """#
    }

    @Test func nestedStackForwardsItsFirstArrangedViewsFirstBaseline() throws {
        // col's first baseline is name's (UIKit's forFirstBaselineLayout): col.y + 15 ==
        // title.y + 22. The span's top (== each top @999.5, <= each, required) is the
        // higher top, title's: title.y 0, col.y 7; col is name 20 + detail 14 = 34 tall
        // (its own content), detail at 20 in col; the row is 50 + 8 + 60 = 118 wide and
        // max(30, 7 + 34) = 41 tall.
        let (_, result) = try layout(Self.nestedBaselineScene(alignment: "firstBaseline"))
        expectFrames(result, [("row", frame(0, 0, 118, 41)), ("title", frame(0, 0, 50, 30)), ("col", frame(58, 7, 60, 34)),
                              ("name", frame(0, 0, 60, 20)), ("detail", frame(0, 20, 60, 14))])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func nestedStackForwardsItsLastArrangedViewsLastBaseline() throws {
        // col's last baseline is detail's: col.y + 20 + 11 == title.y + 22, so title sits
        // 9 below col; col's top (0) is the higher one: title.y 9; the row is
        // max(9 + 30, 34) = 39 tall. (name resists compression at 1000: the span's top
        // `==` title's top at 999.5 would otherwise squeeze name, at 750, to 11.)
        let (_, result) = try layout(Self.nestedBaselineScene(alignment: "lastBaseline",
                                                              nameExtra: #","compressionResistance":{"vertical":1000}"#))
        expectFrames(result, [("row", frame(0, 0, 118, 39)), ("title", frame(0, 9, 50, 30)), ("col", frame(58, 0, 60, 34)),
                              ("name", frame(0, 0, 60, 20)), ("detail", frame(0, 20, 60, 14))])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func nestedStackForwardsFromItsFirstVisibleArrangedView() throws {
        // name hidden: col is detail alone (14 tall, name 0 tall at its top), and col's first
        // baseline is detail's: col.y + 11 == title.y + 22: title.y 0, col.y 11; the row is
        // max(30, 11 + 14) = 30 tall.
        let (_, result) = try layout(Self.nestedBaselineScene(alignment: "firstBaseline", nameExtra: #","hidden":true"#))
        expectFrames(result, [("row", frame(0, 0, 118, 30)), ("title", frame(0, 0, 50, 30)), ("col", frame(58, 11, 60, 14)),
                              ("name", frame(0, 0, 60, 0)), ("detail", frame(0, 0, 60, 14))])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func nestedStackWithItsOwnBaselineKeepsIt() throws {
        // col's own firstBaseline 5 wins over forwarding: col.y + 5 == title.y + 22:
        // title.y 0, col.y 17; the row is max(30, 17 + 34) = 51 tall.
        let (_, result) = try layout(Self.nestedBaselineScene(alignment: "firstBaseline", colExtra: #","firstBaseline":5"#))
        expectFrames(result, [("row", frame(0, 0, 118, 51)), ("title", frame(0, 0, 50, 30)), ("col", frame(58, 17, 60, 34)),
                              ("name", frame(0, 0, 60, 20)), ("detail", frame(0, 20, 60, 14))])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func baselineRelativeSpacingUsesANestedStacksForwardedBaselines() throws {
        // Vertical, spacing 10, baselineRelative, arranged: a (30 tall, last baseline 20) and
        // the horizontal stack `pair` of p (40 tall, first baseline 15) and q (40 tall,
        // first baseline 25), top-aligned. pair's first baseline is p's: pair.y + 15 ==
        // 20 + 10, pair.y 15; the column is 15 + 40 = 55 tall.
        let (_, result) = try layout(#"""
        {"container":{"width":200,"height":200},
         "views":{"col":{"stack":{"axis":"vertical","spacing":10,"baselineRelative":true,"alignment":"leading","arranged":["a","pair"]}},
                  "a":{"intrinsicSize":{"width":50,"height":30},"firstBaseline":12,"baseline":20},
                  "pair":{"stack":{"alignment":"top","arranged":["p","q"]}},
                  "p":{"intrinsicSize":{"width":30,"height":40},"firstBaseline":15,"baseline":30},
                  "q":{"intrinsicSize":{"width":30,"height":40},"firstBaseline":25,"baseline":35}},
         "constraints":["col.top == 0","col.leading == 0"]}
        """#)
        expectFrames(result, [("col", frame(0, 0, 60, 55)), ("a", frame(0, 0, 50, 30)), ("pair", frame(0, 15, 60, 40)),
                              ("p", frame(0, 0, 30, 40)), ("q", frame(30, 0, 30, 40))])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func hiddenInABaselineRelativeStackSitsBetweenTheBaselines() throws {
        // Vertical, baselineRelative, spacing 20, 30 after a; a (20 x 30, last baseline 25)
        // at 0; b's first baseline (12) is 30 below a's last: b.y = 25 + 30 - 12 = 43.
        // Hidden h sits half the spacing below a's last baseline: 25 + 15 = 40, 0 tall
        // (between a's bottom 30 and b's top 43). Alignment leading: the stack is
        // max(20, 40) = 40 wide and 83 tall.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":300},
         "views":{"s":{"stack":{"axis":"vertical","baselineRelative":true,"spacing":20,"alignment":"leading","arranged":["a","h","b"],"customSpacing":{"a":30}}},
                  "a":{"intrinsicSize":{"width":20,"height":30},"baseline":25,"firstBaseline":10},
                  "h":{"hidden":true,"intrinsicSize":{"width":20,"height":30},"baseline":25,"firstBaseline":10},
                  "b":{"intrinsicSize":{"width":40,"height":40},"baseline":35,"firstBaseline":12}},
         "constraints":["s.top == superview.top","s.leading == superview.leading"]}
        """#)
        expectFrames(result, [("s", frame(0, 0, 40, 83)), ("a", frame(0, 0, 20, 30)), ("h", frame(0, 40, 20, 0)),
                              ("b", frame(0, 43, 40, 40))])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func customSpacingFollowsItsView() throws {
        // spacing 8, 20 after a: a 30 at 0, b 30 at 50, c 30 at 88; the row is 118 wide.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},
         "views":{"row":{"stack":{"spacing":8,"customSpacing":{"a":20},"arranged":["a","b","c"]}},
                  "a":{"intrinsicSize":{"width":30,"height":10}},
                  "b":{"intrinsicSize":{"width":30,"height":10}},
                  "c":{"intrinsicSize":{"width":30,"height":10}}},
         "constraints":["H:|[row]","V:|[row]"]}
        """#)
        #expect(result.frame("row") == frame(0, 0, 118, 10))
        #expect(result.frame("b") == frame(50, 0, 30, 10))
        #expect(result.frame("c") == frame(88, 0, 30, 10))
    }

    @Test func fractionalPrioritiesAreLevelsOfTheirOwn() throws {
        // UIKit's stack priorities include 999.5: each fraction is its own strict level.
        // a's height: 10 @999, 50 @999.25, 30 @999.5 -> 30 (the highest wins outright), in a
        // top-aligned row whose span (== at 999.5, fit at 51) makes the row as tall: 30.
        let (compiled, result) = try layout(#"""
        {"container":{"width":200,"height":100},
         "views":{"row":{"stack":{"alignment":"top","arranged":["a"]}},"a":{"intrinsicSize":{"width":40}}},
         "constraints":["H:|[row]","V:|[row]","a.height == 10 @999","a.height == 50 @999.25","a.height == 30 @999.5"]}
        """#)
        #expect(result.frame("a") == frame(0, 0, 40, 30))
        #expect(result.frame("row") == frame(0, 0, 40, 30))
        let strengths = Set(compiled.constraints.map(\.constraint.strength.value))
        #expect(strengths.isSuperset(of: [999.5, 999.25, 999, 51, 25]))
    }

    // MARK: Diagnostics

    @Test func conflictsNameStackConstraintsAsStackRefs() throws {
        // The row is pinned 300 wide and fills a and b with spacing 10; the scene then
        // requires b.width == 500 (a could still be -210 wide) and a.width == 40, which
        // cannot hold with them: 40 + 10 + 500 != 300. The conflict names the row's width
        // and the stack's canvas and spacing constraints, as stack:row with their text.
        let scene = try SceneDecoder().decode(body: Array(#"""
        {"container":{"width":320,"height":100},
         "views":{"row":{"stack":{"spacing":10,"arranged":["a","b"]}},
                  "a":{"intrinsicSize":{"width":40,"height":20},"hugging":{"horizontal":251}},
                  "b":{"intrinsicSize":{"width":60,"height":20}}},
         "constraints":["H:|-10-[row(300)]","V:|-10-[row(50)]","b.width == 500","a.width == 40"]}
        """#.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        let result = compiled.solve(size: scene.container.size)
        let conflict = try #require(result.diagnostics.first { $0.code == .unsatisfiableConstraints })
        #expect(conflict.broken?.key == .scene(3))
        #expect((conflict.conflicting ?? []).contains { $0.key == .scene(2) })
        let stackTexts = (conflict.conflicting ?? []).filter { $0.key == .implicit("stack:row") }.map(\.text)
        #expect(stackTexts.contains("b.leading == a.trailing + 10 (stack row spacing)"), "\(stackTexts)")
        #expect(stackTexts.contains("a.leading == row.leading (stack row canvas)"), "\(stackTexts)")
        #expect(stackTexts.contains("b.trailing == row.trailing (stack row canvas)"), "\(stackTexts)")
        let parts = (conflict.conflicting ?? []).filter { $0.key == .implicit("stack:row") }.compactMap(\.part)
        #expect(parts.sorted() == [0, 1, 2])
        // And the JSON spelling of the ref.
        #expect(ConstraintKey.implicit("stack:row").jsonValue == .string("stack:row"))
    }

    @Test func stackConstraintsComeAfterIntrinsicSizesAndBeforeTheScene() throws {
        // One view with an intrinsic width and height (4 constraints), one fill stack of it
        // (canvas 2, alignment canvas 2), then the scene's 2 entries.
        let scene = try SceneDecoder().decode(body: Array(#"""
        {"container":{"width":100,"height":100},
         "views":{"s":{"stack":{"arranged":["a"]}},"a":{"intrinsicSize":{"width":10,"height":10}}},
         "constraints":["s.left == 0","s.top == 0"]}
        """#.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        let keys = compiled.constraints.map { $0.ref.key.displayName }
        #expect(keys == ["a.compressionResistance.horizontal", "a.hugging.horizontal", "a.compressionResistance.vertical", "a.hugging.vertical",
                         "stack:s", "stack:s", "stack:s", "stack:s", "constraint 0", "constraint 1"])
        #expect(compiled.constraints[4...7].map(\.ref.text) == [
            "a.leading == s.leading (stack s canvas)", "a.trailing == s.trailing (stack s canvas)",
            "a.top == s.top (stack s canvas)", "a.bottom == s.bottom (stack s canvas)"])
    }

    @Test func guidesAreWrittenByWhatTheyAre() throws {
        // The spanning and distributing guides are written span(NAME) and gap(NAME, a, b),
        // with UIKit's priorities: 51 (span fit), 25 (ambiguity suppression), 999.5, 49.
        let scene = try SceneDecoder().decode(body: Array(#"""
        {"container":{"width":100,"height":100},
         "views":{"s":{"stack":{"distribution":"equalSpacing","alignment":"top","arranged":["a","b"]}},"a":{},"b":{}},
         "constraints":[]}
        """#.utf8))
        let texts = SceneCompiler(scene: scene).compile().constraints.map(\.ref.text)
        #expect(texts.contains("gap(s, a, b).leading == a.trailing (stack s distributing)"), "\(texts)")
        #expect(texts.contains("s.width == 0 @49 (stack s canvas fit)"))
        #expect(texts.contains("span(s).top == b.top @999.5 (stack s span)"))
        #expect(texts.contains("span(s).height == 0 @51 (stack s span fit)"))
        #expect(texts.contains("a.height == 0 @25 (stack s ambiguity suppression)"))
        #expect(texts.contains("b.leading >= a.trailing (stack s spacing)"))
    }

    // MARK: Decoding

    func rejection(_ json: String) -> SceneRejection? {
        do {
            _ = try SceneDecoder().decode(body: Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// A stack arranging a layout guide is told that stacks arrange views (the guide is not
    /// an unknown name), as a 422 at the arrangement.
    @Test func aStackArrangingAGuideIsToldStacksArrangeViews() throws {
        let found = try #require(rejection(#"{"views":{"a":{},"s":{"stack":{"arranged":["a","gap"]}}},"guides":{"gap":{}}}"#))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.code) == [.invalidScene])
        #expect(found.diagnostics.map(\.path) == ["$.views.s.stack.arranged[1]"])
        #expect(found.diagnostics.map(\.message) == ["Stack 's' arranges 'gap', which is a layout guide: a stack arranges views, not layout guides"])
        #expect(found.diagnostics.map(\.view) == ["s"])
    }

    @Test func invalidStacksAre422WithTheirPath() throws {
        let cases: [(String, String, String)] = [
            // (views, expected path, a word of the message)
            (#""s":{"stack":{"arranged":["a"]}},"t":{"stack":{"arranged":["a"]}},"a":{}"#, "$.views.t.stack.arranged[0]", "in stack 's'"),
            (#""s":{"stack":{"arranged":["a","a"]}},"a":{}"#, "$.views.s.stack.arranged[1]", "twice"),
            (#""s":{"stack":{"arranged":["s"]}}"#, "$.views.s.stack.arranged[0]", "itself"),
            (#""p":{},"s":{"parent":"p","stack":{"arranged":["p"]}}"#, "$.views.s.stack.arranged[0]", "ancestor"),
            (#""s":{"stack":{"arranged":["ghost"]}}"#, "$.views.s.stack.arranged[0]", "unknown view 'ghost'"),
            (#""s":{"stack":{"arranged":["a"]}},"p":{},"a":{"parent":"p"}"#, "$.views.a.parent", "its parent is 'p'"),
            (#""s":{"stack":{"axis":"vertical","alignment":"firstBaseline","arranged":[]}}"#, "$.views.s.stack.alignment", "horizontal stacks only"),
            (#""s":{"stack":{"distribution":"equalSpacing","spacing":-2,"arranged":[]}}"#, "$.views.s.stack.spacing", "≥ 0"),
            (#""s":{"stack":{"customSpacing":{"b":4},"arranged":["a"]}},"a":{}"#, "$.views.s.stack.customSpacing.b", "does not arrange"),
        ]
        for (views, path, word) in cases {
            let found = try #require(rejection(#"{"views":{\#(views)}}"#), "\(views)")
            #expect(found.reason == .invalid, "\(views)")
            let diagnostic = found.diagnostics.first { $0.path == path }
            #expect(diagnostic?.code == .invalidScene, "\(views): \(found.diagnostics.map { ($0.path ?? "", $0.message) })")
            #expect(diagnostic?.message.contains(word) == true, "\(views): \(diagnostic?.message ?? "none")")
        }
    }

    @Test func suggestionsForUnknownArrangedNamesStopWithTheListedDiagnostics() throws {
        // 300 unknown names: each is a 422, but only the first LayoutDiagnostic.maxCount (100)
        // compare the name with every view's for a suggestion ("aa0" is close to "aa").
        let names = (0..<300).map { "\"aa\($0)\"" }.joined(separator: ",")
        let found = try #require(rejection(#"{"views":{"s":{"stack":{"arranged":[\#(names)]}},"aa":{}}}"#))
        #expect(found.diagnostics.count == 300)
        #expect(found.diagnostics[0].message.contains("did you mean 'aa'?"))
        #expect(!found.diagnostics[150].message.contains("did you mean"))
    }

    @Test func stacksArrangingEachOtherAreACycle() throws {
        // s1 arranges s2 and s2 arranges s1: s1 (checked first, by name) becomes s2's
        // parent, so s2 arranges its ancestor: one 422 at that arrangement, none at a
        // `parent` member neither view has.
        let found = try #require(rejection(#"{"views":{"s1":{"stack":{"arranged":["s2"]}},"s2":{"stack":{"arranged":["s1"]}}}}"#))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.code) == [.invalidScene], "\(found.diagnostics.map(\.message))")
        #expect(found.diagnostics.first?.path == "$.views.s2.stack.arranged[0]")
        #expect(found.diagnostics.first?.message == "Stack 's2' cannot arrange 's1', which is an ancestor of it")
    }

    @Test func aCycleOfArrangementsAndAGivenParentIsReportedAtTheArrangement() throws {
        // s1 arranges s2, s2 arranges s3, and s1's given parent is s3: s3 is s2's ancestor
        // through s1 (implied) and s3 (given).
        let found = try #require(rejection(#"""
        {"views":{"s1":{"parent":"s3","stack":{"arranged":["s2"]}},"s2":{"stack":{"arranged":["s3"]}},"s3":{}}}
        """#))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.path) == ["$.views.s2.stack.arranged[0]"], "\(found.diagnostics.map(\.message))")
        #expect(found.diagnostics.first?.message == "Stack 's2' cannot arrange 's3', which is an ancestor of it")
    }

    @Test func wrongStackTypesAre400() throws {
        let cases: [(String, String)] = [
            (#""s":{"stack":{"axis":"diagonal","arranged":[]}}"#, "$.views.s.stack.axis"),
            (#""s":{"stack":{"arranged":"a"}}"#, "$.views.s.stack.arranged"),
            (#""s":{"stack":{}}"#, "$.views.s.stack.arranged"),
            (#""s":{"stack":{"arranged":[], "spacing":"8"}}"#, "$.views.s.stack.spacing"),
            (#""s":{"stack":{"arranged":[], "layoutMarginsRelative":1}}"#, "$.views.s.stack.layoutMarginsRelative"),
            (#""s":{"stack":{"arranged":[], "gap":1}}"#, "$.views.s.stack.gap"),
            (#""s":{"hidden":"yes"}"#, "$.views.s.hidden"),
            (#""s":{"stack":[]}"#, "$.views.s.stack"),
        ]
        for (views, path) in cases {
            let found = try #require(rejection(#"{"views":{\#(views)}}"#), "\(views)")
            #expect(found.reason == .malformed, "\(views)")
            #expect(found.diagnostics.contains { $0.path == path && $0.code == .invalidScene },
                    "\(views): \(found.diagnostics.map { ($0.path ?? "", $0.message) })")
        }
    }

    @Test func arrangedViewsAreTheStacksSubviews() throws {
        // The parent is implied (and may be given as the stack): frames are relative to it.
        let scene = try SceneDecoder().decode(body: Array(#"""
        {"views":{"s":{"stack":{"arranged":["a","b"]}},"a":{},"b":{"parent":"s"}}}
        """#.utf8))
        #expect(scene.views.map(\.name) == ["a", "b", "s"])
        #expect(scene.views.map(\.parent) == ["s", "s", nil])
    }
}
