import Testing
@testable import Cassowary

/// Deferred required inequalities (`Solver+Deferral.swift`): a bulk load keeps the
/// required inequalities that only push a cost-free variable one way out of the
/// tableau until the variable matters, with the same optimum.
struct DeferralTests {
    /// A flow layout whose root width is free (`>= 0`, each row's end `+ 8 <=` it,
    /// wished `+ 16 ==` at strength 1): the end constraints wait for the weakest
    /// level, so the compression levels no longer hand the width from row to row.
    /// Same values, bit for bit, and a third less work (more the more rows:
    /// 57% less at 1,250 rows, the benchmark's mixed-10000-edit).
    @Test func aFreeWidthWaitsForItsLevelWithTheSameValues() throws {
        let atOnce = try FlowLayout(rows: 120, pinnedWidth: false) { $0.defersImpliedFree = false }
        let deferred = try FlowLayout(rows: 120, pinnedWidth: false)
        #expect(deferred.variables.map(deferred.solver.value(of:)) == atOnce.variables.map(atOnce.solver.value(of:)))
        #expect(deferred.solver.cellOperations * 3 < atOnce.solver.cellOperations * 2)
        // The width is the widest row's end plus 8 (the weak wishes lose to the
        // required `<=` of the widest row), and every row fits inside it.
        let solver = deferred.solver
        let ends = (0..<120).map { solver.value(of: deferred.x[$0][7]) + solver.value(of: deferred.w[$0][7]) }
        let width = solver.value(of: deferred.variables[0])
        #expect(width == ends.max()! + 8)
        #expect(ends.allSatisfy { $0 + 8 <= width })
        // Each row at its preferred layout: first view at 16, gaps of 12, intrinsic widths.
        #expect(solver.value(of: deferred.x[5][0]) == 16)
        #expect(solver.value(of: deferred.w[5][3]) == deferred.intrinsic[5][3])
    }

    /// Adds a free width W (`W >= 0`) and 400 rows, row i with `x == 8`, the
    /// constraint `widthOfRow(w, i)` on its width w and `x + w + 8 <= W`; returns W.
    static func addWideningRows(to solver: inout Solver,
                                widthOfRow: (Variable, Double) -> Constraint) throws -> Variable {
        let width = Variable(id: 0)
        try solver.addConstraint(ge(e(width), 0))
        for i in 1...400 {
            let x = Variable(id: 2 * i - 1), w = Variable(id: 2 * i)
            try solver.addConstraint(eq(e(x), 8))
            try solver.addConstraint(widthOfRow(w, Double(i)))
            try solver.addConstraint(Constraint(e(x) + e(w) + 8 - e(width), .lessThanOrEqual))
        }
        return width
    }

    /// Rows that widen one after another (`x == 8`, `width == i` at 500, `x + width +
    /// 8 <= W`, the width W free): in handle order each row's end constraint would take
    /// W over from all the rows before it, O(n²) work. The waiting constraints go in
    /// most demanding first, so W is set once and the rest fit without a pivot.
    @Test func widerAndWiderRowsGoInWidestFirst() throws {
        func solve(defers: Bool) throws -> (width: Double, cells: Int, pivots: Int) {
            var solver = Solver()
            solver.autoSolve = false
            solver.defersImpliedFree = defers
            let width = try Self.addWideningRows(to: &solver, widthOfRow: { eq(e($0), $1, Strength(500)) })
            try solver.addConstraint(eq(e(width), 0, Strength(1)))   // as narrow as the rows allow
            try solver.solve()
            return (solver.value(of: width), solver.cellOperations, solver.pivotCount)
        }
        let atOnce = try solve(defers: false)
        let deferred = try solve(defers: true)
        #expect(atOnce.width == 416)
        #expect(deferred.width == 416)
        // At once every row takes the width over; deferred, only the 16 rows bound
        // before the width became a hub do (3.2 million against 0.14 million cells).
        #expect(atOnce.pivots == 400)
        #expect(deferred.pivots == 16)
        #expect(deferred.cells * 10 < atOnce.cells)
    }

    /// The same rows when a required cap on the width arrives before the solve: the
    /// cap pushes the width the other way, so the waiting constraints go in at once,
    /// and also most demanding first.
    @Test func widerAndWiderRowsBeforeACapGoInWidestFirst() throws {
        var solver = Solver()
        solver.autoSolve = false
        let width = try Self.addWideningRows(to: &solver, widthOfRow: { ge(e($0), $1) })
        #expect(solver.deferrals.count == 401 - 16)   // the 16 first pushes went in
        let pivots = solver.pivotCount
        try solver.addConstraint(le(e(width), 1_000))
        #expect(solver.deferrals.count == 0)
        #expect(solver.pivotCount - pivots <= 2)
        try solver.addConstraint(eq(e(width), 0, Strength(1)))
        try solver.solve()
        #expect(solver.value(of: width) == 416)
    }

    /// With the root width pinned nothing waits: the very pivots and work of
    /// installing every required constraint at once.
    @Test func aPinnedWidthMakesTheSamePivots() throws {
        let atOnce = try FlowLayout(rows: 30, pinnedWidth: true) { $0.defersImpliedFree = false }
        let deferred = try FlowLayout(rows: 30, pinnedWidth: true)
        #expect(deferred.variables.map(deferred.solver.value(of:)) == atOnce.variables.map(atOnce.solver.value(of:)))
        #expect(deferred.solver.pivotCount == atOnce.solver.pivotCount)
        #expect(deferred.solver.cellOperations == atOnce.solver.cellOperations)
    }

    /// Bounds `variable` from below `count` times (`variable >= -1`, `>= -2`, …), so
    /// that it becomes a hub once ``Solver/deferralPushMinimum`` have pushed it up.
    static func bound(_ variable: Variable, times count: Int, in solver: inout Solver) throws {
        for k in 1...count { try solver.addConstraint(ge(e(variable), -Double(k))) }
    }

    /// Only a variable that many required constraints pushed one way waits: after 15
    /// bounds `y >= x + 10` goes in at once, after 16 it waits; a variable an equality
    /// names never does.
    @Test func onlyAVariableBoundManyTimesOneWayWaits() throws {
        var fifteen = Solver()
        fifteen.autoSolve = false
        try Self.bound(y, times: 15, in: &fifteen)
        try fifteen.addConstraint(Constraint(e(y) - e(x) - 10, .greaterThanOrEqual))
        #expect(fifteen.deferrals.count == 0)
        var sixteen = Solver()
        sixteen.autoSolve = false
        try Self.bound(y, times: 16, in: &sixteen)
        try sixteen.addConstraint(Constraint(e(y) - e(x) - 10, .greaterThanOrEqual))
        #expect(sixteen.deferrals.count == 1)
        try sixteen.addConstraint(Constraint(e(y) - e(z) - 10, .greaterThanOrEqual))
        #expect(sixteen.deferrals.count == 2)
        try sixteen.addConstraint(Constraint(e(z) - e(y), .lessThanOrEqual))   // y >= z, the same way
        #expect(sixteen.deferrals.count == 3)
        try sixteen.addConstraint(le(e(y), 100))                               // the other way: all go in
        #expect(sixteen.deferrals.count == 0)
        var equality = Solver()
        equality.autoSolve = false
        try equality.addConstraint(Constraint(e(y) - e(z), .equal))
        try Self.bound(y, times: 20, in: &equality)
        try equality.addConstraint(Constraint(e(y) - e(x) - 10, .greaterThanOrEqual))
        #expect(equality.deferrals.count == 0)
    }

    /// A required constraint that the deferred ones exclude is refused when it is
    /// added, as if nothing had waited, and the explanation names the deferred one.
    @Test func aConflictWithDeferredConstraintsIsFoundOnAdd() throws {
        var solver = Solver()
        solver.autoSolve = false
        let lower = try solver.addConstraint(ge(e(x), 0))               // x >= 0
        try Self.bound(y, times: 16, in: &solver)                        // y >= -1 … -16
        let gap = try solver.addConstraint(Constraint(e(y) - e(x) - 10, .greaterThanOrEqual))  // y >= x + 10: waits
        #expect(solver.deferrals.count == 1)
        let cap = le(e(y), 5)                                            // y <= 5
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(cap) }
        #expect(solver.deferrals.count == 0)
        #expect(solver.explainConflict(cap) == [lower, gap])
        // The refusal changed no constraint: y wished at 30 gets it, x stays in 0...20.
        try solver.addConstraint(eq(e(y), 30, Strength(1)))
        try solver.solve()
        #expect(solver.value(of: y) == 30)
        #expect((0...20).contains(solver.value(of: x)))
    }

    /// A deferred constraint whose variable no wish names goes in after everything:
    /// it holds, and the variable is reported as not determined (any larger value
    /// is as good).
    @Test func aVariableNothingWishesForIsPlacedLast() throws {
        var solver = Solver()
        solver.autoSolve = false
        try solver.addConstraint(eq(e(x), 40, Strength(1000)))
        try Self.bound(y, times: 16, in: &solver)
        try solver.addConstraint(Constraint(e(y) - e(x) - 10, .greaterThanOrEqual))   // y >= x + 10
        try solver.addConstraint(Constraint(e(y) - e(z), .greaterThanOrEqual))        // y >= z
        try solver.addConstraint(ge(e(z), 0))       // names no hub: at once
        #expect(solver.deferrals.count == 2)           // both wait on y
        try solver.solve()
        #expect(solver.deferrals.count == 0)
        #expect(solver.value(of: x) == 40)
        #expect(solver.value(of: y) >= 50)
        #expect(solver.value(of: y) >= solver.value(of: z))
        #expect(solver.value(of: z) >= 0)
        #expect(solver.areDetermined([e(x), e(y), e(z)]) == [true, false, false])
    }

    /// Removing a deferred constraint, and making its variable an edit variable,
    /// work as for any other constraint.
    @Test func removalAndEditsOfAHub() throws {
        var solver = Solver()
        solver.autoSolve = false
        try solver.addConstraint(eq(e(x), 20, Strength(1e6)))
        try Self.bound(y, times: 16, in: &solver)
        let gap = try solver.addConstraint(Constraint(e(y) - e(x) - 10, .greaterThanOrEqual))  // y >= x + 10
        try solver.addConstraint(eq(e(y), 0, Strength(1)))
        #expect(solver.deferrals.count == 1)
        try solver.removeConstraint(gap)
        #expect(solver.value(of: y) == 0)
        let again = try solver.addConstraint(Constraint(e(y) - e(x) - 10, .greaterThanOrEqual))
        try solver.solve()
        #expect(solver.value(of: y) == 30)
        solver.autoSolve = true
        try solver.addEditVariable(y, strength: Strength(1000))
        try solver.suggestValue(70, for: y)
        #expect(solver.value(of: y) == 70)
        try solver.suggestValue(5, for: y)
        #expect(solver.value(of: y) == 30)    // the required gap holds
        #expect(solver.hasConstraint(again))
    }
}
