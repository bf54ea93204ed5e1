import Foundation
import LayoutService
import Testing
import Wireframe

/// The wireframe of many `sizes` (the default fit grows in height) and `?width=`/`?scale=`
/// honoured exactly or their clamping named.
struct WireframeSizingTests {
    typealias Element = WireframeTests.Element

    static let twoViews = #""views":["red","green"],"constraints":["H:|-[red]-[green(==red)]-|","V:|-[red]-|","V:|-[green]-|"]"#

    /// The scene of /tmp/fresh2/ok.json at `count` sizes 300, 301, … × 400.
    static func manySizes(_ count: Int) -> String {
        let sizes = (0..<count).map { #"{"width":\#(300 + $0),"height":400}"# }.joined(separator: ",")
        return #"{"container":{"width":320,"height":480},\#(twoViews),"sizes":[\#(sizes)]}"#
    }

    static func root(_ scene: String, _ display: WireframeDisplay = WireframeDisplay()) throws -> (Element, [Element]) {
        let elements = try WireframeReadabilityTests.svg(scene, display: display)
        return (try #require(elements.first), elements)
    }

    @Test func manySizesGrowInHeight() throws {
        // (count, viewBox, width, height, data-scale): 32 / 300 px per point, the
        // 300-point panel 32 px wide (it was 0.04 px at 700 sizes, 4.5 px at 400).
        let expected: [(Int, String, String, String, String)] = [
            (400, "0 0 11250 51456.25", "1200", "5488.666667", "0.106667"),
            (700, "0 0 11250 100375", "1200", "10706.666667", "0.106667"),
            (1_000, "0 0 11250 147668.75", "1200", "15751.333333", "0.106667"),
        ]
        for (count, viewBox, width, height, scale) in expected {
            let (svg, elements) = try Self.root(Self.manySizes(count))
            #expect(svg.attributes["viewBox"] == viewBox && svg.attributes["width"] == width
                        && svg.attributes["height"] == height && svg.attributes["data-scale"] == scale,
                    "\(count): \(svg.attributes)")
            let captions = elements.filter { $0.attributes["class"] == "caption" }.map(\.text)
            #expect(captions.count == count)
            #expect(captions.first == "300×400" && captions.last == "\(300 + count - 1)×400", "\(captions.prefix(3))")
            #expect(!captions.contains { $0.contains("…") })
            try WireframeReadabilityTests.expectReadable(elements)
        }
    }

    @Test func askedWidthsAreHonoured() throws {
        let one = #"{"container":{"width":320,"height":480},\#(Self.twoViews)}"#
        let three = #"{"container":{"width":320,"height":480},\#(Self.twoViews),"sizes":[{"width":320,"height":480},{"width":375,"height":667},{"width":768,"height":1024}]}"#
        // (scene, asked width, width, data-scale, data-requested-width, data-clamped)
        let widths: [(String, Int, String, String, String?, String?)] = [
            (one, 16, "480", "0.00208333", "16", "margins lists"),
            (one, 400, "400", "1.15", nil, nil),
            (one, 800, "800", "2.4", nil, nil),
            (three, 16, "480", "0.000683527", "16", "margins lists"),
            // A legend of more than 8 entries no longer widens it to 1,200 px.
            (three, 400, "400", "0.207792", nil, nil),
            (three, 800, "800", "0.481203", nil, nil),
            (three, 1_600, "1600", "1.02802", nil, nil),
        ]
        for (scene, asked, width, scale, requested, clamped) in widths {
            let (svg, _) = try Self.root(scene, WireframeDisplay(sizing: .width(asked)))
            #expect(svg.attributes["width"] == width && svg.attributes["data-scale"] == scale
                        && svg.attributes["data-requested-width"] == requested && svg.attributes["data-clamped"] == clamped,
                    "\(asked): \(svg.attributes)")
        }
        // (scene, asked scale, width, data-scale, data-requested-scale, data-clamped)
        let scales: [(String, Double, String, String, String?, String?)] = [
            (one, 0.01, "480", "0.01", nil, nil),
            (three, 0.01, "480", "0.01", nil, nil),
            (one, 1, "352", "1", nil, nil),
            (three, 1, "1559", "1", nil, nil),
            (one, 16, "5152", "16", nil, nil),
            (three, 16, "16384", "11.1333", "16", "max-dimension"),
        ]
        for (scene, asked, width, scale, requested, clamped) in scales {
            let (svg, _) = try Self.root(scene, WireframeDisplay(sizing: .scale(asked)))
            #expect(svg.attributes["width"] == width && svg.attributes["data-scale"] == scale
                        && svg.attributes["data-requested-scale"] == requested && svg.attributes["data-clamped"] == clamped,
                    "\(asked): \(svg.attributes)")
        }
    }
}
