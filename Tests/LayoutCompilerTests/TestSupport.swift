import LayoutCompiler
import LayoutSyntax
import Testing

/// Decodes, compiles and solves a scene written as JSON text.
func layout(_ json: String, size: ContainerSize? = nil, groups: [ResolvedGroup] = [],
            sourceLocation: SourceLocation = #_sourceLocation) throws -> (compiled: CompiledScene, layout: Layout) {
    let scene = try SceneDecoder().decode(body: Array(json.utf8))
    let compiled = SceneCompiler(scene: scene, groups: groups).compile()
    #expect(!compiled.hasErrors, "compile errors: \(compiled.diagnostics.map(\.message))", sourceLocation: sourceLocation)
    return (compiled, compiled.solve(size: size ?? scene.container.size))
}

extension Layout {
    /// The frame of `name`, or a failed expectation.
    func frame(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Frame {
        guard let entry = frames.first(where: { $0.name == name }) else {
            Issue.record("no frame for \(name)", sourceLocation: sourceLocation)
            return Frame(x: .nan, y: .nan, width: .nan, height: .nan)
        }
        return entry.frame
    }

    var codes: [String] { diagnostics.map(\.code.rawValue) }

    func ambiguous(_ view: String) -> [String] {
        diagnostics.filter { $0.code == .ambiguousLayout && $0.view == view }.compactMap(\.attribute)
    }
}

func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Frame {
    Frame(x: x, y: y, width: width, height: height)
}
