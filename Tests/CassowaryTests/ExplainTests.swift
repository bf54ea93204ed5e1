import Testing
@testable import Cassowary

struct ExplainTests {
    @Test func namesTheMinimalSet() throws {
        var solver = Solver()
        let a = try solver.addConstraint(ge(e(x), 10))                       // 0
        try solver.addConstraint(ge(e(y), 0))                                // 1 (unrelated)
        let c = try solver.addConstraint(Constraint(e(z) - e(x), .equal))    // 2: z == x
        try solver.addConstraint(le(e(y), 100))                              // 3 (unrelated)
        try solver.addConstraint(eq(e(z), 50, Strength(10)))                 // 4 (optional)
        let bad = le(e(z), 5)                                                // z <= 5
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(bad) }
        #expect(solver.explainConflict(bad) == [a, c])
    }

    @Test func deletionFilterDropsRedundantMembers() throws {
        var solver = Solver()
        let a = try solver.addConstraint(ge(e(x), 10))       // 0
        let b = try solver.addConstraint(ge(e(x), 20))       // 1: stronger bound, alone enough
        let bad = le(e(x), 5)
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(bad) }
        let explanation = solver.explainConflict(bad)
        // Both {a} and {b} are minimal; the filter runs in handle order, drops a first.
        #expect(explanation == [b])
        _ = a
    }

    @Test func equalityChainConflict() throws {
        var solver = Solver()
        let variables = (0..<50).map { Variable(id: 100 + $0) }
        var chain: [ConstraintHandle] = []
        chain.append(try solver.addConstraint(eq(e(variables[0]), 0)))
        for index in 1..<variables.count {
            try solver.addConstraint(ge(e(variables[index]), -1000))   // unrelated bounds
            chain.append(try solver.addConstraint(Constraint(e(variables[index]) - e(variables[index - 1]) - 1, .equal)))
        }
        let bad = eq(e(variables[49]), 10)
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(bad) }
        #expect(solver.explainConflict(bad) == chain)
    }

    @Test func explanationIsMinimal() throws {
        // x + y >= 4, x <= 3, y <= 3, z >= 0 (unrelated).
        var solver = Solver()
        let sum = try solver.addConstraint(ge(e(x) + e(y), 4))
        let xb = try solver.addConstraint(le(e(x), 3))
        let yb = try solver.addConstraint(le(e(y), 3))
        try solver.addConstraint(ge(e(z), 0))
        let bad = ge(e(z), -1)
        try solver.addConstraint(bad)                       // not a conflict
        #expect(solver.explainConflict(bad) == [])
        // x >= 4 conflicts with x <= 3 only.
        #expect(solver.explainConflict(ge(e(x), 4)) == [xb])
        // x + y <= 3 conflicts with x + y >= 4 only.
        var trial = solver
        #expect(throws: SolverError.unsatisfiableConstraint) { try trial.addConstraint(le(e(x) + e(y), 3)) }
        #expect(solver.explainConflict(le(e(x) + e(y), 3)) == [sum])
        // x - y >= 7: x <= 3 and x + y >= 4 give x - y <= 2; y <= 3 plays no part.
        #expect(solver.explainConflict(ge(e(x) - e(y), 7)) == [sum, xb])
        _ = yb
    }

    @Test func optionalConstraintIsNeverExplained() {
        #expect(Solver().explainConflict(eq(e(x), 1, Strength(5))) == [])
    }

    @Test func oneConflictAmongAThousand() throws {
        var solver = Solver()
        var handles: [ConstraintHandle] = []
        for index in 0..<1000 {
            let variable = Variable(id: 1000 + index)
            handles.append(try solver.addConstraint(ge(e(variable), Double(index))))
        }
        let link = try solver.addConstraint(Constraint(e(Variable(id: 1500)) - e(x), .equal))
        let bad = le(e(x), 10)
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(bad) }
        #expect(solver.explainConflict(bad) == [handles[500], link])
    }

    @Test func longInequalityChainConflict() throws {
        // x0 == 0, wᵢ >= 10, xᵢ == xᵢ₋₁ + wᵢ₋₁ + 8 for 40 views; x39 <= 100 needs
        // everything except the last view's width bound (79 members, above the
        // deletion-filter limit, so the proof's support is returned as found).
        var solver = Solver()
        let xs = (0..<40).map { Variable(id: 100 + $0) }
        let ws = (0..<40).map { Variable(id: 200 + $0) }
        var expected: [ConstraintHandle] = [try solver.addConstraint(eq(e(xs[0]), 0))]
        var lastBound = ConstraintHandle(rawValue: -1)
        for index in 0..<40 {
            lastBound = try solver.addConstraint(ge(e(ws[index]), 10))
            if index < 39 { expected.append(lastBound) }
            if index > 0 {
                expected.append(try solver.addConstraint(
                    Constraint(e(xs[index]) - e(xs[index - 1]) - e(ws[index - 1]) - 8, .equal)))
            }
        }
        let bad = le(e(xs[39]), 100)
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(bad) }
        let explanation = solver.explainConflict(bad)
        #expect(explanation == expected.sorted())
        #expect(!explanation.contains(lastBound))
    }
}

struct ExplainWorkLimitTests {
    /// The chain of `equalityChainConflict`: x0 == 0, xᵢ == xᵢ₋₁ + 1, then x49 == 10.
    func chainConflict() throws -> (Solver, Constraint, [ConstraintHandle]) {
        var solver = Solver()
        let variables = (0..<50).map { Variable(id: 100 + $0) }
        var chain: [ConstraintHandle] = [try solver.addConstraint(eq(e(variables[0]), 0))]
        for index in 1..<variables.count {
            chain.append(try solver.addConstraint(Constraint(e(variables[index]) - e(variables[index - 1]) - 1, .equal)))
        }
        let bad = eq(e(variables[49]), 10)
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(bad) }
        return (solver, bad, chain)
    }

    @Test func noBudgetIsNotExplainedButCounted() throws {
        let (solver, bad, _) = try chainConflict()
        var work = 0
        #expect(solver.explainConflict(bad, workLimit: 0, work: &work) == nil)
        #expect(work > 0)
        // A tiny budget: the scratch solver stops too.
        var tinyWork = 0
        #expect(solver.explainConflict(bad, workLimit: 200, work: &tinyWork) == nil)
        #expect(tinyWork > 200)
    }

    @Test func enoughBudgetGivesTheSameAnswer() throws {
        let (solver, bad, chain) = try chainConflict()
        var work = 0
        #expect(solver.explainConflict(bad, workLimit: .max, work: &work) == chain)
        #expect(work > 0)
        // Exactly what it needs is enough; one less is not.
        var exactWork = 0
        #expect(solver.explainConflict(bad, workLimit: work, work: &exactWork) == chain)
        #expect(exactWork == work)
        var shortWork = 0
        #expect(solver.explainConflict(bad, workLimit: work - 1, work: &shortWork) == nil)
        // `work` accumulates.
        var total = 5
        _ = solver.explainConflict(bad, workLimit: .max, work: &total)
        #expect(total == work + 5)
    }

    @Test func findingTheLinkedConstraintsIsChargedPerRecordAndTerm() throws {
        // 50 records of 99 terms in all, every one linked to the bad constraint: each
        // record is looked at once, each term indexed once and read once in the search,
        // at `linkIndexCost` apiece, before any scratch solver runs.
        let (solver, bad, chain) = try chainConflict()
        var work = 0
        #expect(solver.explainConflict(bad, workLimit: .max, work: &work) == chain)
        #expect(work >= Solver.linkIndexCost * (50 + 99 + 99), "\(work)")
        var short = 0
        #expect(solver.explainConflict(bad, workLimit: Solver.linkIndexCost * (50 + 99 + 99) - 1, work: &short) == nil)
    }

    @Test func deletionFilterWorkIsCounted() throws {
        // x + y >= 4, x <= 3, y <= 3: x - y >= 7 runs the deletion filter.
        var solver = Solver()
        let sum = try solver.addConstraint(ge(e(x) + e(y), 4))
        let xb = try solver.addConstraint(le(e(x), 3))
        try solver.addConstraint(le(e(y), 3))
        let bad = ge(e(x) - e(y), 7)
        var work = 0
        #expect(solver.explainConflict(bad, workLimit: .max, work: &work) == [sum, xb])
        var shortWork = 0
        #expect(solver.explainConflict(bad, workLimit: work - 1, work: &shortWork) == nil)
        // Not a conflict or not required: empty, as before, within any budget.
        var none = 0
        #expect(solver.explainConflict(ge(e(x), 0), workLimit: .max, work: &none) == [])
        #expect(solver.explainConflict(eq(e(x), 1, Strength(5)), workLimit: 0, work: &none) == [])
    }
}
