import Testing
@testable import Cassowary

/// Definition rows (`Solver+Definitions.swift`): an external symbol that nothing holds
/// keeps the row that introduced it, unexpanded, and is evaluated on read.
struct DefinitionRowTests {
    /// `v[i] = v[i-1] + 10` for i in 1...n, `v[0] == 5`.
    func chain(_ n: Int) throws -> (Solver, [Variable]) {
        var solver = Solver()
        let v = (0...n).map { Variable(id: $0) }
        try solver.addConstraint(eq(e(v[0]), 5))
        for i in 1...n { try solver.addConstraint(Constraint(e(v[i]) - e(v[i - 1]) - 10, .equal)) }
        return (solver, v)
    }

    @Test func chainRowsStayShortAndEvaluateExactly() throws {
        var (solver, v) = try chain(200)
        try solver.solve()
        #expect(solver.value(of: v[0]) == 5)
        #expect(solver.value(of: v[200]) == 2005)
        // Each position is a definition naming the previous one: no row grew with i.
        let symbol = solver.variableSymbols[v[200]]!
        #expect(solver.isDefinition(symbol))
        #expect(solver.rows[symbol].cells.count == 1)
    }

    @Test func laterConstraintExpandsDefinitionsAndCancelsChains() throws {
        var (solver, v) = try chain(50)
        // v[50] - v[49] is 10 whatever v[0] is: its expansion cancels the chain.
        #expect(solver.isDetermined(e(v[50]) - e(v[49])))
        try solver.addConstraint(le(e(v[50]) - e(v[49]), 10))
        #expect(throws: SolverError.unsatisfiableConstraint) {
            try solver.addConstraint(ge(e(v[50]) - e(v[49]), 11))
        }
        try solver.addConstraint(ge(e(v[50]), 0))
        try solver.solve()
        #expect(solver.value(of: v[50]) == 505)
    }

    @Test func valuesReadBeforeSolveEvaluateOnDemand() throws {
        var solver = Solver()
        let (w, x2) = (Variable(id: 10), Variable(id: 11))
        try solver.addEditVariable(w, strength: Strength(900))
        try solver.addConstraint(Constraint(e(x2) - e(w) * 2 - 1, .equal))   // x2 = 2w + 1: a definition
        try solver.suggestValue(30, for: w)
        // No solve() since the suggestion: the cached value is stale, the read is not.
        #expect(solver.value(of: x2) == 61)
        try solver.solve()
        #expect(solver.value(of: x2) == 61)
        try solver.suggestValue(-4, for: w)
        solver.updateVariables()
        #expect(solver.value(of: w) == -4)
        #expect(solver.value(of: x2) == -7)
    }

    @Test func editVariableWhoseRowIsADefinition() throws {
        // The edit constraint of a variable nothing holds becomes its definition row, so
        // a suggestion shifts that row's constant.
        var solver = Solver()
        let v = Variable(id: 3)
        try solver.addEditVariable(v, strength: Strength(900))
        try solver.suggestValue(42, for: v)
        try solver.solve()
        #expect(solver.value(of: v) == 42)
        try solver.addConstraint(le(e(v), 40))
        try solver.solve()
        #expect(solver.value(of: v) == 40)
    }

    @Test func removingAConstraintWithDefinitionsRebuilds() throws {
        var (solver, v) = try chain(20)
        let pin = try solver.addConstraint(eq(e(v[20]), 300, Strength(1)))
        try solver.solve()
        #expect(solver.value(of: v[20]) == 205)   // required v[0] == 5 wins
        let base = ConstraintHandle(rawValue: 0)
        try solver.removeConstraint(base)
        try solver.solve()
        #expect(solver.value(of: v[0]) == 100)    // now the weak pin decides
        #expect(solver.value(of: v[20]) == 300)
        try solver.removeConstraint(pin)
        #expect(!solver.isDetermined(e(v[20])))
        #expect(solver.isDetermined(e(v[20]) - e(v[0])))
    }

    @Test func definitionOfUndeterminedPartsCanStillBeDetermined() throws {
        // d = a - b with a, b free but a - b pinned: each part is ambiguous, d is not.
        var solver = Solver()
        let (a, b, d) = (Variable(id: 0), Variable(id: 1), Variable(id: 2))
        try solver.addConstraint(Constraint(e(a) - e(b) - 7, .equal))
        try solver.addConstraint(Constraint(e(d) - e(a) + e(b), .equal))
        try solver.solve()
        #expect(solver.areDetermined([e(a), e(b), e(d), e(d) + e(b)]) == [false, false, true, false])
        #expect(solver.value(of: d) == 7)
    }
}
