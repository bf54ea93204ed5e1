import Testing
@testable import Cassowary

/// The objective stored by column (`Objective.swift`) on its own.
struct ObjectiveTests {
    @Test func levelsAreRankedByStrengthWhateverTheOrderTheyCome() {
        var objective = Objective()
        let weak = objective.level(for: 1)
        let strong = objective.level(for: 1_000_000)
        let medium = objective.level(for: 1_000)
        #expect([weak, strong, medium] == [0, 1, 2])
        #expect(objective.level(for: 1_000) == medium)
        #expect([objective.rank(of: strong), objective.rank(of: medium), objective.rank(of: weak)] == [0, 1, 2])
        #expect(objective.levelCount == 3)
    }

    @Test func theLeadingEntryIsTheStrongestLevelsAndCancelledEntriesLeave() {
        var objective = Objective()
        let weak = objective.level(for: 1)
        let strong = objective.level(for: 100)
        objective.add(Symbol(7), level: weak, -3)
        #expect(objective.leading(Symbol(7))! == (1, -3))
        objective.add(Symbol(7), level: strong, 2)
        #expect(objective.leading(Symbol(7))! == (0, 2))
        #expect(objective.coefficient(of: Symbol(7), level: weak) == -3)
        // 0.1 + 0.2 - 0.3 cancels within the tolerance: the entry leaves, the weak one leads again.
        objective.add(Symbol(7), level: strong, -1.9)
        objective.add(Symbol(7), level: strong, -0.1)
        #expect(objective.coefficient(of: Symbol(7), level: strong) == 0)
        #expect(objective.leading(Symbol(7))! == (1, -3))
        objective.remove(Symbol(7))
        #expect(objective.leading(Symbol(7)) == nil)
        #expect(!objective.hasCost(Symbol(7)))
        #expect(objective.leading(Symbol(1_000)) == nil)   // never seen
    }

    @Test func substituteReplacesASymbolInEveryLevelThatHoldsIt() {
        var objective = Objective()
        let a = objective.level(for: 10)
        let b = objective.level(for: 5)
        objective.add(Symbol(1), level: a, 2)
        objective.add(Symbol(1), level: b, 3)
        objective.add(Symbol(2), level: b, 1)
        // 1 = 4 + 1·s2 − 1·s3
        var row = Row(constant: 4)
        row.insert(Symbol(2), 1)
        row.insert(Symbol(3), -1)
        #expect(objective.substitute(Symbol(1), with: row) == 2)
        #expect(!objective.hasCost(Symbol(1)))
        #expect(objective.constants[a] == 8 && objective.constants[b] == 12)
        #expect(objective.coefficient(of: Symbol(2), level: a) == 2)
        #expect(objective.coefficient(of: Symbol(2), level: b) == 4)
        #expect(objective.coefficient(of: Symbol(3), level: a) == -2)
        #expect(objective.coefficient(of: Symbol(3), level: b) == -3)
        #expect(objective.leading(Symbol(3))! == (0, -2))
    }
}

/// `Row.addInPlace` (a short row into a long one, edited in place) must write exactly
/// the row `Row.merge` builds: same cells, same sums, same cancellations, same
/// symbols reported added and removed.
struct RowInPlaceTests {
    @Test func addInPlaceEqualsMerge() {
        var state: UInt64 = 12345
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        var cancellations = 0
        for _ in 0..<2000 {
            // A long row over symbols 0..<200 and a short one (1–8 cells) that shares some
            // of its symbols, sometimes with the opposite coefficient (a cancellation).
            let longSymbols = Array(Set((0..<(8 + next(60))).map { _ in next(200) })).sorted()
            let long = Row(unsortedCells: longSymbols.map { Cell(symbol: Symbol($0), coefficient: Double(1 + next(9)) / 4) },
                           constant: 1)
            let skipIndex = next(long.cells.count)
            let skip = long.cells[skipIndex].symbol
            let factor = [1.0, -1.0, 0.5, -2.0][next(4)]
            var shortCells: [Cell] = []
            for _ in 0..<(1 + next(8)) {
                let symbol = Symbol(next(200))
                guard symbol != skip, !shortCells.contains(where: { $0.symbol == symbol }) else { continue }
                let existing = long.coefficient(for: symbol)
                let coefficient = existing != 0 && next(2) == 0 ? -existing / factor : Double(1 + next(9)) / 8
                shortCells.append(Cell(symbol: symbol, coefficient: coefficient))
            }
            let short = Row(unsortedCells: shortCells, constant: 0)
            var addedByMerge: [Symbol] = [], removedByMerge: [Symbol] = []
            let merged = Row.merge(long.cells, skipping: skip, short.cells, times: factor,
                                   added: &addedByMerge, removed: &removedByMerge, track: true)
            var inPlace = long
            var added: [Symbol] = [], removed: [Symbol] = []
            inPlace.addInPlace(removingAt: skipIndex, short.cells, times: factor, added: &added, removed: &removed)
            #expect(inPlace.cells.map(\.symbol) == merged.map(\.symbol))
            #expect(inPlace.cells.map(\.coefficient) == merged.map(\.coefficient))
            #expect(added == addedByMerge)
            #expect(removed == removedByMerge)
            cancellations += removed.count
        }
        #expect(cancellations > 100)
    }
}
