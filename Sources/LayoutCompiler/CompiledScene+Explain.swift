import Cassowary

/// One constraint in a field's explanation: the constraint and the field's rate of
/// change per point of its constant (contract, "Explaining a frame").
public struct ExplanationEntry: Sendable, Hashable {
    /// The constraint, as conflicts name it.
    public var ref: ConstraintRef
    /// d field / d constant, rounded to 6 decimal places as every number of a response.
    public var by: Double
}

/// The explanation of one frame field (`"VIEW.FIELD"`): the constraints whose constant
/// moves it, strongest first, then in order of addition.
public struct FieldExplanation: Sendable, Hashable {
    /// `VIEW.FIELD`, `FIELD` one of `x y width height`.
    public var field: String
    public var entries: [ExplanationEntry]
}

extension CompiledScene {
    /// What listing one constraint in an explanation costs against
    /// ``SceneLimits/maxSolverWork``, in cell operations (about the time of writing its
    /// ref): the default budget lists at most 100,000 refs in one request, which bounds
    /// the answer's size whatever `explain` and `sizes` ask.
    public static let explanationRefCost = 1_000

    /// The fields `explain` asks for, once each, in the order of `frames` then `guides`
    /// (the container, the views sorted by name, the layout guides sorted by name;
    /// `x y width height` within each). `safeArea` (refused by the decoder) is never
    /// listed.
    /// - Complexity: O(entries · log(entries)).
    public var explainedFields: [FrameField] {
        var keys = Set<Int>()   // ``FrameField/key``s; membership only, the list is sorted below
        for reference in scene.explain {
            guard let view = hierarchy.index(of: reference.view), view != hierarchy.safeArea else { continue }
            if let name = reference.field, let field = FrameField.Field(name: name) {
                keys.insert(FrameField(view: view, field).key)
            } else if reference.field == nil {
                for field in FrameField.Field.allCases { keys.insert(FrameField(view: view, field).key) }
            }
        }
        return keys.sorted().map { FrameField(key: $0) }
    }

    /// The reported value of a frame field as an expression over the view variables
    /// (parent-relative unless `coordinates: root`; a guide's owner-relative): the
    /// container's `x` and `y` are 0. `view` is a view or a layout guide, never `safeArea`:
    /// ``ViewHierarchy/frameFields(relativeToRoot:)`` lists the guides right after the
    /// views, in hierarchy order, so one index (``FrameField/reportedIndex``) serves both.
    func fieldExpression(_ field: FrameField) -> Expression {
        if field.view == 0 && (field.field == .x || field.field == .y) { return Expression() }
        return frameFieldDifferences[field.reportedIndex].expression
    }

    /// The explanation of every field `explain` asks for, read from `solver`'s optimal
    /// tableau (``Cassowary/Solver/sensitivities(of:work:)``; the solver must track
    /// markers). `ref` names the constraint of a handle (`nil`: left out, e.g. an edit).
    /// Returns `nil` when the work (cells read plus ``explanationRefCost`` per constraint
    /// listed) passes `workLimit`; `work` receives what was spent either way.
    func explanations(from solver: Solver, workLimit: Int, work: inout Int,
                      ref: (ConstraintHandle) -> ConstraintRef?) -> [FieldExplanation]? {
        var result: [FieldExplanation] = []
        for field in explainedFields {
            guard let rates = solver.sensitivities(of: fieldExpression(field), work: &work) else { return nil }
            work &+= Self.explanationRefCost &* rates.count
            if work > workLimit { return nil }
            let entries = rates.compactMap { rate in
                ref(rate.handle).map { ExplanationEntry(ref: $0, by: roundedForResponse(rate.rate)) }
            }.filter { $0.by != 0 }
            result.append(FieldExplanation(field: hierarchy.names[field.view] + "." + field.field.name, entries: entries))
        }
        return result
    }

    /// `absolute` (container coordinates) as a screen of `scale` pixels per point shows
    /// it (contract, `options.displayScale`): each view's min and max edges rounded to the
    /// nearest multiple of `1/scale` (halves away from zero), origin and size derived from
    /// the rounded edges. The container stays at (0, 0). An edge within
    /// ``halfPixelNoise`` of a half pixel is that half pixel: the solver's float noise
    /// (259.74999999999997 for the 259.75 that three thirds of 538 and a centred 40.5 make)
    /// must not round a half the other way (`ExplainAndDisplayScaleTests.edgesOnAHalfPixelRoundAwayFromZeroDespiteNoise`).
    /// Pixels: how far from a half pixel a solved edge may be and still round as that half.
    /// Far below anything a layout means (a millionth of a pixel), far above the solver's
    /// float noise (10⁻¹³ of a pixel on screen-sized values).
    static let halfPixelNoise = 1e-6

    static func pixelAligned(_ absolute: [Frame], scale: Int) -> [Frame] {
        let factor = Double(scale)
        func aligned(_ value: Double) -> Double {
            let pixels = value * factor
            let half = (pixels - 0.5).rounded() + 0.5
            let snapped = abs(pixels - half) <= halfPixelNoise ? half : pixels
            return snapped.rounded(.toNearestOrAwayFromZero) / factor
        }
        return absolute.map { frame in
            let minX = aligned(frame.x), minY = aligned(frame.y)
            return Frame(x: minX, y: minY, width: aligned(frame.x + frame.width) - minX, height: aligned(frame.y + frame.height) - minY)
        }
    }
}
