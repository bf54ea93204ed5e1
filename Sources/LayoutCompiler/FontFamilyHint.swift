import LayoutSyntax
import TextLayout

/// The did-you-mean of an `unknown_font` family that ends with a weight or style word
/// (`DejaVu Sans Bold`, `Inter-BoldItalic`) or names an Apple family (`Helvetica`,
/// `SF Pro`): the family to write and the `weight`/`italic` that say the style
/// (`TextSceneTests.styledAndAppleFamiliesSuggestTheFamilyToWrite`).
public enum FontFamilyHint {
    /// Weight words, lowercased, longest first within a stem, with the weight of the
    /// OpenType `usWeightClass` names (OpenType spec, "OS/2", usWeightClass: Thin 100,
    /// Extra-light (Ultra-light) 200, Light 300, Normal (Regular) 400, Medium 500,
    /// Semi-bold (Demi-bold) 600, Bold 700, Extra-bold (Ultra-bold) 800, Black (Heavy) 900;
    /// Heavy is 800 here, as Inter's and Apple's faces name it).
    static let weightWords: [(word: String, weight: Int)] = [
        ("thin", 100), ("extralight", 200), ("ultralight", 200), ("light", 300), ("regular", 400),
        ("medium", 500), ("semibold", 600), ("demibold", 600), ("bold", 700), ("extrabold", 800),
        ("ultrabold", 800), ("heavy", 800), ("black", 900),
    ]
    /// The words of a slanted style.
    static let slantWords = ["italic", "oblique"]
    /// Words that make a two-word weight with the next (`Semi Bold`, `Extra Light`).
    static let weightPrefixes = ["semi", "demi", "extra", "ultra"]

    /// Apple's family names (lowercased) that Interface Builder documents name and that
    /// ``importedFamily(of:)`` maps: Helvetica, Arial, Times, Georgia, Courier, Menlo and
    /// the system font's names.
    static let appleFamilies = [
        "helvetica", "helvetica neue", "helveticaneue", "arial", "arialmt", "times", "times new roman",
        "timesnewroman", "timesnewromanpsmt", "georgia", "courier", "courier new", "couriernew", "menlo",
        "sf pro", "sf pro text", "sf pro display", "sf pro rounded", "sf ui", "sf ui text", "sf ui display",
        "sf compact", "san francisco", ".sf ui text", ".sf ui display", "-apple-system", "system-ui",
    ]

    /// The family `POST /import` measures a font named `name` (a family or PostScript name)
    /// with: Helvetica, Helvetica Neue and Arial → Liberation Sans (metric-compatible with
    /// Arial), Times and Georgia → Liberation Serif, Courier and Menlo → Liberation Mono,
    /// any other → `system` (Inter).
    public static func importedFamily(of name: String) -> String {
        let lower = name.lowercased()
        if lower.hasPrefix("helvetica") || lower.hasPrefix("arial") { return "Liberation Sans" }
        if lower.hasPrefix("times") || lower.hasPrefix("georgia") { return "Liberation Serif" }
        if lower.hasPrefix("courier") || lower.hasPrefix("menlo") { return "Liberation Mono" }
        return FontCatalog.systemAlias
    }

    /// `name` without its trailing weight and slant words (each after a space or `-`, in
    /// either order, a weight and a slant in one word too: `BoldItalic`), with the weight
    /// and slant they say; `nil` when it ends with none or nothing is left before them.
    static func splitStyle(_ name: String) -> (family: String, weight: Int?, italic: Bool)? {
        var rest = Substring(name)
        var weight: Int?
        var italic = false
        func weightOf(_ word: Substring) -> Int? { weightWords.first { $0.word == word }?.weight }
        while let separator = rest.lastIndex(where: { $0 == " " || $0 == "-" }) {
            var word = Substring(rest[rest.index(after: separator)...].lowercased())
            var remaining = rest[..<separator]
            var slanted = false
            if let slant = slantWords.first(where: { word.hasSuffix($0) }) {
                slanted = true
                word = word.dropLast(slant.count)
            }
            if slanted && italic { break }
            var wordWeight: Int?
            if !word.isEmpty {
                guard weight == nil, var found = weightOf(word) else { break }
                // `Semi Bold`, `Extra Light`: the word before completes the weight.
                if let before = remaining.lastIndex(where: { $0 == " " || $0 == "-" }),
                   weightPrefixes.contains(remaining[remaining.index(after: before)...].lowercased()),
                   let combined = weightOf(Substring(remaining[remaining.index(after: before)...].lowercased() + word)) {
                    found = combined
                    remaining = remaining[..<before]
                }
                wordWeight = found
            }
            guard slanted || wordWeight != nil else { break }
            if slanted { italic = true }
            if let wordWeight { weight = wordWeight }
            rest = remaining
        }
        let family = rest.trimmingSpaces
        guard weight != nil || italic, !family.isEmpty else { return nil }
        return (String(family), weight, italic)
    }

    /// `"; did you mean family 'DejaVu Sans' with weight 700?"` for an unknown `name` that
    /// is a known family (built in, `system`, or one of `stored`, without regard to case)
    /// or an Apple family (what `POST /import` maps it to, said) followed by weight or style
    /// words; `"; did you mean 'Liberation Sans' (what /import uses for Helvetica)?"` for an
    /// Apple family alone; `nil` otherwise.
    public static func hint(for name: String, stored: [String]) -> String? {
        func apple(_ family: String) -> String? {
            let lower = family.lowercased()
            guard appleFamilies.contains(lower) else { return nil }
            return importedFamily(of: lower)
        }
        guard let split = splitStyle(name) else {
            return apple(name).map { "; did you mean '\($0)' (what /import uses for \(Diagnostic.echo(name)))?" }
        }
        let lower = split.family.lowercased()
        var style: [String] = []
        if let weight = split.weight { style.append("weight \(weight)") }
        if split.italic { style.append("italic true") }
        let with = " with " + style.joined(separator: " and ")
        if let known = (FontCatalog.builtInFamilies + [FontCatalog.systemAlias] + stored).first(where: { $0.lowercased() == lower }) {
            return "; did you mean family '\(known)'\(with)?"
        }
        if let mapped = apple(split.family) {
            return "; did you mean family '\(mapped)'\(with) (what /import uses for \(Diagnostic.echo(split.family)))?"
        }
        return nil
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: Substring {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else { return "" }
        return self[first...last]
    }
}
