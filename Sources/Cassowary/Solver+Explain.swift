// Conflict explanation: a minimal set of required constraints that, with a rejected
// required constraint, is infeasible.

extension Solver {
    /// After ``addConstraint(_:)`` threw ``SolverError/unsatisfiableConstraint`` for the
    /// required `constraint`: the handles of a minimal set of present required
    /// constraints that together with `constraint` are infeasible (dropping any one
    /// member makes the set feasible), sorted ascending. Empty if `constraint` is not
    /// required, not finite, or not in conflict.
    ///
    /// Method: the failed row of a trial add on a copy is a linear combination of the
    /// new constraint and earlier ones, and every marker symbol belongs to exactly one
    /// constraint, so the markers with nonzero coefficients name the constraints of a
    /// Farkas-style infeasibility proof (a small candidate set, checked; if the check
    /// fails every present required constraint is a candidate). A deletion filter in
    /// ascending handle order (Chinneck & Dravnieks 1991) then makes it minimal, on one
    /// scratch solver that only holds the candidates: each step removes a candidate,
    /// tries the new constraint, and puts the candidate back if it was needed.
    /// Nothing is recorded while adding, so explaining costs nothing without a conflict.
    /// - Complexity: one copy of this solver, then O(k) adds/removes on a k-constraint
    ///   scratch solver.
    public func explainConflict(_ constraint: Constraint) -> [ConstraintHandle] {
        guard constraint.strength.isRequired, constraint.expression.isFinite else { return [] }
        var trial = self
        var certificate: [Int]? = nil
        do {
            _ = try trial.addConstraint(constraint, certificate: &certificate)
            return []
        } catch {
            guard error == .unsatisfiableConstraint else { return [] }
        }
        let present = requiredHandles()
        var candidates: [Int] = []
        if let symbols = certificate {
            var seen = Set<Int>()
            for symbol in symbols where symbol >= 0 && symbol < owners.count {
                let owner = owners[symbol]
                if owner >= 0, owner < records.count, let record = records[owner],
                   record.constraint.strength.isRequired, !seen.contains(owner) {
                    seen.insert(owner)
                    candidates.append(owner)
                }
            }
            candidates.sort()
        }
        if !isInfeasible(candidates, with: constraint) {
            candidates = present
        }
        return deletionFilter(candidates, with: constraint).map { ConstraintHandle(rawValue: $0) }
    }

    /// Handles (`rawValue`) of the present required constraints, ascending.
    func requiredHandles() -> [Int] {
        records.indices.filter { records[$0]?.constraint.strength.isRequired == true }
    }

    /// Whether the constraints `handles` plus `constraint` are infeasible.
    func isInfeasible(_ handles: [Int], with constraint: Constraint) -> Bool {
        var scratch = Solver()
        for handle in handles {
            guard let record = records[handle] else { continue }
            do { _ = try scratch.addConstraint(record.constraint) } catch { return false }
        }
        do {
            _ = try scratch.addConstraint(constraint)
            return false
        } catch {
            return error == .unsatisfiableConstraint
        }
    }

    /// The deletion filter: drops each candidate (ascending) whose absence keeps the
    /// set with `constraint` infeasible. The result is minimal.
    func deletionFilter(_ candidates: [Int], with constraint: Constraint) -> [Int] {
        var scratch = Solver()
        var scratchHandle: [Int: ConstraintHandle] = [:]
        for handle in candidates {
            guard let record = records[handle] else { continue }
            if let added = try? scratch.addConstraint(record.constraint) { scratchHandle[handle] = added }
        }
        var kept: [Int] = []
        for handle in candidates {
            guard let inScratch = scratchHandle[handle], let record = records[handle] else { continue }
            do { try scratch.removeConstraint(inScratch) } catch { kept.append(handle); continue }
            if let probe = try? scratch.addConstraint(constraint) {
                // Feasible without it: the candidate is necessary; restore it.
                _ = try? scratch.removeConstraint(probe)
                if let again = try? scratch.addConstraint(record.constraint) { scratchHandle[handle] = again }
                kept.append(handle)
            }
        }
        return kept
    }
}
