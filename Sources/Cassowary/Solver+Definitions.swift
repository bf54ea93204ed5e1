// Definition rows: external symbols defined by the one row that introduced them and
// never substituted into afterwards.
//
// In the classical tableau every basic row is written in non-basic symbols only, so a
// chain `y[r] = y[r-1] + h[r-1] + 8 + s[r]` makes each position's row hold every earlier
// height and slack: O(n²) cells, and every pivot on a height rewrites O(n) long rows.
// Those rows of unrestricted (external) symbols never take part in a pivoting decision:
// only restricted rows leave the basis and only the objective prices symbols. So when a
// new row's subject is an external symbol that nothing holds yet (a free column
// singleton at that moment, in LP presolve terms), the row is kept as written — it may
// name other basic symbols — and its value is evaluated on demand, like a postsolve step.
// A constraint that later needs such a symbol expands it back into non-basic symbols,
// latest definition first, so chains cancel before they are unrolled (`rh - y + ry - h`
// never unrolls `ry`). Restricted rows and the objective stay in non-basic symbols, so
// the simplex itself is unchanged; the tableau it works on keeps the sparsity of the
// constraints.
//
// Invariants: a definition row names only (a) non-basic symbols, (b) basic ordinary
// rows (always in non-basic symbols) and (c) definitions of lower rank; no ordinary row
// and no objective level names a definition symbol; a definition symbol never leaves the
// basis (removing a constraint while definitions exist rebuilds the tableau).

extension Solver {
    /// Whether `symbol` is basic through a definition row.
    @inline(__always)
    func isDefinition(_ symbol: Symbol) -> Bool { table.definition[symbol.id].rank >= 0 }

    /// The external symbol of `row` that no row or objective level holds, if any: the
    /// one with the largest |coefficient|, then the highest id — exactly the symbol
    /// ``chooseSubject(_:tag:)`` would pick from the expanded row (a symbol nothing
    /// holds has the fewest holders, and expansion cannot add to its coefficient).
    /// Inlined, as ``chooseSubject(_:tag:)`` and ``expandedRow(constant:cells:using:scale:spare:)``:
    /// a call from a mutating method copied the whole `Solver` (530 bytes) to pass it.
    @inline(__always)
    func freshSubject(_ row: Row) -> Symbol {
        var best = Symbol.invalid
        var bestMagnitude = 0.0
        for cell in row.cells where table.kinds[cell.symbol.id] == .external && !table.isBasic[cell.symbol.id]
            && table.columns[cell.symbol.id].isEmpty {
            let magnitude = abs(cell.coefficient)
            if magnitude >= bestMagnitude && isOutsideObjective(cell.symbol) {
                best = cell.symbol
                bestMagnitude = magnitude
            }
        }
        return best
    }

    /// Whether no objective level (nor the artificial objective) holds `symbol`.
    @inline(__always)
    func isOutsideObjective(_ symbol: Symbol) -> Bool {
        if objective.hasCost(symbol) { return false }
        if let artificial, artificial.coefficient(for: symbol) != 0 { return false }
        return true
    }

    /// Makes `symbol` basic with the definition row `row` (already solved for it).
    mutating func installDefinition(_ symbol: Symbol, _ row: Row) {
        link(symbol, row)
        for cell in row.cells { table.columns[cell.symbol.id].insert(symbol) }
        table.rows[symbol.id] = row
        table.isBasic[symbol.id] = true
        table.definition[symbol.id].rank = definitions.order.count
        definitions.order.append(symbol)
        table.definition[symbol.id].isAlias = row.cells.count == 1 && table.kinds[row.cells[0].symbol.id] == .external
        definitions.areValuesStale = true
    }

    /// `constant + Σ coefficient·symbol` with every basic symbol replaced by its row,
    /// definitions expanded latest first (so chains cancel before they unroll). The
    /// result names non-basic symbols only; `scale` receives the magnitude of the
    /// constants combined (for ``Tolerance``); its cells have room for `spare` more.
    /// - Complexity: O(Σ length of the rows expanded).
    @inline(__always)
    func expandedRow(constant: Double, cells: [Cell], using expander: inout Expander,
                     scale: inout Double, spare: Int = 0) -> Row {
        expander.prepare(symbolCount: table.kinds.count, capacity: table.kinds.capacity)
        var total = constant
        scale = abs(constant)
        for cell in cells {
            accumulate(cell.symbol, cell.coefficient, into: &expander, constant: &total, scale: &scale)
        }
        while let rank = expander.popLatest() {
            let symbol = definitions.order[rank]
            let factor = expander.take(symbol)
            if factor == 0 { continue }
            let row = table.rows[symbol.id]
            total += factor * row.constant
            scale += abs(factor * row.constant)
            for cell in row.cells {
                accumulate(cell.symbol, factor * cell.coefficient, into: &expander, constant: &total, scale: &scale)
            }
        }
        var result = Row(constant: total)
        result.cells = expander.drain(spare: spare)
        return result
    }

    /// Adds `coefficient · symbol` to the expansion: an ordinary basic row at once, a
    /// definition queued by rank, a non-basic symbol as it is.
    @inline(__always)
    private func accumulate(_ symbol: Symbol, _ coefficient: Double, into expander: inout Expander,
                            constant: inout Double, scale: inout Double) {
        if table.isBasic[symbol.id] && !isDefinition(symbol) {
            let row = table.rows[symbol.id]
            constant += coefficient * row.constant
            scale += abs(coefficient * row.constant)
            for cell in row.cells { expander.add(cell.symbol, coefficient * cell.coefficient) }
        } else {
            expander.add(symbol, coefficient)
            if table.isBasic[symbol.id] { expander.queue(rank: table.definition[symbol.id].rank) }
        }
    }

    /// Recomputes every definition's value, in rank order (each names lower ranks only).
    /// - Complexity: O(Σ length of the definition rows).
    mutating func refreshDefinitionValues() {
        guard definitions.areValuesStale else { return }
        for symbol in definitions.order {
            // Read in place: a copy of the row would retain and release its buffer.
            var value = table.rows[symbol.id].constant
            table.rows[symbol.id].cells.withUnsafeBufferPointer { cells in
                for cell in cells where table.isBasic[cell.symbol.id] {
                    value += cell.coefficient * (isDefinition(cell.symbol) ? table.definitionValues[cell.symbol.id] : table.rows[cell.symbol.id].constant)
                }
            }
            table.definitionValues[symbol.id] = value
        }
        definitions.areValuesStale = false
    }

    /// The value of the definition `symbol` without the cache (after a change that has
    /// not been followed by ``solve()``): evaluates the definitions it depends on.
    /// The memo is indexed by definition rank: a definition names only definitions of
    /// lower rank, so ranks `0...rank(symbol)` cover every one it depends on.
    /// - Complexity: O(rank of `symbol` + Σ length of the definitions it depends on).
    func evaluateDefinition(_ symbol: Symbol) -> Double {
        let rank = table.definition[symbol.id].rank
        // The memo (each rank's value and whether it is known) and the path of the walk in
        // temporary storage: on the stack when small, never an array to allocate and free.
        // The walk is depth first: a definition's first unknown dependency is entered, and
        // its value is computed once every dependency is known, from its cells in order (as
        // ``refreshDefinitionValues()`` does). Ranks fall strictly along the path (a
        // definition names lower ranks only), so it holds at most `rank + 1` definitions.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: rank + 1) { values in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: rank + 1) { known in
                withUnsafeTemporaryAllocation(of: (symbol: Symbol, cursor: Int).self, capacity: rank + 1) { path in
                    known.initialize(repeating: false)
                    path[0] = (symbol, 0)
                    var depth = 1
                    while depth > 0 {
                        let (top, cursor) = path[depth - 1]
                        let entered = table.rows[top.id].cells.withUnsafeBufferPointer { cells -> Bool in
                            var index = cursor
                            while index < cells.count {
                                let next = cells[index].symbol
                                index += 1
                                if table.isBasic[next.id] && isDefinition(next) && !known[table.definition[next.id].rank] {
                                    path[depth - 1].cursor = index
                                    path[depth] = (next, 0)
                                    return true
                                }
                            }
                            return false
                        }
                        if entered {
                            depth += 1
                            continue
                        }
                        var value = table.rows[top.id].constant
                        for cell in table.rows[top.id].cells where table.isBasic[cell.symbol.id] {
                            value += cell.coefficient * (isDefinition(cell.symbol) ? values[table.definition[cell.symbol.id].rank] : table.rows[cell.symbol.id].constant)
                        }
                        let topRank = table.definition[top.id].rank
                        values[topRank] = value
                        known[topRank] = true
                        depth -= 1
                    }
                    return values[rank]
                }
            }
        }
    }
}

/// Scratch space for ``Solver/expandedRow(constant:cells:using:scale:spare:)``: an
/// accumulator of coefficients by symbol, and a max-heap of the definition ranks still
/// to expand. Kept between uses so an expansion costs the symbols it touches, not the
/// size of the tableau.
///
/// The accumulator starts as a short list searched linearly (most expansions touch a
/// handful of symbols) and moves to a small open-addressing table (linear probing,
/// Fibonacci hashing, at most half full) past ``listLimit`` symbols, not to a dense
/// array by symbol id (24 bytes a symbol, each first touch of a slot a cache miss in a
/// large tableau): the table holds only the symbols of the expansion and stays in the
/// L1 cache. Either way each symbol's sum is added up in the same order, so the result
/// does not depend on which is used (`ExpanderTests.manySymbolsGiveTheSameSums`).
struct Expander: Sendable {
    /// One symbol's accumulator (`symbol` invalid: an empty table slot).
    private struct Entry {
        var symbol: Symbol
        var coefficient: Double
        /// The largest magnitude added (the scale for ``Tolerance``).
        var magnitude: Double
    }
    /// Symbols the short list holds before the accumulator moves to `table`.
    static let listLimit = 16
    private var list: [Entry] = []
    /// Whether the accumulator is `table` rather than `list`.
    private var isHashed = false
    private var table: [Entry] = []      // a power of two long, or empty
    private var used: [Int] = []         // indices of the table's occupied slots
    private var queued: [Bool] = []      // by rank
    private var heap: [Int] = []         // ranks, max-heap
    /// Cells accumulated since the caller last reset it (the solver's work measure).
    var work = 0

    /// Grows the rank flags to cover `symbolCount` symbols (ranks are below it), to at
    /// least `capacity` (the solver's reserved symbol count) at once.
    mutating func prepare(symbolCount: Int, capacity: Int) {
        if queued.count < symbolCount {
            let extra = max(capacity, symbolCount + symbolCount / 2) - queued.count
            queued.append(contentsOf: repeatElement(false, count: extra))
        }
    }

    @inline(__always)
    mutating func add(_ symbol: Symbol, _ coefficient: Double) {
        work &+= 1
        if !isHashed {
            for index in list.indices where list[index].symbol == symbol {
                list[index].coefficient += coefficient
                list[index].magnitude = max(list[index].magnitude, abs(coefficient))
                return
            }
            if list.count < Self.listLimit {
                list.append(Entry(symbol: symbol, coefficient: coefficient, magnitude: abs(coefficient)))
                return
            }
            spill()
        }
        let slot = self.slot(symbol)
        if !table[slot].symbol.isValid {
            table[slot] = Entry(symbol: symbol, coefficient: coefficient, magnitude: abs(coefficient))
            used.append(slot)
            if used.count * 2 > table.count { grow() }
            return
        }
        table[slot].coefficient += coefficient
        table[slot].magnitude = max(table[slot].magnitude, abs(coefficient))
    }

    /// The table slot holding `symbol`, or the empty one where it would go.
    @inline(__always)
    private func slot(_ symbol: Symbol) -> Int {
        let mask = table.count - 1
        var index = Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: symbol.id) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while table[index].symbol.isValid && table[index].symbol != symbol { index = (index + 1) & mask }
        return index
    }

    /// Doubles the table, moving the occupied slots (in the order they were filled).
    private mutating func grow() {
        let entries = used.map { table[$0] }
        table = Array(repeating: Entry(symbol: .invalid, coefficient: 0, magnitude: 0), count: table.count * 2)
        used.removeAll(keepingCapacity: true)
        for entry in entries {
            let slot = self.slot(entry.symbol)
            table[slot] = entry
            used.append(slot)
        }
    }

    /// Queues the definition of rank `rank` for expansion (once).
    @inline(__always)
    mutating func queue(rank: Int) {
        guard !queued[rank] else { return }
        queued[rank] = true
        heap.append(rank)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if heap[parent] >= heap[child] { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    /// The highest queued rank, removed from the queue.
    mutating func popLatest() -> Int? {
        guard let last = heap.popLast() else { return nil }
        var top = last
        if !heap.isEmpty {
            top = heap[0]
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                if left >= heap.count { break }
                let right = left + 1
                let child = right < heap.count && heap[right] > heap[left] ? right : left
                if heap[parent] >= heap[child] { break }
                heap.swapAt(parent, child)
                parent = child
            }
        }
        queued[top] = false
        return top
    }

    /// The accumulated coefficient of `symbol` (0 when it cancelled), which is then
    /// cleared: the symbol is being replaced by its row.
    @inline(__always)
    mutating func take(_ symbol: Symbol) -> Double {
        if !isHashed {
            for index in list.indices where list[index].symbol == symbol {
                let value = list[index].coefficient
                list[index].coefficient = 0
                return Tolerance.isNearZero(value, scale: list[index].magnitude) ? 0 : value
            }
            return 0
        }
        let slot = self.slot(symbol)
        guard table[slot].symbol.isValid else { return 0 }
        let value = table[slot].coefficient
        table[slot].coefficient = 0
        return Tolerance.isNearZero(value, scale: table[slot].magnitude) ? 0 : value
    }

    /// Moves the short list's sums into `table`.
    private mutating func spill() {
        if table.isEmpty { table = Array(repeating: Entry(symbol: .invalid, coefficient: 0, magnitude: 0), count: 64) }
        for entry in list {
            let slot = self.slot(entry.symbol)
            table[slot] = entry
            used.append(slot)
        }
        list.removeAll(keepingCapacity: true)
        isHashed = true
    }

    /// The non-negligible accumulated cells sorted by symbol, with room for `spare`
    /// more; resets the accumulator.
    mutating func drain(spare: Int = 0) -> [Cell] {
        var cells: [Cell] = []
        if !isHashed {
            // Insertion sort: at most ``listLimit`` distinct symbols, where the library's
            // sort costs more in its set-up than in comparisons.
            list.withUnsafeMutableBufferPointer { $0.insertionSort { $0.symbol } }
            cells.reserveCapacity(list.count + spare)
            for entry in list where entry.coefficient != 0 && !Tolerance.isNearZero(entry.coefficient, scale: entry.magnitude) {
                cells.append(Cell(symbol: entry.symbol, coefficient: entry.coefficient))
            }
            list.removeAll(keepingCapacity: true)
            return cells
        }
        isHashed = false
        cells.reserveCapacity(used.count + spare)
        for slot in used {
            let entry = table[slot]
            if entry.coefficient != 0 && !Tolerance.isNearZero(entry.coefficient, scale: entry.magnitude) {
                cells.append(Cell(symbol: entry.symbol, coefficient: entry.coefficient))
            }
            table[slot].symbol = .invalid
        }
        used.removeAll(keepingCapacity: true)
        cells.sort { $0.symbol < $1.symbol }
        return cells
    }
}
