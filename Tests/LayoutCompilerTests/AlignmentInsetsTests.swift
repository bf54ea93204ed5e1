import LayoutCompiler
import Testing

/// `alignmentInsets` (contract, view members; UIKit's `alignmentRectInsets`): constraints,
/// intrinsic sizes and stacks act on the alignment rectangle, the answered frame is it
/// grown by the insets, margins are measured from the frame.
struct AlignmentInsetsTests {
    /// A UISwitch: its frame is 2 points wider on the trailing side than the 49 × 31
    /// rectangle its constraints place 16 points from the trailing edge.
    @Test func aSwitchsFrameIsItsAlignmentRectangleGrown() throws {
        let (_, solved) = try layout(#"""
        {"container": {"width": 375, "height": 100},
         "views": {"toggle": {"intrinsicSize": {"width": 49, "height": 31}, "alignmentInsets": {"right": 2}}},
         "constraints": ["toggle.trailing == superview.trailing - 16", "toggle.centerY == superview.centerY"]}
        """#)
        #expect(solved.diagnostics.isEmpty)
        #expect(solved.frame("toggle") == frame(310, 34.5, 51, 31))
    }

    /// A UISlider: ±2 horizontally and +1 at the bottom; VFL spaces act on the rectangle.
    @Test func aSlidersFrameGrowsOnThreeSides() throws {
        let (_, solved) = try layout(#"""
        {"container": {"width": 375, "height": 100},
         "views": {"slider": {"intrinsicSize": {"height": 30}, "alignmentInsets": {"left": 2, "right": 2, "bottom": 1}}},
         "constraints": ["H:|-20-[slider]-20-|", "slider.top == superview.top + 10"]}
        """#)
        #expect(solved.frame("slider") == frame(18, 10, 339, 31))
    }

    /// A parent with insets: its subviews are placed relative to its frame; a constraint
    /// to its edges uses its alignment rectangle (`dot`, `half`: 110 = 10 + 100 in its
    /// bounds), to its margins its frame (`mark`: 8 from the frame), and a position
    /// compared with a constant alone is measured from its frame (`pin`).
    @Test func subviewsOfAViewWithInsetsArePlacedInItsFrame() throws {
        let (_, solved) = try layout(#"""
        {"container": {"width": 375, "height": 200},
         "views": {"box": {"alignmentInsets": {"top": 4, "left": 10}},
                   "dot": {"parent": "box"}, "mark": {"parent": "box"}, "half": {"parent": "box"}, "pin": {"parent": "box"}},
         "constraints": ["H:|-20-[box(100)]", "V:|-30-[box(50)]",
                         "dot.left == box.left", "dot.top == box.top", "dot.width == 10", "dot.height == 10",
                         "mark.leading == box.leadingMargin", "mark.bottom == box.bottomMargin", "mark.width == 5", "mark.height == 5",
                         "half.left == box.right * 0.5", "half.top == 0", "half.width == 1", "half.height == 1",
                         "pin.left == 5", "pin.top == 6", "pin.width == 2", "pin.height == 2"]}
        """#)
        #expect(solved.frame("box") == frame(10, 26, 110, 54))
        #expect(solved.frame("dot") == frame(10, 4, 10, 10))
        #expect(solved.frame("mark") == frame(8, 41, 5, 5))
        #expect(solved.frame("half") == frame(55, 0, 1, 1))
        #expect(solved.frame("pin") == frame(5, 6, 2, 2))
    }

    /// A stack spaces and aligns its arranged views by their alignment rectangles, as
    /// UIStackView does: the label is 8 points after the switch's rectangle, not its frame.
    @Test func aStackArrangesAlignmentRectangles() throws {
        let (_, solved) = try layout(#"""
        {"container": {"width": 375, "height": 100},
         "views": {"row": {"stack": {"axis": "horizontal", "alignment": "center", "spacing": 8, "arranged": ["toggle", "caption"]}},
                   "toggle": {"intrinsicSize": {"width": 49, "height": 31}, "alignmentInsets": {"right": 2}},
                   "caption": {"intrinsicSize": {"width": 40, "height": 20}}},
         "constraints": ["row.leading == superview.leading + 16", "row.top == superview.top + 10"]}
        """#)
        #expect(solved.frame("row") == frame(16, 10, 97, 31))
        #expect(solved.frame("toggle") == frame(0, 0, 51, 31))
        #expect(solved.frame("caption") == frame(57, 5.5, 40, 20))
    }

    /// The insets are left and right, not leading and trailing: under right-to-left the
    /// frame still grows to the right.
    @Test func rightToLeftKeepsTheInsetsSides() throws {
        let (_, solved) = try layout(#"""
        {"container": {"width": 375, "height": 100},
         "views": {"toggle": {"intrinsicSize": {"width": 49, "height": 31}, "alignmentInsets": {"right": 2}}},
         "constraints": ["toggle.leading == superview.leading + 16", "toggle.top == superview.top"],
         "options": {"layoutDirection": "rightToLeft"}}
        """#)
        #expect(solved.frame("toggle") == frame(310, 0, 51, 31))
    }

    /// Pixel alignment (`displayScale`) rounds the answered frame, not the rectangle.
    @Test func displayScaleRoundsTheFrame() throws {
        let (_, solved) = try layout(#"""
        {"container": {"width": 100, "height": 100},
         "views": {"tile": {"alignmentInsets": {"left": 0.2}}},
         "constraints": ["tile.left == 10", "tile.top == 10", "tile.width == 20", "tile.height == 20"],
         "options": {"displayScale": 2}}
        """#)
        #expect(solved.frame("tile") == frame(10, 10, 20, 20))
    }

    func rejection(_ json: String) -> SceneRejection? {
        do {
            _ = try SceneDecoder().decode(body: Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// Wrong types and unknown sides are malformed (400), lengths past the magnitude limit
    /// invalid (422), each with its path.
    @Test func badInsetsAreRejectedWithTheirPath() throws {
        let notObject = try #require(rejection(#"{"views": {"a": {"alignmentInsets": 2}}}"#))
        #expect(notObject.reason == .malformed)
        #expect(notObject.diagnostics.map(\.path) == ["$.views.a.alignmentInsets"])
        let notNumber = try #require(rejection(#"{"views": {"a": {"alignmentInsets": {"left": "2"}}}}"#))
        #expect(notNumber.reason == .malformed)
        #expect(notNumber.diagnostics.map(\.path) == ["$.views.a.alignmentInsets.left"])
        let unknownSide = try #require(rejection(#"{"views": {"a": {"alignmentInsets": {"leading": 2}}}}"#))
        #expect(unknownSide.diagnostics.map(\.path) == ["$.views.a.alignmentInsets.leading"])
        let huge = try #require(rejection(#"{"views": {"a": {"alignmentInsets": {"bottom": 1e13}}}}"#))
        #expect(huge.reason == .invalid)
        #expect(huge.diagnostics.map(\.code) == [.limitExceeded])
        #expect(huge.diagnostics.map(\.path) == ["$.views.a.alignmentInsets.bottom"])
    }

    /// Insets of zero, given or not, are the same scene.
    @Test func zeroInsetsChangeNothing() throws {
        let given = try layout(#"{"container":{"width":100,"height":100},"views":{"a":{"alignmentInsets":{"top":0}}},"constraints":["H:|-10-[a]-10-|","V:|-10-[a]-10-|"]}"#)
        let absent = try layout(#"{"container":{"width":100,"height":100},"views":{"a":{}},"constraints":["H:|-10-[a]-10-|","V:|-10-[a]-10-|"]}"#)
        #expect(given.layout.frame("a") == frame(10, 10, 80, 80))
        #expect(absent.layout.frame("a") == frame(10, 10, 80, 80))
    }
}
