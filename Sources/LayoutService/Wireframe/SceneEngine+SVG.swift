import LayoutCompiler
import Wireframe

extension SceneEngine {
    /// The media type of a wireframe answer.
    public static let svgContentType = "image/svg+xml; charset=utf-8"

    /// The most frames (views + 1, times the number of `sizes`) one SVG wireframe draws:
    /// 150,000, about 48 MB of SVG (a JSON answer may hold 1,000,000 frames, about 45 MB).
    /// Beyond it the answer is `422` `limit_exceeded`.
    public static let maxWireframeFrames = 150_000

    /// Solves a prepared scene like ``solve(_:)`` and answers an SVG wireframe of it:
    /// `POST /solve` with `Accept: image/svg+xml` or `?format=svg`, and
    /// `layoutd solve --svg FILE`.
    ///
    /// - Returns: 200 `image/svg+xml; charset=utf-8` (cacheable) with one panel, or one
    ///   panel per entry of `sizes`; the same 422 problem details as ``solve(_:)`` when
    ///   the scene has compile errors or its single layout is rejected (`conflicts:
    ///   error` with a conflict, `ambiguity: error` with ambiguity), and when the drawing
    ///   would have more than ``maxWireframeFrames`` frames; the 422 of
    ///   ``responseTooLarge(limit:)`` when the document would pass ``maxResponseBytes``,
    ///   of ``renderingTooLong(limit:)`` when drawing it would take more than
    ///   `limits.maxSolverWork` units of work (``WireframeRenderer/workUnitDescription``:
    ///   rendering has an allowance of its own, the size of the solver's), and the 503 of
    ///   ``overCommitted()`` when the pending-response pool is full. A rejected entry of
    ///   `sizes` is drawn as a panel without views, as `/solve` answers it without frames.
    /// - SeeAlso: ``WireframeRenderer`` for the document's shape.
    /// - Parameter display: the display size (``WireframeDisplay``; by default the drawing
    ///   fits 1,200 × 900 px).
    public func solveSVG(_ prepared: Prepared, display: WireframeDisplay = WireframeDisplay()) -> EngineAnswer {
        // A drawn frame is about 320 bytes, seven times its JSON: the JSON answer's
        // million frames would be a 320 MB picture that takes seconds to write.
        let frames = (prepared.scene.views.count + 1) * max(1, prepared.scene.sizes?.count ?? 1)
        if frames > Self.maxWireframeFrames {
            return unprocessable([LayoutDiagnostic(
                code: .limitExceeded,
                message: "The wireframe would draw \(frames) frames; at most \(Self.maxWireframeFrames) are drawn at once (limit maxWireframeFrames): ask for JSON, or for fewer sizes",
                path: prepared.scene.sizes == nil ? "$.views" : "$.sizes")])
        }
        let (compiled, layouts) = compileAndSolve(prepared)
        if compiled.hasErrors {
            return unprocessable(compiled.diagnostics)
        }
        if prepared.scene.sizes == nil, let layout = layouts.first, layout.isRejected {
            return unprocessable(compiled.diagnostics + layout.diagnostics)
        }
        // The labels' lines, at most ``WireframeRenderer/maxDrawnTextBytes`` of them.
        var textBudget = WireframeRenderer.maxDrawnTextBytes
        let texts = prepared.text.map { text in layouts.map { text.drawnLabels(in: $0, budget: &textBudget) } } ?? []
        let output = WireframeRenderer.svg(compiled: compiled, layouts: layouts, sizes: prepared.scene.sizes,
                                           display: display, texts: texts,
                                           maxBytes: maxResponseBytes, pool: answerPool, maxWork: limits.maxSolverWork)
        if output.stop != nil { return stopped(output.stop) }
        return EngineAnswer(status: .ok, contentType: Self.svgContentType, body: output.bytes, isCacheable: true,
                            reservation: output.reservation)
    }
}
