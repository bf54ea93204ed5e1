@testable import Cassowary
import Testing

/// `Solver.workLimit`: a bound on simplex work, so a hostile system cannot hold a thread.
struct WorkLimitTests {
    /// A chain x0 … x(n-1) with x(i+1) == x(i) + 1, then x0 == 0.
    func chain(_ solver: inout Solver, count: Int) throws(SolverError) {
        for index in 0..<(count - 1) {
            let next = Expression(terms: [Term(Variable(id: index + 1), 1), Term(Variable(id: index), -1)], constant: -1)
            try solver.addConstraint(Constraint(next, .equal))
        }
        try solver.addConstraint(Constraint(Expression(terms: [Term(Variable(id: 0), 1)]), .equal))
    }

    @Test func withoutALimitTheChainSolves() throws {
        var solver = Solver()
        try chain(&solver, count: 200)
        #expect(solver.value(of: Variable(id: 199)) == 199)
        #expect(solver.cellOperations > 0)
    }

    @Test func aLimitBelowTheWorkStopsTheSolver() throws {
        var unlimited = Solver()
        try chain(&unlimited, count: 200)
        var limited = Solver()
        limited.workLimit = unlimited.cellOperations / 2
        #expect(throws: SolverError.workLimitExceeded) {
            try chain(&limited, count: 200)
        }
        // The work done stops within one substitution of the limit.
        #expect(limited.cellOperations <= unlimited.cellOperations)
    }

    @Test func aLimitAboveTheWorkChangesNothing() throws {
        var unlimited = Solver()
        try chain(&unlimited, count: 200)
        var limited = Solver()
        limited.workLimit = unlimited.cellOperations
        try chain(&limited, count: 200)
        #expect(limited.value(of: Variable(id: 199)) == 199)
    }
}
