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
        #expect(solver.table.rows[symbol.id].cells.count == 1)
    }

    /// `u == w` makes `u` a definition naming `w`; `w == 3` then has one external symbol,
    /// held only by that definition: `w` becomes a definition ranked below `u`, and later
    /// rows naming both expand `u` before `w`.
    @Test func requiredRowOfASymbolOnlyDefinitionsHoldIsADefinition() throws {
        var solver = Solver()
        let w = Variable(id: 100), u = Variable(id: 101), x = Variable(id: 102)
        try solver.addConstraint(Constraint(e(w) - e(u), .equal))
        let uSymbol = solver.variableSymbols[u]!, wSymbol = solver.variableSymbols[w]!
        #expect(solver.isDefinition(uSymbol))
        try solver.addConstraint(eq(e(w), 3))
        #expect(solver.isDefinition(wSymbol))
        #expect(solver.table.definition[wSymbol.id].rank < solver.table.definition[uSymbol.id].rank)
        try solver.addConstraint(Constraint(e(x) - e(u) - 1, .equal))
        try solver.addConstraint(le(e(u) + e(w), 6))
        #expect(throws: SolverError.unsatisfiableConstraint) {
            try solver.addConstraint(ge(e(u) + e(w), 7))
        }
        try solver.solve()
        #expect(solver.value(of: w) == 3)
        #expect(solver.value(of: u) == 3)
        #expect(solver.value(of: x) == 4)
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

    /// Stale reads of definitions that share dependencies (a diamond: `d` names `b` and
    /// `c`, and `c` names `b` too, over a chain) give, bit for bit, what the refreshed
    /// cache gives: each definition on the way is evaluated once, from its cells in order.
    @Test func staleReadsOfDefinitionsSharingDependenciesMatchTheCache() throws {
        let w = Variable(id: 950)
        let v = (0...9).map { Variable(id: 960 + $0) }
        let b = Variable(id: 980), c = Variable(id: 981), d = Variable(id: 982)
        var solver = Solver()
        try solver.addEditVariable(w, strength: Strength(900))
        try solver.addConstraint(Constraint(e(v[0]) - e(w) * 1.1, .equal))
        for i in 1...9 { try solver.addConstraint(Constraint(e(v[i]) - e(v[i - 1]) * 0.9 - 10.3, .equal)) }
        try solver.addConstraint(Constraint(e(b) - e(v[9]) - e(v[4]) * 0.25 - 1, .equal))
        try solver.addConstraint(Constraint(e(c) - e(b) * 0.5 - e(v[7]) - 2, .equal))
        try solver.addConstraint(Constraint(e(d) - e(b) - e(c) * 3 - e(v[2]), .equal))
        solver.updateVariables()
        let all = v + [b, c, d]
        for variable in all {
            let symbol = try #require(solver.variableSymbols[variable])
            #expect(solver.isDefinition(symbol))
        }
        for suggestion in [12.345, -7.25, 1e-3, 480.1] {
            try solver.suggestValue(suggestion, for: w)
            // Each read on its own (the stale path), the diamond's top first.
            let stale = all.reversed().map { solver.value(of: $0).bitPattern }
            solver.updateVariables()
            #expect(stale == all.reversed().map { solver.value(of: $0).bitPattern }, "\(suggestion)")
        }
    }

    /// A stale read (after a suggestion, before ``Solver/updateVariables()``) of a
    /// definition over no other definition and of one over a chain of them gives, bit for
    /// bit, what the refreshed cache gives: the resize path checks a suggestion held with
    /// such a read, and answers from the cache.
    @Test func staleReadsOfLeafAndChainedDefinitionsMatchTheCache() throws {
        let w = Variable(id: 900), leaf = Variable(id: 901)
        let v = (0...12).map { Variable(id: $0) }
        // A leaf: its row first, so that `w` is held and the edit makes it a basic row.
        var leafSolver = Solver()
        try leafSolver.addConstraint(Constraint(e(leaf) - e(w) * 0.3 - 0.7, .equal))   // leaf = 0.3·w + 0.7
        try leafSolver.addEditVariable(w, strength: Strength(900))
        // A chain: the edit first (its row a definition), then v0 = 1.1·w, v[i] = v[i-1] + 10.
        var chainSolver = Solver()
        try chainSolver.addEditVariable(w, strength: Strength(900))
        try chainSolver.addConstraint(Constraint(e(v[0]) - e(w) * 1.1, .equal))
        for i in 1...12 { try chainSolver.addConstraint(Constraint(e(v[i]) - e(v[i - 1]) - 10, .equal)) }
        // Which path each read takes: the leaf's row names no basic definition, v12's does.
        func namesADefinition(_ solver: Solver, _ variable: Variable) throws -> Bool {
            let symbol = try #require(solver.variableSymbols[variable])
            #expect(solver.isDefinition(symbol))
            return solver.table.rows[symbol.id].cells.contains { solver.table.isBasic[$0.symbol.id] && solver.isDefinition($0.symbol) }
        }
        leafSolver.updateVariables()
        chainSolver.updateVariables()
        #expect(try !namesADefinition(leafSolver, leaf))
        #expect(try namesADefinition(chainSolver, v[12]))
        for suggestion in [12.345, -7.25, 1e-3, 480.1] {
            try leafSolver.suggestValue(suggestion, for: w)
            try chainSolver.suggestValue(suggestion, for: w)
            let stale = [leafSolver.value(of: leaf).bitPattern] + v.map { chainSolver.value(of: $0).bitPattern }
            leafSolver.updateVariables()
            chainSolver.updateVariables()
            #expect(stale == [leafSolver.value(of: leaf).bitPattern] + v.map { chainSolver.value(of: $0).bitPattern }, "\(suggestion)")
            #expect(abs(leafSolver.value(of: leaf) - (0.3 * suggestion + 0.7)) < 1e-9)
            #expect(abs(chainSolver.value(of: v[12]) - (1.1 * suggestion + 120)) < 1e-9)
        }
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

/// Identical constraints merged into one (`insertOrMerge`): the same optimum as k
/// separate copies, removable one by one.
struct MergedConstraintTests {
    @Test func identicalOptionalConstraintsWeighByTheirCount() throws {
        var solver = Solver()
        for _ in 0..<3 { try solver.addConstraint(eq(e(x), 10, Strength(5))) }
        let twenty = try (0..<2).map { _ in try solver.addConstraint(eq(e(x), 20, Strength(5))) }
        #expect(solver.value(of: x) == 10)          // 3·|x-10| + 2·|x-20| is least at 10
        #expect(solver.isDetermined(e(x)))
        try solver.addConstraint(eq(e(x), 20, Strength(5)))
        #expect(!solver.isDetermined(e(x)))         // 3 against 3: every x in [10, 20]
        try solver.removeConstraint(twenty[0])
        #expect(solver.value(of: x) == 10)
        #expect(solver.isDetermined(e(x)))
    }

    @Test func aliasesAreResolvedBeforeComparing() throws {
        // w1 == w0 makes `w1 == 44` the same wish as `w0 == 44`.
        var solver = Solver()
        solver.autoSolve = false
        let (w0, w1, w2) = (Variable(id: 0), Variable(id: 1), Variable(id: 2))
        try solver.addConstraint(ge(e(w0), 10))
        try solver.addConstraint(Constraint(e(w1) - e(w0), .equal))
        try solver.addConstraint(Constraint(e(w2) - e(w0), .equal))
        try solver.addConstraint(ge(e(w1), 10))        // a duplicate of w0 >= 10
        for w in [w0, w1, w2] { try solver.addConstraint(eq(e(w), 44, Strength(1))) }
        try solver.addConstraint(eq(e(w2), 100, Strength(1)))
        try solver.addConstraint(eq(e(w1), 100, Strength(1)))
        try solver.solve()
        #expect(solver.merging.mergedCount == 4)
        #expect(solver.value(of: w2) == 44)          // three wishes for 44 beat two for 100
        try solver.addConstraint(eq(e(w0), 100, Strength(1)))
        try solver.solve()
        #expect(!solver.isDetermined(e(w2)))
    }

    @Test func aliasesAreStillResolvedAfterARebuild() throws {
        // `table.definition[_].isAlias` is set when a definition is installed; a removal rebuilds the
        // tableau (definitions exist), and the rebuilt solver must flag the alias again.
        // `w1 - w0 == 0` names w1 first (symbol 0), then w0 (symbol 1); the definition
        // takes the highest id of equal coefficients, so it is `w0 = w1`.
        var solver = Solver()
        let (w0, w1, z) = (Variable(id: 0), Variable(id: 1), Variable(id: 2))
        try solver.addConstraint(Constraint(e(w1) - e(w0), .equal))
        let unrelated = try solver.addConstraint(ge(e(z), 1))
        try solver.addConstraint(eq(e(w0), 44, Strength(1)))
        try solver.removeConstraint(unrelated)
        let (alias, target) = (try #require(solver.variableSymbols[w0]), try #require(solver.variableSymbols[w1]))
        #expect(solver.isAlias(alias) && !solver.isAlias(target))
        let merged = solver.merging.mergedCount
        try solver.addConstraint(eq(e(w1), 44, Strength(1)))           // w0 == 44 again
        #expect(solver.merging.mergedCount == merged + 1)
        #expect(solver.value(of: w1) == 44)
        #expect(solver.value(of: w0) == 44)
    }

    @Test func editConstraintsAreNeverMerged() throws {
        // Two user wishes `v == 0 @900` and an edit at 900 suggesting 10: 2·|v| + |v-10|
        // keeps v at 0. Had the edit shared the wishes' errors, the suggestion would
        // have moved them too.
        var solver = Solver()
        let v = Variable(id: 7)
        try solver.addConstraint(eq(e(v), 0, Strength(900)))
        try solver.addConstraint(eq(e(v), 0, Strength(900)))
        try solver.addEditVariable(v, strength: Strength(900))
        try solver.suggestValue(10, for: v)
        try solver.solve()
        #expect(solver.value(of: v) == 0)
        try solver.addConstraint(eq(e(v), 0, Strength(900)))   // merges with the user's, not the edit
        try solver.suggestValue(30, for: v)
        try solver.solve()
        #expect(solver.value(of: v) == 0)
    }

    @Test func requiredDuplicatesAreRemovedOneByOne() throws {
        var solver = Solver()
        let first = try solver.addConstraint(ge(e(x), 10))
        let second = try solver.addConstraint(ge(e(x), 10))
        try solver.addConstraint(eq(e(x), 0, Strength(1)))
        #expect(solver.value(of: x) == 10)
        try solver.removeConstraint(first)
        #expect(solver.value(of: x) == 10)
        try solver.removeConstraint(second)
        #expect(solver.value(of: x) == 0)
    }
}

extension MergedConstraintTests {
    @Test func wishesEqualOnlyThroughTheTableauAreMergedToo() throws {
        // m, c and k are each p + q. Their wishes `== 44` name different symbols, none a
        // mere alias, but written in the non-basic symbols of the moment they are the
        // same row: once `m == 44` has moved the basis, `c == 44` and `k == 44` find
        // each other (a row from before a pivot can only miss, never match wrongly).
        var solver = Solver()
        solver.autoSolve = false
        let (p, q) = (Variable(id: 0), Variable(id: 1))
        let sums = [Variable(id: 2), Variable(id: 3), Variable(id: 4)]
        try solver.addConstraint(ge(e(p), 0))
        try solver.addConstraint(ge(e(q), 0))
        for sum in sums { try solver.addConstraint(Constraint(e(sum) - e(p) - e(q), .equal)) }
        for sum in sums { try solver.addConstraint(eq(e(sum), 44, Strength(1))) }
        try solver.addConstraint(eq(e(p), 30, Strength(1)))
        try solver.addConstraint(eq(e(q), 0, Strength(2)))
        try solver.solve()
        #expect(solver.merging.mergedCount == 1)
        // q = 0 first; then 3·|p - 44| + |p - 30| is least at p = 44.
        #expect(solver.value(of: q) == 0)
        #expect(solver.value(of: p) == 44)
        #expect(sums.map { solver.value(of: $0) } == [44, 44, 44])
        #expect(solver.isDetermined(e(p)))
    }
}

/// Merging against no merging on seeded random layout-shaped systems: a solver that
/// tracks markers never merges, so the two must agree on every determined variable.
struct MergingPropertyTests {
    /// A small deterministic generator (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.count))
        }
    }

    @Test(arguments: 0..<40)
    func mergedAndUnmergedSolversAgree(seed: Int) throws {
        var random = Random(state: UInt64(seed) &* 7919 &+ 1)
        let n = random.int(4...12)
        var constraints: [Constraint] = []
        let levels = [Strength(3), Strength(20), Strength(400)]
        for i in 0..<n {
            constraints.append(ge(e(Variable(id: i)), 0))
            if i > 0 && random.int(0...2) == 0 {
                // An alias, possibly of an alias.
                let j = random.int(0...(i - 1))
                constraints.append(Constraint(e(Variable(id: i)) - e(Variable(id: j)) - Double(random.int(0...5)), .equal))
            }
        }
        var duplicated = false
        for _ in 0..<random.int(3...10) {
            let a = Variable(id: random.int(0...(n - 1)))
            let b = Variable(id: random.int(0...(n - 1)))
            let expression = e(a) - e(b) * Double(random.int(0...2)) - Double(random.int(0...40))
            let relation: RelationalOperator = [.equal, .lessThanOrEqual, .greaterThanOrEqual][random.int(0...2)]
            let strength = levels[random.int(0...2)]
            let copies = random.int(1...3)
            duplicated = duplicated || copies > 1
            for _ in 0..<copies { constraints.append(Constraint(expression, relation, strength: strength)) }
        }
        var merged = Solver()
        var unmerged = Solver()
        unmerged.tracksMarkers = true
        for constraint in constraints {
            let a = try? merged.addConstraint(constraint)
            let b = try? unmerged.addConstraint(constraint)
            #expect((a == nil) == (b == nil))
        }
        try merged.solve()
        try unmerged.solve()
        #expect(merged.merging.mergedCount > 0 || !duplicated)
        #expect(unmerged.merging.mergedCount == 0)
        for i in 0..<n {
            let v = Variable(id: i)
            guard merged.isDetermined(e(v)) else { continue }
            #expect(unmerged.isDetermined(e(v)))
            #expect(abs(merged.value(of: v) - unmerged.value(of: v)) <= 1e-6, "seed \(seed), variable \(i)")
        }
    }
}

/// The merge index on its own: many keys (its per-symbol lists, and the hash table of
/// keys that overflow them), keys that differ in one number only, replacement of a
/// stored handle.
struct MergeIndexTests {
    func key(_ i: Int, constant: Double = 0, strength: Double = 1) -> MergeKey {
        MergeKey(strength: strength, relation: i % 3 == 0 ? .equal : .greaterThanOrEqual,
                 row: Row(unsortedCells: [Cell(symbol: Symbol(i), coefficient: 1), Cell(symbol: Symbol(i + 1), coefficient: -2)],
                          constant: constant))
    }

    @Test func everyStoredKeyIsFoundAndNoOtherIs() {
        var index = MergeIndex()
        for i in 0..<20_000 { index.insert(key(i), handle: ConstraintHandle(rawValue: i)) }
        for i in 0..<20_000 {
            #expect(index.handle(for: key(i))?.rawValue == i)
            // Equal but for the constant, the strength, or the symbols: not found.
            #expect(index.handle(for: key(i, constant: 1)) == nil)
            #expect(index.handle(for: key(i, strength: 2)) == nil)
        }
        #expect(index.handle(for: key(20_000)) == nil)
    }

    @Test func insertingAnEqualKeyReplacesItsHandle() {
        var index = MergeIndex()
        index.reserveCapacity(4, symbols: 8)
        for i in 0..<100 { index.insert(key(i), handle: ConstraintHandle(rawValue: i)) }
        index.insert(key(42), handle: ConstraintHandle(rawValue: 4_242))
        #expect(index.handle(for: key(42))?.rawValue == 4_242)
        #expect(index.handle(for: key(41))?.rawValue == 41)
    }

    /// Keys filed under one symbol beyond the per-symbol list go to the hash table;
    /// every one is still found, replaced and told from its near misses.
    @Test func keysBeyondOneSymbolsListAreFoundInTheTable() {
        func shared(_ i: Int, constant: Double = 0) -> MergeKey {
            MergeKey(strength: 1, relation: .lessThanOrEqual,
                     row: Row(unsortedCells: [Cell(symbol: Symbol(9_000), coefficient: 1), Cell(symbol: Symbol(i), coefficient: 0.5)],
                              constant: constant))
        }
        var index = MergeIndex()
        for i in 0..<1_000 { index.insert(shared(i), handle: ConstraintHandle(rawValue: i)) }
        for i in 0..<1_000 {
            #expect(index.handle(for: shared(i))?.rawValue == i)
            #expect(index.handle(for: shared(i, constant: -1)) == nil)
        }
        index.insert(shared(3), handle: ConstraintHandle(rawValue: 33))      // in the list
        index.insert(shared(999), handle: ConstraintHandle(rawValue: 9_999)) // in the table
        #expect(index.handle(for: shared(3))?.rawValue == 33)
        #expect(index.handle(for: shared(999))?.rawValue == 9_999)
        #expect(index.handle(for: shared(1_000)) == nil)
    }

    @Test func keysWithoutCellsAreFound() {
        func constantOnly(_ c: Double) -> MergeKey {
            MergeKey(strength: 1_000, relation: .equal, row: Row(unsortedCells: [], constant: c))
        }
        var index = MergeIndex()
        for i in 0..<50 { index.insert(constantOnly(Double(i)), handle: ConstraintHandle(rawValue: i)) }
        #expect(index.handle(for: constantOnly(7))?.rawValue == 7)
        #expect(index.handle(for: constantOnly(49))?.rawValue == 49)
        #expect(index.handle(for: constantOnly(50)) == nil)
        #expect(index.handle(for: MergeKey(strength: 1, relation: .equal, row: Row(unsortedCells: [], constant: 7))) == nil)
    }
}

/// The expansion accumulator on its own: the same sums, sorted, whether it stays in
/// its short list or moves to the dense array part-way.
struct ExpanderTests {
    /// Adds `(symbol, coefficient)` pairs, takes `taken`, drains.
    func expand(_ additions: [(Int, Double)], taking taken: Int? = nil) -> (cells: [Cell], took: Double?) {
        var expander = Expander()
        expander.prepare(symbolCount: 100, capacity: 100)
        for (symbol, coefficient) in additions { expander.add(Symbol(symbol), coefficient) }
        let took = taken.map { expander.take(Symbol($0)) }
        return (expander.drain(), took)
    }

    @Test func fewSymbolsStayInTheList() {
        let result = expand([(7, 1), (3, 2), (7, 0.5), (9, -1), (9, 1), (5, 4)], taking: 5)
        #expect(result.took == 4)
        #expect(result.cells.map(\.symbol.id) == [3, 7])   // 9 cancelled, 5 taken
        #expect(result.cells.map(\.coefficient) == [2, 1.5])
    }

    @Test func manySymbolsGiveTheSameSums() {
        // 40 symbols, each added three times in a scrambled order: past the list limit.
        var additions: [(Int, Double)] = []
        for round in 0..<3 {
            for k in 0..<40 { additions.append(((k * 17 + round) % 40 + 10, Double(k % 5) - 2 + 0.25 * Double(round))) }
        }
        let result = expand(additions, taking: 12)
        var sums = [Double](repeating: 0, count: 60)
        for (symbol, coefficient) in additions { sums[symbol] += coefficient }
        #expect(result.took == sums[12])
        sums[12] = 0
        let expected = sums.indices.filter { sums[$0] != 0 }
        #expect(result.cells.map(\.symbol.id) == expected)
        #expect(result.cells.map(\.coefficient) == expected.map { sums[$0] })
        // Drained: the next use starts empty, in the list again.
        var expander = Expander()
        expander.prepare(symbolCount: 100, capacity: 100)
        for (symbol, coefficient) in additions { expander.add(Symbol(symbol), coefficient) }
        _ = expander.drain()
        expander.add(Symbol(4), 2)
        #expect(expander.drain().map(\.symbol.id) == [4])
    }
}

/// The ambiguity analysis within a budget (issue: a hostile scene's analysis was
/// unbounded): the same answers with room, `nil` without, and the work reported.
struct AmbiguityBudgetTests {
    @Test func answersWithinTheBudgetOrNone() throws {
        var solver = Solver()
        let x = Variable(id: 0), y = Variable(id: 1)
        try solver.addConstraint(Constraint(Expression(x) + Expression(y) - 10, .equal))
        try solver.addConstraint(Constraint(Expression(x) - 3, .equal, strength: Strength(5)))
        try solver.addConstraint(Constraint(Expression(x) - 7, .equal, strength: Strength(5)))
        let expressions = [Expression(x), Expression(y), Expression(x) + Expression(y)]
        var work = 0
        let answers = solver.areDetermined(expressions, workLimit: .max, work: &work)
        #expect(answers == [false, false, true])
        #expect(answers == solver.areDetermined(expressions))
        #expect(work > 0)
        var small = 0
        #expect(solver.areDetermined(expressions, workLimit: 0, work: &small) == nil)
        #expect(small > 0 && small <= work)
        // Causes: all with room, only the first ones within a small budget.
        #expect(solver.ambiguityCauses(expressions).count == 3)
        #expect(solver.ambiguityCauses(expressions, workLimit: 0).count == 1)
    }
}
