@testable import LayoutService
import LayoutStore
import Synchronization
import Testing

/// The in-memory front cache's bounds: entries and bytes (request body plus response body).
struct FrontCacheTests {
    /// A key whose request body is `size` bytes, distinct for each `index`.
    static func key(_ index: Int, size: Int = 10) -> FrontCacheKey {
        var body = [UInt8](repeating: 0x20, count: size)
        body[0] = UInt8(index)
        return CacheKey.front(.solve, body: body)
    }

    @Test func evictsByBytesWhenOverTheBudget() {
        // 8,000 bytes: each half 4,000; each entry below costs 10 + 990 = 1,000.
        let cache = FrontCache(capacity: 1_000, maxBytes: 8_000)
        let generation = cache.generation
        for index in 0..<8 {
            cache.insert(FrontAnswer(body: [UInt8](repeating: UInt8(index), count: 990)), for: Self.key(index), generation: generation)
        }
        #expect(cache.usage.entries == 8)
        #expect(cache.usage.bytes == 8_000)
        // The ninth would take the young half over 4,000 bytes: entries 0…3 are dropped,
        // though the 1,000-entry capacity is far away.
        cache.insert(FrontAnswer(body: [UInt8](repeating: 8, count: 990)), for: Self.key(8), generation: generation)
        #expect(cache.usage.entries == 5)
        #expect(cache.usage.bytes == 5_000)
        for index in 0..<4 { #expect(cache.lookup(Self.key(index)) == nil) }
        for index in 4..<9 { #expect(cache.lookup(Self.key(index))?.body == [UInt8](repeating: UInt8(index), count: 990)) }
        #expect(cache.usage.bytes <= 8_000)
    }

    @Test func neverHoldsMoreThanItsBudget() {
        let cache = FrontCache(capacity: 4_096, maxBytes: 64 * 1_024)
        let generation = cache.generation
        for index in 0..<200 {
            let size = 100 + (index * 37) % 8_000   // 110…8,109 bytes with the 10-byte key
            cache.insert(FrontAnswer(body: [UInt8](repeating: 1, count: size)), for: Self.key(index), generation: generation)
            _ = cache.lookup(Self.key(index / 2))    // hits move old entries back to the young half
            #expect(cache.usage.bytes <= 64 * 1_024)
        }
    }

    @Test func anEntryOverAnEighthOfTheBudgetIsNotKept() {
        let cache = FrontCache(capacity: 100, maxBytes: 8_000)
        #expect(cache.maxEntryBytes == 1_000)
        let generation = cache.generation
        cache.insert(FrontAnswer(body: [UInt8](repeating: 1, count: 990)), for: Self.key(1), generation: generation)
        cache.insert(FrontAnswer(body: [UInt8](repeating: 2, count: 991)), for: Self.key(2), generation: generation)
        #expect(cache.lookup(Self.key(1)) != nil)
        #expect(cache.lookup(Self.key(2)) == nil)
        #expect(cache.usage.entries == 1)
        #expect(cache.usage.bytes == 1_000)
    }

    @Test func aHitInTheOldHalfMovesItsBytes() {
        let cache = FrontCache(capacity: 4, maxBytes: 1 << 20)  // halves of two entries
        let generation = cache.generation
        for index in 0..<3 {
            cache.insert(FrontAnswer(body: [UInt8](repeating: 1, count: 90)), for: Self.key(index), generation: generation)
        }
        #expect(cache.usage.entries == 3)          // old: 0, 1; young: 2
        #expect(cache.lookup(Self.key(0)) != nil)  // back to young: 2, 0
        #expect(cache.usage.entries == 3)
        #expect(cache.usage.bytes == 300)
        cache.insert(FrontAnswer(body: [UInt8](repeating: 1, count: 90)), for: Self.key(3), generation: generation)
        #expect(cache.usage.entries == 3)          // old: 2, 0; young: 3 (1 dropped)
        #expect(cache.usage.bytes == 300)
        #expect(cache.lookup(Self.key(1)) == nil)
        // The same key again replaces its entry instead of counting twice.
        cache.insert(FrontAnswer(body: [UInt8](repeating: 1, count: 40)), for: Self.key(3), generation: generation)
        #expect(cache.usage.bytes == 250)
        cache.invalidate()
        #expect(cache.usage.entries == 0)
        #expect(cache.usage.bytes == 0)
    }

    /// A value that records, when it is torn down, whether its cache's lock was held.
    final class Probe: Sendable {
        final class Log: Sendable {
            let releasedUnderLock = Mutex<[Bool]>([])
            var entries: [Bool] { releasedUnderLock.withLock { $0 } }
        }
        let cache: TwoGenerationCache<Int, Probe>
        let log: Log
        init(_ cache: TwoGenerationCache<Int, Probe>, log: Log) {
            self.cache = cache
            self.log = log
        }
        deinit {
            let locked = cache.isLocked
            log.releasedUnderLock.withLock { $0.append(locked) }
        }
    }

    /// A generation that drops out, an entry a new one replaces and everything
    /// `invalidate()` empties are torn down after the lock is released: tearing down a
    /// structure cache's generation of solvers must not hold up other threads' lookups.
    @Test func droppedEntriesAreReleasedAfterTheLock() {
        let cache = TwoGenerationCache<Int, Probe>(capacity: 4, maxBytes: 1 << 20)   // halves of two entries
        let log = Probe.Log()
        for index in 0..<8 {
            cache.insert(Probe(cache, log: log), for: index, cost: 1, generation: cache.generation)
        }
        // Old 4, 5; young 6, 7: entries 0…3 were dropped in two generations.
        #expect(log.entries == [false, false, false, false])
        #expect(cache.lookup(4) != nil)   // promoted: old 6, 7; young 4 (5 dropped)
        cache.insert(Probe(cache, log: log), for: 8, cost: 1, generation: cache.generation)
        cache.invalidate()
        #expect(cache.usage.entries == 0)
        let released = log.entries
        #expect(released.count == 9)
        #expect(!released.contains(true))
    }

    @Test func zeroBytesTurnsItOff() {
        let cache = FrontCache(capacity: 100, maxBytes: 0)
        cache.insert(FrontAnswer(body: [1]), for: Self.key(1), generation: cache.generation)
        #expect(cache.lookup(Self.key(1)) == nil)
        #expect(cache.usage.entries == 0)
    }
}

/// A front cache entry's recorded versions: what a hit is checked against, and its cost.
struct FrontAnswerTests {
    @Test func aHitIsCurrentOnlyForExactlyItsVersions() {
        let answer = FrontAnswer(body: [1, 2, 3], currentVersions: [GroupVersion(name: "card", version: 3),
                                                                    GroupVersion(name: "row", version: 7)])
        #expect(answer.currentNames == ["card", "row"])
        #expect(answer.isCurrent(["card": 3, "row": 7]))
        #expect(!answer.isCurrent(["card": 3, "row": 8]))
        #expect(!answer.isCurrent(["card": 3]))           // row deleted
        #expect(FrontAnswer(body: [1]).isCurrent([:]))
    }

    @Test func anEntryCostsItsBodiesAndItsVersions() {
        let key = CacheKey.front(.solve, body: [UInt8](repeating: 0x20, count: 10))
        let answer = FrontAnswer(body: [UInt8](repeating: 1, count: 100), currentVersions: [GroupVersion(name: "row", version: 1)])
        #expect(FrontCache.cost(key, answer) == 10 + 100 + 2 * 3 + 8)
        #expect(FrontCache.cost(key, FrontAnswer(body: [1])) == 11)
    }
}

/// ``BodyHash`` and ``FrontCacheKey``'s equality: every byte, the length and the space
/// reach the hash, and keys compare by their bytes.
struct BodyHashTests {
    /// A 2,331-byte body (the size of the HTTP benchmark's scene) and each one-byte
    /// change of it, every length from 0 to 100 bytes, and the same bytes in two spaces.
    @Test func bodyHashSeesEveryByteAndLength() {
        let body = (0..<2_331).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let original = CacheKey.front(.solve, body: body)
        #expect(original.bodyHash == CacheKey.front(.solve, body: Array(body)).bodyHash)
        var hashes: Set<Int> = [original.bodyHash]
        for position in body.indices {
            var changed = body
            changed[position] ^= 0x01
            let key = CacheKey.front(.solve, body: changed)
            hashes.insert(key.bodyHash)
            #expect(key != original)
        }
        #expect(hashes.count == body.count + 1)
        var byLength: Set<Int> = []
        for length in 0...100 { byLength.insert(CacheKey.front(.solve, body: [UInt8](repeating: 0, count: length)).bodyHash) }
        #expect(byLength.count == 101)
        #expect(CacheKey.front(.solve, body: body).bodyHash != CacheKey.front(.validate, body: body).bodyHash)
        #expect(CacheKey.front(.solve, body: body) != CacheKey.front(.validate, body: body))
        #expect(CacheKey.front(.solve, body: []) == CacheKey.front(.solve, body: []))
        #expect(CacheKey.front(.solve, body: body) == CacheKey.front(.solve, body: Array(body)))
    }
}
