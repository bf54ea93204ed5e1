import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LayoutCompiler
@testable import LayoutService
import HTTP1
import LayoutStore
import Testing
@testable import Wireframe

/// The SVG wireframe, parsed back with Foundation's `XMLParser` and compared
/// with the frames `/solve` answers for the same scene.
struct WireframeTests {
    // MARK: - Support

    /// One element of a parsed SVG: its name, attributes, character data, and the
    /// `data-view` of the nearest enclosing view group.
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
        var enclosingView: String?
        var depth: Int
    }

    /// Collects every element of a document in order; `error` is set when it is not well-formed.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var open: [Int] = []
        var viewStack: [String] = []
        var error: (any Error)?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let isView = elementName == "g" && (attributes["class"] ?? "").split(separator: " ").contains("view")
            elements.append(Element(name: elementName, attributes: attributes, text: "",
                                    enclosingView: viewStack.last, depth: open.count))
            open.append(elements.count - 1)
            viewStack.append(isView ? attributes["data-view"] ?? "?" : viewStack.last ?? "")
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
            viewStack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let index = open.last { elements[index].text += string }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            error = parseError
        }
    }

    /// Parses `bytes` as XML; records an issue and returns nothing when it is not well-formed.
    static func parse(_ bytes: [UInt8]) throws -> [Element] {
        let parser = XMLParser(data: Data(bytes))
        let collector = Collector()
        parser.delegate = collector
        let ok = parser.parse()
        #expect(ok, "not well-formed: \(String(describing: collector.error ?? parser.parserError))")
        try #require(ok)
        return collector.elements
    }

    static func prepare(_ json: String) throws -> SceneEngine.Prepared {
        switch SceneEngine().prepare(body: Array(json.utf8), resolveGroup: { _ in nil }) {
        case .success(let prepared): return prepared
        case .failure(let failure):
            Issue.record("prepare failed: \(failure.status) \(failure.diagnostics.map(\.message))")
            throw failure
        }
    }

    /// The `g.view` groups of a document, keyed by panel index then view name, with their rect.
    static func viewRects(_ elements: [Element]) -> [[String: Element]] {
        var panels: [[String: Element]] = []
        var currentView: String?
        for element in elements {
            if element.name == "g", element.attributes["class"] == "panel" {
                panels.append([:])
            } else if element.name == "g", let view = element.attributes["data-view"] {
                currentView = view
            } else if element.name == "rect", let view = currentView, !panels.isEmpty, element.enclosingView == view {
                panels[panels.count - 1][view] = element
                currentView = nil
            }
        }
        return panels
    }

    static func number(_ element: Element?, _ attribute: String) -> Double? {
        element?.attributes[attribute].flatMap(Double.init)
    }

    /// `{view: [x, y, width, height]}` of a `frames` object of a `/solve` answer.
    static func frames(_ value: JSONValue?) -> [String: [Double]] {
        guard case .object(let members)? = value else { return [:] }
        var result: [String: [Double]] = [:]
        for (name, frame) in members {
            result[name] = ["x", "y", "width", "height"].map { field in
                if case .number(let number)? = frame[field] { return number }
                return .nan
            }
        }
        return result
    }

    static let contractScene = """
    {"container": {"width": 375, "height": 667},
     "views": {"card": {}, "title": {"parent": "card", "intrinsicSize": {"width": 120, "height": 21}, "baseline": 17},
               "icon": {"parent": "card", "intrinsicSize": {"width": 24, "height": 24},
                        "hugging": {"horizontal": 251}, "compressionResistance": {"horizontal": 749}}},
     "metrics": {"pad": 16},
     "constraints": ["H:|-pad-[card]-pad-|", "V:|-20-[card(>=44)]",
                     {"vfl": "H:|-[icon]-[title]-|", "options": ["alignAllCenterY"]}, "V:|-[title]-|",
                     {"id": "title-min", "equation": "title.width >= 80", "priority": 750}]}
    """

    // MARK: - The contract example

    @Test func contractExampleIsWellFormedWithFramesAsSolveReportsThem() throws {
        let prepared = try Self.prepare(Self.contractScene)
        let engine = SceneEngine()
        let answer = engine.solveSVG(prepared)
        #expect(answer.status == 200)
        #expect(answer.contentType == "image/svg+xml; charset=utf-8")
        #expect(answer.isCacheable)
        let elements = try Self.parse(answer.body)
        #expect(elements.first?.name == "svg")
        #expect(elements.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")

        let solved = try JSONParser().parse(engine.solve(prepared).body)
        let expected = Self.frames(solved["frames"])
        #expect(expected.count == 4)
        let panels = Self.viewRects(elements)
        try #require(panels.count == 1)
        #expect(Set(panels[0].keys) == Set(expected.keys))
        for (name, frame) in expected {
            let rect = panels[0][name]
            #expect([Self.number(rect, "data-x"), Self.number(rect, "data-y"),
                     Self.number(rect, "data-width"), Self.number(rect, "data-height")] == frame.map { Optional($0) }, "\(name)")
        }
    }

    /// A wireframe draws at most 150,000 frames (views + 1, per size): 999 views at 1,000
    /// sizes (a valid JSON request, 46 MB of JSON) would be a 317 MB picture.
    @Test func wireframesBeyondTheFrameLimitAre422() throws {
        func scene(views: Int, sizes: Int) -> String {
            let names = (0..<views).map { "\"v\($0)\"" }.joined(separator: ",")
            let list = (0..<sizes).map { "{\"width\":\(300 + $0)}" }.joined(separator: ",")
            return #"{"container":{"height":100},"views":[\#(names)],"sizes":[\#(list)]}"#
        }
        let engine = SceneEngine()
        let refused = engine.solveSVG(try Self.prepare(scene(views: 999, sizes: 1_000)))
        #expect(refused.status == 422)
        #expect(refused.contentType == "application/problem+json")
        let problem = try JSONParser().parse(refused.body)
        let diagnostic = problem["diagnostics"]?.arrayValue?.first
        #expect(diagnostic?["code"]?.stringValue == "limit_exceeded")
        #expect(diagnostic?["path"]?.stringValue == "$.sizes")
        #expect(diagnostic?["message"]?.stringValue?.hasPrefix("The wireframe would draw 1000000 frames; at most 150000") == true)
        #expect(engine.solveSVG(try Self.prepare(scene(views: 150, sizes: 1_000))).status == 422)   // 151,000
        #expect(engine.solveSVG(try Self.prepare(scene(views: 2, sizes: 3))).status == 200)
    }

    @Test func absolutePositionsAddTheParentsOffsets() throws {
        let answer = SceneEngine().solveSVG(try Self.prepare(Self.contractScene))
        let rects = Self.viewRects(try Self.parse(answer.body))[0]
        // card (16, 20); title (52, 20) and icon (20, 18.5) inside it (contract, "Responses").
        func absolute(_ name: String) -> [Double?] {
            ["x", "y", "width", "height"].map { Self.number(rects[name], $0) }
        }
        #expect(absolute("superview") == [0, 0, 375, 667])
        #expect(absolute("card") == [16, 20, 343, 61])
        #expect(absolute("title") == [68, 40, 271, 21])
        #expect(absolute("icon") == [36, 38.5, 24, 24])
    }

    @Test func nestedViewsAreInsideTheirParentsGroup() throws {
        let elements = try Self.parse(SceneEngine().solveSVG(try Self.prepare(Self.contractScene)).body)
        let groups = elements.filter { $0.name == "g" && $0.attributes["data-view"] != nil }
        let enclosing = Dictionary(uniqueKeysWithValues: groups.map { ($0.attributes["data-view"] ?? "", $0.enclosingView ?? "") })
        #expect(enclosing == ["superview": "", "card": "superview", "icon": "card", "title": "card"])
        // Document order: parents first, children by name.
        #expect(groups.map { $0.attributes["data-view"] ?? "" } == ["superview", "card", "icon", "title"])
        let container = try #require(groups.first)
        #expect(container.attributes["class"] == "view container")
    }

    @Test func labelsGiveNameAndReportedFrame() throws {
        let elements = try Self.parse(SceneEngine().solveSVG(try Self.prepare(Self.contractScene)).body)
        let labels = Dictionary(uniqueKeysWithValues: elements.filter { $0.name == "text" && $0.attributes["data-for"] != nil }
            .map { ($0.attributes["data-for"] ?? "", "\($0.attributes["class"] ?? ""): \($0.text)") })
        // The icon (24×24) is too small for its label: it is written just outside it.
        #expect(labels == ["superview": "label: superview  0,0 375×667", "card": "label: card  16,20 343×61",
                           "icon": "label outside: icon  20,18.5 24×24", "title": "label: title  52,20 271×21"])
    }

    @Test func viewBoxFitsTheContainerWithMargins() throws {
        let elements = try Self.parse(SceneEngine().solveSVG(try Self.prepare(Self.contractScene)).body)
        let svg = try #require(elements.first)
        #expect(svg.attributes["viewBox"] == "0 0 407 699")
        // A phone screen fits 1,200 × 900 px at 1 px per point.
        #expect(svg.attributes["width"] == "407" && svg.attributes["height"] == "699" && svg.attributes["data-scale"] == "1")
        #expect(svg.attributes["data-panels"] == "1")
        let panel = try #require(elements.first { $0.attributes["class"] == "panel" })
        #expect(panel.attributes["transform"] == "translate(16 16)")
    }

    @Test func viewBoxGrowsForViewsOutsideTheContainer() throws {
        let scene = #"{"container": {"width": 100, "height": 50}, "views": ["a"], "constraints": ["a.left == -30", "a.top == 10", "a.width == 200", "a.height == 60"]}"#
        let elements = try Self.parse(SceneEngine().solveSVG(try Self.prepare(scene)).body)
        // x from -30 to 170 (200 wide), y from 0 to 70: plus 16 on every side.
        #expect(elements.first?.attributes["viewBox"] == "0 0 232 102")
        let panel = try #require(elements.first { $0.attributes["class"] == "panel" })
        #expect(panel.attributes["transform"] == "translate(46 16)")
    }

    // MARK: - Warnings and escaping

    @Test func conflictMarksTheViewsOfTheConflictingConstraintsAndEscapesTheMessage() throws {
        let scene = #"{"container": {"width": 300, "height": 200}, "views": ["a", "b"], "constraints": ["H:|-[a]-[b(==a)]-|", "V:|-[a(40)]", "V:|-[b(40)]", {"id": "<too & 'wide'>", "equation": "a.width >= 500"}]}"#
        let prepared = try Self.prepare(scene)
        let engine = SceneEngine()
        let solved = try JSONParser().parse(engine.solve(prepared).body)
        guard case .array(let diagnostics)? = solved["diagnostics"],
              let conflict = diagnostics.first(where: { $0["code"] == .string("unsatisfiable_constraints") }),
              case .string(let message)? = conflict["message"] else {
            Issue.record("no conflict in \(solved)")
            return
        }
        #expect(message.contains(">=") && message.contains("'"))
        let answer = engine.solveSVG(prepared)
        #expect(answer.status == 200)
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(text.contains("&gt;="))
        #expect(text.contains("&#39;"))
        let elements = try Self.parse(answer.body)
        let classes = Dictionary(uniqueKeysWithValues: elements.filter { $0.name == "g" && $0.attributes["data-view"] != nil }
            .map { ($0.attributes["data-view"] ?? "", $0.attributes["class"] ?? "") })
        #expect(classes["a"] == "view warning conflict")
        let titles = elements.filter { $0.name == "title" }
        #expect(titles.contains { $0.enclosingView == "a" && $0.text == message })
    }

    @Test func ambiguousViewIsAWarningWithTheDiagnosticAsTitle() throws {
        let scene = #"{"container": {"width": 300, "height": 200}, "views": ["a", "b"], "constraints": ["H:|-[a(50)]", "V:|-[a(40)]", "H:|-[b(60)]", "b.height == 10"]}"#
        let prepared = try Self.prepare(scene)
        let answer = SceneEngine().solveSVG(prepared)
        let elements = try Self.parse(answer.body)
        let groups = elements.filter { $0.name == "g" && $0.attributes["data-view"] != nil }
        let b = try #require(groups.first { $0.attributes["data-view"] == "b" })
        let a = try #require(groups.first { $0.attributes["data-view"] == "a" })
        #expect(b.attributes["class"] == "view warning ambiguous")
        #expect(a.attributes["class"] == "view")
        let solved = try JSONParser().parse(SceneEngine().solve(prepared).body)
        guard case .array(let diagnostics)? = solved["diagnostics"] else {
            Issue.record("no diagnostics in \(solved)")
            return
        }
        let expected = diagnostics.compactMap { diagnostic -> String? in
            guard diagnostic["view"] == .string("b"), case .string(let message)? = diagnostic["message"] else { return nil }
            return message
        }
        #expect(expected == ["The y of 'b' is ambiguous: other layouts satisfy the same constraints equally well"])
        let title = try #require(elements.first { $0.name == "title" && $0.enclosingView == "b" })
        #expect(title.text == expected.joined(separator: "\n"))
        #expect(!elements.contains { $0.name == "title" && $0.enclosingView == "a" })
    }

    @Test func negativeSizeStillGivesAValidRectangle() throws {
        let scene = #"{"container": {"width": 100, "height": 100}, "views": ["a"], "constraints": ["a.left == 50", "a.top == 10", "a.width == -20", "a.height == 30"]}"#
        let answer = SceneEngine().solveSVG(try Self.prepare(scene))
        let elements = try Self.parse(answer.body)
        let rect = try #require(Self.viewRects(elements).first?["a"])
        #expect(rect.attributes["data-width"] == "-20")
        #expect(rect.attributes["x"] == "30")
        #expect(rect.attributes["width"] == "20")
        let group = try #require(elements.first { $0.attributes["data-view"] == "a" })
        #expect(group.attributes["class"] == "view warning negative")
        // Flagged: a cross over the rect, and the problem written below the drawing.
        let flag = try #require(elements.first { $0.name == "path" && $0.enclosingView == "a" })
        #expect(flag.attributes["d"] == "M30 10L50 40M50 10L30 40")
        #expect(elements.contains { $0.attributes["class"] == "problem" && $0.text.hasPrefix("• Negative size: ") })
    }

    @Test("escaping", arguments: [
        ("a & b", "a &amp; b"), ("<g>", "&lt;g&gt;"), (#"say "hi""#, "say &quot;hi&quot;"),
        ("it's", "it&#39;s"), ("line\nbreak", "line&#10;break"), ("bell\u{7}", "bell\u{FFFD}"),
        ("nul\u{0}", "nul\u{FFFD}"), ("\u{FFFF}", "\u{FFFD}"), ("w×h", "w×h"),
    ])
    func escaping(_ input: String, _ expected: String) {
        #expect(SVGWriter.escaped(input) == expected)
    }

    @Test func namesReferencedByConstraintText() {
        #expect(WireframeRenderer.referencedNames(in: "green.leading == red.trailing + 8") == ["green", "red"])
        #expect(WireframeRenderer.referencedNames(in: "superview.width == 0 @50") == ["superview"])
        #expect(WireframeRenderer.referencedNames(in: "a.width >= 0.5 * b.height + pad") == ["a", "b"])
    }

    // MARK: - Other shapes

    @Test func coordinatesRootUsesTheReportedFramesAsPositions() throws {
        let scene = #"{"container": {"width": 200, "height": 200}, "views": {"outer": {}, "inner": {"parent": "outer"}}, "constraints": ["H:|-10-[outer(100)]", "V:|-20-[outer(100)]", "H:|-5-[inner(30)]", "V:|-6-[inner(40)]"], "options": {"coordinates": "root"}}"#
        let rects = Self.viewRects(try Self.parse(SceneEngine().solveSVG(try Self.prepare(scene)).body))[0]
        #expect(rects["inner"]?.attributes["data-x"] == "15")
        #expect(rects["inner"]?.attributes["x"] == "15")
        #expect(rects["inner"]?.attributes["y"] == "26")
    }

    @Test func sizesGiveOnePanelPerSizeSideBySide() throws {
        let scene = #"{"views": ["a"], "constraints": ["H:|-10-[a]-10-|", "V:|-10-[a]-10-|"], "sizes": [{"width": 100, "height": 50}, {"width": 200, "height": 80}, {"width": 60, "height": 40}]}"#
        let prepared = try Self.prepare(scene)
        let engine = SceneEngine()
        let elements = try Self.parse(engine.solveSVG(prepared).body)
        #expect(elements.first?.attributes["data-panels"] == "3")
        // 16 + 100 + 32 + 200 + 32 + 60 + 16 wide; 16 + 22 (caption) + 80 + 16 high.
        #expect(elements.first?.attributes["viewBox"] == "0 0 456 134")
        let panels = elements.filter { $0.attributes["class"] == "panel" }
        #expect(panels.map { $0.attributes["transform"] ?? "" } == ["translate(16 38)", "translate(148 38)", "translate(380 38)"])
        let captions = elements.filter { $0.attributes["class"] == "caption" }.map(\.text)
        #expect(captions == ["100×50", "200×80", "60×40"])

        let solved = try JSONParser().parse(engine.solve(prepared).body)
        guard case .array(let layouts)? = solved["layouts"] else {
            Issue.record("no layouts")
            return
        }
        let rects = Self.viewRects(elements)
        try #require(rects.count == 3 && layouts.count == 3)
        for (panel, layout) in zip(rects, layouts) {
            for (name, frame) in Self.frames(layout["frames"]) {
                #expect(["data-x", "data-y", "data-width", "data-height"].map { Self.number(panel[name], $0) } == frame.map { Optional($0) })
            }
        }
        #expect(Self.number(rects[2]["a"], "width") == 40)
    }

    @Test func compileErrorIsTheSameProblemAsSolve() throws {
        let prepared = try Self.prepare(#"{"views": ["red"], "constraints": ["H:|-0-[red-0-|"]}"#)
        let engine = SceneEngine()
        let answer = engine.solveSVG(prepared)
        let json = engine.solve(prepared)
        #expect(answer.status == 422)
        #expect(answer.contentType == "application/problem+json")
        #expect(answer.body == json.body)
        #expect(!answer.isCacheable)
    }

    @Test func rejectedLayoutIsA422() throws {
        let prepared = try Self.prepare(#"{"container": {"width": 100, "height": 100}, "views": ["a"], "constraints": ["a.width == 10", "a.width == 20", "a.left == 0", "a.top == 0", "a.height == 5"], "options": {"conflicts": "error"}}"#)
        let answer = SceneEngine().solveSVG(prepared)
        #expect(answer.status == 422)
        #expect(answer.contentType == "application/problem+json")
    }

    @Test func sameSceneGivesTheSameBytes() throws {
        let engine = SceneEngine()
        let first = engine.solveSVG(try Self.prepare(Self.contractScene)).body
        let reordered = #"{"constraints": ["H:|-pad-[card]-pad-|", "V:|-20-[card(>=44)]", {"options": ["alignAllCenterY"], "vfl": "H:|-[icon]-[title]-|"}, "V:|-[title]-|", {"priority": 750, "equation": "title.width >= 80", "id": "title-min"}], "metrics": {"pad": 16}, "views": {"icon": {"parent": "card", "intrinsicSize": {"width": 24, "height": 24}, "hugging": {"horizontal": 251}, "compressionResistance": {"horizontal": 749}}, "title": {"parent": "card", "intrinsicSize": {"width": 120, "height": 21}, "baseline": 17}, "card": {}}, "container": {"height": 667, "width": 375}}"#
        #expect(engine.solveSVG(try Self.prepare(reordered)).body == first)
        #expect(engine.solveSVG(try Self.prepare(Self.contractScene)).body == first)
    }

    @Test func rejectedEntryOfSizesIsAPanelWithoutViews() throws {
        let scene = #"{"views": ["a"], "constraints": ["a.width == 150", "H:|[a]-(>=0)-|", "V:|[a(20)]|"], "sizes": [{"width": 200, "height": 20}, {"width": 100, "height": 20}], "options": {"conflicts": "error"}}"#
        let prepared = try Self.prepare(scene)
        let answer = SceneEngine().solveSVG(prepared)
        #expect(answer.status == 200)
        let elements = try Self.parse(answer.body)
        let panels = Self.viewRects(elements)
        try #require(panels.count == 2)
        #expect(Set(panels[0].keys) == ["superview", "a"])
        #expect(Set(panels[1].keys) == ["superview"])
        let rejected = try #require(elements.first { $0.attributes["class"] == "view container warning rejected" })
        #expect(rejected.attributes["data-view"] == "superview")
        let title = try #require(elements.first { $0.name == "title" && $0.enclosingView == "superview" })
        #expect(title.text.hasPrefix("Unable to simultaneously satisfy constraints"))
    }

    // MARK: - HTTP

    @Test("Accept and ?format choose the wireframe", arguments: [
        (nil, nil, false), ("*/*", nil, false), ("application/json", nil, false),
        ("image/svg+xml", nil, true), ("image/*", nil, true), ("IMAGE/SVG+XML; q=0.9", nil, true),
        ("application/json, image/svg+xml", nil, false), ("image/svg+xml, application/json;q=0.8", nil, true),
        ("image/svg+xml;q=0.5, */*", nil, false), ("image/svg+xml;q=0", nil, false),
        (nil, "format=svg", true), ("image/svg+xml", "format=json", false), (nil, "a=1&format=svg", true),
        (nil, "format=svgz", false),
    ] as [(String?, String?, Bool)])
    func negotiation(_ accept: String?, _ query: String?, _ expected: Bool) {
        #expect(LayoutService.prefersWireframe(accept: accept, query: query) == expected)
    }

    @Test func serviceAnswersTheWireframeWithVaryAccept() throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        defer { service.store.close() }
        let request = HTTPRequest(method: .POST, target: "/solve?format=svg",
                                  headers: ["Content-Type": "application/json"], body: Array(Self.contractScene.utf8))
        #expect(LayoutService.prefersWireframe(request))
        let response = service.solveWireframe(request, turn: HeldTurn(nil, isLarge: false))
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "image/svg+xml; charset=utf-8")
        #expect(response.headers["Vary"] == "Accept")
        #expect(response.body == SceneEngine().solveSVG(try Self.prepare(Self.contractScene)).body)

        let malformed = service.solveWireframe(HTTPRequest(method: .POST, target: "/solve", body: Array("{".utf8)), turn: HeldTurn(nil, isLarge: false))
        #expect(malformed.status == 400)
        #expect(malformed.headers["Content-Type"] == "application/problem+json")
        let wrongType = service.solveWireframe(HTTPRequest(method: .POST, target: "/solve",
                                                           headers: ["Content-Type": "text/plain"], body: Array("{}".utf8)),
                                                turn: HeldTurn(nil, isLarge: false))
        #expect(wrongType.status == 415)
    }

    @Test func playgroundIsSelfContained() {
        let page = String(decoding: PlaygroundPage.html, as: UTF8.self)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        for hook in [#"id="scene""#, #"id="wireframe""#, #"id="diagnostics""#, #"id="examples""#, "\"caret\""] {
            #expect(page.contains(hook), "\(hook)")
        }
        #expect(!page.contains("http://") && !page.contains("https://"))
        #expect(!page.contains("src=") && !page.contains("href="))
    }
}
