import Foundation
import Testing
import LayoutCompiler
@testable import InterfaceBuilder

/// The Interface Builder corpus (`../shared/corpus/ib/files`, 105 documents from public iOS
/// projects, read at test time and never copied: several are copyleft). Every document
/// must import; the figures of how many hierarchies solve without conflict and reproduce
/// Apple's recorded frames are printed.
struct IBCorpusTests {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus/ib/files")

    static func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".xib") || $0.hasSuffix(".storyboard") }.sorted()
    }

    @Test func corpusIsPresent() {
        #expect(Self.files().count >= 100, "expected the Interface Builder corpus at \(Self.directory.path)")
    }

    @Test func everyDocumentImportsAndTheFiguresArePrinted() throws {
        let files = Self.files()
        try #require(!files.isEmpty, "no documents at \(Self.directory.path)")
        var hierarchies = 0, compiled = 0, withoutConflict = 0, reproduced = 0
        var unmarked = 0, unmarkedReproduced = 0, views = 0, viewsReproduced = 0
        var failures: [String] = []
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(file)))
            let result: IBImport
            do {
                result = try InterfaceBuilderImporter.importDocument(bytes)
            } catch {
                Issue.record("\(file): line \(error.line): \(error.message)")
                continue
            }
            for hierarchy in result.hierarchies {
                hierarchies += 1
                let scene: Scene
                do {
                    scene = try SceneDecoder().decode(hierarchy.scene)
                } catch {
                    Issue.record("\(file) \(hierarchy.name): the scene does not decode: \(error.diagnostics.map(\.message))")
                    continue
                }
                let compiledScene = SceneCompiler(scene: scene).compile()
                guard !compiledScene.hasErrors else {
                    failures.append("\(file) \(hierarchy.name): \(compiledScene.diagnostics.first { $0.isError }?.message ?? "")")
                    continue
                }
                compiled += 1
                let layout = compiledScene.solve(size: scene.container.size)
                if !layout.diagnostics.contains(where: { $0.code == .unsatisfiableConstraints }) { withoutConflict += 1 }
                let solved = Dictionary(uniqueKeysWithValues: layout.frames.map { ($0.name, $0.frame) })
                var allMatch = true
                for (name, recorded) in hierarchy.recordedFrames {
                    let frame = try #require(solved[name], "\(file) \(hierarchy.name): \(name) has no solved frame")
                    let matches = abs(frame.x - recorded.x) <= 1e-3 && abs(frame.y - recorded.y) <= 1e-3
                        && abs(frame.width - recorded.width) <= 1e-3 && abs(frame.height - recorded.height) <= 1e-3
                    views += 1
                    if matches { viewsReproduced += 1 } else { allMatch = false }
                }
                if allMatch { reproduced += 1 }
                if hierarchy.markedViews.isEmpty {
                    unmarked += 1
                    if allMatch { unmarkedReproduced += 1 }
                }
            }
        }
        print("""
        Interface Builder corpus: \(files.count) documents, \(hierarchies) hierarchies; \(compiled) compile, \
        \(withoutConflict) solve without conflict; \(reproduced) reproduce every recorded frame to 1e-3 pt \
        (\(unmarkedReproduced) of the \(unmarked) without misplaced/ambiguous marks); \
        \(viewsReproduced) of \(views) views reproduced
        """)
        for failure in failures { print("  does not compile: \(failure)") }
        #expect(hierarchies >= files.count)
    }
}
