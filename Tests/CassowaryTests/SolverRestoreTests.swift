@testable import Cassowary
import Testing

/// ``Solver/restore(from:)``: a scratch copy restored after a resize behaves exactly as a
/// new copy of its base (the resize path of a kept base relies on it).
struct SolverRestoreTests {
    /// A flow layout with a free root width under an edit variable, resized to seeded
    /// widths: each round on a new copy of the base and on one scratch copy restored after
    /// every round. The values (bit for bit), pivots and cell operations are the same, and
    /// after each restore the scratch reads as the base.
    @Test func aRestoredSolverResizesAsACopyOfItsBase() throws {
        var flow = try FlowLayout(rows: 6, pinnedWidth: false)
        let root = flow.variables[0]
        try flow.solver.addEditVariable(root, strength: Strength(1e9))
        let base = flow.solver
        let baseValues = flow.variables.map { base.value(of: $0).bitPattern }
        var scratch = base
        var state: UInt64 = 11
        var pivots = 0
        for round in 0..<40 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let width = 200 + Double(state >> 44) / 4   // 200 to about 1,200, in quarters
            var copy = base
            try copy.suggestValue(width, for: root)
            copy.updateVariables()
            try scratch.suggestValue(width, for: root)
            scratch.updateVariables()
            #expect(scratch.cellOperations == copy.cellOperations, "round \(round)")
            #expect(scratch.pivotCount == copy.pivotCount, "round \(round)")
            #expect(flow.variables.map { scratch.value(of: $0).bitPattern } == flow.variables.map { copy.value(of: $0).bitPattern },
                    "round \(round), width \(width)")
            pivots += copy.pivotCount - base.pivotCount
            // Then a second width on both, from the first one's optimum.
            try copy.suggestValue(width + 33.5, for: root)
            try scratch.suggestValue(width + 33.5, for: root)
            scratch.updateVariables()
            copy.updateVariables()
            #expect(flow.variables.map { scratch.value(of: $0).bitPattern } == flow.variables.map { copy.value(of: $0).bitPattern })
            scratch.restore(from: base)
            #expect(scratch.cellOperations == base.cellOperations && scratch.pivotCount == base.pivotCount)
            #expect(flow.variables.map { scratch.value(of: $0).bitPattern } == baseValues)
        }
        // The widths moved the basis (rows were pivoted and restored), and the base itself
        // was never written.
        #expect(pivots > 40)
        #expect(flow.variables.map { base.value(of: $0).bitPattern } == baseValues)
    }

    /// Two edit variables suggested in turn, sizes after other sizes: the scratch copy
    /// keeps its own edit table, basic flags, heap and scratch arrays across restores,
    /// and every round still matches a new copy of the base bit for bit, with the same
    /// pivots and cell operations. A solver whose edit variables differ from the base's
    /// (one more) is restored to the base's exactly: the extra one is gone.
    @Test func twoEditVariablesResizeAfterOtherSizesAsACopy() throws {
        var flow = try FlowLayout(rows: 5, pinnedWidth: false)
        let root = flow.variables[0], firstRowHeight = flow.variables[2]
        try flow.solver.addEditVariable(root, strength: Strength(1e9))
        try flow.solver.addEditVariable(firstRowHeight, strength: Strength(1e9))
        let base = flow.solver
        let baseValues = flow.variables.map { base.value(of: $0).bitPattern }
        var scratch = base
        let sizes: [(Double, Double)] = [(320, 44), (900.25, 44), (320, 60), (150.5, 8), (320, 44), (1_200, 100), (900.25, 44)]
        for (round, (width, height)) in sizes.enumerated() {
            var copy = base
            try copy.suggestValue(width, for: root)
            try copy.suggestValue(height, for: firstRowHeight)
            copy.updateVariables()
            try scratch.suggestValue(width, for: root)
            try scratch.suggestValue(height, for: firstRowHeight)
            scratch.updateVariables()
            #expect(scratch.cellOperations == copy.cellOperations && scratch.pivotCount == copy.pivotCount, "round \(round)")
            #expect(flow.variables.map { scratch.value(of: $0).bitPattern } == flow.variables.map { copy.value(of: $0).bitPattern },
                    "round \(round), \(width) × \(height)")
            #expect(copy.value(of: root) == width)
            scratch.restore(from: base)
            #expect(flow.variables.map { scratch.value(of: $0).bitPattern } == baseValues, "round \(round)")
            #expect(scratch.cellOperations == base.cellOperations && scratch.pivotCount == base.pivotCount)
        }
        // More edit variables than the base: restored to the base's two.
        let extra = flow.variables[5]
        try scratch.addEditVariable(extra, strength: Strength(1e9))
        try scratch.suggestValue(333, for: extra)
        try scratch.suggestValue(640, for: root)
        scratch.restore(from: base)
        #expect(!scratch.hasEditVariable(extra) && scratch.hasEditVariable(root) && scratch.hasEditVariable(firstRowHeight))
        #expect(throws: SolverError.unknownEditVariable(extra)) { try scratch.suggestValue(1, for: extra) }
        var copy = base
        try copy.suggestValue(640, for: root)
        try scratch.suggestValue(640, for: root)
        copy.updateVariables()
        scratch.updateVariables()
        #expect(scratch.cellOperations == copy.cellOperations)
        #expect(flow.variables.map { scratch.value(of: $0).bitPattern } == flow.variables.map { copy.value(of: $0).bitPattern })
        #expect(flow.variables.map { base.value(of: $0).bitPattern } == baseValues)
    }

    /// A copy stopped by its work limit in the middle of a re-solve is restored too.
    @Test func aSolverStoppedByItsWorkLimitIsRestored() throws {
        var flow = try FlowLayout(rows: 4, pinnedWidth: false)
        let root = flow.variables[0]
        try flow.solver.addEditVariable(root, strength: Strength(1e9))
        let base = flow.solver
        var scratch = base
        scratch.workLimit = scratch.cellOperations + 1
        #expect(throws: SolverError.workLimitExceeded) { try scratch.suggestValue(250, for: root) }
        scratch.restore(from: base)
        var copy = base
        try copy.suggestValue(250, for: root)
        try scratch.suggestValue(250, for: root)
        copy.updateVariables()
        scratch.updateVariables()
        #expect(scratch.cellOperations == copy.cellOperations)
        #expect(flow.variables.map { scratch.value(of: $0).bitPattern } == flow.variables.map { copy.value(of: $0).bitPattern })
        #expect(copy.value(of: root) == 250)
    }

    /// A scratch copy restored by its journal (only suggestions, solves and reads since its
    /// last restore from the base's state) holds exactly what a full restore gives: every
    /// row (constant and cells, bit for bit), basic flag, column set (members in iteration
    /// order), reduced-cost entry, level constant, definition value, edit value, counter and
    /// stamp; and both then resize alike. Two edit variables, sizes that pivot.
    @Test func aJournaledRestoreEqualsAFullOne() throws {
        var flow = try FlowLayout(rows: 5, pinnedWidth: false)
        let root = flow.variables[0], firstRowHeight = flow.variables[2]
        try flow.solver.addEditVariable(root, strength: Strength(1e9))
        try flow.solver.addEditVariable(firstRowHeight, strength: Strength(1e9))
        let base = flow.solver
        var scratch = base
        try scratch.suggestValue(500, for: root)
        scratch.restore(from: base)   // a copy's journal is not the base's: the full path
        #expect(scratch.journal.isActive && scratch.journal.origin == base.stamp)
        let sizes: [(Double, Double)] = [(320, 44), (900.25, 44), (320, 60), (150.5, 8), (1_200, 100), (333.3, 0.5)]
        var journaled = 0
        for (round, (width, height)) in sizes.enumerated() {
            try scratch.suggestValue(width, for: root)
            try scratch.suggestValue(height, for: firstRowHeight)
            scratch.updateVariables()
            _ = flow.variables.map { scratch.value(of: $0) }
            var full = scratch
            if scratch.journal.isActive && scratch.journal.origin == base.stamp { journaled += 1 }
            scratch.restore(from: base)
            full.restoreFully(from: base)
            #expect(Self.state(of: scratch) == Self.state(of: full), "round \(round)")
            #expect(Self.state(of: scratch) == Self.state(of: base), "round \(round)")
            #expect(scratch.stamp == base.stamp && scratch.edits[root]?.constant == base.edits[root]?.constant)
            try scratch.suggestValue(width + 7, for: root)
            try full.suggestValue(width + 7, for: root)
            scratch.updateVariables()
            full.updateVariables()
            #expect(scratch.cellOperations == full.cellOperations && scratch.pivotCount == full.pivotCount)
            #expect(flow.variables.map { scratch.value(of: $0).bitPattern } == flow.variables.map { full.value(of: $0).bitPattern })
            scratch.restore(from: base)
        }
        #expect(journaled == sizes.count)
        // A base in another state (its stamp differs): the full path, to that state.
        var moved = base
        try moved.suggestValue(640, for: root)
        moved.updateVariables()
        try scratch.suggestValue(320, for: root)
        scratch.restore(from: moved)
        #expect(Self.state(of: scratch) == Self.state(of: moved))
        // A change the journal does not record stops it: the next restore is full.
        scratch.restore(from: base)
        try scratch.addConstraint(Constraint(Expression(flow.variables[5]) - 10, .greaterThanOrEqual))
        #expect(!scratch.journal.isActive)
        scratch.restore(from: base)
        #expect(Self.state(of: scratch) == Self.state(of: base))
        #expect(!scratch.hasConstraint(ConstraintHandle(rawValue: base.records.count)))
    }

    /// A solver's stored tableau as comparable values: each symbol's basic flag, row
    /// (constant and cells as bit patterns), column members in iteration order and
    /// reduced-cost entries, then the level constants, definition values and counters.
    static func state(of solver: Solver) -> [[UInt64]] {
        var state: [[UInt64]] = []
        for id in 0..<solver.table.count {
            let row = solver.table.rows[id]
            var entry: [UInt64] = [solver.table.isBasic[id] ? 1 : 0, row.constant.bitPattern]
            for cell in row.cells { entry += [UInt64(cell.symbol.id), cell.coefficient.bitPattern] }
            entry.append(UInt64.max)
            for holder in solver.table.columns[id] { entry.append(UInt64(holder.id)) }
            entry.append(UInt64.max)
            solver.objective.forEachLevel(of: Symbol(id)) { level in
                entry += [UInt64(level), solver.objective.coefficient(of: Symbol(id), level: level).bitPattern]
            }
            state.append(entry)
        }
        state.append(solver.objective.constants.map(\.bitPattern))
        state.append(solver.table.definitionValues.map(\.bitPattern))
        state.append([UInt64(solver.cellOperations), UInt64(solver.pivotCount), solver.isOptimal ? 1 : 0,
                      solver.definitions.areValuesStale ? 1 : 0, UInt64(solver.objective.changed.count)])
        return state
    }
}
