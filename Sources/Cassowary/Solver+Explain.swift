// Conflict explanation: a minimal set of required constraints that, with a rejected
// required constraint, is infeasible.

extension Solver {
    /// After ``addConstraint(_:)`` threw ``SolverError/unsatisfiableConstraint`` for the
    /// required `constraint`: the handles of a minimal set of present required
    /// constraints that together with `constraint` are infeasible (dropping any one
    /// member makes the set feasible), sorted ascending. Empty if `constraint` is not
    /// required, not finite, or not in conflict.
    ///
    /// Method: only required constraints linked to `constraint` through shared
    /// variables can conflict with it; they are re-added, in handle order, to a scratch
    /// solver that keeps a marker symbol per constraint, and `constraint` is tried there.
    /// The failed row is a linear combination of the new constraint and earlier ones,
    /// and every marker belongs to exactly one constraint, so the markers with nonzero
    /// coefficients name the constraints of a Farkas-style infeasibility proof (a small
    /// candidate set, checked; if the check fails, the whole linked set is used).
    /// If the proof uses only equalities, each independent of the earlier ones, its
    /// multipliers are unique and the set is minimal as it stands. Otherwise, for up to
    /// ``deletionFilterLimit`` candidates, a deletion filter in ascending handle order
    /// (Chinneck & Dravnieks 1991) makes it minimal: each
    /// candidate is dropped if the others (with the kept ones in a prefix solver) and
    /// `constraint` stay infeasible. Larger proofs are returned as found: a basic
    /// Farkas certificate is a vertex of the alternative polyhedron, whose supports are
    /// exactly the irreducible infeasible subsystems (Gleeson & Ryan 1990).
    /// Nothing is recorded while adding, so explaining costs nothing without a conflict.
    /// Unbounded: ``explainConflict(_:workLimit:work:)`` with no limit.
    /// - Complexity: re-adding the linked required constraints once, then (k ≤ 64)
    ///   O(k²) adds on scratch solvers (`layoutd-bench explain` times one conflict
    ///   among 1,000 required constraints).
    public func explainConflict(_ constraint: Constraint) -> [ConstraintHandle] {
        var work = 0
        return explainConflict(constraint, workLimit: .max, work: &work) ?? []
    }

    /// ``explainConflict(_:)`` within a budget of `workLimit` cell operations: the
    /// variable terms read to find the linked constraints plus the
    /// ``cellOperations`` of every scratch solver (each runs with the rest of the
    /// budget as its ``workLimit``). `work` receives what was spent, either way.
    ///
    /// Returns `nil` once the budget is exhausted: the conflict is then *not
    /// explained* (no partial set is returned, since one found so far may be neither
    /// minimal nor even conflicting). An empty array keeps the meaning of
    /// ``explainConflict(_:)``: not required, not finite, or not in conflict.
    public func explainConflict(_ constraint: Constraint, workLimit: Int, work: inout Int) -> [ConstraintHandle]? {
        var budget = ExplainBudget(limit: workLimit)
        defer { work &+= budget.spent }
        do {
            return try explainConflict(constraint, budget: &budget)
        } catch {
            return nil   // only `.workLimitExceeded` is thrown
        }
    }

    /// The work one explanation may still spend, and what it spent (cell operations).
    struct ExplainBudget {
        let limit: Int
        var spent = 0

        /// Adds `amount`; throws once more than `limit` is spent.
        mutating func charge(_ amount: Int) throws(SolverError) {
            spent &+= amount
            if spent > limit { throw .workLimitExceeded }
        }

        /// Runs `body` on `scratch` with the rest of the budget as its work limit, then
        /// charges its work. A `.workLimitExceeded` of the scratch solver (or of the
        /// charge) is thrown; `body` handles the solver's other errors itself.
        mutating func run<Result>(_ scratch: inout Solver,
                                  _ body: (inout Solver) throws(SolverError) -> Result) throws(SolverError) -> Result {
            let start = scratch.cellOperations
            let remaining = max(0, limit - spent)
            scratch.workLimit = start > Int.max - remaining ? Int.max : start + remaining
            let result: Result
            do {
                result = try body(&scratch)
            } catch {
                try charge(scratch.cellOperations - start)
                throw error
            }
            try charge(scratch.cellOperations - start)
            return result
        }
    }

    /// ``explainConflict(_:workLimit:work:)``, throwing `.workLimitExceeded` when the
    /// budget runs out.
    func explainConflict(_ constraint: Constraint, budget: inout ExplainBudget) throws(SolverError) -> [ConstraintHandle] {
        guard constraint.strength.isRequired, constraint.expression.isFinite else { return [] }
        // Only required constraints linked to `constraint` through shared variables can
        // take part; re-add them with markers on to read the proof's markers.
        let component = try linkedRequiredHandles(constraint, budget: &budget)
        var trial = Solver()
        trial.tracksMarkers = true
        trial.autoSolve = false   // feasibility only
        var original: [ConstraintHandle] = []   // by trial handle index: our handle
        var certificate: [Symbol]? = nil
        let isConflict = try budget.run(&trial) { (trial: inout Solver) throws(SolverError) -> Bool in
            var ignored: [Symbol]? = nil
            for handle in component {
                guard let record = records[handle.index] else { continue }
                if try trial.refusal(adding: record.constraint, certificate: &ignored) == nil { original.append(handle) }
            }
            return try trial.refusal(adding: constraint, certificate: &certificate) == .unsatisfiableConstraint
        }
        guard isConflict else { return [] }
        var candidates: [ConstraintHandle] = []
        var seen = Set<ConstraintHandle>()
        for symbol in certificate ?? [] where symbol.isValid && symbol.id < trial.table.owners.count {
            let owner = trial.table.owners[symbol.id]
            if owner.isValid, owner.index < original.count,
               trial.records[owner.index]?.constraint.strength.isRequired == true, !seen.contains(owner) {
                seen.insert(owner)
                candidates.append(original[owner.index])
            }
        }
        candidates.sort()
        if try !isInfeasible(candidates, with: constraint, budget: &budget) {
            candidates = component
        } else if constraint.relation == .equal, candidates.allSatisfy({ handle in
            guard let index = original.firstIndex(of: handle), let record = trial.records[index] else { return false }
            return record.constraint.relation == .equal && !trial.tags[index].isRedundant
        }) {
            // Equalities only, each independent of the ones before it: the proof's
            // multipliers are unique up to scale, so its support is the only
            // infeasible subset here and is already minimal.
            return candidates
        } else if candidates.count > Self.deletionFilterLimit {
            // A basic Farkas certificate is a vertex of the alternative polyhedron, and
            // the supports of those vertices are exactly the irreducible infeasible
            // subsystems (Gleeson & Ryan 1990), so the set is minimal already; the
            // O(k²) re-check is only run for small sets.
            return candidates
        }
        return try deletionFilter(candidates, with: constraint, budget: &budget)
    }

    /// Present required constraints connected to `constraint` by chains of shared
    /// variables, ascending.
    /// Each variable term read (indexing, then the search) is charged to `budget` as
    /// one cell operation, and each record looked at as one.
    func linkedRequiredHandles(_ constraint: Constraint, budget: inout ExplainBudget) throws(SolverError) -> [ConstraintHandle] {
        try budget.charge(records.count)
        let required = requiredHandles()
        var byVariable: [Variable: [ConstraintHandle]] = [:]     // lookups only
        for handle in required {
            guard let record = records[handle.index] else { continue }
            try budget.charge(record.constraint.expression.terms.count)
            for term in record.constraint.expression.terms where term.coefficient != 0 {
                byVariable[term.variable, default: []].append(handle)
            }
        }
        var queue = constraint.expression.terms.filter { $0.coefficient != 0 }.map(\.variable)
        var visitedVariables = Set(queue)
        var included = Set<ConstraintHandle>()
        var result: [ConstraintHandle] = []
        var next = 0
        while next < queue.count {
            let variable = queue[next]
            next += 1
            for handle in byVariable[variable] ?? [] where !included.contains(handle) {
                included.insert(handle)
                result.append(handle)
                guard let record = records[handle.index] else { continue }
                try budget.charge(record.constraint.expression.terms.count)
                for term in record.constraint.expression.terms where !visitedVariables.contains(term.variable) {
                    visitedVariables.insert(term.variable)
                    queue.append(term.variable)
                }
            }
        }
        return result.sorted()
    }

    /// Largest candidate set that the deletion filter re-checks (its cost is O(k²)
    /// adds, each O(k) on chain-shaped conflicts).
    static let deletionFilterLimit = 64

    /// Handles of the present required constraints, ascending.
    func requiredHandles() -> [ConstraintHandle] {
        records.indices.compactMap { index in
            records[index]?.constraint.strength.isRequired == true ? ConstraintHandle(rawValue: index) : nil
        }
    }

    /// Whether the constraints `handles` plus `constraint` are infeasible (the scratch
    /// solver's work charged to `budget`).
    func isInfeasible(_ handles: [ConstraintHandle], with constraint: Constraint, budget: inout ExplainBudget) throws(SolverError) -> Bool {
        var scratch = Solver()
        scratch.autoSolve = false   // feasibility only: never optimise
        let constraints = handles.compactMap { records[$0.index]?.constraint }
        return try budget.run(&scratch) { (scratch: inout Solver) throws(SolverError) -> Bool in
            try scratch.isInfeasible(adding: constraints, then: constraint)
        }
    }

    /// Adds `constraints` to this (scratch) solver, then tries `constraint`.
    /// - Throws: only ``SolverError/workLimitExceeded`` (this solver's ``workLimit``).
    mutating func isInfeasible(adding constraints: [Constraint], then constraint: Constraint) throws(SolverError) -> Bool {
        var certificate: [Symbol]? = nil
        for item in constraints where try refusal(adding: item, certificate: &certificate) != nil { return false }
        return try refusal(adding: constraint, certificate: &certificate) == .unsatisfiableConstraint
    }

    /// Adds `constraint` to this (scratch) solver: `nil` when it was added, else the
    /// error it was refused with. ``SolverError/workLimitExceeded`` is thrown instead,
    /// so a scratch solver stops at its budget.
    mutating func refusal(adding constraint: Constraint, certificate: inout [Symbol]?) throws(SolverError) -> SolverError? {
        do {
            _ = try addConstraint(constraint, certificate: &certificate)
            return nil
        } catch .workLimitExceeded {
            throw .workLimitExceeded
        } catch {
            return error
        }
    }

    /// The deletion filter: drops each candidate (ascending) whose absence keeps the
    /// set with `constraint` infeasible. The result is minimal. The decided members are
    /// kept in a prefix solver, so each test only adds the undecided rest. Every
    /// scratch solver's work is charged to `budget`.
    /// - Complexity: O(k²) constraint adds for k candidates (no optimisation).
    func deletionFilter(_ candidates: [ConstraintHandle], with constraint: Constraint, budget: inout ExplainBudget) throws(SolverError) -> [ConstraintHandle] {
        var prefix = Solver()
        prefix.autoSolve = false
        var kept: [ConstraintHandle] = []
        let constraints = candidates.map { records[$0.index]?.constraint }
        for (position, handle) in candidates.enumerated() {
            guard let member = constraints[position] else { continue }
            var trial = prefix
            let rest = constraints[(position + 1)...].compactMap { $0 }
            let infeasible = try budget.run(&trial) { (trial: inout Solver) throws(SolverError) -> Bool in
                try trial.isInfeasible(adding: rest, then: constraint)
            }
            if !infeasible {
                // Feasible without it: the candidate is necessary.
                kept.append(handle)
                let added = try budget.run(&prefix) { (prefix: inout Solver) throws(SolverError) -> Bool in
                    var certificate: [Symbol]? = nil
                    return try prefix.refusal(adding: member, certificate: &certificate) == nil
                }
                if !added { return kept }
            }
        }
        return kept
    }
}
