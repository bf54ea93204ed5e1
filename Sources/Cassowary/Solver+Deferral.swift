// Deferred required inequalities: a bulk load keeps out of the tableau the required
// inequalities that only bound a cost-free variable from one side, until the variable
// matters.
//
// A flow layout's free container width `W` (`W >= 0` and, for every row of views,
// `row end + 8 <= W`) shows why. Installed at once, the rows' end constraints all hold
// `W`'s row, and at every strength level the widest row so far takes `W` over: each
// takeover pivot rewrites every end constraint (about ln n takeovers per level for n
// rows, O(n log n) in all). Yet above the level of the first wish that names `W` no
// end constraint can bind: whatever the other variables are, `W` can rise until every
// one holds. In LP presolve terms `W` is an implied free column singleton
// (Andersen & Andersen, "Presolving in linear programming", Math. Programming 71,
// 1995, §3): its constraints drop out of the problem until its cost appears.
//
// So a required inequality (with ``Solver/autoSolve`` off) is deferred when it names a
// *hub*: an external symbol that no row, objective level or edit holds, which every
// deferred constraint naming it lets move the same way (up for `W >= …`). It stays out
// until
// - another constraint that is installed at once names the hub (a required one that
//   does not fit the same way, or any constraint with ``Solver/autoSolve`` on): the
//   hub's deferred constraints go in first, in handle order;
// - ``Solver/solve()``: they go in just before the strongest queued optional
//   constraint that names the hub (at its level, before that level's optional
//   constraints), or after everything if none does.
// Exactness: until then nothing in the tableau names the hub, and for any values of
// the other variables the hub can be moved until its deferred constraints all hold,
// so the set of feasible values of every other variable — and with it the optimum of
// every level installed so far — is the same with or without them. A deferred
// constraint can never be the one that makes the required constraints unsatisfiable:
// the constraint that does is one that names the hub, and it installs them first.
//
// Invariants: a hub is fresh (not basic, in no column, no objective level); a deferred
// constraint names no hub but its own (others it names are flushed first) and the
// symbols it names besides its hub never become hubs (`deferral` state `named`).

extension Solver {
    /// Most terms a deferred constraint may have (the direction test is quadratic in
    /// them; layout constraints have two to five).
    static var deferralTermLimit: Int { 16 }

    /// `deferral` states besides a hub's direction (+1 up, -1 down).
    static var deferralFree: Int8 { 0 }
    static var deferralNamed: Int8 { 2 }

    /// Defers `constraint` (handle `handle`) if it is a required inequality naming a
    /// fresh symbol it bounds from one side; returns whether it was deferred (and
    /// recorded). Other hubs it names are installed first.
    /// - Complexity: O(terms²) for at most ``deferralTermLimit`` terms.
    mutating func deferIfImpliedFree(_ constraint: Constraint, handle: Int, isMergeable: Bool) throws(SolverError) -> Bool {
        guard defersImpliedFree, !autoSolve, !tracksMarkers, constraint.strength.isRequired,
              constraint.relation != .equal else { return false }
        let terms = constraint.expression.terms
        guard terms.count <= Self.deferralTermLimit, !terms.isEmpty else { return false }
        let relationSign: Double = constraint.relation == .greaterThanOrEqual ? 1 : -1
        var hub = -1              // a symbol, or -2 - index of a term whose variable has none yet
        var hubSign: Int8 = 0     // 0 while no candidate is found
        var isNewHub = false
        for (index, term) in terms.enumerated() where term.coefficient != 0 {
            // Only a variable written once (its coefficient is then its net one).
            var isRepeated = false
            for (other, earlier) in terms.enumerated() where other != index && earlier.variable == term.variable {
                isRepeated = true
            }
            if isRepeated { continue }
            let sign: Int8 = term.coefficient * relationSign > 0 ? 1 : -1
            let symbol = variableSymbols[term.variable]
            if let symbol, deferral[symbol] == sign {
                // An existing hub this constraint moves the same way: join it.
                hub = symbol
                hubSign = sign
                isNewHub = false
                break
            }
            guard hubSign == 0 else { continue }
            if let symbol {
                guard deferral[symbol] == Self.deferralFree, !isBasic[symbol], columns[symbol].isEmpty,
                      isOutsideObjective(symbol) else { continue }
            }
            hub = symbol ?? -2 - index   // a new symbol is made below, in term order
            hubSign = sign
            isNewHub = true
        }
        guard hubSign != 0 else { return false }
        // Symbols in term order, as an install would number them.
        for term in terms { _ = symbol(for: term.variable) }
        if hub <= -2 { hub = symbol(for: terms[-2 - hub].variable) }
        // No other hub may stay named by a deferred constraint.
        for term in terms {
            let symbol = symbol(for: term.variable)
            if symbol != hub && (deferral[symbol] == 1 || deferral[symbol] == -1) { try installDeferred(hub: symbol) }
        }
        for term in terms {
            let symbol = symbol(for: term.variable)
            if symbol != hub { deferral[symbol] = Self.deferralNamed }
        }
        if isNewHub {
            deferral[hub] = hubSign
            hubOrder.append(hub)
        }
        deferredByHub[hub, default: []].append(handle)
        records.append(ConstraintRecord(constraint: constraint, tag: Tag(marker: -1, other: -1), isMergeable: isMergeable))
        deferredCount += 1
        needsSolve = true
        return true
    }

    /// Installs the deferred constraints of every hub `expression` names (before a
    /// constraint naming it goes into the tableau).
    mutating func installDeferred(namedBy expression: Expression) throws(SolverError) {
        guard deferredCount > 0 else { return }
        for term in expression.terms {
            guard let symbol = variableSymbols[term.variable] else { continue }
            if deferral[symbol] == 1 || deferral[symbol] == -1 { try installDeferred(hub: symbol) }
        }
    }

    /// Installs `hub`'s deferred constraints, in handle order; it is no longer a hub.
    mutating func installDeferred(hub: Int) throws(SolverError) {
        deferral[hub] = Self.deferralFree
        guard let handles = deferredByHub.removeValue(forKey: hub) else { return }
        for handle in handles { try installDeferred(handle: handle) }
    }

    /// Puts the deferred constraint `handle` into the tableau.
    mutating func installDeferred(handle: Int) throws(SolverError) {
        deferredCount -= 1
        guard let record = records[handle] else { return }
        var certificate: [Int]? = nil
        let tag: Tag
        let isMerged: Bool
        do {
            (tag, isMerged) = try insertOrMerge(record.constraint, handle: handle, isMergeable: record.isMergeable,
                                                certificate: &certificate)
        } catch .unsatisfiableConstraint {
            // Cannot happen (see the top of this file): the hub can always move.
            throw .internalError("a deferred constraint was unsatisfiable")
        }
        records[handle]?.tag = tag
        if !isMerged && tag.marker >= 0 { owners[tag.marker] = handle }
        if !isMerged && tag.other >= 0 { owners[tag.other] = handle }
    }
}
