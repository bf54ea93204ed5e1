import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// ``QueryParameters`` and ``LayoutService/queryProblem(_:route:)``: every route reads its
/// query one way (RFC 3986 percent-decoding, `+` a space), a malformed escape is a 400
/// naming its parameter, and a parameter the route does not take is a 400 naming it and the
/// route's parameters.
struct QueryParametersTests {
    let router: Router

    init() throws {
        router = LayoutService(store: try SQLiteStore(path: ":memory:")).makeRouter()
    }

    func send(_ method: HTTPMethod, _ target: String, _ body: String = "") -> HTTPResponse {
        router.respond(to: HTTPRequest(method: method, target: target, headers: ["Host": "test"], body: Array(body.utf8)))
    }

    func detail(_ response: HTTPResponse) throws -> String? {
        try JSONParser().parse(response.body)["detail"]?.stringValue
    }

    @Test func parsing() {
        let parsed = QueryParameters("a=1&&b&c=&%73vg=x%2By+z&a=2&")
        #expect(parsed.pairs.map(\.name) == ["a", "b", "c", "svg", "a"])
        #expect(parsed.pairs.map(\.value) == ["1", "", "", "x+y z", "2"])
        #expect(parsed.malformed == nil)
        #expect(parsed.count("a") == 2)
        #expect(parsed.value("a") == "1")
        #expect(parsed.firstUnknown(known: ["a", "b", "c"]) == "svg")
        #expect(QueryParameters("x=%E2%80%AE").value("x") == "\u{202E}")
        #expect(QueryParameters("x=%FF").value("x") == "\u{FFFD}")
        for (query, parameter, text) in [("format=%7", "format", "format=%7"), ("a=1&width=%zz1", "width", "width=%zz1"),
                                         ("sca%le=2", "sca%le", "sca%le=2"), ("format=svg%", "format", "format=svg%")] {
            let malformed = QueryParameters(query).malformed
            #expect(malformed?.parameter == parameter, "\(query)")
            #expect(malformed?.text == text, "\(query)")
        }
        #expect(QueryParameters(nil).pairs.isEmpty)
    }

    /// Decoded values quoted in a 400 have their bidi controls written `\u{…}`, as all
    /// echoed client text has.
    @Test func decodedValuesAreEchoedEscaped() throws {
        let format = send(.POST, "/solve?format=%E2%80%AEgvs", #"{"views":[]}"#)
        #expect(format.status == 400)
        #expect(try detail(format) == #"Unknown format '\u{202E}gvs': use format=json (the default) or format=svg"#)
        let limit = send(.GET, "/groups/g/versions?limit=1%E2%81%A6")
        #expect(limit.status == 400)
        #expect(try detail(limit) == #"limit='1\u{2066}' is not a page size: write an integer from 1 to 1000"#)
    }

    /// `/solve`'s `format` is percent-decoded as `/import`'s parameters are.
    @Test func solveDecodesFormat() {
        let scene = #"{"container":{"width":100,"height":100},"views":["a"],"constraints":["H:|[a]|","V:|[a]|"]}"#
        let svg = send(.POST, "/solve?format=%73vg", scene)
        #expect(svg.status == 200)
        #expect(svg.headers["Content-Type"] == "image/svg+xml; charset=utf-8")
        let json = send(.POST, "/solve?%66ormat=json", scene)
        #expect(json.status == 200)
        #expect(json.headers["Content-Type"] == "application/json")
    }

    @Test func malformedEscapesAreRefusedNamingTheParameter() throws {
        let scene = #"{"views":[]}"#
        let solve = send(.POST, "/solve?format=%7", scene)
        #expect(solve.status == 400)
        #expect(solve.headers["Content-Type"] == "application/problem+json")
        #expect(try detail(solve) == "The query parameter 'format' has a malformed percent-escape in 'format=%7': '%' must be followed by two hexadecimal digits (RFC 3986 §2.1; write '%25' for '%' itself)")
        let versions = send(.GET, "/groups/g/versions?after=1&limit=%G1")
        #expect(versions.status == 400)
        #expect(try detail(versions)?.hasPrefix("The query parameter 'limit' has a malformed percent-escape in 'limit=%G1'") == true)
        #expect(send(.POST, "/import?device=%", "<document/>").status == 400)
    }

    @Test func unknownParametersAreRefusedNamingTheKnownOnes() throws {
        let typo = send(.POST, "/import?devcie=iphone-15", "<document/>")
        #expect(typo.status == 400)
        #expect(typo.headers["Content-Type"] == "application/problem+json")
        #expect(try JSONParser().parse(typo.body)["type"] == .string("urn:layoutd:problem:bad-request"))
        #expect(try detail(typo) == "Unknown query parameter 'devcie': POST /import takes solve, device, orientation, intrinsic, format; did you mean 'device'?")
        let solve = send(.POST, "/solve?format=svg&sclae=2", #"{"views":[]}"#)
        #expect(solve.status == 400)
        #expect(try detail(solve) == "Unknown query parameter 'sclae': POST /solve takes format, scale, width; did you mean 'scale'?")
        let validate = send(.POST, "/validate?format=svg", #"{"views":[]}"#)
        #expect(validate.status == 400)
        #expect(try detail(validate) == "Unknown query parameter 'format': POST /validate takes no query parameters")
        let versions = send(.GET, "/groups/g/versions?page=2")
        #expect(try detail(versions) == "Unknown query parameter 'page': GET /groups/{name}/versions takes after, limit")
        // HEAD is checked as GET; a decoded name is what is compared and named.
        #expect(send(.HEAD, "/groups/g/versions?page=2").status == 400)
        #expect(try detail(send(.GET, "/groups?n%61me=x")) == "Unknown query parameter 'name': GET /groups takes no query parameters")
        // Known parameters and empty queries pass.
        #expect(send(.GET, "/healthz?").status == 200)
        #expect(send(.GET, "/?example=stack&scene=%7B%7D").status == 200)
        #expect(send(.GET, "/groups/none/versions?after=0&limit=5").status == 404)
    }

    /// The probes, the metrics, the OpenAPI document and the playground answer whatever
    /// their query, a malformed escape included.
    @Test func operationalRoutesIgnoreTheirQuery() throws {
        #expect(send(.GET, "/readyz?x=%zz").status == send(.GET, "/readyz").status)
        for target in ["/healthz?verbose", "/healthz?_=1733500000", "/metrics?format=json",
                       "/openapi.yaml?v=2", "/?example=stack&scene=%7B%7D", "/?utm_source=mail"] {
            #expect(send(.GET, target).status == .ok, "\(target)")
        }
        #expect(send(.HEAD, "/healthz?verbose").status == .ok)
        #expect(send(.GET, "/groups?page=2").status == 400)
    }
}
