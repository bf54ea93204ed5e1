// Adding a constraint: its symbols, its row (kiwi `createRow`, `chooseSubject`,
// `addWithArtificialVariable`) and the row's place in the tableau, feasibly.
// Row forms follow kiwi (`solverimpl.h`): a basic row means `basic = constant + Σ cᵢ·sᵢ`,
// a row being built means `0 = constant + Σ cᵢ·sᵢ`.

extension Solver {
    // MARK: - Symbols

    /// Appends a fresh symbol of `kind` (the next id) and returns it.
    @inline(__always)
    mutating func newSymbol(_ kind: SymbolKind) -> Symbol { table.append(kind) }

    /// Records in ``SymbolTable/links`` that `symbol`, made basic with `row`, is tied to the row's
    /// symbols, or in ``SymbolTable/isPinned`` that it is a constant (a variable a required equality
    /// pins: such a row is a definition, and stays constant until a rebuild), which ties
    /// nothing. Only new rows can tie anything: a pivot's row holds symbols already tied
    /// to its leaving symbol, and a substitution gives a row only symbols tied to one it
    /// held.
    @inline(__always)
    mutating func link(_ symbol: Symbol, _ row: Row) {
        if row.cells.isEmpty {
            table.isPinned[symbol.id] = true
            return
        }
        for cell in row.cells where !table.isPinned[cell.symbol.id] { table.links.union(symbol.id, cell.symbol.id) }
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
        willChange(journaled: false)
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
            bulkLoad.pending.append(handle)
            bulkLoad.needsSolve = true
            return handle
        }
        if try deferIfImpliedFree(constraint, handle: handle, isMergeable: isMergeable) { return handle }
        try installDeferred(namedBy: constraint.expression)
        let (tag, isMerged) = try insertOrMerge(constraint, handle: handle, isMergeable: isMergeable,
                                                certificate: &certificate)
        records.append(ConstraintRecord(constraint: constraint, isMergeable: isMergeable))
        tags.append(tag)
        own(tag, isMerged: isMerged, by: handle)
        if autoSolve {
            try optimizeObjective()
        } else {
            bulkLoad.needsSolve = true
        }
        return handle
    }

    /// Records that the symbols of `tag` belong to the constraint `handle` (``SymbolTable/owners``),
    /// unless it was merged into an earlier one, which owns them.
    @inline(__always)
    mutating func own(_ tag: Tag, isMerged: Bool, by handle: ConstraintHandle) {
        guard !isMerged else { return }
        if tag.marker.isValid { table.owners[tag.marker.id] = handle }
        if tag.other.isValid { table.owners[tag.other.id] = handle }
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
    /// Both are taken over: a row passed as its last use goes into the tableau without a copy.
    mutating func insertRow(_ constraint: Constraint, certificate: inout [Symbol]?, direct: consuming Row? = nil,
                            expression: consuming ExpressionRow? = nil) throws(SolverError) -> Tag {
        var tag = Tag(marker: .invalid, other: .invalid)
        var prepared: ExpressionRow
        if let given = expression.take() {
            prepared = given
        } else {
            prepared = expressionRow(constraint, direct: direct.take())
        }
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
        let hasRestrictedSubjectOnly = (subject.isValid && table.kinds[subject.id] != .external) || (!subject.isValid && !row.cells.isEmpty)
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
        if !subject.isValid && row.cells.allSatisfy({ table.kinds[$0.symbol.id] == .dummy }) {
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
        } else if table.kinds[subject.id] == .external && constraint.strength.isRequired && !table.columns[subject.id].isEmpty
                    && isOutsideObjective(subject) && table.columns[subject.id].allSatisfy({ isDefinition($0) }) {
            // A required row whose external subject only definitions hold: it becomes a
            // definition too, ranked just below the lowest of them. The row is in non-basic
            // symbols (expanded), so any rank keeps "a definition names lower ranks only",
            // and no ordinary row or objective level names the subject. Kept ordinary, it
            // would unroll a chain of positions into every later row
            // (`DefinitionRowTests.requiredRowOfASymbolOnlyDefinitionsHoldIsADefinition`).
            row.solve(for: subject)
            var position = Int.max
            for holder in table.columns[subject.id] { position = min(position, table.definition[holder.id].rank) }
            installDefinition(subject, row)
            definitions.order.removeLast()
            definitions.order.insert(subject, at: position)
            for rank in position..<definitions.order.count { table.definition[definitions.order[rank].id].rank = rank }
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
    /// `direct` is taken over: kept as written, it is the returned row itself.
    mutating func expressionRow(_ constraint: Constraint, direct given: consuming Row?) -> ExpressionRow {
        var scale = 0.0
        var definition = Symbol.invalid
        let expression = constraint.expression
        var direct: Row
        if let given = given.take() {
            direct = given
        } else {
            var cells: [Cell] = []
            cells.reserveCapacity(expression.terms.count + Self.markerRoom)
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
            scale = abs(direct.constant)
            // Moved, not copied: the caller's row (a merge key's) has room for the markers.
            row = Row()
            swap(&row, &direct)
        } else if namesDefinition {
            // Definitions need the ordered expansion (latest first, so chains cancel);
            // rows naming only ordinary basic symbols are merged directly below, which
            // costs less than the expander.
            var scratch = Expander()
            swap(&scratch, &buffers.expander)
            // Room for the constraint's markers (`addMarkers`), saving a copy.
            row = expandedRow(constant: direct.constant, cells: direct.cells, using: &scratch, scale: &scale,
                              spare: Self.markerRoom)
            cellOperations &+= scratch.work   // expansions count toward the work limit too
            scratch.work = 0
            swap(&scratch, &buffers.expander)
        } else if !direct.cells.contains(where: { table.isBasic[$0.symbol.id] }) {
            // Only non-basic symbols: the loop below would insert the cells one by one
            // into an empty row, in symbol order, and they are sorted, distinct and
            // nonzero (`Row(unsortedCells:constant:)` made them), so the row is `direct`
            // as it is; moved, with its room for the markers.
            scale = abs(direct.constant)
            row = Row()
            swap(&row, &direct)
        } else {
            row = Row(constant: direct.constant)
            // Room for the cells and the markers at once, instead of growing cell by cell.
            row.cells.reserveCapacity(direct.cells.count + Self.markerRoom)
            scale = abs(direct.constant)
            // `row.add(_:times:)` for each basic symbol, merging into the substitution's
            // recycled buffer (which then swaps with the row's) instead of a new array.
            var buffer: [Cell] = []
            var added: [Symbol] = []
            var removed: [Symbol] = []
            swap(&buffer, &buffers.substitution.buffer)
            for cell in direct.cells {
                if table.isBasic[cell.symbol.id] {
                    let basic = cell.symbol.id
                    scale += abs(cell.coefficient * table.rows[basic].constant)
                    cellOperations &+= row.cells.count &+ table.rows[basic].cells.count
                    row.constant += cell.coefficient * table.rows[basic].constant
                    buffer.removeAll(keepingCapacity: true)
                    buffer.reserveCapacity(row.cells.count + table.rows[basic].cells.count + Self.markerRoom)
                    Row.merge(row.cells, skipping: .invalid, table.rows[basic].cells, times: cell.coefficient,
                              into: &buffer, added: &added, removed: &removed, track: false)
                    swap(&buffer, &row.cells)
                } else {
                    row.insert(cell.symbol, cell.coefficient)
                }
            }
            swap(&buffer, &buffers.substitution.buffer)
        }
        return ExpressionRow(row: row, scale: scale, definition: definition)
    }

    /// The most markers ``addMarkers(_:to:tag:)`` adds to a row: rows made for the tableau
    /// reserve room for them.
    static var markerRoom: Int { 2 }

    /// The second half of kiwi `createRow`: adds the
    /// constraint's slack, error or dummy symbols to `row` (errors enter their level's
    /// objective row with weight 1) and normalises the sign so the constant is ≥ 0.
    /// The markers are new symbols, above every symbol of the row: they are appended.
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
            row.appendNew(slack, sign)
            if !strength.isRequired {
                let error = newSymbol(.error)
                tag.other = error
                row.appendNew(error, -sign)
                objective.add(error, level: objective.level(for: strength.value), 1)
            }
        case .equal:
            if strength.isRequired {
                if tracksMarkers {
                    let dummy = newSymbol(.dummy)
                    tag.marker = dummy
                    row.appendNew(dummy, 1)
                }
            } else {
                let plus = newSymbol(.error)
                let minus = newSymbol(.error)
                tag.marker = plus
                tag.other = minus
                row.appendNew(plus, -1)
                row.appendNew(minus, 1)
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
    @inline(__always)
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
        if tag.marker.isValid && table.kinds[tag.marker.id].isRestricted && row.coefficient(for: tag.marker) < 0 {
            return tag.marker
        }
        if tag.other.isValid && table.kinds[tag.other.id].isRestricted && row.coefficient(for: tag.other) < 0 {
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
        for cell in row.cells where isCandidate(table.kinds[cell.symbol.id]) {
            let count = table.columns[cell.symbol.id].count
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
        if table.isBasic[art.id] {
            var artRow = uninstall(art)
            if !success { return false }
            if !artRow.cells.isEmpty {
                guard let entering = artRow.cells.first(where: { table.kinds[$0.symbol.id].isRestricted })?.symbol else {
                    return false
                }
                artRow.solve(for: entering, replacing: art)
                substitute(entering, with: artRow)
                install(entering, artRow)
            }
        }
        let holders = table.columns[art.id]
        table.columns[art.id] = SymbolSet()
        for basic in holders { table.rows[basic.id].remove(art) }
        objective.remove(art)
        return success
    }
}
