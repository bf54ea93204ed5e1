import TextLayout

/// One stored face's current version, as the font store names it (`family/face`, the
/// family spelled as stored).
public struct StoredFaceVersion: Hashable, Sendable {
    /// `family/face`, e.g. `Acme Sans/700-italic`.
    public var name: String
    /// The store's version number (never reused for a name).
    public var version: Int

    public init(name: String, version: Int) {
        self.name = name
        self.version = version
    }
}

/// The stored faces a request's labels measure with (contract, "Text", stored fonts),
/// resolved per request: the stored faces of each family a label names that is not built
/// in, and the face each such label's weight and style choose among them, loaded.
///
/// Built-in families always win (a stored family may not be named like one, and a label's
/// family is looked up among the built-in ones first). Within a stored family the face is
/// chosen by ``FontCatalog/match(weight:italic:in:)``, the rule of the built-in families.
/// Loaded faces go through the measurer's ``FaceCache`` keyed `stored:STORE/FAMILY/FACE@VERSION`
/// (a version's bytes never change), so a replaced face is never measured with its old file.
/// Held by `StoredFontTests`.
public struct StoredFonts: Sendable {
    /// No stored faces: every label measures with a built-in family.
    public static let none = StoredFonts(families: [:], chosen: [:], available: [], used: [])

    /// Lowercased family → its stored faces (``FontFace/path`` `stored:NAME@VERSION`).
    let families: [String: [FontFace]]
    /// ``FontFace/path`` → the loaded face, for the faces chosen.
    let chosen: [String: LoadedFace]
    /// Every stored face of the families asked for, sorted by name (byte order): an answer
    /// computed with these holds while the store names exactly these (the front cache's check).
    public let available: [StoredFaceVersion]
    /// The faces chosen for some label, sorted by name (byte order): what the result
    /// depends on (the cache keys hold them, and cached results are linked to them).
    public let used: [StoredFaceVersion]
    /// Every stored family's spelling, sorted: read only when a label names a family that is
    /// neither built in nor stored, for its did-you-mean (empty otherwise).
    public var storedFamilies: [String] = []

    /// The built-in families and `system`, lowercased (membership only, never iterated).
    static let builtIn = Set((FontCatalog.builtInFamilies + [FontCatalog.systemAlias]).map { $0.lowercased() })

    /// The weights of a face name: 100…900 in hundreds.
    static let weights = Array(stride(from: 100, through: 900, by: 100))

    /// The families the labels of `scene` name that are not built in (nor `system`) and
    /// could be stored (``isStorableFamily(_:)``), lowercased, each once, sorted (byte
    /// order). O(labels log labels).
    public static func families(in scene: Scene) -> [String] {
        var families = Set<String>()
        for view in scene.views {
            guard let family = view.text?.family.lowercased(), !builtIn.contains(family), isStorableFamily(family) else { continue }
            families.insert(family)
        }
        return families.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Whether `family` may name a stored family: 1–64 characters of ASCII letters, digits,
    /// space, `.`, `_` and `-`, beginning with a letter or digit and not ending with a space
    /// (the rule `PUT /fonts/{family}/{face}` checks).
    public static func isStorableFamily(_ family: String) -> Bool {
        let scalars = Array(family.unicodeScalars)
        guard (1...64).contains(scalars.count) else { return false }
        func isAlphanumeric(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) }
        return isAlphanumeric(scalars[0]) && scalars.last != " "
            && scalars.allSatisfy { isAlphanumeric($0) || $0 == " " || $0 == "." || $0 == "_" || $0 == "-" }
    }

    /// Every face name a stored family may have (`family/100` … `family/900-italic`, 18 per
    /// family), sorted (byte order): what the store is asked for, without regard to case.
    public static func candidateNames(families: [String]) -> [String] {
        var names: [String] = []
        names.reserveCapacity(families.count * 18)
        for family in families {
            for weight in weights {
                names.append("\(family)/\(weight)")
                names.append("\(family)/\(weight)-italic")
            }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The weight and style a face name's face part stands for (`700-italic` → 700, true).
    static func parseFace(_ face: Substring) -> (weight: Int, italic: Bool)? {
        let italic = face.hasSuffix("-italic")
        let digits = italic ? face.dropLast(7) : face
        guard digits.count == 3, digits.hasSuffix("00"), let weight = Int(digits), (100...900).contains(weight) else { return nil }
        return (weight, italic)
    }

    /// Resolves the stored faces `scene`'s labels use.
    ///
    /// - Parameters:
    ///   - versions: the store's current version of each stored face of ``families(in:)``
    ///     (its answer for ``candidateNames(families:)``), keyed by the stored spelling.
    ///   - store: names the font store in the face cache's keys
    ///     (`stored:STORE/FAMILY/FACE@VERSION`): version numbers are unique within one store
    ///     only, and one process may read several (tests do).
    ///   - bytes: reads a face's file: `nil` when that version is no longer stored (replaced
    ///     or deleted since `versions` was read). Asked only for chosen faces the
    ///     measurer's face cache does not hold.
    /// - Throws: what `bytes` throws, or ``StoredFontUnavailable`` for a face whose version
    ///   is gone or whose file HarfBuzz cannot read.
    public static func resolve(scene: Scene, versions: [String: Int], store: String = "", measurer: TextMeasurer = SceneText.measurer,
                               bytes: (_ name: String, _ version: Int) throws -> [UInt8]?) throws -> StoredFonts {
        if versions.isEmpty { return .none }
        var available: [StoredFaceVersion] = []
        var families: [String: [FontFace]] = [:]
        /// ``FontFace/path`` → the stored face it names.
        var named: [String: StoredFaceVersion] = [:]
        for (name, version) in versions {
            guard let slash = name.lastIndex(of: "/"), let parsed = parseFace(name[name.index(after: slash)...]) else { continue }
            let family = String(name[..<slash])
            let stored = StoredFaceVersion(name: name, version: version)
            available.append(stored)
            let path = "stored:\(store)/\(name)@\(version)"
            named[path] = stored
            families[family.lowercased(), default: []].append(FontFace(family: family, weight: parsed.weight, italic: parsed.italic, path: path))
        }
        available.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        // Face order must not come from the dictionary: sorted by name, as available is.
        for key in families.keys { families[key]?.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) } }
        var chosen: [String: LoadedFace] = [:]
        var used: [StoredFaceVersion] = []
        for view in scene.views {
            guard let spec = view.text, let faces = families[spec.family.lowercased()],
                  let face = FontCatalog.match(weight: spec.weight, italic: spec.italic, in: faces),
                  chosen[face.path] == nil else { continue }
            guard let stored = named[face.path] else { continue }
            let (name, version) = (stored.name, stored.version)
            let loaded = try measurer.faces.load(face) { () throws -> [UInt8] in
                guard let file = try bytes(name, version) else { throw StoredFontUnavailable(name: name, version: version, reason: .gone) }
                return file
            }
            guard let loaded else { throw StoredFontUnavailable(name: name, version: version, reason: .unreadable) }
            chosen[face.path] = loaded
            used.append(StoredFaceVersion(name: name, version: version))
        }
        used.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return StoredFonts(families: families, chosen: chosen, available: available, used: used)
    }

    /// Whether `family` (lowercased) has stored faces.
    public func hasFamily(_ family: String) -> Bool { families[family] != nil }

    /// The chosen face for a label's `font` when its family is stored, or nil.
    func face(for font: FontRequest) -> LoadedFace? {
        guard let faces = families[font.family.lowercased()],
              let face = FontCatalog.match(weight: font.weight, italic: font.italic, in: faces) else { return nil }
        return chosen[face.path]
    }

    /// The stored families' spellings, sorted (for an unknown family's note).
    var familyNames: [String] {
        Set(families.values.compactMap { $0.first?.family }).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

/// A stored face chosen for a label could not be measured with: its version was replaced or
/// deleted while the request was prepared (`gone`), or its file did not load (`unreadable`).
public struct StoredFontUnavailable: Error, Sendable, Equatable {
    public enum Reason: Sendable, Equatable { case gone, unreadable }
    /// `family/face`.
    public var name: String
    public var version: Int
    public var reason: Reason
}
