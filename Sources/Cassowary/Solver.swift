/// An incremental Cassowary solver with strict (lexicographic) priorities,
/// conflict explanations and an ambiguity test.
///
/// The algorithm is the incremental primal/dual simplex of Badros, Borning & Stuckey,
/// "The Cassowary Linear Arithmetic Constraint Solving Algorithm" (ACM TOCHI 8(4),
/// 2001), in the form of nucleic/kiwi (`solverimpl.h`), with these differences:
///
/// - The objective is one row per distinct non-required ``Strength`` (the paper's
///   symbolic weights): a symbol's reduced cost is the vector of its coefficients in
///   those rows, strongest first, compared lexicographically. Within a level every
///   error has weight 1.
/// - A column index (symbol → basic rows containing it) makes a pivot touch only the
///   rows that hold the entering symbol; kiwi scans the whole tableau.
/// - Rows are sorted cell arrays and every choice (entering symbol, leaving row,
///   infeasible row, subject) has an explicit tie-break ending in the lowest id, so
///   the same constraints in the same order give bit-identical values in every
///   process.
///
/// `Solver` is a value: `var copy = solver` gives an independent solver. Storage is
/// arrays of rows whose cell buffers are shared until written, so a copy costs
/// O(symbols) reference-count updates and a few re-solves touch only what they change.
///
/// - Required equalities carry no dummy marker (kiwi's markers fill a chain of n
///   equalities with O(n²) cells); removing one rebuilds the tableau, and
///   ``explainConflict(_:)`` re-derives markers in a scratch solver.
/// - ``autoSolve`` off gives a bulk load: required rows are checked on add, optional
///   rows are queued and installed strongest level first by ``solve()``.
/// - Definition rows: a new row whose subject is an external symbol nothing holds yet
///   is kept as written and evaluated on read, instead of being rewritten in
///   non-basic symbols by every later pivot; chains (`x[i] = x[i-1] + w[i-1] + 8`) then
///   stay O(n) cells instead of O(n²) (`Solver+Definitions.swift`).
/// - A bulk load defers a required inequality on a cost-free variable that every
///   required constraint naming it (16 or more) bounds from the same side — a free
///   container width's `row end <= width` — until a constraint pushes the variable the
///   other way or the strongest level that names it comes up (`Solver+Deferral.swift`,
///   an LP presolve rule): the same optimum, without handing the width from row to
///   row at every level.
/// - Identical constraints are merged (`ConstraintMerging.swift`): a required
///   duplicate adds nothing, an optional one adds its weight to the first one's
///   errors, which removes the O(n²) degenerate walk of n equal "intrinsic width"
///   wishes over one shared width.
/// - Removing a constraint while definition rows or merged constraints exist
///   rebuilds the tableau from the remaining constraints (O(constraints)).
///
/// Values are read from the tableau (definitions from a cache that ``solve()`` and
/// ``updateVariables()`` refresh, or evaluated on demand after other changes). With
/// ``autoSolve`` on (the default) every call leaves the solver optimal.
public struct Solver: Sendable {
    // MARK: - Storage

    // The tableau: rows, columns and the objective.

    /// Every per-symbol attribute (kind, row, column, links, owner, definition and
    /// deferral state), indexed by `symbol.id`.
    var table = SymbolTable()
    /// The objective: one row per strength level, stored by column.
    var objective = Objective()
    /// Symbols whose reduced-cost vector is lexicographically negative (the primal
    /// entering candidates); refreshed from the levels' change logs. Only its minimum
    /// is ever used.
    var lexicographicNegatives = SymbolSet()
    /// Restricted basic rows that may have gone negative, popped lowest id first.
    var infeasible = MinHeap()
    /// The artificial objective while ``addWithArtificialVariable`` runs.
    var artificial: Row?
    /// Whether the basis is known to be optimal (reduced costs lexicographically
    /// non-negative): then a degenerate new row can take the dual-ratio subject.
    var isOptimal = true
    /// Whether required equalities get a dummy marker in the tableau (kiwi does this
    /// always). Off by default: dummies are fixed at 0 and only serve removal and
    /// explanation, but they fill rows in (a chain of n equalities puts O(n) dummies in
    /// each of n rows, O(n²) work). Without them a required equality is baked into the
    /// rows; removing one rebuilds the tableau, and ``explainConflict(_:)`` re-adds the
    /// relevant constraints in a scratch solver with markers on.
    ///
    /// Turn it on before the first constraint is added to read rates of change
    /// (``sensitivities(of:)``); it also turns off merging identical constraints and
    /// deferring implied-free inequalities, so every constraint keeps its own markers.
    public var tracksMarkers = false
    // The constraints and variables behind the tableau.

    /// Symbol of each variable the solver has seen (lookups only).
    var variableSymbols = VariableTable()
    /// Constraint records by handle (``ConstraintHandle/index``); `nil` once removed.
    var records = ConstraintRecords()
    /// The marker symbols of each constraint, by handle index (meaningless once the
    /// record is `nil`). Apart from the records: a bulk load installs its queue part by
    /// part, not in handle order, and a plain store into this array does not wait for a
    /// record's cache line to write a tag.
    var tags: [Tag] = []
    /// Edit variables (lookups only).
    var edits: [Variable: EditInfo] = [:]

    // Each concern of its own.

    /// Definition rows (`Solver+Definitions.swift`).
    var definitions = Definitions()
    /// Identical constraints merged into one (`ConstraintMerging.swift`).
    var merging = Merging()
    /// The queue of a bulk load and how it is installed (`Solver+BulkInstall.swift`).
    var bulkLoad = BulkLoad()
    /// Required inequalities deferred on implied-free variables (`Solver+Deferral.swift`).
    var deferrals = Deferrals()
    /// Scratch space kept between calls, so that an expansion or a substitution costs
    /// what it touches and allocates nothing once grown.
    var buffers = Buffers()
    /// What changed since this solver was last restored (`Solver+Restore.swift`).
    var journal = RestoreJournal()
    /// Names this solver's state: a new value (``Solver/freshStamp()``) after a suggestion,
    /// a solve or a change of the edit variables, 0 (unnamed) after any other change, the
    /// base's own after ``restore(from:)``. Two solvers with the same stamp other than 0 are
    /// copies of one state (settings aside, which a restore copies).
    var stamp: UInt64 = 0

    // Counters and limits.

    /// Number of simplex pivots performed so far (a diagnostic for benchmarks).
    public internal(set) var pivotCount = 0
    /// When not `nil`, every pivot appends its entering and then its leaving symbol, as
    /// ids (`Symbol.id`; `Symbol` is internal, and callers hash the trail as integers).
    /// Two copies of one solver that make the same pivots hold the same coefficients,
    /// whatever their constants (a pivot's arithmetic on coefficients never reads a
    /// constant), which lets a caller recognise a tableau it analysed before. Off
    /// (`nil`) by default.
    public var pivotTrail: [Int]? = nil
    /// Number of row cells read or written so far: by substitutions, by rows merged
    /// into a new constraint's expression and by expansions, plus four per cell put
    /// into the column index (a hash-set insert, the costliest cell operation when rows
    /// fill in) and 100 per constraint added (its fixed cost). A machine-independent
    /// measure of the solver's work; the ambiguity analysis reports its own
    /// (``areDetermined(_:workLimit:work:)``).
    public internal(set) var cellOperations = 0
    /// The most ``cellOperations`` this solver may spend; beyond it the simplex stops
    /// with ``SolverError/workLimitExceeded`` (checked after each pivot). It bounds the
    /// time and memory one hostile system can take from a shared service. Default:
    /// unlimited.
    public var workLimit = Int.max

    // Settings.

    /// Whether a bulk load (``autoSolve`` off) defers a required inequality on a
    /// variable that 16 or more required constraints all bound from the same side,
    /// until that variable matters (an implied-free column, `Solver+Deferral.swift`):
    /// the same optimum, without the pivots that hand such a variable from row to row.
    /// On by default; off only to compare (`layoutd-bench solver FILE --no-deferral`).
    public var defersImpliedFree = true

    /// Whether ``addConstraint(_:)`` re-optimises after every add (default, kiwi's
    /// behaviour). Turn it off to add many constraints and optimise once: the tableau
    /// then holds the required constraints (each still checked when added, so
    /// ``SolverError/unsatisfiableConstraint`` is thrown by the add as usual) while
    /// optional ones are queued; ``solve()`` or ``updateVariables()`` installs the queue
    /// in handle order and optimises once (every other mutating call solves first).
    /// Until then `value(of:)` reads values that satisfy the required constraints in
    /// the tableau only — the same contract as kiwi's `updateVariables` — and a
    /// required inequality deferred on an implied-free variable
    /// (``defersImpliedFree``) is not in it yet. A scene's bulk load is
    /// much cheaper this way: weak wishes on shared variables (equal widths along a
    /// chain) are not re-pivoted through every row after each of n adds (O(n²)).
    public var autoSolve = true

    /// Creates an empty solver.
    public init() {}

    /// About how many bytes the solver's storage holds: 16 per tableau cell and column
    /// entry, about 100 per symbol and constraint for the per-symbol tables (the
    /// objective's vectors among them), the records and the indexes. An estimate for cache limits, not an exact count.
    /// - Complexity: O(symbols).
    public var approximateByteCount: Int {
        var cells = 0
        for row in table.rows { cells += row.cells.count }
        var columnEntries = 0
        for column in table.columns { columnEntries += column.count }
        return 16 * (cells + columnEntries) + 100 * (table.kinds.count + records.count)
    }

    /// Reserves storage for about `variables` variables and `constraints` constraints,
    /// so a bulk load does not grow its per-symbol tables step by step. Only a hint:
    /// any number may be added either way.
    /// - Complexity: O(variables + constraints).
    public mutating func reserveCapacity(variables: Int, constraints: Int) {
        let symbols = max(0, variables) + 2 * max(0, constraints)
        table.reserveCapacity(symbols)
        objective.reserveCapacity(symbols: symbols)
        records.reserveCapacity(max(0, constraints))
        tags.reserveCapacity(max(0, constraints))
        merging.index.reserveCapacity(max(0, constraints), symbols: symbols)
        merging.expandedIndex.reserveCapacity(max(0, constraints), symbols: symbols)
        variableSymbols.reserveCapacity(variables)
        bulkLoad.pending.reserveCapacity(max(0, constraints))
    }

    // MARK: - Constraints

    /// Adds `constraint` and re-optimises (kiwi `addConstraint`).
    ///
    /// - Returns: a new handle; handles are sequential per solver.
    /// - Throws: ``SolverError/nonFiniteInput`` for NaN/∞ coefficients, constant or
    ///   strength; ``SolverError/unsatisfiableConstraint`` when `constraint` is required
    ///   and the required constraints already added exclude it (the solver is then
    ///   unchanged, see ``explainConflict(_:)``).
    /// - Complexity: creating the row is O(Σ length of the rows substituted into it);
    ///   each pivot is O(total length of the rows holding the entering symbol).
    @discardableResult
    public mutating func addConstraint(_ constraint: Constraint) throws(SolverError) -> ConstraintHandle {
        var certificate: [Symbol]? = nil
        return try addConstraint(constraint, certificate: &certificate)
    }

    /// Removes the constraint `handle` and re-optimises (kiwi `removeConstraint`).
    /// - Throws: ``SolverError/unknownConstraint(_:)`` if `handle` is not present.
    public mutating func removeConstraint(_ handle: ConstraintHandle) throws(SolverError) {
        guard handle.isValid, handle.index < records.count, let record = records[handle.index] else {
            throw .unknownConstraint(handle)
        }
        if edits.values.contains(where: { $0.handle == handle }) {
            // Edit constraints are removed through removeEditVariable only.
            throw .unknownConstraint(handle)
        }
        willChange(journaled: false)
        try solvePending()
        // Read again: a queued or deferred constraint got its tag in the install.
        try removeRecord(handle, records[handle.index] ?? record)
    }

    /// Whether `handle` names a constraint currently in this solver.
    public func hasConstraint(_ handle: ConstraintHandle) -> Bool {
        handle.isValid && handle.index < records.count && records[handle.index] != nil
            && !edits.values.contains(where: { $0.handle == handle })
    }

    /// The constraint behind `handle`, if present.
    public func constraint(for handle: ConstraintHandle) -> Constraint? {
        guard handle.isValid, handle.index < records.count else { return nil }
        return records[handle.index]?.constraint
    }

    /// Handles of the constraints present, ascending (edit constraints excluded).
    public var constraintHandles: [ConstraintHandle] {
        let editHandles = Set(edits.values.map(\.handle))
        return records.indices.compactMap { index in
            let handle = ConstraintHandle(rawValue: index)
            return records[index] != nil && !editHandles.contains(handle) ? handle : nil
        }
    }

    // MARK: - Edit variables

    /// Makes `variable` an edit variable: adds `variable == suggested` at `strength`.
    ///
    /// The suggested value starts at the variable's current value (kiwi starts at 0),
    /// so adding an edit variable does not move anything, and the first
    /// ``suggestValue(_:for:)`` is an ordinary dual re-solve from the current optimum —
    /// the window-resize path — instead of a detour through "width 0". Once a value
    /// has been suggested the result is the same as kiwi's.
    /// - Throws: ``SolverError/duplicateEditVariable(_:)``,
    ///   ``SolverError/badRequiredStrength`` for a required strength,
    ///   ``SolverError/nonFiniteInput`` for a NaN or infinite strength.
    public mutating func addEditVariable(_ variable: Variable, strength: Strength) throws(SolverError) {
        guard edits[variable] == nil else { throw .duplicateEditVariable(variable) }
        guard !strength.isRequired else { throw .badRequiredStrength }
        guard strength.value.isFinite else { throw .nonFiniteInput }
        willChange(journaled: false)
        try solvePending()
        let current = value(of: variable)
        var certificate: [Symbol]? = nil
        let handle = try addConstraint(Constraint(Expression(variable) - current, .equal, strength: strength),
                                       certificate: &certificate, isMergeable: false)
        try solvePending()
        guard records[handle.index] != nil else { throw .internalError("edit constraint lost") }
        edits[variable] = EditInfo(handle: handle, tag: tags[handle.index], constant: current)
        willChange(journaled: false, naming: true)
    }

    /// Stops editing `variable` (removes its edit constraint).
    /// - Throws: ``SolverError/unknownEditVariable(_:)``.
    public mutating func removeEditVariable(_ variable: Variable) throws(SolverError) {
        guard let info = edits[variable], let record = records[info.handle.index] else {
            throw .unknownEditVariable(variable)
        }
        willChange(journaled: false)
        edits[variable] = nil
        try solvePending()
        try removeRecord(info.handle, record)
        willChange(journaled: false, naming: true)
    }

    /// Whether `variable` is an edit variable.
    public func hasEditVariable(_ variable: Variable) -> Bool { edits[variable] != nil }

    /// Suggests `value` for the edit variable `variable` and re-solves with the dual
    /// simplex (kiwi `suggestValue`; paper §4.2, the window-resize path).
    /// - Throws: ``SolverError/nonFiniteInput``, ``SolverError/unknownEditVariable(_:)``.
    /// - Complexity: O(rows holding the edit's error symbols) plus the dual pivots.
    public mutating func suggestValue(_ value: Double, for variable: Variable) throws(SolverError) {
        guard value.isFinite else { throw .nonFiniteInput }
        guard var info = edits[variable] else { throw .unknownEditVariable(variable) }
        willChange(journaled: true)
        try solvePending()
        let delta = value - info.constant
        info.constant = value
        edits[variable] = info
        let marker = info.tag.marker
        let other = info.tag.other
        definitions.areValuesStale = true
        if table.isBasic[marker.id] {
            // marker = errplus: errplus = v - value + …, so it falls by delta.
            if journal.isActive { journal.note(row: marker, symbols: table.count) }
            table.rows[marker.id].constant -= delta
            if table.rows[marker.id].constant < 0 { infeasible.push(marker) }
        } else if other.isValid && table.isBasic[other.id] {
            if journal.isActive { journal.note(row: other, symbols: table.count) }
            table.rows[other.id].constant += delta
            if table.rows[other.id].constant < 0 { infeasible.push(other) }
        } else {
            for basic in table.columns[marker.id] {
                if journal.isActive { journal.note(row: basic, symbols: table.count) }
                let coefficient = table.rows[basic.id].coefficient(for: marker)
                table.rows[basic.id].constant += delta * coefficient
                if table.kinds[basic.id] != .external && table.rows[basic.id].constant < 0 { infeasible.push(basic) }
            }
        }
        try dualOptimize()
    }

    /// kiwi's call pattern: runs a pending ``solve()`` (after adds with ``autoSolve``
    /// off) and refreshes the cached values of the definition rows, so every
    /// ``value(of:)`` after it is O(1); an internal error leaves the feasible,
    /// non-optimal values in place.
    /// - Complexity: O(Σ length of the definition rows) when the tableau changed.
    public mutating func updateVariables() {
        try? solve()
    }

    /// Optimises if constraints were added with ``autoSolve`` off, then refreshes the
    /// cached values of the definition rows (as ``updateVariables()``).
    /// - Throws: ``SolverError/internalError(_:)`` if the simplex breaks down.
    public mutating func solve() throws(SolverError) {
        willChange(journaled: true)
        try solvePending()
        refreshDefinitionValues()
    }

    /// ``solve()`` without refreshing the cached values (for calls that change the
    /// tableau again right away).
    mutating func solvePending() throws(SolverError) {
        guard bulkLoad.needsSolve else { return }
        willChange(journaled: false)
        bulkLoad.needsSolve = false
        try installPending()
    }

    /// The current value of `variable` in points (or whatever unit the caller uses);
    /// 0 for a variable the solver never saw or one that is not basic (kiwi's rule).
    /// - Complexity: O(1) after ``solve()`` or ``updateVariables()``; after another
    ///   change, O(the definition rows `variable` depends on) for a definition.
    public func value(of variable: Variable) -> Double {
        guard let symbol = variableSymbols[variable], table.isBasic[symbol.id] else { return 0 }
        guard isDefinition(symbol) else { return table.rows[symbol.id].constant }
        return definitions.areValuesStale ? evaluateDefinition(symbol) : table.definitionValues[symbol.id]
    }
}

// MARK: - Records

/// What the solver keeps per added constraint.
/// A constraint's expression as a tableau row (``Solver/expressionRow(_:direct:)``):
/// `definition` is the fresh external symbol to define, or ``Symbol/invalid`` when `row` is in
/// non-basic symbols; `scale` is the magnitude of the constants combined into it.
struct ExpressionRow: Sendable {
    var row: Row
    var scale: Double
    var definition: Symbol
}

struct ConstraintRecord: Sendable {
    var constraint: Constraint
    /// False for edit constraints: never merged with an identical constraint.
    var isMergeable = true
}

/// The constraint records by handle index, each `nil` once removed: an array of
/// `ConstraintRecord?` in use (subscript, append, iteration), stored as elements of a
/// plain struct. An array of optionals is torn down through the runtime's generic
/// `Optional` witness, about 75 instructions an element; a struct's own witness takes a
/// fraction of that, and a solver is torn down once a new scene.
struct ConstraintRecords: Sendable, RandomAccessCollection {
    private struct Slot: Sendable {
        var record: ConstraintRecord?
    }
    private var slots: [Slot] = []

    var startIndex: Int { 0 }
    var endIndex: Int { slots.count }

    /// Read and written in place, as an array's element is (no copy of the record).
    subscript(index: Int) -> ConstraintRecord? {
        _read { yield slots[index].record }
        _modify { yield &slots[index].record }
    }

    mutating func append(_ record: ConstraintRecord?) { slots.append(Slot(record: record)) }

    mutating func reserveCapacity(_ count: Int) { slots.reserveCapacity(count) }
}


/// The state of definition rows (`Solver+Definitions.swift`); the per-symbol part
/// (ranks, alias flags, cached values) is in ``SymbolTable``.
struct Definitions: Sendable {
    /// Definition symbols in the order their rows were installed.
    var order: [Symbol] = []
    /// Whether the tableau changed since the cached values
    /// (``SymbolTable/definitionValues``) were last computed.
    var areValuesStale = false
}

/// The indexes that merge identical constraints (`ConstraintMerging.swift`).
struct Merging: Sendable {
    /// The first constraint of each identity; lookups only, never
    /// iterated.
    var index = MergeIndex()
    /// The first optional constraint of each expression as written in the non-basic
    /// symbols of its time (see `insertOrMerge`); lookups only.
    var expandedIndex = MergeIndex()
    /// How many constraints were merged into an earlier identical one.
    var mergedCount = 0
}

/// The queue of a bulk load (``Solver/autoSolve`` off) and how `installPending`
/// installs it (`Solver+BulkInstall.swift`).
struct BulkLoad: Sendable {
    /// Handles of optional constraints queued while ``Solver/autoSolve`` is off.
    var pending: [ConstraintHandle] = []
    /// Whether constraints were added without re-optimising.
    var needsSolve = false
    /// Whether a bulk load is installed part by part; off, the whole queue goes in
    /// plain level order. Settable for tests.
    var installsByPart = true
    /// The shortest queue whose parts a bulk load interleaves with its largest part's
    /// install (`PartTracker.weave`); below it the parts go one after another. A tuning
    /// constant: a queue of mixed-1000's size (5,400 constraints) stays in cache and
    /// gains nothing from weaving, one of mixed-10000's (54,000) does. Settable for tests.
    var weaveMinimum = 1 << 15
    /// Number of parts the last bulk load was installed in (0 for plain level order); a
    /// diagnostic for tests.
    var lastPartCount = 0
    /// Number of parts the last bulk load wove into its largest part's install; a
    /// diagnostic for tests.
    var lastWovenPartCount = 0
}

/// Required inequalities deferred on implied-free variables (`Solver+Deferral.swift`);
/// the per-symbol part (hub directions, pushes) is in ``SymbolTable``.
struct Deferrals: Sendable {
    /// Each hub's deferred constraints (ascending); lookups only.
    var byHub: [Symbol: [ConstraintHandle]] = [:]
    /// Hubs in the order they were made (some may have been installed since).
    var hubOrder: [Symbol] = []
    /// Number of deferred constraints not yet installed.
    var count = 0
}

/// Scratch space the solver keeps between calls.
struct Buffers: Sendable {
    /// For expanding rows in definitions (`Solver+Definitions.swift`).
    var expander = Expander()
    /// For `Solver.substitute(_:with:)`.
    var substitution = SubstitutionScratch()
}

/// The scratch arrays of `Solver.substitute(_:with:)`: the symbols a row gained and
/// lost, and a cell buffer that each merge writes and then swaps with the row.
struct SubstitutionScratch: Sendable {
    var added: [Symbol] = []
    var removed: [Symbol] = []
    var buffer: [Cell] = []
}

/// An edit variable's constraint and current suggested value (kiwi `EditInfo`).
struct EditInfo: Sendable {
    var handle: ConstraintHandle
    var tag: Tag
    var constant: Double
}

/// A binary min-heap of symbols (the dual simplex's infeasible rows, lowest id first).
struct MinHeap: Sendable {
    private var items: [Symbol] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func push(_ value: Symbol) {
        items.append(value)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if items[parent] <= items[child] { break }
            items.swapAt(parent, child)
            child = parent
        }
    }

    mutating func popMin() -> Symbol? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items[0] = last
        var parent = 0
        let count = items.count
        while true {
            let left = 2 * parent + 1
            if left >= count { break }
            let right = left + 1
            let child = right < count && items[right] < items[left] ? right : left
            if items[parent] <= items[child] { break }
            items.swapAt(parent, child)
            parent = child
        }
        return top
    }

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }
}
