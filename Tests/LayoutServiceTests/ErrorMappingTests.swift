import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// ``ServiceFailure``: every failure a route handler answers by itself, with its status,
/// problem `type`, `title`, fields and body as ``LayoutService/problem(_:)`` writes them;
/// and the engine's fixed answers (``SceneEngine/responseTooLarge(limit:)``,
/// ``SceneEngine/renderingTooLong(limit:)``, ``SceneEngine/overCommitted()``).
struct ErrorMappingTests {
    /// One instance of each case with its expected status, `type` slug and extra fields.
    /// `covered(_:)` switches over the case without `default`, so a new case does not
    /// compile until it is listed here.
    static let expected: [(failure: ServiceFailure, status: HTTPStatus, slug: String, headers: [(String, String)])] = [
        (.databaseNotReachable, 503, "service-unavailable", [("Retry-After", "5")]),
        (.fontsMissing(["Inter"]), 503, "service-unavailable", []),
        (.overCommitted, 503, "service-unavailable", [("Retry-After", "1")]),
        (.misdirected(host: "evil.example"), 421, "misdirected-request", []),
        (.unknownFormat("png"), 400, "bad-request", []),
        (.invalidDisplaySize(parameter: "scale", value: "0"), 400, "bad-request", []),
        (.conflictingDisplaySizes, 400, "bad-request", []),
        (.contentCoded(coding: "gzip"), 415, "unsupported-media-type",
         [("Accept-Post", "application/json"), ("Accept-Encoding", "identity")]),
        (.unsupportedMediaType(contentType: "text/plain"), 415, "unsupported-media-type", [("Accept-Post", "application/json")]),
        (.unsupportedDocumentType(contentType: "text/plain"), 415, "unsupported-media-type",
         [("Accept-Post", "application/xml, text/xml, application/octet-stream")]),
        (.invalidImportParameter(ImportRequest.Refusal(parameter: "device", value: "nokia", allowed: ["retina6_1"])), 400, "bad-request", []),
        (.invalidGroupName("-x"), 400, "bad-request", []),
        (.invalidVersion("01"), 400, "bad-request", []),
        (.invalidPageStart("-1"), 400, "bad-request", []),
        (.invalidPageSize("0", maximum: 1_000), 400, "bad-request", []),
        (.repeatedQueryParameter("limit", count: 2), 400, "bad-request", []),
        (.malformedQueryEscape(parameter: "format", text: "format=%7"), 400, "bad-request", []),
        (.unknownQueryParameter("devcie", route: "POST /import", known: ["device"], suggestion: "device"), 400, "bad-request", []),
        (.unknownGroup("cards"), 404, "not-found", []),
        (.unknownFontFace("Acme/400"), 404, "not-found", []),
        (.invalidFontName(family: "Acme", face: "450", reason: "a face is a weight"), 400, "bad-request", []),
        (.fontFileTooLarge(bytes: 2_000_000, limit: 1_048_576), 413, "payload-too-large", []),
        (.unknownVersion(group: "cards", version: "9"), 404, "not-found", []),
        (.prunedVersion(message: "Group 'cards' version 1 was pruned"), 404, "not-found", []),
        (.anonymousWritesRefused(fonts: false), 403, "forbidden", []),
        (.writesNeedAToken(fonts: false), 401, "unauthorized", [("WWW-Authenticate", "Bearer realm=\"layoutd\"")]),
        (.ifMatchAnyButAbsent(group: "cards"), 412, "precondition-failed", []),
        (.starAmongEntityTags(field: "If-Match", value: "\"1\", *"), 400, "bad-request", []),
        (.repeatedStar(field: "If-None-Match", value: "*, *"), 400, "bad-request", []),
        (.malformedEntityTags(field: "If-None-Match", value: "3", example: "\"3\""), 400, "bad-request", []),
        (.ifMatchMismatch(header: "W/\"2\"", group: "cards", state: "the current version is 2", hasWeakTags: true), 412, "precondition-failed", []),
        (.ifMatchMismatchOnRead(header: "\"1\"", subject: "group 'cards'", etag: "\"2\"", hasWeakTags: false), 412, "precondition-failed", []),
        (.ifNoneMatchMatches(header: "\"2\"", group: "cards", state: "the current version is 2"), 412, "precondition-failed", []),
        (.storePreconditionFailed(group: "cards", current: nil), 412, "precondition-failed", []),
        (.databaseReadOnly, 503, "service-unavailable", [("Retry-After", "60")]),
        (.databaseBusy, 503, "service-unavailable", [("Retry-After", "1")]),
        (.diskFull, 507, "insufficient-storage", []),
        (.databaseUnavailable, 503, "service-unavailable", [("Retry-After", "5")]),
        (.databaseFailed, 500, "internal-error", []),
        (.databaseFileMoved, 503, "service-unavailable", []),
    ]

    /// The name of `failure`'s case; exhaustive, so every case must be handled here.
    static func covered(_ failure: ServiceFailure) -> String {
        switch failure {
        case .databaseNotReachable: "databaseNotReachable"
        case .fontsMissing: "fontsMissing"
        case .overCommitted: "overCommitted"
        case .misdirected: "misdirected"
        case .unknownFormat: "unknownFormat"
        case .invalidDisplaySize: "invalidDisplaySize"
        case .conflictingDisplaySizes: "conflictingDisplaySizes"
        case .contentCoded: "contentCoded"
        case .unsupportedMediaType: "unsupportedMediaType"
        case .unsupportedDocumentType: "unsupportedDocumentType"
        case .invalidImportParameter: "invalidImportParameter"
        case .invalidGroupName: "invalidGroupName"
        case .invalidVersion: "invalidVersion"
        case .invalidPageStart: "invalidPageStart"
        case .invalidPageSize: "invalidPageSize"
        case .repeatedQueryParameter: "repeatedQueryParameter"
        case .malformedQueryEscape: "malformedQueryEscape"
        case .starAmongEntityTags: "starAmongEntityTags"
        case .repeatedStar: "repeatedStar"
        case .malformedEntityTags: "malformedEntityTags"
        case .unknownQueryParameter: "unknownQueryParameter"
        case .unknownGroup: "unknownGroup"
        case .unknownFontFace: "unknownFontFace"
        case .invalidFontName: "invalidFontName"
        case .fontFileTooLarge: "fontFileTooLarge"
        case .unknownVersion: "unknownVersion"
        case .prunedVersion: "prunedVersion"
        case .anonymousWritesRefused: "anonymousWritesRefused"
        case .writesNeedAToken: "writesNeedAToken"
        case .ifMatchAnyButAbsent: "ifMatchAnyButAbsent"
        case .ifMatchMismatch: "ifMatchMismatch"
        case .ifMatchMismatchOnRead: "ifMatchMismatchOnRead"
        case .ifNoneMatchMatches: "ifNoneMatchMatches"
        case .storePreconditionFailed: "storePreconditionFailed"
        case .databaseReadOnly: "databaseReadOnly"
        case .databaseBusy: "databaseBusy"
        case .diskFull: "diskFull"
        case .databaseUnavailable: "databaseUnavailable"
        case .databaseFailed: "databaseFailed"
        case .databaseFileMoved: "databaseFileMoved"
        }
    }

    @Test func everyFailureKindIsListedOnce() {
        let names = Self.expected.map { Self.covered($0.failure) }
        #expect(names.count == 40)
        #expect(Set(names).count == names.count)
    }

    @Test func everyFailureKindMapsToItsStatusTypeAndFields() throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        for (failure, status, slug, headers) in Self.expected {
            let name = Self.covered(failure)
            #expect(failure.status == status, "\(name)")
            #expect(failure.problemType == "urn:layoutd:problem:" + slug, "\(name)")
            let response = service.problem(failure)
            #expect(response.status == status, "\(name)")
            #expect(response.headers["Content-Type"] == "application/problem+json", "\(name)")
            for (field, value) in headers { #expect(response.headers[field] == value, "\(name) \(field)") }
            #expect(response.headers.count == 1 + headers.count, "\(name)")
            let body = try JSONParser().parse(response.body)
            #expect(body["type"] == .string("urn:layoutd:problem:" + slug), "\(name)")
            #expect(body["title"] == .string(status.reasonPhrase), "\(name)")
            #expect(body["status"] == .number(Double(status.code)), "\(name)")
            #expect(body["detail"] == .string(failure.detail), "\(name)")
            #expect(body["diagnostics"] == .array([]), "\(name)")
        }
    }

    @Test func detailsQuoteTheRequest() {
        #expect(ServiceFailure.unknownFormat("png").detail == "Unknown format 'png': use format=json (the default) or format=svg")
        #expect(ServiceFailure.ifMatchMismatch(header: "W/\"2\"", group: "cards", state: "the current version is 2", hasWeakTags: true).detail
            == "If-Match 'W/\"2\"' does not match group 'cards': the current version is 2 (weak tags never match)")
        // An unquoted tag is not a tag: the detail shows the quoted spelling.
        #expect(ServiceFailure.malformedEntityTags(field: "If-Match", value: "2", example: "\"2\"").detail
            == "If-Match: '2' is not * or a list of entity tags: If-Match takes quoted entity tags, such as \"2\" (RFC 9110 §8.8.3)")
        #expect(ServiceFailure.storePreconditionFailed(group: "cards", current: 3).detail
            == "Precondition failed for group 'cards': it exists and the current version is 3")
        let long = String(repeating: "h", count: 300)
        #expect(ServiceFailure.misdirected(host: long).detail.hasPrefix("This server does not answer for the host '\(String(repeating: "h", count: 255))…'"))
        #expect(ServiceFailure.repeatedQueryParameter("after", count: 3).detail == "'after' is given 3 times: give it at most once")
        // A form (curl -F) is told to send the file as the body; other types are not.
        #expect(ServiceFailure.unsupportedDocumentType(contentType: "multipart/form-data; boundary=x").detail
            == "The body must be an Interface Builder document (Content-Type: application/xml, text/xml or application/octet-stream); "
            + "got 'multipart/form-data; boundary=x'; send the file itself as the body, not a form (curl -F): "
            + "curl --data-binary @file.xib -H 'Content-Type: application/xml'")
        // A scene sent to /import is pointed to /solve.
        #expect(ServiceFailure.unsupportedDocumentType(contentType: "application/json; charset=utf-8").detail
            == "The body must be an Interface Builder document (Content-Type: application/xml, text/xml or application/octet-stream); "
            + "got 'application/json; charset=utf-8'; a scene (JSON) is laid out by POST /solve")
        #expect(!ServiceFailure.unsupportedDocumentType(contentType: "text/plain").detail.contains("/solve"))
        #expect(ServiceFailure.unsupportedMediaType(contentType: "Multipart/Form-Data;boundary=y").detail
            == "The body must be JSON (Content-Type: application/json); got 'Multipart/Form-Data;boundary=y'; send the JSON itself "
            + "as the body, not a form (curl -F): curl --data-binary @scene.json -H 'Content-Type: application/json'")
        #expect(ServiceFailure.unsupportedMediaType(contentType: "text/plain").detail
            == "The body must be JSON (Content-Type: application/json); got 'text/plain'")
        #expect(ServiceFailure.overCommitted.detail == HTTPServer.overCommittedDetail)
        // Names from the request target are cut at 256 scalars like any echo.
        let name = String(repeating: "A", count: 5000)
        let cut = String(repeating: "A", count: 255) + "…"
        #expect(ServiceFailure.invalidGroupName(name).detail == "'\(cut)' is not a valid group name: names match [A-Za-z0-9][A-Za-z0-9._-]{0,127}")
        #expect(ServiceFailure.invalidFontName(family: name, face: "400", reason: "r").detail == "'\(cut)/400' is not a valid font family and face: r")
        #expect(ServiceFailure.unknownGroup(name).detail == "No group named '\(cut)'")
        #expect(ServiceFailure.unknownFontFace(name).detail == "No stored font face '\(cut)'")
    }

    /// A group `PUT`'s problems are titled for a group: a body that does not parse as
    /// constraints is "The group cannot be stored", one of wrong shapes "Invalid group",
    /// while a scene's keep theirs.
    @Test func groupProblemsAreTitledForAGroup() throws {
        var configuration = ServiceConfiguration()
        configuration.maxGroupConstraints = 2
        let router = LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration).makeRouter()
        func put(_ body: String) -> HTTPResponse {
            router.respond(to: HTTPRequest(method: .PUT, target: "/groups/g", headers: ["Host": "localhost"], body: Array(body.utf8)))
        }
        let cases: [(String, HTTPStatus, String, String)] = [
            (#"{"constraints":["H:|-[a"]}"#, 422, "The group cannot be stored",
             "Expected ']' to close view 'a'"),
            (#"{"constraints":["a.width == 1","a.width == 2","a.width == 3"]}"#, 422, "The group cannot be stored",
             "A group may hold at most 2 constraints; this one has 3 (limit maxGroupConstraints)"),
            (#"{"constraints":"H:|[a]|"}"#, 400, "Invalid group", "Expected an array of constraints at $.constraints, found a string"),
            (#"{"constraints":["#, 400, "Malformed JSON", "Malformed JSON: Expected a JSON value but found the end of input at line 1, column 17"),
        ]
        for (body, status, title, detail) in cases {
            let response = put(body)
            #expect(response.status == status, "\(body)")
            #expect(response.headers["Content-Type"] == "application/problem+json")
            let problem = try JSONParser().parse(response.body)
            #expect(problem["title"] == .string(title), "\(body)")
            #expect(problem["detail"] == .string(detail), "\(body)")
            #expect(problem["status"] == .number(Double(status.code)))
        }
        // The store's limit on groups is about the group too.
        let limited = LayoutService(store: try SQLiteStore(path: ":memory:", maxGroups: 1)).makeRouter()
        for (name, status) in [("a", HTTPStatus.created), ("b", .unprocessableContent)] {
            let response = limited.respond(to: HTTPRequest(method: .PUT, target: "/groups/\(name)", headers: ["Host": "localhost"],
                                                           body: Array(#"{"constraints":[]}"#.utf8)))
            #expect(response.status == status)
            if status == .unprocessableContent {
                let problem = try JSONParser().parse(response.body)
                #expect(problem["title"] == .string("The group cannot be stored"))
                #expect(problem["type"] == .string("urn:layoutd:problem:unprocessable-scene"))
                #expect(problem["detail"] == .string("The store's limit is reached: maxGroups (1 groups): raise it with --max-groups"))
            }
        }
    }

    @Test func engineFixedAnswers() throws {
        let engine = SceneEngine(limits: SceneLimits())
        let tooLarge = engine.responseTooLarge(limit: 1_000)
        #expect(tooLarge.status == 422)
        let body = try JSONParser().parse(tooLarge.body)
        #expect(body["type"] == .string("urn:layoutd:problem:unprocessable-scene"))
        #expect(body["title"] == .string("The scene cannot be laid out"))
        #expect(engine.renderingTooLong(limit: 10).status == 422)
        let overCommitted = engine.overCommitted()
        #expect(overCommitted.status == 503)
        #expect(overCommitted.headers.count == 1 && overCommitted.headers[0] == ("Retry-After", "1"))
        #expect(overCommitted.body == Problem.body(type: "urn:layoutd:problem:service-unavailable", title: "Service Unavailable",
                                                   status: 503, detail: HTTPServer.overCommittedDetail, diagnostics: []))
    }
}
