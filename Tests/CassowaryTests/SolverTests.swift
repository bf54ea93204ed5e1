import Testing
@testable import Cassowary

/// Cases in the style of kiwi's own tests (py/tests/test_solver.py), exact values.
struct SolverTests {
    @Test func simpleEquality() throws {
        var solver = Solver()
        try solver.addConstraint(eq(e(x) + 2, 20))
        #expect(solver.value(of: x) == 18)
    }

    @Test func unseenVariableIsZero() {
        #expect(Solver().value(of: Variable(id: 42)) == 0)
    }

    @Test func chainedEqualities() throws {
        var solver = Solver()
        try solver.addConstraint(Constraint(e(x) - e(y) - 10, .equal))   // x == y + 10
        try solver.addConstraint(Constraint(e(y) * 2 - e(z), .equal))    // z == 2y
        try solver.addConstraint(eq(e(z), 30))
        #expect(solver.value(of: x) == 25)
        #expect(solver.value(of: y) == 15)
        #expect(solver.value(of: z) == 30)
    }

    @Test func duplicateTermsAreMerged() throws {
        var solver = Solver()
        // x + x + x - x == 10  →  2x == 10
        let expression = Expression(terms: [Term(x), Term(x), Term(x), Term(x, -1)], constant: -10)
        try solver.addConstraint(Constraint(expression, .equal))
        #expect(solver.value(of: x) == 5)
    }

    @Test func inequalitiesWithWeakPreference() throws {
        var solver = Solver()
        try solver.addConstraint(ge(e(x), 10))
        try solver.addConstraint(le(e(x), 20))
        try solver.addConstraint(eq(e(x), 0, Strength(1)))
        #expect(solver.value(of: x) == 10)
        try solver.addConstraint(eq(e(x), 100, Strength(2)))
        #expect(solver.value(of: x) == 20)
    }

    @Test func removeConstraintRestoresPrevious() throws {
        var solver = Solver()
        try solver.addConstraint(eq(e(x), 10, Strength(1)))
        let strong = try solver.addConstraint(eq(e(x), 30, Strength(5)))
        #expect(solver.value(of: x) == 30)
        try solver.removeConstraint(strong)
        #expect(solver.value(of: x) == 10)
        #expect(!solver.hasConstraint(strong))
        #expect(throws: SolverError.unknownConstraint(strong)) { try solver.removeConstraint(strong) }
    }

    @Test func removeRequiredInequality() throws {
        var solver = Solver()
        let upper = try solver.addConstraint(le(e(x), 5))
        try solver.addConstraint(eq(e(x), 50, Strength(10)))
        #expect(solver.value(of: x) == 5)
        try solver.removeConstraint(upper)
        #expect(solver.value(of: x) == 50)
    }

    @Test func handlesAreSequential() throws {
        var solver = Solver()
        let a = try solver.addConstraint(eq(e(x), 1))
        let b = try solver.addConstraint(eq(e(y), 2))
        #expect(a.rawValue == 0 && b.rawValue == 1)
        #expect(solver.hasConstraint(a) && solver.hasConstraint(b))
        #expect(!solver.hasConstraint(ConstraintHandle(rawValue: 7)))
        #expect(solver.constraintHandles == [a, b])
    }

    @Test func unknownHandleThrows() {
        var solver = Solver()
        #expect(throws: SolverError.unknownConstraint(ConstraintHandle(rawValue: 3))) {
            try solver.removeConstraint(ConstraintHandle(rawValue: 3))
        }
        #expect(throws: SolverError.unknownConstraint(ConstraintHandle(rawValue: -1))) {
            try solver.removeConstraint(ConstraintHandle(rawValue: -1))
        }
    }

    @Test func unsatisfiableRequiredLeavesStateUnchanged() throws {
        var solver = Solver()
        try solver.addConstraint(ge(e(x), 10))
        try solver.addConstraint(eq(e(x), 12, Strength(1)))
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(le(e(x), 5)) }
        #expect(solver.value(of: x) == 12)
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(eq(e(x), 5)) }
        #expect(solver.value(of: x) == 12)
        // The failed adds consumed no handle and left a working solver.
        let next = try solver.addConstraint(le(e(x), 11))
        #expect(next.rawValue == 2)
        #expect(solver.value(of: x) == 11)
    }

    @Test func unsatisfiableEqualities() throws {
        var solver = Solver()
        try solver.addConstraint(eq(e(x), 10))
        try solver.addConstraint(Constraint(e(y) - e(x), .equal))
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(eq(e(y), 11)) }
        #expect(solver.value(of: y) == 10)
    }

    @Test func redundantRequiredIsAccepted() throws {
        var solver = Solver()
        try solver.addConstraint(eq(e(x), 10))
        let again = try solver.addConstraint(eq(e(x), 10))
        #expect(solver.value(of: x) == 10)
        try solver.removeConstraint(again)
        #expect(solver.value(of: x) == 10)
    }

    // MARK: - Edit variables

    @Test func editVariableFollowsSuggestions() throws {
        var solver = Solver()
        try solver.addConstraint(ge(e(x), 0))
        try solver.addConstraint(le(e(x), 100))
        try solver.addConstraint(Constraint(e(y) - e(x) * 2, .equal))   // y == 2x
        try solver.addEditVariable(x, strength: Strength(1000))
        #expect(solver.hasEditVariable(x))
        try solver.suggestValue(30, for: x)
        solver.updateVariables()
        #expect(solver.value(of: x) == 30)
        #expect(solver.value(of: y) == 60)
        try solver.suggestValue(150, for: x)
        #expect(solver.value(of: x) == 100)
        #expect(solver.value(of: y) == 200)
        try solver.suggestValue(-5, for: x)
        #expect(solver.value(of: x) == 0)
        try solver.suggestValue(42.5, for: x)
        #expect(solver.value(of: x) == 42.5)
        #expect(solver.value(of: y) == 85)
        try solver.removeEditVariable(x)
        #expect(!solver.hasEditVariable(x))
    }

    @Test func editVariableErrors() throws {
        var solver = Solver()
        #expect(throws: SolverError.badRequiredStrength) { try solver.addEditVariable(x, strength: .required) }
        #expect(throws: SolverError.unknownEditVariable(x)) { try solver.suggestValue(1, for: x) }
        #expect(throws: SolverError.unknownEditVariable(x)) { try solver.removeEditVariable(x) }
        try solver.addEditVariable(x, strength: Strength(10))
        #expect(throws: SolverError.duplicateEditVariable(x)) { try solver.addEditVariable(x, strength: Strength(10)) }
        #expect(throws: SolverError.nonFiniteInput) { try solver.suggestValue(.nan, for: x) }
        #expect(throws: SolverError.nonFiniteInput) { try solver.suggestValue(.infinity, for: x) }
        #expect(throws: SolverError.nonFiniteInput) { try solver.addEditVariable(y, strength: Strength(.nan)) }
    }

    @Test func editStrengthAgainstConstraintStrength() throws {
        // kiwi's test_managing_edit_variable: a weaker edit loses to a stronger constraint.
        var solver = Solver()
        try solver.addConstraint(eq(e(x), 10, Strength(100)))
        try solver.addEditVariable(x, strength: Strength(50))
        try solver.suggestValue(20, for: x)
        #expect(solver.value(of: x) == 10)
        try solver.addEditVariable(y, strength: Strength(200))
        try solver.addConstraint(eq(e(y) - e(x), 0, Strength(150)))
        try solver.suggestValue(40, for: y)
        #expect(solver.value(of: y) == 40)
        #expect(solver.value(of: x) == 40)
    }

    @Test func windowResizeSweep() throws {
        // |-20-[a]-8-[b]-20-| with equal widths; the container width is edited.
        let width = Variable(id: 10), a = Variable(id: 11), aw = Variable(id: 12)
        let b = Variable(id: 13), bw = Variable(id: 14)
        var solver = Solver()
        try solver.addConstraint(eq(e(a), 20))
        try solver.addConstraint(Constraint(e(b) - e(a) - e(aw) - 8, .equal))
        try solver.addConstraint(Constraint(e(bw) - e(aw), .equal))
        try solver.addConstraint(Constraint(e(b) + e(bw) + 20 - e(width), .equal))
        try solver.addConstraint(ge(e(aw), 10))
        try solver.addEditVariable(width, strength: Strength(1_000_000))
        for value in [200.0, 348, 40, 500] {
            try solver.suggestValue(value, for: width)
            let expected = max(10, (value - 48) / 2)
            #expect(solver.value(of: aw) == expected)
            #expect(solver.value(of: bw) == expected)
            #expect(solver.value(of: b) == 28 + expected)
            #expect(solver.value(of: width) == max(value, 68))
        }
    }

    // MARK: - Copies

    @Test func copiesAreIndependent() throws {
        var solver = Solver()
        try solver.addConstraint(eq(e(x), 10, Strength(1)))
        try solver.addConstraint(Constraint(e(y) - e(x) - 5, .equal))
        var copy = solver
        try copy.addConstraint(eq(e(x), 40))
        #expect(copy.value(of: y) == 45)
        #expect(solver.value(of: y) == 15)
        try solver.addConstraint(eq(e(x), 1))
        #expect(solver.value(of: y) == 6)
        #expect(copy.value(of: y) == 45)
    }

    // MARK: - Determinism

    @Test func sameInputGivesBitIdenticalValues() throws {
        func build() throws -> [UInt64] {
            var solver = Solver()
            var state: UInt64 = 12345
            func next() -> Double {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Double(state >> 33) / Double(1 << 31)
            }
            let variables = (0..<30).map { Variable(id: $0) }
            for (index, variable) in variables.enumerated() {
                try solver.addConstraint(ge(e(variable), 0))
                try solver.addConstraint(eq(e(variable), 100 * next(), Strength(Double(1 + index % 3))))
                if index > 0 {
                    _ = try? solver.addConstraint(le(e(variable) - e(variables[index - 1]) * next(), 50))
                }
            }
            return variables.map { solver.value(of: $0).bitPattern }
        }
        let first = try build()
        for _ in 0..<3 { #expect(try build() == first) }
    }
}
