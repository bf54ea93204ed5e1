@testable import LayoutCompiler
import Testing

/// ``MentionIndex`` groups (key, constraint) pairs by key in place: each key's run is the
/// constraints of its pairs in the pairs' order, as a plain filter gives; keys outside
/// `0..<keyCount` are dropped.
@Suite struct MentionIndexTests {
    /// SplitMix64 (Steele, Lea & Flood 2014): a small deterministic generator.
    struct SplitMix64 {
        var state: UInt64
        mutating func next(below bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test(arguments: [0, 1, 4, 8, 40, 400])
    func runsAreTheFilteredPairs(keyCount: Int) {
        for seed in 0..<20 {
            var random = SplitMix64(state: UInt64(seed) &* 7919 &+ UInt64(keyCount))
            let pairCount = random.next(below: 3 * keyCount + 3)
            // Keys from -2 to keyCount + 1: the ones outside are dropped.
            let pairs = (0..<pairCount).map { index in (key: random.next(below: keyCount + 4) - 2, constraint: index) }
            let index = MentionIndex(pairs, keyCount: keyCount)
            for key in 0..<keyCount {
                let expected = pairs.filter { $0.key == key }.map(\.constraint)
                #expect(Array(index[FrameField(key: key)]) == expected, "seed \(seed) key \(key)")
            }
            // A key past the count has no run.
            #expect(index[FrameField(key: keyCount)].isEmpty)
        }
    }
}
