import HTTP1
import LayoutCompiler
import LayoutStore

// Errors become HTTP answers here, and only here (STYLE.md §4): diagnostics to 400/422
// problem details, store errors to 412/422/503/507/500.

/// Problem types and titles (RFC 9457 §3.1) for layoutd's answers; the single place
/// where a status and diagnostics become a problem's `type`, `title` and `detail`.
enum Problem {
    static func describe(status: Int, diagnostics: [LayoutDiagnostic]) -> (type: String, title: String, detail: String) {
        let first = diagnostics.first(where: \.isError) ?? diagnostics.first
        let count = LayoutDiagnostic.total(diagnostics)
        let more = count > 1 ? " (and \(count - 1) more diagnostic\(count == 2 ? "" : "s"))" : ""
        let detail = first.map { $0.message + more } ?? HTTPResponse.reasonPhrase(status)
        switch status {
        case 400:
            if first?.code == .invalidJSON {
                return ("urn:layoutd:problem:invalid-json", "Malformed JSON", detail)
            }
            return ("urn:layoutd:problem:invalid-scene", "Invalid scene", detail)
        case 422:
            return ("urn:layoutd:problem:unprocessable-scene", "The scene cannot be laid out", detail)
        default:
            return (type(for: status), HTTPResponse.reasonPhrase(status), detail)
        }
    }

    /// The RFC 9457 problem details body: `type`, `title`, `status`, `detail` and the
    /// diagnostics list every layoutd problem carries (contract, "Responses").
    static func body(type: String, title: String, status: Int, detail: String, diagnostics: [LayoutDiagnostic]) -> [UInt8] {
        var writer = JSONWriter()
        write(type: type, title: title, status: status, detail: detail, diagnostics: diagnostics, into: &writer)
        return writer.bytes
    }

    /// Writes ``body(type:title:status:detail:diagnostics:)`` into `writer` (a bounded
    /// one stops like any answer: ``SceneEngine/problem(status:diagnostics:)``).
    static func write(type: String, title: String, status: Int, detail: String, diagnostics: [LayoutDiagnostic],
                      into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); writer.string(type)
        writer.key("title"); writer.string(title)
        writer.key("status"); writer.integer(status)
        writer.key("detail"); writer.string(detail)
        writer.key("diagnostics"); writer.diagnostics(diagnostics)
        writer.endObject()
    }

    /// `urn:layoutd:problem:<slug>`: the slug of the status (as the HTTP server's own
    /// answers use), except for layoutd's own 422 and 500.
    static func type(for status: Int) -> String {
        switch status {
        case 422: return LayoutService.problemTypeBase + "unprocessable-scene"
        case 500: return LayoutService.problemTypeBase + "internal-error"
        default: return LayoutService.problemTypeBase + HTTPResponse.problemSlug(status)
        }
    }
}

extension LayoutService {
    /// Maps a store error to its HTTP answer (the one place that does so).
    func storeFailure(_ error: StoreError, groupName: String?) -> HTTPResponse {
        switch error {
        case .preconditionFailed(let current):
            let state = current.map { "the current version is \($0)" } ?? "the group does not exist"
            return problem(412, detail: "Precondition failed for group '\(groupName ?? "")': \(state)")
        case .readOnly:
            return problem(503, detail: "The database is read-only: groups can be read but not written", headers: [("Retry-After", "60")])
        case .busy:
            return problem(503, detail: "The database is busy; try again", headers: [("Retry-After", "1")])
        case .full:
            return problem(507, detail: "The disk is full: the write was not stored and the previous data is intact")
        case .limitExceeded(let message):
            // The message names the limit and its flag (``StoreError/limitExceeded(_:)``).
            let text = "The store's limit is reached: \(message)"
            return answer(engine.problem(status: 422, diagnostics: [LayoutDiagnostic(code: .limitExceeded, message: text)]), cacheStatus: nil)
        case .unavailable:
            return problem(503, detail: "The database is unavailable; try again", headers: [("Retry-After", "5")])
        case .corrupt, .cannotOpen, .sqlite, .postgreSQL:
            return problem(500, detail: "The database failed; the error was logged")
        }
    }
}

extension Problem {
    /// The status of a scene the decoder rejects (contract, "Responses"): 400 for a body
    /// that is not JSON or has wrong shapes or types, 422 for a well-formed invalid one.
    static func status(of reason: SceneRejection.Reason) -> Int {
        switch reason {
        case .malformed: 400
        case .invalid: 422
        }
    }
}

extension EngineFailure {
    /// A body that does not parse as JSON: 400 `invalid_json`, quoting the parser's message.
    static func malformedJSON(_ message: String) -> EngineFailure {
        EngineFailure(status: 400, diagnostics: [LayoutDiagnostic(code: .invalidJSON, message: "Malformed JSON: \(message)")])
    }

    /// A body the decoder rejects, at ``Problem/status(of:)``.
    init(_ rejection: SceneRejection) {
        self.init(status: Problem.status(of: rejection.reason), diagnostics: rejection.diagnostics)
    }

    /// A well-formed scene that cannot be laid out as asked (unknown groups, a limit
    /// over the scene and its groups): 422 with `diagnostics`.
    static func unprocessable(_ diagnostics: [LayoutDiagnostic]) -> EngineFailure {
        EngineFailure(status: 422, diagnostics: diagnostics)
    }

    /// The group store cannot be read now: 503 with `Retry-After: 1` and an
    /// `unknown_group` diagnostic saying why.
    static func storeUnavailable(_ reason: String) -> EngineFailure {
        EngineFailure(status: 503, diagnostics: [LayoutDiagnostic(code: .unknownGroup, message: "The group store cannot be read right now: \(reason)")],
                      headers: [("Retry-After", "1")])
    }

    /// A fault of layoutd's own (a stored group that does not decode): 500, no diagnostics.
    static var internalError: EngineFailure { EngineFailure(status: 500, diagnostics: []) }
}

extension SceneEngine {
    /// The answer for a scene that parsed but cannot be laid out (it does not compile,
    /// its solve fails under `conflicts: error`, a limit is reached): 422 problem details
    /// with `diagnostics` (contract, "Responses").
    func unprocessable(_ diagnostics: [LayoutDiagnostic]) -> EngineAnswer {
        problem(status: 422, diagnostics: diagnostics)
    }
}
