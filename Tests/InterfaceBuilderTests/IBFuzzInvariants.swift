// Shared by the Interface Builder libFuzzer target (fuzz/upload/FuzzIb.swift, built by
// scripts/fuzz-upload-smoke.sh with this file) and IBFuzzTests, which replays
// fuzz/regressions/ib/ and hostile documents made from the corpus on every `swift test`.
// No Testing import: each check returns the first invariant an input breaks, or nil.
import InterfaceBuilder
import LayoutCompiler

/// The settings and invariants of the Interface Builder fuzz target: bytes →
/// ``InterfaceBuilderImporter/importDocument(_:options:)`` → each hierarchy's scene decoded,
/// compiled and solved at its container's size, as `POST /import?solve=true` does.
enum IBFuzz {
    /// Default limits except the solver work: 10⁶ cell operations per hierarchy (a
    /// hundredth of the service's default), so that no input holds the fuzzer for long.
    static let limits: SceneLimits = {
        var limits = SceneLimits()
        limits.maxSolverWork = 1_000_000
        return limits
    }()

    /// The largest magnitude of a solved coordinate or size in a layout that is not rejected.
    static let maximumMagnitude = 1e12

    /// The invariants for any input:
    /// - the import answers a hierarchy list or an ``IBImportError`` with a message and a
    ///   line ≥ 0 (1-based, 0 for none) no further than the document's last line;
    /// - importing the same bytes twice gives the same answer (names, ids, scenes);
    /// - hierarchy names are unique in the document, and within a hierarchy its `ids`
    ///   names are unique;
    /// - the answer's JSON writes and parses back;
    /// - each scene decodes (or is refused with at least one diagnostic); one that
    ///   compiles without errors solves at its container's size to one frame per view,
    ///   each finite and within ±``maximumMagnitude`` unless the layout is rejected.
    static func checkDocument(_ bytes: [UInt8]) -> String? {
        let imported: IBImport
        do {
            imported = try InterfaceBuilderImporter.importDocument(bytes)
        } catch {
            let lines = bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            if error.message.isEmpty { return "a refusal without a message (line \(error.line))" }
            if error.line < 0 || error.line > lines { return "a refusal naming line \(error.line) of \(lines)" }
            return nil
        }
        var first = JSONWriter()
        first.value(imported.answer)
        guard let again = try? InterfaceBuilderImporter.importDocument(bytes) else {
            return "the same bytes imported once and were refused the second time"
        }
        var second = JSONWriter()
        second.value(again.answer)
        if first.bytes != second.bytes { return "the same bytes imported twice gave different answers" }
        guard (try? JSONParser(maximumDepth: 4_096).parse(first.bytes)) != nil else {
            return "the import answer is not JSON"
        }
        var hierarchyNames: Set<String> = []
        for hierarchy in imported.hierarchies {
            guard hierarchyNames.insert(hierarchy.name).inserted else { return "two hierarchies named '\(hierarchy.name)'" }
            var names: Set<String> = []
            for entry in hierarchy.ids where !names.insert(entry.name).inserted {
                return "hierarchy '\(hierarchy.name)' maps '\(entry.name)' twice in ids"
            }
            let scene: Scene
            do {
                scene = try SceneDecoder(limits: limits).decode(hierarchy.scene)
            } catch {
                if error.diagnostics.isEmpty { return "hierarchy '\(hierarchy.name)': its scene is refused without a diagnostic" }
                continue
            }
            let compiled = SceneCompiler(scene: scene, limits: limits).compile()
            guard !compiled.hasErrors else { continue }
            let layout = compiled.solve(size: scene.container.size)
            guard !layout.isRejected else { continue }
            if layout.frames.count != compiled.hierarchy.count {
                return "hierarchy '\(hierarchy.name)': \(layout.frames.count) frames for \(compiled.hierarchy.count) views"
            }
            for (name, frame) in layout.frames {
                for value in [frame.x, frame.y, frame.width, frame.height] where !(abs(value) <= maximumMagnitude) {
                    return "hierarchy '\(hierarchy.name)': frame of '\(name)' has \(value) in a layout that was not rejected"
                }
            }
        }
        return nil
    }
}
