import LayoutCompiler
@testable import LayoutService
import Testing

/// `/validate` lays `sizes` out as `/solve` does, so both spend the same work: a scene
/// `/solve` answers within `maxSolverWork` is valid (a fresh user's 100 sizes were a
/// `limit_exceeded` on /validate after 1.75 s and 200 on /solve in 0.09 s).
struct ValidateWorkTests {
    /// 30 views of equal width across the container, at 40 widths: one full solve and 39
    /// resizes fit in 20,000 cell operations, 40 full solves do not.
    static let scene: String = {
        let names = (0..<30).map { "v\($0)" }
        let row = "H:|-[v0]-" + names.dropFirst().map { "[\($0)(==v0)]" }.joined(separator: "-") + "-|"
        let columns = names.map { "\"V:|-[\($0)(20)]\"" }.joined(separator: ",")
        let sizes = (0..<40).map { "{\"width\":\(600 + $0 * 10),\"height\":100}" }.joined(separator: ",")
        return #"{"container":{"width":1000,"height":100},"views":[\#(names.map { "\"\($0)\"" }.joined(separator: ","))],"#
            + #""constraints":["\#(row)",\#(columns)],"sizes":[\#(sizes)]}"#
    }()

    @Test func validateSpendsTheWorkSolveDoesOnSizes() throws {
        var limits = SceneLimits()
        limits.maxSolverWork = 20_000
        let engine = SceneEngine(limits: limits)
        guard case .success(let prepared) = engine.prepare(body: Array(Self.scene.utf8), resolveGroup: { _ in nil }) else {
            Issue.record("not prepared")
            return
        }
        let solved = try JSONParser().parse(engine.solve(prepared).body)
        guard case .array(let layouts)? = solved["layouts"] else { Issue.record("no layouts"); return }
        #expect(layouts.count == 40)
        #expect(layouts.allSatisfy { $0["frames"] != nil && $0["diagnostics"] == .array([]) })
        let validated = try JSONParser().parse(engine.validate(prepared).body)
        #expect(validated == .object([("valid", .bool(true)), ("diagnostics", .array([]))]))
    }
}
