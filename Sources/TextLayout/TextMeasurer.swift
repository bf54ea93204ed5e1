import CHarfBuzz
import Synchronization

/// Measures labels' text: fonts from a `FontCatalog`, shaping by HarfBuzz, line-break
/// opportunities from ICU (UAX #14), grapheme clusters from Swift's `Character`.
/// Thread-safe; faces are loaded once and kept in a bounded LRU (`FaceCache`).
public final class TextMeasurer: Sendable {
    public let catalog: FontCatalog
    public let faces: FaceCache
    let breaker = LineBreaker()

    /// - Parameter faceCapacity: the most faces kept loaded at once.
    public init(catalog: FontCatalog = FontCatalog(), faceCapacity: Int = 48) {
        self.catalog = catalog
        self.faces = FaceCache(capacity: faceCapacity)
    }

    /// The face a request names (family without regard to case, CSS weight matching).
    /// - Throws: `FontError.unknownFamily` with a did-you-mean, or `.familyNotInstalled`.
    public func face(for font: FontRequest) throws(FontError) -> FontFace {
        try catalog.face(family: font.family, weight: font.weight, italic: font.italic)
    }

    /// Splits `string` into paragraphs, itemizes them into face runs and shapes each
    /// paragraph once; `PreparedText.layout` then wraps it at any width.
    /// O(n) in the string's length plus HarfBuzz's shaping.
    /// - Throws: `FontError` for an unknown family or a face that cannot be loaded.
    public func prepare(_ string: String, font: FontRequest) throws(FontError) -> PreparedText {
        let primaryFace = try face(for: font)
        guard let primary = faces.load(primaryFace) else { throw .familyNotInstalled(primaryFace.family) }
        return PreparedText(string: string, font: font, primary: primary, measurer: self)
    }

    /// As ``prepare(_:font:)`` with the face already chosen and loaded (a stored face):
    /// `font`'s size applies; missing glyphs fall back through the built-in families.
    public func prepare(_ string: String, font: FontRequest, primary: LoadedFace) -> PreparedText {
        PreparedText(string: string, font: font, primary: primary, measurer: self)
    }

    /// `prepare(string, font:).layout(width:numberOfLines:)`.
    public func measure(_ string: String, font: FontRequest, numberOfLines: Int = 1, width: Double? = nil) throws(FontError) -> TextMeasurement {
        try prepare(string, font: font).layout(width: width, numberOfLines: numberOfLines)
    }

    /// The fallback faces for missing glyphs (built-in order, same weight and style), loaded.
    func fallbacks(for font: FontRequest, excluding primary: FontFace) -> [LoadedFace] {
        catalog.fallbackFaces(weight: font.weight, italic: font.italic)
            .filter { $0.path != primary.path }
            .compactMap { faces.load($0) }
    }
}

/// A label's text split into paragraphs at mandatory line breaks (``endsLine(_:)``), each
/// itemized into runs by face (the requested face, else the first built-in family that
/// has a character's glyphs), shaped once as a whole and given its UAX #14 break
/// opportunities and grapheme-cluster boundaries. Laying it out at a width then needs
/// only the shaping of the chosen lines on their own.
///
/// Memory: O(n) in the string's UTF-16 length, plus a memo of line widths cleared when it
/// passes `lineMemoLimit` entries.
public final class PreparedText: Sendable {
    /// The shaping a layout did (``layout(width:numberOfLines:shaping:)``): HarfBuzz calls,
    /// and the UTF-16 units (context included) they were given.
    public struct ShapingCount: Sendable, Equatable {
        public var calls = 0
        public var units = 0
        public init() {}
    }

    /// The string's UTF-16 code units.
    public let utf16: [UInt16]
    public let font: FontRequest
    let faces: [LoadedFace]
    let paragraphs: [Paragraph]
    /// Points.
    public let lineHeight: Double
    public let ascender: Double
    /// A character of the string has no glyph in any face: `.notdef` is measured for it.
    public let missingGlyphs: Bool
    /// The first such characters' scalars (at most ``maxMissingListed``, in string order,
    /// each once), for the diagnostic that names them.
    public let missingScalars: [Unicode.Scalar]
    public static let maxMissingListed = 8
    private let lineWidths = Mutex<[Int: Double]>([:])
    static let lineMemoLimit = 8192

    struct Run {
        let range: Range<Int>
        let face: Int
    }

    struct Paragraph {
        let range: Range<Int>
        let runs: [Run]
        /// UTF-16 offsets after which a line may break (UAX #14), ascending, ending with `range.upperBound`.
        let opportunities: [Int]
        /// Offsets where a grapheme cluster starts, ascending, then `range.upperBound`.
        let graphemes: [Int]
        /// prefix[i − range.lowerBound]: points of the advances of the clusters starting
        /// before offset i, from shaping the whole paragraph.
        let prefix: [Double]
    }

    init(string: String, font: FontRequest, primary: LoadedFace, measurer: TextMeasurer) {
        let units = Array(string.utf16)
        self.utf16 = units
        self.font = font
        let scale = font.size / Double(primary.unitsPerEm)
        self.lineHeight = Double(primary.ascender - primary.descender + primary.lineGap) * scale
        self.ascender = Double(primary.ascender) * scale

        // Paragraphs and grapheme clusters from Swift's Characters.
        var paragraphRanges: [Range<Int>] = []
        var graphemeStarts: [[Int]] = [[]]
        var offset = 0
        var start = 0
        var characters: [[Character]] = [[]]
        for character in string {
            let length = character.utf16.count
            if Self.endsLine(character) {
                paragraphRanges.append(start..<offset)
                start = offset + length
                graphemeStarts.append([])
                characters.append([])
            } else {
                graphemeStarts[graphemeStarts.count - 1].append(offset)
                characters[characters.count - 1].append(character)
            }
            offset += length
        }
        paragraphRanges.append(start..<offset)

        // Faces: the primary first, fallbacks loaded only when a character needs them.
        var faces = [primary]
        var fallbacks: [LoadedFace]?
        var missing = false
        var missingScalars: [Unicode.Scalar] = []
        func faceIndex(for character: Character) -> Int {
            func covers(_ face: LoadedFace) -> Bool {
                // The cmap lookup first: Unicode property lookups cost more, and are needed
                // only for a scalar the face lacks.
                character.unicodeScalars.allSatisfy { scalar in
                    face.hasGlyph(scalar) || scalar.properties.isDefaultIgnorableCodePoint
                        || scalar.properties.generalCategory == .control
                }
            }
            if covers(primary) { return 0 }
            if fallbacks == nil { fallbacks = measurer.fallbacks(for: font, excluding: primary.face) }
            for candidate in fallbacks ?? [] where covers(candidate) {
                if let index = faces.firstIndex(where: { $0 === candidate }) { return index }
                faces.append(candidate)
                return faces.count - 1
            }
            missing = true
            if missingScalars.count < Self.maxMissingListed {
                for scalar in character.unicodeScalars where !primary.hasGlyph(scalar) && !missingScalars.contains(scalar)
                    && !scalar.properties.isDefaultIgnorableCodePoint && scalar.properties.generalCategory != .control {
                    if missingScalars.count < Self.maxMissingListed { missingScalars.append(scalar) }
                }
            }
            return 0
        }

        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        var paragraphs: [Paragraph] = []
        for (index, range) in paragraphRanges.enumerated() {
            let starts = graphemeStarts[index]
            var runs: [Run] = []
            for (position, character) in characters[index].enumerated() {
                let face = faceIndex(for: character)
                let lower = starts[position]
                let upper = position + 1 < starts.count ? starts[position + 1] : range.upperBound
                if let last = runs.last, last.face == face, last.range.upperBound == lower {
                    runs[runs.count - 1] = Run(range: last.range.lowerBound..<upper, face: face)
                } else {
                    runs.append(Run(range: lower..<upper, face: face))
                }
            }
            // Whole-paragraph shaping: each cluster's advance, at its first code unit.
            var advances = [Double](repeating: 0, count: range.count + 1)
            for run in runs {
                Self.shape(units, context: range, item: run.range, face: faces[run.face], size: font.size, buffer: buffer) { cluster, advance in
                    advances[cluster - range.lowerBound] += advance
                }
            }
            var prefix = [Double](repeating: 0, count: range.count + 1)
            var sum = 0.0
            for i in 0..<range.count {
                prefix[i] = sum
                sum += advances[i]
            }
            prefix[range.count] = sum
            let opportunities: [Int] = range.isEmpty ? [] : units.withUnsafeBufferPointer { all in
                measurer.breaker.opportunities(Array(all[range])).map { $0 + range.lowerBound }
            }
            paragraphs.append(Paragraph(range: range, runs: runs, opportunities: opportunities,
                                        graphemes: starts + [range.upperBound], prefix: prefix))
        }
        self.faces = faces
        self.paragraphs = paragraphs
        self.missingGlyphs = missing
        self.missingScalars = missingScalars
    }

    /// Shapes `units[item]` with `units[context]` as its context, HarfBuzz's default
    /// features and segment properties guessed from the text, and reports each glyph's
    /// cluster (an offset into `units`) and x advance in points.
    static func shape(_ units: [UInt16], context: Range<Int>, item: Range<Int>, face: LoadedFace, size: Double,
                      buffer: OpaquePointer?, _ body: (Int, Double) -> Void) {
        guard !item.isEmpty else { return }
        hb_buffer_clear_contents(buffer)
        units.withUnsafeBufferPointer { all in
            hb_buffer_add_utf16(buffer, all.baseAddress! + context.lowerBound, Int32(context.count),
                                UInt32(item.lowerBound - context.lowerBound), Int32(item.count))
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(face.font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        guard let infos, let positions else { return }
        let scale = size / Double(face.unitsPerEm)
        for i in 0..<Int(count) {
            body(Int(infos[i].cluster) + context.lowerBound, Double(positions[i].x_advance) * scale)
        }
    }

    /// Points: the width of `units[range]` shaped on its own (each face run of it in its
    /// face, the line as context), memoized.
    func lineWidth(_ range: Range<Int>, paragraph: Paragraph, buffer: OpaquePointer?, shaping: inout ShapingCount) -> Double {
        guard !range.isEmpty else { return 0 }
        let key = range.lowerBound << 32 | range.upperBound
        if let known = lineWidths.withLock({ $0[key] }) { return known }
        var width = 0.0
        for run in paragraph.runs where run.range.overlaps(range) {
            let item = max(run.range.lowerBound, range.lowerBound)..<min(run.range.upperBound, range.upperBound)
            shaping.calls += 1
            shaping.units += range.count
            Self.shape(utf16, context: range, item: item, face: faces[run.face], size: font.size, buffer: buffer) { _, advance in
                width += advance
            }
        }
        lineWidths.withLock { memo in
            if memo.count >= Self.lineMemoLimit { memo.removeAll(keepingCapacity: true) }
            memo[key] = width
        }
        return width
    }

    /// Whether `character` is a mandatory line break: LF, VT, FF, CR, CR LF (one break),
    /// NEL (U+0085), LINE SEPARATOR (U+2028) or PARAGRAPH SEPARATOR (U+2029). These are
    /// UAX #14's mandatory breaks (LB4, LB5: classes BK, CR, LF, NL) and include every line
    /// separator of Apple's `NSString.getLineStart(_:end:contentsEnd:for:)`. A Swift
    /// `Character` holds CR LF as one cluster, and each of the others alone (UAX #29 GB4,
    /// GB5), so CR LF ends one line. `TextMeasuringTests.everyMandatoryBreakEndsALine` holds it.
    static func endsLine(_ character: Character) -> Bool {
        switch character {
        case "\n", "\u{0B}", "\u{0C}", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}": return true
        default: return false
        }
    }

    /// Whether a UTF-16 unit is white space that hangs at the end of a line (white space
    /// other than the no-break spaces U+00A0, U+2007, U+202F).
    static func hangs(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x20, 0x09, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// `end` moved back over hanging white space, not before `start`.
    func trimmed(_ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start && Self.hangs(utf16[end - 1]) { end -= 1 }
        return end
    }

    /// The lines at width `width` (nil: no wrapping), at most `numberOfLines` of them when
    /// that is > 0 (1 never wraps).
    ///
    /// Each paragraph is filled greedily: a line runs to the furthest UAX #14 opportunity
    /// whose line, trailing spaces left out and shaped on its own, is at most `width` wide
    /// (+10⁻⁶);
    /// a piece with no opportunity that fits alone is broken between grapheme clusters (at
    /// least one per line). Candidates are found from the paragraph's own shaping (its
    /// advances summed) and confirmed by shaping the line on its own: every opportunity
    /// whose estimate is within half an em of `width` is tried, furthest first, so context
    /// across a break (kerning, ligatures, contextual forms) changes the estimate by less
    /// than the margin. TextLayoutDifferentialTests and scripts/text-differential.py hold
    /// this against line-by-line shaping.
    public func layout(width: Double?, numberOfLines: Int) -> TextMeasurement {
        var shaping = ShapingCount()
        return layout(width: width, numberOfLines: numberOfLines, shaping: &shaping)
    }

    /// ``layout(width:numberOfLines:)``, adding to `shaping` the HarfBuzz calls it made and
    /// the UTF-16 units they were given (lines found in the memo cost none), which is
    /// what its time goes with: a line of a few characters costs one call's set-up.
    public func layout(width: Double?, numberOfLines: Int, shaping: inout ShapingCount) -> TextMeasurement {
        let limit = numberOfLines > 0 ? numberOfLines : Int.max
        let wrapWidth: Double? = numberOfLines == 1 ? nil : width.map { max($0, 0) }
        let slack = 0.5 * font.size
        // Widths within 10⁻⁶ point count as equal (the contract's tolerance; answered
        // frames are written to 6 decimals, and a pass wraps at the answered width).
        let fitTolerance = 1e-6
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        var lines: [TextLine] = []
        var truncated = false
        if utf16.isEmpty {
            return TextMeasurement(lines: [], lineHeight: lineHeight, ascender: ascender, truncated: false, missingGlyphs: false)
        }
        paragraphLoop: for paragraph in paragraphs {
            if lines.count == limit { truncated = true; break }
            let range = paragraph.range
            func estimate(_ a: Int, _ b: Int) -> Double {
                paragraph.prefix[b - range.lowerBound] - paragraph.prefix[a - range.lowerBound]
            }
            guard let maxWidth = wrapWidth, !range.isEmpty else {
                let end = trimmed(range.lowerBound, range.upperBound)
                lines.append(TextLine(range: range.lowerBound..<end,
                                      width: lineWidth(range.lowerBound..<end, paragraph: paragraph, buffer: buffer, shaping: &shaping)))
                continue
            }
            var start = range.lowerBound
            var next = 0  // index of the first opportunity after `start`
            let opportunities = paragraph.opportunities
            while start < range.upperBound {
                if lines.count == limit { truncated = true; break paragraphLoop }
                while next < opportunities.count && opportunities[next] <= start { next += 1 }
                // Trailing spaces never form a line: after a word broken between grapheme
                // clusters, the white space up to its opportunity hangs at the end of the
                // line before (TextMeasurerTests.spacesAfterABrokenWordFormNoLine).
                if start > range.lowerBound, trimmed(start, opportunities[next]) == start {
                    start = opportunities[next]
                    continue
                }
                var furthest = next
                while furthest < opportunities.count
                        && estimate(start, trimmed(start, opportunities[furthest])) <= maxWidth + slack {
                    furthest += 1
                }
                var chosen: (end: Int, line: TextLine)?
                var candidate = furthest - 1
                while candidate >= next {
                    let end = trimmed(start, opportunities[candidate])
                    let width = lineWidth(start..<end, paragraph: paragraph, buffer: buffer, shaping: &shaping)
                    if width <= maxWidth + fitTolerance {
                        chosen = (opportunities[candidate], TextLine(range: start..<end, width: width))
                        break
                    }
                    candidate -= 1
                }
                if let chosen {
                    lines.append(chosen.line)
                    start = chosen.end
                    continue
                }
                // No opportunity fits: break the piece up to the next one between grapheme clusters.
                let pieceEnd = trimmed(start, opportunities[next])
                let graphemes = paragraph.graphemes
                var lower = graphemes.partitionIndex { $0 <= start }  // first boundary after start
                var upper = lower
                while upper < graphemes.count && graphemes[upper] <= pieceEnd
                        && estimate(start, graphemes[upper]) <= maxWidth + slack {
                    upper += 1
                }
                var line: TextLine?
                var boundary = upper - 1
                while boundary > lower {
                    let end = graphemes[boundary]
                    let width = lineWidth(start..<end, paragraph: paragraph, buffer: buffer, shaping: &shaping)
                    if width <= maxWidth + fitTolerance {
                        line = TextLine(range: start..<end, width: width)
                        break
                    }
                    boundary -= 1
                }
                if line == nil {
                    // Not even one grapheme cluster fits: it gets a line of its own.
                    lower = min(lower, graphemes.count - 1)
                    let end = graphemes[lower]
                    line = TextLine(range: start..<end, width: lineWidth(start..<end, paragraph: paragraph, buffer: buffer, shaping: &shaping))
                }
                lines.append(line!)
                start = line!.range.upperBound
            }
        }
        return TextMeasurement(lines: lines, lineHeight: lineHeight, ascender: ascender, truncated: truncated,
                               missingGlyphs: missingGlyphs)
    }

    /// The text of `line`.
    public func text(of line: TextLine) -> String {
        String(decoding: utf16[line.range], as: UTF16.self)
    }
}

extension Array where Element == Int {
    /// The first index whose element fails `belongs` (the elements that satisfy it come
    /// first, as in a sorted array). O(log n).
    func partitionIndex(_ belongs: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
