import TextLayout

/// A label as the wireframe draws it at one layout (contract, "Text": "The wireframe draws
/// each label's lines in its font"): the lines its `text` answer shows, each with its text,
/// measured width and baseline, and its font.
public struct DrawnLabel: Sendable, Equatable {
    /// One line shown: its text (trailing white space left out, as measured), its measured
    /// width in points, and its baseline in points below the label's top (the ascender,
    /// plus one line height per line before it).
    public struct Line: Sendable, Equatable {
        public var text: String
        public var width: Double
        public var baseline: Double
    }

    /// The label's view name.
    public var name: String
    /// The family's canonical spelling (`system` is `Inter`; the name as written when the
    /// catalog does not know it).
    public var family: String
    /// Points.
    public var size: Double
    /// CSS 100–900.
    public var weight: Int
    public var italic: Bool
    /// Points: the measured line height (the distance between two baselines).
    public var lineHeight: Double
    /// The lines drawn: the first `lines` of the `text` answer, fewer when the drawing's
    /// text bound was reached (``isCut``).
    public var lines: [Line]
    /// The `text` answer's `truncated`.
    public var truncated: Bool
    /// The `text` answer's `lines` (the lines the frame shows).
    public var linesShown: Int
    /// The label has lines that were not drawn because the document's bound on drawn text
    /// was reached (not a property of the layout: of the drawing).
    public var isCut: Bool
}

extension SceneText {
    /// Markup units charged per drawn line besides its text's UTF-8 bytes, for
    /// ``drawnLabels(in:budget:)``'s bound (a line's element, its coordinates and width).
    public static let drawnLineOverhead = 128

    /// Each label of `layout` as drawn (name order, as ``Layout/text``): the lines its
    /// `text` answer shows, laid out as the answer was (a label of several lines wrapped at
    /// its solved width, a single-line one unwrapped), each line's text, width
    /// and baseline. `budget` is the drawn text still allowed (UTF-8 bytes of the lines plus
    /// ``drawnLineOverhead`` each): a line that would pass it is not drawn, nor any after
    /// it (those labels are ``DrawnLabel/isCut``), and `budget` is reduced by what is drawn.
    /// Empty for a rejected layout or one without a `text` answer.
    ///
    /// - Complexity: O(UTF-16 length of the labels) plus the shaping of lines not yet
    ///   measured (``PreparedText/layout(width:numberOfLines:)`` keeps a memo of line widths):
    ///   each label with lines to draw is laid out once, as the solve did for this layout
    ///   (and charged to the request's work), and none once `budget` is spent.
    public func drawnLabels(in layout: Layout, budget: inout Int) -> [DrawnLabel] {
        guard !layout.isRejected, layout.text.count == labels.count else { return [] }
        return labels.indices.map { index in
            let label = labels[index]
            let answer = layout.text[index]
            let family = (try? Self.measurer.catalog.canonicalFamily(label.spec.family)) ?? label.spec.family
            var drawn = DrawnLabel(name: label.name, family: family, size: label.spec.size, weight: label.spec.weight,
                                   italic: label.spec.italic, lineHeight: label.prepared.lineHeight, lines: [], truncated: answer.truncated,
                                   linesShown: answer.lines, isCut: false)
            guard answer.lines > 0 else { return drawn }
            guard budget > 0 else {
                drawn.isCut = true
                return drawn
            }
            // As ``solve(_:groups:sizes:base:)`` measured what the answer shows.
            let width: Double? = label.isAutomatic || label.wrapsShownAtFrame
                ? layout.frame(of: label.name)?.width ?? label.fixedWidth : label.fixedWidth
            let measured = label.isAutomatic && width == nil
                ? label.prepared.layout(width: nil, numberOfLines: label.spec.numberOfLines)
                : label.prepared.layout(width: width, numberOfLines: label.spec.numberOfLines)
            for (number, line) in measured.lines.prefix(answer.lines).enumerated() {
                let text = label.prepared.text(of: line)
                let cost = text.utf8.count + Self.drawnLineOverhead
                guard cost <= budget else {
                    drawn.isCut = true
                    budget = 0
                    break
                }
                budget -= cost
                drawn.lines.append(DrawnLabel.Line(text: text, width: line.width,
                                                   baseline: measured.ascender + Double(number) * measured.lineHeight))
            }
            return drawn
        }
    }
}
