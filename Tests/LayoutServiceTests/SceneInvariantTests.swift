import Foundation
import Testing
@testable import LayoutService

/// Replays the scene fuzz targets' seeds (`fuzz/scene/seeds/`: the corpus scenes, issue
/// 24's conflicting chains, `sizes`, groups, stack views) and the inputs kept in
/// `fuzz/regressions/scene/` and `fuzz/regressions/svg/` with the targets' settings and
/// invariants (``SceneFuzz``). Every input a run of scripts/fuzz-scene-smoke.sh fails on
/// is copied into the regressions directory of its target unchanged, so it stays fixed.
struct SceneInvariantTests {
    /// The files of `fuzz/scene/seeds/` and `fuzz/regressions/KIND/`, found from this
    /// file's path (symlinks resolved), in name order.
    static func inputs(_ kind: String) throws -> [(name: String, bytes: [UInt8])] {
        try files(in: "fuzz/scene/seeds") + files(in: "fuzz/regressions/\(kind)")
    }

    static func files(in folder: String) throws -> [(name: String, bytes: [UInt8])] {
        let here = URL(fileURLWithPath: #filePath)
        let candidates = [here, here.resolvingSymlinksInPath()].map { file in
            file.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(folder)
        }
        guard let directory = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .filter { !$0.hasPrefix(".") }
            .map { ("\(folder)/\($0)", Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    @Test("kept scene fuzz inputs keep the decode, compile and solve invariants")
    func scenes() throws {
        let inputs = try Self.inputs("scene")
        #expect(inputs.count >= 10)
        for input in inputs {
            let failure = SceneFuzz.checkScene(input.bytes)
            #expect(failure == nil, "\(input.name): \(failure ?? "")")
        }
    }

    @Test("kept SVG fuzz inputs keep the wireframe invariants")
    func wireframes() throws {
        let inputs = try Self.inputs("svg")
        #expect(inputs.count >= 10)
        for input in inputs {
            let failure = SceneFuzz.checkWireframe(input.bytes)
            #expect(failure == nil, "\(input.name): \(failure ?? "")")
        }
    }

    /// The well-formedness check must catch what a broken escape would write.
    @Test("the SVG check rejects markup that client bytes could break out into",
          arguments: [
              ("<svg><script>alert(1)</script></svg>", "element 'script'"),
              ("<svg><g data-view=\"a\"></svg>", "</svg> closes nothing open"),
              ("<svg><text>a & b</text></svg>", "a bare '&'"),
              ("<svg><text>a &bogus; b</text></svg>", "a bare '&'"),
              ("<svg><g data-view=\"a<b\"></g></svg>", "'<' in the value of 'data-view'"),
              ("<svg><g data-view=\"a\" data-view=\"b\"></g></svg>", "attribute 'data-view' twice"),
              ("<svg><g data-view=\"a\" onload=\"x\"></g></svg>", "event handler attribute 'onload'"),
              ("<svg><g data-view=a></g></svg>", "attribute 'data-view' without a double-quoted value"),
              ("<svg><text>\u{1}</text></svg>", "a character XML forbids (U+1)"),
              ("<svg></svg><svg></svg>", "a second root or a root other than svg"),
              ("<svg><g>", "unclosed <g>"),
          ])
    func svgCheckRejects(document: String, reason: String) {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(document)".utf8)
        guard case .failure(let failure) = SceneFuzz.parseSVG(bytes) else {
            Issue.record("accepted \(document)")
            return
        }
        #expect(failure.reason.hasPrefix(reason), "\(failure.reason)")
    }

    @Test("the SVG check reads a real wireframe: every view once, names unescaped")
    func svgCheckAcceptsAWireframe() throws {
        let body = Array(#"{"container": {"width": 100, "height": 50}, "views": {"a": {}, "b": {"parent": "a"}}, "constraints": ["H:|-[a]-|", "V:|-[a]-|", "H:|[b(==10)]", "V:|[b(==5)]", {"equation": "b.width == 20", "id": "<x&\"'>"}]}"#.utf8)
        let (answer, _) = SceneFuzz.answer(body, engine: SceneEngine(limits: SceneFuzz.limits), svg: true)
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let document = try SceneFuzz.parseSVG(answer.body).get()
        #expect(document.viewNames == ["superview", "a", "b"])
        #expect(SceneFuzz.checkWireframe(body) == nil)
        #expect(SceneFuzz.checkScene(body) == nil)
    }
}

