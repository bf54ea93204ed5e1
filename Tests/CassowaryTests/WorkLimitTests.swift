@testable import Cassowary
import Testing

/// `Solver.workLimit`: a bound on simplex work, so a hostile system cannot hold a thread.
struct WorkLimitTests {
    /// `count / 2` dense equalities over `count` variables (every row holds every
    /// variable), so each add substitutes into every earlier row.
    func chain(_ solver: inout Solver, count: Int) throws(SolverError) {
        for row in 0..<(count / 2) {
            var terms: [Term] = []
            for column in 0..<count {
                // A fixed pseudo-random coefficient in [1, 2): generic, so the rows are independent.
                let hash = UInt64(row * 1_000 + column) &* 0x9E37_79B9_7F4A_7C15
                terms.append(Term(Variable(id: column), 1 + Double(hash >> 11) / Double(1 << 53)))
            }
            try solver.addConstraint(Constraint(Expression(terms: terms, constant: -Double(row)), .equal))
        }
    }

    @Test func withoutALimitTheSystemSolves() throws {
        var solver = Solver()
        try chain(&solver, count: 60)
        #expect(solver.cellOperations > 10_000)
    }

    @Test func aLimitBelowTheWorkStopsTheSolver() throws {
        var unlimited = Solver()
        try chain(&unlimited, count: 60)
        var limited = Solver()
        limited.workLimit = unlimited.cellOperations / 2
        #expect(throws: SolverError.workLimitExceeded) {
            try chain(&limited, count: 60)
        }
        // The work done stops within one substitution of the limit.
        #expect(limited.cellOperations <= unlimited.cellOperations)
    }

    @Test func aLimitAboveTheWorkChangesNothing() throws {
        var unlimited = Solver()
        try chain(&unlimited, count: 60)
        var limited = Solver()
        limited.workLimit = unlimited.cellOperations
        try chain(&limited, count: 60)
        for id in 0..<60 {
            #expect(limited.value(of: Variable(id: id)) == unlimited.value(of: Variable(id: id)))
        }
    }
}

extension WorkLimitTests {
    /// Expanding definition rows counts as work: 200 constraints on the two ends of a
    /// 200-link chain `x[i] = x[i-1] + w[i-1] + 10` each unroll the whole chain.
    @Test func expandingDefinitionsCountsTowardTheLimit() throws {
        func load(_ solver: inout Solver) throws(SolverError) {
            let n = 200
            func x(_ i: Int) -> Expression { Expression(Variable(id: 2 * i)) }
            func w(_ i: Int) -> Expression { Expression(Variable(id: 2 * i + 1)) }
            try solver.addConstraint(Constraint(x(0), .greaterThanOrEqual))
            for i in 0..<n { try solver.addConstraint(Constraint(w(i), .greaterThanOrEqual)) }
            for i in 1...n { try solver.addConstraint(Constraint(x(i) - x(i - 1) - w(i - 1) - 10, .equal)) }
            for k in 0..<n { try solver.addConstraint(Constraint(x(n) - x(0) - Double(k), .greaterThanOrEqual)) }
        }
        var unlimited = Solver()
        try load(&unlimited)
        #expect(unlimited.cellOperations >= 200 * 200)
        var limited = Solver()
        limited.workLimit = 10_000
        #expect(throws: SolverError.workLimitExceeded) { try load(&limited) }
    }
}
