import Testing
@testable import LayoutSyntax

/// `closestName`: the banded table gives the suggestions of the full one.
struct SuggestionTests {
    /// The full optimal-string-alignment table (the reference).
    func fullClosestName(to name: String, among candidates: [String]) -> String? {
        let source = Array(name.lowercased().utf8)
        guard source.count <= 64 else { return nil }
        var best: (String, Int)?
        for candidate in candidates {
            let target = Array(candidate.lowercased().utf8)
            var previous = Array(0...target.count)
            var row = previous
            var beforePrevious = previous
            for i in 1...max(1, source.count) where !source.isEmpty {
                row[0] = i
                for j in 1...max(1, target.count) where !target.isEmpty {
                    let cost = source[i - 1] == target[j - 1] ? 0 : 1
                    row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
                        row[j] = min(row[j], beforePrevious[j - 2] + 1)
                    }
                }
                beforePrevious = previous
                previous = row
            }
            let distance = source.isEmpty ? target.count : previous[target.count]
            if distance <= 2, distance < source.count, best.map({ distance < $0.1 }) ?? true { best = (candidate, distance) }
        }
        return best?.0
    }

    /// A name no candidate is within 2 of suggests the one candidate it is a shorter
    /// prefix of (case-insensitively), none when it begins two or more.
    @Test func aPrefixOfOneNameSuggestsIt() {
        let names = ["required", "high", "low", "fittingSize", "defaultHigh", "defaultLow", "fittingSizeLevel"]
        #expect(closestName(to: "hi", among: names) == nil)
        #expect(closestNameOrCompletion(to: "hi", among: names) == "high")
        #expect(closestNameOrCompletion(to: "HI", among: names) == "high")
        #expect(closestNameOrCompletion(to: "req", among: names) == "required")
        #expect(closestNameOrCompletion(to: "requird", among: names) == "required")
        #expect(closestNameOrCompletion(to: "fitting", among: names) == nil)
        #expect(closestNameOrCompletion(to: "default", among: names) == nil)
        #expect(closestNameOrCompletion(to: "zz", among: names) == nil)
        #expect(closestNameOrCompletion(to: "", among: names) == nil)
    }

    @Test func theBandedDistanceSuggestsWhatTheFullOneDoes() {
        // A small alphabet, so that many pairs are within 2; lengths 0 to 9; upper case too.
        var generator = SplitMix64(state: 24)
        let alphabet = Array("abAB_c")
        func word() -> String {
            String((0..<Int(generator.next() % 10)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
        for _ in 0..<3_000 {
            let candidates = (0..<8).map { _ in word() }
            let name = word()
            #expect(closestName(to: name, among: candidates) == fullClosestName(to: name, among: candidates),
                    "\(name) among \(candidates)")
        }
        #expect(closestName(to: "widht", among: ["height", "width"]) == "width")
        #expect(closestName(to: "zz", among: ["a"]) == nil)
        #expect(closestName(to: "", among: ["a"]) == nil)
        #expect(closestName(to: "x", among: [""]) == nil)
    }
}
