import LayoutSyntax

/// Limits on a scene's size, each reported as a `limit_exceeded` diagnostic (422) naming it.
public struct SceneLimits: Sendable, Hashable {
    /// Views in a scene, not counting the container (default 20,000).
    public var maxViews = 20_000
    /// Entries in `constraints`, plus the included groups' entries (default 100,000).
    public var maxConstraints = 100_000
    /// Entries in `sizes` (default 1,000, as the contract says).
    public var maxSizes = 1_000
    /// Frames in one answer: (views + 1) × sizes (default 1,000,000, an answer of about
    /// 100 MB), so the most views and the most sizes together (a 1.6 GB answer, built in
    /// memory) are a 422 rather than a worker's memory.
    public var maxFrames = 1_000_000
    /// Distinct priorities below 1000 in one scene, its groups and intrinsic sizes
    /// included (default 1,000: every whole priority fits). Each is its own strength
    /// level, and the solver's work grows with the number of levels in ways its work
    /// count does not see (20,000 fractional priorities at 16 sizes took 6 s).
    public var maxPriorityLevels = 1_000
    /// Bytes of constraint text in one scene with the groups it includes (default
    /// 4 MiB). Each group is stored within the body limit, but 64 of them made a
    /// 200-byte request parse 63 MB of constraints (3 s) every time.
    public var maxTotalConstraintBytes = 4 << 20
    /// Depth of the view hierarchy, the container being depth 0 (default 64).
    public var maxHierarchyDepth = 64
    /// Groups included by one scene (default 64).
    public var maxIncludedGroups = 64
    /// Bytes in one constraint string (default 64 KiB).
    public var maxConstraintBytes = 65_536
    /// Nesting of JSON arrays and objects in a request body (default 64); deeper is a
    /// 400 `invalid_json`.
    public var maxJSONDepth = 64
    /// Solver work for one request, in cell operations of the simplex (the solver's
    /// machine-independent measure of pivot work, the ambiguity analysis included;
    /// default 10⁸: a 10,000-view scene takes about 10⁷, and a hostile scene whose
    /// tableau fills in, the worst per operation, about 3.5 s of one core, measured under load). Beyond it the
    /// scene is a 422 `limit_exceeded`, so one hostile scene cannot hold a worker (and
    /// its memory) indefinitely.
    public var maxSolverWork = 100_000_000
    /// Entries in `explain` (default 1,000). Each field's explanation lists at most the
    /// scene's constraints, and listing them is charged to ``maxSolverWork``
    /// (``CompiledScene/explanationRefCost`` per constraint listed), which bounds the
    /// answer; this bounds the request.
    public var maxExplainEntries = 1_000
    /// Characters in a view or metric name (a scene's or a group's), fixed: 256. A name
    /// is quoted in frames, diagnostics and SVG titles, so 100 views with 3 KB names
    /// answered 1.35 GB; a longer one is a 422 `invalid_scene` naming the
    /// JSON path and the limit. Tested by `SceneDecoderTests.namesOf256CharactersAndNoMore`.
    public static let maxNameLength = 256

    public init() {}
}

/// Why a request body is not a scene, with the diagnostics. The service's error mapping
/// chooses the HTTP status of each ``Reason`` (the contract's 400 and 422).
public struct SceneRejection: Error, Sendable {
    /// What kind of fault the body has.
    public enum Reason: Sendable, Equatable {
        /// Not JSON, or JSON of the wrong shape or types (`invalid_json`, `invalid_scene`
        /// with a JSON path).
        case malformed
        /// Well-formed but not a valid scene: names, cycles, limits.
        case invalid
    }

    public var reason: Reason
    public var diagnostics: [LayoutDiagnostic]

    public init(_ reason: Reason, diagnostics: [LayoutDiagnostic]) {
        self.reason = reason
        self.diagnostics = diagnostics
    }
}
