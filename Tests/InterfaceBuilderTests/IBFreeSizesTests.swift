import Testing
import LayoutCompiler
@testable import InterfaceBuilder

/// Free sizes (``SceneBuilder/sizeFreeSizes(of:)``) in hierarchies with more free sizes
/// than a diagnostics list holds (``LayoutDiagnostic/maxCount``).
struct IBFreeSizesTests {
    /// 60 views placed by their leading and top edges only: 120 free sizes, past the 100
    /// `ambiguous_layout` diagnostics one solve lists. Every one is taken from the recorded
    /// frame, the import is not refused as work beyond the budget, and the scene solves to
    /// the recorded frames without ambiguity.
    @Test func freeSizesPastTheDiagnosticsBoundAreAllTaken() throws {
        let count = 60
        var subviews = "", constraints = ""
        for index in 0..<count {
            let (x, y) = (Double(index % 6) * 60, Double(index / 6) * 40)
            subviews += "<view translatesAutoresizingMaskIntoConstraints=\"NO\" id=\"v\(index)\">\(IBMappingTests.rect(x, y, 50, 30 + Double(index % 3)))</view>\n"
            constraints += "<constraint firstItem=\"v\(index)\" firstAttribute=\"leading\" secondItem=\"root\" secondAttribute=\"leading\" constant=\"\(x)\" id=\"l\(index)\"/>\n"
            constraints += "<constraint firstItem=\"v\(index)\" firstAttribute=\"top\" secondItem=\"root\" secondAttribute=\"top\" constant=\"\(y)\" id=\"t\(index)\"/>\n"
        }
        let hierarchy = try IBMappingTests.single(IBMappingTests.xib("""
            <view id="root">\(IBMappingTests.rect(0, 0, 375, 667))
                <subviews>\(subviews)</subviews>
                <constraints>\(constraints)</constraints>
            </view>
        """))
        let sized = hierarchy.notes.filter { $0.hasPrefix("The constraints leave the width and height of ") }
        #expect(sized.count == count)
        let (frames, diagnostics) = try IBMappingTests.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.prefix(3).map(\.message))")
        for (name, recorded) in hierarchy.recordedFrames where name != "superview" {
            #expect(frames[name] == recorded, "\(name)")
        }
        #expect(frames.count == count + 1)
    }
}
