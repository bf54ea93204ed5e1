import Testing
@testable import LayoutSyntax

/// Invariants every parse must keep, whatever the input.
func checkInvariants(_ result: ParseResult, source: String) {
    let length = source.utf8.count
    let scalars = source.unicodeScalars.count
    if result.hasErrors { #expect(result.constraints.isEmpty, "\(source.debugDescription)") }
    #expect(result.diagnostics.count <= ParseResult.maximumDiagnostics)
    for diagnostic in result.diagnostics {
        #expect(!diagnostic.message.isEmpty)
        if let span = diagnostic.span {
            #expect(span.lowerBound >= 0 && span.upperBound <= length, "\(source.debugDescription)")
            let column = diagnostic.column(in: source) ?? -1
            #expect(column <= scalars)
        }
    }
    for constraint in result.constraints {
        #expect(constraint.span.lowerBound >= 0 && constraint.span.upperBound <= length)
        let numbers = constraint.lhs.terms.map(\.coefficient) + constraint.rhs.terms.map(\.coefficient)
            + [constraint.lhs.constant, constraint.rhs.constant]
        #expect(numbers.allSatisfy { $0.isFinite }, "\(source.debugDescription)")
        if let priority = constraint.priority { #expect((1...1000).contains(priority)) }
        #expect(!constraint.lhs.terms.isEmpty || !constraint.rhs.terms.isEmpty)
    }
}

/// SplitMix64: a small deterministic generator, so every run tests the same inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct RobustnessTests {
    static let validVisualFormat = ["H:|-[a(>=50@750,<=b)]-(8@300)-[b]-pad-|", "V:|[a][b(==a)]-(>=0)-|", "[a]-[b]"]
    static let validEquations = ["a.width == (superview.width - pad) * 0.5 @high", "a.edges == inset(b.edges, 1, 2, 3, 4)",
                                 "align(top: a, b, c)", "distribute(by: 10, vertically: a, b)", "a.top | left == b + 5 ~ 250"]
    static let options = ParseOptions(metrics: ["pad": 8])

    @Test("every split of valid strings: both halves parse without trapping; the prefix fails no later than its end")
    func splits() {
        for source in Self.validVisualFormat + Self.validEquations {
            let bytes = Array(source.utf8)
            #expect(!VisualFormatParser(options: Self.options).parse(source).hasErrors || !isVisualFormat(source))
            for index in 0...bytes.count {
                let prefix = String(decoding: bytes[..<index], as: UTF8.self)
                let suffix = String(decoding: bytes[index...], as: UTF8.self)
                for part in [prefix, suffix] {
                    checkInvariants(VisualFormatParser(options: Self.options).parse(part), source: part)
                    checkInvariants(EquationParser(options: Self.options).parse(part), source: part)
                }
            }
        }
    }

    @Test("valid strings parse whole, and the same every time")
    func wholeInputs() {
        for source in Self.validVisualFormat {
            let first = VisualFormatParser(options: Self.options).parse(source)
            #expect(first.diagnostics == [])
            #expect(first.constraints == VisualFormatParser(options: Self.options).parse(source).constraints)
        }
        for source in Self.validEquations {
            let first = EquationParser(options: Self.options).parse(source)
            #expect(first.diagnostics == [])
            #expect(first.constraints == EquationParser(options: Self.options).parse(source).constraints)
        }
    }

    @Test("all 256 byte values, alone and inserted at every position of valid strings")
    func byteSweep() {
        for value in 0...255 {
            let scalar = String(UnicodeScalar(UInt8(value)))
            let visual = VisualFormatParser(options: Self.options).parse(scalar)
            let equation = EquationParser(options: Self.options).parse(scalar)
            // No single character is a complete constraint.
            #expect(visual.hasErrors && visual.constraints.isEmpty)
            #expect(equation.hasErrors && equation.constraints.isEmpty)
            checkInvariants(visual, source: scalar)
            checkInvariants(equation, source: scalar)
            let isGrammarCharacter = value < 128 && "HV:|-[]()@,.=<>+*/~_ \t0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                .utf8.contains(UInt8(value))
            for source in ["H:|-[a]-|", "a.width == 10"] {
                let scalars = Array(source.unicodeScalars)
                for index in 0...scalars.count {
                    var mutated = String.UnicodeScalarView()
                    mutated.append(contentsOf: scalars[..<index])
                    mutated.append(UnicodeScalar(UInt8(value)))
                    mutated.append(contentsOf: scalars[index...])
                    let text = String(mutated)
                    for result in [VisualFormatParser(options: Self.options).parse(text), EquationParser(options: Self.options).parse(text)] {
                        checkInvariants(result, source: text)
                        if !isGrammarCharacter {
                            // A character outside the grammar is never consumed: the fault is at or before it.
                            #expect(result.hasErrors)
                            let column = result.diagnostics.compactMap { $0.column(in: text) }.first ?? -1
                            #expect(column >= 0 && column <= index, "\(text.debugDescription)")
                        }
                    }
                }
            }
        }
    }

    @Test("random strings over the grammar's alphabet keep the invariants")
    func randomStrings() {
        var generator = SplitMix64(state: 0x1A70_57D)
        let alphabet = Array("HV:|-[]()@,.=<>+*/~ ab1059edgsizwthlpcnrX\u{e9}".unicodeScalars)
        let words = ["superview", "edges", "width", "inset(", "align(top:", "distribute(by:", "horizontally:", "pad", "==", ">=",
                     "1e308", "@required", "[a]", "-(", "|"]
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...24, using: &generator) {
                if Bool.random(using: &generator) {
                    text.unicodeScalars.append(alphabet.randomElement(using: &generator)!)
                } else {
                    text += words.randomElement(using: &generator)!
                }
            }
            checkInvariants(VisualFormatParser(options: Self.options).parse(text, formatOptions: ["alignAllTop"]), source: text)
            checkInvariants(EquationParser(options: Self.options).parse(text), source: text)
        }
    }

    @Test("a 1 MB format string and a 1 MB equation parse completely")
    func largeInputs() {
        let views = 120_000
        let visual = "H:|" + (0..<views).map { "-[v\($0)]" }.joined() + "-|"
        #expect(visual.utf8.count > 1_000_000)
        let result = VisualFormatParser().parse(visual)
        #expect(result.diagnostics == [])
        #expect(result.constraints.count == views + 1)
        #expect(result.constraints.last?.text == "superview.trailing == v119999.trailing + 20")
        let equation = (0..<80_000).map { "v\($0).width" }.joined(separator: " + ") + " == superview.width"
        #expect(equation.utf8.count > 1_000_000)
        let parsed = EquationParser().parse(equation)
        #expect(parsed.diagnostics == [])
        #expect(parsed.constraints.first?.lhs.terms.count == 80_000)
        let deepUnknown = String(repeating: "-m-[a]", count: 200_000)
        #expect(VisualFormatParser().parse("[a]" + deepUnknown).diagnostics.count == ParseResult.maximumDiagnostics)
    }
}
