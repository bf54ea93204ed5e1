// The simplex (kiwi `optimize`, `dualOptimize`): pivots and substitution, the primal
// simplex over the lexicographic objective and the dual simplex after edits.
// Row forms follow kiwi (`solverimpl.h`): a basic row means `basic = constant + Σ cᵢ·sᵢ`.

extension Solver {
    // MARK: - Pivots

    /// Makes `symbol` basic with `row`, indexing the row's cells.
    @inline(__always)
    mutating func install(_ symbol: Symbol, _ row: Row) {
        // Each cell goes into its column's hash set, counted as four cell operations: a
        // cache miss when the columns are large.
        cellOperations &+= 4 &* row.cells.count
        for cell in row.cells { table.columns[cell.symbol.id].insert(symbol) }
        table.rows[symbol.id] = row
        table.isBasic[symbol.id] = true
    }

    /// Takes the row of basic `symbol` out of the tableau and returns it.
    @inline(__always)
    mutating func uninstall(_ symbol: Symbol) -> Row {
        let row = table.rows[symbol.id]
        for cell in row.cells { table.columns[cell.symbol.id].remove(symbol) }
        table.rows[symbol.id] = Row()
        table.isBasic[symbol.id] = false
        return row
    }

    /// Exchanges basic `leaving` for non-basic `entering`.
    ///
    /// Before: `leaving = a·entering + …`. After: `entering = (1/a)·leaving − …` is
    /// basic and substituted into every row, objective level and the artificial row.
    /// - Complexity: O(Σ length of the rows holding `entering`).
    mutating func pivot(entering: Symbol, leaving: Symbol) {
        pivotCount &+= 1
        if pivotTrail != nil {
            pivotTrail?.append(entering.id)
            pivotTrail?.append(leaving.id)
        }
        definitions.areValuesStale = true
        if journal.isActive { journal.note(pivotOf: entering, leaving: leaving, in: table) }
        var row = uninstall(leaving)
        row.solve(for: entering, replacing: leaving)
        substitute(entering, with: row)
        install(entering, row)
    }

    /// Replaces non-basic `symbol` by `row` everywhere (kiwi `substitute`), visiting only
    /// the rows the column index lists. Restricted rows that go negative are queued
    /// for the dual simplex.
    mutating func substitute(_ symbol: Symbol, with row: Row) {
        let holders = table.columns[symbol.id]
        table.columns[symbol.id] = SymbolSet()
        // Scratch arrays kept by the solver between calls: a substitution allocates
        // nothing once they have grown.
        var added: [Symbol] = []
        var removed: [Symbol] = []
        var buffer: [Cell] = []   // recycled: each merge writes here, then swaps with the row
        swap(&added, &buffers.substitution.added)
        swap(&removed, &buffers.substitution.removed)
        swap(&buffer, &buffers.substitution.buffer)
        defer {
            swap(&added, &buffers.substitution.added)
            swap(&removed, &buffers.substitution.removed)
            swap(&buffer, &buffers.substitution.buffer)
        }
        for basic in holders {
            if isDefinition(basic) {
                // Definitions keep naming `symbol`, now basic (evaluated on read).
                table.columns[symbol.id].insert(basic)
                continue
            }
            let index = table.rows[basic.id].position(of: symbol)
            guard index < table.rows[basic.id].cells.count, table.rows[basic.id].cells[index].symbol == symbol else { continue }
            let factor = table.rows[basic.id].cells[index].coefficient
            table.rows[basic.id].constant += factor * row.constant
            added.removeAllKeepingBuffer()
            removed.removeAllKeepingBuffer()
            if row.cells.count <= Row.inPlaceLimit && table.rows[basic.id].cells.count >= 4 &* row.cells.count {
                // A short row into a long one: edited in place (see `addInPlace`).
                table.rows[basic.id].addInPlace(removingAt: index, row.cells, times: factor, added: &added, removed: &removed)
            } else {
                Row.merge(table.rows[basic.id].cells, skipping: symbol, row.cells, times: factor,
                          into: &buffer, added: &added, removed: &removed, track: true)
                swap(&buffer, &table.rows[basic.id].cells)
            }
            // The merge, plus what a holder costs beyond it: reaching its row (a cache
            // miss in a large tableau) and a column-index update per cell gained or
            // lost. The same count whichever way the row was written (`WorkLimitTests`).
            cellOperations &+= table.rows[basic.id].cells.count &+ row.cells.count &+ 8 &+ 4 &* (added.count &+ removed.count)
            for s in added { table.columns[s.id].insert(basic) }
            for s in removed { table.columns[s.id].remove(basic) }
            if table.kinds[basic.id] != .external && table.rows[basic.id].constant < 0 { infeasible.push(basic) }
        }
        // Each objective level holding the symbol is a row too: with many priority
        // levels they can be most of the work.
        let levelsHolding = objective.substitute(symbol, with: row)
        cellOperations &+= levelsHolding &* (row.cells.count &+ 1)
        if artificial != nil { artificial?.substitute(symbol, with: row) }
    }

    /// Upper bound on pivots per optimisation: a guard against cycling, which would
    /// otherwise hang on adversarial input.
    var pivotLimit: Int { 10_000 + 50 * table.kinds.count }

    // MARK: - Primal simplex

    /// Pivots until no symbol has a lexicographically negative reduced cost (kiwi
    /// `optimize`, with the paper's symbolic weights).
    /// - Throws: ``SolverError/internalError(_:)`` if the objective is unbounded or the
    ///   pivot limit is hit.
    mutating func optimizeObjective() throws(SolverError) {
        var count = 0
        while let entering = lexicographicEnteringSymbol() {
            guard let leaving = leavingRow(for: entering) else { throw .internalError("objective is unbounded") }
            pivot(entering: entering, leaving: leaving)
            count += 1
            if count > pivotLimit { throw .internalError("optimize did not terminate") }
            if cellOperations > workLimit { throw .workLimitExceeded }
        }
        isOptimal = true
    }

    /// Phase one: minimises the artificial row.
    mutating func optimizeArtificial() throws(SolverError) {
        var count = 0
        while let objective = artificial,
              let entering = objective.cells.first(where: { $0.coefficient < 0 && table.kinds[$0.symbol.id] != .dummy })?.symbol {
            guard let leaving = leavingRow(for: entering) else { throw .internalError("objective is unbounded") }
            pivot(entering: entering, leaving: leaving)
            count += 1
            if count > pivotLimit { throw .internalError("optimize did not terminate") }
            if cellOperations > workLimit { throw .workLimitExceeded }
        }
    }

    /// The entering symbol: a non-dummy symbol whose reduced-cost vector (its
    /// coefficients in the levels, strongest first) is lexicographically negative,
    /// i.e. entering it lowers the first level it changes. Among those: the strongest
    /// leading level, then the most negative coefficient, then the lowest id. `nil`
    /// at the optimum.
    mutating func lexicographicEnteringSymbol() -> Symbol? {
        if !objective.changed.isEmpty {
            // Swapped out and back, so the log's buffer is reused, not copied on write.
            var changed: [Symbol] = []
            swap(&changed, &objective.changed)
            for symbol in changed {
                if isLexicographicallyNegative(symbol) {
                    lexicographicNegatives.insert(symbol)
                } else {
                    lexicographicNegatives.remove(symbol)
                }
            }
            changed.removeAllKeepingBuffer()
            swap(&changed, &objective.changed)
        }
        // Strongest leading level first, then the most negative coefficient there
        // (Dantzig's rule), then the lowest id.
        var best = Symbol.invalid
        var bestRank = Int.max
        var bestCoefficient = 0.0
        for symbol in lexicographicNegatives {
            guard let (rank, coefficient) = objective.leading(symbol) else { continue }
            if rank < bestRank || (rank == bestRank && (coefficient < bestCoefficient
                || (coefficient == bestCoefficient && symbol < best))) {
                best = symbol
                bestRank = rank
                bestCoefficient = coefficient
            }
        }
        return best.isValid ? best : nil
    }

    /// Whether the first nonzero entry of `symbol`'s reduced-cost vector is negative
    /// (dummies never enter).
    func isLexicographicallyNegative(_ symbol: Symbol) -> Bool {
        guard table.kinds[symbol.id] != .dummy, let (_, coefficient) = objective.leading(symbol) else { return false }
        return coefficient < 0
    }

    /// The leaving row for `entering` (kiwi `getLeavingRow`): among restricted rows
    /// where `entering` has a negative coefficient, the least ratio
    /// `-constant/coefficient`, ties to the lowest id.
    func leavingRow(for entering: Symbol) -> Symbol? {
        var best = Symbol.invalid
        var bestRatio = Double.infinity
        for basic in table.columns[entering.id] where table.kinds[basic.id] != .external {
            let coefficient = table.rows[basic.id].coefficient(for: entering)
            if coefficient < 0 {
                let ratio = -table.rows[basic.id].constant / coefficient
                if ratio < bestRatio || (ratio == bestRatio && basic < best) {
                    bestRatio = ratio
                    best = basic
                }
            }
        }
        return best.isValid ? best : nil
    }

    // MARK: - Dual simplex

    /// Restores feasibility after edit constants changed (kiwi `dualOptimize`):
    /// repeatedly takes the lowest-id restricted row with a negative constant and
    /// pivots in the symbol with the lexicographically least ratio
    /// `reducedCost / coefficient` over its positive coefficients.
    mutating func dualOptimize() throws(SolverError) {
        var count = 0
        while let leaving = infeasible.popMin() {
            guard table.isBasic[leaving.id], table.kinds[leaving.id] != .external, table.rows[leaving.id].constant < 0 else { continue }
            // The row read in place (passing `table.rows[leaving.id]` to a method of `self`
            // made the optimiser copy the whole solver, a retain and release per array).
            let entering = table.rows.withUnsafeBufferPointer { rows in dualEnteringSymbol(rows[leaving.id]) }
            guard let entering else {
                infeasible.removeAll()
                throw .internalError("dual optimize failed")
            }
            pivot(entering: entering, leaving: leaving)
            count += 1
            if count > pivotLimit {
                infeasible.removeAll()
                throw .internalError("dual optimize did not terminate")
            }
            if cellOperations > workLimit {
                infeasible.removeAll()
                throw .workLimitExceeded
            }
        }
        isOptimal = true
    }

    /// The dual entering symbol of `row`, or nil: the least lexicographic ratio
    /// `reducedCost / coefficient` over positive coefficients; ties go to the lowest
    /// id, or with `preferSparse` to the symbol in fewest rows (cheapest substitution:
    /// a fresh error symbol rather than one shared by a whole chain), then lowest id.
    func dualEnteringSymbol(_ row: Row, preferSparse: Bool = false) -> Symbol? {
        var best = Symbol.invalid
        var bestCoefficient = 0.0
        for cell in row.cells where cell.coefficient > 0 && table.kinds[cell.symbol.id] != .dummy {
            if !best.isValid || dualRatio(cell.symbol, cell.coefficient, isLessThan: best, bestCoefficient) {
                best = cell.symbol
                bestCoefficient = cell.coefficient
            } else if preferSparse && table.columns[cell.symbol.id].count < table.columns[best.id].count
                        && !dualRatio(best, bestCoefficient, isLessThan: cell.symbol, cell.coefficient) {
                best = cell.symbol
                bestCoefficient = cell.coefficient
            }
        }
        return best.isValid ? best : nil
    }

    /// Lexicographic comparison of the reduced-cost ratio vectors of two symbols
    /// (strongest level first; levels where both are 0 are equal, and so are ratios
    /// within ``Tolerance`` of each other).
    ///
    /// Ratios that tie in exact arithmetic differ in the last bit in floating point
    /// (0.387/0.290 against 0.258/0.194, both 4/3): taken as decided at their level,
    /// the weaker levels would never be compared, the symbol with the larger weak ratio
    /// could enter, and the other's weak reduced cost go negative, leaving suggested
    /// values that are not optimal (`DualRatioTieTests.suggestionsAfterATieReachTheOptimum`).
    func dualRatio(_ a: Symbol, _ ca: Double, isLessThan b: Symbol, _ cb: Double) -> Bool {
        var decidingRank = Int.max
        var isLess = false
        func consider(_ level: Int) {
            let rank = objective.rank(of: level)
            guard rank < decidingRank else { return }
            let ra = objective.coefficient(of: a, level: level) / ca
            let rb = objective.coefficient(of: b, level: level) / cb
            if !Tolerance.isNearZero(ra - rb, scale: max(abs(ra), abs(rb))) {
                decidingRank = rank
                isLess = ra < rb
            }
        }
        objective.forEachLevel(of: a, consider)
        objective.forEachLevel(of: b, consider)
        return isLess
    }
}
