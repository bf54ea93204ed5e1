import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing

/// The public corpus (`../shared/corpus`, read at test time, never copied) through the
/// scene engine: the same comparison as `shared/tools/run_cases.py`, without HTTP.
/// The end-to-end suite runs the same cases through the real server.
struct CorpusTests {
    static let corpusDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    static func caseFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func corpusIsPresent() {
        #expect(Self.caseFiles().count >= 30,
                "the public corpus is missing: expected it at \(Self.corpusDirectory.path), in the shared/ folder beside the clone (it is not part of this repository)")
    }

    @Test("corpus case", arguments: caseFiles())
    func corpusCase(_ file: String) throws {
        let data = try Data(contentsOf: Self.corpusDirectory.appendingPathComponent(file))
        let testCase = try JSONParser().parse([UInt8](data))
        let scene = try #require(testCase["scene"])
        var writer = JSONWriter()
        writer.value(scene)
        let engine = SceneEngine()
        let answer: EngineAnswer
        switch engine.prepare(body: writer.bytes, resolveGroup: { _ in nil }) {
        case .success(let prepared): answer = engine.solve(prepared)
        case .failure(let failure): answer = engine.problem(status: failure.status, diagnostics: failure.diagnostics)
        }
        let expect = try #require(testCase["expect"])
        let body = String(decoding: answer.body, as: UTF8.self)
        guard case .number(let status) = expect["status"] ?? .null else { Issue.record("no status"); return }
        #expect(answer.status.code == Int(status), "\(file): \(body)")
        let response = try JSONParser().parse(answer.body)
        var tolerance = 1e-6
        if case .number(let value) = expect["tolerance"] ?? .null { tolerance = value }
        for key in ["frames", "partialFrames"] {
            if let expected = expect[key] {
                compareFrames(expected, response["frames"], tolerance: tolerance, file: file)
            }
        }
        if case .array(let layouts) = expect["layouts"] ?? .null {
            guard case .array(let got) = response["layouts"] ?? .null, got.count == layouts.count else {
                Issue.record("\(file): layouts missing or of the wrong count: \(body)")
                return
            }
            for (expected, actual) in zip(layouts, got) {
                if expected["frames"] != nil || expected["partialFrames"] != nil {
                    for key in ["frames", "partialFrames"] {
                        if let frames = expected[key] { compareFrames(frames, actual["frames"], tolerance: tolerance, file: file) }
                    }
                    if let diagnostics = expected["diagnostics"] { compareDiagnostics(diagnostics, actual["diagnostics"], file: file) }
                } else {
                    compareFrames(expected, actual["frames"], tolerance: tolerance, file: file)
                }
            }
        }
        if let expected = expect["diagnostics"] {
            var got = response["diagnostics"] ?? .array([])
            if case .array(let layouts) = response["layouts"] ?? .null, case .array(var all) = got {
                for layout in layouts { if case .array(let more) = layout["diagnostics"] ?? .null { all += more } }
                got = .array(all)
            }
            compareDiagnostics(expected, got, file: file)
        }
    }

    /// The corpus cases whose scene does not compile, each with the reason: they have no
    /// layout for ``sizesEqualSeparateSolves(_:)`` to compare, which checks that each of
    /// them indeed does not compile (so the list cannot hide a scene that does).
    static let scenesThatDoNotCompile: [String: String] = [
        "023_unknown_view.json": "unknown_view",
        "024_syntax_contract_example.json": "vfl_syntax",
        "025_syntax_bad_relation.json": "equation_syntax",
        "026_syntax_missing_close_paren.json": "vfl_syntax",
        "027_bad_views_type.json": "invalid_scene: views of the wrong type (not decodable)",
    ]

    /// `sizes` answers exactly what separate solves answer, for every corpus scene at a
    /// few sizes (given, fitted, too small for the scene, and a repeat). Every scene must
    /// decode and compile, except those named in ``scenesThatDoNotCompile``.
    @Test("sizes equal separate solves", arguments: caseFiles())
    func sizesEqualSeparateSolves(_ file: String) throws {
        let data = try Data(contentsOf: Self.corpusDirectory.appendingPathComponent(file))
        let testCase = try JSONParser().parse([UInt8](data))
        let sceneJSON = try #require(testCase["scene"], "\(file): no scene")
        let decoded = try? SceneDecoder().decode(sceneJSON)
        let compilation = decoded.map { SceneCompiler(scene: $0).compile() }
        if let reason = Self.scenesThatDoNotCompile[file] {
            #expect(compilation == nil || compilation?.hasErrors == true, "\(file) is listed as not compiling (\(reason)) but compiles")
            return
        }
        let compiled = try #require(compilation, "\(file): the scene does not decode")
        try #require(!compiled.hasErrors, "\(file): the scene does not compile")
        let sizes = [ContainerSize(width: 375, height: 667), ContainerSize(width: 200), ContainerSize(height: 300),
                     ContainerSize(width: 10, height: 10), ContainerSize(width: 1024, height: 768), ContainerSize(width: 375, height: 667)]
        let together = compiled.solve(sizes: sizes)
        for (index, size) in sizes.enumerated() {
            let alone = compiled.solve(size: size)
            #expect(together[index].frames.map(\.frame) == alone.frames.map(\.frame), "\(file) at \(size)")
            #expect(together[index].diagnostics == alone.diagnostics, "\(file) at \(size)")
        }
    }

    func compareFrames(_ expected: JSONValue, _ actual: JSONValue?, tolerance: Double, file: String) {
        guard case .object(let views) = expected else {
            Issue.record("\(file): the expected frames are not an object: \(expected)")
            return
        }
        for (view, frame) in views {
            guard let actualFrame = actual?[view] else {
                Issue.record("\(file): view \(view) missing from frames")
                continue
            }
            for field in ["x", "y", "width", "height"] {
                guard case .number(let want) = frame[field] ?? .null else { continue }
                guard case .number(let got) = actualFrame[field] ?? .null else {
                    Issue.record("\(file): \(view).\(field) missing")
                    continue
                }
                #expect(abs(got - want) <= tolerance, "\(file): \(view).\(field) = \(got), expected \(want)")
            }
        }
    }

    func compareDiagnostics(_ expected: JSONValue, _ actual: JSONValue?, file: String) {
        guard case .array(let wanted) = expected, case .array(let got)? = actual else {
            Issue.record("\(file): no diagnostics list")
            return
        }
        if wanted.isEmpty {
            let serious = got.filter { $0["severity"] == .string("error") || $0["severity"] == .string("warning") }
            #expect(serious.isEmpty, "\(file): unexpected diagnostics \(serious.map { $0["message"] ?? .null })")
            return
        }
        for want in wanted {
            let matched = got.contains { candidate in
                guard candidate["code"] == want["code"] else { return false }
                for key in ["column", "view", "attribute", "constraint"] where want[key] != nil {
                    if candidate[key] != want[key] { return false }
                }
                if let broken = want["broken"] {
                    guard keyText(candidate["broken"]?["constraint"]) == keyText(broken) else { return false }
                }
                if case .array(let conflicting) = want["conflicting"] ?? .null {
                    guard case .array(let refs) = candidate["conflicting"] ?? .null else { return false }
                    let gotKeys = Set(refs.map { keyText($0["constraint"]) })
                    let wantKeys = Set(conflicting.map { keyText($0) })
                    if gotKeys != wantKeys { return false }
                }
                return true
            }
            #expect(matched, "\(file): no diagnostic matches \(want); got \(got)")
        }
    }

    func keyText(_ value: JSONValue?) -> String {
        switch value {
        case .number(let number)?: return String(Int(number))
        case .string(let text)?: return text
        default: return "?"
        }
    }
}
