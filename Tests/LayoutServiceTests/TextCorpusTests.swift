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
        let (testCase, answer, response) = try CorpusTests.solveCase(at: Self.directory.appendingPathComponent(file))
        let expect = try #require(testCase["expect"])
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(.number(Double(answer.status.code)) == expect["status"], "\(file): \(body)")
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
