// The tableau operations: row creation, pivots, primal and dual optimisation.
// Row forms follow kiwi (`solverimpl.h`): a basic row means `basic = constant + Σ cᵢ·sᵢ`,
// a row being built means `0 = constant + Σ cᵢ·sᵢ`.

extension Solver {
    // MARK: - Symbols

    /// Appends a fresh symbol of `kind` (the next id) and returns it.
    @inline(__always)
    mutating func newSymbol(_ kind: SymbolKind) -> Symbol {
        let symbol = Symbol(kinds.count)
        kinds.append(kind)
        rows.append(Row())
        isBasic.append(false)
        columns.append(SymbolSet())
        owners.append(-1)
        definitions.rank.append(-1)
        definitions.isAlias.append(false)
        definitions.values.append(0)
        _ = links.add()
        isPinned.append(false)
        deferrals.direction.append(0)
        deferrals.pushes.append(0)
        return symbol
    }

    /// Records in ``links`` that `symbol`, made basic with `row`, is tied to the row's
    /// symbols, or in ``isPinned`` that it is a constant (a variable a required equality
    /// pins: such a row is a definition, and stays constant until a rebuild), which ties
    /// nothing. Only new rows can tie anything: a pivot's row holds symbols already tied
    /// to its leaving symbol, and a substitution gives a row only symbols tied to one it
    /// held.
    @inline(__always)
    mutating func link(_ symbol: Symbol, _ row: Row) {
        if row.cells.isEmpty {
            isPinned[symbol.id] = true
            return
        }
        for cell in row.cells where !isPinned[cell.symbol.id] { links.union(symbol.id, cell.symbol.id) }
    }

    /// The external symbol of `variable`, created on first use.
    mutating func symbol(for variable: Variable) -> Symbol {
        if let symbol = variableSymbols[variable] { return symbol }
        let symbol = newSymbol(.external)
        variableSymbols[variable] = symbol
        return symbol
    }

    // MARK: - Adding

    /// `addConstraint` that, on an unsatisfiable required constraint, stores in
    /// `certificate` the symbols of the failed row (the nonzero coefficients of the
    /// infeasibility proof: each marker belongs to exactly one constraint, so these are
    /// the constraints the proof combines).
    mutating func addConstraint(_ constraint: Constraint, certificate: inout [Symbol]?,
                                isMergeable: Bool = true) throws(SolverError) -> ConstraintHandle {
        guard constraint.expression.isFinite, constraint.strength.isValid else { throw .nonFiniteInput }
        // A constraint's fixed cost (its record, merge key, markers, objective entries)
        // in cell operations, so that many constraints merged into a few rows (wishes on
        // one variable) still count toward ``workLimit``.
        cellOperations &+= Self.constraintOverhead
        let handle = ConstraintHandle(rawValue: records.count)
        if !autoSolve && !constraint.strength.isRequired {
            // An optional constraint can never fail: queue it for solve(), after the
            // required ones, so the bulk load does not re-pivot its error rows.
            records.append(ConstraintRecord(constraint: constraint, isMergeable: isMergeable))
            tags.append(Tag(marker: .invalid, other: .invalid))
            bulkLoad.pending.append(handle.rawValue)
            bulkLoad.needsSolve = true
            return handle
        }
        if try deferIfImpliedFree(constraint, handle: handle.rawValue, isMergeable: isMergeable) { return handle }
        try installDeferred(namedBy: constraint.expression)
        let (tag, isMerged) = try insertOrMerge(constraint, handle: handle.rawValue, isMergeable: isMergeable,
                                                certificate: &certificate)
        records.append(ConstraintRecord(constraint: constraint, isMergeable: isMergeable))
        tags.append(tag)
        own(tag, isMerged: isMerged, by: handle.rawValue)
        if autoSolve {
            try optimizeObjective()
        } else {
            bulkLoad.needsSolve = true
        }
        return handle
    }

    /// Records that the symbols of `tag` belong to the constraint `handle` (``owners``),
    /// unless it was merged into an earlier one, which owns them.
    @inline(__always)
    mutating func own(_ tag: Tag, isMerged: Bool, by handle: Int) {
        guard !isMerged else { return }
        if tag.marker.isValid { owners[tag.marker.id] = handle }
        if tag.other.isValid { owners[tag.other.id] = handle }
    }

    /// What adding one constraint counts in ``cellOperations`` besides its cells.
    static var constraintOverhead: Int { 100 }

    /// Puts the row of `constraint` into the tableau, feasibly, without optimising
    /// (kiwi `addConstraint` up to `optimize`). Returns the constraint's tag.
    /// - Throws: ``SolverError/unsatisfiableConstraint`` with the tableau unchanged.
    /// `direct`, if given, is the constraint's expression as a row over symbols (some
    /// basic symbols may be replaced by the rows they alias), saving ``expressionRow(_:direct:)``
    /// from building it again.
    /// `expression`, if given, is ``expressionRow(_:direct:)``'s result for it.
    mutating func insertRow(_ constraint: Constraint, certificate: inout [Symbol]?, direct: Row? = nil,
                            expression: ExpressionRow? = nil) throws(SolverError) -> Tag {
        var tag = Tag(marker: .invalid, other: .invalid)
        var prepared = expression ?? expressionRow(constraint, direct: direct)
        if cellOperations > workLimit { throw .workLimitExceeded }
        let scale = prepared.scale
        let definition = prepared.definition
        // Moved out, so a row nothing else holds gets its markers without a copy.
        var row = Row()
        swap(&row, &prepared.row)
        addMarkers(constraint, to: &row, tag: &tag)
        definitions.areValuesStale = true
        if definition.isValid {
            // A free external symbol nothing holds: keep the row as written.
            row.solve(for: definition)
            installDefinition(definition, row)
            isOptimal = false
            return tag
        }
        let constantScale = max(1, scale)

        var subject = chooseSubject(row, tag: tag)
        let wasOptimal = isOptimal
        isOptimal = false
        let isDegenerate = Tolerance.isNearZero(row.constant, scale: constantScale)
        let hasRestrictedSubjectOnly = (subject.isValid && kinds[subject.id] != .external) || (!subject.isValid && !row.cells.isEmpty)
        if wasOptimal && isDegenerate && hasRestrictedSubjectOnly {
            // A degenerate row (value 0 now) with no external subject: any restricted
            // symbol keeps it feasible, so take the one the dual ratio test picks, which
            // keeps the reduced costs lexicographically non-negative: no degenerate
            // re-pivoting afterwards. (Without an optimal basis to preserve, the subject
            // rule of `chooseSubject` is cheapest.)
            row.constant = 0
            isOptimal = true
            if let dual = dualEnteringSymbol(row, preferSparse: true) {
                subject = dual
            } else {
                var negated = row
                negated.reverseSign()
                if let dual = dualEnteringSymbol(negated, preferSparse: true) { subject = dual }
            }
        }
        if !subject.isValid && isDegenerate && !wasOptimal {
            // A degenerate row (value 0) without an own marker to solve for: any
            // restricted symbol keeps it feasible. Take the one the fewest rows hold, then
            // the largest |coefficient|, then the highest id (Markowitz, as in
            // chooseSubject) instead of the artificial phase, whose entering symbol is the
            // lowest id — often a parameter every earlier row shares.
            subject = sparsestSymbol(in: row) { $0.isRestricted }
            if subject.isValid { row.constant = 0 }
        }
        if !subject.isValid && row.cells.allSatisfy({ kinds[$0.symbol.id] == .dummy }) {
            if !Tolerance.isNearZero(row.constant, scale: constantScale) {
                certificate = row.cells.map(\.symbol).filter { $0 != tag.marker }
                throw .unsatisfiableConstraint
            }
            subject = tag.marker
            tag.isRedundant = true
        }
        if !subject.isValid && row.cells.isEmpty {
            // A redundant required equality without a marker: nothing to install.
        } else if !subject.isValid {
            let added = try addWithArtificialVariable(row, scale: constantScale, certificate: &certificate)
            if !added {
                try optimizeObjective()
                throw .unsatisfiableConstraint
            }
        } else if kinds[subject.id] == .external && constraint.strength.isRequired && !columns[subject.id].isEmpty
                    && isOutsideObjective(subject) && columns[subject.id].allSatisfy({ isDefinition($0) }) {
            // A required row whose external subject only definitions hold: it becomes a
            // definition too, ranked just below the lowest of them. The row is in non-basic
            // symbols (expanded), so any rank keeps "a definition names lower ranks only",
            // and no ordinary row or objective level names the subject. Kept ordinary, it
            // would unroll a chain of positions into every later row
            // (`DefinitionRowTests.requiredRowOfASymbolOnlyDefinitionsHoldIsADefinition`).
            row.solve(for: subject)
            var position = Int.max
            for holder in columns[subject.id] { position = min(position, definitions.rank[holder.id]) }
            installDefinition(subject, row)
            definitions.order.removeLast()
            definitions.order.insert(subject, at: position)
            for rank in position..<definitions.order.count { definitions.rank[definitions.order[rank].id] = rank }
            cellOperations &+= definitions.order.count &- position   // the ranks renumbered
            if cellOperations > workLimit { throw .workLimitExceeded }
        } else {
            row.solve(for: subject)
            substitute(subject, with: row)
            link(subject, row)
            install(subject, row)
            if cellOperations > workLimit { throw .workLimitExceeded }
        }
        return tag
    }

    /// The row of `constraint`'s expression with every basic symbol substituted (the
    /// first half of kiwi `createRow`; ``addMarkers(_:to:tag:)`` is the second) and the
    /// magnitude of the constants combined into it. When the expression has an external
    /// symbol that nothing holds, the row is left as written (basic symbols not
    /// substituted) and `definition` is that symbol: the caller installs it as a
    /// definition row (`Solver+Definitions.swift`). `direct`, if given, is the
    /// expression already as a row over symbols.
    mutating func expressionRow(_ constraint: Constraint, direct given: Row?) -> ExpressionRow {
        var scale = 0.0
        var definition = Symbol.invalid
        let expression = constraint.expression
        let direct: Row
        if let given {
            direct = given
        } else {
            var cells: [Cell] = []
            cells.reserveCapacity(expression.terms.count)
            for term in expression.terms where term.coefficient != 0 {
                cells.append(Cell(symbol: symbol(for: term.variable), coefficient: term.coefficient))
            }
            direct = Row(unsortedCells: consume cells, constant: expression.constant)
        }
        var namesDefinition = false
        for cell in direct.cells where isDefinition(cell.symbol) { namesDefinition = true }
        definition = freshSubject(direct)
        var row: Row
        if definition.isValid {
            row = direct
            scale = abs(direct.constant)
        } else if namesDefinition {
            // Definitions need the ordered expansion (latest first, so chains cancel);
            // rows naming only ordinary basic symbols are merged directly below, which
            // costs less than the expander.
            var scratch = Expander()
            swap(&scratch, &buffers.expander)
            // Room for the constraint's markers (`addMarkers`), saving a copy.
            row = expandedRow(constant: direct.constant, cells: direct.cells, using: &scratch, scale: &scale, spare: 2)
            cellOperations &+= scratch.work   // expansions count toward the work limit too
            scratch.work = 0
            swap(&scratch, &buffers.expander)
        } else {
            row = Row(constant: direct.constant)
            scale = abs(direct.constant)
            for cell in direct.cells {
                if isBasic[cell.symbol.id] {
                    scale += abs(cell.coefficient * rows[cell.symbol.id].constant)
                    cellOperations &+= row.cells.count &+ rows[cell.symbol.id].cells.count
                    row.add(rows[cell.symbol.id], times: cell.coefficient)
                } else {
                    row.insert(cell.symbol, cell.coefficient)
                }
            }
        }
        return ExpressionRow(row: row, scale: scale, definition: definition)
    }

    /// The second half of kiwi `createRow`: adds the
    /// constraint's slack, error or dummy symbols to `row` (errors enter their level's
    /// objective row with weight 1) and normalises the sign so the constant is ≥ 0.
    mutating func addMarkers(_ constraint: Constraint, to row: inout Row, tag: inout Tag) {
        let strength = constraint.strength
        let markerCount = constraint.relation == .equal ? (strength.isRequired ? (tracksMarkers ? 1 : 0) : 2)
            : (strength.isRequired ? 1 : 2)
        // Room for the markers at once: the row usually shares its cells with a merge key,
        // and inserting them one by one copied it and then grew the copy.
        if markerCount > 0 { row.cells.reserveCapacity(row.cells.count + markerCount) }
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let sign = constraint.relation == .lessThanOrEqual ? 1.0 : -1.0
            let slack = newSymbol(.slack)
            tag.marker = slack
            row.insert(slack, sign)
            if !strength.isRequired {
                let error = newSymbol(.error)
                tag.other = error
                row.insert(error, -sign)
                objective.add(error, level: objective.level(for: strength.value), 1)
            }
        case .equal:
            if strength.isRequired {
                if tracksMarkers {
                    let dummy = newSymbol(.dummy)
                    tag.marker = dummy
                    row.insert(dummy, 1)
                }
            } else {
                let plus = newSymbol(.error)
                let minus = newSymbol(.error)
                tag.marker = plus
                tag.other = minus
                row.insert(plus, -1)
                row.insert(minus, 1)
                let level = objective.level(for: strength.value)
                objective.add(plus, level: level, 1)
                objective.add(minus, level: level, 1)
            }
        }
        if row.constant < 0 { row.reverseSign() }
    }

    /// The subject to solve a new row for, or ``Symbol/invalid`` (kiwi `chooseSubject`):
    /// an external symbol; else the constraint's own slack/error if its coefficient is
    /// negative (so the basic value stays ≥ 0).
    func chooseSubject(_ row: Row, tag: Tag) -> Symbol {
        // Among the external symbols: the one held by the fewest rows, then the largest
        // |coefficient|, then the highest id (the symbol seen last). Its substitution
        // touches only those rows, and a symbol no row holds yet costs nothing (Markowitz's
        // fill-in rule, as sparse LU factorisations use it); the largest coefficient is
        // partial pivoting's rule for accuracy (never divide by 1e-9 when 1 is there).
        // A chain `x[i] == x[i-1] + w[i-1]` then makes each new width basic and stays a
        // set of two-term rows, instead of each position's row accumulating every earlier
        // width (which made a 1,000-view row of labels cost O(n³)).
        let best = sparsestSymbol(in: row) { $0 == .external }
        if best.isValid { return best }
        if tag.marker.isValid && kinds[tag.marker.id].isRestricted && row.coefficient(for: tag.marker) < 0 {
            return tag.marker
        }
        if tag.other.isValid && kinds[tag.other.id].isRestricted && row.coefficient(for: tag.other) < 0 {
            return tag.other
        }
        return .invalid
    }

    /// The symbol of `row` whose kind passes `isCandidate` that the fewest rows hold,
    /// then with the largest |coefficient|, then the highest id; invalid if none (Markowitz's
    /// rule with partial pivoting, see ``chooseSubject(_:tag:)``).
    @inline(__always)
    func sparsestSymbol(in row: Row, where isCandidate: (SymbolKind) -> Bool) -> Symbol {
        var best = Symbol.invalid
        var bestCount = Int.max
        var bestMagnitude = 0.0
        for cell in row.cells where isCandidate(kinds[cell.symbol.id]) {
            let count = columns[cell.symbol.id].count
            let magnitude = abs(cell.coefficient)
            if count < bestCount || (count == bestCount && magnitude >= bestMagnitude) {
                best = cell.symbol
                bestCount = count
                bestMagnitude = magnitude
            }
        }
        return best
    }

    /// Adds `row` through an artificial variable (phase one; kiwi
    /// `addWithArtificialVariable`). Returns whether the row is satisfiable.
    ///
    /// On failure the artificial row is still basic and the new symbols occur only in
    /// it (an entering new symbol could only leave through the artificial row, which
    /// would make it 0), so dropping that row restores the previous constraint set.
    mutating func addWithArtificialVariable(_ row: Row, scale: Double, certificate: inout [Symbol]?) throws(SolverError) -> Bool {
        let art = newSymbol(.slack)
        link(art, row)
        install(art, row)
        artificial = row
        try optimizeArtificial()
        let success = Tolerance.isNearZero(artificial?.constant ?? 0, scale: scale)
        if !success { certificate = artificial?.cells.map(\.symbol) ?? [] }
        artificial = nil
        if isBasic[art.id] {
            var artRow = uninstall(art)
            if !success { return false }
            if !artRow.cells.isEmpty {
                guard let entering = artRow.cells.first(where: { kinds[$0.symbol.id].isRestricted })?.symbol else {
                    return false
                }
                artRow.solve(for: entering, replacing: art)
                substitute(entering, with: artRow)
                install(entering, artRow)
            }
        }
        let holders = columns[art.id]
        columns[art.id] = SymbolSet()
        for basic in holders { rows[basic.id].remove(art) }
        objective.remove(art)
        return success
    }

    // MARK: - Removing

    /// Removes a constraint record and its rows (kiwi `removeConstraint`).
    mutating func removeRecord(_ index: Int, _ record: ConstraintRecord) throws(SolverError) {
        records[index] = nil
        let tag = tags[index]
        if !tag.marker.isValid || !definitions.order.isEmpty || merging.mergedCount > 0 {
            // A required equality without a marker, definition rows (which are never
            // substituted into, so a marker cannot be pivoted out of them) or merged
            // constraints (which share errors): rebuild from the remaining records.
            try rebuild()
            return
        }
        if !record.constraint.strength.isRequired {
            let level = objective.level(for: record.constraint.strength.value)
            for symbol in [tag.marker, tag.other] where symbol.isValid && kinds[symbol.id] == .error {
                if isBasic[symbol.id] {
                    objective.add(rows[symbol.id], times: -1, level: level)
                } else {
                    objective.add(symbol, level: level, -1)
                }
            }
        }
        if !isBasic[tag.marker.id] {
            guard let leaving = markerLeavingRow(tag.marker) else {
                throw .internalError("failed to find leaving row")
            }
            pivot(entering: tag.marker, leaving: leaving)
        }
        _ = uninstall(tag.marker)
        try optimizeObjective()
    }

    /// Rebuilds the tableau from the present records, in handle order (handles are
    /// kept), then re-applies the edit variables' suggested values.
    /// - Complexity: the cost of adding every present constraint again.
    mutating func rebuild() throws(SolverError) {
        var fresh = Solver()
        fresh.tracksMarkers = tracksMarkers
        fresh.autoSolve = false
        for record in records {
            guard let record else {
                fresh.records.append(nil)
                fresh.tags.append(Tag(marker: .invalid, other: .invalid))
                continue
            }
            do {
                var certificate: [Symbol]? = nil
                _ = try fresh.addConstraint(record.constraint, certificate: &certificate, isMergeable: record.isMergeable)
            } catch {
                throw .internalError("rebuild failed: \(error)")
            }
        }
        try fresh.solvePending()
        fresh.autoSolve = autoSolve
        let ordered = edits.sorted { $0.value.handle < $1.value.handle }
        for (variable, info) in ordered {
            guard let record = fresh.records[info.handle.rawValue] else { throw .internalError("edit lost in rebuild") }
            // The record holds `v - initial`; re-apply the latest suggestion on top.
            let initial = -record.constraint.expression.constant
            fresh.edits[variable] = EditInfo(handle: info.handle, tag: fresh.tags[info.handle.rawValue], constant: initial)
        }
        for (variable, info) in ordered {
            guard let initial = fresh.edits[variable]?.constant, info.constant != initial else { continue }
            try fresh.suggestValue(info.constant, for: variable)
        }
        self = fresh
    }

    /// The row to pivot a non-basic marker into the basis for removal (kiwi
    /// `getMarkerLeavingRow`): a restricted row with negative coefficient and least
    /// ratio, else one with positive coefficient and least ratio, else an external row;
    /// ties to the lowest id.
    func markerLeavingRow(_ marker: Symbol) -> Symbol? {
        var ratio1 = Double.infinity, ratio2 = Double.infinity
        var first = Symbol.invalid, second = Symbol.invalid, third = Symbol.invalid
        for basic in columns[marker.id] {
            let coefficient = rows[basic.id].coefficient(for: marker)
            if coefficient == 0 { continue }
            if kinds[basic.id] == .external {
                if !third.isValid || basic < third { third = basic }
            } else if coefficient < 0 {
                let ratio = -rows[basic.id].constant / coefficient
                if ratio < ratio1 || (ratio == ratio1 && basic < first) { ratio1 = ratio; first = basic }
            } else {
                let ratio = rows[basic.id].constant / coefficient
                if ratio < ratio2 || (ratio == ratio2 && basic < second) { ratio2 = ratio; second = basic }
            }
        }
        if first.isValid { return first }
        if second.isValid { return second }
        if third.isValid { return third }
        return nil
    }

    // MARK: - Pivots

    /// Makes `symbol` basic with `row`, indexing the row's cells.
    @inline(__always)
    mutating func install(_ symbol: Symbol, _ row: Row) {
        // Each cell goes into its column's hash set, counted as four cell operations: a
        // cache miss when the columns are large.
        cellOperations &+= 4 &* row.cells.count
        for cell in row.cells { columns[cell.symbol.id].insert(symbol) }
        rows[symbol.id] = row
        isBasic[symbol.id] = true
    }

    /// Takes the row of basic `symbol` out of the tableau and returns it.
    @inline(__always)
    mutating func uninstall(_ symbol: Symbol) -> Row {
        let row = rows[symbol.id]
        for cell in row.cells { columns[cell.symbol.id].remove(symbol) }
        rows[symbol.id] = Row()
        isBasic[symbol.id] = false
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
        var row = uninstall(leaving)
        row.solve(for: entering, replacing: leaving)
        substitute(entering, with: row)
        install(entering, row)
    }

    /// Replaces non-basic `symbol` by `row` everywhere (kiwi `substitute`), visiting only
    /// the rows the column index lists. Restricted rows that go negative are queued
    /// for the dual simplex.
    mutating func substitute(_ symbol: Symbol, with row: Row) {
        let holders = columns[symbol.id]
        columns[symbol.id] = SymbolSet()
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
                columns[symbol.id].insert(basic)
                continue
            }
            let index = rows[basic.id].position(of: symbol)
            guard index < rows[basic.id].cells.count, rows[basic.id].cells[index].symbol == symbol else { continue }
            let factor = rows[basic.id].cells[index].coefficient
            rows[basic.id].constant += factor * row.constant
            added.removeAll(keepingCapacity: true)
            removed.removeAll(keepingCapacity: true)
            if row.cells.count <= Row.inPlaceLimit && rows[basic.id].cells.count >= 4 &* row.cells.count {
                // A short row into a long one: edited in place (see `addInPlace`).
                rows[basic.id].addInPlace(removingAt: index, row.cells, times: factor, added: &added, removed: &removed)
            } else {
                Row.merge(rows[basic.id].cells, skipping: symbol, row.cells, times: factor,
                          into: &buffer, added: &added, removed: &removed, track: true)
                swap(&buffer, &rows[basic.id].cells)
            }
            // The merge, plus what a holder costs beyond it: reaching its row (a cache
            // miss in a large tableau) and a column-index update per cell gained or
            // lost. The same count whichever way the row was written (`WorkLimitTests`).
            cellOperations &+= rows[basic.id].cells.count &+ row.cells.count &+ 8 &+ 4 &* (added.count &+ removed.count)
            for s in added { columns[s.id].insert(basic) }
            for s in removed { columns[s.id].remove(basic) }
            if kinds[basic.id] != .external && rows[basic.id].constant < 0 { infeasible.push(basic) }
        }
        // Each objective level holding the symbol is a row too: with many priority
        // levels they can be most of the work.
        let levelsHolding = objective.substitute(symbol, with: row)
        cellOperations &+= levelsHolding &* (row.cells.count &+ 1)
        if artificial != nil { artificial?.substitute(symbol, with: row) }
    }

    /// Upper bound on pivots per optimisation: a guard against cycling, which would
    /// otherwise hang on adversarial input.
    var pivotLimit: Int { 10_000 + 50 * kinds.count }

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
              let entering = objective.cells.first(where: { $0.coefficient < 0 && kinds[$0.symbol.id] != .dummy })?.symbol {
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
            changed.removeAll(keepingCapacity: true)
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
        guard kinds[symbol.id] != .dummy, let (_, coefficient) = objective.leading(symbol) else { return false }
        return coefficient < 0
    }

    /// The leaving row for `entering` (kiwi `getLeavingRow`): among restricted rows
    /// where `entering` has a negative coefficient, the least ratio
    /// `-constant/coefficient`, ties to the lowest id.
    func leavingRow(for entering: Symbol) -> Symbol? {
        var best = Symbol.invalid
        var bestRatio = Double.infinity
        for basic in columns[entering.id] where kinds[basic.id] != .external {
            let coefficient = rows[basic.id].coefficient(for: entering)
            if coefficient < 0 {
                let ratio = -rows[basic.id].constant / coefficient
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
            guard isBasic[leaving.id], kinds[leaving.id] != .external, rows[leaving.id].constant < 0 else { continue }
            guard let entering = dualEnteringSymbol(rows[leaving.id]) else {
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
        for cell in row.cells where cell.coefficient > 0 && kinds[cell.symbol.id] != .dummy {
            if !best.isValid || dualRatio(cell.symbol, cell.coefficient, isLessThan: best, bestCoefficient) {
                best = cell.symbol
                bestCoefficient = cell.coefficient
            } else if preferSparse && columns[cell.symbol.id].count < columns[best.id].count
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
