import LayoutCompiler

/// Labels' text drawn in their fonts (contract, "Text": "The wireframe draws each label's
/// lines in its font"), so that a person sees where the text wraps and where it is cut off.
///
/// Each label (a view with `text`) of a laid-out panel, unless it or an ancestor is
/// `hidden` (UIKit draws neither), is one group after the panel's views and guides:
///
/// ```
/// <g class="text" data-view="body" data-lines="2" data-truncated="false"
///    font-family="'Inter', sans-serif" font-size="15" font-weight="400">
///   <text x="16" y="46.52" data-width="271.36" textLength="271.36" lengthAdjust="spacingAndGlyphs" xml:space="preserve">Tomorrow will be sunny in the morning with</text>
///   <text x="16" y="64.67" …>clouds moving in after lunch</text>
/// </g>
/// ```
///
/// - The lines are those the `text` answer shows (`data-lines` is its `lines`), each
///   aligned as UILabel's natural alignment does (`x`, points from the container's origin:
///   the frame's left edge, or under `layoutDirection: rightToLeft` the frame's right
///   edge less the line's measured width) and at its
///   measured baseline (`y`: the frame's top plus the ascender, plus one line height per
///   line before it), exactly (rounded to 6 places as `/solve` writes numbers). Its text
///   is the measured line (trailing white space left out); `textLength` is its measured
///   width, so a viewer drawing it in another font still shows where it wraps.
/// - Font: `font-family` is the label's family (its canonical spelling; characters other
///   than letters, digits, space, `-`, `_` and `.` left out) quoted, then a generic family
///   (`monospace` for a family named `… Mono`, `serif` for `… Serif`, else `sans-serif`);
///   `font-size` its size in points; `font-weight`; `font-style="italic"` when italic.
/// - A truncated label (`text` answer `truncated`) has classes `text truncated`,
///   `data-truncated="true"`, a dashed outline over its frame (`rect.outline`) with a
///   `<title>` saying so, and an ellipsis (`text.ellipsis`, `…`) after its last drawn line.
/// - A line wider than its frame (one that cannot wrap: `numberOfLines: 1`, or a word
///   wider than the frame) is cut at the frame's sides, and a truncated label's last line
///   where its ellipsis then fits inside the frame (the ellipsis taken as
///   ``ellipsisWidth`` ems), as UILabel ends a truncated line with `…` within its bounds:
///   the line's `<text>` sits in an `<svg class="clip">` viewport over that part of the
///   frame (and the drawn lines' height), the ellipsis right after it.
/// - The document draws at most ``maxDrawnTextBytes`` of label text (the lines' UTF-8
///   bytes plus ``SceneText/drawnLineOverhead`` each, in panel and name order); a label
///   past it has `data-cut="true"`, only the lines that fit, and a `<title>` saying so.
/// - Text is escaped as everything the wireframe writes (``SVGWriter/text(_:)``);
///   directional formatting characters are written as character references.
/// - View labels (names and frames) are placed clear of the drawn lines
///   (``reserveTexts(of:origin:scale:in:into:)``).
extension WireframeRenderer {
    /// The most label text one wireframe draws, in UTF-8 bytes plus
    /// ``SceneText/drawnLineOverhead`` per line: 2 MiB (about 3 MiB of markup), a small part
    /// of the answer's bound (`--max-response-bytes`). Lines beyond it are not drawn.
    public static let maxDrawnTextBytes = 2 * 1_048_576

    /// The width of the ellipsis after a truncated label's last line, in ems (Inter's and
    /// DejaVu Sans's `…` are at most 1 em wide), for keeping view labels clear of it.
    static let ellipsisWidth = 1.0

    /// The `font-family` value of a label: its family quoted (only letters, digits, space,
    /// `-`, `_`, `.` kept, so that the value is one CSS string whatever the name), then a
    /// generic family.
    static func fontFamily(_ family: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in family.unicodeScalars.prefix(256) where scalar.properties.isAlphabetic
            || ("0"..."9").contains(scalar) || " -_.".unicodeScalars.contains(scalar) {
            kept.append(scalar)
        }
        let name = String(kept)
        let lower = name.lowercased()
        let generic = lower.hasSuffix(" mono") || lower.contains(" mono ") ? "monospace"
            : lower.contains("serif") && !lower.contains("sans") ? "serif" : "sans-serif"
        return name.isEmpty ? generic : "'\(name)', \(generic)"
    }

    /// The panel's labels' lines, one group per label (see above).
    static func writeTexts(_ panel: Panel, into out: inout SVGWriter) {
        for text in panel.texts {
            guard out.isWriting else { return }
            let label = text.label
            out.raw("<g")
            out.attribute("class", label.truncated ? "text truncated" : "text")
            out.attribute("data-view", label.name)
            out.attribute("data-lines", String(label.linesShown))
            out.attribute("data-truncated", label.truncated ? "true" : "false")
            if label.isCut { out.attribute("data-cut", "true") }
            out.attribute("font-family", fontFamily(label.family))
            out.attribute("font-size", number(label.size))
            out.attribute("font-weight", String(label.weight))
            if label.italic { out.attribute("font-style", "italic") }
            out.raw(">\n")
            var notes: [String] = []
            if label.truncated {
                notes.append("Label '\(label.name)' is truncated: its text does not fit its frame (\(label.linesShown) \(label.linesShown == 1 ? "line" : "lines") shown)")
            }
            if label.isCut {
                notes.append("Not every line is drawn: the wireframe draws at most \(maxDrawnTextBytes) bytes of label text")
            }
            if !notes.isEmpty {
                out.raw("<title>")
                out.text(notes.joined(separator: "\n"))
                out.raw("</title>\n")
            }
            if label.truncated {
                out.raw("<rect class=\"outline\"")
                out.attribute("x", number(text.frame.x))
                out.attribute("y", number(text.frame.y))
                out.attribute("width", number(text.frame.width))
                out.attribute("height", number(text.frame.height))
                out.raw("/>\n")
            }
            for (index, line) in label.lines.enumerated() {
                guard out.isWriting else { return }
                let clip = text.clipBox(line.width, endsTruncated: label.truncated && index == label.lines.count - 1)
                let clipped = clip != nil
                if let box = clip {
                    // Cut where UILabel stops drawing: a nested viewport whose viewBox is its
                    // own box keeps the line's coordinates.
                    out.raw("<svg class=\"clip\"")
                    out.attribute("x", number(box.x))
                    out.attribute("y", number(box.y))
                    out.attribute("width", number(box.width))
                    out.attribute("height", number(box.height))
                    out.attribute("viewBox", "\(number(box.x)) \(number(box.y)) \(number(box.width)) \(number(box.height))")
                    out.raw(" overflow=\"hidden\">")
                }
                out.raw("<text")
                out.attribute("x", number(text.lineX(line.width)))
                out.attribute("y", number(text.frame.y + line.baseline))
                out.attribute("data-width", number(line.width))
                if line.width > 0 && !line.text.isEmpty {
                    out.attribute("textLength", number(line.width))
                    out.raw(" lengthAdjust=\"spacingAndGlyphs\"")
                }
                out.raw(" xml:space=\"preserve\">")
                out.text(line.text)
                out.raw(clipped ? "</text></svg>\n" : "</text>\n")
            }
            if label.truncated, let last = label.lines.last {
                // After the line's drawn end, inside the frame: its right in a left-to-right
                // layout, its left in a right-to-left one.
                let shown = text.shownWidth(last.width, endsTruncated: true)
                out.raw("<text class=\"ellipsis\"")
                out.attribute("x", number(text.rightToLeft ? text.frame.x + text.frame.width - shown - text.ellipsis : text.frame.x + shown))
                out.attribute("y", number(text.frame.y + last.baseline))
                out.raw(">…</text>\n")
            }
            out.raw("</g>\n")
        }
    }
}
