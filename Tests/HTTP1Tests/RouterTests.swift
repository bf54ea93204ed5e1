import Testing
@testable import HTTP1

struct RouterTests {
    /// A router whose handlers echo which route ran and the parameters it got.
    private func makeRouter() -> Router {
        var router = Router()
        func echo(_ label: String) -> Router.Handler {
            { request, parameters in
                let text = ([label] + parameters.all.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
                return HTTPResponse(status: 200, body: Array(text.utf8))
            }
        }
        router.add(.POST, "/solve", echo("solve"))
        router.add(.GET, "/groups/{name}", echo("get-group"))
        router.add(.PUT, "/groups/{name}", echo("put-group"))
        router.add(.DELETE, "/groups/{name}", echo("delete-group"))
        router.add(.GET, "/groups/{name}/versions/{version}", echo("get-version"))
        router.add(.GET, "/groups/{name}/versions", echo("list-versions"))
        router.add(.GET, "/groups", echo("list-groups"))
        router.add(.GET, "/groups/_stats", echo("stats"))
        return router
    }

    private func body(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test("routes and parameters", arguments: [
        ("POST", "/solve", "solve"),
        ("GET", "/groups", "list-groups"),
        ("GET", "/groups/header", "get-group name=header"),
        ("PUT", "/groups/header", "put-group name=header"),
        ("GET", "/groups/header/versions", "list-versions name=header"),
        ("GET", "/groups/header/versions/3", "get-version name=header version=3"),
        ("GET", "/groups/a%20b", "get-group name=a b"),
        ("GET", "/groups/bad%zz", "get-group name=bad%zz"),
        ("GET", "/groups/_stats", "stats"),
        ("GET", "/groups/header?x=1", "get-group name=header"),
    ])
    func routes(_ method: String, _ target: String, _ expected: String) {
        let response = makeRouter().respond(to: HTTPRequest(method: HTTPMethod(rawValue: method), target: target))
        #expect(response.status == 200)
        #expect(body(response) == expected)
    }

    @Test("unknown paths are 404", arguments: ["/", "/solve/", "/groups/", "/groups/a/b", "/Solve", "/groups//versions"])
    func notFound(_ target: String) {
        let response = makeRouter().respond(to: HTTPRequest(method: .GET, target: target))
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/problem+json")
    }

    /// The configured extension members go into the router's 404 and 405 problems.
    @Test func notFoundAndWrongMethodCarryTheConfiguredMembers() {
        var router = Router(problemTypeBase: "urn:app:problem:", problemMembers: [ProblemMember("diagnostics", "[]")])
        router.add(.POST, "/solve") { _, _ in HTTPResponse(status: 200) }
        let missing = router.respond(to: HTTPRequest(method: .GET, target: "/nothing"))
        #expect(body(missing) == #"{"type":"urn:app:problem:not-found","title":"Not Found","status":404,"detail":"No resource at '/nothing'","diagnostics":[]}"#)
        // The path quoted: a trailing slash is not read as the sentence's end.
        let slash = router.respond(to: HTTPRequest(method: .POST, target: "/solve/"))
        #expect(slash.status == 404)
        #expect(body(slash) == #"{"type":"urn:app:problem:not-found","title":"Not Found","status":404,"detail":"No resource at '/solve/'","diagnostics":[]}"#)
        let wrong = router.respond(to: HTTPRequest(method: .GET, target: "/solve"))
        #expect(body(wrong) == #"{"type":"urn:app:problem:method-not-allowed","title":"Method Not Allowed","status":405,"detail":"GET is not allowed on /solve; allowed: OPTIONS, POST.","diagnostics":[]}"#)
    }

    @Test func wrongMethodIs405WithSortedAllow() {
        let router = makeRouter()
        let solve = router.respond(to: HTTPRequest(method: .GET, target: "/solve"))
        #expect(solve.status == 405)
        #expect(solve.headers["Allow"] == "OPTIONS, POST")
        let group = router.respond(to: HTTPRequest(method: .POST, target: "/groups/a"))
        #expect(group.status == 405)
        #expect(group.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS, PUT")
        #expect(body(group) == #"{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"POST is not allowed on /groups/a; allowed: DELETE, GET, HEAD, OPTIONS, PUT."}"#)
    }

    /// RFC 9110 §9.3.7: OPTIONS on a resource lists its methods; `OPTIONS *`, the
    /// methods of the server in general. No body, so no Content-Type.
    @Test func optionsListsTheAllowedMethods() {
        let router = makeRouter()
        let group = router.respond(to: HTTPRequest(method: .OPTIONS, target: "/groups/a"))
        #expect(group.status == 204)
        #expect(group.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS, PUT")
        #expect(group.body.isEmpty)
        #expect(group.headers["Content-Type"] == nil)
        let solve = router.respond(to: HTTPRequest(method: .OPTIONS, target: "/solve"))
        #expect(solve.status == 204)
        #expect(solve.headers["Allow"] == "OPTIONS, POST")
        let server = router.respond(to: HTTPRequest(method: .OPTIONS, target: "*"))
        #expect(server.status == 204)
        #expect(server.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS, POST, PUT")
        #expect(router.respond(to: HTTPRequest(method: .OPTIONS, target: "/nowhere")).status == 404)
    }

    @Test func headRunsGet() {
        let response = makeRouter().respond(to: HTTPRequest(method: .HEAD, target: "/groups/x"))
        #expect(response.status == 200)
        #expect(body(response) == "get-group name=x")
    }

    @Test func laterRegistrationReplacesEarlier() {
        var router = Router()
        router.add(.GET, "/a") { _, _ in HTTPResponse(status: 201) }
        router.add(.GET, "/a") { _, _ in HTTPResponse(status: 202) }
        #expect(router.respond(to: HTTPRequest(method: .GET, target: "/a")).status == 202)
    }

    @Test func literalBeatsParameterWhateverTheOrder() {
        var router = Router()
        router.add(.GET, "/{a}/x") { _, _ in HTTPResponse(status: 201) }
        router.add(.GET, "/y/{b}") { _, _ in HTTPResponse(status: 202) }
        #expect(router.respond(to: HTTPRequest(method: .GET, target: "/y/x")).status == 202)
        #expect(router.respond(to: HTTPRequest(method: .GET, target: "/z/x")).status == 201)
    }

    @Test func problemBodyEscapesAndAddsExtraMembers() {
        let response = HTTPResponse.problem(status: 422, title: "Unprocessable \"Scene\"", detail: "line1\nline2\u{1}",
                                            type: "https://example.com/probs/x", extra: [ProblemMember("diagnostics", "[]")])
        #expect(response.status == 422)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(body(response) == #"{"type":"https://example.com/probs/x","title":"Unprocessable \"Scene\"","status":422,"detail":"line1\nline2\u0001","diagnostics":[]}"#)
    }

    /// The matched route is the pattern, for metrics and logs: `nil` for 404 and `*`;
    /// a 405 or a HEAD still names its resource.
    @Test("matched route is the pattern", arguments: [
        ("POST", "/solve", "/solve" as String?),
        ("GET", "/groups", "/groups"),
        ("GET", "/groups/_stats", "/groups/_stats"),
        ("GET", "/groups/header", "/groups/{name}"),
        ("HEAD", "/groups/header", "/groups/{name}"),
        ("POST", "/groups/header", "/groups/{name}"),
        ("GET", "/groups/header/versions/3", "/groups/{name}/versions/{version}"),
        ("GET", "/groups/", nil),
        ("GET", "/groups/a/b", nil),
        ("GET", "/nowhere", nil),
        ("OPTIONS", "*", nil),
    ])
    func matchedRouteIsThePattern(method: String, target: String, route: String?) {
        let router = makeRouter()
        let request = HTTPRequest(method: HTTPMethod(rawValue: method), target: target)
        #expect(router.dispatch(request).route == route)
        #expect(router.route(for: request.path) == route)
    }
}
