import HTTP1
import LayoutCompiler
import LayoutStore

/// Stored fonts (contract, "Text", stored fonts): `PUT`, `GET` and `DELETE`
/// `/fonts/{family}/{face}` and `GET /fonts`, in ``fontStore`` (the groups' database).
///
/// Names: a family is 1–64 characters of letters, digits, space, `.`, `_` and `-`,
/// beginning with a letter or digit and not ending with a space, and not a built-in
/// family's name or `system` in any case (`FontCatalog.builtInFamilies`); a face is a
/// CSS weight 100–900 in hundreds, optionally followed by `-italic` (`400`, `700-italic`).
/// A family is spelled one way: a face of `acme` is refused while `Acme` has faces.
extension LayoutService {
    /// The longest family name, characters.
    static let maxFontFamilyLength = 64

    /// Why `family/face` is not a stored face's name, or `nil` when it is one.
    static func fontNameProblem(family: String, face: String) -> String? {
        let scalars = Array(family.unicodeScalars)
        guard (1...maxFontFamilyLength).contains(scalars.count) else {
            return "a family has 1 to \(maxFontFamilyLength) characters"
        }
        func isAlphanumeric(_ s: Unicode.Scalar) -> Bool { s.isASCII && (("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s)) }
        guard isAlphanumeric(scalars[0]), scalars.last != " ",
              scalars.allSatisfy({ isAlphanumeric($0) || $0 == " " || $0 == "." || $0 == "_" || $0 == "-" }) else {
            return "a family is letters, digits, space, '.', '_' and '-' (ASCII), beginning with a letter or digit and not ending with a space"
        }
        guard parseFace(face) != nil else {
            return "a face is a weight 100 to 900 in hundreds, optionally followed by '-italic' (400, 700-italic)"
        }
        return nil
    }

    /// The weight and style of a face name (`700-italic` → 700, true), or `nil`.
    static func parseFace(_ face: String) -> (weight: Int, italic: Bool)? {
        let italic = face.hasSuffix("-italic")
        let digits = italic ? String(face.dropLast(7)) : face
        guard digits.count == 3, digits.hasSuffix("00"), let first = digits.first, ("1"..."9").contains(first),
              let weight = Int(digits) else { return nil }
        return (weight, italic)
    }

    /// The built-in family (or `system`) that `family` is named like, without regard to case.
    static func builtInFamily(namedLike family: String) -> String? {
        FontFiles.reservedFamilies.first { $0.lowercased() == family.lowercased() }
    }

    /// A 422 `invalid_font` with `message`.
    func invalidFont(_ message: String) -> HTTPResponse {
        response(for: EngineFailure.unprocessable([LayoutDiagnostic(code: .invalidFont, message: message)]).aboutAFont())
    }

    func putFont(_ request: HTTPRequest, family: String, face: String) -> HTTPResponse {
        if let denied = authorize(request, fonts: true) { return denied }
        if let reason = Self.fontNameProblem(family: family, face: face) {
            return problem(.invalidFontName(family: family, face: face, reason: reason))
        }
        if let builtIn = Self.builtInFamily(namedLike: family) {
            return invalidFont("'\(family)' is named like the built-in family '\(builtIn)': store the font under another family name")
        }
        // Malformed precondition fields before the file is read, as for groups.
        if let malformed = Self.malformedPreconditionField(request) { return problem(malformed) }
        if let coding = request.headers["Content-Encoding"], coding.trimmingCharacters(in: .whitespaces).lowercased() != "identity" {
            return problem(.contentCoded(coding: coding))
        }
        let bytes = request.body
        guard bytes.count <= configuration.maxFontFileBytes else {
            return problem(.fontFileTooLarge(bytes: bytes.count, limit: configuration.maxFontFileBytes))
        }
        if let problem = FontFiles.problem(bytes) {
            // The Content-Type is not read to accept a file, only to say what went wrong.
            let form = ServiceFailure.isForm(request.headers["Content-Type"] ?? "")
            return invalidFont(problem + (form ? "; the body is a form (curl -F): send the file itself as the body: "
                + "curl -X PUT --data-binary @font.ttf URL" : ""))
        }
        let name = family + "/" + face
        do {
            if let other = try fontStore.faces().lazy.map({ Self.split($0.name).family })
                .first(where: { $0 != family && $0.lowercased() == family.lowercased() }) {
                return invalidFont("The family is stored as '\(other)': families are matched without regard to case, so use that spelling")
            }
            let ifMatch: Int?
            switch fontPreconditions(request, family: family, face: face) {
            case .failure(let failure): return failure.response
            case .success(let version): ifMatch = version
            }
            let ifNoneMatchAny = Self.ifNoneMatchAny(request)
            let (stored, created) = try fontStore.putFace(name: name, bytes: bytes, sha256: SHA256.hexDigest(bytes),
                                                          ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny)
            frontCache.invalidate()
            var response = fontResponse(stored, status: created ? .created : .ok)
            if created { response.headers.append("Location", "/fonts/\(Self.pathSegment(family))/\(face)") }
            return response
        } catch {
            return storeFailure(error, groupName: name, subject: .font)
        }
    }

    /// Evaluates `If-Match` / `If-None-Match` of a font write against the face's current
    /// version (its `ETag`), as group writes do (RFC 9110 §13.1.1; see
    /// ``evaluatePreconditions(_:name:font:current:)``); the family is matched without
    /// regard to case, as ``storedFaceName(family:face:)`` does.
    func fontPreconditions(_ request: HTTPRequest, family: String, face: String) -> Result<Int?, HTTPFailure> {
        evaluatePreconditions(request, name: family + "/" + face, font: true) { () throws(StoreError) -> Int? in
            let found = try fontStore.currentFaceVersions(of: [family + "/" + face])
            return found[family + "/" + face] ?? found.min { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }?.value
        }
    }

    func getFont(_ request: HTTPRequest, family: String, face: String) -> HTTPResponse {
        if let reason = Self.fontNameProblem(family: family, face: face) {
            return problem(.invalidFontName(family: family, face: face, reason: reason))
        }
        do {
            guard let name = try storedFaceName(family: family, face: face), let stored = try fontStore.face(named: name) else {
                return problem(.unknownFontFace(family + "/" + face))
            }
            // 'OTTO' starts a CFF OpenType file; the other sfnt tags are TrueType outlines.
            let isCFF = stored.bytes.starts(with: Array("OTTO".utf8))
            var response = Self.answer(status: 200, contentType: isCFF ? "font/otf" : "font/ttf", body: stored.bytes, cacheStatus: nil)
            response.headers.append("ETag", "\"\(stored.version)\"")
            return conditionalGET(request, response, subject: "font face '\(name)'")
        } catch {
            return storeFailure(error, groupName: nil, subject: .font)
        }
    }

    func deleteFont(_ request: HTTPRequest, family: String, face: String) -> HTTPResponse {
        if let denied = authorize(request, fonts: true) { return denied }
        if let reason = Self.fontNameProblem(family: family, face: face) {
            return problem(.invalidFontName(family: family, face: face, reason: reason))
        }
        if let malformed = Self.malformedPreconditionField(request) { return problem(malformed) }
        let ifMatch: Int?
        switch fontPreconditions(request, family: family, face: face) {
        case .failure(let failure): return failure.response
        case .success(let version): ifMatch = version
        }
        do {
            // As a group's DELETE: `If-None-Match: *` fails (412) when the face exists and
            // holds (the usual 404) when it does not; re-checked in the delete's transaction.
            guard let name = try storedFaceName(family: family, face: face),
                  try fontStore.deleteFace(named: name, ifMatch: ifMatch, ifNoneMatchAny: Self.ifNoneMatchAny(request)) else {
                return problem(.unknownFontFace(family + "/" + face))
            }
            frontCache.invalidate()
            return HTTPResponse(status: 204)
        } catch {
            return storeFailure(error, groupName: family + "/" + face, subject: .font)
        }
    }

    /// `{"fonts": [{"family", "faces": [{"face", "version", "bytes", "sha256", "updatedAt"}]}]}`,
    /// families and faces in byte order of `family/face`.
    func listFonts(_ request: HTTPRequest) -> HTTPResponse {
        do {
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("fonts")
            writer.beginArray()
            var open: String?
            for summary in try fontStore.faces() {
                let (family, face) = Self.split(summary.name)
                if family != open {
                    if open != nil {
                        writer.endArray()
                        writer.endObject()
                    }
                    writer.beginObject()
                    writer.key("family"); writer.string(family)
                    writer.key("faces")
                    writer.beginArray()
                    open = family
                }
                writer.beginObject()
                writer.key("face"); writer.string(face)
                writer.key("version"); writer.integer(summary.version)
                writer.key("bytes"); writer.integer(summary.byteCount)
                writer.key("sha256"); writer.string(summary.sha256)
                writer.key("updatedAt"); writer.string(summary.updatedAt)
                writer.endObject()
            }
            if open != nil {
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
            return Self.answer(status: 200, contentType: "application/json", body: writer.bytes, cacheStatus: nil)
        } catch {
            return storeFailure(error, groupName: nil, subject: .font)
        }
    }

    /// The stored spelling of `family/face`, matched without regard to the family's case
    /// (a family is stored in one spelling: ``putFont(_:family:face:)`` refuses another), or
    /// `nil` when no such face is stored.
    func storedFaceName(family: String, face: String) throws(StoreError) -> String? {
        let name = family + "/" + face
        let found = try fontStore.currentFaceVersions(of: [name])
        // One spelling per family, so at most one key; the exact one first all the same.
        if found[name] != nil { return name }
        return found.keys.min { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The family and face of a stored name `family/face` (families hold no `/`).
    static func split(_ name: String) -> (family: String, face: String) {
        guard let slash = name.lastIndex(of: "/") else { return (name, "") }
        return (String(name[..<slash]), String(name[name.index(after: slash)...]))
    }

    /// `family` with its spaces percent-encoded, for a `Location` field.
    static func pathSegment(_ family: String) -> String {
        family.replacingOccurrences(of: " ", with: "%20")
    }

    /// The answer of a stored face: its description as JSON, `ETag` its version.
    func fontResponse(_ stored: StoredFace, status: HTTPStatus) -> HTTPResponse {
        let (family, face) = Self.split(stored.name)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("family"); writer.string(family)
        writer.key("face"); writer.string(face)
        writer.key("version"); writer.integer(stored.version)
        writer.key("bytes"); writer.integer(stored.bytes.count)
        writer.key("sha256"); writer.string(stored.sha256)
        writer.key("updatedAt"); writer.string(stored.updatedAt)
        writer.endObject()
        var response = Self.answer(status: status, contentType: "application/json", body: writer.bytes, cacheStatus: nil)
        response.headers.append("ETag", "\"\(stored.version)\"")
        return response
    }
}
