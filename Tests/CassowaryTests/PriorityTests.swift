import Testing
@testable import Cassowary

/// Strict (lexicographic) priorities: a stronger level beats any number of weaker ones.
struct PriorityTests {
    @Test func oneHighBeatsAThousandLows() throws {
        var solver = Solver()
        let variables = (0..<1000).map { Variable(id: 100 + $0) }
        // Each low-priority variable wants x == 0 through v == x, v == 0 @250.
        for variable in variables {
            try solver.addConstraint(Constraint(e(variable) - e(x), .equal))
            try solver.addConstraint(eq(e(variable), 0, Strength(250)))
        }
        try solver.addConstraint(eq(e(x), 100, Strength(750)))
        #expect(solver.value(of: x) == 100)
        #expect(solver.value(of: variables[999]) == 100)
    }

    @Test func kiwiWeightsWouldDisagree() throws {
        // Weighted: 3·1000·|x-0| vs 1·2000·|x-10| → kiwi picks 0. Strict: 2000 wins → 10.
        var solver = Solver()
        try solver.addConstraint(eq(e(x), 0, Strength(1000)))
        try solver.addConstraint(eq(e(x) - e(y), 0))
        try solver.addConstraint(eq(e(y), 0, Strength(1000)))
        try solver.addConstraint(eq(e(x) * 2, 0, Strength(1000)))
        try solver.addConstraint(eq(e(x), 10, Strength(2000)))
        #expect(solver.value(of: x) == 10)
    }

    @Test func sameLevelMinimisesSumOfErrors() throws {
        // Three @500 wishes on one variable: the sum of |errors| is least at the median.
        var solver = Solver()
        try solver.addConstraint(eq(e(x), 10, Strength(500)))
        try solver.addConstraint(eq(e(x), 20, Strength(500)))
        try solver.addConstraint(eq(e(x), 70, Strength(500)))
        #expect(solver.value(of: x) == 20)
    }

    @Test func errorIsMeasuredAsWritten() throws {
        // 3x == 30 @5 has three times the weight of x == 0 @5 per unit of x.
        var solver = Solver()
        try solver.addConstraint(eq(e(x) * 3, 30, Strength(5)))
        try solver.addConstraint(eq(e(x), 0, Strength(5)))
        try solver.addConstraint(eq(e(x), 0, Strength(5)))
        #expect(solver.value(of: x) == 10)
    }

    @Test func levelsAddedInAnyOrder() throws {
        var solver = Solver()
        try solver.addConstraint(le(e(x), 50, Strength(300)))
        try solver.addConstraint(ge(e(x), 80, Strength(100)))
        #expect(solver.value(of: x) == 50)
        let top = try solver.addConstraint(ge(e(x), 90, Strength(900)))
        #expect(solver.value(of: x) == 90)
        try solver.removeConstraint(top)
        #expect(solver.value(of: x) == 50)
    }

    @Test func editAtItsOwnLevel() throws {
        var solver = Solver()
        try solver.addConstraint(le(e(x), 500, Strength(750)))
        try solver.addEditVariable(x, strength: Strength(500))
        try solver.suggestValue(600, for: x)
        #expect(solver.value(of: x) == 500)
        try solver.suggestValue(400, for: x)
        #expect(solver.value(of: x) == 400)
    }
}
