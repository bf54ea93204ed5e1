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
    /// candidate set, checked; if the check fails, the whole linked set is used). A deletion filter in
    /// ascending handle order (Chinneck & Dravnieks 1991) then makes it minimal, on one
    /// scratch solver that only holds the candidates: each step removes a candidate,
    /// tries the new constraint, and puts the candidate back if it was needed.
    /// Nothing is recorded while adding, so explaining costs nothing without a conflict.
    /// - Complexity: re-adding the linked required constraints once, then O(k)
    ///   adds/removes on a scratch solver holding the k candidates.
    public func explainConflict(_ constraint: Constraint) -> [ConstraintHandle] {
        guard constraint.strength.isRequired, constraint.expression.isFinite else { return [] }
        // Only required constraints linked to `constraint` through shared variables can
        // take part; re-add them with markers on to read the proof's markers.
        let component = linkedRequiredHandles(constraint)
        var trial = Solver()
        trial.tracksMarkers = true
        var original: [Int] = []   // trial handle rawValue → our handle rawValue
        for handle in component {
            guard let record = records[handle] else { continue }
            if (try? trial.addConstraint(record.constraint)) != nil { original.append(handle) }
        }
        var certificate: [Int]? = nil
        do {
            _ = try trial.addConstraint(constraint, certificate: &certificate)
            return []
        } catch {
            guard error == .unsatisfiableConstraint else { return [] }
        }
        var candidates: [Int] = []
        var seen = Set<Int>()
        for symbol in certificate ?? [] where symbol >= 0 && symbol < trial.owners.count {
            let owner = trial.owners[symbol]
            if owner >= 0, owner < original.count, trial.records[owner]?.constraint.strength.isRequired == true,
               !seen.contains(owner) {
                seen.insert(owner)
                candidates.append(original[owner])
            }
        }
        candidates.sort()
        if !isInfeasible(candidates, with: constraint) {
            candidates = component
        }
        return deletionFilter(candidates, with: constraint).map { ConstraintHandle(rawValue: $0) }
    }

    /// Present required constraints connected to `constraint` by chains of shared
    /// variables, ascending.
    func linkedRequiredHandles(_ constraint: Constraint) -> [Int] {
        let required = requiredHandles()
        var byVariable: [Variable: [Int]] = [:]     // lookups only
        for handle in required {
            guard let record = records[handle] else { continue }
            for term in record.constraint.expression.terms where term.coefficient != 0 {
                byVariable[term.variable, default: []].append(handle)
            }
        }
        var queue = constraint.expression.terms.filter { $0.coefficient != 0 }.map(\.variable)
        var visitedVariables = Set(queue)
        var included = Set<Int>()
        var result: [Int] = []
        var next = 0
        while next < queue.count {
            let variable = queue[next]
            next += 1
            for handle in byVariable[variable] ?? [] where !included.contains(handle) {
                included.insert(handle)
                result.append(handle)
                guard let record = records[handle] else { continue }
                for term in record.constraint.expression.terms where !visitedVariables.contains(term.variable) {
                    visitedVariables.insert(term.variable)
                    queue.append(term.variable)
                }
            }
        }
        return result.sorted()
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
        scratch.tracksMarkers = true   // removals pivot instead of rebuilding
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
