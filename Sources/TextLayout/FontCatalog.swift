/// One face of a font family: a font file and the weight and style it stands for.
public struct FontFace: Hashable, Sendable {
    /// The family's name as the catalog spells it (`Inter`, `DejaVu Sans`, …).
    public let family: String
    /// CSS weight, 100–900.
    public let weight: Int
    /// Whether the face is italic (or oblique).
    public let italic: Bool
    /// Absolute path of the font file.
    public let path: String

    public init(family: String, weight: Int, italic: Bool, path: String) {
        self.family = family
        self.weight = weight
        self.italic = italic
        self.path = path
    }
}

/// What a label asks for: a family, a size in points, a CSS weight and a style.
public struct FontRequest: Hashable, Sendable {
    /// The family name as the client wrote it; matched without regard to case.
    public let family: String
    /// Points, > 0.
    public let size: Double
    /// CSS weight, 100–900.
    public let weight: Int
    public let italic: Bool

    public init(family: String = "system", size: Double = 17, weight: Int = 400, italic: Bool = false) {
        self.family = family
        self.size = size
        self.weight = weight
        self.italic = italic
    }
}

/// Errors of font lookup.
public enum FontError: Error, Equatable, Sendable {
    /// No family of that name. `suggestion` is the closest known family when one is close
    /// (at most a third of the name's length in edits, and at most 3), for a did-you-mean.
    case unknownFamily(String, suggestion: String?)
    /// The family is known but none of its files is installed.
    case familyNotInstalled(String)
}

/// The font families a measurer can use, and face matching within a family.
///
/// The built-in families come from Debian's font packages at the paths of
/// `FontCatalog.builtInTable` (a documented table rather than fontconfig, so the same
/// files answer on every machine and nothing depends on a user's font configuration):
/// `Inter` (fonts-inter, every weight, italics), `DejaVu Sans`, `DejaVu Serif`,
/// `DejaVu Sans Mono` (fonts-dejavu-core), `Liberation Sans`, `Liberation Serif`,
/// `Liberation Mono` (fonts-liberation2). `system` names Inter.
public struct FontCatalog: Sendable {
    /// The built-in families in the contract's order, which is also the order of the
    /// missing-glyph fallback.
    public static let builtInFamilies = [
        "Inter", "DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono",
        "Liberation Sans", "Liberation Serif", "Liberation Mono",
    ]

    /// The alias of the platform's UI family.
    public static let systemAlias = "system"

    /// Debian's paths of the built-in faces, relative to the fonts root (`/usr/share/fonts`):
    /// family, weight, italic, file.
    public static let builtInTable: [(family: String, weight: Int, italic: Bool, file: String)] = {
        var rows: [(String, Int, Bool, String)] = []
        let inter: [(Int, String)] = [
            (100, "Thin"), (200, "ExtraLight"), (300, "Light"), (400, "Regular"), (500, "Medium"),
            (600, "SemiBold"), (700, "Bold"), (800, "ExtraBold"), (900, "Black"),
        ]
        for (weight, name) in inter {
            rows.append(("Inter", weight, false, "opentype/inter/Inter-\(name).otf"))
            let italicName = name == "Regular" ? "Italic" : name + "Italic"
            rows.append(("Inter", weight, true, "opentype/inter/Inter-\(italicName).otf"))
        }
        for (family, stem) in [("DejaVu Sans", "DejaVuSans"), ("DejaVu Serif", "DejaVuSerif"), ("DejaVu Sans Mono", "DejaVuSansMono")] {
            rows.append((family, 400, false, "truetype/dejavu/\(stem).ttf"))
            rows.append((family, 700, false, "truetype/dejavu/\(stem)-Bold.ttf"))
        }
        for (family, stem) in [("Liberation Sans", "LiberationSans"), ("Liberation Serif", "LiberationSerif"), ("Liberation Mono", "LiberationMono")] {
            rows.append((family, 400, false, "truetype/liberation2/\(stem)-Regular.ttf"))
            rows.append((family, 700, false, "truetype/liberation2/\(stem)-Bold.ttf"))
            rows.append((family, 400, true, "truetype/liberation2/\(stem)-Italic.ttf"))
            rows.append((family, 700, true, "truetype/liberation2/\(stem)-BoldItalic.ttf"))
        }
        return rows
    }()

    /// Family name (lowercased) → its faces, in table order.
    private let faces: [String: [FontFace]]
    /// Every family's spelling, in the built-in order.
    public let familyNames: [String]
    /// Built-in families with no installed file (for a readiness check).
    public let missingFamilies: [String]
    /// One line per installed face: its path, size in bytes and modification time (seconds),
    /// in table order. Measurements depend on the files, so result cache keys of scenes
    /// with labels include it: an upgraded font package never serves an old answer.
    public let fingerprint: String

    /// The built-in families found under `root`; a face whose file is absent is left out.
    /// - Parameter fileExists: decides whether a path is installed (tests pass their own).
    public init(fontsRoot root: String = "/usr/share/fonts", fileExists: (String) -> Bool = FontCatalog.isReadableFile) {
        var faces: [String: [FontFace]] = [:]
        for row in Self.builtInTable {
            let path = root + "/" + row.file
            guard fileExists(path) else { continue }
            faces[row.family.lowercased(), default: []].append(
                FontFace(family: row.family, weight: row.weight, italic: row.italic, path: path))
        }
        self.faces = faces
        self.familyNames = Self.builtInFamilies
        var fingerprint = ""
        for row in Self.builtInTable {
            let path = root + "/" + row.file
            var info = stat()
            guard faces[row.family.lowercased()]?.contains(where: { $0.path == path }) == true, stat(path, &info) == 0 else { continue }
            fingerprint += "\(path) \(info.st_size) \(info.st_mtim.tv_sec)\n"
        }
        self.fingerprint = fingerprint
        self.missingFamilies = Self.builtInFamilies.filter { faces[$0.lowercased()] == nil }
    }

    /// Whether `path` names a readable file.
    public static func isReadableFile(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// The family's canonical spelling (`system` → `Inter`), or the error of an unknown one.
    public func canonicalFamily(_ name: String) throws(FontError) -> String {
        let lower = name.lowercased()
        let key = lower == Self.systemAlias ? "inter" : lower
        if let family = familyNames.first(where: { $0.lowercased() == key }) {
            guard faces[key] != nil else { throw .familyNotInstalled(family) }
            return family
        }
        throw .unknownFamily(name, suggestion: Self.suggestion(for: name, among: familyNames + [Self.systemAlias]))
    }

    /// The face of `family` that CSS Fonts Level 4 §5.2 (font matching, `font-style` then
    /// `font-weight`) picks for `weight` and `italic`:
    /// - style first: the faces of the asked style when the family has any, else the others;
    /// - weight: an exact match; else for a desired weight from 400 to 500, weights between it
    ///   and 500 ascending, then below it descending, then above 500 ascending; below 400,
    ///   lighter descending then heavier ascending; above 500, heavier ascending then lighter
    ///   descending.
    /// - Throws: `FontError` for an unknown or uninstalled family.
    public func face(family: String, weight: Int, italic: Bool) throws(FontError) -> FontFace {
        let canonical = try canonicalFamily(family)
        guard let chosen = Self.match(weight: weight, italic: italic, in: faces[canonical.lowercased()] ?? []) else {
            throw .familyNotInstalled(canonical)
        }
        return chosen
    }

    /// The face of `faces` (one family's) that CSS Fonts Level 4 §5.2 picks for `weight`
    /// and `italic`, as ``face(family:weight:italic:)`` picks among a built-in family's
    /// faces; stored families are matched by the same rule. `nil` only for no faces.
    /// O(n log n) in the faces.
    public static func match(weight: Int, italic: Bool, in faces: [FontFace]) -> FontFace? {
        let styled = faces.filter { $0.italic == italic }
        return matchWeight(weight, in: styled.isEmpty ? faces : styled)
    }

    /// The faces of every installed built-in family for the fallback of missing glyphs, in
    /// the built-in order, each matched for `weight` and `italic` like `face(family:…)`.
    public func fallbackFaces(weight: Int, italic: Bool) -> [FontFace] {
        familyNames.compactMap { try? face(family: $0, weight: weight, italic: italic) }
    }

    /// CSS Fonts 4 weight matching among `faces` (see `face(family:weight:italic:)`).
    static func matchWeight(_ desired: Int, in faces: [FontFace]) -> FontFace? {
        if let exact = faces.first(where: { $0.weight == desired }) { return exact }
        let lighterDescending = faces.filter { $0.weight < desired }.sorted { $0.weight > $1.weight }
        let heavierAscending = faces.filter { $0.weight > desired }.sorted { $0.weight < $1.weight }
        if desired >= 400 && desired <= 500 {
            let upTo500 = heavierAscending.filter { $0.weight <= 500 }
            let above500 = heavierAscending.filter { $0.weight > 500 }
            return (upTo500 + lighterDescending + above500).first
        }
        if desired < 400 { return (lighterDescending + heavierAscending).first }
        return (heavierAscending + lighterDescending).first
    }

    /// The closest of `names` to `name` by Levenshtein distance over lowercased characters,
    /// when within max(1, min(3, name.count / 3)) edits; ties go to the earlier name.
    public static func suggestion(for name: String, among names: [String]) -> String? {
        let target = Array(name.lowercased())
        let limit = max(1, min(3, target.count / 3))
        var best: (String, Int)?
        for candidate in names {
            let distance = levenshtein(target, Array(candidate.lowercased()))
            if distance <= limit, best == nil || distance < best!.1 { best = (candidate, distance) }
        }
        return best?.0
    }

    static func levenshtein(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
