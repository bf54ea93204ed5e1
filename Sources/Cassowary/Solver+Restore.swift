// Restoring a solver to another's state in its own storage: the resize path of a kept
// base works on a scratch copy and puts it back afterwards, instead of copying the base's
// per-symbol arrays for every request and freeing them after it.

extension Solver {
    /// Makes this solver equal to `base` in every stored value, keeping its own storage for
    /// what a resize writes (the rows, the column index, the objective's vectors, the
    /// definitions' values, the basic flags, the edit variables' suggested values, the
    /// infeasible-row heap and the substitution's scratch arrays) so that the next resize
    /// writes in place instead of copying them on write and freeing the copies here.
    ///
    /// The substitution's scratch arrays are not part of the state: every substitution
    /// empties them before writing (``Row/merge(_:skipping:_:times:into:added:removed:track:)``
    /// and ``substitute(_:with:)``), so which buffers they are changes nothing. The heap is
    /// kept only when it and `base`'s are empty; the edit variables' table only when it
    /// has `base`'s variables (their values are then written in place, so its layout,
    /// a copy of `base`'s, and its iteration order stay `base`'s).
    ///
    /// Any solver may be restored from any other: every field is `base`'s afterwards
    /// (`self = base`), and then the four tables are given back their own buffers with
    /// `base`'s elements copied in. Equal afterwards means the same tableau, objective,
    /// records, counters and settings, so the same calls then make the same pivots, the same
    /// values and the same ``cellOperations`` as on a copy of `base`
    /// (`SolverRestoreTests.aRestoredSolverResizesAsACopyOfItsBase`).
    ///
    /// Thread safety: reads `base` only; `base` may be read by other threads at once.
    /// - Complexity: O(symbols) comparisons, plus copying the rows and column sets that
    ///   differ from `base`'s (those a resize pivoted).
    public mutating func restore(from base: Solver) {
        var rows: [Row] = []
        var columns: [SymbolSet] = []
        var values: [Double] = []
        var vectors: [Objective.Vector] = []
        var basic: [Bool] = []
        var editTable: [Variable: EditInfo] = [:]
        var heap = MinHeap()
        var scratch = SubstitutionScratch()
        swap(&rows, &table.rows)
        swap(&columns, &table.columns)
        swap(&values, &table.definitionValues)
        objective.swapVectors(&vectors)
        swap(&basic, &table.isBasic)
        swap(&editTable, &edits)
        swap(&heap, &infeasible)
        swap(&scratch, &buffers.substitution)
        self = base
        Self.restore(&rows, from: table.rows)
        columns.restoreElements(from: table.columns) { mine, theirs in mine.restore(from: theirs) }
        Self.restore(&values, from: table.definitionValues)
        Self.restore(&basic, from: table.isBasic)
        objective.restoreVectors(&vectors)
        if !Self.restore(&editTable, from: edits) { editTable = edits }
        if !(heap.isEmpty && infeasible.isEmpty) { heap = infeasible }
        swap(&rows, &table.rows)
        swap(&columns, &table.columns)
        swap(&values, &table.definitionValues)
        objective.swapVectors(&vectors)
        swap(&basic, &table.isBasic)
        swap(&editTable, &edits)
        swap(&heap, &infeasible)
        swap(&scratch, &buffers.substitution)
    }
}

extension Solver {
    /// `mine` made equal to `base` in its own buffer when the counts match (no write when
    /// it is `base`'s buffer), else `base` itself.
    @inline(__always)
    static func restore<Element: BitwiseCopyable>(_ mine: inout [Element], from base: [Element]) {
        guard mine.count == base.count else {
            mine = base
            return
        }
        let shared = mine.withUnsafeBufferPointer { left in base.withUnsafeBufferPointer { $0.baseAddress == left.baseAddress } }
        if shared { return }
        mine.withUnsafeMutableBufferPointer { left in
            base.withUnsafeBufferPointer { theirs in _ = left.update(fromContentsOf: theirs) }
        }
    }

    /// Writes `base`'s edit records into `mine` when both hold the same variables, leaving
    /// `mine`'s layout as it is (only values of present keys are written, and only those
    /// that differ, so a table still shared with `base` is not copied).
    /// - Returns: false when the variables differ (`mine` is then to be replaced by `base`).
    static func restore(_ mine: inout [Variable: EditInfo], from base: [Variable: EditInfo]) -> Bool {
        guard mine.count == base.count else { return false }
        for (variable, info) in base {
            guard let current = mine[variable] else { return false }
            if current.constant.bitPattern != info.constant.bitPattern || current.handle != info.handle
                || current.tag.marker != info.tag.marker || current.tag.other != info.tag.other
                || current.tag.isRedundant != info.tag.isRedundant {
                mine[variable] = info
            }
        }
        return true
    }
}

extension Solver {
    /// `rows` made equal to `base`: every constant copied, and the cells of a row that
    /// does not share `base`'s buffer copied into its own.
    @inline(__always)
    static func restore(_ rows: inout [Row], from base: [Row]) {
        guard rows.count == base.count else {
            rows = base
            return
        }
        guard !rows.isEmpty else { return }
        let shared = rows.withUnsafeBufferPointer { mine in base.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress } }
        if shared { return }
        rows.withUnsafeMutableBufferPointer { mine in
            base.withUnsafeBufferPointer { theirs in
                for index in 0..<mine.count {
                    mine[index].constant = theirs[index].constant
                    let same = mine[index].cells.withUnsafeBufferPointer { left in
                        theirs[index].cells.withUnsafeBufferPointer { $0.baseAddress == left.baseAddress && $0.count == left.count }
                    }
                    if !same { mine[index].restore(from: theirs[index]) }
                }
            }
        }
    }
}

extension Array {
    /// Makes every element equal to `base`'s with `restore`, in this array's own buffer
    /// (no copy of it is made when it is the only reference); takes `base` itself when the
    /// counts differ. Elements whose bytes already equal `base`'s are skipped: for a
    /// struct of a buffer reference and plain values, equal bytes are the same buffer and
    /// the same values.
    @inline(__always)
    mutating func restoreElements(from base: [Element], _ restore: (inout Element, Element) -> Void) {
        guard count == base.count else {
            self = base
            return
        }
        guard !isEmpty else { return }
        // The same buffer (never written since it was shared): nothing to restore, and no
        // copy made by asking for mutable access.
        let shared = withUnsafeBufferPointer { mine in base.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress } }
        if shared { return }
        // Compared up to the element's size: the padding of its stride is not its value.
        let size = MemoryLayout<Element>.size, stride = MemoryLayout<Element>.stride
        withUnsafeMutableBufferPointer { mine in
            base.withUnsafeBufferPointer { theirs in
                guard let left = mine.baseAddress, let right = theirs.baseAddress else { return }
                let leftBytes = UnsafeRawPointer(left), rightBytes = UnsafeRawPointer(right)
                for index in 0..<mine.count {
                    let offset = index &* stride
                    var equal = true
                    var word = 0
                    // Whole words, then half a word and the bytes of a size that is not a
                    // multiple of 8.
                    while word &+ 8 <= size {
                        if leftBytes.loadUnaligned(fromByteOffset: offset &+ word, as: UInt64.self)
                            != rightBytes.loadUnaligned(fromByteOffset: offset &+ word, as: UInt64.self) { equal = false; break }
                        word &+= 8
                    }
                    if equal && word &+ 4 <= size {
                        if leftBytes.loadUnaligned(fromByteOffset: offset &+ word, as: UInt32.self)
                            != rightBytes.loadUnaligned(fromByteOffset: offset &+ word, as: UInt32.self) { equal = false }
                        word &+= 4
                    }
                    while equal && word < size {
                        if leftBytes.load(fromByteOffset: offset &+ word, as: UInt8.self) != rightBytes.load(fromByteOffset: offset &+ word, as: UInt8.self) { equal = false }
                        word &+= 1
                    }
                    if !equal { restore(&mine[index], theirs[index]) }
                }
            }
        }
    }
}

extension Row {
    /// Makes this row equal to `base`, copying its cells into this row's own buffer.
    @inline(__always)
    mutating func restore(from base: Row) {
        constant = base.constant
        if cells.count == base.cells.count,
           cells.withUnsafeBufferPointer({ $0.baseAddress }) == base.cells.withUnsafeBufferPointer({ $0.baseAddress }) { return }
        cells.removeAll(keepingCapacity: true)
        cells.append(contentsOf: base.cells)
    }
}
