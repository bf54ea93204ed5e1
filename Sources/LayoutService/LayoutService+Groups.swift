import Foundation
import HTTP1
import LayoutCompiler
import LayoutStore
import LayoutSyntax

/// Named constraint groups (contract, "Named constraint groups"): Cartography's
/// `ConstraintGroup` with `replace:`, stored and versioned in SQLite.
extension LayoutService {
    func putGroup(_ request: HTTPRequest, name: String) -> HTTPResponse {
        if let denied = authorize(request) { return denied }
        guard isValidGroupName(name) else { return invalidName(name) }
        // Malformed precondition fields before the body is read: fixing the body would
        // only lead to this 400 (HandlerTests.malformedEntityTagsAreRefusedBeforeTheBody).
        if let malformed = Self.malformedPreconditionField(request) { return problem(malformed) }
        if let unsupported = checkMediaType(request) { return unsupported }
        let json: JSONValue
        do {
            json = try JSONParser(maximumDepth: configuration.sceneLimits.maxJSONDepth).parse(request.body)
        } catch {
            return response(for: EngineFailure.malformedJSON(error.message).aboutAGroup())
        }
        let checked: CheckedGroupBody
        do throws(EngineFailure) {
            checked = try Self.checkGroupBody(json, name: name, configuration: configuration)
        } catch {
            return response(for: error)
        }
        let ifMatch: Int?
        switch checkPreconditions(request, name: name) {
        case .failure(let failure): return failure.response
        case .success(let version): ifMatch = version
        }
        let ifNoneMatchAny = Self.ifNoneMatchAny(request)
        do {
            let (group, created) = try groupStore.putGroup(
                name: name, constraintsJSON: checked.constraintsJSON, metricsJSON: checked.metricsJSON,
                ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny)
            frontCache.invalidate()
            groupCache.invalidate()
            var response = groupResponse(group, status: created ? .created : .ok)
            if created { response.headers.append("Location", "/groups/\(name)") }
            return response
        } catch {
            return storeFailure(error, groupName: name)
        }
    }

    /// A group's body as it is stored: its `constraints` and `metrics` written back as JSON text.
    struct CheckedGroupBody {
        var constraintsJSON: String
        var metricsJSON: String
    }

    /// Checks a group's body (`{"constraints": […], "metrics": {…}}`, parsed) as
    /// `PUT /groups/{name}` stores it, and `layoutd groups import` each imported version:
    /// the contract's shape (``SceneDecoder/decodeGroupBody(_:stored:)``), at most
    /// `maxGroupConstraints` entries, every constraint parsing (a metric no group defines is
    /// allowed: the scene may), and no literal beyond ``maximumMagnitude``.
    /// - Returns: the body's two members as JSON text.
    /// - Throws: the ``EngineFailure`` the `PUT` answers (400 or 422, about a group).
    /// - Complexity: linear in the constraints' text.
    static func checkGroupBody(_ json: JSONValue, name: String, configuration: ServiceConfiguration) throws(EngineFailure) -> CheckedGroupBody {
        let decoded: (constraints: [ConstraintEntry], metrics: [String: Double])
        do {
            decoded = try SceneDecoder(limits: configuration.sceneLimits).decodeGroupBody(json)
        } catch {
            throw EngineFailure(error).aboutAGroup()
        }
        if decoded.constraints.count > configuration.maxGroupConstraints {
            throw EngineFailure.unprocessable([LayoutDiagnostic(
                code: .limitExceeded,
                message: "A group may hold at most \(configuration.maxGroupConstraints) constraints; this one has \(decoded.constraints.count) (limit maxGroupConstraints)",
                path: "$.constraints")]).aboutAGroup()
        }
        // Parse every constraint now: a group that does not parse is not stored. Names of
        // views and of the scene's metrics are only known when a scene includes the group,
        // so unknown metrics are not an error here.
        var diagnostics: [LayoutDiagnostic] = []
        var options = ParseOptions(metrics: decoded.metrics)
        // Unknown metrics are not errors here: no did-you-mean search for them.
        options.suggestionComparisons = 0
        for (index, entry) in decoded.constraints.enumerated() {
            let result: ParseResult
            switch entry.kind {
            case .visualFormat(let formatOptions): result = VisualFormatParser(options: options).parse(entry.source, formatOptions: formatOptions)
            case .equation: result = EquationParser(options: options).parse(entry.source)
            }
            for diagnostic in result.diagnostics where diagnostic.severity == .error && diagnostic.code != .unknownMetric {
                diagnostics.append(LayoutDiagnostic(
                    code: LayoutDiagnostic.Code(diagnostic.code), message: diagnostic.message, constraint: .group(name: name, index: index),
                    id: entry.id, column: diagnostic.column(in: entry.source), source: entry.source, notes: diagnostic.notes))
            }
            // A literal beyond maxMagnitude would refuse every scene that includes the group:
            // refused now, as the group's own metrics are (a metric of the scene's is checked
            // when a scene uses it). HandlerTests.groupConstantsBeyondTheMagnitudeAreRefused.
            if result.diagnostics.isEmpty, let beyond = result.numberBeyondLimit, beyond.metric == nil {
                let bytes = Array(entry.source.utf8)
                let span = max(0, beyond.span.lowerBound)..<min(bytes.count, beyond.span.upperBound)
                let literal = Diagnostic.echo(String(decoding: bytes[span], as: UTF8.self))
                diagnostics.append(LayoutDiagnostic(
                    code: .limitExceeded,
                    message: "The number \(literal) in group:\(name)/\(index) is beyond ±\(JSONWriter.format(maximumMagnitude)) (limit maxMagnitude)",
                    constraint: .group(name: name, index: index), id: entry.id,
                    column: Diagnostic(code: .equationSyntax, message: "", span: span).column(in: entry.source), source: entry.source))
            }
        }
        if !diagnostics.isEmpty {
            throw EngineFailure.unprocessable(diagnostics).aboutAGroup()
        }
        var constraintsWriter = JSONWriter()
        constraintsWriter.value(json["constraints"] ?? .array([]))
        var metricsWriter = JSONWriter()
        metricsWriter.value(json["metrics"] ?? .object([]))
        return CheckedGroupBody(constraintsJSON: String(decoding: constraintsWriter.bytes, as: UTF8.self),
                                metricsJSON: String(decoding: metricsWriter.bytes, as: UTF8.self))
    }

    func getGroup(_ request: HTTPRequest, name: String, version: String?) -> HTTPResponse {
        guard isValidGroupName(name) else { return invalidName(name) }
        do {
            let group: StoredGroup?
            if let version {
                guard let first = version.utf8.first, first != UInt8(ascii: "0"),
                      version.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    return problem(.invalidVersion(version))
                }
                // A positive integer beyond any version (even beyond Int) names no version: 404.
                guard let number = Self.version(version) else {
                    return problem(.unknownVersion(group: name, version: version))
                }
                group = try groupStore.group(named: name, version: number)
            } else {
                group = try groupStore.group(named: name)
            }
            guard let group else {
                if let version, let number = Self.version(version),
                   let oldestKept = try groupStore.prunedVersion(ofGroup: name, version: number) {
                    return problem(.prunedVersion(message: prunedMessage(name: name, version: number, oldestKept: oldestKept)))
                }
                return problem(version.map { .unknownVersion(group: name, version: $0) } ?? .unknownGroup(name))
            }
            return conditionalGET(request, groupResponse(group, status: .ok),
                                  subject: version == nil ? "group '\(name)'" : "version \(group.version) of group '\(name)'")
        } catch {
            return storeFailure(error, groupName: name)
        }
    }

    /// `ok` (a `200` carrying an `ETag`) after the preconditions of a `GET` or `HEAD`
    /// (RFC 9110 §13.2.2: `If-Match` first, then `If-None-Match`):
    /// - `412 Precondition Failed` when `If-Match` lists neither `*` nor that entity tag
    ///   (the strong comparison, §8.8.3.2: `W/"2"` never matches); `subject` names what was
    ///   read in the message (`group 'g'`, `version 1 of group 'g'`, `font face 'Inter/Bold'`);
    /// - `304 Not Modified` when `If-None-Match` lists that entity tag or `*`: no content,
    ///   the same `ETag` (§13.1.2, §15.4.5; the weak comparison, so `W/"2"` matches `"2"`);
    /// - `400`, before either is evaluated, when either field is neither `*` nor a list of
    ///   entity tags (``malformedPreconditionField(_:)``).
    /// Every answer that sends an `ETag` to a `GET` goes through here: a group, a group's
    /// version, a stored font face (HandlerTests.conditionalGETs, HandlerTests.ifMatchOnGET,
    /// StoredFontServiceTests.conditionalGET).
    func conditionalGET(_ request: HTTPRequest, _ ok: HTTPResponse, subject: @autoclosure () -> String) -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD, let etag = ok.headers["ETag"] else { return ok }
        let tag = Self.entityTags(etag).first ?? etag
        if let malformed = Self.malformedPreconditionField(request) { return problem(malformed) }
        if let header = Self.listField("If-Match", of: request) {
            guard Self.isWildcard(header) || Self.strongEntityTags(header).contains(tag) else {
                return problem(.ifMatchMismatchOnRead(header: header, subject: subject(), etag: etag,
                                                      hasWeakTags: header.contains("W/")))
            }
        }
        guard let header = Self.listField("If-None-Match", of: request) else { return ok }
        guard Self.isWildcard(header) || Self.entityTags(header, quotedOnly: true).contains(tag) else { return ok }
        var response = HTTPResponse(status: .notModified)
        response.headers.append("ETag", etag)
        return response
    }

    /// The default page size of `GET /groups/{name}/versions` (`limit`): 100.
    static let defaultVersionsPageLimit = 100
    /// The largest page size of `GET /groups/{name}/versions` (`limit`): 1,000.
    static let maxVersionsPageLimit = 1_000

    /// `GET /groups/{name}/versions?after=N&limit=L`: the kept versions above `after`
    /// (default 0), at most `limit` (1…1,000, default 100), ascending; when more follow,
    /// `next` and a `Link: <…>; rel="next"` header (RFC 8288 §3) name the next page. 400 for
    /// a parameter that is not a canonical integer in range or that is given more than once
    /// (no "first wins": `?limit=5&limit=abc` is 400); any other parameter is refused
    /// before this runs (``queryProblem(_:route:)``).
    func listVersions(_ request: HTTPRequest, name: String) -> HTTPResponse {
        guard isValidGroupName(name) else { return invalidName(name) }
        for parameter in ["after", "limit"] {
            let count = Self.queryCount(parameter, in: request.query)
            if count > 1 {
                return problem(.repeatedQueryParameter(parameter, count: count))
            }
        }
        var after = 0
        var limit = Self.defaultVersionsPageLimit
        if let text = Self.queryValue("after", in: request.query) {
            guard let number = text == "0" ? 0 : Self.version(text) else {
                return problem(.invalidPageStart(text))
            }
            after = number
        }
        if let text = Self.queryValue("limit", in: request.query) {
            guard let number = Self.version(text), number <= Self.maxVersionsPageLimit else {
                return problem(.invalidPageSize(text, maximum: Self.maxVersionsPageLimit))
            }
            limit = number
        }
        do {
            guard let page = try groupStore.versions(ofGroup: name, after: after, limit: limit) else {
                return problem(.unknownGroup(name))
            }
            // Group names are [A-Za-z0-9._-]: nothing in the link needs escaping.
            let next = page.hasMore ? page.versions.last.map { "/groups/\(name)/versions?after=\($0.version)&limit=\(limit)" } : nil
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("versions")
            writer.beginArray()
            for info in page.versions {
                writer.beginObject()
                writer.key("version"); writer.integer(info.version)
                writer.key("updatedAt"); writer.string(info.updatedAt)
                writer.endObject()
            }
            writer.endArray()
            if let next { writer.key("next"); writer.string(next) }
            writer.endObject()
            var response = Self.answer(status: .ok, contentType: "application/json", body: writer.bytes, cacheStatus: nil)
            if let next { response.headers.append("Link", "<\(next)>; rel=\"next\"") }
            return response
        } catch {
            return storeFailure(error, groupName: name)
        }
    }

    /// What a 404 for a pruned version, and a scene's `unknown_group` for one, say.
    func prunedMessage(name: String, version: Int, oldestKept: Int) -> String {
        "Group '\(name)' version \(version) was pruned: only the last \(groupStore.maxGroupVersions) versions of a group are kept (--max-group-versions); the oldest kept is \(oldestKept)"
    }

    func listGroups(_ request: HTTPRequest) -> HTTPResponse {
        do {
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("groups")
            writer.beginArray()
            for summary in try groupStore.groups() {
                writer.beginObject()
                writer.key("name"); writer.string(summary.name)
                writer.key("version"); writer.integer(summary.version)
                writer.key("updatedAt"); writer.string(summary.updatedAt)
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
            return Self.answer(status: .ok, contentType: "application/json", body: writer.bytes, cacheStatus: nil)
        } catch {
            return storeFailure(error, groupName: nil)
        }
    }

    func deleteGroup(_ request: HTTPRequest, name: String) -> HTTPResponse {
        if let denied = authorize(request) { return denied }
        guard isValidGroupName(name) else { return invalidName(name) }
        if let malformed = Self.malformedPreconditionField(request) { return problem(malformed) }
        let ifMatch: Int?
        switch checkPreconditions(request, name: name) {
        case .failure(let failure): return failure.response
        case .success(let version): ifMatch = version
        }
        do {
            // RFC 9110 §13.1.2: `If-None-Match: *` fails for a DELETE of a group that
            // exists (412); when none exists it holds and the answer is the usual 404.
            // Both conditions are re-checked in the delete's transaction.
            guard try groupStore.deleteGroup(named: name, ifMatch: ifMatch, ifNoneMatchAny: Self.ifNoneMatchAny(request)) else {
                return problem(.unknownGroup(name))
            }
            frontCache.invalidate()
            groupCache.invalidate()
            return HTTPResponse(status: .noContent)
        } catch {
            return storeFailure(error, groupName: name)
        }
    }

    // MARK: - Helpers

    func groupResponse(_ group: StoredGroup, status: HTTPStatus) -> HTTPResponse {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("name"); writer.string(group.name)
        writer.key("version"); writer.integer(group.version)
        writer.key("constraints"); writer.raw(group.constraintsJSON.utf8)
        writer.key("metrics"); writer.raw(group.metricsJSON.utf8)
        writer.key("updatedAt"); writer.string(group.updatedAt)
        writer.endObject()
        var response = Self.answer(status: status, contentType: "application/json", body: writer.bytes, cacheStatus: nil)
        response.headers.append("ETag", "\"\(group.version)\"")
        return response
    }

    func invalidName(_ name: String) -> HTTPResponse {
        problem(.invalidGroupName(name))
    }

    /// 401 when an API token is configured and the request does not carry it
    /// (`Authorization: Bearer <token>`, RFC 6750 §2.1), compared in constant time;
    /// 403 when no token is configured and anonymous writes are off
    /// (``ServiceConfiguration/allowsAnonymousWrites``: `serve` on a non-loopback address
    /// without `--allow-anonymous-writes`), with a detail that says how to set a token.
    /// 403, not 401: no credentials would be accepted (RFC 9110 §15.5.4). The details speak
    /// of fonts for a font write (`fonts`), else of groups.
    func authorize(_ request: HTTPRequest, fonts: Bool = false) -> HTTPResponse? {
        guard let token = configuration.apiToken, !token.isEmpty else {
            if configuration.allowsAnonymousWrites { return nil }
            return problem(.anonymousWritesRefused(fonts: fonts))
        }
        // The scheme is case-insensitive (RFC 9110 §11.1); the token is compared exactly.
        let given = (request.headers["Authorization"] ?? "").trimmingCharacters(in: .whitespaces)
        let parts = given.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let presented: [UInt8] = parts.count == 2 && parts[0].lowercased() == "bearer"
            ? Array(parts[1].trimmingCharacters(in: .whitespaces).utf8) : []
        if Self.constantTimeEquals(presented, Array(token.utf8)) { return nil }
        return problem(.writesNeedAToken(fonts: fonts, presented: !presented.isEmpty))
    }

    /// The `detail` of the 403 that refuses a group write (or, `fonts`, a font write)
    /// without a configured token.
    static func anonymousWritesRefusedDetail(fonts: Bool = false) -> String {
        "\(fonts ? "Font" : "Group") writes are off: layoutd listens on a non-loopback address without an API token. "
            + "Start it with --api-token TOKEN (or the environment variable LAYOUTD_API_TOKEN=TOKEN) and send 'Authorization: Bearer TOKEN', "
            + "or start it with --allow-anonymous-writes (LAYOUTD_ALLOW_ANONYMOUS_WRITES=1) to let anyone who can reach it write \(fonts ? "fonts" : "groups")."
    }

    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }

    /// Evaluates `If-Match` and `If-None-Match` against the group's current version
    /// (RFC 9110 §13.1.1, §13.1.2; a group's entity tag is `"VERSION"`).
    ///
    /// - Returns: `.success(version)` with the version `If-Match` named (pass it to the
    ///   store, whose write re-checks it atomically), `.success(nil)` when there is no
    ///   `If-Match` or it is `*`, or the 412 (or store error) to answer.
    func checkPreconditions(_ request: HTTPRequest, name: String) -> Result<Int?, HTTPFailure> {
        evaluatePreconditions(request, name: name, font: false) { () throws(StoreError) -> Int? in
            try groupStore.group(named: name)?.version
        }
    }

    /// Evaluates `If-Match` and `If-None-Match` (RFC 9110 §13.1.1: `If-Match` first, then
    /// `If-None-Match`) against `current()`, the current version of the group (or, `font`,
    /// of the stored font face `name`), `nil` when it does not exist; its entity tag is
    /// `"VERSION"`. The store is read only when one of the fields is present. Both fields
    /// are well formed: every write route answers ``malformedPreconditionField(_:)``'s 400
    /// first, before it reads its body (HandlerTests.malformedEntityTagsAreRefused).
    ///
    /// - Returns: `.success(version)` with the version `If-Match` named, `.success(nil)`
    ///   when there is no `If-Match` or it is `*`, or the 412 (or store error) to answer.
    func evaluatePreconditions(_ request: HTTPRequest, name: String, font: Bool,
                               current currentVersion: () throws(StoreError) -> Int?) -> Result<Int?, HTTPFailure> {
        let ifMatch = Self.listField("If-Match", of: request)
        let ifNoneMatch = Self.listField("If-None-Match", of: request)
        guard ifMatch != nil || ifNoneMatch != nil else { return .success(nil) }
        let current: Int?
        do { current = try currentVersion() } catch {
            return .failure(HTTPFailure(storeFailure(error, groupName: name, subject: font ? .font : .group)))
        }
        let state = current.map { "the current version is \($0)" } ?? (font ? "the font face does not exist" : "the group does not exist")
        var named: Int?
        if let header = ifMatch {
            if Self.isWildcard(header) {
                guard current != nil else {
                    return .failure(HTTPFailure(problem(.ifMatchAnyButAbsent(group: name, font: font))))
                }
            } else {
                // The strong comparison: weak tags never match; any listed tag may.
                let listed = Set(Self.strongEntityTags(header).compactMap(Self.version))
                guard let current, listed.contains(current) else {
                    return .failure(HTTPFailure(problem(.ifMatchMismatch(header: header, group: name, state: state,
                                                                         hasWeakTags: header.contains("W/"), font: font))))
                }
                named = current
            }
        }
        if let header = ifNoneMatch, let current {
            // The weak comparison: any listed tag equal to the current version fails.
            // `*` is left to the store, whose write (PUT or DELETE) checks it atomically.
            if !Self.isWildcard(header) && Self.entityTags(header).compactMap(Self.version).contains(current) {
                return .failure(HTTPFailure(problem(.ifNoneMatchMatches(header: header, group: name, state: state, font: font))))
            }
        }
        return .success(named)
    }

    /// Whether the request's `If-None-Match` lists `*` (RFC 9110 §13.1.2): for a PUT, write
    /// only when nothing exists; for a DELETE, fail (412) whenever something exists. Left
    /// to the store by ``evaluatePreconditions(_:name:font:current:)`` so that the write's
    /// transaction checks it atomically.
    static func ifNoneMatchAny(_ request: HTTPRequest) -> Bool {
        listField("If-None-Match", of: request).map(isWildcard) ?? false
    }

    /// Whether a well-formed `If-Match` / `If-None-Match` value is the wildcard: a bare `*`
    /// (RFC 9110 §13.1.1). The entity tag `"*"` (or `W/"*"`) is an opaque tag like any other,
    /// which no version's tag equals (HandlerTests.aQuotedStarIsAnEntityTagNotTheWildcard).
    static func isWildcard(_ value: String) -> Bool {
        value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "*" }
    }

    /// The 400 for the first of `If-Match`, `If-None-Match` whose value is neither `*` nor a
    /// list of entity tags (RFC 9110 §13.1.1, §13.1.2, §8.8.3): `*` beside entity tags, or
    /// an element that is no entity tag (`3`, `"3`, `w/"3"`); `nil` when both are absent or
    /// well formed. Every route that reads the fields checks them before evaluating either
    /// (HandlerTests.malformedEntityTagsAreRefused).
    static func malformedPreconditionField(_ request: HTTPRequest) -> ServiceFailure? {
        for field in ["If-Match", "If-None-Match"] {
            guard let value = listField(field, of: request) else { continue }
            switch EntityTagList(value) {
            case .wellFormed: continue
            case .starAmongTags: return .starAmongEntityTags(field: field, value: value)
            case .repeatedStar: return .repeatedStar(field: field, value: value)
            case .malformed(let element):
                return .malformedEntityTags(field: field, value: value, example: EntityTagList.example(quoting: element))
            }
        }
        return nil
    }

    /// A list field's value with its field lines joined by `, ` (RFC 9110 §5.3: several
    /// lines of a list field are one list), `nil` when absent.
    static func listField(_ name: String, of request: HTTPRequest) -> String? {
        let values = request.headers.values(name)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The strong entity tags of a field: `"3", W/"4"` → `["3"]`; unquoted text is no tag.
    static func strongEntityTags(_ value: String) -> [String] {
        value.split(separator: ",").compactMap { tag in
            let text = tag.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 else { return nil }
            return String(text.dropFirst().dropLast())
        }
    }

    /// A version number written canonically (`3`, not `03` or `+3`), or `nil`.
    static func version(_ text: String) -> Int? {
        guard let first = text.utf8.first, first >= 0x31 && first <= 0x39,
              text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// The entity tags of an `If-Match` / `If-None-Match` field (RFC 9110 §8.8.3), quotes
    /// and weakness markers removed: `"3", W/"4"` → `["3", "4"]`; `*` → `["*"]`.
    /// With `quotedOnly`, unquoted text (`2`), which is no entity tag, is left out; `*` stays.
    static func entityTags(_ value: String, quotedOnly: Bool = false) -> [String] {
        value.split(separator: ",").compactMap { tag in
            var text = tag.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("W/") { text.removeFirst(2) }
            if text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2 { return String(text.dropFirst().dropLast()) }
            return quotedOnly && text != "*" ? nil : text
        }
    }
}

/// A ready HTTP answer carried as an error (a failed precondition, a store failure).
struct HTTPFailure: Error {
    var response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}

/// The shape of an `If-Match` / `If-None-Match` value (RFC 9110 §13.1.1: `"*" / #entity-tag`;
/// §8.8.3: `entity-tag = [ W/ ] DQUOTE *etagc DQUOTE`, `etagc = %x21 / %x23-7E / obs-text`;
/// §5.6.1: empty list elements and optional whitespace around commas are allowed).
enum EntityTagList: Equatable {
    /// `*` alone, or a list (possibly empty) of entity tags.
    case wellFormed
    /// `*` listed beside entity tags.
    case starAmongTags
    /// `*` listed more than once, and nothing else (`*, *`).
    case repeatedStar
    /// The first element that is neither `*` nor an entity tag, trimmed of whitespace.
    case malformed(element: String)

    init(_ value: String) {
        let bytes = Array(value.utf8)
        var index = 0
        var elements = 0
        var stars = 0
        func skipWhitespace() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        func element(from start: Int) -> String {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            return String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            let start = index
            elements += 1
            if bytes[index] == UInt8(ascii: "*") {
                stars += 1
                index += 1
            } else {
                if bytes[index] == UInt8(ascii: "W"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") { index += 2 }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    self = .malformed(element: element(from: start))
                    return
                }
                index += 1
                while index < bytes.count, Self.isEntityTagCharacter(bytes[index]) { index += 1 }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    self = .malformed(element: element(from: start))
                    return
                }
                index += 1
            }
            skipWhitespace()
            if index < bytes.count {
                guard bytes[index] == UInt8(ascii: ",") else {
                    self = .malformed(element: element(from: start))
                    return
                }
                index += 1
            }
        }
        self = stars == 0 || elements == 1 ? .wellFormed : stars == elements ? .repeatedStar : .starAmongTags
    }

    /// `etagc` (RFC 9110 §8.8.3): any visible byte but `"`, or obs-text.
    static func isEntityTagCharacter(_ byte: UInt8) -> Bool {
        byte == 0x21 || (byte >= 0x23 && byte <= 0x7E) || byte >= 0x80
    }

    /// The entity tag a malformed `element` was most likely meant to be, for the 400's
    /// detail: `3` → `"3"`, `"3` → `"3"`, `w/3` → `W/"3"`, `W/ "3"` → `W/"3"` (blanks
    /// after the `W/` left out); `"1"` when its text cannot be an entity tag's (empty,
    /// spaces or quotes inside, over 64 bytes).
    static func example(quoting element: String) -> String {
        var text = Substring(element)
        var weak = false
        if text.hasPrefix("W/") || text.hasPrefix("w/") {
            weak = true
            text = text.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        }
        if text.hasPrefix("\"") { text = text.dropFirst() }
        if text.hasSuffix("\"") { text = text.dropLast() }
        guard !text.isEmpty, text.utf8.count <= 64, text.utf8.allSatisfy(isEntityTagCharacter) else { return "\"1\"" }
        return (weak ? "W/" : "") + "\"" + text + "\""
    }
}
