import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing

extension CorpusTests {
    /// A corpus case file (`{"scene", "expect"}`) solved by a fresh engine, as `/solve`
    /// answers it: the case, its answer and the answer parsed.
    static func solveCase(at url: URL) throws -> (testCase: JSONValue, answer: EngineAnswer, response: JSONValue) {
        let testCase = try JSONParser().parse([UInt8](try Data(contentsOf: url)))
        var writer = JSONWriter()
        writer.value(try #require(testCase["scene"]))
        let engine = SceneEngine()
        let answer: EngineAnswer
        switch engine.prepare(body: writer.bytes, resolveGroup: { _ in nil }) {
        case .success(let prepared): answer = engine.solve(prepared)
        case .failure(let failure): answer = engine.problem(status: failure.status, diagnostics: failure.diagnostics)
        }
        return (testCase, answer, try JSONParser().parse(answer.body))
    }
}
