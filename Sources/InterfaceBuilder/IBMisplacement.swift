import LayoutCompiler

/// Xcode's "frame will be different at run time": the views of an imported hierarchy
/// whose recorded frame is not the one their constraints give.
public enum IBMisplacement {
    /// One view whose solved frame differs from its recorded one.
    public struct Finding: Sendable, Equatable {
        /// The view's scene name (a key of the hierarchy's `ids`).
        public var view: String
        /// Its Interface Builder `id` (empty when the hierarchy's `ids` lacks it).
        public var ibId: String
        /// Points, relative to the parent, as the document records it.
        public var recorded: Frame
        /// Points, relative to the parent, as solved.
        public var solved: Frame
    }

    /// Half a pixel at `scale` pixels per point (`nil`: 1): the contract's tolerance. Both
    /// frames are pixel-aligned on the same grid, so they agree exactly or differ by at
    /// least a pixel; half of one absorbs the float noise of the recorded values.
    public static func tolerance(scale: Double?) -> Double {
        0.5 / max(1, scale ?? 1)
    }

    /// The views of `hierarchy` whose solved frame differs from the recorded one by more
    /// than `tolerance` points in x, y, width or height, in the order the document lists
    /// them (`superview` first). Views in `skipping` are left out: pass the views whose
    /// solved frame is ambiguous, where the solver's choice says nothing about the
    /// document. A view missing from `solvedFrames` is left out too.
    ///
    /// - Parameters:
    ///   - hierarchy: an imported hierarchy (its recorded frames are relative to the parent).
    ///   - solvedFrames: the solved frames of its scene, relative to the parent (a `Layout`'s
    ///     `frames`, answered with the document's `displayScale`).
    ///   - tolerance: points; by default ``tolerance(scale:)`` of the scene's `displayScale`.
    /// - Complexity: O(views + solved frames).
    public static func misplacedViews(in hierarchy: IBHierarchy, solvedFrames: [(name: String, frame: Frame)],
                                      tolerance: Double? = nil, skipping: Set<String> = []) -> [Finding] {
        var solvedByName: [String: Frame] = [:]
        for (name, frame) in solvedFrames { solvedByName[name] = frame }
        var ibIds: [String: String] = [:]
        for (name, ibId) in hierarchy.ids where ibIds[name] == nil { ibIds[name] = ibId }
        let limit = tolerance ?? Self.tolerance(scale: displayScale(of: hierarchy))
        var findings: [Finding] = []
        for (name, recorded) in hierarchy.recordedFrames where !skipping.contains(name) {
            guard let solved = solvedByName[name] else { continue }
            let differs = abs(solved.x - recorded.x) > limit || abs(solved.y - recorded.y) > limit
                || abs(solved.width - recorded.width) > limit || abs(solved.height - recorded.height) > limit
            if differs {
                findings.append(Finding(view: name, ibId: ibIds[name] ?? "", recorded: recorded, solved: solved))
            }
        }
        return findings
    }

    /// The scene's `options.displayScale`, when it has one.
    static func displayScale(of hierarchy: IBHierarchy) -> Double? {
        if case .number(let scale)? = hierarchy.scene["options"]?["displayScale"] { return scale }
        return nil
    }
}
