import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing

/// The v1.2 corpus cases of labels (`../shared/corpus/v1.2`) through the scene engine:
/// status, frames (as ``CorpusTests`` compares them), diagnostics' codes and each label's
/// `text` answer (`lines`, `truncated`) equal to `expect.text`.
struct TextCorpusTests {
    static let directory = CorpusTests.corpusDirectory.appendingPathComponent("v1.2")
    static let cases = [
        "401_single_line_label.json",
        "402_single_line_label_at_2x.json",
        "403_wrapping_label_two_passes.json",
        "404_self_sizing_cell.json",
        "405_truncated_single_line.json",
        "406_unknown_font.json",
    ]

    @Test("v1.2 corpus case", arguments: cases)
    func corpusCase(_ file: String) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(file))
        let testCase = try JSONParser().parse([UInt8](data))
        var writer = JSONWriter()
        writer.value(try #require(testCase["scene"]))
        let engine = SceneEngine()
        let answer: EngineAnswer
        switch engine.prepare(body: writer.bytes, resolveGroup: { _ in nil }) {
        case .success(let prepared): answer = engine.solve(prepared)
        case .failure(let failure): answer = engine.problem(status: failure.status, diagnostics: failure.diagnostics)
        }
        let expect = try #require(testCase["expect"])
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(.number(Double(answer.status)) == expect["status"], "\(file): \(body)")
        let response = try JSONParser().parse(answer.body)
        let corpus = CorpusTests()
        if let frames = expect["frames"] { corpus.compareFrames(frames, response["frames"], tolerance: 1e-5, file: file) }
        if let diagnostics = expect["diagnostics"] { corpus.compareDiagnostics(diagnostics, response["diagnostics"], file: file) }
        if case .object(let labels)? = expect["text"] {
            for (name, want) in labels {
                let got = try #require(response["text"]?[name], "\(file): no text entry for \(name) in \(body)")
                #expect(got["lines"] == want["lines"], "\(file): \(name).lines in \(body)")
                #expect(got["truncated"] == want["truncated"], "\(file): \(name).truncated in \(body)")
            }
        }
    }
}
