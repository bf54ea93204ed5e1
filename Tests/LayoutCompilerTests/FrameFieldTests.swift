import Cassowary
@testable import LayoutCompiler
import Testing

/// `FrameField` is the one numbering of frame fields: its key is `4 × view + field`, the
/// solver variable's id; origin fields key the mention index; and the reported fields
/// (``ViewHierarchy/frameFields(relativeToRoot:)``) sit at `reportedIndex`.
struct FrameFieldTests {
    @Test func aKeyIsFourPerItemInFrameOrder() {
        #expect(FrameField.Field.allCases.map(\.name) == ["x", "y", "width", "height"])
        #expect(FrameField.Field(name: "height") == .height)
        #expect(FrameField.Field(name: "top") == nil)
        #expect(FrameField(view: 3, .width).key == 14)
        #expect(FrameField(view: 0, .x).key == 0)
        for view in 0..<5 {
            for field in FrameField.Field.allCases {
                let frameField = FrameField(view: view, field)
                #expect(FrameField(key: frameField.key) == frameField)
                #expect(frameField.variable == Variable(id: frameField.key))
            }
        }
        #expect(FrameField.keyCount(items: 7) == 28)
        #expect(FrameField.origin(of: 2, horizontal: true) == FrameField(view: 2, .x))
        #expect(FrameField.origin(of: 2, horizontal: false) == FrameField(view: 2, .y))
        #expect(FrameField.size(of: 2, horizontal: true) == FrameField(view: 2, .width))
        #expect(FrameField.size(of: 2, horizontal: false) == FrameField(view: 2, .height))
        #expect(FrameField(view: 0, .x).stackGuideVariable == Variable(id: -1))
        #expect(FrameField(view: 1, .height).stackGuideVariable == Variable(id: -8))
    }

    /// The hierarchy's variables are the fields' variables, and every reported field is
    /// at its `reportedIndex` (the container's width and height first, then four per
    /// view and layout guide in hierarchy order).
    @Test func reportedFieldsSitAtTheirReportedIndex() throws {
        let json = #"{"container":{"width":400,"height":300},"views":{"card":{},"label":{"parent":"card"}},"guides":{"gap":{"owner":"card"}},"constraints":["H:|-20-[card]-20-|","V:|-40-[card(200)]"]}"#
        let compiled = SceneCompiler(scene: try SceneDecoder().decode(body: Array(json.utf8))).compile()
        let hierarchy = compiled.hierarchy
        #expect(hierarchy.names.prefix(4) == ["superview", "card", "label", "gap"])
        for view in 0..<hierarchy.itemCount {
            #expect(hierarchy.xVariable(view) == FrameField(view: view, .x).variable)
            #expect(hierarchy.yVariable(view) == FrameField(view: view, .y).variable)
            #expect(hierarchy.widthVariable(view) == FrameField(view: view, .width).variable)
            #expect(hierarchy.heightVariable(view) == FrameField(view: view, .height).variable)
        }
        let reported = hierarchy.frameFields(relativeToRoot: false).fields
        #expect(reported.count == 2 + 4 * 3)   // the container's size, card, label, gap
        for (index, field) in reported.enumerated() {
            #expect(field.reportedIndex == index)
        }
        #expect(reported.first == FrameField(view: 0, .width))
        #expect(reported.last == FrameField(view: 3, .height))
        #expect(ViewHierarchy.index(ofSceneView: 0) == 1)
        #expect(compiled.scene.spec(ofView: 2).name == "label")
    }
}
