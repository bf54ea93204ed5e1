import LayoutCompiler
@testable import LayoutService
import Testing

/// Stack views in the SVG wireframe: a stack's group has the class `stack`,
/// drawn dashed by the stylesheet; its arranged views are inside it at their frames.
struct StackWireframeTests {
    @Test func stacksAreDrawnDashedAroundTheirArrangedViews() throws {
        // A fill row 300 x 40 at (10, 10): a 40 (hugging 251) at x 10, b from 10 + 40 + 8 = 58,
        // 300 - 40 - 8 = 252 wide; both y 10, 40 tall (absolute in the drawing).
        let prepared = try WireframeTests.prepare(#"""
        {"container":{"width":320,"height":60},
         "views":{"row":{"stack":{"spacing":8,"arranged":["a","b"]}},
                  "a":{"intrinsicSize":{"width":40,"height":20},"hugging":{"horizontal":251}},
                  "b":{"intrinsicSize":{"width":60,"height":20}}},
         "constraints":["H:|-10-[row]-10-|","V:|-10-[row]-10-|"]}
        """#)
        let elements = try WireframeTests.parse(SceneEngine().solveSVG(prepared).body)
        let classes = Dictionary(uniqueKeysWithValues: elements.filter { $0.name == "g" && $0.attributes["data-view"] != nil }
            .map { ($0.attributes["data-view"] ?? "", $0.attributes["class"] ?? "") })
        #expect(classes["row"] == "view stack")
        #expect(classes["a"] == "view alternate")
        #expect(WireframeRenderer.stylesheet.contains(".view.stack > rect { stroke-dasharray: 6 3; }"))
        let rects = WireframeTests.viewRects(elements)[0]
        func absolute(_ name: String) -> [Double?] { ["x", "y", "width", "height"].map { WireframeTests.number(rects[name], $0) } }
        #expect(absolute("row") == [10, 10, 300, 40])
        #expect(absolute("a") == [10, 10, 40, 40])
        #expect(absolute("b") == [58, 10, 252, 40])
        let enclosing = elements.first { $0.name == "g" && $0.attributes["data-view"] == "b" }?.enclosingView
        #expect(enclosing == "row")
    }
}
