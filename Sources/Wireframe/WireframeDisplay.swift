/// How large an SVG wireframe is displayed: its `width` and `height`
/// attributes, in CSS pixels, while its `viewBox` stays in points.
///
/// The drawing (every panel, margins and gaps) is scaled by one factor `s` (pixels per
/// point); text, margins, gaps, captions and the problems and legend lists below the
/// drawing are sized in pixels (so a label is 11 px high at any `s`, and a 1e12-point
/// container still gives a picture about 1,200 px wide with readable labels).
public struct WireframeDisplay: Sendable, Equatable {
    /// How `s` is chosen.
    public enum Sizing: Sendable, Equatable {
        /// The default: the largest `s` ≤ 1 that fits the drawing in ``fitWidth`` × ``fitHeight``
        /// pixels (a phone screen is drawn at 1 px per point, a 1e12-point container shrunk).
        case fit
        /// `?scale=S`: `s` = S pixels per point, ``minScale`` ≤ S ≤ ``maxScale``.
        case scale(Double)
        /// `?width=W`: `s` chosen so that the drawing is W pixels wide,
        /// ``widthRange`` (an integer), but at most ``maxScale``: a scene too narrow for W
        /// at 16 px per point is drawn narrower (`data-scale` says 16).
        case width(Int)
    }

    public var sizing: Sizing

    /// Whether `?width=` chose the size.
    var isWidth: Bool {
        if case .width = sizing { return true }
        return false
    }

    public init(sizing: Sizing = .fit) {
        self.sizing = sizing
    }

    /// The box the default sizing fits the drawing in, pixels.
    public static let fitWidth = 1200.0
    public static let fitHeight = 900.0
    /// The smallest `?scale=`, pixels per point: a 1,000-point container drawn 1 px wide.
    /// Smaller scales draw a picture that is all margins and labels (the default fit
    /// reaches any smaller scale a huge scene needs).
    public static let minScale = 0.001
    /// The largest `?scale=`, pixels per point.
    public static let maxScale = 16.0
    /// The values `?width=` may take, pixels.
    public static let widthRange = 16...16_384
    /// The largest display width or height of the drawing, pixels: a `scale` or `width`
    /// that would draw a larger picture is reduced to this (so an answer's display size
    /// is bounded whatever the scene). The problems and legend lists below the drawing
    /// add their lines.
    public static let maxDimension = 16_384.0

    /// Parses the `scale` and `width` query parameters of `POST /solve?format=svg`.
    ///
    /// - `scale`: a decimal number (digits, an optional `.` and digits; no sign, exponent,
    ///   `inf` or `nan`) from ``minScale`` to ``maxScale``;
    /// - `width`: an integer in ``widthRange`` without leading zeros;
    /// - at most one of them.
    ///
    /// - Returns: the display, or the reason the parameters are refused (a 400).
    public static func parse(scale: String?, width: String?) -> Result<WireframeDisplay, InvalidParameter> {
        switch (scale, width) {
        case (nil, nil):
            return .success(WireframeDisplay())
        case (.some, .some):
            return .failure(.bothGiven)
        case (let text?, nil):
            guard isDecimal(text), let value = Double(text), value >= minScale, value <= maxScale else {
                return .failure(.scale(text))
            }
            return .success(WireframeDisplay(sizing: .scale(value)))
        case (nil, let text?):
            guard !text.isEmpty, text.count <= 5, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  text == "0" || !text.hasPrefix("0"), let value = Int(text), widthRange.contains(value) else {
                return .failure(.width(text))
            }
            return .success(WireframeDisplay(sizing: .width(value)))
        }
    }

    /// Why ``parse(scale:width:)`` refused the query.
    public enum InvalidParameter: Error, Equatable {
        /// `scale` is not a decimal number in ``minScale``...``maxScale`` (the text as sent).
        case scale(String)
        /// `width` is not an integer in ``widthRange`` (the text as sent).
        case width(String)
        /// Both `scale` and `width` were given.
        case bothGiven
    }

    /// `digits[.digits]`, at most 32 characters.
    private static func isDecimal(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 32 else { return false }
        var seenDot = false
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: ".") {
                if seenDot || index == 0 || index == bytes.count - 1 { return false }
                seenDot = true
            } else if !(0x30...0x39).contains(byte) {
                return false
            }
        }
        return true
    }
}
