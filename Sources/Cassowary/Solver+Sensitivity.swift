// Rates of change of a linear expression per unit of each constraint's constant, read
// from the optimal tableau (the right-hand-side ranging of LP sensitivity analysis).

/// One constraint whose constant moves an expression, and how fast.
public struct Sensitivity: Sendable, Hashable {
    /// The constraint.
    public var handle: ConstraintHandle
    /// The expression's change per unit added to the constraint's constant `c`, where the
    /// constraint is `expression relation 0` and `c = −expression.constant` (so for a
    /// constraint written `lhs − rhs`, `c` is the constant of the right side minus that
    /// of the left: Apple's `constant`).
    public var rate: Double

    /// A rate for `handle`.
    public init(handle: ConstraintHandle, rate: Double) {
        self.handle = handle
        self.rate = rate
    }
}

extension Solver {
    /// The constraints whose constant moves `expression` in the current optimum, each
    /// with its rate (d expression / d c, see ``Sensitivity/rate``): strongest first
    /// (required, then by decreasing strength), then in order of addition (handle).
    ///
    /// Method: `expression` is written in the non-basic symbols of the optimal tableau
    /// (definition rows expanded). Each constraint `E relation 0` is the row
    /// `E + a·m (+ b·o) = 0` with its marker `m` (the slack of an inequality, `a = +1` for
    /// `<=` and `−1` for `>=`; the dummy of a required equality, `a = +1`; the positive
    /// error of an optional equality, `a = −1`). Adding `δ` to `c` subtracts `δ` from
    /// `E`'s constant, which is the same system with `m` shifted by `δ / a`; with the
    /// basis kept, the expression moves by `−β·δ / a`, `β` being `m`'s coefficient in its
    /// row. A constraint whose marker is basic (an inequality with room to spare, an
    /// optional constraint that does not hold, a required equality implied by earlier
    /// ones) has no non-basic marker in the row and is not listed; nor is a rate within
    /// 1e-9 (relative to 1) of 0.
    ///
    /// The rates are those of the optimal basis the solver stopped at, exact for changes
    /// small enough to keep that basis optimal. At a degenerate optimum (a restricted
    /// basic symbol at 0: an inequality that holds with equality while its slack is
    /// basic, or more constraints meeting at a point than it has dimensions) the basis
    /// is one of several and a rate may hold for one direction of change only.
    ///
    /// - Returns: `nil` unless ``tracksMarkers`` was on from the first constraint (without
    ///   it required equalities have no marker), or while a bulk load is pending (call
    ///   ``solve()`` first).
    /// - Complexity: O(Σ length of the rows expanded) plus O(k log k) for k rates;
    ///   `work` receives the cells read (for a caller's ``workLimit``).
    public func sensitivities(of expression: Expression, work: inout Int) -> [Sensitivity]? {
        guard tracksMarkers, !bulkLoad.needsSolve else { return nil }
        var cells: [Cell] = []
        cells.reserveCapacity(expression.terms.count)
        for term in expression.terms where term.coefficient != 0 {
            // A variable the solver never saw is a constant 0 (kiwi's rule, as `value(of:)`).
            if let symbol = variableSymbols[term.variable] { cells.append(Cell(symbol: symbol, coefficient: term.coefficient)) }
        }
        var expander = Expander()
        var scale = 0.0
        let row = expandedRow(constant: expression.constant, cells: cells, using: &expander, scale: &scale)
        work &+= cells.count &+ row.cells.count
        var found: [Sensitivity] = []
        for cell in row.cells where cell.symbol.id < table.owners.count {
            let owner = table.owners[cell.symbol.id]
            guard owner.isValid, owner.index < tags.count, let record = records[owner.index],
                  tags[owner.index].marker == cell.symbol else { continue }
            let markerCoefficient: Double
            switch record.constraint.relation {
            case .lessThanOrEqual: markerCoefficient = 1
            case .greaterThanOrEqual: markerCoefficient = -1
            case .equal: markerCoefficient = record.constraint.strength.isRequired ? 1 : -1
            }
            let rate = -cell.coefficient / markerCoefficient
            if Tolerance.isNearZero(rate, scale: 1) { continue }
            found.append(Sensitivity(handle: owner, rate: rate))
        }
        found.sort { lhs, rhs in
            let left = records[lhs.handle.index]?.constraint.strength.value ?? 0
            let right = records[rhs.handle.index]?.constraint.strength.value ?? 0
            return left != right ? left > right : lhs.handle < rhs.handle
        }
        return found
    }
}
