import Testing
@testable import TextLayout

/// Breaks found from one shaping of the paragraph are the contract's (each line shaped on
/// its own): every line's width is its text shaped alone, every line fits, and the line
/// through the next opportunity, shaped alone, does not.
struct LineShapingTests {
    /// A deterministic generator (SplitMix64), so every run tests the same strings.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let words = ["AV", "To", "office", "fluffy", "Wavy", "ff", "fi", "yet,", "T.", "well-known", "LTA", "Ya", "(quoted)",
                        "naïve", "Tr", "\"Ok\"", "1/2", "P.", "AWAY", "fjord"]

    @Test(arguments: ["Inter", "Liberation Sans", "DejaVu Sans"])
    func breaksEqualLineByLineShaping(family: String) throws {
        let paths = ["Inter": Fonts.interRegular, "Liberation Sans": Fonts.liberationSans, "DejaVu Sans": Fonts.dejaVuSans]
        let file = try FontFile(try #require(paths[family]))
        let measurer = Fonts.measurer
        var random = SplitMix(state: 42)
        for _ in 0..<150 {
            let count = 2 + random.below(12)
            let text = (0..<count).map { _ in Self.words[random.below(Self.words.count)] }.joined(separator: " ")
            let size = Double(10 + random.below(20))
            let width = Double(30 + random.below(200))
            let prepared = try measurer.prepare(text, font: FontRequest(family: family, size: size))
            let result = prepared.layout(width: width, numberOfLines: 0)
            let opportunities = measurer.breaker.opportunities(prepared.utf16)
            for (index, line) in result.lines.enumerated() {
                let lineText = prepared.text(of: line)
                #expect(abs(line.width - file.shapedWidth(lineText, size: size)) < 1e-9, "\(text) @\(width)")
                let wordBroken = !opportunities.contains(where: { $0 >= line.range.upperBound && prepared.trimmed(line.range.lowerBound, $0) == line.range.upperBound })
                if !wordBroken { #expect(line.width <= width + 1e-6, "\(lineText) in \(text) @\(width)") }
                // Greedy: the line through the next opportunity does not fit.
                guard index + 1 < result.lines.count, !wordBroken else { continue }
                let next = try #require(opportunities.first { prepared.trimmed(line.range.lowerBound, $0) > line.range.upperBound })
                let longer = String(decoding: prepared.utf16[line.range.lowerBound..<prepared.trimmed(line.range.lowerBound, next)], as: UTF16.self)
                #expect(file.shapedWidth(longer, size: size) > width + 1e-6, "\(longer) fits \(width) in \(text)")
            }
        }
    }
}
