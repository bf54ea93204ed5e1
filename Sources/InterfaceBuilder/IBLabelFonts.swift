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
        return named(description["name"] ?? description["family"] ?? "", size: size)
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
        return named(font["name"] ?? font["family"] ?? "", size: size)
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
        return (family, size, weight, italic, "\(name) \(JSONWriter.format(size)) as \(family == "system" ? "Inter" : family) weight \(weight)\(italic ? " italic" : "")")
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
    /// A label whose text is longer than ``TextSpec/maxStringLength`` keeps its recorded
    /// size, with a note (held by `longLabelKeepsItsRecordedSizeWhenMeasured`).
    static func measured(_ scene: JSONValue, labels: [(name: String, element: XMLElement)], notes: inout [String]) -> JSONValue {
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
                notes.append("Label \(name) keeps its recorded size: its text has \(string.count) characters, more than the \(TextSpec.maxStringLength) a label measures")
                continue
            }
            view.removeAll { $0.0 == "intrinsicSize" || $0.0 == "baseline" || $0.0 == "firstBaseline" }
            let description = element.child("fontDescription", key: "fontDescription")
            var font = font(description)
            if let attributed, let attributedFont = attributed.font {
                font = Self.attributedFont(attributedFont)
                if attributed.fragments > 1 { font.said += " (the first of its \(attributed.fragments) attributed fragments' fonts)" }
            }
            var text: [(String, JSONValue)] = [("string", .string(string)), ("font", .object([
                ("family", .string(font.family)), ("size", .number(font.size)), ("weight", .number(Double(font.weight))),
                ("italic", .bool(font.italic)),
            ]))]
            if let lines = element["numberOfLines"].flatMap(Int.init), lines >= 0 { text.append(("numberOfLines", .number(Double(lines)))) }
            if let width = element["preferredMaxLayoutWidth"].flatMap(Double.init), width > 0 {
                text.append(("preferredMaxLayoutWidth", .number(width)))
            }
            view.append(("text", .object(text)))
            views[index].1 = .object(view)
            notes.append("Label \(name) is measured: \(font.said)")
        }
        members[viewsIndex].1 = .object(views)
        return .object(members)
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
