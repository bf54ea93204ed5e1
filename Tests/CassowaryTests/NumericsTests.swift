import Testing
@testable import Cassowary

struct NumericsTests {
    @Test func tinyMultipliersWithHugeConstants() throws {
        var solver = Solver()
        try solver.addConstraint(Constraint(e(x) - e(y) * 1e-9, .equal))   // x == 1e-9·y
        try solver.addConstraint(eq(e(y), 1e9))
        #expect(solver.value(of: y) == 1e9)
        #expect(abs(solver.value(of: x) - 1) < 1e-12)
        try solver.addConstraint(eq(e(z) * 1e-9, 2))
        #expect(abs(solver.value(of: z) - 2e9) < 1e-3)
    }

    @Test func floatNoiseIsNotAConflict() throws {
        var solver = Solver()
        try solver.addConstraint(Constraint(e(x) - e(y) - 0.1 - 0.2, .equal))
        try solver.addConstraint(eq(e(y), 0))
        try solver.addConstraint(eq(e(x), 0.3))
        #expect(abs(solver.value(of: x) - 0.3) < 1e-15)
        try solver.addConstraint(eq(e(z), 1e9 + 0.1 + 0.2))
        try solver.addConstraint(eq(e(z), 1e9 + 0.3))
        #expect(abs(solver.value(of: z) - 1_000_000_000.3) < 1e-6)
    }

    @Test("non-finite input is an error", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(_ bad: Double) throws {
        var solver = Solver()
        #expect(throws: SolverError.nonFiniteInput) {
            try solver.addConstraint(Constraint(Expression(terms: [Term(x, bad)]), .equal))
        }
        #expect(throws: SolverError.nonFiniteInput) {
            try solver.addConstraint(Constraint(e(x) + bad, .equal))
        }
        #expect(throws: SolverError.nonFiniteInput) {
            try solver.addConstraint(Constraint(e(x), .equal, strength: Strength(bad == .infinity ? -bad : bad)))
        }
        // Nothing was added.
        try solver.addConstraint(eq(e(x), 3))
        #expect(solver.value(of: x) == 3)
    }

    @Test func divisionByZeroIsRejected() {
        var solver = Solver()
        #expect(throws: SolverError.nonFiniteInput) { try solver.addConstraint(eq(e(x) / 0, 1)) }
    }

    @Test func emptyExpressions() throws {
        var solver = Solver()
        try solver.addConstraint(Constraint(Expression(constant: 0), .equal))
        try solver.addConstraint(Constraint(Expression(constant: -1), .lessThanOrEqual))
        #expect(throws: SolverError.unsatisfiableConstraint) {
            try solver.addConstraint(Constraint(Expression(constant: 1), .equal))
        }
        #expect(throws: SolverError.unsatisfiableConstraint) {
            try solver.addConstraint(Constraint(Expression(constant: 1), .lessThanOrEqual))
        }
    }
}
