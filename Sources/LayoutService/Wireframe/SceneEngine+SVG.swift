import LayoutCompiler

extension SceneEngine {
    /// The media type of a wireframe answer.
    public static let svgContentType = "image/svg+xml; charset=utf-8"

    /// Solves a prepared scene like ``solve(_:)`` and answers an SVG wireframe of it
    /// (issue 10): `POST /solve` with `Accept: image/svg+xml` or `?format=svg`, and
    /// `layoutd solve --svg FILE`.
    ///
    /// - Returns: 200 `image/svg+xml; charset=utf-8` (cacheable) with one panel, or one
    ///   panel per entry of `sizes`; the same 422 problem details as ``solve(_:)`` when
    ///   the scene has compile errors or its single layout is rejected (`conflicts:
    ///   error` with a conflict, `ambiguity: error` with ambiguity). A rejected entry of
    ///   `sizes` is drawn as a panel without views, as `/solve` answers it without frames.
    /// - SeeAlso: ``WireframeRenderer`` for the document's shape.
    public func solveSVG(_ prepared: Prepared) -> EngineAnswer {
        let (compiled, layouts) = compileAndSolve(prepared)
        if compiled.hasErrors {
            return problem(status: 422, diagnostics: compiled.diagnostics)
        }
        if prepared.scene.sizes == nil, let layout = layouts.first, layout.isRejected {
            return problem(status: 422, diagnostics: compiled.diagnostics + layout.diagnostics)
        }
        let body = WireframeRenderer.svg(compiled: compiled, layouts: layouts, sizes: prepared.scene.sizes)
        return EngineAnswer(status: 200, contentType: Self.svgContentType, body: body, isCacheable: true)
    }
}
