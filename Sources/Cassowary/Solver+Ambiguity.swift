// Ambiguity: is an expression's value the same in every optimal solution?

extension Solver {
    /// Whether `expression` has the same value in every optimal solution: every
    /// solution that satisfies the required constraints and has the same error at every
    /// strength level as the current one. A variable the solver never saw is not
    /// determined.
    ///
    /// Method: write `expression` in the non-basic symbols, `e = c + Σ aⱼ·sⱼ`. On the
    /// optimal face dummies are fixed, a restricted symbol with a lexicographically
    /// positive reduced-cost vector is fixed at 0 (any increase would raise the first
    /// level where it is nonzero, since no stronger level can compensate), a restricted
    /// symbol with a zero vector may increase, an external one with a zero vector may
    /// move both ways. Restricted basic rows at value 0 (degenerate pivots) bound those
    /// moves: `row · d ≥ 0`. `e` is determined iff no direction `d` of that cone has
    /// `a · d ≠ 0`. If a symbol with `aⱼ ≠ 0` can move alone the answer is "no" at
    /// once; if none can move, "yes"; otherwise a small LP over the cone decides
    /// exactly (solved by a scratch `Solver` on the symbols involved).
    /// - Complexity: O(Σ length of the rows substituted + Σ column lengths of the
    ///   movable symbols in `expression`); use ``areDetermined(_:)`` for many queries.
    ///   With a pending ``solve()`` (``autoSolve`` off) it works on a solved copy.
    public func isDetermined(_ expression: Expression) -> Bool {
        if bulkLoad.needsSolve {
            var solved = self
            try? solved.solve()
            return solved.isDetermined(expression)
        }
        var blocking = DegeneracyIndex(precomputed: false)
        return isDetermined(expression, blocking: &blocking)
    }

    /// ``isDetermined(_:)`` for many expressions, sharing one O(tableau) index of the
    /// degenerate rows, so each answer costs about the length of its substituted row.
    public func areDetermined(_ expressions: [Expression]) -> [Bool] {
        var work = 0
        return areDetermined(expressions, workLimit: .max, work: &work) ?? []
    }

    /// ``areDetermined(_:)`` within a budget: `nil` once answering has taken more than
    /// `workLimit` cell operations (rows expanded, plus the index and the cone programs'
    /// work), which bounds the analysis of a tableau whose rows grew long. `work`
    /// receives what was spent either way.
    public func areDetermined(_ expressions: [Expression], workLimit: Int, work: inout Int) -> [Bool]? {
        determinedAnswers(expressions, workLimit: workLimit, work: &work)
    }

    /// ``areDetermined(_:workLimit:work:)`` of each difference's
    /// ``VariableDifference/expression``, the same answers and work, without an
    /// ``Expression`` per query.
    public func areDetermined(_ differences: [VariableDifference], workLimit: Int, work: inout Int) -> [Bool]? {
        determinedAnswers(differences, workLimit: workLimit, work: &work)
    }

    /// The body of both `areDetermined(_:workLimit:work:)`.
    private func determinedAnswers<Query: AmbiguityQuery>(_ expressions: [Query], workLimit: Int, work: inout Int) -> [Bool]? {
        if bulkLoad.needsSolve {
            var solved = self
            try? solved.solve()
            return solved.determinedAnswers(expressions, workLimit: workLimit, work: &work)
        }
        var blocking = DegeneracyIndex(precomputed: true)
        blocking.build(from: self)
        blocking.work = table.kinds.count
        defer { work += blocking.work + blocking.expander.work }
        var answers: [Bool] = []
        answers.reserveCapacity(expressions.count)
        for expression in expressions {
            if blocking.work + blocking.expander.work > workLimit { return nil }
            answers.append(isDetermined(expression, blocking: &blocking))
        }
        return answers
    }

    /// How degenerate restricted rows limit each symbol: `hard` when the row has no
    /// other movable symbol (the move is impossible), `soft` when other symbols might
    /// compensate (only the cone program can tell). Computed for the whole tableau or
    /// lazily per symbol.
    struct DegeneracyIndex {
        struct Flags {
            var hardUp = false, hardDown = false, softUp = false, softDown = false
        }

        var precomputed: Bool
        var flags: [Flags] = []
        /// Cell operations spent besides the expander's own count (``Expander/work``).
        var work = 0
        /// Scratch space for expanding definition rows, shared by the queries.
        var expander = Expander()
        /// Per symbol: 0 not yet known, 1 determined alone, 2 not.
        var determined: [UInt8] = []
        /// Definitions of rank below this are settled in `determined`.
        var settledRanks = 0

        init(precomputed: Bool) { self.precomputed = precomputed }

        mutating func build(from solver: Solver) {
            flags = Array(repeating: Flags(), count: solver.table.kinds.count)
            for id in solver.table.kinds.indices where solver.isDegenerate(Symbol(id)) {
                let basic = Symbol(id)
                // Counted, then recorded in cell order (no array of the movable cells).
                let cells = solver.table.rows[basic.id].cells
                var movable = 0
                for cell in cells where solver.freedom(of: cell.symbol) != .fixed { movable += 1 }
                for cell in cells where solver.freedom(of: cell.symbol) != .fixed {
                    Self.record(cell.coefficient, alone: movable == 1, into: &flags[cell.symbol.id])
                }
            }
        }

        static func record(_ coefficient: Double, alone: Bool, into flags: inout Flags) {
            if coefficient < 0 {
                if alone { flags.hardUp = true } else { flags.softUp = true }
            } else {
                if alone { flags.hardDown = true } else { flags.softDown = true }
            }
        }

        func flags(for symbol: Symbol, in solver: Solver) -> Flags {
            if precomputed { return flags[symbol.id] }
            var result = Flags()
            for basic in solver.table.columns[symbol.id] where solver.isDegenerate(basic) {
                let cells = solver.table.rows[basic.id].cells
                var movable = 0
                for cell in cells where solver.freedom(of: cell.symbol) != .fixed { movable += 1 }
                Self.record(solver.table.rows[basic.id].coefficient(for: symbol), alone: movable == 1, into: &result)
            }
            return result
        }
    }

    /// The basic symbols whose restricted rows are at value 0 (degenerate), ascending.
    /// With the coefficients (see ``pivotTrail``) they are all ``areDetermined(_:)``
    /// reads of the tableau: its answers depend on the constants only through this set.
    /// Symbols are given by their ids (`Symbol.id`), the numbers ``pivotTrail`` holds.
    /// - Complexity: O(symbols).
    public func degenerateRows() -> [Int] {
        // In id order, as `filter` gives them; room for a small tableau's set at once.
        var rows: [Int] = []
        rows.reserveCapacity(min(table.kinds.count, 64))
        for id in table.kinds.indices where isDegenerate(Symbol(id)) { rows.append(id) }
        return rows
    }

    /// A restricted basic row whose value is 0 (up to ``Tolerance``).
    @inline(__always)
    func isDegenerate(_ basic: Symbol) -> Bool {
        table.isBasic[basic.id] && table.kinds[basic.id].isRestricted && Tolerance.isNearZero(table.rows[basic.id].constant, scale: 1)
    }

    /// How a non-basic symbol may move on the optimal face.
    enum Freedom { case fixed, increase, both }

    func freedom(of symbol: Symbol) -> Freedom {
        switch table.kinds[symbol.id] {
        case .dummy:
            return .fixed
        case .external, .slack, .error:
            if objective.hasCost(symbol) { return .fixed }
            return table.kinds[symbol.id] == .external ? .both : .increase
        }
    }

    func isDetermined<Query: AmbiguityQuery>(_ expression: Query, blocking: inout DegeneracyIndex) -> Bool {
        guard expression.isFinite else { return false }
        // One or two terms over distinct seen variables (every frame field): their symbols,
        // ascending, are the cells of the row built below, so the sum of determined symbols
        // is recognised without building it (no allocation). The same symbols are asked in
        // the same order, so a "no" here asks nothing new below (answers are memoised).
        let terms = expression.queryTerms
        if terms.count == 1 || terms.count == 2, terms[0].coefficient != 0, let first = variableSymbols[terms[0].variable] {
            if terms.count == 1 {
                if isSymbolDetermined(first, blocking: &blocking) { return true }
            } else if terms[1].coefficient != 0, let second = variableSymbols[terms[1].variable], second != first {
                let (low, high) = first < second ? (first, second) : (second, first)
                if isSymbolDetermined(low, blocking: &blocking) && isSymbolDetermined(high, blocking: &blocking) { return true }
            }
        }
        var direct = Row(constant: expression.constant)
        var unseen: [Variable: Double] = [:]
        for term in terms where term.coefficient != 0 {
            guard let symbol = variableSymbols[term.variable] else {
                unseen[term.variable, default: 0] += term.coefficient
                continue
            }
            direct.insert(symbol, term.coefficient)
        }
        if unseen.values.contains(where: { $0 != 0 }) { return false }
        // A sum of determined symbols is determined; only otherwise is the expression
        // written out in non-basic symbols (cancellations can still determine it).
        if !direct.cells.isEmpty && direct.cells.allSatisfy({ isSymbolDetermined($0.symbol, blocking: &blocking) }) {
            return true
        }
        return isRowDetermined(expanded(direct, blocking: &blocking), blocking: &blocking)
    }

    /// `row` with its basic symbols written out in non-basic symbols.
    func expanded(_ row: Row, blocking: inout DegeneracyIndex) -> Row {
        var scale = 0.0
        return expandedRow(constant: row.constant, cells: row.cells, using: &blocking.expander, scale: &scale)
    }

    /// Whether the symbol alone is determined, memoised in `blocking`. A definition is
    /// determined when every symbol of its row is (it is their fixed combination), else
    /// decided on its expansion; definitions are settled in rank order, so the
    /// recursion is a loop.
    func isSymbolDetermined(_ symbol: Symbol, blocking: inout DegeneracyIndex) -> Bool {
        if blocking.determined.count < table.kinds.count {
            blocking.determined = Array(repeating: 0, count: table.kinds.count)
        }
        if blocking.determined[symbol.id] != 0 { return blocking.determined[symbol.id] == 1 }
        if table.isBasic[symbol.id] && isDefinition(symbol) {
            // Settle the definitions in rank order up to this one (each names only lower
            // ranks, which are then settled, and ordinary symbols, decided directly).
            while blocking.settledRanks <= table.definition[symbol.id].rank {
                settleDefinition(definitions.order[blocking.settledRanks], blocking: &blocking)
                blocking.settledRanks += 1
            }
            return blocking.determined[symbol.id] == 1
        }
        let answer = table.isBasic[symbol.id]
            ? isRowDetermined(table.rows[symbol.id], blocking: &blocking)
            : isNonBasicDetermined(symbol, blocking: &blocking)
        blocking.determined[symbol.id] = answer ? 1 : 2
        return answer
    }

    /// Decides the definition `symbol`, whose lower-ranked references are settled.
    private func settleDefinition(_ symbol: Symbol, blocking: inout DegeneracyIndex) {
        // `determined` is sized (the caller, `isSymbolDetermined`, did it); a memoised
        // answer is read here, without the call.
        var answer = true
        for cell in table.rows[symbol.id].cells {
            let known = blocking.determined[cell.symbol.id]
            if known == 1 { continue }
            if known == 2 || !isSymbolDetermined(cell.symbol, blocking: &blocking) {
                answer = false
                break
            }
        }
        if !answer {
            answer = isRowDetermined(expanded(table.rows[symbol.id], blocking: &blocking), blocking: &blocking)
        }
        blocking.determined[symbol.id] = answer ? 1 : 2
    }

    /// What a non-basic symbol's own moves on the optimal face say of a row holding it
    /// (``moveVerdict(of:blocking:)``).
    enum MoveVerdict {
        /// It cannot move: fixed, or every way it may move is blocked by a degenerate row
        /// that has no other movable symbol.
        case blocked
        /// Some way it may move is blocked by no degenerate row: the row is not determined.
        case free
        /// Not free, and some way it may move is blocked only by degenerate rows where
        /// other symbols might compensate: only the cone program can tell.
        case undecided
    }

    /// The freedom and degeneracy-flags test of one non-basic `symbol`, shared by
    /// ``isRowDetermined(_:blocking:)`` (for each cell) and ``isNonBasicDetermined(_:blocking:)``.
    @inline(__always)
    func moveVerdict(of symbol: Symbol, blocking: DegeneracyIndex) -> MoveVerdict {
        let freedom = freedom(of: symbol)
        if freedom == .fixed { return .blocked }
        let flags = blocking.flags(for: symbol, in: self)
        var verdict = MoveVerdict.blocked
        // Increasing: impossible (hard), undecided (soft), or free → not determined.
        if !flags.hardUp {
            if !flags.softUp { return .free }
            verdict = .undecided
        }
        if freedom == .both && !flags.hardDown {
            if !flags.softDown { return .free }
            verdict = .undecided
        }
        return verdict
    }

    /// Whether `row`, written in non-basic symbols, has the same value on the whole
    /// optimal face.
    func isRowDetermined(_ row: Row, blocking: inout DegeneracyIndex) -> Bool {
        var needsProgram = false
        for cell in row.cells {
            switch moveVerdict(of: cell.symbol, blocking: blocking) {
            case .blocked: continue
            case .free: return false
            case .undecided: needsProgram = true
            }
        }
        return needsProgram ? !coneChanges(row, work: &blocking.work) : true
    }

    /// ``isRowDetermined(_:blocking:)`` of the row `1·symbol`, for a non-basic `symbol`,
    /// without building that row unless the cone program needs it: the same test
    /// (``moveVerdict(of:blocking:)``), so the same answer and the same work charged
    /// (`AmbiguityTests.nonBasicPathMatchesTheRowPath`).
    func isNonBasicDetermined(_ symbol: Symbol, blocking: inout DegeneracyIndex) -> Bool {
        switch moveVerdict(of: symbol, blocking: blocking) {
        case .blocked: return true
        case .free: return false
        case .undecided:
            var row = Row()
            row.insert(symbol, 1)
            return !coneChanges(row, work: &blocking.work)
        }
    }

    /// Exact test over the cone of optimal-face directions: whether some direction
    /// changes `row` (the expression in non-basic symbols). Builds the closure of the
    /// movable symbols and degenerate rows around `row`'s symbols, then maximises and
    /// minimises `a · d` over the cone cut by the box `|dⱼ| ≤ 1`.
    func coneChanges(_ row: Row, work: inout Int) -> Bool {
        var index: [Symbol: Int] = [:]     // symbol → LP variable (lookups only)
        var order: [Symbol] = []           // symbols in discovery order
        var degenerateRows: [Symbol] = []
        var seenRows = Set<Symbol>()       // lookups only
        func include(_ symbol: Symbol) {
            if index[symbol] == nil && freedom(of: symbol) != .fixed {
                index[symbol] = order.count
                order.append(symbol)
            }
        }
        for cell in row.cells { include(cell.symbol) }
        var next = 0
        while next < order.count {
            let symbol = order[next]
            next += 1
            for basic in table.columns[symbol.id].sorted() where isDegenerate(basic) && !seenRows.contains(basic) {
                seenRows.insert(basic)
                degenerateRows.append(basic)
                for cell in table.rows[basic.id].cells { include(cell.symbol) }
            }
        }
        var scale = 0.0
        for cell in row.cells { scale = max(scale, abs(cell.coefficient)) }
        work &+= order.count
        for basic in degenerateRows { work &+= table.rows[basic.id].cells.count }
        for direction in [1.0, -1.0] {
            var program = Solver()
            defer { work &+= program.cellOperations }
            var objective = Expression()
            do {
                for (position, symbol) in order.enumerated() {
                    let d = Expression(Variable(id: position))
                    try program.addConstraint(Constraint(d - 1, .lessThanOrEqual))
                    let lower = freedom(of: symbol) == .both ? -1.0 : 0.0
                    try program.addConstraint(Constraint(d - lower, .greaterThanOrEqual))
                }
                for basic in degenerateRows {
                    var terms: [Term] = []
                    for cell in table.rows[basic.id].cells {
                        if let position = index[cell.symbol] { terms.append(Term(Variable(id: position), cell.coefficient)) }
                    }
                    try program.addConstraint(Constraint(Expression(terms: terms), .greaterThanOrEqual))
                }
                for cell in row.cells {
                    if let position = index[cell.symbol] {
                        objective.terms.append(Term(Variable(id: position), direction * cell.coefficient))
                    }
                }
                try program.addConstraint(Constraint(objective - 1, .greaterThanOrEqual, strength: Strength(1)))
            } catch {
                return true   // cannot decide: do not claim uniqueness
            }
            let achieved = objective.evaluate { program.value(of: $0) }
            if !Tolerance.isNearZero(achieved, scale: max(scale, 1)) && achieved > 0 { return true }
        }
        return false
    }
}

extension Solver {
    /// Why `expression` is not determined, when ``isDetermined(_:)`` says so: the
    /// optional constraints whose errors trade against each other as `expression`
    /// moves along the optimal face (a tie between constraints of the same priority),
    /// ascending, and whether some move changes no constraint's error at all (a
    /// variable or an inequality's slack that nothing pins: the layout is
    /// underconstrained there). Edit constraints are not listed.
    ///
    /// Method: write `expression` in non-basic symbols; each symbol with a nonzero
    /// coefficient that may move on the optimal face (``freedom(of:)``) is either an
    /// error symbol (its constraint takes part), or a variable or slack (free); and
    /// every basic error row holding such a symbol changes with it, so its constraint
    /// takes part too.
    /// - Complexity: O(length of the expanded row + the columns of its movable symbols),
    ///   plus O(symbols) once per call: use the array form for many expressions.
    public func ambiguityCauses(_ expression: Expression) -> (ties: [ConstraintHandle], isUnderconstrained: Bool) {
        ambiguityCauses([expression])[0]
    }

    /// ``ambiguityCauses(_:)`` for many expressions, sharing one scratch space, so each
    /// answer costs its own expansion and columns, not the size of the tableau. With
    /// `workLimit` (cell operations: rows expanded and column entries read) it stops
    /// early and answers the first expressions only.
    public func ambiguityCauses(_ expressions: [Expression], workLimit: Int = .max)
        -> [(ties: [ConstraintHandle], isUnderconstrained: Bool)] {
        causeAnswers(expressions, workLimit: workLimit)
    }

    /// ``ambiguityCauses(_:workLimit:)`` of each difference's
    /// ``VariableDifference/expression``, the same answers, without an ``Expression`` per
    /// query.
    public func ambiguityCauses(_ differences: [VariableDifference], workLimit: Int = .max)
        -> [(ties: [ConstraintHandle], isUnderconstrained: Bool)] {
        causeAnswers(differences, workLimit: workLimit)
    }

    /// The body of both `ambiguityCauses(_:workLimit:)`.
    private func causeAnswers<Query: AmbiguityQuery>(_ expressions: [Query], workLimit: Int)
        -> [(ties: [ConstraintHandle], isUnderconstrained: Bool)] {
        if bulkLoad.needsSolve {
            var solved = self
            try? solved.solve()
            return solved.causeAnswers(expressions, workLimit: workLimit)
        }
        var blocking = DegeneracyIndex(precomputed: false)
        var editHandles: [ConstraintHandle] = edits.values.map(\.handle)   // a handful; searched linearly
        editHandles.sort()
        var work = 0
        var answers: [(ties: [ConstraintHandle], isUnderconstrained: Bool)] = []
        for expression in expressions {
            if work + blocking.expander.work > workLimit { break }
            answers.append(causes(of: expression, blocking: &blocking, editHandles: editHandles, work: &work))
        }
        return answers
    }

    /// One answer of ``ambiguityCauses(_:workLimit:)``.
    private func causes<Query: AmbiguityQuery>(of expression: Query, blocking: inout DegeneracyIndex,
                                               editHandles: [ConstraintHandle],
                                               work: inout Int) -> (ties: [ConstraintHandle], isUnderconstrained: Bool) {
        var direct = Row(constant: expression.constant)
        for term in expression.queryTerms where term.coefficient != 0 {
            guard let symbol = variableSymbols[term.variable] else { return ([], true) }
            direct.insert(symbol, term.coefficient)
        }
        let row = expanded(direct, blocking: &blocking)
        var owners: [ConstraintHandle] = []
        var isUnderconstrained = false
        for cell in row.cells where freedom(of: cell.symbol) != .fixed {
            if table.kinds[cell.symbol.id] == .error {
                owners.append(table.owners[cell.symbol.id])
            } else {
                isUnderconstrained = true
            }
            work &+= table.columns[cell.symbol.id].count
            for basic in table.columns[cell.symbol.id] where table.kinds[basic.id] == .error && !isDefinition(basic) {
                owners.append(table.owners[basic.id])
            }
        }
        owners.sort()
        var ties: [ConstraintHandle] = []
        for (index, owner) in owners.enumerated() where owner.isValid && (index == 0 || owners[index - 1] != owner)
            && !editHandles.contains(owner) && records[owner.index] != nil {
            ties.append(owner)
        }
        return (ties, isUnderconstrained)
    }
}
