/// The objective: one row per distinct non-required strength (the paper's symbolic
/// weights, Badros, Borning & Stuckey 2001, §2.2), stored by column — each symbol's
/// reduced-cost vector, the list of its nonzero coefficients in the levels.
///
/// Why by column: a scene may use many strength levels (the benchmark's mixed family
/// has 29), and a dense row per level costs O(levels × symbols) memory (46 MB for
/// 10,000 views, more than this machine's L3 cache), while a symbol's vector
/// usually has one or two entries. The simplex asks per symbol (is its vector
/// lexicographically negative? what is its leading entry?), which is now one lookup
/// instead of one per level. Symbols whose vector may have changed its leading sign
/// are logged in ``changed`` so the solver can keep its set of entering candidates
/// current without scanning the objective.
///
/// Levels are numbered in creation order (a level's number never changes); ``rank(of:)``
/// orders them strongest first. Nothing iterates a vector to choose anything: every
/// choice made from one takes the entry of least rank.
struct Objective: Sendable {
    /// One nonzero entry of a reduced-cost vector.
    struct Entry: Sendable {
        var level: Int32
        var coefficient: Double
    }

    /// A reduced-cost vector: its first entry inline, the rest (rare) in `more`.
    struct Vector: Sendable {
        var first = Entry(level: -1, coefficient: 0)
        var more: [Entry]? = nil

        var isEmpty: Bool { first.level < 0 }
    }

    /// Rank of each level (0 = strongest), by level number.
    private var ranks: [Int32] = []
    /// The strengths in descending order, and the level number of each.
    private var strengthsByRank: [Double] = []
    private var levelsByRank: [Int32] = []
    /// The constant of each level's row, by level number.
    private(set) var constants: [Double] = []
    /// Reduced-cost vectors by symbol id (shorter than the symbol count: the rest empty).
    private var vectors: [Vector] = []
    /// Symbols whose vector changed a sign or became (non)zero since the solver last
    /// refreshed its set of lexicographically negative symbols.
    var changed: [Symbol] = []

    /// Number of levels.
    var levelCount: Int { ranks.count }

    /// Exchanges the reduced-cost vectors with `other` (``Solver/restore(from:)`` takes
    /// them out before the objective is replaced, and gives them back restored).
    mutating func swapVectors(_ other: inout [Vector]) { swap(&vectors, &other) }

    /// Makes `mine` (vectors taken out of another objective) equal to this objective's
    /// vectors, in its own buffer (``Solver/restore(from:)``).
    func restoreVectors(_ mine: inout [Vector]) {
        mine.restoreElements(from: vectors) { vector, theirs in vector = theirs }
    }

    /// Makes the vectors of the symbols `~id` of the negative `entries` (a
    /// ``RestoreJournal``'s), the level constants and the change log equal to `base`'s, in
    /// this objective's own buffers; every vector when the counts differ
    /// (``Solver/restoreJournaled(from:)``: the rest is `base`'s already).
    mutating func restore(vectorsOf entries: [Int32], levelsFrom base: Objective) {
        if vectors.count == base.vectors.count {
            // Most listed symbols have equal vectors (no cost, or one the pivot did not
            // change): compared first, so that those are not assigned (a retain and a
            // release each).
            vectors.withUnsafeMutableBufferPointer { mine in
                base.vectors.withUnsafeBufferPointer { theirs in
                    for id in entries where id < 0 && Int(~id) < mine.count {
                        let index = Int(~id)
                        let left = mine[index], right = theirs[index]
                        if left.first.level == right.first.level && left.first.coefficient.bitPattern == right.first.coefficient.bitPattern
                            && left.more == nil && right.more == nil { continue }
                        mine[index] = right
                    }
                }
            }
        } else {
            vectors.restoreElements(from: base.vectors) { vector, theirs in vector = theirs }
        }
        Solver.restore(&constants, from: base.constants)
        if !(changed.isEmpty && base.changed.isEmpty) {
            changed.removeAll(keepingCapacity: true)
            changed.append(contentsOf: base.changed)
        }
    }

    /// Rank of `level` (0 = strongest).
    @inline(__always)
    func rank(of level: Int) -> Int { Int(ranks[level]) }

    /// Reserves vectors for `symbols` symbols, and room for ``levelRoom`` levels.
    mutating func reserveCapacity(symbols: Int) {
        vectors.reserveCapacity(symbols)
        ranks.reserveCapacity(Self.levelRoom)
        strengthsByRank.reserveCapacity(Self.levelRoom)
        levelsByRank.reserveCapacity(Self.levelRoom)
        constants.reserveCapacity(Self.levelRoom)
    }

    /// The levels ``reserveCapacity(symbols:)`` makes room for: a scene has a few
    /// priorities, and its level tables then grow once instead of step by step.
    static let levelRoom = 16

    /// The level of `strength`, created (empty) if new.
    /// - Complexity: O(log levels) to find; O(levels) to create.
    mutating func level(for strength: Double) -> Int {
        var low = 0
        var high = strengthsByRank.count
        while low < high {
            let mid = (low + high) / 2
            if strengthsByRank[mid] > strength { low = mid + 1 } else { high = mid }
        }
        if low < strengthsByRank.count && strengthsByRank[low] == strength { return Int(levelsByRank[low]) }
        let level = ranks.count
        for index in ranks.indices where ranks[index] >= low { ranks[index] += 1 }
        ranks.append(Int32(low))
        constants.append(0)
        strengthsByRank.insert(strength, at: low)
        levelsByRank.insert(Int32(level), at: low)
        return level
    }

    /// Whether `symbol` has a nonzero coefficient in some level.
    @inline(__always)
    func hasCost(_ symbol: Symbol) -> Bool {
        symbol.id < vectors.count && !vectors[symbol.id].isEmpty
    }

    /// The coefficient of `symbol` in `level`, 0 if none.
    @inline(__always)
    func coefficient(of symbol: Symbol, level: Int) -> Double {
        guard symbol.id < vectors.count else { return 0 }
        let vector = vectors[symbol.id]
        if vector.first.level == Int32(truncatingIfNeeded: level) { return vector.first.coefficient }
        if let more = vector.more {
            for entry in more where entry.level == Int32(truncatingIfNeeded: level) { return entry.coefficient }
        }
        return 0
    }

    /// The entry of least rank (strongest level) of `symbol`'s vector: its rank and
    /// coefficient, or nil for a zero vector.
    @inline(__always)
    func leading(_ symbol: Symbol) -> (rank: Int, coefficient: Double)? {
        guard symbol.id < vectors.count else { return nil }
        let vector = vectors[symbol.id]
        guard !vector.isEmpty else { return nil }
        var best = (rank: rank(of: Int(vector.first.level)), coefficient: vector.first.coefficient)
        if let more = vector.more {
            for entry in more where rank(of: Int(entry.level)) < best.rank {
                best = (rank(of: Int(entry.level)), entry.coefficient)
            }
        }
        return best
    }

    /// Calls `body` with each level where `symbol` has a nonzero coefficient (order
    /// unspecified: callers choose by rank).
    @inline(__always)
    func forEachLevel(of symbol: Symbol, _ body: (Int) -> Void) {
        guard symbol.id < vectors.count, !vectors[symbol.id].isEmpty else { return }
        body(Int(vectors[symbol.id].first.level))
        if let more = vectors[symbol.id].more {
            for entry in more { body(Int(entry.level)) }
        }
    }

    /// Adds `delta` to the coefficient of `symbol` in `level`; a sum that cancels
    /// (``Tolerance``) becomes exactly 0 and leaves the vector.
    mutating func add(_ symbol: Symbol, level: Int, _ delta: Double) {
        if symbol.id >= vectors.count {
            // Usually the next symbol (a new error): one plain append, not a generic
            // append(contentsOf:) of a repeated element.
            if symbol.id == vectors.count {
                vectors.append(Vector())
            } else {
                vectors.append(contentsOf: repeatElement(Vector(), count: symbol.id + 1 - vectors.count))
            }
        }
        let tag = Int32(truncatingIfNeeded: level)
        if vectors[symbol.id].first.level == tag {
            let old = vectors[symbol.id].first.coefficient
            let sum = Self.sum(old, delta)
            if sum == 0 {
                if var more = vectors[symbol.id].more, !more.isEmpty {
                    vectors[symbol.id].first = more.removeLast()
                    vectors[symbol.id].more = more.isEmpty ? nil : more
                } else {
                    vectors[symbol.id].first = Entry(level: -1, coefficient: 0)
                }
            } else {
                vectors[symbol.id].first.coefficient = sum
            }
            log(symbol, old, sum)
            return
        }
        if vectors[symbol.id].more != nil, let index = vectors[symbol.id].more!.firstIndex(where: { $0.level == tag }) {
            let old = vectors[symbol.id].more![index].coefficient
            let sum = Self.sum(old, delta)
            if sum == 0 {
                vectors[symbol.id].more!.remove(at: index)
                if vectors[symbol.id].more!.isEmpty { vectors[symbol.id].more = nil }
            } else {
                vectors[symbol.id].more![index].coefficient = sum
            }
            log(symbol, old, sum)
            return
        }
        let sum = Self.sum(0, delta)
        guard sum != 0 else { return }
        if vectors[symbol.id].isEmpty {
            vectors[symbol.id].first = Entry(level: tag, coefficient: sum)
        } else if vectors[symbol.id].more == nil {
            vectors[symbol.id].more = [Entry(level: tag, coefficient: sum)]
        } else {
            vectors[symbol.id].more!.append(Entry(level: tag, coefficient: sum))
        }
        changed.append(symbol)
    }

    /// `level += factor · row`.
    mutating func add(_ row: Row, times factor: Double, level: Int) {
        constants[level] += factor * row.constant
        for cell in row.cells { add(cell.symbol, level: level, factor * cell.coefficient) }
    }

    /// Sets `symbol`'s coefficient to 0 in every level.
    mutating func remove(_ symbol: Symbol) {
        guard symbol.id < vectors.count, !vectors[symbol.id].isEmpty else { return }
        vectors[symbol.id] = Vector()
        changed.append(symbol)
    }

    /// Replaces `symbol` by `row` (`symbol = row`) in every level.
    /// - Returns: the number of levels that held `symbol`.
    /// - Complexity: O(entries of `symbol` × length of `row`).
    @discardableResult
    mutating func substitute(_ symbol: Symbol, with row: Row) -> Int {
        guard symbol.id < vectors.count, !vectors[symbol.id].isEmpty else { return 0 }
        let vector = vectors[symbol.id]
        remove(symbol)
        add(row, times: vector.first.coefficient, level: Int(vector.first.level))
        guard let more = vector.more else { return 1 }
        for entry in more { add(row, times: entry.coefficient, level: Int(entry.level)) }
        return 1 + more.count
    }

    /// `old + delta`, or exactly 0 when it is rounding: within ``Tolerance`` of the
    /// operands, or of ``unitScale``. Errors weigh 1 each, so a reduced cost is a sum of
    /// products of tableau coefficients; one left from cancellation (−8.6e-18 in
    /// `ReducedCostRoundingTests`) entered a symbol whose only blocking row held rounding too
    /// (−6e-17), the pivot divided the tableau by it and broke required constraints,
    /// and a positive one in a strong level hid a negative entry below it. With the
    /// scale a thousandth of an error's weight, entries under 1e-12 are dropped; a
    /// genuine one from a 1e-9 multiplier stays.
    @inline(__always)
    private static func sum(_ old: Double, _ delta: Double) -> Double {
        let sum = old + delta
        return Tolerance.isNearZero(sum, scale: max(abs(old), abs(delta), unitScale)) ? 0 : sum
    }

    /// The least scale reduced costs are compared with (see `sum`).
    static let unitScale = 1e-3

    @inline(__always)
    private mutating func log(_ symbol: Symbol, _ old: Double, _ sum: Double) {
        if (old < 0) != (sum < 0) || (old == 0) != (sum == 0) { changed.append(symbol) }
    }
}
