// Shared by the font libFuzzer target (fuzz/upload/FuzzFont.swift, built by
// scripts/fuzz-upload-smoke.sh with this file) and FontFuzzTests, which replays
// fuzz/regressions/font/ and Debian's fonts cut and corrupted on every `swift test`.
// No Testing import and no Foundation (TextLayout's ICU module clashes with Foundation's):
// each check returns the first invariant an input breaks, or nil.
import TextLayout

/// The settings and invariants of the font fuzz target: the stored-font upload path
/// (``FontFileCheck``), then, for a file it accepts, face loading in HarfBuzz and
/// measuring strings with the face, as a label naming a stored font does.
enum FontFuzz {
    /// Strings measured with every accepted face at 17 points: Latin with spaces and a
    /// hyphen, an empty string, hard line breaks, combining marks, a ZWJ emoji sequence,
    /// right-to-left and CJK text (mostly absent from a fuzzed face: measured as
    /// `.notdef`) and a long word with no break opportunity. The first is measured at the
    /// extreme sizes too.
    static let strings = [
        "Hello, world", "", "fi fl ffi – well-known words wrap\nafter hyphens\r\nand spaces",
        "e\u{301}\u{302} A\u{30A}", "👩‍👩‍👧 ✓ 𝒳", "שלום עולם مرحبا", "漢字かなカナ",
        String(repeating: "W", count: 60),
    ]
    /// Points: a tiny size and the largest the contract allows, for the first string.
    static let extremeSizes: [Double] = [0.5, 1_000]
    /// `(width, numberOfLines)`: unwrapped, one line, wrapped at widths from 0 to very wide.
    static let layouts: [(Double?, Int)] = [(nil, 0), (120, 1), (120, 0), (0, 3), (37.5, 2), (1e6, 0)]

    /// A catalog with no faces (every file is absent): measuring falls back to nothing,
    /// so each input's own face shapes every glyph (`.notdef` where it has none).
    static let emptyCatalog = FontCatalog(fontsRoot: "/nonexistent", fileExists: { _ in false })
    /// The face an input is loaded as; its path only names it (a stored face's kind of key).
    static let fuzzedFace = FontFace(family: "Fuzzed", weight: 400, italic: false, path: "stored:Fuzzed/400@1")

    /// The invariants of bytes → check → load → measure, for any input:
    /// - ``FontFileCheck/check(_:)`` refuses with a message, or accepts with at least one
    ///   glyph and a unitsPerEm in 16–16,384;
    /// - an accepted file loads as a face (HarfBuzz reads it as the check did);
    /// - every string measures at every layout: at most `numberOfLines` lines
    ///   when that is > 0 (one when 1), each line's range inside the string, ascending and
    ///   not overlapping, every width finite, the line height and ascender finite;
    /// - measuring is deterministic: the same string measured twice gives equal answers.
    static func checkFont(_ bytes: [UInt8]) -> String? {
        let info: FontFileInfo
        do {
            info = try FontFileCheck.check(bytes)
        } catch {
            return error.message.isEmpty ? "a refusal without a message" : nil
        }
        guard info.glyphCount >= 1, (16...16_384).contains(info.unitsPerEm) else {
            return "accepted with \(info.glyphCount) glyphs and unitsPerEm \(info.unitsPerEm)"
        }
        // Loaded from the bytes, as a stored face is (no file): HarfBuzz copies them.
        guard let loaded = LoadedFace(fuzzedFace, bytes: bytes) else { return "an accepted font does not load" }
        let measurer = TextMeasurer(catalog: emptyCatalog, faceCapacity: 2)
        let cases = strings.map { ($0, 17.0) } + extremeSizes.map { (strings[0], $0) }
        for (string, size) in cases {
            let prepared = measurer.prepare(string, font: FontRequest(family: "Fuzzed", size: size), primary: loaded)
            let length = prepared.utf16.count
            for (width, numberOfLines) in layouts {
                let measured = prepared.layout(width: width, numberOfLines: numberOfLines)
                if let failure = checkMeasurement(measured, length: length, numberOfLines: numberOfLines) {
                    return "\(failure) (size \(size), width \(width.map { "\($0)" } ?? "none"), lines \(numberOfLines), string \(string.debugDescription.prefix(40)))"
                }
            }
            if prepared.layout(width: 120, numberOfLines: 0) != prepared.layout(width: 120, numberOfLines: 0) {
                return "the same layout measured twice differs (size \(size), string \(string.debugDescription.prefix(40)))"
            }
        }
        return nil
    }

    /// The shape of one measurement of a string of `length` UTF-16 units.
    static func checkMeasurement(_ measured: TextMeasurement, length: Int, numberOfLines: Int) -> String? {
        guard measured.lineHeight.isFinite, measured.ascender.isFinite else {
            return "line height \(measured.lineHeight) or ascender \(measured.ascender) not finite"
        }
        if numberOfLines > 0, measured.lines.count > numberOfLines {
            return "\(measured.lines.count) lines for numberOfLines \(numberOfLines)"
        }
        if length == 0, !measured.lines.isEmpty { return "the empty string has \(measured.lines.count) lines" }
        var previousEnd = 0
        for line in measured.lines {
            guard line.range.lowerBound >= previousEnd, line.range.upperBound <= length else {
                return "line \(line.range) outside the string (\(length) units) or before the previous line's end \(previousEnd)"
            }
            guard line.width.isFinite else { return "line \(line.range) has width \(line.width)" }
            previousEnd = line.range.upperBound
        }
        let intrinsic = measured.intrinsicSize(displayScale: 3)
        guard intrinsic.width.isFinite, intrinsic.height.isFinite else {
            return "intrinsic size \(intrinsic) not finite"
        }
        return nil
    }
}
