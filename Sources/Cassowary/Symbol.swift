/// The kind of a tableau symbol (Cassowary paper §3; kiwi `symbol.h`).
enum SymbolKind: UInt8, Sendable {
    /// A user variable: unrestricted in sign.
    case external
    /// The slack of an inequality (≥ 0); also the artificial variable.
    case slack
    /// An error variable of a non-required constraint (≥ 0), weighted in the objective.
    case error
    /// The marker of a required equality: fixed at 0, never enters the basis.
    case dummy

    /// Whether the symbol is restricted to be ≥ 0 (slack or error).
    @inline(__always) var isRestricted: Bool { self == .slack || self == .error }
}

/// A tableau symbol (kiwi `Symbol`): the index of its entry in the solver's
/// per-symbol tables (``SymbolTable``, the objective's vectors), or
/// ``invalid`` for "no symbol".
///
/// Symbols are numbered from 0 in the order the solver makes them, and every choice
/// among symbols ends in the lowest id (`<`), which is what keeps the solver
/// deterministic. A wrapper of one `Int`: the same size and layout as the id, so a
/// row's cell stays 16 bytes and comparisons compile to integer compares
/// (`SymbolTests.aSymbolIsItsId`). The per-symbol tables are plain arrays indexed by
/// `id` (`table.rows[symbol.id]`), Array's own subscript, which a pivot's row edits go
/// through in place.
struct Symbol: Hashable, Comparable, Sendable {
    /// The index in the per-symbol tables; ≥ 0 for a symbol, -1 for ``invalid``.
    var id: Int

    /// The symbol with index `id`.
    @inline(__always) init(_ id: Int) { self.id = id }

    /// "No symbol": the `other` marker of a constraint that has one marker, the
    /// symbol of a variable or row that has none.
    static let invalid = Symbol(-1)

    /// Whether this is a symbol, not ``invalid``.
    @inline(__always) var isValid: Bool { id >= 0 }

    /// Creation order (ids ascending): the tie-break of every choice among symbols.
    @inline(__always) static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.id < rhs.id }
}

/// The marker symbols a constraint owns in the tableau (kiwi `Tag`).
///
/// `marker` is the slack (inequality), dummy (required equality) or positive error
/// variable (optional equality); `other` is the error variable of an optional
/// inequality or the negative error of an optional equality, or ``Symbol/invalid``.
struct Tag: Sendable {
    var marker: Symbol
    var other: Symbol
    /// A required equality whose row reduced to `0 = 0`: implied by earlier ones.
    var isRedundant = false
}

extension Array where Element == Symbol {
    /// `removeAll(keepingCapacity: true)` for the symbol lists emptied in a pivot's inner
    /// loop (a change log, the symbols a row gained or lost), which are mostly empty or
    /// hold one or two: nothing to do when empty, element by element up to
    /// ``removeOneByOneLimit``; `removeAll(keepingCapacity:)` goes through the library's
    /// generic `replaceSubrange`, which costs more than that.
    @inline(__always)
    mutating func removeAllKeepingBuffer() {
        if isEmpty { return }
        if count <= Self.removeOneByOneLimit {
            while !isEmpty { removeLast() }
        } else {
            removeAll(keepingCapacity: true)
        }
    }

    /// The longest list ``removeAllKeepingBuffer()`` empties element by element.
    static var removeOneByOneLimit: Int { 2 }
}

extension UnsafeMutableBufferPointer {
    /// Sorts the elements in place by `symbol`, ascending, by insertion: stable, no
    /// allocation and no set-up, so cheaper than the library's sort for the few terms of a
    /// constraint or an expansion (``Row/init(unsortedCells:constant:)`` sorts at most 16
    /// this way, ``Expander`` at most its list limit).
    /// - Complexity: O(n²) comparisons and moves, O(n) when already sorted.
    @inline(__always)
    func insertionSort(bySymbol symbol: (Element) -> Symbol) {
        guard count > 1 else { return }
        for i in 1..<count {
            let element = self[i]
            let key = symbol(element)
            var j = i
            while j > 0 && symbol(self[j - 1]) > key {
                self[j] = self[j - 1]
                j -= 1
            }
            self[j] = element
        }
    }
}
