import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing

/// Bounded answers at the service: every `diagnostics` list written is bounded (100 and one
/// warning), the answer's bytes grow with the input, and /validate shares one work
/// budget among its sizes as /solve does.
struct DiagnosticBoundsServiceTests {
    func prepared(_ engine: SceneEngine, _ body: String) throws -> SceneEngine.Prepared {
        guard case .success(let prepared) = engine.prepare(body: Array(body.utf8), resolveGroup: { _ in nil }) else {
            throw SceneEngineTests.PrepareFailed()
        }
        return prepared
    }

    /// `a.width >= 10` and `chains` strings `H:|[a]…[a]|` of `parts` views.
    func chains(_ chains: Int, parts: Int, sizes: String = "") -> String {
        let chain = "\"H:|" + String(repeating: "[a]", count: parts) + "|\""
        return #"{"container":{"width":375,"height":667},"views":["a"],"constraints":["a.width >= 10","#
            + Array(repeating: chain, count: chains).joined(separator: ",") + "]" + sizes + "}"
    }

    func diagnostics(_ answer: EngineAnswer) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        return try #require(object["diagnostics"] as? [[String: Any]])
    }

    @Test func theAnswerToManyConflictsIsAHundredAndAWarning() throws {
        let engine = SceneEngine()
        // 3 × 1,999 conflicts and 2 ambiguous fields: 5,999 found.
        let body = chains(3, parts: 2_000)
        let solved = engine.solve(try prepared(engine, body))
        #expect(solved.status == 200)
        let listed = try diagnostics(solved)
        #expect(listed.count == 101)
        #expect(listed.last?["message"] as? String == "5899 more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)")
        #expect(listed.last?["severity"] as? String == "warning")
        // Each source is a 256-scalar window of the 6,004-character string, the caret on
        // the `]` of the connection `[a][a]`, as in the whole string at the same place.
        // The first 98 conflicts, then a's two ambiguous fields (each code keeps its first).
        #expect(listed.prefix(100).map { $0["code"] as? String } == Array(repeating: "unsatisfiable_constraints", count: 98) + ["ambiguous_layout", "ambiguous_layout"])
        let chain = Array(("H:|" + String(repeating: "[a]", count: 2_000) + "|").unicodeScalars)
        for diagnostic in listed.prefix(98) {
            let source = try #require(diagnostic["source"] as? String)
            let column = try #require(diagnostic["column"] as? Int)
            let offset = diagnostic["sourceOffset"] as? Int ?? 0
            #expect(source.unicodeScalars.count == 256)
            #expect(Array(source.unicodeScalars)[column] == "]")
            #expect(chain[offset + column] == "]" && chain[offset + column - 2] == "[")
        }
        // About 760 bytes a diagnostic: the 18 KB body's answer stays under 96 KB (it was 40 MB).
        #expect(solved.body.count < 96 << 10)
        // Ten times the chain, the same answer size within the column digits.
        let longer = engine.solve(try prepared(engine, chains(3, parts: 20_000)))
        #expect(longer.body.count < 96 << 10)
        #expect(abs(longer.body.count - solved.body.count) < 1_000)

        let validated = engine.validate(try prepared(engine, body))
        let validList = try diagnostics(validated)
        #expect(validList.count == 101)
        #expect(validList.last?["message"] as? String == "5899 more diagnostics were found and left out: a list holds at most 100 (limit maxDiagnostics)")
    }

    @Test func validateSharesOneWorkBudgetAmongItsSizes() throws {
        let one = chains(1, parts: 40)
        let many = chains(1, parts: 40, sizes: #","sizes":["# + Array(repeating: #"{"width":375,"height":667}"#, count: 400).joined(separator: ",") + "]")
        func overBudget(_ body: String, _ work: Int) throws -> Bool {
            var limits = SceneLimits()
            limits.maxSolverWork = work
            let engine = SceneEngine(limits: limits)
            return try diagnostics(engine.validate(try prepared(engine, body))).contains {
                $0["code"] as? String == "limit_exceeded" && ($0["message"] as? String)?.contains("maxSolverWork") == true
            }
        }
        // The least power of two that one size fits in: under twice its work.
        var work = 1_024
        while try overBudget(one, work) { work *= 2 }
        // 400 sizes from scratch need 400 times that: over the budget of the request.
        #expect(try overBudget(many, work))
        #expect(try !overBudget(many, 1_000 * work))
    }
}
