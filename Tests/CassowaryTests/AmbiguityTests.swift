import Testing
@testable import Cassowary

struct AmbiguityTests {
    @Test func freeVariableIsAmbiguous() throws {
        var solver = Solver()
        try solver.addConstraint(ge(e(x), 0))
        #expect(!solver.isDetermined(e(x)))
        try solver.addConstraint(eq(e(x), 5, Strength(1)))
        #expect(solver.isDetermined(e(x)))
        #expect(!solver.isDetermined(e(Variable(id: 99))))
    }

    @Test func samePriorityTieIsAmbiguous() throws {
        var solver = Solver()
        try solver.addConstraint(eq(e(x), 10, Strength(500)))
        try solver.addConstraint(eq(e(x), 20, Strength(500)))
        #expect(!solver.isDetermined(e(x)))
        // A weaker level picks 15 inside the tie interval [10, 20].
        try solver.addConstraint(eq(e(x), 15, Strength(400)))
        #expect(solver.value(of: x) == 15)
        #expect(solver.isDetermined(e(x)))
    }

    @Test func differenceOfTwoVariables() throws {
        // Parent and child both float, but the child's left minus the parent's left is fixed.
        var solver = Solver()
        try solver.addConstraint(Constraint(e(y) - e(x) - 8, .equal))
        #expect(!solver.isDetermined(e(y)))
        #expect(solver.isDetermined(e(y) - e(x)))
        #expect(solver.areDetermined([e(x), e(y) - e(x), e(y) - e(x) * 2]) == [false, true, false])
    }

    /// `VariableDifference` queries answer as their `Expression`s, with the same work:
    /// a tie, a fixed difference, a free variable, an unseen variable and a variable
    /// minus itself.
    @Test func differencesAnswerAsTheirExpressions() throws {
        var solver = Solver()
        try solver.addConstraint(Constraint(e(y) - e(x) - 8, .equal))
        try solver.addConstraint(eq(e(x), 10, Strength(500)))
        try solver.addConstraint(eq(e(x), 20, Strength(500)))
        let unseen = Variable(id: 99)
        let differences = [VariableDifference(x), VariableDifference(y, minus: x), VariableDifference(y),
                           VariableDifference(y, minus: unseen), VariableDifference(x, minus: x)]
        let expressions = differences.map(\.expression)
        #expect(expressions[1] == e(y) - e(x))
        var differenceWork = 0, expressionWork = 0
        let answers = solver.areDetermined(differences, workLimit: .max, work: &differenceWork)
        #expect(answers == [false, true, false, false, true])
        #expect(solver.areDetermined(expressions, workLimit: .max, work: &expressionWork) == answers)
        #expect(differenceWork == expressionWork && differenceWork > 0)
        let causes = solver.ambiguityCauses(differences)
        let expressionCauses = solver.ambiguityCauses(expressions)
        #expect(causes.map(\.ties) == expressionCauses.map(\.ties))
        #expect(causes.map(\.isUnderconstrained) == expressionCauses.map(\.isUnderconstrained))
        #expect(causes[0].ties.count == 2)
        #expect(causes[3].ties.isEmpty && causes[3].isUnderconstrained)
    }

    @Test func requiredInequalityPins() throws {
        var solver = Solver()
        try solver.addConstraint(ge(e(x), 10))
        try solver.addConstraint(eq(e(x), 0, Strength(1)))
        #expect(solver.value(of: x) == 10)
        #expect(solver.isDetermined(e(x)))
    }

    @Test func degeneratePivotsGiveNoFalsePositive() throws {
        // x >= 0, y >= 0, x + y <= 0 forces x = y = 0 through degenerate rows; the slack
        // of x + y <= 0 and one bound are basic at value 0.
        var solver = Solver()
        try solver.addConstraint(ge(e(x), 0))
        try solver.addConstraint(ge(e(y), 0))
        try solver.addConstraint(le(e(x) + e(y), 0))
        #expect(solver.value(of: x) == 0 && solver.value(of: y) == 0)
        #expect(solver.isDetermined(e(x)))
        #expect(solver.isDetermined(e(y)))
        #expect(solver.areDetermined([e(x), e(y), e(x) - e(y)]) == [true, true, true])
    }

    @Test func degenerateButStillFree() throws {
        // x >= 0, y >= x, at x = y = 0 (degenerate); x may grow with y, so neither is fixed.
        var solver = Solver()
        try solver.addConstraint(ge(e(x), 0))
        try solver.addConstraint(ge(e(y) - e(x), 0))
        try solver.addConstraint(le(e(y) - e(x), 0))
        #expect(!solver.isDetermined(e(x)))
        #expect(!solver.isDetermined(e(y)))
        #expect(solver.isDetermined(e(y) - e(x)))
    }

    /// `isNonBasicDetermined` (the row-free path `isSymbolDetermined` takes for a
    /// non-basic symbol) gives `isRowDetermined`'s answer and work on the row `1·s`,
    /// for every non-basic symbol of tableaus with ties, free variables and degenerate
    /// rows (soft bounds, so the cone program runs).
    @Test func nonBasicPathMatchesTheRowPath() throws {
        var tableaus: [Solver] = []
        var solver = Solver()
        try solver.addConstraint(ge(e(x), 0))
        try solver.addConstraint(ge(e(y) - e(x), 0))
        try solver.addConstraint(le(e(y) - e(x), 0))
        tableaus.append(solver)
        solver = Solver()
        try solver.addConstraint(ge(e(x), 0))
        try solver.addConstraint(ge(e(y), 0))
        try solver.addConstraint(le(e(x) + e(y), 0))
        tableaus.append(solver)
        solver = Solver()
        try solver.addConstraint(eq(e(x), 10, Strength(500)))
        try solver.addConstraint(eq(e(x), 20, Strength(500)))
        try solver.addConstraint(ge(e(y) - e(x), 0))
        try solver.addConstraint(eq(e(y), 3, Strength(1)))
        tableaus.append(solver)
        solver = Solver()
        let z = Variable(id: 2)
        try solver.addConstraint(ge(e(x), 0))
        try solver.addConstraint(ge(e(y), 0))
        try solver.addConstraint(le(e(x) + e(y) - e(z), 0))
        try solver.addConstraint(ge(e(z), 0))
        try solver.addConstraint(le(e(z), 0))
        tableaus.append(solver)
        var checked = 0
        for tableau in tableaus {
            for precomputed in [false, true] {
                for id in tableau.table.kinds.indices where !tableau.table.isBasic[id] {
                    let symbol = Symbol(id)
                    var fast = Solver.DegeneracyIndex(precomputed: precomputed)
                    var slow = Solver.DegeneracyIndex(precomputed: precomputed)
                    if precomputed { fast.build(from: tableau); slow.build(from: tableau) }
                    var row = Row()
                    row.insert(symbol, 1)
                    #expect(tableau.isNonBasicDetermined(symbol, blocking: &fast)
                            == tableau.isRowDetermined(row, blocking: &slow))
                    #expect(fast.work == slow.work)
                    checked += 1
                }
            }
        }
        #expect(checked > 8)
    }

    @Test func editedVariablesAreDetermined() throws {
        var solver = Solver()
        try solver.addConstraint(Constraint(e(y) - e(x) * 0.5, .equal))
        try solver.addEditVariable(x, strength: Strength(100))
        try solver.suggestValue(64, for: x)
        #expect(solver.value(of: y) == 32)
        #expect(solver.areDetermined([e(x), e(y)]) == [true, true])
    }
}

struct AmbiguityCauseTests {
    @Test func aTieNamesBothConstraints() throws {
        var solver = Solver()
        try solver.addConstraint(ge(e(x), 0))
        let ten = try solver.addConstraint(eq(e(x), 10, Strength(500)))
        try solver.addConstraint(eq(e(y), 3, Strength(500)))
        let twenty = try solver.addConstraint(eq(e(x), 20, Strength(500)))
        #expect(!solver.isDetermined(e(x)))
        let causes = solver.ambiguityCauses(e(x))
        #expect(causes.ties == [ten, twenty])
        #expect(!causes.isUnderconstrained)
    }

    @Test func aFreeVariableIsUnderconstrainedWithoutTies() throws {
        var solver = Solver()
        try solver.addConstraint(Constraint(e(y) - e(x) - 8, .equal))
        try solver.addConstraint(eq(e(z), 1, Strength(10)))
        let causes = solver.ambiguityCauses(e(y))
        #expect(causes.ties.isEmpty)
        #expect(causes.isUnderconstrained)
        #expect(solver.ambiguityCauses(Expression(Variable(id: 42))).isUnderconstrained)
    }
}
