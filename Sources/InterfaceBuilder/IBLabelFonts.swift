import LayoutCompiler

/// `?intrinsic=measured`: labels become `text` views measured by the Text feature, their
/// Interface Builder font (`<fontDescription>`) mapped to a built-in family.
///
/// The mapping, said in each hierarchy's `notes`:
/// - the system font (`type="system"`, `boldSystem`, `italicSystem`, with `weight`) and
///   text styles (`style="UICTFontTextStyleBody"`, …) → Inter, the family the scene format
///   calls `system`; a text style's size and weight are UIKit's at the default content size
///   (Large: body 17, headline 17 semibold, …; Apple's Human Interface Guidelines,
///   "Typography", iOS Dynamic Type sizes);
/// - a named font by its family: Helvetica, Helvetica Neue and Arial → Liberation Sans
///   (metric-compatible with Arial), Times and Georgia → Liberation Serif, Courier and
///   Menlo → Liberation Mono; any other → Inter; its weight from the name's suffix
///   (`-Bold` 700, `-Medium` 500, `-Light` 300, …).
enum IBLabelFonts {
    /// UIKit's text styles at the Large content size: (points, CSS weight).
    static let textStyles: [String: (size: Double, weight: Int)] = [
        "UICTFontTextStyleLargeTitle": (34, 400), "UICTFontTextStyleTitle0": (34, 400),
        "UICTFontTextStyleTitle1": (28, 400), "UICTFontTextStyleTitle2": (22, 400), "UICTFontTextStyleTitle3": (20, 400),
        "UICTFontTextStyleHeadline": (17, 600), "UICTFontTextStyleBody": (17, 400), "UICTFontTextStyleCallout": (16, 400),
        "UICTFontTextStyleSubhead": (15, 400), "UICTFontTextStyleFootnote": (13, 400),
        "UICTFontTextStyleCaption1": (12, 400), "UICTFontTextStyleCaption2": (11, 400),
    ]

    /// IB's `weight` attribute of the system font → CSS weight.
    static let weights: [String: Int] = [
        "ultraLight": 100, "thin": 200, "light": 300, "regular": 400, "medium": 500,
        "semibold": 600, "bold": 700, "heavy": 800, "black": 900,
    ]

    /// The scene `font` of a `<fontDescription>` and a sentence saying how it was mapped.
    static func font(_ description: XMLElement?) -> (family: String, size: Double, weight: Int, italic: Bool, said: String) {
        guard let description else { return ("system", 17, 400, false, "no font recorded: system 17") }
        if let style = description["style"] {
            let known = textStyles[style] ?? (17, 400)
            return ("system", known.size, known.weight, false, "text style \(style) as system \(JSONWriter.format(known.size)) weight \(known.weight)")
        }
        let size = description["pointSize"].flatMap(Double.init) ?? 17
        if let type = description["type"] {
            var weight = description["weight"].flatMap { weights[$0] } ?? 400
            if type == "boldSystem" { weight = 700 }
            let italic = type == "italicSystem"
            return ("system", size, weight, italic, "\(type) \(JSONWriter.format(size)) as Inter weight \(weight)\(italic ? " italic" : "")")
        }
        return named([description["name"], description["family"]].compactMap { $0 }.first { !$0.isEmpty } ?? "", size: size)
    }

    /// The scene `font` of an attributed string's font (`<font key="NSFont">` in a
    /// fragment's `<attributes>`): `metaFont="system"` (and the other meta fonts) is the
    /// system font, bold when the meta font's name says so; `name` is mapped as a
    /// `<fontDescription>`'s; `size` is its point size (17 without one).
    static func attributedFont(_ font: XMLElement) -> (family: String, size: Double, weight: Int, italic: Bool, said: String) {
        let size = font["size"].flatMap(Double.init) ?? 17
        if let meta = font["metaFont"] {
            let weight = meta.lowercased().contains("bold") ? 700 : 400
            return ("system", size, weight, false, "metaFont \(meta) \(JSONWriter.format(size)) as Inter weight \(weight)")
        }
        return named([font["name"], font["family"]].compactMap { $0 }.first { !$0.isEmpty } ?? "", size: size)
    }

    /// A font named `name` (a PostScript or family name) at `size` points: its family
    /// mapped, its weight and slant from the name.
    private static func named(_ name: String, size: Double) -> (family: String, size: Double, weight: Int, italic: Bool, said: String) {
        let lower = name.lowercased()
        // The mapping `unknown_font`'s did-you-mean names too.
        let family = FontFamilyHint.importedFamily(of: lower)
        // The style: a PostScript name's part after its last `-` (`Arial-BoldItalicMT`),
        // without the vendor's `MT`/`PS` and the slant, so the weight word ends it.
        var style = Substring(lower.split(separator: "-").last ?? "")
        for trailer in ["mt", "ps"] where style.hasSuffix(trailer) { style = style.dropLast(trailer.count) }
        for slant in ["italic", "oblique"] where style.hasSuffix(slant) { style = style.dropLast(slant.count) }
        var weight = 400
        // Longer words first: `ultralight` before `light`, `semibold` before `bold`.
        for (suffix, value) in [("ultralight", 100), ("extralight", 200), ("thin", 200), ("light", 300), ("medium", 500),
                                ("semibold", 600), ("demibold", 600), ("extrabold", 800), ("ultrabold", 800), ("bold", 700),
                                ("heavy", 800), ("black", 900)] where style.hasSuffix(suffix) {
            weight = value
            break
        }
        let italic = lower.contains("italic") || lower.contains("oblique")
        let said = name.isEmpty ? "a font with no name," : name
        return (family, size, weight, italic, "\(said) \(JSONWriter.format(size)) as \(family == "system" ? "Inter" : family) weight \(weight)\(italic ? " italic" : "")")
    }

    /// A label's attributed text (`<attributedString key="attributedText">`): its
    /// fragments' strings joined (each the `content` attribute or `<string key="content">`),
    /// the first fragment's font (`<font key="NSFont">`, `nil` without one), and the number
    /// of fragments. `nil` when the label has none.
    static func attributedText(_ label: XMLElement) -> (string: String, font: XMLElement?, fragments: Int)? {
        guard let attributed = label.child("attributedString", key: "attributedText") else { return nil }
        let fragments = attributed.children.filter { $0.name == "fragment" }
        let string = fragments.map { $0["content"] ?? $0.child("string", key: "content")?.text ?? "" }.joined()
        let font = fragments.first?.child("attributes")?.child("font", key: "NSFont")
        return (string, font, fragments.count)
    }

    /// `scene` with each label of `labels` (scene name → `<label>` element) made a `text`
    /// view: its string (its attributed text's fragments joined, in the first fragment's
    /// font, else the `text` attribute or `<string key="text">`), its mapped font,
    /// `numberOfLines` and `preferredMaxLayoutWidth`; its recorded intrinsic size and back-solved baselines dropped (its text gives them).
    /// A label whose text is longer than ``TextSpec/maxStringLength``, or whose point size,
    /// `numberOfLines` or `preferredMaxLayoutWidth` the scene format refuses
    /// (``refusal(size:sizeAttribute:lines:width:)``), keeps its recorded size, with a note
    /// naming why (held by `longLabelKeepsItsRecordedSizeWhenMeasured` and
    /// `outOfRangeLabelValuesKeepTheRecordedSize`): one label never leaves its hierarchy unsolved.
    ///
    /// A label that shrinks its text to fit (`adjustsFontSizeToFit="YES"`, or
    /// `adjustsFontSizeToFitWidth`, with a `minimumScaleFactor` above 0 and below 1, or a
    /// `minimumFontSize` below its point size) is measured at its full size, as UIKit's
    /// intrinsic content size is, and listed in `shrinking` with a note saying so
    /// (`shrinkingLabelsAreNotedAndNotLintedAsTruncated`). Labels that keep their recorded
    /// size are listed in `kept` with why.
    static func measured(_ scene: JSONValue, labels: [(name: String, element: XMLElement)], notes: inout [String],
                         kept: inout [(name: String, why: String)],
                         shrinking: inout [(name: String, minimumScale: Double)]) -> JSONValue {
        guard !labels.isEmpty, case .object(var members) = scene,
              let viewsIndex = members.firstIndex(where: { $0.0 == "views" }),
              case .object(var views) = members[viewsIndex].1 else { return scene }
        for (name, element) in labels {
            guard let index = views.firstIndex(where: { $0.0 == name }), case .object(var view) = views[index].1 else { continue }
            let attributed = attributedText(element)
            // Attributed text, when recorded, is what the label shows (setting
            // `attributedText` replaces `text`).
            let string = attributed?.string ?? element["text"] ?? element.child("string", key: "text")?.text ?? ""
            // A string the scene format refuses (``TextSpec/maxStringLength``) would leave
            // the whole hierarchy unsolved: that label keeps its recorded size instead.
            if string.count > TextSpec.maxStringLength {
                let why = "its text has \(string.count) characters, more than the \(TextSpec.maxStringLength) a label measures"
                notes.append("Label \(name) keeps its recorded size: \(why)")
                kept.append((name, why))
                continue
            }
            let description = element.child("fontDescription", key: "fontDescription")
            var font = font(description)
            // The attribute the point size was read from, for the note when it is refused.
            var sizeAttribute = description?["style"] == nil && description?["pointSize"] != nil ? "pointSize" : nil
            if let attributed, let attributedFont = attributed.font {
                font = Self.attributedFont(attributedFont)
                sizeAttribute = attributedFont["size"] != nil ? "size" : nil
                if attributed.fragments > 1 { font.said += " (the first of its \(attributed.fragments) attributed fragments' fonts)" }
            }
            let lines = element["numberOfLines"].flatMap(Int.init)
            let width = element["preferredMaxLayoutWidth"].flatMap(Double.init)
            // A value the scene format refuses (contract "Text") would leave the whole
            // hierarchy unsolved: that label keeps its recorded size instead
            // (IBLabelFontsTests.outOfRangeLabelValuesKeepTheRecordedSize).
            if let refused = refusal(size: font.size, sizeAttribute: sizeAttribute ?? "font size", lines: lines, width: width) {
                notes.append("Label \(name) keeps its recorded size: \(refused)")
                kept.append((name, refused))
                continue
            }
            view.removeAll { $0.0 == "intrinsicSize" || $0.0 == "baseline" || $0.0 == "firstBaseline" }
            var text: [(String, JSONValue)] = [("string", .string(string)), ("font", .object([
                ("family", .string(font.family)), ("size", .number(font.size)), ("weight", .number(Double(font.weight))),
                ("italic", .bool(font.italic)),
            ]))]
            if let lines { text.append(("numberOfLines", .number(Double(lines)))) }
            // 0 is Interface Builder's "automatic" (no preferred width).
            if let width, width > 0 { text.append(("preferredMaxLayoutWidth", .number(width))) }
            view.append(("text", .object(text)))
            views[index].1 = .object(view)
            notes.append("Label \(name) is measured: \(font.said)")
            if let scale = minimumScale(element, size: font.size) {
                notes.append("Label \(name) shrinks its text to fit at run time (scale at least \(JSONWriter.format(scale))): "
                             + "it is measured at its full size, as UIKit's intrinsic content size is")
                shrinking.append((name, scale))
            }
        }
        members[viewsIndex].1 = .object(views)
        return .object(members)
    }

    /// The smallest scale a label shrinks its text to when it does not fit its width, or
    /// `nil` when it does not shrink: `adjustsFontSizeToFit="YES"` (Interface Builder's
    /// attribute; `adjustsFontSizeToFitWidth`, UIKit's property name, is read too) with a
    /// `minimumScaleFactor` above 0 and below 1, else a `minimumFontSize` (deprecated since
    /// iOS 6) above 0 and below `size`, as a fraction of it. A factor of 0 is "the label
    /// doesn't scale the text down" (Apple's UILabel documentation, `minimumScaleFactor`).
    static func minimumScale(_ label: XMLElement, size: Double) -> Double? {
        guard (label["adjustsFontSizeToFit"] ?? label["adjustsFontSizeToFitWidth"]) == "YES" else { return nil }
        if let factor = label["minimumScaleFactor"].flatMap(Double.init) {
            return factor > 0 && factor < 1 ? factor : nil
        }
        if let points = label["minimumFontSize"].flatMap(Double.init), points > 0, points < size {
            return points / size
        }
        return nil
    }

    /// Why a label's values cannot be measured, naming the attribute and its value, or
    /// `nil` when the scene format takes them (contract "Text"): a point size above 0 and at
    /// most ``TextSpec/maxFontSize``, a `numberOfLines` from 0 to
    /// ``TextSpec/maxNumberOfLines``, a `preferredMaxLayoutWidth` of at least 0 and within
    /// ``maximumMagnitude``. `sizeAttribute` names where the size was read
    /// (`pointSize`, or `size` for an attributed string's font).
    static func refusal(size: Double, sizeAttribute: String, lines: Int?, width: Double?) -> String? {
        if !(size > 0) || size > TextSpec.maxFontSize {
            return "its \(sizeAttribute) is \(JSONWriter.format(size)); a font size is more than 0 and at most \(JSONWriter.format(TextSpec.maxFontSize)) points"
        }
        if let lines, lines < 0 || lines > TextSpec.maxNumberOfLines {
            return "its numberOfLines is \(lines); a label measures from 0 (as many as needed) to \(TextSpec.maxNumberOfLines) lines"
        }
        if let width, width < 0 || width > maximumMagnitude {
            return "its preferredMaxLayoutWidth is \(JSONWriter.format(width)); a preferred width is from 0 to \(JSONWriter.format(maximumMagnitude)) points"
        }
        return nil
    }

    /// The `<label>` elements among `ids` (scene name → IB id), found in `root`'s tree.
    static func labels(in root: XMLElement, ids: [(name: String, ibId: String)]) -> [(name: String, element: XMLElement)] {
        var byID: [String: XMLElement] = [:]
        func visit(_ element: XMLElement) {
            if element.name == "label", let id = element["id"], byID[id] == nil { byID[id] = element }
            for child in element.children { visit(child) }
        }
        visit(root)
        return ids.compactMap { entry in byID[entry.ibId].map { (entry.name, $0) } }
    }
}
