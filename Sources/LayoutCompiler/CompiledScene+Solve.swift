import Cassowary
import Synchronization
import LayoutSyntax

/// A view's frame in points, y down: relative to its parent's origin (UIKit's `frame`),
/// or to the container's with `coordinates: root`.
public struct Frame: Sendable, Hashable {
    /// A frame from its origin and size, points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Origin x, points.
    public var x: Double
    /// Origin y, points (y grows down).
    public var y: Double
    /// Width, points (negative only when the constraints force it: `negative_size`).
    public var width: Double
    /// Height, points.
    public var height: Double
}

/// A scene solved once with edit variables on its container's given dimensions, the
/// start of every size's resize path (``CompiledScene/solve(sizes:base:)``).
///
/// A class, immutable once made: a structure cache's entries, their lookups and a
/// request's resize path pass one reference around instead of copying the solver's
/// few dozen stored arrays (a retain and a release each) with every copy of the value.
public final class ResizableBase: Sendable {
    /// The solved base; `nil` when a required constraint conflicts already or the
    /// work limit was exceeded (each size is then solved from scratch, or not at all).
    public let solver: Solver?
    /// Cell operations spent building it (``Solver/cellOperations``), charged to every
    /// request that uses it.
    public let work: Int

    /// A base of `solver` (or none) that took `work` cell operations to build.
    public init(solver: Solver?, work: Int) {
        self.solver = solver
        self.work = work
    }
    /// What the ambiguity analysis found at sizes reached from this base (shared by its
    /// copies, so a kept base learns across requests).
    public let memo = AmbiguityMemo()
    /// Copies of ``solver`` a resize works on and restores afterwards (shared by the
    /// copies of this base, so a kept base lends them across requests).
    public let scratch = ScratchSolvers()

    /// About how many bytes of memory it holds (for cache limits): the solver's, and as
    /// much again for each scratch copy it may keep (``ScratchSolvers/capacity``: a copy
    /// holds at most what the solver does).
    public var approximateByteCount: Int { (solver?.approximateByteCount ?? 0) * (1 + ScratchSolvers.capacity) }
}

/// Scratch copies of a ``ResizableBase``'s solver for the resize path: a request takes
/// one (or copies the base when none is kept), suggests its sizes on it, and gives it
/// back restored to the base (``Solver/restore(from:)``), so the next request writes in
/// the copy's own storage instead of copying the base's tables and freeing them after.
///
/// A copy is used by one request at a time: taking it removes it from the list, under a
/// `Mutex`; requests of one structure at the same time each take their own or copy the
/// base (`StructureCacheTests.concurrentResizesOfOneStructure`). At most ``capacity``
/// are kept. A restored copy equals the base in every stored value, so answers never
/// depend on which one a request took.
public final class ScratchSolvers: Sendable {
    /// The most copies kept: one per request of one structure solved at the same time
    /// beyond which a request copies the base, as without them.
    public static let capacity = 2
    private let kept = Mutex<[Solver]>([])
    /// Set by the first ``give(_:restoredFrom:)``.
    private let wasGiven = Atomic<Bool>(false)

    init() {}

    /// A kept copy, restored to the base, or `nil`.
    func take() -> Solver? { kept.withLock { $0.popLast() } }

    /// Keeps `solver`, restored to `base`, unless ``capacity`` copies are kept or this is
    /// the first copy given back.
    ///
    /// The first is dropped, unrestored: most structures of a stream of new ones are asked
    /// once, and a copy kept for them would be restored, held and torn down with the base
    /// for nothing. A structure asked again copies the base once more and keeps that copy
    /// (`StructureCacheTests.aStructureAskedOnceKeepsNoScratchCopy`).
    func give(_ solver: consuming Solver, restoredFrom base: borrowing Solver) {
        guard wasGiven.exchange(true, ordering: .relaxed) else { return }
        var restored: Solver? = consume solver
        restored!.restore(from: base)
        kept.withLock { kept in
            guard kept.count < Self.capacity, let moved = restored.take() else { return }
            kept.append(moved)
        }
    }

    /// Copies kept (for tests).
    public var count: Int { kept.withLock { $0.count } }
}

/// The ambiguity analyses of layouts reached from one ``ResizableBase``, so a size
/// reached by the same pivots is not analysed again.
///
/// ``Solver/areDetermined(_:workLimit:work:)`` reads a tableau's coefficients, reduced
/// costs and which restricted rows are at 0 (``Solver/degenerateRows()``), never its
/// other constants. Copies of one base that make the same pivots (``Solver/pivotTrail``)
/// hold the same coefficients and reduced costs, so with the same degenerate rows the
/// analysis gives the same answers at the same work. Only analyses that found every
/// field determined are kept (an ambiguous size is solved again from scratch anyway),
/// with their work, which a reuse charges in full: an answer never depends on the memo.
/// At most 16 tableaux per base are kept. A `final class` shared by threads; its
/// entries are guarded by a `Mutex`.
public final class AmbiguityMemo: Sendable {
    /// A tableau reached from the base: its pivots since the base, and its degenerate rows.
    struct Signature: Equatable, Sendable {
        var pivots: [Int]
        var degenerate: [Int]
    }

    private let entries = Mutex<[(signature: Signature, work: Int)]>([])
    static let capacity = 16

    public init() {}

    /// The work of an analysis of that tableau that found every field determined, if kept.
    func work(for signature: Signature) -> Int? {
        entries.withLock { entries in entries.first { $0.signature == signature }?.work }
    }

    /// Tableaux kept (for tests).
    public var count: Int { entries.withLock { $0.count } }

    func record(_ signature: Signature, work: Int) {
        entries.withLock { entries in
            guard entries.count < Self.capacity, !entries.contains(where: { $0.signature == signature }) else { return }
            entries.append((signature, work))
        }
    }
}

/// Four values, one for each combination of given container dimensions (key bit 0 the
/// width, bit 1 the height), held inline: ``CompiledScene/solve(sizes:base:)`` keeps its
/// solvers and their bases here without allocating an array a request.
struct ByGivenDimensions<Value> {
    private var values: (Value, Value, Value, Value)

    init(repeating value: Value) { values = (value, value, value, value) }

    /// The value of `key` (0 to 3; a larger key is 3's).
    subscript(key: Int) -> Value {
        get {
            switch key {
            case 0: values.0
            case 1: values.1
            case 2: values.2
            default: values.3
            }
        }
        _modify {
            switch key {
            case 0: yield &values.0
            case 1: yield &values.1
            case 2: yield &values.2
            default: yield &values.3
            }
        }
    }
}

/// One solved layout: the frames in the contract's fixed order and the diagnostics
/// that depend on the size (conflicts, ambiguity, negative sizes).
public struct Layout: Sendable {
    /// `(name, frame)`: `superview` first, then the views sorted by name.
    public var frames: [(name: String, frame: Frame)]
    /// `(name, frame)` of each layout guide of `guides`, sorted by name, relative to its
    /// owner (or the container with `coordinates: root`); `safeArea` is not listed.
    public var guides: [(name: String, frame: Frame)] = []
    /// Conflicts, ambiguity and negative sizes found at this size.
    public var diagnostics: [LayoutDiagnostic]
    /// Whether the scene cannot be laid out as asked: a conflict under `conflicts: error`,
    /// or ambiguity under `ambiguity: error` (→ 422 without frames).
    public var isRejected: Bool
    /// The solved container size, points (the fitting size for an omitted dimension).
    public var containerWidth: Double
    public var containerHeight: Double
    /// Each label's `text` answer (contract, "Text": the lines shown and whether the text
    /// is cut off), sorted by name; empty for a scene without labels.
    public var text: [LabelText] = []
    /// The fields `explain` asks for, each with the constraints that move it
    /// (``CompiledScene/explainedFields`` order); empty without `explain` or when rejected.
    public var explanations: [FieldExplanation] = []
    /// Per view, in ``frames``' order (then the layout guides, in their order), its frame
    /// fields that are ambiguous: bit 1 its width, bit 2 its height, bit 4 its x, bit 8 its
    /// y (as reported: relative to the parent, or to the container under `coordinates:
    /// root`). Every ambiguous field counts, also those past the diagnostics list's bound;
    /// empty when the ambiguity check did not run (`ambiguity: ignore`, or it passed the
    /// work limit).
    public var ambiguousFields: [UInt8] = []
}

extension CompiledScene {
    /// Solves the scene at one container size.
    ///
    /// Constraints are added in the contract's order: the container's size (required, or
    /// `== 0` at priority 50 for an omitted dimension: the fitting size of
    /// `UILayoutFittingCompressedSize`), then ``constraints``. A required constraint the
    /// earlier ones exclude is reported as `unsatisfiable_constraints` with a minimal
    /// conflicting set, left out, and solving goes on (under `conflicts: error` the
    /// diagnostic is an error). Then every reported frame field is checked for ambiguity
    /// (unless `ambiguity: ignore`) and every size for being negative.
    ///
    /// - Complexity: one incremental Cassowary solve; explanations only on conflict.
    public func solve(size: ContainerSize) -> Layout {
        var budget = limits.maxSolverWork
        return solve(size: size, budget: &budget)
    }

    /// ``solve(size:)`` spending at most `budget` cell operations, and subtracting what
    /// it spent (so several sizes of one request share one budget). The solver, the
    /// conflict explanations and the ambiguity analysis all draw on it; whichever runs
    /// out makes the layout a `limit_exceeded` error (``workLimitLayout(_:size:reason:)``).
    func solve(size: ContainerSize, budget: inout Int) -> Layout {
        guard budget > 0 else { return workLimitLayout([], size: size) }
        var solver = Solver()
        solver.reserveCapacity(variables: FrameField.keyCount(items: hierarchy.itemCount), constraints: constraints.count + 2)
        defer { budget -= min(budget, solver.cellOperations) }
        // Bulk load: required constraints are still checked one by one as they are
        // added (so conflicts are found in the contract's order); optional ones are
        // installed and optimised once at the end.
        solver.autoSolve = false
        // Explanations read each constraint's marker (``Solver/sensitivities(of:work:)``).
        solver.tracksMarkers = !scene.explain.isEmpty
        solver.workLimit = budget
        let refs = ConstraintRefCache()
        var added: [Int] = []           // handle.rawValue → position (see `compiledConstraint(at:)`)
        added.reserveCapacity(constraints.count + 2)
        // Position 0 and 1: the container's width and height; then ``constraints``
        // (read in place: copying them would retain every field of every constraint).
        let containerWidth = containerConstraint(variable: hierarchy.widthVariable(0), size: size.width, name: "width")
        let containerHeight = containerConstraint(variable: hierarchy.heightVariable(0), size: size.height, name: "height")
        func compiledConstraint(at position: Int) -> CompiledConstraint {
            position == 0 ? containerWidth : position == 1 ? containerHeight : constraints[position - 2]
        }

        var diagnostics: [LayoutDiagnostic] = []
        // The work of conflict explanations (scratch solvers), charged to `budget` too.
        var explanationWork = 0
        defer { budget -= min(budget, explanationWork) }
        // A conflict is an error in either policy (the layout is not what was written);
        // under `break` the layout is still answered, under `error` it is not.
        let conflictSeverity: Diagnostic.Severity = .error
        // Conflicts past ``LayoutDiagnostic/maxCount`` diagnostics are counted, not
        // explained: the constraint is left out all the same, and the list would drop
        // them (one request made 60,000 conflicts, each explained and quoted).
        var unexplained = 0
        var counts = CodeCounts()
        func found() -> [LayoutDiagnostic] { unexplained > 0 ? diagnostics + [.omission(unexplained)] : diagnostics }
        for index in 0..<(constraints.count + 2) {
            let constraint = index == 0 ? containerWidth.constraint : index == 1 ? containerHeight.constraint : constraints[index - 2].constraint
            do {
                let handle = try solver.addConstraint(constraint)
                if handle.rawValue >= added.count {
                    added.append(contentsOf: repeatElement(-1, count: handle.rawValue - added.count + 1))
                }
                added[handle.rawValue] = index
            } catch .unsatisfiableConstraint {
                if diagnostics.count >= LayoutDiagnostic.maxCount && !counts.admits(.unsatisfiableConstraints) {
                    unexplained += 1
                    continue
                }
                let compiled = compiledConstraint(at: index)
                guard let handles = solver.explainConflict(
                    compiled.constraint, workLimit: max(0, budget - solver.cellOperations - explanationWork),
                    work: &explanationWork)
                else {
                    return workLimitLayout(found(), size: size, reason: "explaining its conflicts")
                }
                // The diagnostic itself (its refs, message and encoding) is charged as
                // explanations and ambiguity diagnostics are.
                explanationWork &+= Self.conflictDiagnosticCost &+ Self.explanationRefCost &* (handles.count + 1)
                if solver.cellOperations &+ explanationWork > budget {
                    return workLimitLayout(found(), size: size, reason: "explaining its conflicts")
                }
                // What the explanations spent is no longer the solver's to spend.
                solver.workLimit = max(0, budget - explanationWork)
                let conflicting = handles.compactMap { handle -> ConstraintRef? in
                    let position = handle.rawValue < added.count ? added[handle.rawValue] : -1
                    return position >= 0 ? refs.ref(position) { compiledConstraint(at: position).ref } : nil
                } + [compiled.ref]
                diagnostics.append(conflictDiagnostic(compiled, conflicting: conflicting, severity: conflictSeverity))
                counts.add(.unsatisfiableConstraints)
            } catch .workLimitExceeded {
                return workLimitLayout(found(), size: size)
            } catch {
                if diagnostics.count >= LayoutDiagnostic.maxCount && !counts.admits(.invalidScene) {
                    unexplained += 1
                    continue
                }
                counts.add(.invalidScene)
                let compiled = compiledConstraint(at: index)
                let ref = compiled.ref
                diagnostics.append(LayoutDiagnostic(
                    code: .invalidScene, message: "The solver refused this constraint: \(error)",
                    constraint: ref.key, part: ref.part, id: ref.id, column: ref.column, source: compiled.source))
            }
        }
        diagnostics = found()
        do {
            try solver.solve()
        } catch .workLimitExceeded {
            return workLimitLayout(diagnostics, size: size)
        } catch {
            diagnostics.append(LayoutDiagnostic(code: .invalidScene, message: "The solver failed: \(error)"))
        }
        var analysisWork = 0
        defer { budget -= min(budget, analysisWork) }
        func constraintRef(_ handle: ConstraintHandle) -> ConstraintRef? {
            let position = handle.rawValue < added.count ? added[handle.rawValue] : -1
            return position >= 0 ? refs.ref(position) { compiledConstraint(at: position).ref } : nil
        }
        var layout = readLayout(from: solver, diagnostics: diagnostics, size: size,
                                workLimit: max(0, budget - solver.cellOperations - explanationWork), work: &analysisWork,
                                refs: refs, constraintRef: constraintRef)
        if !scene.explain.isEmpty && !layout.isRejected {
            var explainWork = 0
            let explained = explanations(from: solver, workLimit: max(0, budget - solver.cellOperations - explanationWork - analysisWork),
                                         work: &explainWork, ref: constraintRef)
            analysisWork += explainWork
            guard let explained else { return workLimitLayout(layout.diagnostics, size: size, reason: "explaining its frames") }
            layout.explanations = explained
        }
        return layout
    }

    /// The answer when solving took more than ``SceneLimits/maxSolverWork``: no frames,
    /// a `limit_exceeded` error (422). `reason` names the step that ran out: solving,
    /// explaining its conflicts, or ``ambiguityReason`` (only that one suggests
    /// `"ambiguity": "ignore"`).
    func workLimitLayout(_ diagnostics: [LayoutDiagnostic], size: ContainerSize, reason: String = "solving it") -> Layout {
        var message = "This scene takes more work than allowed (limit maxSolverWork, \(limits.maxSolverWork) cell operations for a request, all its sizes together) in \(reason): simplify it, split it, or raise --max-solver-work"
        if reason == Self.ambiguityReason { message += "; \"ambiguity\": \"ignore\" skips the check" }
        var refusal = LayoutDiagnostic(code: .limitExceeded, message: message)
        refusal.isWorkBudget = true
        return Layout(frames: [], diagnostics: LayoutDiagnostic.appending(refusal, to: diagnostics),
                      isRejected: true, containerWidth: size.width ?? 0, containerHeight: size.height ?? 0)
    }

    /// Solves the scene at each size: what ``solve(size:)`` answers for each, computed
    /// from one compiled and solved state where that gives the same answer.
    ///
    /// The scene's constraints are solved once (``makeResizableBase(fitsWidth:fitsHeight:)``),
    /// with a fitted dimension's `== 0 @50` and, for a given dimension, an edit variable
    /// on the container's size at a strength above every priority below 1000. Each size
    /// then suggests its width and height (the dual simplex re-optimises from the
    /// previous size's optimum: Cassowary's resize path). When the suggestion holds
    /// exactly, no required constraint excludes that size, and because the edit outranks
    /// every optional priority the optimum is the one of a separate solve with the size
    /// required — identical whenever that optimum is unique (no ambiguity). Otherwise
    /// (the size is excluded: a conflict; an ambiguous field; or `ambiguity: ignore`,
    /// where ambiguity is not checked) that size is solved from scratch in the
    /// contract's order.
    ///
    /// One size takes the same path (base, then one suggestion), so a request for one
    /// size answers exactly what the first size of a `sizes` request does, and `base`
    /// can hand out a base solved before: a service keeps them per scene structure
    /// (everything but the container's size), and a scene asked again at another size
    /// then skips compiling and the base solve. `base(fitsWidth, fitsHeight)` must return
    /// what ``makeResizableBase(fitsWidth:fitsHeight:)`` of this scene returns; its
    /// recorded work is charged to the request's budget as if it had run here, so the
    /// answer (work-limit errors included) does not depend on whether it was kept.
    ///
    /// - Complexity: one full solve per combination of fitted dimensions (none with a
    ///   kept base), then per size one or two suggestions (dual simplex from the
    ///   previous size's optimum) and the ambiguity check.
    public func solve(sizes: [ContainerSize],
                      base makeBase: ((_ fitsWidth: Bool, _ fitsHeight: Bool) -> ResizableBase)? = nil) -> [Layout] {
        var budget = limits.maxSolverWork
        return solve(sizes: sizes, base: makeBase, budget: &budget)
    }

    /// ``solve(sizes:base:)`` spending at most `budget` cell operations and subtracting
    /// what it spent (the text passes share one budget with it).
    func solve(sizes: [ContainerSize], base makeBase: ((_ fitsWidth: Bool, _ fitsHeight: Bool) -> ResizableBase)?,
               budget: inout Int) -> [Layout] {
        // With `explain`, each size is a separate solve whose solver tracks markers (the
        // resizable base does not): the explanation is read from the tableau that gave
        // the frames, and is exactly what a separate /solve answers.
        guard scene.options.ambiguity != .ignore && scene.explain.isEmpty else { return sizes.map { solve(size: $0, budget: &budget) } }
        // By which dimensions are given (bit 0 the width, bit 1 the height): the solver
        // moving from size to size (`.some(nil)`: none, each size is solved from scratch),
        // and the base it came from when a scratch copy of it is to be given back.
        var bases = ByGivenDimensions<Solver??>(repeating: nil)
        var lenders = ByGivenDimensions<ResizableBase?>(repeating: nil)
        defer {
            // Each scratch copy back to its base, restored (a copy left broken by the work
            // limit is dropped).
            for key in 0..<4 {
                // Moved out of the table: the copy's only reference is `solver`, restored in place.
                guard let lender = lenders[key], lender.solver != nil, case .some(.some(let solver)) = bases[key].take() else { continue }
                lender.scratch.give(consume solver, restoredFrom: lender.solver!)
            }
        }
        /// One size on `solver`: its suggestions, then the layout read from it, or the
        /// size solved from scratch when the resize path cannot answer it. `isBroken` is
        /// set when the solver must not be resized further.
        func resize(_ solver: inout Solver, to size: ContainerSize, start: Int, memo: AmbiguityMemo?, isBroken: inout Bool) -> Layout {
            solver.workLimit = solver.cellOperations > Int.max - budget ? Int.max : solver.cellOperations + budget
            if memo != nil { solver.pivotTrail = [] }
            // The width, then the height (without a list of the two to allocate).
            for dimension in 0..<2 {
                let variable = dimension == 0 ? hierarchy.widthVariable(0) : hierarchy.heightVariable(0)
                guard let value = dimension == 0 ? size.width : size.height else { continue }
                do throws(SolverError) {
                    try solver.suggestValue(value, for: variable)
                } catch .workLimitExceeded {
                    isBroken = true   // mid-optimisation: no more resizing from it
                    return workLimitLayout([], size: size)
                } catch {
                    isBroken = true
                    return solve(size: size, budget: &budget)
                }
                // The edit did not hold: the required constraints exclude this size.
                guard abs(solver.value(of: variable) - value) <= 1e-9 * max(1, abs(value)) else { return solve(size: size, budget: &budget) }
            }
            solver.updateVariables()   // the values of every view at once
            var known: (AmbiguityMemo, AmbiguityMemo.Signature)? = nil
            if let memo, let trail = solver.pivotTrail {
                known = (memo, AmbiguityMemo.Signature(pivots: trail, degenerate: solver.degenerateRows()))
            }
            solver.pivotTrail = nil
            var analysisWork = 0
            let layout = readLayout(from: solver, diagnostics: [], size: size,
                                    workLimit: max(0, budget - (solver.cellOperations - start)), work: &analysisWork,
                                    memo: known)
            budget -= min(budget, analysisWork)
            if layout.diagnostics.contains(where: { $0.code == .ambiguousLayout || ($0.code == .limitExceeded && $0.omitted == nil) }) {
                // The analysis (and its diagnostics, charged per ambiguous field) used up
                // what was left: say so, since `"ambiguity": "ignore"` would skip it.
                if budget == 0 { return workLimitLayout([], size: size, reason: Self.ambiguityReason) }
                return solve(size: size, budget: &budget)
            }
            return layout
        }
        return sizes.map { size in
            guard budget > 0 else { return workLimitLayout([], size: size) }
            let key = (size.width == nil ? 0 : 1) | (size.height == nil ? 0 : 2)
            // Taken out of the table while it is used, so that it is the only reference
            // to its storage and moves in place (left in, every size would copy it).
            var base: Solver?
            // Set when the solver comes straight from the base (not from another size).
            var memo: AmbiguityMemo? = nil
            if let taken = bases[key].take() {
                base = consume taken
            } else {
                let fitsWidth = size.width == nil, fitsHeight = size.height == nil
                var built: ResizableBase? = makeBase?(fitsWidth, fitsHeight) ?? makeResizableBase(fitsWidth: fitsWidth, fitsHeight: fitsHeight)
                let work = built!.work
                // Over the budget left: what building it here would have run into.
                if work <= budget, built!.solver != nil {
                    if isKnownUniquelyReferenced(&built) {
                        // Nothing else holds this base (built here, or by a `makeBase` that
                        // keeps none): no later request can take a copy of it, so its own
                        // solver is resized, in place once the base is released here. No
                        // scratch copy is made, restored and freed, and the suggestions copy
                        // no table; the layouts are those of a copy, which equals the base
                        // in every stored value (`StructureCacheTests.anUnkeptBaseIsResizedInPlace`).
                        // Its memo would be freed with it: none is kept.
                        base = built!.solver
                        built = nil
                    } else if makeBase != nil {
                        // A base handed out by `makeBase` may be kept for other requests: its
                        // scratch copies are used and given back.
                        base = built!.scratch.take() ?? built!.solver
                        lenders[key] = built
                        memo = built!.memo
                    } else {
                        base = built!.solver
                        memo = built!.memo
                    }
                } else {
                    base = nil
                }
                budget -= min(budget, work)
            }
            // Moved out of `base`, so that a scratch copy is the only reference to its
            // storage and is written in place. Kept optional and moved back with `take()`:
            // unwrapped into a variable of its own, it was copied once a size.
            var solver = base.take()
            guard solver != nil else {
                bases[key] = .some(nil)
                return solve(size: size, budget: &budget)
            }
            // The solver moves from size to size in place (no copy): the optimum at a size
            // does not depend on the path when it is unique, and it is checked to be.
            var isBroken = false
            let start = solver!.cellOperations
            let layout = resize(&solver!, to: size, start: start, memo: memo, isBroken: &isBroken)
            // Charged after the layout (and any solve from scratch it fell back to), then
            // moved back into the table.
            budget -= min(budget, solver!.cellOperations - start)
            solver!.pivotTrail = nil
            bases[key] = isBroken ? .some(nil) : .some(solver.take())
            return layout
        }
    }

    /// The ``workLimitLayout(_:size:reason:)`` reason of the ambiguity analysis.
    static let ambiguityReason = "checking it for ambiguity"

    /// What one ambiguity diagnostic costs against the work limit, in cell operations
    /// (measured: about 15 µs a field with its notes and encoding, where a cell
    /// operation takes about 6 ns).
    static let ambiguityDiagnosticCost = 2_500

    /// What one explained conflict's diagnostic costs against the work limit, in cell
    /// operations, besides ``explanationRefCost`` for each constraint it names and the
    /// explanation's own work (measured on the release build: about 25 µs a conflict
    /// with its message and encoding, where a cell operation takes about 6 ns). So a
    /// request of `sizes` whose every size explains conflicts stops at the budget's
    /// pace (`hostile/budget-conflicts-sizes`).
    public static let conflictDiagnosticCost = 2_500

    /// How many ambiguous fields of one layout get their tied constraints named.
    static let maxExplainedAmbiguities = 200

    /// The strength of the container-size edit variables in ``solve(sizes:)``: above
    /// every optional priority (which are below 1000), below required.
    static let resizeStrength = Strength(1000.0.nextDown)

    /// The scene solved once for ``solve(sizes:)``: its constraints, the fitting
    /// constraints of the fitted dimensions, and edit variables on the given ones, with
    /// the cell operations it took. Its solver is `nil` when a required constraint
    /// conflicts already (every size then needs the contract's order to name the
    /// conflict) or ``SceneLimits/maxSolverWork`` is exceeded.
    ///
    /// A pure function of the scene without its container size: the same base for
    /// every size, so it may be kept and reused across requests.
    /// - Complexity: one bulk load and solve of the scene.
    public func makeResizableBase(fitsWidth: Bool, fitsHeight: Bool) -> ResizableBase {
        var base = Solver()
        base.reserveCapacity(variables: FrameField.keyCount(items: hierarchy.itemCount), constraints: constraints.count + 2)
        base.autoSolve = false
        base.workLimit = limits.maxSolverWork
        do {
            if fitsWidth {
                try base.addConstraint(containerConstraint(variable: hierarchy.widthVariable(0), size: nil, name: "width").constraint)
            }
            if fitsHeight {
                try base.addConstraint(containerConstraint(variable: hierarchy.heightVariable(0), size: nil, name: "height").constraint)
            }
            for compiled in constraints {
                try base.addConstraint(compiled.constraint)
            }
            try base.solve()
            base.autoSolve = true
            if !fitsWidth { try base.addEditVariable(hierarchy.widthVariable(0), strength: Self.resizeStrength) }
            if !fitsHeight { try base.addEditVariable(hierarchy.heightVariable(0), strength: Self.resizeStrength) }
        } catch {
            // A work-limit error leaves the count at or over the limit: over any budget.
            return ResizableBase(solver: nil, work: base.cellOperations)
        }
        return ResizableBase(solver: base, work: base.cellOperations)
    }

    func containerConstraint(variable: Variable, size: Double?, name: String) -> CompiledConstraint {
        if let size {
            return CompiledConstraint(
                constraint: Constraint(Expression(terms: [Term(variable, 1)], constant: -size), .equal),
                words: .container(dimension: name, size: size))
        }
        return CompiledConstraint(
            constraint: Constraint(Expression(terms: [Term(variable, 1)]), .equal, strength: strength(forPriority: 50)),
            words: .container(dimension: name, size: nil))
    }

    func conflictDiagnostic(_ broken: CompiledConstraint, conflicting: [ConstraintRef], severity: Diagnostic.Severity) -> LayoutDiagnostic {
        let others = conflicting.count - 1
        let brokenRef = broken.ref
        var message = "Unable to simultaneously satisfy constraints: '\(brokenRef.text)' conflicts with "
        if others == 0 {
            // Alone in its conflict set: its terms cancel (variables are unrestricted, so
            // any other linear constraint holds somewhere), as in `a.width == a.width + 1`.
            message = "Unable to satisfy constraint: '\(brokenRef.text)' can never hold (its view attributes cancel out)"
        } else if others == 1, let first = conflicting.first {
            message += "'\(first.text)'"
        } else {
            message += "\(others) earlier constraints"
        }
        message += scene.options.conflicts == .error ? "" : "; it was left out"
        return LayoutDiagnostic(
            severity: severity, code: .unsatisfiableConstraints, message: message,
            constraint: brokenRef.key, part: brokenRef.part, id: brokenRef.id, column: brokenRef.column,
            source: broken.source, broken: brokenRef, conflicting: conflicting)
    }

    /// `constraintRef`, when given, names the constraint behind a solver handle, so an
    /// ambiguity diagnostic can name the constraints that tie; `refs` is the layout's
    /// cache of rendered refs (the one `constraintRef` uses, when it has one).
    ///
    /// `memo`, when given, holds analyses of tableaux reached from the same base, and the
    /// signature of this one: a kept analysis that found every field determined is
    /// reused (charged at its work, when that is within `workLimit`), and a new one that
    /// does is kept.
    ///
    /// The steps: the solved frames (``solvedFrames(_:)``) and their answered form
    /// (``answeredFrames(_:)``), ambiguity (``reportAmbiguity(_:into:workLimit:work:refs:constraintRef:memo:)``),
    /// negative sizes (``reportNegativeSizes(_:ambiguousFields:size:into:)``), then the
    /// range check and whether the layout is rejected (``finishedLayout(_:findings:frames:guides:)``).
    func readLayout(from solver: Solver, diagnostics: [LayoutDiagnostic], size: ContainerSize, workLimit: Int, work: inout Int,
                    refs: ConstraintRefCache = ConstraintRefCache(),
                    constraintRef: ((ConstraintHandle) -> ConstraintRef?)? = nil,
                    memo: (AmbiguityMemo, AmbiguityMemo.Signature)? = nil) -> Layout {
        var findings = LayoutFindings(diagnostics)
        let absolute = solvedFrames(solver)
        let (frames, guideFrames) = answeredFrames(absolute)
        var ambiguousFields: [UInt8] = []
        if scene.options.ambiguity != .ignore {
            guard let sizes = reportAmbiguity(solver, into: &findings, workLimit: workLimit, work: &work, refs: refs,
                                              constraintRef: constraintRef, memo: memo) else {
                return workLimitLayout(findings.diagnostics, size: ContainerSize(width: absolute[0].width, height: absolute[0].height),
                                       reason: Self.ambiguityReason)
            }
            ambiguousFields = sizes
        }
        reportNegativeSizes(absolute, ambiguousFields: ambiguousFields, size: size, into: &findings)
        var layout = finishedLayout(absolute, findings: findings, frames: frames, guides: guideFrames)
        layout.ambiguousFields = ambiguousFields   // the analysis's own array: no copy per layout
        return layout
    }

    /// The diagnostics of one layout as they are found: past ``LayoutDiagnostic/maxCount``
    /// in the layout, findings are counted, not built, but for the first
    /// ``LayoutDiagnostic/keptPerCode`` of each code.
    struct LayoutFindings {
        var diagnostics: [LayoutDiagnostic]
        /// Diagnostics that may still be listed within ``LayoutDiagnostic/maxCount``.
        var room: Int
        /// Findings counted past the bound (one ``LayoutDiagnostic/omission(_:)`` at the end).
        var omitted = 0
        /// The codes of ``diagnostics``, counted.
        var counts: CodeCounts

        init(_ diagnostics: [LayoutDiagnostic]) {
            self.diagnostics = diagnostics
            room = LayoutDiagnostic.maxCount - diagnostics.reduce(0) { $0 + ($1.omitted == nil ? 1 : 0) }
            counts = CodeCounts(diagnostics)
        }

        /// How many diagnostics of `code` found from now on are listed (built).
        func listable(_ code: LayoutDiagnostic.Code) -> Int {
            max(0, room, LayoutDiagnostic.keptPerCode - counts[code])
        }

        /// Whether a diagnostic of `code` found now is listed.
        func admits(_ code: LayoutDiagnostic.Code) -> Bool { room > 0 || counts.admits(code) }

        mutating func report(_ code: LayoutDiagnostic.Code, _ make: @autoclosure () -> LayoutDiagnostic) {
            if admits(code) {
                diagnostics.append(make())
                room -= 1
                counts.add(code)
            } else {
                omitted += 1
            }
        }
    }

    /// Every view's and guide's frame relative to the container, exact, in hierarchy order
    /// (the container at 0, 0): a view's alignment rectangle, which its variables hold,
    /// grown by its ``ViewSpec/alignmentInsets``.
    func solvedFrames(_ solver: Solver) -> [Frame] {
        var absolute: [Frame] = []
        absolute.reserveCapacity(hierarchy.itemCount)
        for view in 0..<hierarchy.itemCount {
            var frame = Frame(
                x: view == 0 ? 0 : solver.value(of: hierarchy.xVariable(view)),
                y: view == 0 ? 0 : solver.value(of: hierarchy.yVariable(view)),
                width: solver.value(of: hierarchy.widthVariable(view)),
                height: solver.value(of: hierarchy.heightVariable(view)))
            if view != 0, !hierarchy.isGuide(view) {
                let inset = scene.views[view - 1].alignmentInsets
                if inset != .zero {
                    frame = Frame(x: frame.x - inset.left, y: frame.y - inset.top,
                                  width: frame.width + inset.left + inset.right, height: frame.height + inset.top + inset.bottom)
                }
            }
            absolute.append(frame)
        }
        return absolute
    }

    /// The views' and guides' frames as answered: pixel-aligned with `displayScale`,
    /// relative to the parent (or the container under `coordinates: root`), rounded for
    /// the response. Every diagnostic is still judged on the exact frames (contract).
    func answeredFrames(_ absolute: [Frame]) -> (views: [(name: String, frame: Frame)], guides: [(name: String, frame: Frame)]) {
        let relativeToRoot = scene.options.coordinates == .root
        let shown = scene.options.displayScale.map { Self.pixelAligned(absolute, scale: $0) } ?? absolute
        func answered(_ view: Int) -> (name: String, frame: Frame) {
            let parent = hierarchy.parents[view]
            var frame = shown[view]
            if !relativeToRoot && view != 0 {
                frame.x -= shown[parent].x
                frame.y -= shown[parent].y
            }
            return (hierarchy.names[view], Frame(
                x: roundedForResponse(frame.x), y: roundedForResponse(frame.y),
                width: roundedForResponse(frame.width), height: roundedForResponse(frame.height)))
        }
        var frames: [(name: String, frame: Frame)] = []
        frames.reserveCapacity(hierarchy.count)
        for view in 0..<hierarchy.count { frames.append(answered(view)) }
        return (frames, hierarchy.guides.map(answered))
    }

    /// Reports each frame field the constraints leave ambiguous, with the constraints that
    /// tie when `constraintRef` can name them.
    /// - Returns: by view, its fields reported ambiguous (bit 1 width, 2 height, 4 x, 8 y,
    ///   as ``Layout/ambiguousFields``); `nil` when the analysis passed `workLimit`.
    func reportAmbiguity(_ solver: Solver, into findings: inout LayoutFindings, workLimit: Int, work: inout Int,
                         refs: ConstraintRefCache, constraintRef: ((ConstraintHandle) -> ConstraintRef?)?,
                         memo: (AmbiguityMemo, AmbiguityMemo.Signature)?) -> [UInt8]? {
        // Grown from empty rather than `Array(repeating:count:)` (an allocation that is not
        // specialised, with a run-time type lookup): one per layout.
        var ambiguousFields: [UInt8] = []
        ambiguousFields.reserveCapacity(hierarchy.itemCount)
        ambiguousFields.append(contentsOf: repeatElement(0, count: hierarchy.itemCount))
        let severity: Diagnostic.Severity = scene.options.ambiguity == .error ? .error : .warning
        // Every reported field as an expression (built once at compile time), checked in
        // one batch (one index of the tableau's degenerate rows shared by all queries).
        let determined: [Bool]
        if let (kept, signature) = memo, let knownWork = kept.work(for: signature), knownWork <= workLimit {
            // The same tableau as an analysis that completed within this limit and found
            // every field determined: nothing to report, no diagnostic to charge.
            work &+= knownWork
            return ambiguousFields
        } else {
            let before = work
            guard let answers = solver.areDetermined(frameFieldDifferences, workLimit: workLimit, work: &work) else { return nil }
            determined = answers
            if let (kept, signature) = memo, !answers.contains(false) { kept.record(signature, work: work - before) }
        }
        let ambiguous = determined.indices.filter { !determined[$0] }
        // The tied constraints of each ambiguous field, in one batch (the first
        // `maxExplainedAmbiguities` fields; a scene with thousands of ambiguous
        // fields gets the axis notes for the rest, which bounds the work).
        var causes: [[ConstraintHandle]] = []
        if constraintRef != nil {
            let explained = ambiguous.prefix(min(Self.maxExplainedAmbiguities, findings.listable(.ambiguousLayout)))
            // Naming the ties is a courtesy: within what is left of the budget.
            causes = solver.ambiguityCauses(explained.map { frameFieldDifferences[$0] },
                                            workLimit: max(0, workLimit - work)).map(\.ties)
        }
        for (order, index) in ambiguous.enumerated() {
            let field = frameFields[index]
            switch field.field {
            case .width: ambiguousFields[field.view] |= 1
            case .height: ambiguousFields[field.view] |= 2
            case .x: ambiguousFields[field.view] |= 4
            case .y: ambiguousFields[field.view] |= 8
            }
            let tied = order < causes.count ? causes[order].compactMap { constraintRef?($0) } : []
            findings.report(.ambiguousLayout, ambiguityDiagnostic(field, severity: severity, tied: tied, refs: refs))
        }
        // Writing each diagnostic is work too, and with `sizes` there is one per
        // ambiguous field per size (200 ambiguous views at 1,000 sizes: 399,000
        // diagnostics, 6 s and 200 MB): charged in cell operations of like time.
        work &+= Self.ambiguityDiagnosticCost &* ambiguous.count
        return ambiguousFields
    }

    /// Reports each view's negative width or height, and a guide's when a constraint names
    /// it (contract: a guide placed between two edges that cross is otherwise no one's
    /// mistake to flag). A negative size that is ambiguous (`ambiguousFields`, from
    /// ``reportAmbiguity(_:into:workLimit:work:refs:constraintRef:memo:)``) is one arbitrary
    /// solution of many, not what the constraints make it: its `ambiguous_layout`
    /// diagnostic says what to fix.
    func reportNegativeSizes(_ absolute: [Frame], ambiguousFields: [UInt8], size: ContainerSize, into findings: inout LayoutFindings) {
        func checkSize(_ field: String, _ value: Double, of view: Int) {
            guard value < -1e-6 else { return }
            if view < ambiguousFields.count && ambiguousFields[view] & (field == "width" ? 1 : 2) != 0 { return }
            guard findings.admits(.negativeSize) else { findings.omitted += 1; return }
            // A fitted container (no size on this axis) is as small as the constraints
            // allow, which is often what drives a view below 0: the note says so.
            var notes: [String] = []
            let isFitted = field == "width" ? size.width == nil : size.height == nil
            if isFitted && view != 0 {
                let fitted = JSONWriter.format(roundedForResponse(field == "width" ? absolute[0].width : absolute[0].height))
                notes.append("the container's \(field) was fitted (none was given) to \(fitted) points, the least the constraints allow; give the container a \(field), or '\(hierarchy.names[view])' a \(field)\(hierarchy.isGuide(view) ? "" : " or an intrinsic size")")
            }
            findings.report(.negativeSize, LayoutDiagnostic(
                severity: .warning, code: .negativeSize,
                message: "'\(hierarchy.names[view])' has a negative \(field) (\(JSONWriter.format(roundedForResponse(value))) points)",
                view: hierarchy.names[view], attribute: field, notes: notes))
        }
        let count = hierarchy.count
        for view in 0..<count {
            checkSize("width", absolute[view].width, of: view)
            checkSize("height", absolute[view].height, of: view)
        }
        for guide in hierarchy.guides {
            let named = guideSizesNamed[guide - count]
            if named & 1 != 0 { checkSize("width", absolute[guide].width, of: guide) }
            if named & 2 != 0 { checkSize("height", absolute[guide].height, of: guide) }
        }
    }

    /// The layout with its diagnostics closed: the omission count, a `limit_exceeded` when a
    /// solved length passes ±``maximumMagnitude`` (it rejects the layout, kept within the
    /// bound whatever came before it), and whether the layout is rejected.
    func finishedLayout(_ absolute: [Frame], findings: LayoutFindings, frames: [(name: String, frame: Frame)],
                        guides guideFrames: [(name: String, frame: Frame)]) -> Layout {
        var diagnostics = findings.diagnostics
        func isOutOfRange(_ value: Double) -> Bool { !(abs(value) <= maximumMagnitude) }
        if findings.omitted > 0 { diagnostics.append(.omission(findings.omitted)) }
        if absolute.contains(where: { isOutOfRange($0.x) || isOutOfRange($0.y) || isOutOfRange($0.width) || isOutOfRange($0.height) }) {
            diagnostics = LayoutDiagnostic.appending(LayoutDiagnostic(
                code: .limitExceeded,
                message: "The solution has lengths beyond ±\(JSONWriter.format(maximumMagnitude)) points; the constraints push views far out (limit maxMagnitude)"),
                to: diagnostics)
        }
        let rejected = diagnostics.contains { diagnostic in
            (diagnostic.code == .limitExceeded && diagnostic.omitted == nil)
                || (diagnostic.code == .unsatisfiableConstraints && scene.options.conflicts == .error)
                || (diagnostic.code == .ambiguousLayout && diagnostic.isError)
        }
        return Layout(frames: frames, guides: guideFrames, diagnostics: diagnostics, isRejected: rejected,
                      containerWidth: roundedForResponse(absolute[0].width), containerHeight: roundedForResponse(absolute[0].height))
    }

    /// `tied`: the optional constraints of one priority whose errors trade against each
    /// other as the field moves (``Cassowary/Solver/ambiguityCauses(_:)``), if known.
    func ambiguityDiagnostic(_ frameField: FrameField, severity: Diagnostic.Severity,
                             tied: [ConstraintRef], refs: ConstraintRefCache) -> LayoutDiagnostic {
        let view = frameField.view
        let field = frameField.field.name
        let name = hierarchy.names[view]
        let isHorizontal = frameField.field.isHorizontal
        let axisName = isHorizontal ? "horizontal" : "vertical"
        var message = "The \(field) of '\(name)' is ambiguous: other layouts satisfy the same constraints equally well"
        var notes: [String] = []
        let involved = mentioned[FrameField.origin(of: view, horizontal: isHorizontal)]
        if tied.count >= 2 {
            // A tie: these wishes pull the field apart equally hard.
            let shown = tied.prefix(4).map(Self.describe)
            var note = "These constraints tie (same priority, and every value between them costs the same): "
                + shown.joined(separator: ", ")
            if tied.count > shown.count { note += " and \(tied.count - shown.count) more" }
            notes.append(note)
            if let content = contentPriorityAmbiguityNote(tied) { notes.append(content) }
            notes.append("Fix it by giving one of them a higher priority, or with a required constraint on its \(field)")
        } else if view != 0 && involved.isEmpty {
            message += "; no constraint mentions its \(axisName) attributes"
        } else if !involved.isEmpty {
            // The constraints on that axis: a missing one, or a tie between two of the same
            // priority, is among what they leave open.
            let shown = involved.prefix(4).map { index in Self.describe(refs.ref(index + 2) { constraints[index].ref }) }
            var note = "Its \(axisName) constraints: " + shown.joined(separator: ", ")
            if involved.count > shown.count { note += " and \(involved.count - shown.count) more" }
            notes.append(note)
            let sizesOnly = involved.allSatisfy { index in
                if case .intrinsic = constraints[index].words { return true } else { return false }
            }
            if sizesOnly && (field == "x" || field == "y") {
                // Hugging and compression resistance give a size: no tie to break, nothing
                // places the view (LayoutGuideTests.safeAreaDefinitionsComeFirstAndMentionsFollowThem).
                let (edge, example) = isHorizontal ? ("leading, centerX or trailing", "\(name).leading == superview.leading + 16")
                                                   : ("top, centerY or bottom", "\(name).top == superview.top + 16")
                notes.append("Nothing places it: these give only its \(isHorizontal ? "width" : "height"). "
                    + "Fix it with a required constraint on its \(edge), such as '\(example)'")
            } else {
                notes.append("Fix it with a required constraint on its \(field), or give tied constraints different priorities")
            }
        }
        return LayoutDiagnostic(severity: severity, code: .ambiguousLayout, message: message, view: name, attribute: field, notes: notes)
    }

    /// A constraint as a note names it: `'a.width == 100' (constraints[2] part 0)`.
    static func describe(_ ref: ConstraintRef) -> String {
        "'\(ref.text)' (\(ref.key.displayName)\(ref.part.map { " part \($0)" } ?? ""))"
    }
}

extension ViewHierarchy {
    /// Every reported frame field and its expression over the view variables (a variable
    /// or the difference of two, one array for all): the container's width and height,
    /// then each view's x, y (relative to its parent, or to the container with
    /// `coordinates: root`), width and height, then each layout guide's likewise
    /// (relative to its owner; not `safeArea`'s). Built once per compiled scene; every
    /// solve checks these for ambiguity.
    func frameFields(relativeToRoot: Bool) -> (fields: [FrameField], expressions: [VariableDifference]) {
        var fields: [FrameField] = []
        var expressions: [VariableDifference] = []
        // The views, then the guides (not `safeArea`: it is the container's, never ambiguous):
        // the items before `safeArea`, as the guides follow the views (`guides.lowerBound == count`).
        let reported = 0..<guides.upperBound
        let fieldCount = FrameField.Field.allCases.count
        fields.reserveCapacity(fieldCount * reported.count)
        expressions.reserveCapacity(fieldCount * reported.count)
        for view in reported {
            if view == 0 {
                fields.append(FrameField(view: 0, .width))
                expressions.append(VariableDifference(widthVariable(0)))
                fields.append(FrameField(view: 0, .height))
                expressions.append(VariableDifference(heightVariable(0)))
            } else {
                let base = relativeToRoot ? 0 : parents[view]
                // `absoluteX(view) - absoluteX(base)`: the container's x is 0.
                fields.append(FrameField(view: view, .x))
                expressions.append(VariableDifference(xVariable(view), minus: base == 0 ? nil : xVariable(base)))
                fields.append(FrameField(view: view, .y))
                expressions.append(VariableDifference(yVariable(view), minus: base == 0 ? nil : yVariable(base)))
                fields.append(FrameField(view: view, .width))
                expressions.append(VariableDifference(widthVariable(view)))
                fields.append(FrameField(view: view, .height))
                expressions.append(VariableDifference(heightVariable(view)))
            }
        }
        return (fields, expressions)
    }
}

/// The refs of one layout's constraints by position (0 and 1 the container's size, then
/// ``CompiledScene/constraints``), each rendered once. Diagnostics quote the same
/// constraints many times, and rendering one is O(its text): an equation of 4,000 terms
/// named in 16,000 ambiguous fields was rendered 16,000 times (3 s). Lookups only.
final class ConstraintRefCache {
    private var refs: [Int: ConstraintRef] = [:]

    /// The ref at `position`, made by `make` the first time.
    func ref(_ position: Int, _ make: () -> ConstraintRef) -> ConstraintRef {
        if let known = refs[position] { return known }
        let made = make()
        refs[position] = made
        return made
    }
}
