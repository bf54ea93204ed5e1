import Testing
@testable import Cassowary

/// `Solver.sortByLevels`, the bulk load's sort of a queue in one part, against the
/// library's sort with the same order (`Solver.installsBefore`): the same queue, entry
/// for entry, on seeded random queues shaped like a bulk load's (queued optional
/// constraints in handle order, then deferred ones in hub order).
struct BulkInstallOrderTests {
    /// A queue of `count` optional entries over `levels` strengths, then `deferred`
    /// deferred entries whose handles are not in order (several hubs), some at no level.
    static func queue(seed: Int, count: Int, levels: Int, deferred: Int) -> [PendingInstall] {
        var random = MergingPropertyTests.Random(state: UInt64(seed) &* 104_729 &+ 7)
        let strengths = (0..<levels).map { Double(1 + 37 * $0) }
        var queue: [PendingInstall] = []
        var handle = 0
        for _ in 0..<count {
            handle += random.int(1...3)
            queue.append(PendingInstall(handle: ConstraintHandle(rawValue: handle), strength: strengths[random.int(0...(levels - 1))],
                                        key: -1, representative: .invalid))
        }
        var deferredHandles = (0..<deferred).map { _ -> Int in
            handle += random.int(1...3)
            return handle
        }
        // Hub order, not handle order: a shuffle.
        for index in deferredHandles.indices.reversed() where index > 0 {
            deferredHandles.swapAt(index, random.int(0...index))
        }
        for deferredHandle in deferredHandles {
            let strength = random.int(0...3) == 0 ? -Double.infinity : strengths[random.int(0...(levels - 1))]
            queue.append(PendingInstall(handle: ConstraintHandle(rawValue: deferredHandle), strength: strength, key: -1,
                                        representative: .invalid, isDeferred: true, hub: 0))
        }
        return queue
    }

    @Test(arguments: 0..<60)
    func levelSortIsTheLibrarySort(seed: Int) {
        let levels = 1 + seed % 12
        let original = Self.queue(seed: seed, count: seed % 7 == 0 ? seed % 3 : 5 + seed, levels: levels,
                                  deferred: seed % 2 == 0 ? 0 : seed % 9)
        var sorted = original
        #expect(Solver.sortByLevels(&sorted))
        let expected = original.sorted(by: Solver.installsBefore)
        #expect(sorted.map(\.handle) == expected.map(\.handle))
        #expect(Solver.isInInstallOrder(sorted))
    }

    /// More groups than `levelSortLimit`, or entries in several parts: declined, the
    /// queue untouched (the library sort then sorts it).
    @Test func tooManyGroupsOrPartsAreDeclined() {
        let original = Self.queue(seed: 3, count: 200, levels: Solver.levelSortLimit + 5, deferred: 0)
        var queue = original
        #expect(!Solver.sortByLevels(&queue))
        #expect(queue.map(\.handle) == original.map(\.handle))
        var parted = Self.queue(seed: 4, count: 20, levels: 3, deferred: 0)
        parted[7].part = 1
        let before = parted
        #expect(!Solver.sortByLevels(&parted))
        #expect(parted.map(\.handle) == before.map(\.handle))
    }
}
