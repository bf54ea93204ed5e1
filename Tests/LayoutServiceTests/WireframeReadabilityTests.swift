import Foundation
import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing
@testable import Wireframe

/// An SVG a person can read: the display size, labels that never overprint,
/// problems drawn and written, small multiples, guides. Every check parses the document
/// (``WireframeTests/parse(_:)``) and reads positions back from its attributes.
struct WireframeReadabilityTests {
    typealias Element = WireframeTests.Element

    static func svg(_ scene: String, display: WireframeDisplay = WireframeDisplay()) throws -> [Element] {
        let answer = SceneEngine().solveSVG(try WireframeTests.prepare(scene), display: display)
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return try WireframeTests.parse(answer.body)
    }

    /// `[minX, minY, width, height]` of the root's `viewBox`.
    static func viewBox(_ elements: [Element]) -> [Double] {
        (elements.first?.attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
    }

    static func attribute(_ element: Element?, _ name: String) -> Double? {
        element?.attributes[name].flatMap(Double.init)
    }

    /// A text's box in viewBox units, estimated independently of the renderer from its
    /// `x`, `y` (baseline), its font size (its own `font-size`, else its group's, else the
    /// root's) and its length: 0.62 em per character (DejaVu Sans Mono advances 0.602),
    /// 0.95 em above the baseline and 0.3 em below.
    struct TextBox: CustomStringConvertible {
        var text: String
        var minX, minY, maxX, maxY: Double

        func intersects(_ other: TextBox) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }

        var description: String { "'\(text)' [\(minX), \(minY)]–[\(maxX), \(maxY)]" }
    }

    /// The boxes of the labels, number markers and captions (texts inside `g.labels`).
    static func labelBoxes(_ elements: [Element]) throws -> [TextBox] {
        let rootFont = try #require(attribute(elements.first, "font-size"))
        return elements.compactMap { element -> TextBox? in
            guard element.name == "text", let kind = element.attributes["class"],
                  kind.hasPrefix("label") || kind == "caption",
                  let x = attribute(element, "x"), let y = attribute(element, "y") else { return nil }
            let font = attribute(element, "font-size") ?? rootFont
            let width = Double(element.text.count) * 0.62 * font
            return TextBox(text: element.text, minX: x, minY: y - 0.95 * font, maxX: x + width, maxY: y + 0.3 * font)
        }
    }

    /// No two label boxes intersect, and every one is inside the viewBox.
    static func expectReadable(_ elements: [Element], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let boxes = try labelBoxes(elements)
        #expect(!boxes.isEmpty, sourceLocation: sourceLocation)
        let box = viewBox(elements)
        for (index, first) in boxes.enumerated() {
            #expect(first.minX >= box[0] - 1e-6 && first.minY >= box[1] - 1e-6
                    && first.maxX <= box[0] + box[2] + 1e-6 && first.maxY <= box[1] + box[3] + 1e-6,
                    "\(first) outside the viewBox \(box)", sourceLocation: sourceLocation)
            for second in boxes[(index + 1)...] where first.intersects(second) {
                Issue.record("\(first) overprints \(second)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The issue's example: `superview 0,0 375×100` and `red 20,0 500×10` were written on
    /// top of each other; red is in a conflict (500 does not fit in 375).
    static let redScene = #"{"container": {"width": 375, "height": 100}, "views": ["red"], "constraints": ["H:|-[red(500)]-|", "V:|[red(10)]"]}"#

    /// The issue's card: avatar, name, like and share side by side in a small card.
    static let cardScene = """
    {"container": {"width": 320, "height": 120},
     "views": {"card": {}, "avatar": {"parent": "card"}, "name": {"parent": "card"},
               "like": {"parent": "card"}, "share": {"parent": "card"}},
     "constraints": ["H:|-8-[card]-8-|", "V:|-8-[card(64)]",
                     "H:|-8-[avatar(40)]-8-[name]-8-[like(24)]-4-[share(24)]-8-|",
                     "V:|-12-[avatar(40)]", "V:|-12-[name(20)]", "V:|-20-[like(24)]", "V:|-20-[share(24)]"]}
    """

    // MARK: - Display size

    @Test func hugeContainerGetsASaneDisplaySize() throws {
        let elements = try Self.svg(#"{"container": {"width": 1e12, "height": 500}, "views": ["a"], "constraints": ["H:|-[a]-|", "V:|-[a]-|"]}"#)
        let svg = try #require(elements.first)
        let width = try #require(Self.attribute(svg, "width"))
        let height = try #require(Self.attribute(svg, "height"))
        let scale = try #require(Self.attribute(svg, "data-scale"))
        #expect(width <= 1_200 && width >= 1_100, "\(width)")
        #expect(height <= 900 && height > 0)
        // The viewBox is in points: its width times the scale is the display width.
        let box = Self.viewBox(elements)
        // 1e12 points plus 32 px of margins (32 / scale points).
        #expect(box[2] > 1e12 && abs(box[2] - (1e12 + 32 / scale)) < 1e-6 * box[2])
        #expect(abs(box[2] * scale - width) < 1e-3 * width)
        // Labels are 11 px high on the screen: 11 / scale points.
        #expect(abs(try #require(Self.attribute(svg, "font-size")) * scale - 11) < 1e-3)
        try Self.expectReadable(elements)
    }

    @Test func aLargeSceneShrinksToFitTheHeight() throws {
        let elements = try Self.svg(#"{"container": {"width": 400, "height": 3000}, "views": ["a"], "constraints": ["H:|-[a]-|", "V:|-[a]-|"]}"#)
        let svg = try #require(elements.first)
        let height = try #require(Self.attribute(svg, "height"))
        #expect(height <= 900 && height > 880, "\(height)")
        // (900 − 32) / 3000 px per point.
        #expect(Self.attribute(svg, "data-scale") == 868.0 / 3000.0 || abs((Self.attribute(svg, "data-scale") ?? 0) - 0.289333) < 1e-6)
    }

    @Test func scaleAndWidthChooseTheDisplaySize() throws {
        let scene = WireframeTests.contractScene
        let doubled = try #require(try Self.svg(scene, display: WireframeDisplay(sizing: .scale(2))).first)
        // 375 × 667 points at 2 px per point, plus 16 px margins.
        #expect(doubled.attributes["width"] == "782" && doubled.attributes["height"] == "1366")
        #expect(doubled.attributes["viewBox"] == "0 0 391 683")
        let narrow = try #require(try Self.svg(scene, display: WireframeDisplay(sizing: .width(407 + 375))).first)
        #expect(narrow.attributes["width"] == "782" && narrow.attributes["data-scale"] == "2")
        // A scale that would draw more than 16,384 px is reduced to it.
        let huge = try #require(try Self.svg(#"{"container": {"width": 100000, "height": 10}, "views": []}"#,
                                             display: WireframeDisplay(sizing: .scale(16))).first)
        // (16,384 − 32 px of margins) / 100,000 points: exactly 16,384 px wide.
        #expect(huge.attributes["data-scale"] == "0.16352" && huge.attributes["width"] == "16384")
    }

    @Test func dataScaleHasSixSignificantDigits() throws {
        #expect(WireframeRenderer.scaleText(2.8380871292748687e-05) == "2.83809e-05")
        #expect(WireframeRenderer.scaleText(0.0012345678) == "0.00123457")
        #expect(WireframeRenderer.scaleText(868.0 / 3000.0) == "0.289333")
        #expect(WireframeRenderer.scaleText(8.192) == "8.192")
        #expect(WireframeRenderer.scaleText(16) == "16")
        // A 1e9-point container: (1,200 − 32) / 1e9 px per point, 6 digits.
        let svg = try #require(try Self.svg(#"{"container": {"width": 1e9, "height": 10}, "views": []}"#).first)
        #expect(svg.attributes["data-scale"] == "1.168e-06")
    }

    @Test func theReducedScaleHonoursTheCapWithMargins() throws {
        // scale=16 on 2,000 points: (16,384 − 32) / 2,000 = 8.176, exactly 16,384 px wide.
        let one = try #require(try Self.svg(#"{"container":{"width":2000,"height":50},"views":["a"],"constraints":["H:|-[a]-|","V:|-[a]-|"]}"#,
                                            display: WireframeDisplay(sizing: .scale(16))).first)
        #expect(one.attributes["width"] == "16384" && one.attributes["data-scale"] == "8.176")
        // Two panels in a row add a gap and captions: still at most 16,384 px.
        let two = try #require(try Self.svg(#"{"container":{"width":2000,"height":50},"views":[],"sizes":[{"width":1000,"height":1000},{"width":1000,"height":1000}]}"#,
                                            display: WireframeDisplay(sizing: .scale(16))).first)
        let width = try #require(Self.attribute(two, "width"))
        #expect(width <= 16_384 && width > 16_383, "\(width) \(two.attributes)")
        // `width` is capped by scale 16: a 322-point scene asked 16,384 px wide is 5,184.
        let narrow = try #require(try Self.svg(#"{"container":{"width":322,"height":50},"views":[]}"#,
                                               display: WireframeDisplay(sizing: .width(16_384))).first)
        #expect(narrow.attributes["width"] == "5184" && narrow.attributes["data-scale"] == "16")
    }

    /// `views` 10 × 10 views in a row, at `count` container widths (200, 210, …) and
    /// height `height`: small panels whose labels do not all fit, so the legend numbers some views.
    static func rowOfSmallViews(sizes count: Int, views: Int = 10, height: Int = 100) -> String {
        let names = (0..<views).map { "v\($0)" }
        let row = "H:|-" + names.map { "[\($0)(10)]" }.joined(separator: "-") + "-|"
        let columns = names.map { "\"V:|-[\($0)(10)]\"" }.joined(separator: ",")
        let sizes = (0..<count).map { "{\"width\":\(200 + 10 * $0)}" }.joined(separator: ",")
        return #"{"container":{"width":200,"height":\#(height)},"views":["# + names.map { "\"\($0)\"" }.joined(separator: ",")
            + #"],"constraints":[""# + row + #"","# + columns + #"],"sizes":["# + sizes + "]}"
    }

    /// The bottom of the lowest panel, display pixels.
    static func drawingBottom(_ elements: [Element], scale: Double) -> Double {
        elements.filter { $0.name == "g" && $0.attributes["class"] == "panel" }.map { panel in
            let translate = (panel.attributes["transform"] ?? "").dropFirst("translate(".count).dropLast()
                .split(separator: " ").compactMap { Double($0) }
            return ((translate.last ?? 0) + (attribute(panel, "data-container-height") ?? 0)) * scale
        }.max() ?? 0
    }

    @Test func theDefaultFitCountsTheListsBelowTheDrawing() throws {
        // 20 panels of a nested stack and a legend: the whole document fits 1,200 × 900 px
        // (one re-arrangement drew 944 px high: the smaller drawing numbered more views).
        let sizes = (0..<20).map { #"{"width":\#(200 + 10 * $0),"height":300}"# }.joined(separator: ",")
        let elements = try Self.svg(#"""
        {"container":{"width":375,"height":300},"views":{"col":{"stack":{"axis":"vertical","spacing":8,"arranged":["row1","row2","footer"]}},
         "row1":{"stack":{"spacing":8,"arranged":["icon","title"]}},"row2":{"stack":{"spacing":8,"distribution":"fillEqually","arranged":["ok","cancel"]}},
         "icon":{"intrinsicSize":{"width":24,"height":24}},"title":{"intrinsicSize":{"width":100,"height":21}},
         "ok":{"intrinsicSize":{"width":60,"height":30}},"cancel":{"intrinsicSize":{"width":60,"height":30}},"footer":{"intrinsicSize":{"width":100,"height":14}}},
         "constraints":["col.top == superview.top + 20","col.leading == superview.leading + 16","col.trailing == superview.trailing - 16"],
         "sizes":[\#(sizes)]}
        """#)
        let svg = try #require(elements.first)
        #expect(elements.contains { $0.name == "g" && $0.attributes["class"] == "legend" })
        let width = try #require(Self.attribute(svg, "width")), height = try #require(Self.attribute(svg, "height"))
        #expect(width <= 1_200 && height <= 900, "\(width) × \(height) \(svg.attributes)")
        try Self.expectReadable(elements)
    }

    @Test func aLegendTallerThanHalfTheFitKeepsTheDrawingsFit() throws {
        // 80 panels: the legend needs more than 450 px; the drawing alone fits 1,200 × 900
        // px and the legend adds height below it.
        let elements = try Self.svg(Self.rowOfSmallViews(sizes: 80))
        let svg = try #require(elements.first)
        let scale = try #require(Self.attribute(svg, "data-scale"))
        let height = try #require(Self.attribute(svg, "height"))
        let bottom = Self.drawingBottom(elements, scale: scale)
        #expect(bottom <= 900 - 16 + 1e-6 && bottom > 450, "\(bottom)")
        #expect(height > 900, "\(height)")
        #expect(try #require(Self.attribute(svg, "width")) <= 1_200)
    }

    @Test("scale and width are validated", arguments: [
        ("scale=2", nil), ("scale=0.5", nil), ("scale=16", nil), ("width=800", nil), ("width=16", nil), ("format=svg", nil),
        ("scale=0", "scale='0' is not a display scale"), ("scale=17", "scale='17' is not a display scale"),
        ("scale=abc", "scale='abc'"), ("scale=1e3", "scale='1e3'"), ("scale=-1", "scale='-1'"), ("scale=nan", "scale='nan'"),
        ("scale=inf", "scale='inf'"), ("scale=NaN", "scale='NaN'"), ("scale=0.001", nil),
        ("scale=0.0009", "scale='0.0009' is not a display scale: write a decimal number of pixels per point, from 0.001 to 16"),
        ("scale=0.000000000000000000000000000010", "scale='0.000000000000000000000000000010'"), ("scale=", "scale=''"), ("scale=.5", "scale='.5'"),
        ("width=0", "width='0' is not a display width"), ("width=15", "width='15'"), ("width=99999", "width='99999'"),
        ("width=012", "width='012'"), ("width=1.5", "width='1.5'"),
        ("scale=1&width=400", "Give scale or width, not both"), ("scale=1&scale=2", "'scale' is given 2 times"),
    ] as [(String, String?)])
    func displayParameters(_ query: String, _ refusal: String?) throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        defer { service.store.close() }
        let request = HTTPRequest(method: .POST, target: "/solve?format=svg&\(query)",
                                  headers: ["Content-Type": "application/json"], body: Array(WireframeTests.contractScene.utf8))
        let response = service.solveWireframe(request, turn: HeldTurn(nil, isLarge: false))
        if let refusal {
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            let detail = try JSONParser().parse(response.body)["detail"]?.stringValue ?? ""
            #expect(detail.hasPrefix(refusal), "\(detail)")
        } else {
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "image/svg+xml; charset=utf-8")
        }
    }

    // MARK: - Labels never overprint

    @Test func theIssuesRedExampleIsReadable() throws {
        let elements = try Self.svg(Self.redScene)
        try Self.expectReadable(elements)
        let labels = elements.filter { $0.attributes["data-for"] != nil }
        #expect(labels.contains { $0.attributes["data-for"] == "superview" && $0.text == "superview  0,0 375×100" })
        // red (10 high) cannot hold its label: it is moved outside, in full.
        #expect(labels.contains { $0.attributes["data-for"] == "red" && $0.text == "red  20,0 500×10" && $0.attributes["class"] == "label outside" })
    }

    @Test func theIssuesCardIsReadable() throws {
        let elements = try Self.svg(Self.cardScene)
        try Self.expectReadable(elements)
        // Every view has a label or a number with a legend entry.
        let labelled = Set(elements.compactMap { $0.attributes["data-for"] })
        #expect(labelled == ["superview", "card", "avatar", "name", "like", "share"])
        let like = try #require(elements.first { $0.attributes["data-for"] == "like" })
        #expect(like.text.hasPrefix("like"))
    }

    @Test func conflictingSceneIsReadable() throws {
        let scene = #"{"container": {"width": 300, "height": 120}, "views": ["a", "b", "c"], "constraints": ["H:|-[a]-[b(==a)]-[c(==a)]-|", "V:|-[a(20)]", "V:|-[b(20)]", "V:|-[c(20)]", "a.width >= 200"]}"#
        try Self.expectReadable(try Self.svg(scene))
    }

    /// Sixty 6 × 6 views in a row, named long: most labels cannot be written anywhere, so
    /// they are numbered; each number's view lists it in the legend, and nothing overprints.
    @Test func crowdedViewsAreNumberedWithALegend() throws {
        let names = (0..<60).map { "tile_\($0)_with_a_long_name" }
        let chain = names.map { "[\($0)(6)]" }.joined()
        let vertical = names.map { "\"V:|-40-[\($0)(6)]\"" }.joined(separator: ",")
        let scene = #"{"container": {"width": 375, "height": 100}, "views": [\#(names.map { "\"\($0)\"" }.joined(separator: ","))], "constraints": ["H:|-0-\#(chain)", \#(vertical)]}"#
        let elements = try Self.svg(scene)
        try Self.expectReadable(elements)
        let numbered = elements.filter { $0.name == "g" && $0.attributes["data-label"] != nil }
        #expect(numbered.count > 10)
        let entries = elements.filter { $0.attributes["class"] == "entry" }.map(\.text)
        for group in numbered {
            let number = try #require(group.attributes["data-label"])
            let name = try #require(group.attributes["data-view"])
            let entry = entries.flatMap { $0.components(separatedBy: "   ") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("\(number)  \(name)  ") }
            #expect(entry != nil, "no legend entry for \(number) \(name) in \(entries)")
        }
        // Every view is named once: by a label, or by a number.
        let labelled = Set(elements.filter { $0.attributes["class"] != "label number" }.compactMap { $0.attributes["data-for"] })
        for name in names {
            #expect(labelled.contains(name) != numbered.contains { $0.attributes["data-view"] == name }, "\(name)")
        }
    }

    @Test func sizesAreSmallMultiplesInRowsThatFit() throws {
        let sizes = (0..<12).map { "{\"width\": \(320 + 10 * $0), \"height\": 568}" }.joined(separator: ",")
        let scene = #"{"views": ["a", "b"], "constraints": ["H:|-[a]-[b(==a)]-|", "V:|-[a(40)]", "V:|-[b(40)]"], "sizes": [\#(sizes)]}"#
        let elements = try Self.svg(scene)
        let svg = try #require(elements.first)
        #expect(try #require(Self.attribute(svg, "width")) <= 1_200)
        #expect(try #require(Self.attribute(svg, "height")) <= 900)
        let rows = Set(elements.filter { $0.attributes["class"] == "panel" }.compactMap { panel -> String? in
            panel.attributes["transform"]?.split(separator: " ").last.map(String.init)
        })
        #expect(rows.count > 1, "one row of 12 phones would be too small to read")
        #expect(elements.filter { $0.attributes["class"] == "caption" }.count == 12)
        try Self.expectReadable(elements)
    }

    // MARK: - Problems drawn

    @Test func conflictMessageIsVisibleTextAndItsViewsAreRed() throws {
        let prepared = try WireframeTests.prepare(Self.redScene)
        let solved = try JSONParser().parse(SceneEngine().solve(prepared).body)
        let conflict = try #require(solved["diagnostics"]?.arrayValue?.first { $0["code"]?.stringValue == "unsatisfiable_constraints" })
        let message = try #require(conflict["message"]?.stringValue)
        let elements = try Self.svg(Self.redScene)
        let red = try #require(elements.first { $0.name == "g" && $0.attributes["data-view"] == "red" })
        #expect(red.attributes["class"] == "view warning conflict")
        // Not only a tooltip: the heading and the message are <text> outside any <title>.
        let heading = try #require(elements.first { $0.name == "text" && $0.attributes["class"] == "heading" })
        #expect(heading.text == "⚠ 1 problem in this layout:")
        let lines = elements.filter { $0.name == "text" && $0.attributes["class"] == "problem" }.map(\.text)
        let joined = lines.map { String($0.dropFirst(2)) }.joined(separator: " ")
        #expect(joined.hasPrefix("Conflict (views superview, red): "), "\(joined)")
        let written = String(joined.dropFirst("Conflict (views superview, red): ".count))
        let shown = written.hasSuffix("…") ? String(written.dropLast()) : written
        #expect(!shown.isEmpty && message.replacingOccurrences(of: "\n", with: " ").hasPrefix(shown), "\(shown) vs \(message)")
        // The lines are inside the viewBox.
        let box = Self.viewBox(elements)
        for line in elements where line.attributes["class"] == "problem" {
            #expect(try #require(Self.attribute(line, "y")) <= box[3])
        }
    }

    @Test func ambiguousFieldsAreMarkedInTheLabel() throws {
        let scene = #"{"container": {"width": 300, "height": 200}, "views": ["a", "b"], "constraints": ["H:|-[a(50)]", "V:|-[a(40)]", "H:|-[b(60)]", "b.height == 10"]}"#
        let elements = try Self.svg(scene)
        let label = try #require(elements.first { $0.attributes["data-for"] == "b" })
        // b's y is ambiguous: "?" after that number.
        #expect(label.text == "b  20,0? 60×10")
        #expect(elements.contains { $0.attributes["class"] == "problem" && $0.text.hasPrefix("• Ambiguous: The y of 'b' is ambiguous") })
    }

    // MARK: - Guides

    @Test func guidesAreDrawnDashedAtTheirOwnersOffset() throws {
        let prepared = try WireframeTests.prepare(WireframeTests.contractScene)
        let engine = SceneEngine()
        let (compiled, layouts) = engine.compileAndSolve(prepared)
        let card = try #require(compiled.hierarchy.index(of: "card"))
        let guide = WireframeRenderer.Guide(name: "gap1", owner: card, x: 10, y: 5, width: 30, height: 20)
        let output = WireframeRenderer.svg(compiled: compiled, layouts: layouts, sizes: nil, guides: [[guide]],
                                           maxBytes: .max, pool: nil, maxWork: .max)
        let elements = try WireframeTests.parse(output.bytes)
        let group = try #require(elements.first { $0.name == "g" && $0.attributes["data-guide"] == "gap1" })
        #expect(group.attributes["class"] == "guide")
        let rect = try #require(elements.first { $0.name == "rect" && $0.attributes["data-x"] == "10" && $0.attributes["data-width"] == "30" })
        // card is at (16, 20): the guide is drawn at (26, 25).
        #expect(rect.attributes["x"] == "26" && rect.attributes["y"] == "25")
        #expect(elements.contains { $0.attributes["data-for"] == "gap1" })
        #expect(WireframeRenderer.stylesheet.contains(".guide > rect { fill: none; stroke: #7048c8; stroke-width: 1.5; stroke-dasharray: 6 4; }"))
        try Self.expectReadable(elements)
    }

    /// Frames 10¹² points apart (the largest constants a scene may hold are of that order) still give a well-formed picture of bounded
    /// display size whose labels do not overprint.
    @Test func extremeFramesStayDrawable() throws {
        let scene = #"{"container": {"width": 100, "height": 100}, "views": ["a", "b"], "constraints": ["a.left == -1e12", "a.top == 0", "a.width == 10", "a.height == 10", "b.left == 1e12", "b.top == 1e12", "b.width == 1e12", "b.height == 10"], "options": {"ambiguity": "ignore"}}"#
        let elements = try Self.svg(scene)
        let svg = try #require(elements.first)
        #expect(try #require(Self.attribute(svg, "width")) <= 1_200)
        #expect(try #require(Self.attribute(svg, "height")) <= 900)
        try Self.expectReadable(elements)
    }

    @Test func labelWidthCountsWideCharactersTwice() {
        #expect(abs(WireframeRenderer.labelWidth("abc", fontSize: 10) - 3 * 6.2) < 1e-9)
        #expect(abs(WireframeRenderer.labelWidth("名前", fontSize: 10) - 4 * 6.2) < 1e-9)
        #expect(abs(WireframeRenderer.labelWidth("e\u{301}", fontSize: 10) - 6.2) < 1e-9)
        #expect(WireframeRenderer.abbreviated("avatar_image", toFit: 5 * 6.82, fontSize: 11) == "avat…")
        #expect(WireframeRenderer.abbreviated("ab", toFit: 5 * 6.82, fontSize: 11) == "ab")
        #expect(WireframeRenderer.abbreviated("ab", toFit: 1, fontSize: 11) == nil)
    }
}
