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
// So a required inequality added in a bulk load (``Solver/autoSolve`` off, before any
// optional constraint is in the tableau) is deferred when it names a *hub*: a variable
// that every required constraint naming it so far — at least
// ``Solver/deferralPushMinimum`` of them — pushed the same way (up for `W >= …`), and
// that this one pushes that way too. It stays out until
// - another constraint installed at once names the hub (a required one that pushes it
//   the other way or is an equality, or any constraint with ``Solver/autoSolve`` on):
//   the hub's deferred constraints go in first, most demanding first (see
//   ``Solver/orderByDemand(_:)``);
// - ``Solver/solve()``: they go in just before the strongest queued optional
//   constraint that names the hub (at its level, before that level's optional
//   constraints), or after everything if none does.
// Exactness: every required constraint naming the hub lets it move the same way and no
// wish of a stronger level names it, so for any values of the other variables the hub
// can move until all of them hold: the set of feasible values of every other
// variable — and with it the optimum of every level installed before — is the same
// with or without the deferred ones. For the same reason a deferred constraint can
// never be the one that makes the required constraints unsatisfiable: the one that
// does names the hub the other way, and installs them first.
//
// Why at least 16 pushes: what waiting saves is a rewrite of the whole group each time
// another row takes the hub over, which only pays for a variable that many constraints
// bound. What it costs is a different order of the required rows, which on dense random
// systems makes the rows denser as often as sparser (the same pivots either way) for a
// variable bounded once or twice. A layout's container width is bounded by every row;
// below the threshold nothing changes (`DeferralTests`).
//
// Invariants: a deferred constraint names no hub but its own (others it names are
// installed first), and the variables it names besides its hub are marked as pushed
// both ways, so they never become hubs.

extension Solver {
    /// Most terms a deferred constraint may have (the direction test is quadratic in
    /// them; layout constraints have two to five).
    static var deferralTermLimit: Int { 16 }

    /// Fewest required constraints that must have pushed a variable one way before
    /// the next ones that push it that way are deferred.
    static var deferralPushMinimum: Int32 { 16 }

    /// The mark in ``DeferralMark/pushes`` of a variable pushed both ways (or named beside a hub).
    static var pushedBothWays: Int32 { .min }

    /// For a required `constraint` (handle `handle`): defers it if it pushes a hub (see
    /// the top of this file) and returns true, having recorded it; else records how it
    /// pushes its variables and returns false. Other hubs a deferred constraint names
    /// are installed first.
    /// - Complexity: O(terms²) for at most ``deferralTermLimit`` terms, else O(terms).
    mutating func deferIfImpliedFree(_ constraint: Constraint, handle: ConstraintHandle, isMergeable: Bool) throws(SolverError) -> Bool {
        guard constraint.strength.isRequired else { return false }
        let terms = constraint.expression.terms
        if constraint.relation == .equal || terms.count > Self.deferralTermLimit {
            // No term pushes (`push` below is 0 for each) and nothing may be deferred: each
            // variable it names is marked pushed both ways, as the general path marks it.
            for term in terms where term.coefficient != 0 { record(0, of: symbol(for: term.variable)) }
            return false
        }
        let relationSign: Double = constraint.relation == .greaterThanOrEqual ? 1 : -1
        // Each term's push (+1 up, -1 down, 0: an equality or a variable written twice).
        func push(_ index: Int) -> Int32 {
            let term = terms[index]
            guard constraint.relation != .equal, term.coefficient != 0, terms.count <= Self.deferralTermLimit else { return 0 }
            for (other, earlier) in terms.enumerated() where other != index && earlier.variable == term.variable { return 0 }
            return term.coefficient * relationSign > 0 ? 1 : -1
        }
        let mayDefer = defersImpliedFree && !autoSolve && !tracksMarkers && objective.levelCount == 0
            && constraint.relation != .equal && terms.count <= Self.deferralTermLimit
        var hub = Symbol.invalid
        if mayDefer {
            for index in terms.indices {
                let sign = push(index)
                guard sign != 0, let symbol = variableSymbols[terms[index].variable] else { continue }
                if table.deferral[symbol.id].hubDirection == Int8(sign) {
                    hub = symbol   // a hub already: join it
                    break
                }
                let count = table.deferral[symbol.id].pushes
                if !hub.isValid && table.deferral[symbol.id].hubDirection == 0 && count != Self.pushedBothWays
                    && count.signum() == sign && count.magnitude >= Self.deferralPushMinimum {
                    hub = symbol
                }
            }
        }
        // Symbols are made in term order, skipping zero terms, as an install makes them.
        guard hub.isValid else {
            for index in terms.indices where terms[index].coefficient != 0 {
                let symbol = symbol(for: terms[index].variable)
                record(push(index), of: symbol)
            }
            return false
        }
        // No other hub may stay named by a deferred constraint.
        for term in terms where term.coefficient != 0 {
            let symbol = symbol(for: term.variable)
            if symbol != hub && table.deferral[symbol.id].hubDirection != 0 { try installDeferred(hub: symbol) }
        }
        for index in terms.indices where terms[index].coefficient != 0 {
            let symbol = symbol(for: terms[index].variable)
            record(symbol == hub ? push(index) : 0, of: symbol)
        }
        if table.deferral[hub.id].hubDirection == 0 {
            table.deferral[hub.id].hubDirection = Int8(table.deferral[hub.id].pushes.signum())
            deferrals.hubOrder.append(hub)
        }
        deferrals.byHub[hub, default: []].append(handle)
        records.append(ConstraintRecord(constraint: constraint, isMergeable: isMergeable))
        tags.append(Tag(marker: .invalid, other: .invalid))
        deferrals.count += 1
        bulkLoad.needsSolve = true
        return true
    }

    /// Adds one push (`sign` +1 or -1; 0 for an equality or a variable written twice)
    /// to `symbol`'s count in ``DeferralMark/pushes``.
    @inline(__always)
    private mutating func record(_ sign: Int32, of symbol: Symbol) {
        let count = table.deferral[symbol.id].pushes
        if count == Self.pushedBothWays { return }
        if sign == 0 || (count != 0 && count.signum() != sign) {
            table.deferral[symbol.id].pushes = Self.pushedBothWays
        } else if count.magnitude < Int32.max.magnitude - 1 {
            table.deferral[symbol.id].pushes = count + sign
        }
    }

    /// Orders a run of deferred constraints about to go in most
    /// demanding first: by the value each needs its hub to reach (up for a hub pushed
    /// up, down for one pushed down) at the current values, then by handle.
    ///
    /// Any order gives the same optimum (the constraints only bound their hubs), but
    /// in handle order every constraint that needs more than all before it takes the
    /// hub over, and each such pivot rewrites the rows of all the group before it:
    /// with rows that widen one after another, n takeovers of O(n) rows each, O(n²).
    /// Most demanding first, the first one sets the hub and the rest go in feasible,
    /// without a pivot.
    /// - Complexity: O(k log k) for k constraints, plus reading their variables' values.
    mutating func orderByDemand(_ run: inout ArraySlice<PendingInstall>) {
        guard run.count > 1 else { return }
        refreshDefinitionValues()
        var keyed: [(key: Double, entry: PendingInstall)] = []
        keyed.reserveCapacity(run.count)
        for entry in run {
            guard let constraint = records[entry.handle.index]?.constraint, entry.hub >= 0 else {
                keyed.append((-.infinity, entry))
                continue
            }
            let hub = Symbol(Int(entry.hub))
            var residual = constraint.expression.constant
            var coefficient = 0.0
            for term in constraint.expression.terms {
                residual += term.coefficient * value(of: term.variable)
                if variableSymbols[term.variable] == hub { coefficient += term.coefficient }
            }
            guard coefficient != 0 else {
                keyed.append((-.infinity, entry))
                continue
            }
            // The hub value at which the constraint is tight, signed by the way the
            // constraint pushes the hub (the hub's direction), so larger is more demanding.
            let hubValue = table.isBasic[hub.id] ? (isDefinition(hub) ? table.definitionValues[hub.id] : table.rows[hub.id].constant) : 0
            let tight = hubValue - residual / coefficient
            let direction: Double = (coefficient > 0) == (constraint.relation == .greaterThanOrEqual) ? 1 : -1
            keyed.append((direction * tight, entry))
        }
        keyed.sort { $0.key != $1.key ? $0.key > $1.key : $0.entry.handle < $1.entry.handle }
        for (offset, item) in keyed.enumerated() { run[run.startIndex + offset] = item.entry }
    }

    /// Installs the deferred constraints of every hub `expression` names (before a
    /// constraint naming it goes into the tableau).
    mutating func installDeferred(namedBy expression: Expression) throws(SolverError) {
        guard deferrals.count > 0 else { return }
        for term in expression.terms {
            guard let symbol = variableSymbols[term.variable] else { continue }
            if table.deferral[symbol.id].hubDirection != 0 { try installDeferred(hub: symbol) }
        }
    }

    /// Installs `hub`'s deferred constraints, most demanding first
    /// (``orderByDemand(_:)``); it is no longer a hub.
    mutating func installDeferred(hub: Symbol) throws(SolverError) {
        table.deferral[hub.id].hubDirection = 0
        guard let handles = deferrals.byHub.removeValue(forKey: hub) else { return }
        var run = handles.map {
            PendingInstall(handle: $0, strength: 0, key: -1, representative: .invalid, isDeferred: true,
                           hub: Int32(truncatingIfNeeded: hub.id))
        }
        orderByDemand(&run[...])
        for entry in run { try installDeferred(handle: entry.handle) }
    }

    /// Puts the deferred constraint `handle` into the tableau.
    mutating func installDeferred(handle: ConstraintHandle) throws(SolverError) {
        deferrals.count -= 1
        guard let record = records[handle.index] else { return }
        var certificate: [Symbol]? = nil
        let tag: Tag
        let isMerged: Bool
        do {
            (tag, isMerged) = try insertOrMerge(record.constraint, handle: handle, isMergeable: record.isMergeable,
                                                certificate: &certificate)
        } catch .unsatisfiableConstraint {
            // Cannot happen (see the top of this file): the hub can always move.
            throw .internalError("a deferred constraint was unsatisfiable")
        }
        tags[handle.index] = tag
        own(tag, isMerged: isMerged, by: handle)
    }
}
