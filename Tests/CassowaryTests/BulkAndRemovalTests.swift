import Testing
@testable import Cassowary

/// `autoSolve` off (bulk load), removal of marker-less required equalities (rebuild),
/// and the column index's hash set.
struct BulkAndRemovalTests {
    @Test func bulkLoadMatchesIncremental() throws {
        func build(autoSolve: Bool) throws -> [Double] {
            var solver = Solver()
            solver.autoSolve = autoSolve
            let views = (0..<20).map { (x: Variable(id: 10 + 2 * $0), w: Variable(id: 11 + 2 * $0)) }
            let width = Variable(id: 1)
            try solver.addConstraint(eq(e(width), 1000))
            for (index, view) in views.enumerated() {
                if index == 0 {
                    try solver.addConstraint(eq(e(view.x), 20))
                } else {
                    try solver.addConstraint(Constraint(e(view.x) - e(views[index - 1].x) - e(views[index - 1].w) - 8, .equal))
                    try solver.addConstraint(Constraint(e(view.w) - e(views[0].w), .equal))
                }
                try solver.addConstraint(ge(e(view.w), 10))
                try solver.addConstraint(eq(e(view.w), 44, Strength(1)))
            }
            try solver.addConstraint(Constraint(e(views[19].x) + e(views[19].w) + 20 - e(width), .lessThanOrEqual))
            solver.updateVariables()
            return views.flatMap { [solver.value(of: $0.x), solver.value(of: $0.w)] }
        }
        let incremental = try build(autoSolve: true)
        let bulk = try build(autoSolve: false)
        // Different pivot paths may round differently in the last bit.
        #expect(zip(incremental, bulk).allSatisfy { abs($0 - $1) <= 1e-9 })
        // 20 views at 44 plus margins and gaps need 1072 > 1000, so the required
        // trailing bound squeezes the equal widths to (1000 - 40 - 19·8) / 20 = 40.4.
        #expect(incremental[0] == 20)
        #expect(abs(incremental[1] - 40.4) <= 1e-9)
        #expect(abs(incremental[38] - (20 + 19 * 48.4)) <= 1e-9)
    }

    /// A flow layout like the benchmark's mixed family (rows of 8 views; margins,
    /// gaps, compression resistance and hugging at 26 distinct levels, weights distinct
    /// so the optimum is unique): 40 rows queue about 2,900 optional constraints, and
    /// the bulk load must reach the incremental solver's optimum, with exact frames.
    @Test func bulkLoadOfAFlowLayoutMatchesIncremental() throws {
        let rowCount = 40, perRow = 8
        let bulk = try FlowLayout(rows: rowCount, autoSolve: false)
        let incremental = try FlowLayout(rows: rowCount, autoSolve: true)
        let intrinsic = bulk.intrinsic
        let width = FlowLayout.pinnedWidth
        #expect(bulk.solver.bulkLoad.pending.isEmpty)
        #expect(bulk.solver.records.count > 3000)
        var fitting = 0
        for row in 0..<rowCount {
            for column in 0..<perRow {
                for variable in [bulk.x[row][column], bulk.w[row][column]] {
                    #expect(abs(bulk.solver.value(of: variable) - incremental.solver.value(of: variable)) <= 1e-9)
                }
            }
            // A row whose views fit at their intrinsic widths and preferred gaps is laid
            // out exactly so: x = 16 + Σ (intrinsic + 12) of the views before.
            guard intrinsic[row].reduce(0, +) + 32 + 7 * 12 <= width else { continue }
            fitting += 1
            var expectedX = 16.0
            for column in 0..<perRow {
                #expect(abs(bulk.solver.value(of: bulk.x[row][column]) - expectedX) <= 1e-9)
                #expect(abs(bulk.solver.value(of: bulk.w[row][column]) - intrinsic[row][column]) <= 1e-9)
                expectedX += intrinsic[row][column] + 12
            }
        }
        #expect(fitting >= 10)
    }

    /// n "width 44 @1" wishes over n equal widths merge into the first (one error of
    /// weight n): the merge keys are found before the install, and the representative
    /// (the lowest handle at its level) is installed first.
    @Test func queuedDuplicatesMergeIntoTheFirst() throws {
        let count = 2500
        var solver = Solver()
        solver.autoSolve = false
        let widths = (0..<count).map { Variable(id: 1 + $0) }
        for (index, width) in widths.enumerated() {
            if index > 0 { try solver.addConstraint(Constraint(e(width) - e(widths[0]), .equal)) }
            try solver.addConstraint(eq(e(width), 44, Strength(1)))
        }
        try solver.addConstraint(le(e(widths[count - 1]), 30, Strength(2)))
        solver.updateVariables()
        #expect(solver.merging.mergedCount == count - 1)
        // The cap @2 beats any number of wishes @1.
        #expect(widths.allSatisfy { solver.value(of: $0) == 30 })
    }

    /// Keys worked out before the install stay exact when an optional row installed
    /// earlier turns one of their variables into a definition (it carries error
    /// symbols, so it is never an alias): the duplicate wish still merges.
    @Test func queuedKeysStayExactThroughDefinitions() throws {
        var solver = Solver()
        solver.autoSolve = false
        // Gives y a symbol that no row holds (the terms cancel), so the keys of the
        // wishes on y are worked out before the install.
        try solver.addConstraint(ge(e(y) - e(y), -1))
        try solver.addConstraint(ge(e(x), 0))
        try solver.addConstraint(eq(e(x), 2, Strength(1)))
        try solver.addConstraint(Constraint(e(y) - e(x) - 5, .equal, strength: Strength(10)))   // defines y
        try solver.addConstraint(eq(e(y), 7, Strength(1)))
        try solver.addConstraint(eq(e(y), 7, Strength(1)))
        solver.updateVariables()
        let symbol = try #require(solver.variableSymbols[y])
        #expect(solver.isDefinition(symbol) && !solver.isAlias(symbol))
        #expect(solver.merging.mergedCount == 1)
        #expect(solver.value(of: x) == 2)
        #expect(solver.value(of: y) == 7)
    }

    @Test func bulkLoadStillRejectsRequiredConflicts() throws {
        var solver = Solver()
        solver.autoSolve = false
        try solver.addConstraint(eq(e(x), 10, Strength(1)))
        try solver.addConstraint(ge(e(x), 50))
        #expect(throws: SolverError.unsatisfiableConstraint) { try solver.addConstraint(le(e(x), 40)) }
        // Pending optional constraint not yet applied: only the required bound holds.
        #expect(solver.value(of: x) == 50)
        solver.updateVariables()
        #expect(solver.value(of: x) == 50)
        #expect(solver.isDetermined(e(x)))
    }

    @Test func pendingOptionalIsAppliedBySolve() throws {
        var solver = Solver()
        solver.autoSolve = false
        let wish = try solver.addConstraint(eq(e(x), 10, Strength(1)))
        #expect(solver.value(of: x) == 0)
        try solver.solve()
        #expect(solver.value(of: x) == 10)
        try solver.removeConstraint(wish)
        #expect(solver.value(of: x) == 0)
    }

    @Test func removingARequiredEqualityRebuilds() throws {
        var solver = Solver()
        let link = try solver.addConstraint(Constraint(e(y) - e(x) * 2, .equal))   // y == 2x
        try solver.addConstraint(eq(e(y), 7, Strength(5)))
        try solver.addEditVariable(x, strength: Strength(10))
        try solver.suggestValue(30, for: x)
        #expect(solver.value(of: y) == 60)
        try solver.removeConstraint(link)
        // x keeps its suggestion, y goes back to its own wish; handles are kept.
        #expect(solver.value(of: x) == 30)
        #expect(solver.value(of: y) == 7)
        #expect(solver.hasEditVariable(x))
        try solver.suggestValue(12, for: x)
        #expect(solver.value(of: x) == 12)
        let next = try solver.addConstraint(Constraint(e(z) - e(x), .equal))
        #expect(next.rawValue == 3)     // 0 link, 1 wish, 2 edit constraint
        #expect(solver.value(of: z) == 12)
        #expect(solver.constraintHandles.map(\.rawValue) == [1, 3])
    }

    @Test func symbolSetInsertRemoveContains() {
        var set = SymbolSet()
        var reference = Set<Int>()
        var state: UInt64 = 99
        for _ in 0..<5000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = Int(state >> 54)          // 0..<1024: many collisions
            if state & 1 == 0 { set.insert(Symbol(value)); reference.insert(value) } else { set.remove(Symbol(value)); reference.remove(value) }
        }
        #expect(set.count == reference.count)
        #expect(Set(set.map(\.id)) == reference)
        for value in 0..<1024 { #expect(set.contains(Symbol(value)) == reference.contains(value)) }
    }

    /// Small sets live inline (up to four members) and move to slots on the fifth:
    /// every insert and remove around that boundary keeps the same members.
    @Test func symbolSetInlineMembers() {
        var set = SymbolSet()
        var reference = Set<Int>()
        var state: UInt64 = 7
        var grew = false
        for step in 0..<3000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = Int(state >> 61)          // 0..<8: sets of 0 to 8 members
            if state & 3 != 0 { set.insert(Symbol(value)); reference.insert(value) } else { set.remove(Symbol(value)); reference.remove(value) }
            if reference.count == 5 { grew = true }
            #expect(set.count == reference.count, "step \(step)")
            #expect(Set(set.map(\.id)) == reference, "step \(step)")
            #expect(Array(set).count == reference.count, "step \(step): a member listed twice")
            for probe in 0..<8 { #expect(set.contains(Symbol(probe)) == reference.contains(probe)) }
            if step % 500 == 499 { set = SymbolSet(); reference = [] }   // back to inline
        }
        #expect(grew)
    }
}
