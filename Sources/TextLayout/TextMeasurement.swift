/// One line of measured text.
public struct TextLine: Equatable, Sendable {
    /// The line's text as offsets into the string's UTF-16 view, trailing white space
    /// left out (a line's spaces before a break hang past its end and are not measured).
    public let range: Range<Int>
    /// Points: the sum of the line's glyph advances, shaped on its own.
    public let width: Double

    public init(range: Range<Int>, width: Double) {
        self.range = range
        self.width = width
    }
}

/// A label's text measured at one width.
public struct TextMeasurement: Equatable, Sendable {
    /// The lines shown (at most `numberOfLines` when that is > 0).
    public let lines: [TextLine]
    /// Points: ascender − descender + line gap of the face's horizontal extents × size / upem.
    public let lineHeight: Double
    /// Points: the face's ascender × size / upem.
    public let ascender: Double
    /// More lines were needed than `numberOfLines` allows.
    public let truncated: Bool
    /// Some character has no glyph in the face nor in any built-in family: it was measured
    /// as the face's `.notdef` glyph.
    public let missingGlyphs: Bool

    public init(lines: [TextLine], lineHeight: Double, ascender: Double, truncated: Bool, missingGlyphs: Bool) {
        self.lines = lines
        self.lineHeight = lineHeight
        self.ascender = ascender
        self.truncated = truncated
        self.missingGlyphs = missingGlyphs
    }

    /// Points, exact: the widest line (0 without lines).
    public var width: Double { lines.reduce(0) { max($0, $1.width) } }
    /// Points, exact: lines × line height.
    public var height: Double { Double(lines.count) * lineHeight }
    /// Points below the label's top, exact: the ascender.
    public var firstBaseline: Double { ascender }
    /// Points below the label's top, exact: ascender + (lines − 1) × line height (the
    /// ascender when there is no line).
    public var lastBaseline: Double { ascender + Double(max(lines.count - 1, 0)) * lineHeight }

    /// The label's intrinsic content size: width and height each rounded up to the pixel grid
    /// of `displayScale` (whole points when nil); the empty string is 0 × 0.
    public func intrinsicSize(displayScale: Double?) -> (width: Double, height: Double) {
        let scale = displayScale ?? 1
        return (Self.roundUp(width, scale: scale), Self.roundUp(height, scale: scale))
    }

    /// `value` rounded up to a multiple of 1/`scale`; a value within 10⁻⁶ point of a multiple
    /// counts as on it (so 134.0000000001 stays 134, as the text contract says).
    public static func roundUp(_ value: Double, scale: Double) -> Double {
        let nearest = (value * scale).rounded() / scale
        if abs(value - nearest) <= 1e-6 { return nearest }
        return (value * scale).rounded(.up) / scale
    }
}
