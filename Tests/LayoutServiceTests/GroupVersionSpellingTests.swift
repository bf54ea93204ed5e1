import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// A version is written one way everywhere: a positive integer without sign or leading
/// zeros, in a scene's `NAME@VERSION` as in `GET /groups/NAME/versions/VERSION`.
struct GroupVersionSpellingTests {
    func request(_ router: Router, _ method: HTTPMethod, _ target: String, _ body: String? = nil) -> HTTPResponse {
        router.respond(to: HTTPRequest(method: method, target: target, headers: ["Host": "localhost"], body: Array((body ?? "").utf8)))
    }

    @Test func leadingZerosAreRefusedInAPinAsInAPath() throws {
        let router = LayoutService(store: try SQLiteStore(path: ":memory:")).makeRouter()
        #expect(request(router, .PUT, "/groups/g", #"{"constraints":["H:|[a]|"]}"#).status == 201)
        let scene = #"{"views":["a"],"constraints":["V:|[a]|"],"groups":["g@VERSION"],"container":{"width":10,"height":10}}"#

        #expect(request(router, .POST, "/solve", scene.replacingOccurrences(of: "VERSION", with: "1")).status == 200)
        #expect(request(router, .GET, "/groups/g/versions/1").status == 200)

        for spelling in ["01", "001", "+1", "0"] {
            let solved = request(router, .POST, "/solve", scene.replacingOccurrences(of: "VERSION", with: spelling))
            #expect(solved.status == 422, "g@\(spelling)")
            let problem = try JSONParser().parse(solved.body)
            #expect(problem["detail"] == .string("'g@\(spelling)' is not a group reference: write NAME or NAME@VERSION, VERSION a positive integer without leading zeros"))
            guard case .array(let diagnostics)? = problem["diagnostics"] else { Issue.record("no diagnostics"); continue }
            #expect(diagnostics.count == 1)
            #expect(diagnostics.first?["code"] == .string("invalid_scene"))
            #expect(diagnostics.first?["path"] == .string("$.groups[0]"))

            let read = request(router, .GET, "/groups/g/versions/\(spelling)")
            #expect(read.status == 400, "versions/\(spelling)")
            #expect(try JSONParser().parse(read.body)["detail"]
                == .string("'\(spelling)' is not a version: versions are positive integers written without leading zeros"))
        }
    }

    /// A version of 20 digits is well formed but past `Int.max`: said so, not called
    /// badly spelled (SceneDecoder's group references).
    @Test func aVersionPastTheLargestIsSaidToBe() throws {
        let router = LayoutService(store: try SQLiteStore(path: ":memory:")).makeRouter()
        let scene = #"{"views":["a"],"constraints":["V:|[a]|"],"groups":["x@99999999999999999999"],"container":{"width":10,"height":10}}"#
        let solved = request(router, .POST, "/solve", scene)
        #expect(solved.status == 422)
        let problem = try JSONParser().parse(solved.body)
        #expect(problem["detail"] == .string("'x@99999999999999999999' names a version larger than any group can have (at most 9223372036854775807)"))
        guard case .array(let diagnostics)? = problem["diagnostics"] else { Issue.record("no diagnostics"); return }
        #expect(diagnostics.first?["path"] == .string("$.groups[0]"))
    }
}
