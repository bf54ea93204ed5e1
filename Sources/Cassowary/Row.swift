/// One coefficient of a row: `coefficient · symbol`.
struct Cell: Sendable {
    var symbol: Symbol
    var coefficient: Double
}

/// A tableau row `basic = constant + Σ coefficient·symbol` (kiwi `row.h`), or an
/// objective row `objective = constant + Σ coefficient·symbol`.
///
/// Cells are kept sorted by symbol id, without zeros, so every traversal visits
/// symbols in one fixed order (determinism) and a lookup is a binary search.
struct Row: Sendable {
    var cells: [Cell]
    var constant: Double

    init(constant: Double = 0) {
        self.cells = []
        self.constant = constant
    }

    /// A row from cells in any order, possibly repeating a symbol: sorted by symbol,
    /// repeats summed (a sum that cancels, by ``Tolerance``, is dropped).
    /// `cells` is consumed: a caller that passes its last use of an array gives the
    /// buffer over, and sorting it then copies nothing.
    /// - Complexity: O(n²) for the few terms of a constraint, O(n log n) beyond 16.
    init(unsortedCells cells: consuming [Cell], constant: Double) {
        if cells.count > 16 { cells.sort { $0.symbol < $1.symbol } }
        // Through one buffer pointer: a subscript write checks the buffer's uniqueness
        // each time.
        let kept = cells.withUnsafeMutableBufferPointer { cells -> Int in
            let count = cells.count
            if count <= 16 { cells.insertionSort { $0.symbol } }
            var write = 0
            var read = 0
            while read < count {
                var cell = cells[read]
                var magnitude = abs(cell.coefficient)
                read += 1
                while read < count && cells[read].symbol == cell.symbol {
                    magnitude = Swift.max(magnitude, abs(cells[read].coefficient))
                    cell.coefficient += cells[read].coefficient
                    read += 1
                }
                if cell.coefficient != 0 && !Tolerance.isNearZero(cell.coefficient, scale: magnitude) {
                    cells[write] = cell
                    write += 1
                }
            }
            return write
        }
        if kept < cells.count { cells.removeLast(cells.count - kept) }
        self.cells = cells
        self.constant = constant
    }

    /// The coefficient of `symbol`, 0 if absent.
    /// - Complexity: O(log n).
    @inline(__always)
    func coefficient(for symbol: Symbol) -> Double {
        let index = position(of: symbol)
        return index < cells.count && cells[index].symbol == symbol ? cells[index].coefficient : 0
    }

    /// The index of the first cell whose symbol is ≥ `symbol`.
    @inline(__always)
    func position(of symbol: Symbol) -> Int {
        var low = 0
        var high = cells.count
        while low < high {
            let mid = (low &+ high) >> 1
            if cells[mid].symbol < symbol { low = mid &+ 1 } else { high = mid }
        }
        return low
    }

    /// Adds `coefficient · symbol`, dropping the cell if the sum cancels.
    /// Returns +1 if a cell was created, -1 if one was removed, 0 otherwise.
    @discardableResult
    mutating func insert(_ symbol: Symbol, _ coefficient: Double) -> Int {
        let index = position(of: symbol)
        if index < cells.count && cells[index].symbol == symbol {
            let old = cells[index].coefficient
            let sum = old + coefficient
            if Tolerance.isNearZero(sum, scale: max(abs(old), abs(coefficient))) {
                cells.remove(at: index)
                return -1
            }
            cells[index].coefficient = sum
            return 0
        }
        if coefficient == 0 { return 0 }
        cells.insert(Cell(symbol: symbol, coefficient: coefficient), at: index)
        return 1
    }

    /// Appends `coefficient · symbol` (nonzero) for a `symbol` above every symbol of the
    /// row (a new one): ``insert(_:_:)`` without the search.
    /// - Precondition: `coefficient != 0`, and `symbol` is above the row's last symbol.
    @inline(__always)
    mutating func appendNew(_ symbol: Symbol, _ coefficient: Double) {
        assert(coefficient != 0 && (cells.last.map { $0.symbol < symbol } ?? true))
        cells.append(Cell(symbol: symbol, coefficient: coefficient))
    }

    /// Removes `symbol`'s cell if present.
    mutating func remove(_ symbol: Symbol) {
        let index = position(of: symbol)
        if index < cells.count && cells[index].symbol == symbol { cells.remove(at: index) }
    }

    /// Negates the constant and every coefficient.
    mutating func reverseSign() {
        constant = -constant
        for index in cells.indices { cells[index].coefficient = -cells[index].coefficient }
    }

    /// Solves this row for `symbol`, in place.
    ///
    /// Before: `0 = a·symbol + b·y + c`. After: the row is the right-hand side of
    /// `symbol = -(b/a)·y - c/a`, and `symbol` is no longer in it.
    /// - Precondition: `symbol` has a nonzero coefficient in this row.
    /// - Complexity: O(n).
    mutating func solve(for symbol: Symbol) {
        let index = position(of: symbol)
        let factor = -1.0 / cells[index].coefficient
        constant *= factor
        // One pass: the cells after `index` move down one as they are scaled, then the
        // last (now a copy) goes.
        cells.withUnsafeMutableBufferPointer { cells in
            for i in 0..<index { cells[i].coefficient *= factor }
            for i in index..<(cells.count - 1) {
                cells[i] = Cell(symbol: cells[i + 1].symbol, coefficient: cells[i + 1].coefficient * factor)
            }
        }
        cells.removeLast()
    }

    /// Changes the basic symbol of a tableau row from `lhs` to `rhs` (a pivot).
    ///
    /// Before: `lhs = a·rhs + b·y + c`. After: `rhs = (1/a)·lhs - (b/a)·y - c/a`.
    mutating func solve(for rhs: Symbol, replacing lhs: Symbol) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    /// `self += factor · other` without bookkeeping (objective and scratch rows).
    mutating func add(_ other: Row, times factor: Double) {
        constant += factor * other.constant
        var added: [Symbol] = []
        var removed: [Symbol] = []
        cells = Row.merge(cells, skipping: .invalid, other.cells, times: factor,
                          added: &added, removed: &removed, track: false)
    }

    /// Replaces `symbol` by `row` (`symbol = row`) in this row, if present.
    mutating func substitute(_ symbol: Symbol, with row: Row) {
        let index = position(of: symbol)
        guard index < cells.count && cells[index].symbol == symbol else { return }
        let factor = cells[index].coefficient
        constant += factor * row.constant
        var added: [Symbol] = []
        var removed: [Symbol] = []
        cells = Row.merge(cells, skipping: symbol, row.cells, times: factor,
                          added: &added, removed: &removed, track: false)
    }

    /// The longest `b` that ``addInPlace(removingAt:_:times:added:removed:)`` is used
    /// for instead of a merge.
    static let inPlaceLimit = 8

    /// `self += factor · b` after removing the cell at `index`, edited in place: a
    /// binary search and at most one insertion or removal per cell of `b`, each a
    /// memmove of the cells after it. The same sums, tolerance and tracking as
    /// ``merge(_:skipping:_:times:into:added:removed:track:)`` (so the same row), but
    /// for a short `b` into a long row it moves memory instead of rebuilding the row
    /// cell by cell: a pivot on a symbol that many long rows hold (a window width
    /// every layout row's end refers to) rewrites each of them this way.
    /// - Precondition: `b` is sorted by symbol and does not hold the symbol at `index`.
    /// - Complexity: O(|b| · (log n + n)) memory moves, n = `cells.count`.
    mutating func addInPlace(removingAt index: Int, _ b: [Cell], times factor: Double,
                             added: inout [Symbol], removed: inout [Symbol]) {
        cells.remove(at: index)
        for cell in b {
            let delta = factor * cell.coefficient
            let position = position(of: cell.symbol)
            if position < cells.count && cells[position].symbol == cell.symbol {
                let old = cells[position].coefficient
                let sum = old + delta
                if Tolerance.isNearZero(sum, scale: Swift.max(abs(old), abs(delta))) {
                    cells.remove(at: position)
                    removed.append(cell.symbol)
                } else {
                    cells[position].coefficient = sum
                }
            } else if delta != 0 {
                cells.insert(Cell(symbol: cell.symbol, coefficient: delta), at: position)
                added.append(cell.symbol)
            }
        }
    }

    /// Merges `a` (without `skip`) and `factor · b`, both sorted by symbol, into a
    /// sorted cell array. Sums that cancel (``Tolerance``) are dropped. With `track`,
    /// symbols new to `a` are appended to `added` and cancelled ones to `removed`.
    /// - Complexity: O(|a| + |b|).
    @inline(__always)
    static func merge(_ a: [Cell], skipping skip: Symbol, _ b: [Cell], times factor: Double,
                      added: inout [Symbol], removed: inout [Symbol], track: Bool) -> [Cell] {
        var out: [Cell] = []
        merge(a, skipping: skip, b, times: factor, into: &out, added: &added, removed: &removed, track: track)
        return out
    }

    /// ``merge(_:skipping:_:times:added:removed:track:)`` writing into `out` (emptied
    /// first, capacity kept) so a caller can recycle one buffer across many rows.
    @inline(__always)
    static func merge(_ a: [Cell], skipping skip: Symbol, _ b: [Cell], times factor: Double,
                      into out: inout [Cell], added: inout [Symbol], removed: inout [Symbol], track: Bool) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(a.count + b.count)
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                var i = 0
                var j = 0
                let na = pa.count
                let nb = pb.count
                while i < na && j < nb {
                    let sa = pa[i].symbol
                    let sb = pb[j].symbol
                    if sa < sb {
                        if sa != skip { out.append(pa[i]) }
                        i &+= 1
                    } else if sb < sa {
                        let c = factor * pb[j].coefficient
                        if c != 0 {
                            out.append(Cell(symbol: sb, coefficient: c))
                            if track { added.append(sb) }
                        }
                        j &+= 1
                    } else {
                        let old = pa[i].coefficient
                        let delta = factor * pb[j].coefficient
                        let sum = old + delta
                        if Tolerance.isNearZero(sum, scale: Swift.max(abs(old), abs(delta))) {
                            if track { removed.append(sa) }
                        } else {
                            out.append(Cell(symbol: sa, coefficient: sum))
                        }
                        i &+= 1
                        j &+= 1
                    }
                }
                while i < na {
                    if pa[i].symbol != skip { out.append(pa[i]) }
                    i &+= 1
                }
                while j < nb {
                    let c = factor * pb[j].coefficient
                    if c != 0 {
                        out.append(Cell(symbol: pb[j].symbol, coefficient: c))
                        if track { added.append(pb[j].symbol) }
                    }
                    j &+= 1
                }
            }
        }
    }
}
