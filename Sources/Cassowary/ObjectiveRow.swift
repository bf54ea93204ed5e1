/// One strength level of the objective, `objective = constant + Σ cₛ·s`, stored
/// densely by symbol id.
///
/// The objective is touched by every pivot; a dense array makes a substitution cost
/// O(length of the substituted row) instead of O(length of the objective). Symbols
/// whose coefficient changes sign are logged in `changed` so the solver can keep its
/// set of entering candidates current without scanning the objective.
struct ObjectiveRow: Sendable {
    var coefficients: [Double] = []
    var constant: Double = 0
    /// Symbols whose coefficient changed sign or became (non)zero since the solver
    /// last refreshed its set of lexicographically negative symbols.
    var changed: [Int] = []

    /// The coefficient of `symbol` (the level's entry of its reduced-cost vector).
    @inline(__always)
    func coefficient(for symbol: Int) -> Double {
        symbol < coefficients.count ? coefficients[symbol] : 0
    }

    /// Adds `delta` to the coefficient of `symbol`; a sum that cancels (``Tolerance``)
    /// becomes exactly 0.
    @inline(__always)
    mutating func add(_ symbol: Int, _ delta: Double) {
        if symbol >= coefficients.count {
            coefficients.append(contentsOf: repeatElement(0, count: symbol - coefficients.count + 1 + coefficients.count / 2))
        }
        let old = coefficients[symbol]
        var sum = old + delta
        if Tolerance.isNearZero(sum, scale: max(abs(old), abs(delta))) { sum = 0 }
        coefficients[symbol] = sum
        if (old < 0) != (sum < 0) || (old == 0) != (sum == 0) { changed.append(symbol) }
    }

    /// Sets the coefficient of `symbol` to 0.
    mutating func remove(_ symbol: Int) {
        guard symbol < coefficients.count, coefficients[symbol] != 0 else { return }
        changed.append(symbol)
        coefficients[symbol] = 0
    }

    /// `self += factor · row`.
    mutating func add(_ row: Row, times factor: Double) {
        constant += factor * row.constant
        for cell in row.cells { add(cell.symbol, factor * cell.coefficient) }
    }

    /// Replaces `symbol` by `row` (`symbol = row`).
    /// - Complexity: O(length of `row`).
    @inline(__always)
    mutating func substitute(_ symbol: Int, with row: Row) {
        let factor = coefficient(for: symbol)
        guard factor != 0 else { return }
        remove(symbol)
        add(row, times: factor)
    }
}
