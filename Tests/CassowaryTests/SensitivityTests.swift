import Testing
@testable import Cassowary

/// ``Solver/sensitivities(of:work:)``: rates of change per unit of each constraint's
/// constant (`c = −expression.constant`), checked against re-solving with `c + 1`.
struct SensitivityTests {
    func solver(_ constraints: [Constraint], bulk: Bool = false) throws -> (Solver, [ConstraintHandle]) {
        var solver = Solver()
        solver.tracksMarkers = true
        solver.autoSolve = !bulk
        let handles = try constraints.map { try solver.addConstraint($0) }
        try solver.solve()
        return (solver, handles)
    }

    func rates(_ solver: Solver, _ expression: Expression) -> [Int: Double] {
        var work = 0
        var result: [Int: Double] = [:]
        for item in solver.sensitivities(of: expression, work: &work) ?? [] { result[item.handle.rawValue] = item.rate }
        return result
    }

    /// The rate by finite difference: the same constraints with `c` of `index` raised by 1.
    func difference(_ constraints: [Constraint], _ index: Int, _ expression: Expression) throws -> Double {
        func value(_ list: [Constraint]) throws -> Double {
            var solver = Solver()
            for item in list { try solver.addConstraint(item) }
            try solver.solve()
            return expression.terms.reduce(expression.constant) { $0 + $1.coefficient * solver.value(of: $1.variable) }
        }
        var moved = constraints
        moved[index] = Constraint(constraints[index].expression - 1, constraints[index].relation, strength: constraints[index].strength)
        return try value(moved) - value(constraints)
    }

    @Test func chainOfEqualitiesAndTheContainerWidth() throws {
        // x == 20 (leading inset), x + w == W - 20 (trailing inset, c = -20), W == 375.
        let width = Variable(id: 10)
        let constraints = [
            eq(e(width), 375),
            eq(e(x), 20),
            Constraint(e(x) + e(y) - e(width) + 20, .equal),
        ]
        let (solver, _) = try solver(constraints)
        #expect(solver.value(of: y) == 335)
        #expect(rates(solver, e(y)) == [0: 1, 1: -1, 2: 1])
        #expect(rates(solver, e(x)) == [1: 1])
        for index in constraints.indices {
            #expect(try difference(constraints, index, e(y)) == (rates(solver, e(y))[index] ?? 0))
        }
    }

    @Test func multiplierScalesTheRate() throws {
        // centre: x + w/2 == 1.5 * (W / 2); w == 40; W == 360.
        let width = Variable(id: 10)
        let constraints = [
            eq(e(width), 360),
            Constraint(e(x) + 0.5 * e(y) - 0.75 * e(width), .equal),
            eq(e(y), 40),
        ]
        let (solver, _) = try solver(constraints, bulk: true)
        #expect(solver.value(of: x) == 250)
        #expect(rates(solver, e(x)) == [0: 0.75, 1: 1, 2: -0.5])
    }

    @Test func tightInequalityCountsSlackOneDoesNot() throws {
        // x >= 10 (tight: nothing else pushes x up), x <= 100 (slack), x == 0 @weak.
        let constraints = [ge(e(x), 10), le(e(x), 100), eq(e(x), 0, Strength(1))]
        let (solver, _) = try solver(constraints)
        #expect(solver.value(of: x) == 10)
        // The weak wish does not hold (x is 10, not 0): not listed.
        #expect(rates(solver, e(x)) == [0: 1])
        #expect(try difference(constraints, 0, e(x)) == 1)
        #expect(try difference(constraints, 1, e(x)) == 0)
        #expect(try difference(constraints, 2, e(x)) == 0)
    }

    @Test func optionalConstraintThatHoldsIsListedAfterRequired() throws {
        // w == 120 @750 holds (nothing stronger disagrees); x == 8 required.
        let constraints = [eq(e(y), 120, Strength(750)), eq(e(x), 8), Constraint(e(z) - e(x) - e(y), .equal)]
        let (solver, _) = try solver(constraints, bulk: true)
        #expect(solver.value(of: z) == 128)
        var work = 0
        let listed = solver.sensitivities(of: e(z), work: &work) ?? []
        // Strongest first: the required ones (1, and 2 whose constant is 0 but which
        // holds z), then the optional one (0).
        #expect(listed.map(\.handle.rawValue) == [1, 2, 0])
        #expect(listed.map(\.rate) == [1, 1, 1])
    }

    @Test func withoutMarkersThereIsNoAnswer() throws {
        var solver = Solver()
        try solver.addConstraint(eq(e(x), 1))
        var work = 0
        #expect(solver.sensitivities(of: e(x), work: &work) == nil)
    }

    @Test func degenerateOptimumListsTheBasisItStoppedAt() throws {
        // x >= 100 and then x == 100 (both required): two constraints through one point.
        // The equality's marker stays non-basic and moves x one for one; the inequality's
        // slack is basic at 0, so it is not listed — right for lowering its constant (x
        // stays 100), while raising it would conflict: a one-sided rate (documented).
        let constraints = [ge(e(x), 100), eq(e(x), 100)]
        let (solver, _) = try solver(constraints)
        #expect(solver.value(of: x) == 100)
        #expect(rates(solver, e(x)) == [1: 1])
    }
}
