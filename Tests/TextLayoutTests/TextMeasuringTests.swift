import Testing
@testable import TextLayout

/// The rules of the contract's "Text" section, each expected value derived from the font
/// file's own tables (`FontFile`), not from the engine.
struct TextMeasuringTests {
    let measurer = Fonts.measurer
    let mono = FontRequest(family: "DejaVu Sans Mono", size: 13)

    func lines(_ measurement: TextMeasurement, _ prepared: PreparedText) -> [String] {
        measurement.lines.map { prepared.text(of: $0) }
    }

    @Test func singleLineIsTheAdvanceSumAndTheLineHeight() throws {
        let file = try FontFile(Fonts.mono)
        let result = try measurer.measure("abc def", font: mono)
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        #expect(abs(result.width - 7 * advance) < 1e-9)
        #expect(result.lines.count == 1)
        #expect(abs(result.lineHeight - file.lineHeight(size: 13)) < 1e-9)
        #expect(abs(result.height - file.lineHeight(size: 13)) < 1e-9)
        #expect(!result.truncated)
    }

    @Test func interSingleLineMatchesIndependentShaping() throws {
        let file = try FontFile(Fonts.interRegular)
        let result = try measurer.measure("Good morning", font: FontRequest(family: "Inter", size: 20))
        #expect(abs(result.width - file.shapedWidth("Good morning", size: 20)) < 1e-9)
        #expect(abs(result.lineHeight - file.lineHeight(size: 20)) < 1e-9)
    }

    @Test(arguments: [0, 1, 2, 3])
    func intrinsicSizeRoundsUpToThePixelGrid(scaleNumber: Int) throws {
        let scale: Double? = scaleNumber == 0 ? nil : Double(scaleNumber)
        let file = try FontFile(Fonts.liberationSans)
        let size = 18.0
        let text = "Rounding up"
        let result = try measurer.measure(text, font: FontRequest(family: "Liberation Sans", size: size))
        let exactWidth = file.shapedWidth(text, size: size)
        let exactHeight = file.lineHeight(size: size)
        let s = scale ?? 1
        func up(_ v: Double) -> Double {
            let pixels = v * s
            return abs(pixels - pixels.rounded()) <= 1e-6 * s ? pixels.rounded() / s : pixels.rounded(.up) / s
        }
        let intrinsic = result.intrinsicSize(displayScale: scale)
        #expect(intrinsic.width == up(exactWidth))
        #expect(intrinsic.height == up(exactHeight))
        #expect(intrinsic.width >= exactWidth && intrinsic.width - exactWidth < 1 / s)
    }

    @Test func aValueWithinAMillionthOfAPixelCountsAsOnIt() {
        #expect(TextMeasurement.roundUp(134.0000005, scale: 1) == 134)
        #expect(TextMeasurement.roundUp(134.000002, scale: 1) == 135)
        #expect(TextMeasurement.roundUp(24.2045, scale: 2) == 24.5)
        #expect(TextMeasurement.roundUp(24.2045, scale: 3) == 24.0 + 1.0 / 3.0)
    }

    @Test func kerningIsOn() throws {
        let file = try FontFile(Fonts.liberationSans)
        let result = try measurer.measure("AV", font: FontRequest(family: "Liberation Sans", size: 40))
        let unkerned = try file.advances("AV", size: 40)
        #expect(result.width < unkerned - 0.5)
        #expect(abs(result.width - file.shapedWidth("AV", size: 40)) < 1e-9)
    }

    @Test func weightMatchingFollowsCSSFonts4() throws {
        let catalog = measurer.catalog
        func file(_ family: String, _ weight: Int, italic: Bool = false) throws -> String {
            String(try catalog.face(family: family, weight: weight, italic: italic).path.split(separator: "/").last!)
        }
        #expect(try file("Inter", 450) == "Inter-Medium.otf")      // 400–500: up to 500 first
        #expect(try file("Inter", 400) == "Inter-Regular.otf")
        #expect(try file("Inter", 750) == "Inter-ExtraBold.otf")   // > 500: heavier first
        #expect(try file("Inter", 250) == "Inter-ExtraLight.otf")  // < 400: lighter first
        #expect(try file("DejaVu Sans", 500) == "DejaVuSans.ttf")  // none in 500...500: lighter (400)
        #expect(try file("DejaVu Sans", 600) == "DejaVuSans-Bold.ttf") // heavier (700)
        #expect(try file("DejaVu Sans", 300) == "DejaVuSans.ttf")  // no lighter: heavier ascending
        #expect(try file("DejaVu Sans", 900) == "DejaVuSans-Bold.ttf") // no heavier: lighter descending
    }

    @Test func italicIsChosenFirst() throws {
        let catalog = measurer.catalog
        #expect(try catalog.face(family: "Inter", weight: 400, italic: true).path.hasSuffix("Inter-Italic.otf"))
        #expect(try catalog.face(family: "Liberation Serif", weight: 600, italic: true).path.hasSuffix("LiberationSerif-BoldItalic.ttf"))
        // A family without italics answers its upright faces.
        #expect(try catalog.face(family: "DejaVu Sans", weight: 400, italic: true).path.hasSuffix("DejaVuSans.ttf"))
    }

    @Test func systemIsInterAndFamiliesIgnoreCase() throws {
        let catalog = measurer.catalog
        #expect(try catalog.face(family: "system", weight: 700, italic: false).path.hasSuffix("Inter-Bold.otf"))
        #expect(try catalog.face(family: "SYSTEM", weight: 400, italic: false).path.hasSuffix("Inter-Regular.otf"))
        #expect(try catalog.face(family: "dejavu SANS mono", weight: 400, italic: false).path.hasSuffix("DejaVuSansMono.ttf"))
        let file = try FontFile(Fonts.interRegular)
        let viaSystem = try measurer.measure("Settings", font: FontRequest(family: "System", size: 17))
        #expect(abs(viaSystem.width - file.shapedWidth("Settings", size: 17)) < 1e-9)
    }

    @Test func unknownFamilyCarriesADidYouMean() {
        #expect(throws: FontError.unknownFamily("Intr", suggestion: "Inter")) {
            try measurer.catalog.face(family: "Intr", weight: 400, italic: false)
        }
        #expect(throws: FontError.unknownFamily("Liberation Sanz", suggestion: "Liberation Sans")) {
            try measurer.catalog.face(family: "Liberation Sanz", weight: 400, italic: false)
        }
        #expect(throws: FontError.unknownFamily("Comic Sands", suggestion: nil)) {
            try measurer.catalog.face(family: "Comic Sands", weight: 400, italic: false)
        }
    }

    @Test func emptyStringIsZeroByZero() throws {
        let result = try measurer.measure("", font: mono, numberOfLines: 0, width: 100)
        #expect(result.lines.isEmpty)
        #expect(result.intrinsicSize(displayScale: 2) == (0, 0))
        #expect(!result.truncated)
    }

    @Test func hardBreaksAlwaysBreak() throws {
        let file = try FontFile(Fonts.mono)
        let prepared = try measurer.prepare("ab\ncd\r\nef\u{2028}gh", font: mono)
        let result = prepared.layout(width: nil, numberOfLines: 0)
        #expect(lines(result, prepared) == ["ab", "cd", "ef", "gh"])
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        #expect(abs(result.width - 2 * advance) < 1e-9)
        #expect(abs(result.height - 4 * file.lineHeight(size: 13)) < 1e-9)
        // numberOfLines 1 keeps the first and says the rest is cut off.
        let one = prepared.layout(width: nil, numberOfLines: 1)
        #expect(lines(one, prepared) == ["ab"])
        #expect(one.truncated)
    }

    /// Every mandatory break of UAX #14 (LB4, LB5: BK = VT, FF, U+2028, U+2029; CR; LF;
    /// NL = U+0085) and every line separator of NSString's getLineStart ends a line; CR LF
    /// ends one, and two breaks in a row leave an empty line between them.
    @Test(arguments: ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"])
    func everyMandatoryBreakEndsALine(_ separator: String) throws {
        let file = try FontFile(Fonts.mono)
        let prepared = try measurer.prepare("ab" + separator + "cd" + separator + separator + "e", font: mono)
        let result = prepared.layout(width: nil, numberOfLines: 0)
        #expect(lines(result, prepared) == ["ab", "cd", "", "e"])
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        #expect(abs(result.width - 2 * advance) < 1e-9)
        #expect(abs(result.height - 4 * file.lineHeight(size: 13)) < 1e-9)
        let one = prepared.layout(width: nil, numberOfLines: 1)
        #expect(lines(one, prepared) == ["ab"])
        #expect(one.truncated)
    }

    /// Other controls and separators are no line break: a tab, NUL, U+001E (a UAX #14 CM),
    /// and LF CR is two breaks (an empty line between), not one.
    @Test func otherCharactersDoNotEndALine() throws {
        for text in ["a\tb", "a\u{0}b", "a\u{1E}b", "a\u{0E}b"] {
            let prepared = try measurer.prepare(text, font: mono)
            #expect(prepared.layout(width: nil, numberOfLines: 0).lines.count == 1, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        let prepared = try measurer.prepare("a\n\rb", font: mono)
        #expect(lines(prepared.layout(width: nil, numberOfLines: 0), prepared) == ["a", "", "b"])
    }

    @Test func greedyWrappingAtSpaces() throws {
        let file = try FontFile(Fonts.mono)
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        let prepared = try measurer.prepare("aaa bbb ccc", font: mono)
        // Exactly 7 cells: "aaa bbb" fits (its trailing space left out).
        #expect(lines(prepared.layout(width: 7 * advance, numberOfLines: 0), prepared) == ["aaa bbb", "ccc"])
        #expect(lines(prepared.layout(width: 7 * advance - 0.001, numberOfLines: 0), prepared) == ["aaa", "bbb", "ccc"])
        let wrapped = prepared.layout(width: 7 * advance, numberOfLines: 0)
        #expect(abs(wrapped.width - 7 * advance) < 1e-9)
        #expect(abs(wrapped.lines[1].width - 3 * advance) < 1e-9)
    }

    @Test func wrappingAfterHyphens() throws {
        let file = try FontFile(Fonts.mono)
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        let prepared = try measurer.prepare("well-known fact", font: mono)
        #expect(lines(prepared.layout(width: 5 * advance, numberOfLines: 0), prepared) == ["well-", "known", "fact"])
        #expect(lines(prepared.layout(width: 10 * advance, numberOfLines: 0), prepared) == ["well-known", "fact"])
    }

    @Test func aLongWordBreaksBetweenGraphemeClusters() throws {
        let file = try FontFile(Fonts.mono)
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        let prepared = try measurer.prepare("abcdefghij xy", font: mono)
        #expect(lines(prepared.layout(width: 4 * advance, numberOfLines: 0), prepared) == ["abcd", "efgh", "ij", "xy"])
        // The rest of a broken word shares its line with the next word when both fit.
        #expect(lines(prepared.layout(width: 7 * advance, numberOfLines: 0), prepared) == ["abcdefg", "hij xy"])
        // An emoji ZWJ sequence is one grapheme cluster: never split, even when nothing fits.
        let family = "a\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}b"
        let emoji = try measurer.prepare(family, font: mono)
        let narrow = emoji.layout(width: 1, numberOfLines: 0)
        #expect(lines(narrow, emoji) == ["a", "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}", "b"])
        // None of the built-in families has these emoji: .notdef, reported.
        #expect(narrow.missingGlyphs)
    }

    /// Trailing spaces never form a line, not even after a word broken between grapheme
    /// clusters at a width narrower than one glyph: each cluster is a line and the spaces
    /// hang at the end of the line before.
    @Test func spacesAfterABrokenWordFormNoLine() throws {
        let file = try FontFile(Fonts.mono)
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        let prepared = try measurer.prepare("Hi there  you", font: mono)
        let narrow = prepared.layout(width: 1e-9, numberOfLines: 0)
        #expect(lines(narrow, prepared) == ["H", "i", "t", "h", "e", "r", "e", "y", "o", "u"])
        #expect(narrow.lines.allSatisfy { abs($0.width - advance) < 1e-9 })
        #expect(lines(prepared.layout(width: 1.5 * advance, numberOfLines: 0), prepared) == ["H", "i", "t", "h", "e", "r", "e", "y", "o", "u"])
        #expect(lines(prepared.layout(width: 2 * advance, numberOfLines: 0), prepared) == ["Hi", "th", "er", "e", "yo", "u"])
        let trailing = try measurer.prepare("ab  ", font: mono)
        #expect(lines(trailing.layout(width: 1e-9, numberOfLines: 0), trailing) == ["a", "b"])
    }

    @Test func numberOfLinesLimitsAndTruncates() throws {
        let file = try FontFile(Fonts.mono)
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        let prepared = try measurer.prepare("aaa bbb ccc", font: mono)
        let two = prepared.layout(width: 3 * advance, numberOfLines: 2)
        #expect(lines(two, prepared) == ["aaa", "bbb"])
        #expect(two.truncated)
        let three = prepared.layout(width: 3 * advance, numberOfLines: 3)
        #expect(!three.truncated)
        // numberOfLines 1 never wraps, whatever the width.
        let one = prepared.layout(width: 3 * advance, numberOfLines: 1)
        #expect(lines(one, prepared) == ["aaa bbb ccc"])
        #expect(!one.truncated)
    }

    @Test func baselinesOfAWrappedLabel() throws {
        let file = try FontFile(Fonts.mono)
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        let result = try measurer.measure("aaa bbb ccc", font: mono, numberOfLines: 0, width: 3 * advance)
        let ascender = Double(file.ascender) * 13 / Double(file.unitsPerEm)
        #expect(result.lines.count == 3)
        #expect(abs(result.firstBaseline - ascender) < 1e-9)
        #expect(abs(result.lastBaseline - (ascender + 2 * file.lineHeight(size: 13))) < 1e-9)
    }

    @Test func missingGlyphsFallBackThroughTheBuiltInFamilies() throws {
        let inter = try FontFile(Fonts.interRegular)
        let dejaVu = try FontFile(Fonts.dejaVuSans)
        // Inter has no snowman; DejaVu Sans (the next built-in family) has.
        #expect(inter.glyph("\u{2603}") == nil)
        #expect(dejaVu.glyph("\u{2603}") != nil)
        let result = try measurer.measure("a\u{2603}", font: FontRequest(family: "Inter", size: 20))
        let expected = try inter.advances("a", size: 20) + dejaVu.advances("\u{2603}", size: 20)
        #expect(abs(result.width - expected) < 1e-9)
        #expect(!result.missingGlyphs)
        // The line height stays the requested face's.
        #expect(abs(result.lineHeight - inter.lineHeight(size: 20)) < 1e-9)
    }

    @Test func tenThousandCharactersWithoutABreakOpportunity() throws {
        let file = try FontFile(Fonts.mono)
        let advance = Double(try file.advance("a")) * 13 / Double(file.unitsPerEm)
        let text = String(repeating: "a", count: 10_000)
        let result = try measurer.measure(text, font: mono, numberOfLines: 0, width: 100 * advance)
        #expect(result.lines.count == 100)
        #expect(abs(result.width - 100 * advance) < 1e-9)
    }

    @Test func facesAreKeptInABoundedLRU() throws {
        let small = TextMeasurer(faceCapacity: 2)
        for family in ["Inter", "DejaVu Sans", "Liberation Sans", "Inter"] {
            _ = try small.measure("x", font: FontRequest(family: family))
        }
        let counts = small.faces.counts
        #expect(counts.held == 2)
        #expect(counts.loads == 4)   // Inter was evicted by Liberation Sans and loaded again
    }
}
