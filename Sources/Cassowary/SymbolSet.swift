/// A set of symbols (``Symbol/isValid``) for the column index: open addressing with linear
/// probing and backward-shift deletion, hashed by a fixed Fibonacci multiplier.
///
/// `Set<Int>` hashes with a per-process random seed (SipHash), which costs more than
/// the row arithmetic in a pivot. This set has a fixed hash, so its iteration order is
/// even reproducible — but the solver still never lets that order choose anything
/// (every selection over a column has an explicit lowest-id tie-break).
///
/// Most columns hold a few rows, so up to four members live inline (no allocation);
/// the slot array is made on the fifth (`BulkAndRemovalTests.symbolSetInlineMembers`).
/// Members are stored as 32-bit ids (a solver with 2³¹ symbols would need hundreds of
/// gigabytes): half the memory of a large column, which a pivot on a widely held
/// symbol walks and rewrites.
/// - Precondition: member ids are below 2³¹.
struct SymbolSet: Sendable, Sequence {
    private var slots: [Int32] = []    // -1 = empty; count is a power of two or 0
    private var first: Int32 = -1      // inline members while `slots` is empty,
    private var second: Int32 = -1     // packed to the front (-1 = none)
    private var third: Int32 = -1
    private var fourth: Int32 = -1
    private var storedCount: Int32 = 0

    init() {}

    /// Makes this set equal to `base`, copying its slots into this set's own buffer when
    /// both have as many (``Solver/restore(from:)``).
    @inline(__always)
    mutating func restore(from base: SymbolSet) {
        first = base.first
        second = base.second
        third = base.third
        fourth = base.fourth
        storedCount = base.storedCount
        guard slots.count == base.slots.count, !slots.isEmpty else {
            slots = base.slots
            return
        }
        // The same buffer: nothing to copy (and asking for mutable access would copy it).
        if slots.withUnsafeBufferPointer({ mine in base.slots.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress } }) { return }
        slots.withUnsafeMutableBufferPointer { mine in
            base.slots.withUnsafeBufferPointer { theirs in
                for index in 0..<mine.count { mine[index] = theirs[index] }
            }
        }
    }

    var count: Int { Int(storedCount) }
    var isEmpty: Bool { storedCount == 0 }

    @inline(__always)
    private static func home(_ value: Int32, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: Int(value)) &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
    }

    mutating func insert(_ member: Symbol) {
        let value = Int32(truncatingIfNeeded: member.id)
        if slots.isEmpty {
            if first == value || second == value || third == value || fourth == value { return }
            switch storedCount {
            case 0: first = value; storedCount = 1; return
            case 1: second = value; storedCount = 2; return
            case 2: third = value; storedCount = 3; return
            case 3: fourth = value; storedCount = 4; return
            default: break
            }
        }
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        var index = Self.home(value, mask)
        while slots[index] != -1 {
            if slots[index] == value { return }
            index = (index + 1) & mask
        }
        slots[index] = value
        storedCount += 1
    }

    mutating func remove(_ member: Symbol) {
        let value = Int32(truncatingIfNeeded: member.id)
        guard storedCount > 0 else { return }
        if slots.isEmpty {
            // Keep the members packed: the last one fills the hole.
            let last: Int32
            switch storedCount {
            case 1: last = first
            case 2: last = second
            case 3: last = third
            default: last = fourth
            }
            if first == value { first = last } else if second == value { second = last }
            else if third == value { third = last } else if fourth != value { return }
            switch storedCount {
            case 1: first = -1
            case 2: second = -1
            case 3: third = -1
            default: fourth = -1
            }
            storedCount -= 1
            return
        }
        let mask = slots.count - 1
        var index = Self.home(value, mask)
        while slots[index] != value {
            if slots[index] == -1 { return }
            index = (index + 1) & mask
        }
        // Backward-shift deletion: move later members of the probe run into the hole.
        var hole = index
        var next = (index + 1) & mask
        while slots[next] != -1 {
            let home = Self.home(slots[next], mask)
            // Move if `home` is not cyclically within (hole, next].
            let inRange = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !inRange {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = -1
        storedCount -= 1
    }

    func contains(_ member: Symbol) -> Bool {
        let value = Int32(truncatingIfNeeded: member.id)
        guard storedCount > 0 else { return false }
        if slots.isEmpty { return first == value || second == value || third == value || fourth == value }
        let mask = slots.count - 1
        var index = Self.home(value, mask)
        while slots[index] != -1 {
            if slots[index] == value { return true }
            index = (index + 1) & mask
        }
        return false
    }

    private mutating func grow() {
        let capacity = Swift.max(8, slots.count * 2)
        if slots.isEmpty {
            // The inline members move into the slots (no temporary array: columns
            // reach three members hundreds of thousands of times in a large load),
            // placed directly: they are distinct and the new slots have room.
            let inline = (first, second, third, fourth)
            (first, second, third, fourth) = (-1, -1, -1, -1)
            slots = Self.emptySlots(capacity)
            slots.withUnsafeMutableBufferPointer { table in
                let mask = capacity - 1
                if inline.0 != -1 { Self.place(inline.0, in: table, mask: mask) }
                if inline.1 != -1 { Self.place(inline.1, in: table, mask: mask) }
                if inline.2 != -1 { Self.place(inline.2, in: table, mask: mask) }
                if inline.3 != -1 { Self.place(inline.3, in: table, mask: mask) }
            }
            return
        }
        let old = slots
        slots = Self.emptySlots(capacity)
        slots.withUnsafeMutableBufferPointer { table in
            let mask = capacity - 1
            for value in old where value != -1 { Self.place(value, in: table, mask: mask) }
        }
    }

    /// `count` empty slots. A few are reserved and appended: `Array(repeating:count:)`
    /// allocates through the generic runtime, which looks the storage type up on each
    /// call (hundreds of instructions, more than a column's first slots cost to fill);
    /// many are filled by it.
    @inline(__always)
    private static func emptySlots(_ count: Int) -> [Int32] {
        guard count <= 64 else { return Array(repeating: -1, count: count) }
        var slots: [Int32] = []
        slots.reserveCapacity(count)
        for _ in 0..<count { slots.append(-1) }
        return slots
    }

    /// Puts `value` (not in `table`) into the first free slot of its probe sequence.
    @inline(__always)
    private static func place(_ value: Int32, in table: UnsafeMutableBufferPointer<Int32>, mask: Int) {
        var index = home(value, mask)
        while table[index] != -1 { index = (index + 1) & mask }
        table[index] = value
    }

    struct Iterator: IteratorProtocol {
        let slots: [Int32]
        var inline: (Int32, Int32, Int32, Int32)
        var index = 0
        mutating func next() -> Symbol? {
            if inline.0 != -1 {
                let value = inline.0
                inline = (inline.1, inline.2, inline.3, -1)
                return Symbol(Int(value))
            }
            while index < slots.count {
                let value = slots[index]
                index += 1
                if value != -1 { return Symbol(Int(value)) }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(slots: slots, inline: (first, second, third, fourth)) }
}

/// Disjoint sets of the integers `0..<count`: union–find with path halving, each root
/// the smallest member of its set (so the sets, not the order of unions, decide every
/// representative). Path halving: Tarjan & van Leeuwen, "Worst-case analysis of set
/// union algorithms", JACM 31(2), 1984. `find` is O(log n) amortised.
struct DisjointSets {
    private var parent: [Int32]

    init(count: Int) {
        parent = (0..<count).map { Int32(truncatingIfNeeded: $0) }
    }

    /// Number of elements.
    var count: Int { parent.count }

    /// Makes room for `count` elements without regrowing.
    mutating func reserveCapacity(_ count: Int) { parent.reserveCapacity(count) }

    /// Adds a singleton set and returns its element.
    mutating func add() -> Int {
        parent.append(Int32(truncatingIfNeeded: parent.count))
        return parent.count - 1
    }

    /// The representative (smallest member) of `element`'s set.
    mutating func find(_ element: Int) -> Int {
        var x = element
        while Int(parent[x]) != x {
            let grandparent = parent[Int(parent[x])]
            parent[x] = grandparent
            x = Int(grandparent)
        }
        return x
    }

    /// Joins the sets of `a` and `b`.
    mutating func union(_ a: Int, _ b: Int) {
        let ra = find(a), rb = find(b)
        if ra < rb { parent[rb] = Int32(truncatingIfNeeded: ra) } else if rb < ra { parent[ra] = Int32(truncatingIfNeeded: rb) }
    }
}
