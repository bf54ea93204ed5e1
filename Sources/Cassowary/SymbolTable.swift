/// The solver's per-symbol tables, indexed by ``Symbol/id``: one array per attribute
/// (a struct of arrays), all of the same length, grown together by ``append(_:)``.
///
/// Arrays rather than one array of per-symbol records: a pivot's inner loops read one
/// attribute of many symbols (the kinds of a row's symbols, the rows of a column's
/// holders), and a dense array of that attribute keeps those reads in few cache lines;
/// rows and column sets are edited in place through Array's own subscript
/// (`table.rows[symbol.id].add(...)`).
struct SymbolTable: Sendable {
    // The tableau.

    /// Kind of each symbol.
    var kinds: [SymbolKind] = []
    /// Row of each basic symbol (`symbol = row`); empty for non-basic symbols.
    var rows: [Row] = []
    /// Whether the symbol is basic.
    var isBasic: [Bool] = []
    /// Column index: the basic symbols whose rows contain this symbol. Only ever used
    /// for independent per-row updates or for choices with an explicit tie-break.
    var columns: [SymbolSet] = []
    /// Symbols tied by rows: two symbols in different sets never meet in a row, so
    /// pivots among one set's symbols never touch another's (see `PartTracker`). Sets
    /// only ever merge, so they may be coarser than the tableau of the moment, never finer.
    var links = DisjointSets(count: 0)
    /// Whether the symbol is basic with a constant row (see `Solver.link`); read instead
    /// of the row, whose first touch is a cache miss in a large tableau.
    var isPinned: [Bool] = []

    // The constraints behind the symbols.

    /// The constraint owning this marker or error symbol, or ``ConstraintHandle/invalid``
    /// (external symbols, artificial variables, symbols of a merged duplicate).
    var owners: [ConstraintHandle] = []

    // Definition rows (`Solver+Definitions.swift`).

    /// Each symbol's ``DefinitionMark``: the rank of its definition row and whether that
    /// row is an alias, in one record, so a new symbol grows one table for both.
    var definition: [DefinitionMark] = []
    /// Cached value of the symbol's definition row; valid unless
    /// ``Definitions/areValuesStale``.
    var definitionValues: [Double] = []

    // Deferral of required inequalities on implied-free variables (`Solver+Deferral.swift`).

    /// Each symbol's ``DeferralMark``: its hub direction and pushes in one record, so a new
    /// symbol grows one table for both (both are read and written together by the deferral).
    var deferral: [DeferralMark] = []

    /// Number of symbols.
    var count: Int { kinds.count }

    /// Appends a symbol of `kind` (the next id) with every attribute at its initial
    /// value: non-basic with an empty row and column, in a set of its own, owned by no
    /// constraint, no definition, no pushes. Returns it.
    /// - Complexity: amortised O(1).
    @inline(__always)
    mutating func append(_ kind: SymbolKind) -> Symbol {
        let symbol = Symbol(kinds.count)
        kinds.append(kind)
        rows.append(Row())
        isBasic.append(false)
        columns.append(SymbolSet())
        _ = links.add()
        isPinned.append(false)
        owners.append(.invalid)
        definition.append(DefinitionMark())
        definitionValues.append(0)
        deferral.append(DeferralMark())
        return symbol
    }

    /// Makes room for `count` symbols in every table without regrowing.
    /// - Complexity: O(count).
    mutating func reserveCapacity(_ count: Int) {
        kinds.reserveCapacity(count)
        rows.reserveCapacity(count)
        isBasic.reserveCapacity(count)
        columns.reserveCapacity(count)
        links.reserveCapacity(count)
        isPinned.reserveCapacity(count)
        owners.reserveCapacity(count)
        definition.reserveCapacity(count)
        definitionValues.reserveCapacity(count)
        deferral.reserveCapacity(count)
    }
}

/// A symbol's part in the deferral of required inequalities on implied-free variables
/// (`Solver+Deferral.swift`), one record per symbol in ``SymbolTable/deferral``.
struct DeferralMark: Sendable, Equatable {
    /// How many required constraints named the variable, all pushing it up (> 0) or all
    /// down (< 0); `Int32.min` once one pushed it the other way, was an equality, named
    /// it twice or named it beside a deferred constraint's hub.
    var pushes: Int32 = 0
    /// A hub's direction (+1: its deferred constraints let it rise, -1: fall), else 0.
    var hubDirection: Int8 = 0
}

/// A symbol's definition row (`Solver+Definitions.swift`), one record per symbol in
/// ``SymbolTable/definition``.
struct DefinitionMark: Sendable, Equatable {
    /// Rank of the symbol's definition row in ``Definitions/order``, or -1 when the
    /// symbol has none.
    var rank: Int {
        get { Int(storedRank) }
        set { storedRank = Int32(truncatingIfNeeded: newValue) }
    }
    /// ``rank`` in 32 bits: with ``isAlias`` a record of 8 bytes (the solver's 2³¹-symbol
    /// bound, as in ``SymbolSet``).
    private var storedRank: Int32 = -1
    /// Whether the symbol's definition row is an alias `symbol = k + c·t` with `t`
    /// external (see `Solver.isAlias(_:)`): set when the definition is installed (its
    /// row never changes afterwards), so a merge key resolving the symbols of a
    /// constraint reads this record instead of their rows, whose first touch is a
    /// cache miss in a large tableau.
    var isAlias = false
}
