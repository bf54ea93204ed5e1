import Testing
@testable import LayoutSyntax

struct DiagnosticTests {
    @Test("columns count Unicode scalars, not bytes or grapheme clusters", arguments: [
        ("abc", 2, 2), ("é-x", 2, 1), ("日本x", 6, 2), ("👍🏽x", 8, 2), ("e\u{301}x", 3, 2), ("ab", 9, 2), ("", 0, 0),
    ])
    func column(_ source: String, _ offset: Int, _ expected: Int) {
        let diagnostic = Diagnostic(code: .equationSyntax, message: "m", span: offset..<offset)
        #expect(diagnostic.column(in: source) == expected)
    }

    @Test("no span, no column")
    func noSpan() {
        let diagnostic = Diagnostic(code: .vflSyntax, message: "Unknown format option 'x'")
        #expect(diagnostic.column(in: "H:[a]") == nil)
        #expect(diagnostic.rendered(source: "H:[a]") == "Unknown format option 'x'")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.notes == [])
    }

    @Test("rendering puts the caret under the column, keeping tabs, on the right line")
    func rendering() {
        let tabbed = Diagnostic(code: .vflSyntax, message: "Oops", span: 3..<4)
        #expect(tabbed.rendered(source: "\t[é]") == "Oops\n\t[é]\n\t  ^")
        let multiline = Diagnostic(code: .equationSyntax, message: "Oops", span: 6..<7, notes: ["n"])
        #expect(multiline.rendered(source: "ab\ncd ef") == "Oops\ncd ef\n   ^\nnote: n")
    }

    @Test("codes are the contract's strings")
    func codes() {
        #expect(Diagnostic.Code.vflSyntax.rawValue == "vfl_syntax")
        #expect(Diagnostic.Code.unknownMetric.rawValue == "unknown_metric")
        #expect(Diagnostic.Code.incompatibleAttributes.rawValue == "incompatible_attributes")
        #expect(Diagnostic.Code.limitExceeded.rawValue == "limit_exceeded")
    }

    @Test("constraint text formatting", arguments: [
        (0.5, "0.5"), (8.0, "8"), (-12.25, "-12.25"), (0.0, "0"), (1e20, "1e+20"),
    ])
    func numberFormat(_ value: Double, _ expected: String) {
        #expect(ConstraintText.format(value) == expected)
    }
}

/// What a message says it found: printable characters quoted, invisible ones as a code point.
struct FoundCharacterTests {
    @Test("invisible characters are written as code points", arguments: [
        ("a.width\u{A0}== 5", false, "Expected '==', '>=' or '<=' after the left side, found U+00A0", 7),
        ("a.width =\t= 5", false, "Unknown relation '='; equality is written '=='", 9),
        ("a.width == 5 \u{200B}", false, "Expected an operator (+ - * /), a priority ('@750') or the end of the equation, found U+200B", 13),
        ("a.width == 5 \u{7}", false, "Expected an operator (+ - * /), a priority ('@750') or the end of the equation, found U+0007", 13),
        ("a.width == 5 \u{2028}", false, "Expected an operator (+ - * /), a priority ('@750') or the end of the equation, found U+2028", 13),
        ("a.width == 5 \u{301}", false, "Expected an operator (+ - * /), a priority ('@750') or the end of the equation, found U+0301", 13),
        ("a.width == 5 $", false, "Expected an operator (+ - * /), a priority ('@750') or the end of the equation, found '$'", 13),
        ("a.width == 5 é", false, "Expected an operator (+ - * /), a priority ('@750') or the end of the equation, found 'é'", 13),
        ("H:|-[a]\u{A0}", true, "Expected a connection '-', a view '[' or the superview '|' after view 'a', found U+00A0", 7),
        ("H:|-[\u{FEFF}a]", true, "Expected a view name after '[', found U+FEFF", 5),
    ])
    func found(_ source: String, _ isVFL: Bool, _ message: String, _ column: Int) {
        let result = isVFL ? VisualFormatParser().parse(source) : EquationParser().parse(source)
        #expect(result.diagnostics.map(\.message) == [message])
        #expect(result.diagnostics.first?.column(in: source) == column)
    }
}

/// Quoted client input is at most 256 Unicode scalars, and a window of a long
/// source keeps the caret on its character.
struct DiagnosticEchoTests {
    @Test func echoCutsLongInputAt256Scalars() {
        let long = String(repeating: "é", count: 300)
        let cut = Diagnostic.echo(long)
        #expect(cut.unicodeScalars.count == 256)
        #expect(cut == String(repeating: "é", count: 255) + "…")
        // 256 scalars (512 bytes) are quoted whole, 257 are not.
        #expect(Diagnostic.echo(String(repeating: "é", count: 256)) == String(repeating: "é", count: 256))
        #expect(Diagnostic.echo(String(repeating: "x", count: 257)) == String(repeating: "x", count: 255) + "…")
        #expect(Diagnostic.echo("red") == "red")
    }

    /// Bidi formatting characters in quoted client text are written `\u{…}`: shown raw,
    /// they reorder the message around the quote. Other text, and the cut, stay as they are.
    @Test func echoEscapesBidiControls() {
        #expect(Diagnostic.echo("ab\u{202E}cd\u{2066}e\u{200F}") == #"ab\u{202E}cd\u{2066}e\u{200F}"#)
        for value: UInt32 in [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            let scalar = Unicode.Scalar(value)!
            #expect(Diagnostic.echo(String(scalar)) == "\\u{\(String(value, radix: 16, uppercase: true))}")
        }
        // Neighbours of the ranges, and other U+20xx punctuation, are not bidi controls.
        #expect(Diagnostic.echo("\u{061B}\u{061D}\u{200D}\u{2029}\u{202F}\u{2065}\u{206A}–…") == "\u{061B}\u{061D}\u{200D}\u{2029}\u{202F}\u{2065}\u{206A}–…")
        let long = String(repeating: "x", count: 300) + "\u{202E}"
        #expect(Diagnostic.echo(long) == String(repeating: "x", count: 255) + "…")
        #expect(Diagnostic.echo(String(repeating: "x", count: 254) + "\u{202E}y") == String(repeating: "x", count: 254) + #"\u{202E}y"#)
    }

    @Test(arguments: [0, 1, 127, 128, 129, 1_000, 2_870, 2_871, 2_999, 3_000])
    func windowKeepsTheCaretOnItsCharacter(column: Int) throws {
        // 3,000 scalars, each one's place readable: "é" every 7th, digits otherwise.
        let scalars: [Unicode.Scalar] = (0..<3_000).map { $0 % 7 == 0 ? "é" : Unicode.Scalar(UInt8(0x30 + $0 % 10)) }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        let source = String(view)
        let window = try #require(Diagnostic.window(source, column: column))
        let shown = Array(window.text.unicodeScalars)
        #expect(shown.count == 256)
        let caret = column - window.start
        #expect(caret >= 0 && caret <= 256)
        if column < 3_000 {
            #expect(shown[caret] == scalars[column])   // the same character under the caret
            #expect(shown[caret] != "…")
        } else {
            #expect(caret == 256)                      // after the last one, as before
        }
        // Cut ends are marked, whole ends are not; the rest is the source in place.
        #expect((shown.first == "…") == (window.start > 0))
        #expect((shown.last == "…") == (window.start + 256 < 3_000))
        for index in 1..<255 { #expect(shown[index] == scalars[window.start + index]) }
        // At least 127 scalars of context before the caret where the source has them.
        #expect(caret >= min(column, 127))
    }

    /// The window starts 128 scalars before the caret's character (at 0 when fewer precede
    /// it, 256 before the end when fewer than 128 follow it); cut at the front, those 128
    /// are `…` and 127 of the source (openapi.yaml's `source`, docs/decisions.md).
    @Test func windowStartsBeforeTheCaret() throws {
        let source = String((0..<1_000).map { Character(Unicode.Scalar(UInt8(0x61 + $0 % 26))) })
        let scalars = Array(source.unicodeScalars)
        let middle = try #require(Diagnostic.window(source, column: 500))
        #expect(middle.start == 372)
        let shown = Array(middle.text.unicodeScalars)
        #expect(shown.count == 256 && shown[0] == "…" && shown[255] == "…")
        #expect(Array(shown[1..<128]) == Array(scalars[373..<500]))   // 127 of the source
        #expect(shown[128] == scalars[500])                            // the caret's character
        #expect(Diagnostic.window(source, column: 128)?.start == 0)
        #expect(Diagnostic.window(source, column: 129)?.start == 1)
        #expect(Diagnostic.window(source, column: 100)?.start == 0)
        #expect(Diagnostic.window(source, column: 872)?.start == 744)
        #expect(Diagnostic.window(source, column: 900)?.start == 744)  // 256 before the end
        let start = try #require(Diagnostic.window(source, column: 100))
        #expect(start.text.unicodeScalars.first == "a" && start.text.unicodeScalars.last == "…")
        let end = try #require(Diagnostic.window(source, column: 900))
        #expect(end.text.unicodeScalars.first == "…" && end.text.unicodeScalars.last == scalars[999])
    }

    @Test func shortSourcesHaveNoWindow() {
        #expect(Diagnostic.window(String(repeating: "x", count: 256), column: 300) == nil)
        #expect(Diagnostic.window(String(repeating: "é", count: 256), column: 3) == nil)
        #expect(Diagnostic.window(String(repeating: "x", count: 257), column: nil)?.start == 0)
    }
}
