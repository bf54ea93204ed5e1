import HTTP1
import LayoutCompiler
import LayoutStore
import LayoutSyntax
import Wireframe

// Errors become HTTP answers here, and only here (docs/style.md, "Errors and diagnostics"): every error status of the
// service is chosen in this file. Route handlers name what went wrong as a
// ``ServiceFailure``, the engine as an ``EngineFailure`` (diagnostics to 400/422/500/503),
// store errors through ``LayoutService/storeFailure(_:groupName:)``; both render themselves
// (``HTTPResponseError``) and ``LayoutService/response(for:cacheStatus:)`` makes the
// answer. Handlers keep only their success statuses (200, 201, 204). Held by
// `ErrorMappingTests`.

/// An error that renders itself as an HTTP answer with an RFC 9457 problem details body,
/// as hummingbird's `HTTPResponseError` does: its status, its header fields, its body.
/// ``LayoutService/response(for:cacheStatus:)`` is the one place that turns any of them
/// into the answer. Adopted by ``ServiceFailure`` and ``EngineFailure``.
protocol HTTPResponseError: Error {
    /// The status of the answer.
    var status: HTTPStatus { get }
    /// Fields the answer carries after `Content-Type` (and `Cache-Status`), in this order.
    var headers: [(String, String)] { get }
    /// The problem details body (`application/problem+json`), with ``status``; `engine`
    /// writes a body that grows with the request (diagnostics) under its response bound,
    /// which may answer `422` or `503` instead (``SceneEngine/problem(status:diagnostics:)``).
    /// The returned answer carries no fields of its own: ``headers`` are added by the caller.
    func problem(writtenBy engine: SceneEngine) -> EngineAnswer
}

/// Problem types and titles (RFC 9457 §3.1) for layoutd's answers; the single place
/// where a status and diagnostics become a problem's `type`, `title` and `detail`.
enum Problem {
    /// What an ``EngineFailure`` is about, which its `title` names.
    enum Subject: Sendable {
        /// A scene of `/solve` or `/validate`.
        case scene
        /// A group's body (`PUT /groups/NAME`) or the store's bounds on groups.
        case group
        /// A font file (`PUT /fonts/FAMILY/FACE`) or the store's bounds on fonts.
        case font
        /// An Interface Builder document (`POST /import`).
        case document
    }

    static func describe(status: HTTPStatus, diagnostics: [LayoutDiagnostic], subject: Subject = .scene) -> (type: String, title: String, detail: String) {
        let first = diagnostics.first(where: \.isError) ?? diagnostics.first
        let count = LayoutDiagnostic.total(diagnostics)
        let more = count > 1 ? " (and \(count - 1) more diagnostic\(count == 2 ? "" : "s"))" : ""
        let detail = first.map { $0.message + more } ?? status.reasonPhrase
        switch status {
        case .badRequest:
            if first?.code == .invalidJSON {
                return ("urn:layoutd:problem:invalid-json", "Malformed JSON", detail)
            }
            if subject == .font { return ("urn:layoutd:problem:invalid-font", "Invalid font", detail) }
            return ("urn:layoutd:problem:invalid-scene", subject == .group ? "Invalid group" : "Invalid scene", detail)
        case .unprocessableContent where subject == .document:
            return ("urn:layoutd:problem:invalid-document", "The document cannot be imported", detail)
        case .unprocessableContent where subject == .font:
            return ("urn:layoutd:problem:invalid-font", "The font cannot be stored", detail)
        case .unprocessableContent:
            return ("urn:layoutd:problem:unprocessable-scene",
                    subject == .group ? "The group cannot be stored" : "The scene cannot be laid out", detail)
        default:
            return (type(for: status), status.reasonPhrase, detail)
        }
    }

    /// The RFC 9457 problem details body: `type`, `title`, `status`, `detail` and the
    /// diagnostics list every layoutd problem carries (contract, "Responses").
    static func body(type: String, title: String, status: HTTPStatus, detail: String, diagnostics: [LayoutDiagnostic]) -> [UInt8] {
        var writer = JSONWriter()
        write(type: type, title: title, status: status, detail: detail, diagnostics: diagnostics, into: &writer)
        return writer.bytes
    }

    /// Writes ``body(type:title:status:detail:diagnostics:)`` into `writer` (a bounded
    /// one stops like any answer: ``SceneEngine/problem(status:diagnostics:)``).
    static func write(type: String, title: String, status: HTTPStatus, detail: String, diagnostics: [LayoutDiagnostic],
                      into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string(type)
        writer.key("title"); writer.string(title)
        writer.key("status"); writer.integer(status.code)
        writer.key("detail"); writer.string(detail)
        writer.key("diagnostics"); writer.diagnostics(diagnostics)
        writer.endObject()
    }

    /// `urn:layoutd:problem:<slug>`: the slug of the status (as the HTTP server's own
    /// answers use), except for layoutd's own 422 and 500.
    static func type(for status: HTTPStatus) -> String {
        switch status {
        case .unprocessableContent: return LayoutService.problemTypeBase + "unprocessable-scene"
        case .internalServerError: return LayoutService.problemTypeBase + "internal-error"
        default: return LayoutService.problemTypeBase + status.problemSlug
        }
    }
}

extension LayoutService {
    /// Maps a store error to its HTTP answer (the one place that does so); a limit's 422
    /// is titled for `subject` (a group's write or a font's).
    func storeFailure(_ error: StoreError, groupName: String?, subject: Problem.Subject = .group) -> HTTPResponse {
        switch error {
        case .preconditionFailed(let current):
            return problem(.storePreconditionFailed(group: groupName ?? "", current: current, font: subject == .font))
        case .readOnly:
            return problem(.databaseReadOnly)
        case .busy:
            return problem(.databaseBusy)
        case .full:
            return problem(.diskFull)
        case .limitExceeded(let message):
            // The message names the limit and its flag (``StoreError/limitExceeded(_:)``).
            return response(for: EngineFailure.storeLimitExceeded(message, subject: subject))
        case .unavailable:
            return problem(.databaseUnavailable)
        case .fileMoved:
            return problem(.databaseFileMoved)
        case .corrupt, .cannotOpen, .sqlite, .postgreSQL:
            return problem(.databaseFailed)
        }
    }

    /// The answer of an error that renders itself: `Content-Type:
    /// application/problem+json`, then `Cache-Status` (and `Vary: Accept`) when
    /// `cacheStatus` is given, then the error's ``HTTPResponseError/headers``; the body's
    /// reservation of pending bytes (if any) is kept until the server has queued it.
    func response(for error: some HTTPResponseError, cacheStatus: String? = nil) -> HTTPResponse {
        var response = answer(error.problem(writtenBy: engine), cacheStatus: cacheStatus)
        for (name, value) in error.headers { response.headers.append(name, value) }
        return response
    }

    /// ``response(for:cacheStatus:)`` of a ``ServiceFailure``, so that call sites can
    /// name the case alone: `problem(.unknownGroup(name))`.
    func problem(_ failure: ServiceFailure) -> HTTPResponse {
        response(for: failure)
    }
}

/// A failure a route handler answers by itself, before or beside the engine and the
/// store: what went wrong, with what the answer quotes. ``status``, ``detail`` and
/// ``headers`` are the one mapping to HTTP (``LayoutService/problem(_:)`` writes the
/// answer); every case's status and problem type are held by `ErrorMappingTests`.
enum ServiceFailure: HTTPResponseError, Sendable, Equatable {
    /// `GET /readyz` while the database cannot be reached: 503, `Retry-After: 5`.
    case databaseNotReachable
    /// `/readyz`, and a group or font write, when the SQLite file was renamed or deleted
    /// under the process (``StoreError/fileMoved``): 503 without `Retry-After`.
    case databaseFileMoved
    /// `GET /readyz` when built-in font families have no installed files: 503, naming them.
    case fontsMissing([String])
    /// A request refused while clients leave too many answers unread
    /// (`--max-pending-response-bytes`): 503 with ``HTTPServer/overCommittedDetail``, `Retry-After: 1`.
    case overCommitted
    /// A `Host` (or absolute-form authority) the ``HostPolicy`` refuses: 421 Misdirected
    /// Request (RFC 9110 §15.5.20), quoting at most 256 characters of `host`.
    case misdirected(host: String)
    /// `POST /solve?format=` other than `json` or `svg`: 400.
    case unknownFormat(String)
    /// `POST /solve?format=svg` with a `scale` or `width` out of range or not a number
    /// (``WireframeDisplay/parse(scale:width:)``): 400.
    case invalidDisplaySize(parameter: String, value: String)
    /// `POST /solve?format=svg` with both `scale` and `width`: 400.
    case conflictingDisplaySizes
    /// A content-coded body (`Content-Encoding` other than `identity`): 415 with
    /// `Accept-Post` and `Accept-Encoding: identity` (RFC 9110 §8.4.1, §15.5.16).
    case contentCoded(coding: String)
    /// A `Content-Type` that is not JSON: 415 with `Accept-Post: application/json`.
    /// `xmlBody`: the body starts with `<?xml` (an Interface Builder document, whatever
    /// its type says), whose 415 names `POST /import` as an XML type's does.
    case unsupportedMediaType(contentType: String, xmlBody: Bool = false)
    /// `POST /import` with a `Content-Type` other than `application/xml`, `text/xml` or
    /// `application/octet-stream`: 415 with `Accept-Post` listing them.
    case unsupportedDocumentType(contentType: String)
    /// `POST /import` with a query parameter whose value is not allowed (an unknown
    /// `device`, an `orientation` other than portrait or landscape, …): 400 listing the
    /// allowed values.
    case invalidImportParameter(ImportRequest.Refusal)
    /// A group name outside `[A-Za-z0-9][A-Za-z0-9._-]{0,127}`: 400.
    case invalidGroupName(String)
    /// A version path segment that is not a positive integer without leading zeros: 400.
    case invalidVersion(String)
    /// `after=` that is not a non-negative integer without leading zeros: 400.
    case invalidPageStart(String)
    /// `limit=` that is not an integer from 1 to `maximum`: 400.
    case invalidPageSize(String, maximum: Int)
    /// A query parameter that may be given once (`after`, `limit`) given `count` times: 400.
    case repeatedQueryParameter(String, count: Int)
    /// A query whose pair `text` (as sent) holds a `%` not followed by two hexadecimal
    /// digits (RFC 3986 §2.1), in the parameter `parameter`: 400.
    case malformedQueryEscape(parameter: String, text: String)
    /// A query parameter the route (`METHOD /pattern`) does not take: 400 naming it, the
    /// route's parameters `known`, and the closest of them when one is.
    case unknownQueryParameter(String, route: String, known: [String], suggestion: String?)
    /// No group of that name: 404.
    case unknownGroup(String)
    /// No stored face `family/face` (GET or DELETE of `/fonts/{family}/{face}`).
    case unknownFontFace(String)
    /// A font route's family or face is not a valid name.
    case invalidFontName(family: String, face: String, reason: String)
    /// A font file over `--max-font-file-bytes`.
    case fontFileTooLarge(bytes: Int, limit: Int)
    /// The group has no such version (never had, or the number is beyond any): 404.
    case unknownVersion(group: String, version: String)
    /// The version was pruned from the group's history: 404 with the store's `message`
    /// (``LayoutService/prunedMessage(name:version:oldestKept:)``).
    case prunedVersion(message: String)
    /// A group write (`fonts`: a font write) with no token configured and anonymous writes
    /// off: 403 (no credentials would be accepted, RFC 9110 §15.5.4).
    case anonymousWritesRefused(fonts: Bool)
    /// A group write (`fonts`: a font write) without the configured bearer token: 401 with
    /// `WWW-Authenticate` (RFC 6750 §3).
    case writesNeedAToken(fonts: Bool, presented: Bool = false)
    /// `If-Match: *` for a group (`font`: a stored font face) that does not exist: 412
    /// (RFC 9110 §13.1.1). The font cases name `family/face` in `group`.
    case ifMatchAnyButAbsent(group: String, font: Bool = false)
    /// An `If-Match` or `If-None-Match` (`field`) that lists `*` beside entity tags, which
    /// RFC 9110's grammar (`"*" / #entity-tag`, §13.1.1, §13.1.2) does not allow: 400.
    case starAmongEntityTags(field: String, value: String)
    /// An `If-Match` or `If-None-Match` (`field`) that lists `*` more than once and nothing
    /// else (`*, *`, often `*` on two field lines, which are one list, RFC 9110 §5.3): 400,
    /// as `*` must be the field's only value (§13.1.1, §13.1.2).
    case repeatedStar(field: String, value: String)
    /// An `If-Match` or `If-None-Match` (`field`) holding something that is neither `*` nor
    /// an entity tag (`3`: entity tags are quoted, RFC 9110 §8.8.3): 400, its detail showing
    /// `example`, the tag the client most likely meant (``EntityTagList/example(quoting:)``).
    case malformedEntityTags(field: String, value: String, example: String)
    /// `If-Match` naming no current version (`state` says what is current): 412.
    case ifMatchMismatch(header: String, group: String, state: String, hasWeakTags: Bool, font: Bool = false)
    /// A `GET` or `HEAD` whose `If-Match` lists neither `*` nor the entity tag (`etag`,
    /// quoted) of what it reads (`subject`: `group 'g'`, `version 1 of group 'g'`,
    /// `font face 'Inter/Bold'`): 412 (RFC 9110 §13.1.1).
    case ifMatchMismatchOnRead(header: String, subject: String, etag: String, hasWeakTags: Bool)
    /// `If-None-Match` naming the current version: 412 (RFC 9110 §13.1.2).
    case ifNoneMatchMatches(header: String, group: String, state: String, font: Bool = false)
    /// The store's atomic re-check of `If-Match` failed (`current`: nil when the group
    /// does not exist): 412.
    case storePreconditionFailed(group: String, current: Int?, font: Bool = false)
    /// The database is read-only: 503, `Retry-After: 60`.
    case databaseReadOnly
    /// The database is busy: 503, `Retry-After: 1`.
    case databaseBusy
    /// The disk is full: 507 (RFC 4918 §11.5).
    case diskFull
    /// The database is unavailable (PostgreSQL down): 503, `Retry-After: 5`.
    case databaseUnavailable
    /// The database failed (damaged, cannot be opened, an SQL error): 500; the detail
    /// does not quote the database's message.
    case databaseFailed

    /// The HTTP status of the answer.
    var status: HTTPStatus {
        switch self {
        case .invalidFontName: .badRequest
        case .unknownFontFace: .notFound
        case .fontFileTooLarge: .contentTooLarge
        case .invalidImportParameter: .badRequest
        case .unsupportedDocumentType: .unsupportedMediaType
        case .unknownFormat, .invalidDisplaySize, .conflictingDisplaySizes, .invalidGroupName, .invalidVersion, .invalidPageStart, .invalidPageSize, .repeatedQueryParameter,
             .malformedQueryEscape, .unknownQueryParameter, .starAmongEntityTags, .repeatedStar, .malformedEntityTags: .badRequest
        case .writesNeedAToken: .unauthorized
        case .anonymousWritesRefused: .forbidden
        case .unknownGroup, .unknownVersion, .prunedVersion: .notFound
        case .ifMatchAnyButAbsent, .ifMatchMismatch, .ifMatchMismatchOnRead, .ifNoneMatchMatches, .storePreconditionFailed: .preconditionFailed
        case .contentCoded, .unsupportedMediaType: .unsupportedMediaType
        case .misdirected: .misdirectedRequest
        case .databaseFailed: .internalServerError
        case .databaseNotReachable, .databaseFileMoved, .fontsMissing, .overCommitted, .databaseReadOnly, .databaseBusy, .databaseUnavailable: .serviceUnavailable
        case .diskFull: .insufficientStorage
        }
    }

    /// The problem details: ``problemType``, the status's reason phrase as `title`,
    /// ``detail`` and an empty `diagnostics` list. Small and of a fixed shape, so written
    /// without the engine's bound (the over-committed `503` is written while the pool of
    /// pending bytes is full).
    func problem(writtenBy engine: SceneEngine) -> EngineAnswer {
        let body = Problem.body(type: problemType, title: status.reasonPhrase, status: status, detail: detail, diagnostics: [])
        return EngineAnswer(status: status, contentType: "application/problem+json", body: body, isCacheable: false)
    }

    /// The problem `type`: ``Problem/type(for:)`` of ``status``.
    var problemType: String { Problem.type(for: status) }

    /// The problem `detail`: what went wrong and what to do, quoting the request.
    var detail: String {
        switch self {
        case .databaseNotReachable:
            return "The database is not reachable"
        case .databaseFileMoved:
            return "The database is not usable: " + SQLiteStore.movedFileMessage
        case .fontsMissing(let families):
            return "The built-in font families \(families.joined(separator: ", ")) have no installed files: install fonts-inter, fonts-dejavu-core and fonts-liberation2"
        case .overCommitted:
            return HTTPServer.overCommittedDetail
        case .misdirected(let host):
            return "This server does not answer for the host '\(Diagnostic.echo(host))': against DNS rebinding it answers only "
                + "loopback hosts (\(HostPolicy.loopbackHostsDescription)) and those given with --allowed-hosts. "
                + "Start it with --allowed-hosts NAME[,NAME…] (or LAYOUTD_ALLOWED_HOSTS; * allows any host) to answer other names."
        case .unknownFormat(let format):
            return "Unknown format '\(Diagnostic.echo(format))': use format=json (the default) or format=svg"
        case .invalidDisplaySize(let parameter, let value):
            if parameter == "scale" {
                return "scale='\(value)' is not a display scale: write a decimal number of pixels per point, from \(JSONWriter.format(WireframeDisplay.minScale)) to \(JSONWriter.format(WireframeDisplay.maxScale))"
            }
            return "width='\(value)' is not a display width: write an integer number of pixels from \(WireframeDisplay.widthRange.lowerBound) to \(WireframeDisplay.widthRange.upperBound)"
        case .conflictingDisplaySizes:
            return "Give scale or width, not both: each sets the wireframe's display size"
        case .contentCoded(let coding):
            return "The body must not be content-coded; Content-Encoding '\(coding)' is not supported, send it uncompressed"
        case .unsupportedMediaType(let contentType, let xmlBody):
            return "The body must be JSON (Content-Type: application/json); got '\(Diagnostic.echo(contentType))'"
                + (Self.isForm(contentType) ? "; send the JSON itself as the body, not a form (curl -F): "
                    + "curl --data-binary @scene.json -H 'Content-Type: application/json'" : "")
                + (xmlBody || Self.isXML(contentType) ? "; Interface Builder documents go to POST /import" : "")
        case .unsupportedDocumentType(let contentType):
            return "The body must be an Interface Builder document (Content-Type: application/xml, text/xml or application/octet-stream); got '\(Diagnostic.echo(contentType))'"
                + (Self.isForm(contentType) ? "; send the file itself as the body, not a form (curl -F): "
                    + "curl --data-binary @file.xib -H 'Content-Type: application/xml'" : "")
                + (Self.isJSON(contentType) ? "; a scene (JSON) is laid out by POST /solve" : "")
        case .invalidImportParameter(let refusal):
            return "\(refusal.parameter)='\(Diagnostic.echo(refusal.value))' is not allowed: use one of \(refusal.allowed.joined(separator: ", "))"
        case .invalidGroupName(let name):
            return "'\(Diagnostic.echo(name))' is not a valid group name: names match [A-Za-z0-9][A-Za-z0-9._-]{0,127}"
        case .invalidVersion(let version):
            return "'\(Diagnostic.echo(version))' is not a version: versions are positive integers written without leading zeros"
        case .invalidPageStart(let text):
            return "after='\(Diagnostic.echo(text))' is not a version: write a non-negative integer without leading zeros"
        case .invalidPageSize(let text, let maximum):
            return "limit='\(Diagnostic.echo(text))' is not a page size: write an integer from 1 to \(maximum)"
        case .repeatedQueryParameter(let name, let count):
            return "'\(name)' is given \(count) times: give it at most once"
        case .malformedQueryEscape(let parameter, let text):
            return "The query parameter '\(Diagnostic.echo(parameter))' has a malformed percent-escape in '\(Diagnostic.echo(text))': "
                + "'%' must be followed by two hexadecimal digits (RFC 3986 §2.1; write '%25' for '%' itself)"
        case .unknownQueryParameter(let name, let route, let known, let suggestion):
            let takes = known.isEmpty ? "\(route) takes no query parameters"
                : "\(route) takes \(known.joined(separator: ", "))"
            return "Unknown query parameter '\(Diagnostic.echo(name))': \(takes)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .unknownGroup(let name):
            return "No group named '\(Diagnostic.echo(name))'"
        case .unknownFontFace(let name):
            return "No stored font face '\(Diagnostic.echo(name))'"
        case .invalidFontName(let family, let face, let reason):
            return "'\(Diagnostic.echo(family))/\(Diagnostic.echo(face))' is not a valid font family and face: \(reason)"
        case .fontFileTooLarge(let bytes, let limit):
            return "The font file is \(bytes) bytes; stored fonts may have at most \(limit) bytes each (limit maxFontFileBytes): raise it with --max-font-file-bytes"
        case .unknownVersion(let group, let version):
            return "Group '\(Diagnostic.echo(group))' has no version \(version)"
        case .prunedVersion(let message):
            return message
        case .anonymousWritesRefused(let fonts):
            return LayoutService.anonymousWritesRefusedDetail(fonts: fonts)
        case .writesNeedAToken(let fonts, let presented):
            return "Writing \(fonts ? "fonts" : "groups") needs 'Authorization: Bearer <token>'"
                + (presented ? ": the bearer token given is not the server's (--api-token)" : "")
        case .starAmongEntityTags(let field, let value):
            return "\(field): '\(Diagnostic.echo(value))' lists * beside entity tags: send either * or a list of entity tags (RFC 9110 §13.1)"
        case .repeatedStar(let field, let value):
            return "\(field): '\(Diagnostic.echo(value))' lists * more than once: * must be the field's only value, "
                + "given once (several field lines are one list, RFC 9110 §5.3, §13.1)"
        case .malformedEntityTags(let field, let value, let example):
            return "\(field): '\(Diagnostic.echo(value))' is not * or a list of entity tags: "
                + "\(field) takes quoted entity tags, such as \(Diagnostic.echo(example)) (RFC 9110 §8.8.3)"
        case .ifMatchAnyButAbsent(let group, let font):
            return "If-Match: * but no \(font ? "font face" : "group") named '\(group)' exists"
        case .ifMatchMismatch(let header, let group, let state, let hasWeakTags, let font):
            return "If-Match '\(header)' does not match \(font ? "font face" : "group") '\(group)': \(state)\(hasWeakTags ? " (weak tags never match)" : "")"
        case .ifMatchMismatchOnRead(let header, let subject, let etag, let hasWeakTags):
            return "If-Match '\(Diagnostic.echo(header))' does not match \(subject): its entity tag is \(etag)\(hasWeakTags ? " (weak tags never match)" : "")"
        case .ifNoneMatchMatches(let header, let group, let state, let font):
            if header.trimmingCharacters(in: .whitespaces) == "*" {
                return "If-None-Match: * but \(font ? "font face" : "group") '\(group)' exists: \(state)"
            }
            return "If-None-Match '\(header)' matches \(font ? "font face" : "group") '\(group)': \(state)"
        case .storePreconditionFailed(let group, let current, let font):
            let state = current.map { "it exists and the current version is \($0)" } ?? "the \(font ? "font face" : "group") does not exist"
            return "Precondition failed for \(font ? "font face" : "group") '\(group)': \(state)"
        case .databaseReadOnly:
            return "The database is read-only: groups can be read but not written"
        case .databaseBusy:
            return "The database is busy; try again"
        case .diskFull:
            return "The disk is full: the write was not stored and the previous data is intact"
        case .databaseUnavailable:
            return "The database is unavailable; try again"
        case .databaseFailed:
            return "The database failed; the error was logged"
        }
    }

    /// Whether `contentType` is `multipart/form-data` (what `curl -F` and HTML file forms
    /// send), whose 415 says how to send the file as the body instead.
    static func isForm(_ contentType: String) -> Bool {
        contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() == "multipart/form-data" } ?? false
    }

    /// Whether `contentType` is `application/json` or a `+json` type (a scene), whose
    /// `/import` 415 names `POST /solve`.
    static func isJSON(_ contentType: String) -> Bool {
        guard let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) else { return false }
        return type == "application/json" || type.hasSuffix("+json")
    }

    /// Whether `contentType` is `application/xml` or `text/xml` (what an Interface Builder
    /// document is sent as), whose JSON endpoint's 415 names `POST /import`.
    static func isXML(_ contentType: String) -> Bool {
        guard let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) else { return false }
        return type == "application/xml" || type == "text/xml"
    }

    /// Fields the answer carries after `Content-Type`, in this order.
    var headers: [(String, String)] {
        switch self {
        case .databaseNotReachable, .databaseUnavailable: [("Retry-After", "5")]
        case .overCommitted, .databaseBusy: [("Retry-After", "1")]
        case .databaseReadOnly: [("Retry-After", "60")]
        case .contentCoded: [("Accept-Post", "application/json"), ("Accept-Encoding", "identity")]
        case .unsupportedMediaType: [("Accept-Post", "application/json")]
        case .unsupportedDocumentType: [("Accept-Post", LayoutService.importMediaTypes.joined(separator: ", "))]
        case .invalidImportParameter: []
        case .writesNeedAToken: [("WWW-Authenticate", "Bearer realm=\"layoutd\"")]
        case .misdirected, .unknownFormat, .invalidDisplaySize, .conflictingDisplaySizes, .invalidGroupName, .invalidVersion, .invalidPageStart, .invalidPageSize,
             .repeatedQueryParameter, .malformedQueryEscape, .unknownQueryParameter, .unknownGroup, .unknownFontFace, .invalidFontName, .fontFileTooLarge, .unknownVersion, .prunedVersion, .anonymousWritesRefused, .ifMatchAnyButAbsent,
             .ifMatchMismatch, .ifMatchMismatchOnRead, .ifNoneMatchMatches, .storePreconditionFailed, .diskFull, .databaseFailed, .databaseFileMoved, .fontsMissing, .starAmongEntityTags, .repeatedStar, .malformedEntityTags: []
        }
    }
}

extension Problem {
    /// The status of a scene the decoder rejects (contract, "Responses"): 400 for a body
    /// that is not JSON or has wrong shapes or types, 422 for a well-formed invalid one.
    static func status(of reason: SceneRejection.Reason) -> HTTPStatus {
        switch reason {
        case .malformed: .badRequest
        case .invalid: .unprocessableContent
        }
    }
}

extension EngineFailure: HTTPResponseError {
    /// The problem details with ``diagnostics``, titled for the ``subject``, written by
    /// `engine` under its response bound.
    func problem(writtenBy engine: SceneEngine) -> EngineAnswer {
        engine.problem(status: status, diagnostics: diagnostics, subject: subject)
    }

    /// The same failure about a group's body rather than a scene (its `title` says so).
    func aboutAGroup() -> EngineFailure {
        var failure = self
        failure.subject = .group
        return failure
    }

    /// The same failure about a font file rather than a scene (its `title` says so).
    func aboutAFont() -> EngineFailure {
        var failure = self
        failure.subject = .font
        return failure
    }

    /// A body that does not parse as JSON: 400 `invalid_json`, quoting the parser's message;
    /// for a `body` that is an XML document (`<?xml` or `<document` after any blanks: an
    /// Interface Builder file sent with curl's default form type), the message adds where
    /// such documents go (HandlerTests.anXMLBodyToSolveIsPointedToImport).
    static func malformedJSON(_ message: String, body: [UInt8] = []) -> EngineFailure {
        let start = body.prefix(256).firstIndex { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) } ?? body.endIndex
        let rest = body[start...]
        let isXML = rest.starts(with: "<?xml".utf8) || rest.starts(with: "<document".utf8)
        return EngineFailure(status: .badRequest, diagnostics: [LayoutDiagnostic(
            code: .invalidJSON, message: "Malformed JSON: \(message)" + (isXML ? "; the body is XML: Interface Builder documents go to POST /import" : ""))])
    }

    /// A body the decoder rejects, at ``Problem/status(of:)``.
    init(_ rejection: SceneRejection) {
        self.init(status: Problem.status(of: rejection.reason), diagnostics: rejection.diagnostics)
    }

    /// A well-formed scene that cannot be laid out as asked (unknown groups, a limit
    /// over the scene and its groups): 422 with `diagnostics`.
    static func unprocessable(_ diagnostics: [LayoutDiagnostic]) -> EngineFailure {
        EngineFailure(status: .unprocessableContent, diagnostics: diagnostics)
    }

    /// The group store cannot be read now: 503 with `Retry-After: 1` and an
    /// `unknown_group` diagnostic saying why.
    static func storeUnavailable(_ reason: String) -> EngineFailure {
        EngineFailure(status: .serviceUnavailable, diagnostics: [LayoutDiagnostic(code: .unknownGroup, message: "The group store cannot be read right now: \(reason)")],
                      headers: [("Retry-After", "1")])
    }

    /// The group store could not look up a scene's groups: 503 with an `unknown_group`
    /// diagnostic saying why, and the `Retry-After` of the store's answer to a group route
    /// (``ServiceFailure/databaseUnavailable``'s 5 s for an unreachable PostgreSQL,
    /// ``ServiceFailure/databaseBusy``'s 1 s for a lock; 1 s for anything else). The
    /// reason never quotes the database's own message (for PostgreSQL it names the
    /// server's host and port, which clients need not learn).
    static func groupLookupFailed(_ error: StoreError) -> EngineFailure {
        let headers: [(String, String)]
        var reason = LayoutService.describe(error)
        switch error {
        case .unavailable:
            headers = ServiceFailure.databaseUnavailable.headers
            reason = "the database is unavailable"
        case .readOnly: headers = ServiceFailure.databaseReadOnly.headers
        case .busy: headers = ServiceFailure.databaseBusy.headers
        case .fileMoved: headers = []
        case .preconditionFailed, .full, .corrupt, .cannotOpen, .limitExceeded, .sqlite, .postgreSQL: headers = [("Retry-After", "1")]
        }
        var failure = storeUnavailable(reason)
        failure.headers = headers
        return failure
    }

    /// The font store could not look up or read a scene's stored faces: 503 with an
    /// `unknown_font` diagnostic saying why, and the `Retry-After` of
    /// ``groupLookupFailed(_:)``.
    static func fontLookupFailed(_ error: StoreError) -> EngineFailure {
        var failure = groupLookupFailed(error)
        var reason = LayoutService.describe(error)
        if case .unavailable = error { reason = "the database is unavailable" }
        failure.diagnostics = [LayoutDiagnostic(code: .unknownFont, message: "The font store cannot be read right now: \(reason)")]
        return failure
    }

    /// A stored face a label chose could not be measured with: replaced or deleted while the
    /// request was prepared (503, `Retry-After: 1`: the request may be sent again), or a
    /// file HarfBuzz does not load (422); both `unknown_font`, naming the face.
    static func storedFontUnavailable(_ unavailable: StoredFontUnavailable) -> EngineFailure {
        switch unavailable.reason {
        case .gone:
            return EngineFailure(status: .serviceUnavailable, diagnostics: [LayoutDiagnostic(
                code: .unknownFont,
                message: "Stored font face '\(Diagnostic.echo(unavailable.name))' was replaced or deleted while this request was measured: send it again")],
                headers: [("Retry-After", "1")])
        case .unreadable:
            return .unprocessable([LayoutDiagnostic(
                code: .unknownFont,
                message: "Stored font face '\(Diagnostic.echo(unavailable.name))' version \(unavailable.version) cannot be loaded as a font: store it again")])
        }
    }

    /// A fault of layoutd's own (a stored group that does not decode): 500, no diagnostics.
    static var internalError: EngineFailure { EngineFailure(status: .internalServerError, diagnostics: []) }

    /// The store refused a write at one of its limits: 422 `limit_exceeded` about the
    /// group or font (`subject`); `message` names the limit and its flag
    /// (``StoreError/limitExceeded(_:)``).
    static func storeLimitExceeded(_ message: String, subject: Problem.Subject = .group) -> EngineFailure {
        var failure = EngineFailure.unprocessable([LayoutDiagnostic(code: .limitExceeded, message: "The store's limit is reached: \(message)")])
        failure.subject = subject
        return failure
    }
}

extension SceneEngine {
    /// The answer for a scene that parsed but cannot be laid out (it does not compile,
    /// its solve fails under `conflicts: error`, a limit is reached): 422 problem details
    /// with `diagnostics` (contract, "Responses").
    func unprocessable(_ diagnostics: [LayoutDiagnostic]) -> EngineAnswer {
        problem(status: .unprocessableContent, diagnostics: diagnostics)
    }

    /// `422` `limit_exceeded` for an answer longer than `limit` bytes: small and of a
    /// fixed shape, written without a bound (its bytes do not depend on the request).
    public func responseTooLarge(limit: Int) -> EngineAnswer {
        let message = "The answer would be more than \(limit) bytes (limit maxResponseBytes, --max-response-bytes): ask for fewer sizes or views, or raise the limit"
        return fixedProblem(status: .unprocessableContent, diagnostics: [LayoutDiagnostic(code: .limitExceeded, message: message)])
    }

    /// `422` `limit_exceeded` for an SVG wireframe whose rendering would take more than
    /// `limit` units of work (``WireframeRenderer/workUnitDescription``).
    public func renderingTooLong(limit: Int) -> EngineAnswer {
        let message = "Drawing the wireframe would take more than \(limit) units of work, \(WireframeRenderer.workUnitDescription) (limit maxSolverWork, --max-solver-work): ask for JSON, or for fewer sizes or views"
        return fixedProblem(status: .unprocessableContent, diagnostics: [LayoutDiagnostic(code: .limitExceeded, message: message)])
    }

    /// `503` with `Retry-After: 1` for an answer the pending-response pool had no room
    /// for while it was written (`--max-pending-response-bytes`): the same answer as a
    /// request refused before it started (``HTTPServer/overCommittedDetail``).
    /// ``ServiceFailure/overCommitted``'s status, body and headers.
    public func overCommitted() -> EngineAnswer {
        let failure = ServiceFailure.overCommitted
        var answer = failure.problem(writtenBy: self)
        answer.headers = failure.headers
        return answer
    }

    /// A 422 problem with `diagnostics`, written without ``maxResponseBytes`` or the pool.
    fileprivate func fixedProblem(status: HTTPStatus, diagnostics: [LayoutDiagnostic]) -> EngineAnswer {
        let (type, title, detail) = Problem.describe(status: status, diagnostics: diagnostics)
        let body = Problem.body(type: type, title: title, status: status, detail: detail, diagnostics: diagnostics)
        return EngineAnswer(status: status, contentType: "application/problem+json", body: body, isCacheable: false)
    }
}
