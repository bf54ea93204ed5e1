// Removing a constraint (kiwi `removeConstraint`): its marker pivoted out of the
// tableau, or the tableau rebuilt from the remaining constraints.

extension Solver {
    // MARK: - Removing

    /// Removes a constraint record and its rows (kiwi `removeConstraint`).
    mutating func removeRecord(_ handle: ConstraintHandle, _ record: ConstraintRecord) throws(SolverError) {
        records[handle.index] = nil
        let tag = tags[handle.index]
        if !tag.marker.isValid || !definitions.order.isEmpty || merging.mergedCount > 0 {
            // A required equality without a marker, definition rows (which are never
            // substituted into, so a marker cannot be pivoted out of them) or merged
            // constraints (which share errors): rebuild from the remaining records.
            try rebuild()
            return
        }
        if !record.constraint.strength.isRequired {
            let level = objective.level(for: record.constraint.strength.value)
            for symbol in [tag.marker, tag.other] where symbol.isValid && table.kinds[symbol.id] == .error {
                if table.isBasic[symbol.id] {
                    objective.add(table.rows[symbol.id], times: -1, level: level)
                } else {
                    objective.add(symbol, level: level, -1)
                }
            }
        }
        if !table.isBasic[tag.marker.id] {
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
            guard let record = fresh.records[info.handle.index] else { throw .internalError("edit lost in rebuild") }
            // The record holds `v - initial`; re-apply the latest suggestion on top.
            let initial = -record.constraint.expression.constant
            fresh.edits[variable] = EditInfo(handle: info.handle, tag: fresh.tags[info.handle.index], constant: initial)
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
        for basic in table.columns[marker.id] {
            let coefficient = table.rows[basic.id].coefficient(for: marker)
            if coefficient == 0 { continue }
            if table.kinds[basic.id] == .external {
                if !third.isValid || basic < third { third = basic }
            } else if coefficient < 0 {
                let ratio = -table.rows[basic.id].constant / coefficient
                if ratio < ratio1 || (ratio == ratio1 && basic < first) { ratio1 = ratio; first = basic }
            } else {
                let ratio = table.rows[basic.id].constant / coefficient
                if ratio < ratio2 || (ratio == ratio2 && basic < second) { ratio2 = ratio; second = basic }
            }
        }
        if first.isValid { return first }
        if second.isValid { return second }
        if third.isValid { return third }
        return nil
    }
}
