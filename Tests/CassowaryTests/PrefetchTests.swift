import Testing
@testable import Cassowary

/// The prefetch of the bulk load (`Prefetch.swift`) reads an array's storage reference
/// as bits; these tests pin that reading down, so a toolchain that laid arrays out
/// otherwise would fail here instead of silently prefetching the wrong lines.
struct PrefetchTests {
    /// The bits of a key's cell array, read at ``Solver/keyCellsOffset``, are the
    /// address of its storage, whose elements follow a 32-byte header.
    @Test func theStorageBitsAreTheArraysAddress() throws {
        let row = Row(unsortedCells: [Cell(symbol: Symbol(7), coefficient: 2), Cell(symbol: Symbol(3), coefficient: -1)], constant: 5)
        let keys = [MergeKey(strength: 1, relation: .equal, row: row),
                    MergeKey(strength: 2, relation: .lessThanOrEqual, row: Row(unsortedCells: [Cell(symbol: Symbol(1), coefficient: 1)], constant: 0))]
        #expect(Solver.keyCellsOffset >= 0)
        for key in keys.indices {
            let bits = keys.withUnsafeBufferPointer { stored in
                (UnsafeRawPointer(stored.baseAddress! + key) + Solver.keyCellsOffset).load(as: UInt.self)
            }
            let elements = keys[key].row.cells.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            #expect(bits != 0)
            #expect(bits + 32 == elements)
        }
        // A prefetch changes nothing, whatever it is given.
        keys.withUnsafeBufferPointer { stored in
            prefetchStorage(ofArrayAt: UnsafeRawPointer(stored.baseAddress!) + Solver.keyCellsOffset)
            prefetch(UnsafeRawPointer(bitPattern: 0x10)!)
        }
        #expect(keys[0].row.cells.map(\.symbol.id) == [3, 7])
    }

    /// Prefetching past either end of the queue, for a key index past the keys, or from
    /// a negative position, is skipped: a bulk load far shorter than the prefetch
    /// distance installs normally.
    @Test func aShortQueueInstallsNormally() throws {
        var solver = Solver()
        solver.autoSolve = false
        let x = Variable(id: 0), y = Variable(id: 1)
        try solver.addConstraint(ge(e(x), 10))
        try solver.addConstraint(eq(e(x), 20, Strength(5)))
        try solver.addConstraint(eq(e(y) - e(x), 4, Strength(5)))
        try solver.solve()
        #expect(solver.value(of: x) == 20)
        #expect(solver.value(of: y) == 24)
        let key = MergeKey(strength: 1, relation: .equal, row: Row(unsortedCells: [Cell(symbol: Symbol(1), coefficient: 1)], constant: 0))
        let entry = PendingInstall(handle: ConstraintHandle(rawValue: 0), strength: 1, key: 0, representative: .invalid)
        Solver.prefetchKeys([], [], at: 0)
        Solver.prefetchKeys([entry], [key], at: -8)      // would reach entry 0 with a negative base
        Solver.prefetchKeys([entry], [key], at: -16)
        Solver.prefetchKeys([entry], [key], at: -9)
        Solver.prefetchKeys([PendingInstall(handle: ConstraintHandle(rawValue: 0), strength: 1, key: 5, representative: .invalid)], [key], at: -8)
        Solver.prefetchKeys([entry], [key], at: 0)
    }
}
