import Testing
@testable import LayoutSyntax

/// Numbers in format strings: digit runs are read without text, everything else through
/// `Double(String)`; both must give the literal's decimal value.
@Test func visualFormatNumbersReadAsTheirDecimalValues() {
    let result = VisualFormatParser().parse("H:|-007-[a(120)]-2e1-[b(1.5)]-999999999999999-[c(9007199254740993)]-.5-|")
    #expect(result.diagnostics.isEmpty)
    #expect(result.constraints.map(\.rhs.constant) == [7, 120, 20, 1.5, 999_999_999_999_999, 9_007_199_254_740_992, 0.5])
    #expect(result.constraints.map(\.span) == [3..<8, 11..<14, 16..<21, 24..<27, 29..<46, 49..<65, 67..<71])
}
