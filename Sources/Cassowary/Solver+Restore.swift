// Restoring a solver to another's state in its own storage: the resize path of a kept
// base works on a scratch copy and puts it back afterwards, instead of copying the base's
// per-symbol arrays for every request and freeing them after it.

import Synchronization

/// The source of ``Solver/stamp`` values: each taken once, by one solver's change.
private let solverStamps = Atomic<UInt64>(0)

extension Solver {
    /// Makes this solver equal to `base` in every stored value, keeping its own storage for
    /// what a resize writes (the rows, the column index, the objective's vectors, the
    /// definitions' values, the basic flags, the edit variables' suggested values, the
    /// infeasible-row heap, the substitution's scratch arrays and the journal) so that the
    /// next resize writes in place instead of copying them on write and freeing the copies
    /// here.
    ///
    /// When this solver was last restored from a solver in `base`'s state (the same
    /// ``stamp``) and only suggested values, solved and read since, the journal lists
    /// every row, basic flag, column set and reduced-cost vector those calls wrote: only
    /// those are restored, with the few fields such a call sets (``restoreJournaled(from:)``).
    /// Otherwise every field is (``restoreFully(from:)``). Either way the result is the same
    /// (`SolverRestoreTests.aJournaledRestoreEqualsAFullOne`).
    ///
    /// Thread safety: reads `base` only; `base` may be read by other threads at once.
    /// - Complexity: with the journal, O(what the calls since the last restore wrote);
    ///   otherwise O(symbols) comparisons, plus copying the rows and column sets that
    ///   differ from `base`'s.
    public mutating func restore(from base: Solver) {
        if journal.isActive && journal.origin == base.stamp && table.kinds.count == base.table.kinds.count {
            restoreJournaled(from: base)
        } else {
            restoreFully(from: base)
        }
        journal.start(at: base.stamp)
    }

    /// ``restore(from:)`` by every field.
    ///
    /// The substitution's scratch arrays are not part of the state: every substitution
    /// empties them before writing (``Row/merge(_:skipping:_:times:into:added:removed:track:)``
    /// and ``substitute(_:with:)``), so which buffers they are changes nothing; nor is the
    /// journal, which ``restore(from:)`` starts again. The heap is kept only when it and
    /// `base`'s are empty; the edit variables' table only when it has `base`'s variables
    /// (their values are then written in place, so its layout, a copy of `base`'s, and its
    /// iteration order stay `base`'s).
    ///
    /// Any solver may be restored from any other: every field is `base`'s afterwards
    /// (`self = base`), and then the four tables are given back their own buffers with
    /// `base`'s elements copied in. Equal afterwards means the same tableau, objective,
    /// records, counters and settings, so the same calls then make the same pivots, the same
    /// values and the same ``cellOperations`` as on a copy of `base`
    /// (`SolverRestoreTests.aRestoredSolverResizesAsACopyOfItsBase`).
    /// - Complexity: O(symbols) comparisons, plus copying the rows and column sets that
    ///   differ from `base`'s (those a resize pivoted).
    mutating func restoreFully(from base: Solver) {
        var rows: [Row] = []
        var columns: [SymbolSet] = []
        var values: [Double] = []
        var vectors: [Objective.Vector] = []
        var basic: [Bool] = []
        var editTable: [Variable: EditInfo] = [:]
        var heap = MinHeap()
        var scratch = SubstitutionScratch()
        var kept = RestoreJournal()
        swap(&rows, &table.rows)
        swap(&columns, &table.columns)
        swap(&values, &table.definitionValues)
        objective.swapVectors(&vectors)
        swap(&basic, &table.isBasic)
        swap(&editTable, &edits)
        swap(&heap, &infeasible)
        swap(&scratch, &buffers.substitution)
        swap(&kept, &journal)
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
        swap(&kept, &journal)
    }

    /// ``restore(from:)`` by the journal: this solver was in `base`'s state when it was
    /// last restored, and since then only ``suggestValue(_:for:)``, ``solve()`` (with
    /// nothing queued), ``updateVariables()``, reads and the settings were used (every
    /// other change stops the journal: ``willChange(journaled:naming:)``). Those calls write
    /// the rows, basic flags, column sets and reduced-cost vectors the journal lists (a
    /// pivot's leaving and entering rows and the rows holding the entering symbol; the
    /// column sets and vectors of the leaving row's symbols and of both pivot symbols, which
    /// hold every symbol a substitution adds to or cancels from a row or the objective's
    /// substitution writes; the row whose constant a suggestion moves), the definitions'
    /// cached values, the objective's level constants and change
    /// log, the edit table's values, the heap, the counters and the settings the resize
    /// path sets. Each of those is made `base`'s; nothing else was written.
    /// - Complexity: O(journal entries × their lengths + definitions).
    mutating func restoreJournaled(from base: Solver) {
        // The list and the definition order read from locals: the tables are written
        // through buffer pointers meanwhile.
        let entries = journal.entries, order = definitions.order
        table.rows.withUnsafeMutableBufferPointer { mine in
            base.table.rows.withUnsafeBufferPointer { theirs in
                for id in entries where id >= 0 { mine[Int(id)].restore(from: theirs[Int(id)]) }
            }
        }
        table.isBasic.withUnsafeMutableBufferPointer { mine in
            base.table.isBasic.withUnsafeBufferPointer { theirs in
                for id in entries where id >= 0 { mine[Int(id)] = theirs[Int(id)] }
            }
        }
        table.columns.withUnsafeMutableBufferPointer { mine in
            base.table.columns.withUnsafeBufferPointer { theirs in
                for id in entries where id < 0 { mine[Int(~id)].restore(from: theirs[Int(~id)]) }
            }
        }
        // Solving writes the definitions' values only.
        table.definitionValues.withUnsafeMutableBufferPointer { mine in
            base.table.definitionValues.withUnsafeBufferPointer { theirs in
                for symbol in order { mine[symbol.id] = theirs[symbol.id] }
            }
        }
        objective.restore(vectorsOf: entries, levelsFrom: base.objective)
        if !Self.restore(&edits, from: base.edits) { edits = base.edits }
        if !(infeasible.isEmpty && base.infeasible.isEmpty) { infeasible = base.infeasible }
        if !(lexicographicNegatives.isEmpty && base.lexicographicNegatives.isEmpty) { lexicographicNegatives = base.lexicographicNegatives }
        if artificial != nil || base.artificial != nil { artificial = base.artificial }
        definitions.areValuesStale = base.definitions.areValuesStale
        bulkLoad.needsSolve = base.bulkLoad.needsSolve
        isOptimal = base.isOptimal
        tracksMarkers = base.tracksMarkers
        pivotCount = base.pivotCount
        if pivotTrail != nil || base.pivotTrail != nil { pivotTrail = base.pivotTrail }
        cellOperations = base.cellOperations
        workLimit = base.workLimit
        defersImpliedFree = base.defersImpliedFree
        autoSolve = base.autoSolve
        stamp = base.stamp
    }

    /// Marks a change of this solver's state. A change the journal records (`journaled`: a
    /// suggestion, or solving with nothing queued) takes a new ``stamp``, and so does
    /// `naming` (an edit variable added or removed, when it is done); any other leaves the
    /// state unnamed (stamp 0, which no restore matches) without taking one, so that
    /// adding constraints costs no atomic operation. Unless `journaled`, the journal stops
    /// until the next ``restore(from:)``.
    @inline(__always)
    mutating func willChange(journaled: Bool, naming: Bool = false) {
        if journaled || naming {
            stamp = Self.freshStamp()
        } else {
            stamp = 0
        }
        if !journaled { journal.stop() }
    }

    /// A stamp no solver has had (never 0).
    @inline(__always)
    static func freshStamp() -> UInt64 {
        solverStamps.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

/// What a solver wrote since its last ``Solver/restore(from:)``, by symbol id (repeats
/// allowed), while only journaled calls were made (``isActive``): one list, in 32-bit ids
/// as in ``SymbolSet``, so that a solver copied by value grows by 16 bytes for it.
struct RestoreJournal: Sendable {
    /// The ``Solver/stamp`` of the state the solver was restored to; 0 while stopped (by
    /// a change the list does not record, or past ``limit(symbols:)`` entries).
    var origin: UInt64 = 0
    /// `id` (≥ 0): the row and basic flag of that symbol were written; `~id` (< 0): its
    /// column set and reduced-cost vector may have been.
    var entries: [Int32] = []

    /// Whether the list is complete since the restore to ``origin``.
    var isActive: Bool { origin != 0 }

    /// Empties the list (keeping its buffer) and records from `origin` on (nothing when
    /// `origin` is 0, an unnamed state).
    mutating func start(at origin: UInt64) {
        entries.removeAll(keepingCapacity: true)
        self.origin = origin
    }

    /// Stops recording until the next ``start(at:)``.
    @inline(__always)
    mutating func stop() { origin = 0 }

    /// The most entries kept for a tableau of `symbols` symbols: past it a full restore is
    /// about as cheap, and the list stops growing.
    static func limit(symbols: Int) -> Int { 4 &* symbols &+ 64 }

    /// Records what a pivot of `entering` for `leaving` writes in `table` (read before
    /// the pivot): both rows and basic flags, the rows holding `entering`, and the column
    /// sets and reduced-cost vectors of `entering`, `leaving` and the leaving row's symbols
    /// (the new row's symbols: the only ones a substitution adds to or cancels from a row,
    /// and the only vectors the objective's substitution writes).
    mutating func note(pivotOf entering: Symbol, leaving: Symbol, in table: SymbolTable) {
        entries.append(Int32(truncatingIfNeeded: leaving.id))
        entries.append(Int32(truncatingIfNeeded: entering.id))
        for holder in table.columns[entering.id] { entries.append(Int32(truncatingIfNeeded: holder.id)) }
        entries.append(~Int32(truncatingIfNeeded: entering.id))
        entries.append(~Int32(truncatingIfNeeded: leaving.id))
        table.rows[leaving.id].cells.withUnsafeBufferPointer { cells in
            for cell in cells { entries.append(~Int32(truncatingIfNeeded: cell.symbol.id)) }
        }
        if entries.count > Self.limit(symbols: table.count) { stop() }
    }

    /// Records that a suggestion writes the constant of the row of `basic`, in a tableau of
    /// `symbols` symbols.
    @inline(__always)
    mutating func note(row basic: Symbol, symbols: Int) {
        entries.append(Int32(truncatingIfNeeded: basic.id))
        if entries.count > Self.limit(symbols: symbols) { stop() }
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
        if cells.count == base.cells.count {
            if cells.withUnsafeBufferPointer({ $0.baseAddress }) == base.cells.withUnsafeBufferPointer({ $0.baseAddress }) { return }
            // As many cells: written over in place (in this row's own buffer, copied first
            // if it is shared).
            cells.withUnsafeMutableBufferPointer { mine in
                base.cells.withUnsafeBufferPointer { theirs in _ = mine.update(fromContentsOf: theirs) }
            }
            return
        }
        cells.removeAll(keepingCapacity: true)
        cells.append(contentsOf: base.cells)
    }
}
