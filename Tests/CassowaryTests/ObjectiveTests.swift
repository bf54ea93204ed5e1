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
        objective.add(7, level: weak, -3)
        #expect(objective.leading(7)! == (1, -3))
        objective.add(7, level: strong, 2)
        #expect(objective.leading(7)! == (0, 2))
        #expect(objective.coefficient(of: 7, level: weak) == -3)
        // 0.1 + 0.2 - 0.3 cancels within the tolerance: the entry leaves, the weak one leads again.
        objective.add(7, level: strong, -1.9)
        objective.add(7, level: strong, -0.1)
        #expect(objective.coefficient(of: 7, level: strong) == 0)
        #expect(objective.leading(7)! == (1, -3))
        objective.remove(7)
        #expect(objective.leading(7) == nil)
        #expect(!objective.hasCost(7))
        #expect(objective.leading(1_000) == nil)   // never seen
    }

    @Test func substituteReplacesASymbolInEveryLevelThatHoldsIt() {
        var objective = Objective()
        let a = objective.level(for: 10)
        let b = objective.level(for: 5)
        objective.add(1, level: a, 2)
        objective.add(1, level: b, 3)
        objective.add(2, level: b, 1)
        // 1 = 4 + 1·s2 − 1·s3
        var row = Row(constant: 4)
        row.insert(2, 1)
        row.insert(3, -1)
        #expect(objective.substitute(1, with: row) == 2)
        #expect(!objective.hasCost(1))
        #expect(objective.constants[a] == 8 && objective.constants[b] == 12)
        #expect(objective.coefficient(of: 2, level: a) == 2)
        #expect(objective.coefficient(of: 2, level: b) == 4)
        #expect(objective.coefficient(of: 3, level: a) == -2)
        #expect(objective.coefficient(of: 3, level: b) == -3)
        #expect(objective.leading(3)! == (0, -2))
    }
}
