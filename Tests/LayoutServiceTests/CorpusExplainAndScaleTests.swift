import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing

/// The v1.1 corpus cases of `explain` and `displayScale` (`../shared/corpus/v1.1`
/// 312–315) through the scene engine: frames as ``CorpusTests`` compares them, and
/// `expect.explanations` as the corpus README says (each field lists exactly these
/// constraint refs, `part` when given, each `by` within 1e-6; order not compared).
struct CorpusExplainAndScaleTests {
    static let directory = CorpusTests.corpusDirectory.appendingPathComponent("v1.1")
    static let cases = [
        "312_equal_thirds_of_320_at_2x.json",
        "313_equal_thirds_of_320_at_3x.json",
        "314_explain_label_between_insets.json",
        "315_explain_centered_with_multiplier.json",
    ]

    @Test("v1.1 corpus case", arguments: cases)
    func corpusCase(_ file: String) throws {
        let (testCase, answer, response) = try CorpusTests.solveCase(at: Self.directory.appendingPathComponent(file))
        let expect = try #require(testCase["expect"])
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(.number(Double(answer.status.code)) == expect["status"], "\(file): \(body)")
        let corpus = CorpusTests()
        if let frames = expect["frames"] { corpus.compareFrames(frames, response["frames"], tolerance: 1e-6, file: file) }
        if let diagnostics = expect["diagnostics"] { corpus.compareDiagnostics(diagnostics, response["diagnostics"], file: file) }
        guard case .object(let fields) = expect["explanations"] ?? .null else {
            // A case that expects no explanations gets none.
            #expect(response["explanations"] == nil, "\(file): explanations not asked for: \(body)")
            return
        }
        guard case .object(let answered) = response["explanations"] ?? .null else {
            Issue.record("\(file): no explanations in \(body)")
            return
        }
        #expect(answered.map(\.0).sorted() == fields.map(\.0).sorted(), "\(file): fields explained")
        for (field, wanted) in fields {
            guard case .array(let wantedEntries) = wanted, case .array(let gotEntries) = response["explanations"]?[field] ?? .null else {
                Issue.record("\(file): \(field) not explained: \(body)")
                continue
            }
            #expect(gotEntries.count == wantedEntries.count, "\(file): \(field): \(gotEntries)")
            for want in wantedEntries {
                let matched = gotEntries.contains { got in
                    guard got["ref"]?["constraint"] == want["constraint"] else { return false }
                    if let part = want["part"], got["ref"]?["part"] != part { return false }
                    guard case .number(let by)? = got["by"], case .number(let wantBy)? = want["by"] else { return false }
                    return abs(by - wantBy) <= 1e-6
                }
                #expect(matched, "\(file): \(field) lacks \(want); got \(gotEntries)")
            }
        }
    }

    /// Asking to explain every field of every view changes no frame and no diagnostic of
    /// any corpus scene (at its own size and at 200 × fitted): the explanation is read from
    /// a solver that tracks markers, and that solver reaches the same layout.
    @Test("explain changes no frame", arguments: CorpusTests.caseFiles())
    func explainChangesNoFrame(_ file: String) throws {
        let data = try Data(contentsOf: CorpusTests.corpusDirectory.appendingPathComponent(file))
        let testCase = try JSONParser().parse([UInt8](data))
        let sceneJSON = try #require(testCase["scene"])
        guard var scene = try? SceneDecoder().decode(sceneJSON) else {
            // A scene the decoder refuses has no frame to explain: its case expects a 4xx.
            #expect(testCase["expect"]?["status"] != .number(200), "\(file): a 200 case that does not decode")
            return
        }
        let plain = SceneCompiler(scene: scene).compile()
        guard !plain.hasErrors else {
            // Nor has a scene that does not compile: its case expects the 422.
            #expect(testCase["expect"]?["status"] == .number(422), "\(file): a scene that does not compile")
            return
        }
        scene.explain = [FieldReference(view: "superview")] + scene.views.map { FieldReference(view: $0.name) }
        let explained = SceneCompiler(scene: scene).compile()
        for size in [scene.container.size, ContainerSize(width: 200)] {
            let without = plain.solve(size: size)
            let with = explained.solve(size: size)
            #expect(with.frames.map(\.frame) == without.frames.map(\.frame), "\(file) at \(size)")
            #expect(with.diagnostics == without.diagnostics, "\(file) at \(size)")
            if !with.isRejected {
                #expect(with.explanations.count == 4 * (scene.views.count + 1), "\(file) at \(size)")
            }
        }
    }
}
