// Identical constraints share one row: see `insertOrMerge`.

extension Solver {
    /// ``insertRow(_:certificate:)``, except that a constraint identical to an earlier
    /// present one at the same strength — same relation, same expression once aliases
    /// are resolved (definition rows `v = k + c·t` with `t` external) — is merged into
    /// it. A required duplicate adds nothing. An optional one shares the earlier
    /// constraint's errors, whose weight in the objective grows by one: errors at one
    /// level are summed, so k identical constraints are exactly one with weight k; but k
    /// separate error rows around one shared parameter make the simplex walk through
    /// O(k) degenerate pivots that each rewrite O(k) rows (the "equal widths, intrinsic
    /// width @weak" row of n labels is O(n²) without merging). Edit constraints
    /// (`isMergeable` false) and solvers that track markers (explanations) never merge.
    /// - Returns: the tag and whether the constraint was merged.
    mutating func insertOrMerge(_ constraint: Constraint, handle: ConstraintHandle, isMergeable: Bool,
                                certificate: inout [Symbol]?) throws(SolverError) -> (Tag, Bool) {
        guard isMergeable, !tracksMarkers else {
            return (try insertRow(constraint, certificate: &certificate), false)
        }
        guard var key = mergeKey(constraint) else { throw .internalError("merge key") }
        // A queued constraint's key is indexed before it is installed (`installPending`):
        // an optional representative without error symbols is not in the tableau yet.
        let (found, place) = merging.index.lookup(key)
        if let representative = found, records[representative.index] != nil,
           constraint.strength.isRequired || tags[representative.index].marker.isValid {
            merging.mergedCount += 1
            if constraint.strength.isRequired { return (tags[representative.index], true) }
            addWeight(to: tags[representative.index], level: objective.level(for: constraint.strength.value))
            return (tags[representative.index], true)
        }
        guard !constraint.strength.isRequired else {
            // Filed before the row goes in, so that the row takes over the key's cells
            // without a copy; withdrawn if the row cannot go in (lookups during the
            // insert never read this index).
            let filed = merging.index.insert(key, handle: handle, at: place)
            do throws(SolverError) {
                let tag = try insertRow(constraint, certificate: &certificate, direct: key.takeRow())
                return (tag, false)
            } catch {
                if let filed { merging.index.withdraw(filed) }
                throw error
            }
        }
        return try insertOptional(constraint, handle: handle, key: key, isKeyIndexed: false, place: place,
                                  certificate: &certificate)
    }

    /// The rest of ``insertOrMerge(_:handle:isMergeable:certificate:)`` for an optional
    /// constraint whose `key` matched no present constraint: the second chance below,
    /// else the row goes in. `isKeyIndexed`: `key` is already filed under `handle`.
    /// The key's row is taken over (a key stored elsewhere can be handed over with
    /// ``MergeKey/take()``, so that the row gets its markers without a copy). `place`, if
    /// given, is where ``MergeIndex/lookup(_:)`` found the key's place, nothing filed since.
    mutating func insertOptional(_ constraint: Constraint, handle: ConstraintHandle, key: consuming MergeKey, isKeyIndexed: Bool,
                                 place: MergeIndex.Place? = nil,
                                 certificate: inout [Symbol]?) throws(SolverError) -> (Tag, Bool) {
        // The keys are filed before the row goes in (so the row is not shared with
        // them when it gets its markers), and withdrawn if it cannot go in.
        let filed = isKeyIndexed ? nil : merging.index.insert(key, handle: handle, at: place ?? merging.index.lookup(key).place)
        // Second chance for an optional constraint: the same expression written in the
        // non-basic symbols of now. Both rows are identities that stay true whatever the
        // basis becomes, so equal rows mean equal expressions even if the entry is old
        // (an old entry can only miss, never match wrongly).
        let expression = expressionRow(constraint, direct: key.takeRow())
        var filedExpanded: MergeIndex.Filed? = nil
        if !expression.definition.isValid && expression.row.cells.count <= Self.expandedKeyLimit {
            let candidate = MergeKey(strength: constraint.strength.value, relation: constraint.relation, row: expression.row)
            if let representative = merging.expandedIndex.handle(for: candidate), records[representative.index] != nil {
                merging.mergedCount += 1
                addWeight(to: tags[representative.index], level: objective.level(for: constraint.strength.value))
                // (An indexed key keeps naming `handle`, whose tag is now the representative's.)
                if let filed { merging.index.setHandle(representative, of: filed) }
                return (tags[representative.index], true)
            }
            filedExpanded = merging.expandedIndex.insert(candidate, handle: handle)
        }
        do throws(SolverError) {
            let tag = try insertRow(constraint, certificate: &certificate, expression: consume expression)
            return (tag, false)
        } catch {
            if let filed { merging.index.withdraw(filed) }
            if let filedExpanded { merging.expandedIndex.withdraw(filedExpanded) }
            throw error
        }
    }

    /// The longest expanded row kept in ``Merging/expandedIndex``: a constraint whose row in
    /// the non-basic symbols is longer is rarely a duplicate, and keeping a copy of
    /// every such row took memory quadratic in the scene (a chain of 8,500 optional
    /// constraints: gigabytes).
    static var expandedKeyLimit: Int { 64 }

    /// Adds one more unit of weight to the errors of the optional constraint whose
    /// markers are `tag`, in objective level `level`.
    mutating func addWeight(to tag: Tag, level: Int) {
        for error in [tag.marker, tag.other] where error.isValid && table.kinds[error.id] == .error {
            if table.isBasic[error.id] {
                objective.add(table.rows[error.id], times: 1, level: level)
            } else {
                objective.add(error, level: level, 1)
            }
        }
        isOptimal = false
    }

    /// The identity of a constraint for merging: strength, relation and the
    /// expression with aliases resolved, terms merged and sorted by symbol. Creates the
    /// symbols of new variables, or with `creatingSymbols` false returns nil for a
    /// constraint that names one.
    mutating func mergeKey(_ constraint: Constraint, creatingSymbols: Bool = true) -> MergeKey? {
        var cells: [Cell] = []
        // Room for the constraint's markers too: the row that goes into the tableau is
        // this key's (`insertRow`), and adding them then copies nothing.
        cells.reserveCapacity(constraint.expression.terms.count + Self.markerRoom)
        var constant = constraint.expression.constant
        for term in constraint.expression.terms where term.coefficient != 0 {
            var symbol: Symbol
            if creatingSymbols {
                symbol = self.symbol(for: term.variable)
            } else {
                guard let existing = variableSymbols[term.variable] else { return nil }
                symbol = existing
            }
            var coefficient = term.coefficient
            while isAlias(symbol) {
                constant += coefficient * table.rows[symbol.id].constant
                coefficient *= table.rows[symbol.id].cells[0].coefficient
                symbol = table.rows[symbol.id].cells[0].symbol
                cellOperations &+= 1   // long alias chains count toward the work limit
            }
            cells.append(Cell(symbol: symbol, coefficient: coefficient))
        }
        let row = Row(unsortedCells: consume cells, constant: constant)
        return MergeKey(strength: constraint.strength.value, relation: constraint.relation, row: row)
    }

}

extension Solver {
    /// Whether `symbol` is an alias: a definition row `symbol = k + c·t` with `t`
    /// external, which merge keys resolve.
    @inline(__always)
    func isAlias(_ symbol: Symbol) -> Bool {
        table.definition[symbol.id].isAlias
    }
}

/// A constraint's identity for merging identical ones: strength, relation, and its
/// expression with aliases resolved, as a row (terms merged, sorted by symbol).
struct MergeKey: Sendable {
    let strength: Double
    let relation: RelationalOperator
    /// The key's row; empty once taken (``takeRow()``, ``take()``).
    private(set) var row: Row
    /// A 64-bit hash of the key's bits (a multiply-xorshift mix, as in splitmix64),
    /// computed once: a key is looked up, then stored.
    let hash: UInt64

    init(strength: Double, relation: RelationalOperator, row: Row) {
        self.strength = strength
        self.relation = relation
        self.row = row
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 &* (UInt64(row.cells.count) &+ 1)
        @inline(__always) func mix(_ value: UInt64) {
            h = (h ^ value) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
        }
        mix(strength.bitPattern)
        mix(relation == .equal ? 1 : relation == .lessThanOrEqual ? 2 : 3)
        mix((row.constant == 0 ? 0 : row.constant).bitPattern)
        for cell in row.cells {
            mix(UInt64(bitPattern: Int64(cell.symbol.id)))
            mix((cell.coefficient == 0 ? 0 : cell.coefficient).bitPattern)
        }
        hash = h ^ (h >> 29)
    }

    /// Moves the row out, leaving this key empty (no longer the key of anything: used
    /// once the key is filed or looked up for the last time).
    mutating func takeRow() -> Row {
        var taken = Row()
        swap(&taken, &row)
        return taken
    }

    /// This key, moved out: the stored copy keeps its numbers but loses its row, so the
    /// returned key's row is not shared with it.
    mutating func take() -> MergeKey {
        let taken = self
        row = Row()
        return taken
    }
}

/// Lookups from ``MergeKey`` to a constraint handle. Lookups only:
/// nothing iterates it, so its layout never chooses anything observable.
///
/// Built for tables of 10⁵ keys that mostly miss (a new constraint is rarely a
/// duplicate), with the locality of a bulk load: a key is filed under its filing
/// symbol (the highest symbol of its row), in a short list per symbol (at most
/// ``listLimit`` keys, newest first, linked through the entries). Constraints added
/// one after the other name nearby, recently created symbols, so a lookup reads a
/// per-symbol head that the previous lookups brought into cache and entries stored
/// moments ago; a hash table spreads consecutive keys over the whole table instead,
/// where each lookup and insert of a table larger than the cache costs a cache miss or
/// two. A key without
/// cells, or one whose symbol's list is full, goes to an open-addressing table
/// (linear probing, 4-byte slots, load at most 1/2) that ordinary loads never fill:
/// a lookup costs at most ``listLimit`` comparisons of hashes plus one probe sequence.
struct MergeIndex: Sendable {
    /// The most keys filed in one symbol's list; further keys of that symbol go to
    /// the open-addressing table.
    static let listLimit = 8
    /// Per filing symbol, one word: bits 0–27 are `entry + 1` of its newest key (0
    /// for none), bits 28–31 the length of its list, bits 32–63 the signature (bit
    /// `hash >> 59` set for each key in the list).
    private var heads: [UInt64] = []
    /// The most entries the lists can name (28 bits); keys beyond it are not stored.
    private static let entryLimit = (1 << 28) - 2
    /// The open-addressing table of overflowing keys: 0 when empty, else `entry + 1`.
    private var slots: [UInt32] = []
    /// How many entries `slots` holds.
    private var overflowCount = 0
    private var entries: [Entry] = []
    /// The cells of every entry's row, entry after entry.
    private var cells: [Cell] = []

    private struct Entry {
        var hash: UInt64
        var strength: Double
        var constant: Double
        var handle: ConstraintHandle
        var start: Int32
        var count: Int32
        /// `entry + 1` of the next older key in the same list, 0 at its end;
        /// `UInt32.max` for a key in the open-addressing table.
        var next: UInt32
        var relation: RelationalOperator
    }

    /// Makes room for `count` keys (and about three cells each) filed under symbols
    /// below `symbols`, without regrowing (a regrowth copies megabytes at 10,000 views).
    mutating func reserveCapacity(_ count: Int, symbols: Int) {
        entries.reserveCapacity(count)
        cells.reserveCapacity(3 * count)
        if symbols > heads.count { heads.append(contentsOf: repeatElement(0, count: symbols - heads.count)) }
    }

    /// Where ``insert(_:handle:)`` filed a key: its entry, and the handle the entry held
    /// before (``ConstraintHandle/invalid`` for a new entry), for ``withdraw(_:)``.
    struct Filed {
        fileprivate var entry: Int
        fileprivate var previous: ConstraintHandle
    }

    /// Where a key belongs (``lookup(_:)``): the entry of an equal key, if any, and the
    /// length of its filing symbol's list. Valid until the next insert.
    struct Place {
        fileprivate var entry: Int?
        fileprivate var listLength: Int
    }

    /// The handle stored for a key equal to `key`, if any.
    func handle(for key: MergeKey) -> ConstraintHandle? {
        lookup(key).handle
    }

    /// The handle stored for a key equal to `key`, if any, and the key's place, for an
    /// ``insert(_:handle:at:)`` of the same key right after (one search instead of two).
    func lookup(_ key: MergeKey) -> (handle: ConstraintHandle?, place: Place) {
        let found = find(key)
        let place = Place(entry: found.entry, listLength: found.listLength)
        guard let entry = found.entry, entries[entry].handle.isValid else { return (nil, place) }
        return (entries[entry].handle, place)
    }

    /// Stores `handle` for `key`, replacing the handle of an equal key. Returns where
    /// it was filed (`nil` beyond ``entryLimit`` keys, when nothing is stored).
    /// - Complexity: O(``listLimit`` + the key's cells), amortised.
    @discardableResult
    mutating func insert(_ key: MergeKey, handle: ConstraintHandle) -> Filed? {
        insert(key, handle: handle, at: lookup(key).place)
    }

    /// ``insert(_:handle:)`` at the place ``lookup(_:)`` just returned for `key` (nothing
    /// inserted since).
    @discardableResult
    mutating func insert(_ key: MergeKey, handle: ConstraintHandle, at found: Place) -> Filed? {
        if let entry = found.entry {
            let previous = entries[entry].handle
            entries[entry].handle = handle
            return Filed(entry: entry, previous: previous)
        }
        let entry = entries.count
        guard entry < Self.entryLimit else { return nil }   // beyond 2.7·10⁸ keys: stop merging
        let symbol = Self.filingSymbol(key)
        var next = UInt32.max
        if symbol >= 0 && found.listLength < Self.listLimit {
            if symbol >= heads.count {
                heads.append(contentsOf: repeatElement(0, count: Swift.max(symbol + 1, 2 * heads.count) - heads.count))
            }
            let word = heads[symbol]
            next = UInt32(truncatingIfNeeded: word & 0xFFF_FFFF)
            heads[symbol] = (word | Self.signatureBit(key.hash)) & ~0xFFFF_FFFF
                | UInt64(found.listLength + 1) << 28 | UInt64(entry + 1)
        }
        entries.append(Entry(hash: key.hash, strength: key.strength, constant: key.row.constant, handle: handle,
                             start: Int32(truncatingIfNeeded: cells.count),
                             count: Int32(truncatingIfNeeded: key.row.cells.count), next: next,
                             relation: key.relation))
        // Cell by cell: a key has a few, and the generic append(contentsOf:) costs more
        // than the copy.
        for cell in key.row.cells { cells.append(cell) }
        if next == UInt32.max {
            overflowCount += 1
            if overflowCount * 2 > slots.count {
                rehash(capacity: Swift.max(16, 2 * slots.count))
            } else {
                place(entry)
            }
        }
        return Filed(entry: entry, previous: .invalid)
    }

    /// Makes the key `filed` names stand for `handle` instead.
    mutating func setHandle(_ handle: ConstraintHandle, of filed: Filed) {
        entries[filed.entry].handle = handle
    }

    /// Undoes the ``insert(_:handle:)`` that returned `filed` (the last one to that
    /// entry): the entry names what it named before, and a new entry names nothing
    /// (lookups miss it; a later insert of an equal key reuses it).
    mutating func withdraw(_ filed: Filed) {
        entries[filed.entry].handle = filed.previous
    }

    /// The bit of `hash` in a symbol's signature (its top five bits pick one of 32).
    @inline(__always)
    private static func signatureBit(_ hash: UInt64) -> UInt64 {
        1 << (32 + (hash >> 59))
    }

    /// The symbol `key` is filed under: its highest (cells are sorted), or -1 for a
    /// row without cells.
    @inline(__always)
    private static func filingSymbol(_ key: MergeKey) -> Int {
        key.row.cells.last?.symbol.id ?? -1
    }

    /// The entry of a key equal to `key`, if any, and the length of the list of its
    /// filing symbol (``listLimit`` when the list is full or the key has none).
    private func find(_ key: MergeKey) -> (entry: Int?, listLength: Int) {
        let symbol = Self.filingSymbol(key)
        var length = symbol < 0 ? Self.listLimit : 0
        if symbol >= 0 && symbol < heads.count {
            let word = heads[symbol]
            length = Int(truncatingIfNeeded: word >> 28) & 0xF
            if word & Self.signatureBit(key.hash) != 0 {
                var link = UInt32(truncatingIfNeeded: word & 0xFFF_FFFF)
                while link != 0 {
                    let entry = Int(link) - 1
                    if entries[entry].hash == key.hash && matches(entry, key) { return (entry, length) }
                    link = entries[entry].next
                }
            }
        }
        guard length >= Self.listLimit, !slots.isEmpty else { return (nil, length) }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: key.hash) & mask
        while true {
            let slot = slots[index]
            if slot == 0 { return (nil, length) }
            let entry = Int(slot) - 1
            if entries[entry].hash == key.hash && matches(entry, key) { return (entry, length) }
            index = (index + 1) & mask
        }
    }

    /// Exact equality of every number (no tolerance: merging is only a shortcut).
    private func matches(_ entry: Int, _ key: MergeKey) -> Bool {
        let stored = entries[entry]
        guard stored.strength == key.strength, stored.relation == key.relation,
              stored.constant == key.row.constant, Int(stored.count) == key.row.cells.count else { return false }
        var position = Int(stored.start)
        for cell in key.row.cells {
            if cells[position].symbol != cell.symbol || cells[position].coefficient != cell.coefficient { return false }
            position += 1
        }
        return true
    }

    /// Puts `entry` into the first free slot of its probe sequence.
    private mutating func place(_ entry: Int) {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: entries[entry].hash) & mask
        while slots[index] != 0 { index = (index + 1) & mask }
        slots[index] = UInt32(truncatingIfNeeded: entry + 1)
    }

    private mutating func rehash(capacity: Int) {
        if capacity <= 64 {
            // Reserved and appended (see `SymbolSet.emptySlots`).
            var empty: [UInt32] = []
            empty.reserveCapacity(capacity)
            for _ in 0..<capacity { empty.append(0) }
            slots = empty
        } else {
            slots = [UInt32](repeating: 0, count: capacity)
        }
        for entry in entries.indices where entries[entry].next == UInt32.max { place(entry) }
    }
}

/// The symbol of each variable: an array indexed by id for the usual small,
/// non-negative ids, a dictionary for any other (lookups only, never iterated).
struct VariableTable: Sendable {
    private var dense: [Int32] = []          // symbol id, or -1
    private var sparse: [Variable: Symbol] = [:]
    /// Ids below this go to `dense`.
    static let denseLimit = 1 << 22

    /// Makes room for the ids `0..<count` without regrowing.
    mutating func reserveCapacity(_ count: Int) {
        let count = min(max(0, count), Self.denseLimit)
        if count > dense.count { dense.append(contentsOf: repeatElement(-1, count: count - dense.count)) }
    }

    subscript(variable: Variable) -> Symbol? {
        get {
            let id = variable.id
            if id >= 0 && id < Self.denseLimit {
                guard id < dense.count, dense[id] >= 0 else { return nil }
                return Symbol(Int(dense[id]))
            }
            return sparse[variable]
        }
        set {
            let id = variable.id
            if id >= 0 && id < Self.denseLimit {
                if id >= dense.count {
                    dense.append(contentsOf: repeatElement(-1, count: max(id + 1, dense.count * 2) - dense.count))
                }
                dense[id] = Int32(truncatingIfNeeded: newValue?.id ?? -1)
            } else {
                sparse[variable] = newValue
            }
        }
    }
}
