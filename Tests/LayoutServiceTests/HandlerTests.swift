import Foundation
import HTTP1
import Synchronization
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// The service's handlers, called directly (no sockets), on an in-memory store.
struct HandlerTests {
    let service: LayoutService
    let router: Router

    init() throws {
        service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        router = service.makeRouter()
    }

    func request(_ method: HTTPMethod, _ target: String, _ body: String = "", headers: HTTPFields = [:]) -> HTTPResponse {
        var fields = headers
        if !fields.contains("Host") { fields.append("Host", "test") }
        let request = HTTPRequest(method: method, target: target, headers: fields, body: Array(body.utf8))
        return router.respond(to: request)
    }

    func json(_ response: HTTPResponse) throws -> JSONValue { try JSONParser().parse(response.body) }

    static let scene = #"{"container":{"width":320,"height":480},"views":["red","green"],"constraints":["H:|-[red]-[green(==red)]-|","V:|-[red]-|","V:|-[green]-|"]}"#

    @Test func solveThenHitWithIdenticalBytes() throws {
        let miss = request(.POST, "/solve", Self.scene, headers: ["Content-Type": "application/json"])
        #expect(miss.status == 200)
        #expect(miss.headers["Cache-Status"] == "layoutd; fwd=miss; stored")
        #expect(String(decoding: miss.body, as: UTF8.self) == #"{"frames":{"superview":{"x":0,"y":0,"width":320,"height":480},"green":{"x":164,"y":20,"width":136,"height":440},"red":{"x":20,"y":20,"width":136,"height":440}},"diagnostics":[]}"#)
        let hit = request(.POST, "/solve", Self.scene)
        #expect(hit.headers["Cache-Status"] == "layoutd; hit")
        #expect(hit.body == miss.body)
        // Same scene, other member order and whitespace: same cache entry.
        let reordered = #"{ "constraints":["H:|-[red]-[green(==red)]-|","V:|-[red]-|","V:|-[green]-|"], "views":["red","green"], "container":{"height":480,"width":320} }"#
        let sqliteHit = request(.POST, "/solve", reordered)
        #expect(sqliteHit.headers["Cache-Status"] == "layoutd; hit")
        #expect(sqliteHit.body == miss.body)
    }

    @Test func aResultOverTheStoresCapIsAnsweredButNotStored() throws {
        let store = try SQLiteStore(path: ":memory:", maxResultBytes: 150)
        let router = LayoutService(store: store).makeRouter()
        func solve(_ body: String) -> HTTPResponse {
            router.respond(to: HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "test"], body: Array(body.utf8)))
        }
        let big = solve(Self.scene)
        #expect(big.status == 200)
        #expect(big.body.count > 150)
        #expect(big.headers["Cache-Status"] == "layoutd; fwd=miss")
        // Neither SQLite nor the front cache kept it: the repeat is solved again.
        let again = solve(Self.scene)
        #expect(again.headers["Cache-Status"] == "layoutd; fwd=miss")
        #expect(again.body == big.body)
        #expect(try store.cacheCount() == 0)
        let smallScene = #"{"container":{"width":10,"height":10},"views":[],"constraints":[]}"#
        let small = solve(smallScene)
        #expect(small.body.count <= 150)
        #expect(small.headers["Cache-Status"] == "layoutd; fwd=miss; stored")
        #expect(solve(smallScene).headers["Cache-Status"] == "layoutd; hit")
        #expect(try store.cacheCount() == 1)
    }

    @Test func cacheControlDirectives() {
        _ = request(.POST, "/solve", Self.scene)
        let noCache = request(.POST, "/solve", Self.scene, headers: ["Cache-Control": "no-cache"])
        #expect(noCache.headers["Cache-Status"] == "layoutd; fwd=request")
        let noStore = request(.POST, "/solve", Self.scene, headers: ["Cache-Control": "max-age=0, no-store"])
        #expect(noStore.headers["Cache-Status"] == "layoutd; fwd=request")
        #expect(noCache.body == noStore.body)
    }

    /// RFC 9111 §5.2.1.1: a request `max-age=0` is `no-cache`: nothing is looked up, the
    /// fresh result is stored (so a later plain request hits); another max-age is no directive.
    @Test("request max-age=0 is no-cache", arguments: ["max-age=0", "MAX-AGE=0", "max-age=00", #"max-age="0""#, "public, max-age=0"])
    func maxAgeZero(_ cacheControl: String) {
        let miss = request(.POST, "/solve", Self.scene)
        #expect(miss.headers["Cache-Status"] == "layoutd; fwd=miss; stored")
        let fresh = request(.POST, "/solve", Self.scene, headers: ["Cache-Control": cacheControl])
        #expect(fresh.status == 200)
        #expect(fresh.headers["Cache-Status"] == "layoutd; fwd=request")
        #expect(fresh.body == miss.body)
        #expect(request(.POST, "/solve", Self.scene).headers["Cache-Status"] == "layoutd; hit")
    }

    @Test func maxAgeZeroOnAFirstRequestStores() {
        let fresh = request(.POST, "/solve", Self.scene, headers: ["Cache-Control": "max-age=0"])
        #expect(fresh.headers["Cache-Status"] == "layoutd; fwd=request")
        #expect(request(.POST, "/solve", Self.scene).headers["Cache-Status"] == "layoutd; hit")
    }

    @Test("other max-age values change nothing", arguments: ["max-age=60", "max-age=10", "max-age=", "max-age"])
    func otherMaxAge(_ cacheControl: String) {
        _ = request(.POST, "/solve", Self.scene)
        #expect(request(.POST, "/solve", Self.scene, headers: ["Cache-Control": cacheControl]).headers["Cache-Status"] == "layoutd; hit")
    }

    @Test func unprocessableSceneIsNotStored() throws {
        let body = #"{"views":["red"],"constraints":["H:|-0-[red-0-|"]}"#
        let first = request(.POST, "/solve", body)
        #expect(first.status == 422)
        #expect(first.headers["Content-Type"] == "application/problem+json")
        #expect(first.headers["Cache-Status"] == "layoutd; fwd=miss")
        let problem = try json(first)
        #expect(problem["type"] == .string("urn:layoutd:problem:unprocessable-scene"))
        #expect(problem["diagnostics"]?.arrayValue?.first?["column"] == .number(10))
        #expect(request(.POST, "/solve", body).headers["Cache-Status"] == "layoutd; fwd=miss")
    }

    @Test("media types", arguments: [
        ("application/json", 200), ("application/json; charset=utf-8", 200), ("application/merge-patch+json", 200),
        ("application/x-www-form-urlencoded", 200), ("text/plain", 415), ("application/xml", 415),
        // No media type before the parameters: not JSON (a blank value is as if absent).
        (";;;", 415), (";charset=utf-8", 415), ("+json", 415), ("", 200), ("  ", 200),
    ])
    func mediaTypes(_ contentType: String, _ status: HTTPStatus) {
        #expect(request(.POST, "/solve", Self.scene, headers: ["Content-Type": contentType]).status == status)
    }

    @Test func contentCodedBodiesGet415() throws {
        let gzip = request(.POST, "/solve", Self.scene, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"])
        #expect(gzip.status == 415)
        #expect(gzip.headers["Accept-Encoding"] == "identity")
        #expect(try json(gzip)["detail"] == .string("The body must not be content-coded; Content-Encoding 'gzip' is not supported, send it uncompressed"))
        #expect(request(.POST, "/solve", Self.scene, headers: ["Content-Encoding": "identity"]).status == 200)
    }

    /// An Interface Builder document sent to a JSON endpoint (an XML type, or a body that
    /// starts with `<?xml`) gets a 415 naming `POST /import`; other types do not.
    @Test func xmlBodiesAreToldAboutImport() throws {
        let xib = #"<?xml version="1.0" encoding="UTF-8"?><document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB"/>"#
        for (contentType, body) in [("application/xml", xib), ("Text/XML; charset=utf-8", xib), ("text/plain", xib), ("application/xml", Self.scene)] {
            let response = request(.POST, "/solve", body, headers: ["Content-Type": contentType])
            #expect(response.status == 415)
            #expect(response.headers["Accept-Post"] == "application/json")
            #expect(try json(response)["type"] == .string("urn:layoutd:problem:unsupported-media-type"))
            #expect(try json(response)["detail"] == .string(
                "The body must be JSON (Content-Type: application/json); got '\(contentType)'; Interface Builder documents go to POST /import"))
        }
        let plain = request(.POST, "/solve", Self.scene, headers: ["Content-Type": "text/plain"])
        #expect(plain.status == 415)
        #expect(try json(plain)["detail"] == .string("The body must be JSON (Content-Type: application/json); got 'text/plain'"))
    }

    /// The same document sent as a form (curl `-d` without `-H`), which is read as JSON:
    /// its 400 `invalid_json` names `POST /import` too; other malformed bodies do not.
    @Test func anXMLBodyToSolveIsPointedToImport() throws {
        let xib = "\n  <?xml version=\"1.0\"?><document type=\"com.apple.InterfaceBuilder3.CocoaTouch.XIB\"/>"
        let response = request(.POST, "/solve", xib, headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(response.status == 400)
        #expect(try json(response)["detail"] == .string("Malformed JSON: Expected a JSON value but found character '<' at line 2, column 3; "
            + "the body is XML: Interface Builder documents go to POST /import"))
        let other = request(.POST, "/solve", "<html>", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(try json(other)["detail"] == .string("Malformed JSON: Expected a JSON value but found character '<' at line 1, column 1"))
    }

    @Test func malformedAndWrongTypes() throws {
        let malformed = request(.POST, "/solve", "{\"views\": [")
        #expect(malformed.status == 400)
        #expect(try json(malformed)["diagnostics"]?.arrayValue?.first?["code"] == .string("invalid_json"))
        let wrongType = request(.POST, "/solve", #"{"views":"red"}"#)
        #expect(wrongType.status == 400)
        #expect(try json(wrongType)["diagnostics"]?.arrayValue?.first?["path"] == .string("$.views"))
        // /validate gives a verdict for any JSON object, a 400 only for non-objects.
        #expect(request(.POST, "/validate", #"{"views":3}"#).status == 200)
        #expect(request(.POST, "/validate", "[1]").status == 400)
    }

    @Test func groupsLifecycleAndNeverStale() throws {
        let scene = #"{"container":{"width":200,"height":100},"views":["red"],"constraints":["V:|[red]|"],"groups":["row"]}"#
        #expect(request(.POST, "/solve", scene).status == 422)   // unknown_group
        let created = request(.PUT, "/groups/row", #"{"constraints":["H:|-pad-[red]-pad-|"],"metrics":{"pad":12}}"#)
        #expect(created.status == 201)
        #expect(created.headers["ETag"] == "\"1\"")
        let first = try json(request(.POST, "/solve", scene))
        #expect(first["frames"]?["red"]?["width"] == .number(176))
        // Replacing the group changes the answer at once (no stale cache entry).
        let replaced = request(.PUT, "/groups/row", #"{"constraints":["H:|-pad-[red]-pad-|"],"metrics":{"pad":50}}"#,
                               headers: ["If-Match": "\"1\""])
        #expect(replaced.status == 200)
        let second = try json(request(.POST, "/solve", scene))
        #expect(second["frames"]?["red"]?["width"] == .number(100))
        #expect(request(.PUT, "/groups/row", #"{"constraints":[]}"#, headers: ["If-Match": "\"1\""]).status == 412)
        #expect(request(.PUT, "/groups/row", #"{"constraints":[]}"#, headers: ["If-None-Match": "*"]).status == 412)
        #expect(request(.GET, "/groups/row/versions/1").status == 200)
        #expect(request(.GET, "/groups/row/versions/3").status == 404)
        #expect(request(.DELETE, "/groups/row").status == 204)
        #expect(request(.GET, "/groups/row").status == 404)
        #expect(request(.PUT, "/groups/row", #"{"constraints":[]}"#).headers["ETag"] == "\"3\"")
    }

    @Test func conditionalRequestsOnGroups() {
        #expect(request(.PUT, "/groups/g", #"{"constraints":[]}"#).status == 201)
        #expect(request(.PUT, "/groups/g", #"{"constraints":[]}"#).status == 200)   // version 2
        // DELETE honours If-Match (strong, any listed tag) and If-None-Match.
        #expect(request(.DELETE, "/groups/g", headers: ["If-Match": "\"1\""]).status == 412)
        #expect(request(.DELETE, "/groups/g", headers: ["If-None-Match": "W/\"2\""]).status == 412)
        // A specific If-None-Match naming the current version fails a PUT; an unquoted tag is no tag (400).
        #expect(request(.PUT, "/groups/g", #"{"constraints":[]}"#, headers: ["If-None-Match": "\"2\""]).status == 412)
        #expect(request(.PUT, "/groups/g", #"{"constraints":[]}"#, headers: ["If-Match": "2"]).status == 400)
        #expect(request(.GET, "/groups/g").headers["ETag"] == "\"2\"")
        #expect(request(.DELETE, "/groups/g", headers: ["If-Match": "\"9\", \"2\""]).status == 204)
        #expect(request(.DELETE, "/groups/g", headers: ["If-Match": "*"]).status == 412)
    }

    /// Group names are case-sensitive; an unknown one gets the closest stored name (case
    /// ignored, within two edits) as a did-you-mean, and none when nothing is close.
    @Test func anUnknownGroupNamesTheClosestStoredOne() throws {
        #expect(request(.PUT, "/groups/row", #"{"constraints":["H:|[a]|"]}"#).status == 201)
        let scene = #"{"views":["a"],"constraints":["V:|[a]|"],"groups":["ROW", "rows@2", "zzz"],"container":{"width":10,"height":10}}"#
        let refused = request(.POST, "/solve", scene)
        #expect(refused.status == 422)
        let messages = try json(refused)["diagnostics"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
        #expect(messages == ["No group named 'ROW' is stored (included as 'ROW'); did you mean 'row'?",
                             "No group named 'rows' is stored (included as 'rows@2'); did you mean 'row'?",
                             "No group named 'zzz' is stored (included as 'zzz')"])
        // A version the stored group does not have is named as such.
        let pinned = request(.POST, "/solve", #"{"views":["a"],"constraints":["V:|[a]|"],"groups":["row@7"],"container":{"width":10,"height":10}}"#)
        #expect(try json(pinned)["detail"] == .string("Group 'row' has no version 7 (included as 'row@7')"))
    }

    /// A group's `GET` answer sent back as a `PUT` body: the 400 says which members are the
    /// server's (a fresh user read only "Unknown field 'name' at $").
    @Test func aGetAnswerSentBackAsABodyNamesTheServersMembers() throws {
        #expect(request(.PUT, "/groups/echo", #"{"constraints":["H:|[a]|"]}"#).status == 201)
        let read = request(.GET, "/groups/echo")
        let refused = request(.PUT, "/groups/echo", String(decoding: read.body, as: UTF8.self))
        #expect(refused.status == 400)
        let server = #": a group's body holds only "constraints" and "metrics" (its name, version and updatedAt are the server's)"#
        #expect(try json(refused)["detail"] == .string("Unknown field 'name' at $" + server + " (and 2 more diagnostics)"))
        let messages = try json(refused)["diagnostics"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
        #expect(messages == ["Unknown field 'name' at $" + server, "Unknown field 'version' at $" + server,
                             "Unknown field 'updatedAt' at $" + server])
    }

    /// RFC 9110 §13.1.1: the wildcard is a bare `*`; `"*"` and `W/"*"` are entity tags that
    /// no version's tag equals. A fresh user's `If-Match: "*"` PUT replaced version 106.
    @Test func aQuotedStarIsAnEntityTagNotTheWildcard() throws {
        #expect(request(.PUT, "/groups/q", #"{"constraints":[]}"#).status == 201)
        for tag in ["\"*\"", "W/\"*\""] {
            #expect(request(.PUT, "/groups/q", #"{"constraints":[]}"#, headers: ["If-Match": tag]).status == 412, "If-Match: \(tag)")
            #expect(request(.DELETE, "/groups/q", headers: ["If-Match": tag]).status == 412, "If-Match: \(tag)")
            #expect(request(.GET, "/groups/q", headers: ["If-Match": tag]).status == 412, "GET If-Match: \(tag)")
            // If-None-Match lists no tag of the current version: the condition holds.
            #expect(request(.GET, "/groups/q", headers: ["If-None-Match": tag]).status == 200, "GET If-None-Match: \(tag)")
        }
        #expect(request(.GET, "/groups/q").headers["ETag"] == "\"1\"")
        let written = request(.PUT, "/groups/q", #"{"constraints":[]}"#, headers: ["If-None-Match": "\"*\""])
        #expect(written.status == 200)
        #expect(try json(written)["version"] == .number(2))
        // The bare wildcard keeps its meaning.
        #expect(request(.GET, "/groups/q", headers: ["If-None-Match": "*"]).status == 304)
        #expect(request(.PUT, "/groups/q", #"{"constraints":[]}"#, headers: ["If-None-Match": "*"]).status == 412)
        #expect(request(.PUT, "/groups/q", #"{"constraints":[]}"#, headers: ["If-Match": "*"]).status == 200)
        #expect(request(.GET, "/groups/q").headers["ETag"] == "\"3\"")
    }

    /// A group constant beyond maxMagnitude would refuse every scene including the group:
    /// refused when stored, at its column, nothing written; a metric's use is left to the scene.
    @Test func groupConstantsBeyondTheMagnitudeAreRefused() throws {
        let refused = request(.PUT, "/groups/big", #"{"constraints":["H:|[a]|", "red.width == 3e12"]}"#)
        #expect(refused.status == 422)
        let body = try json(refused)
        let diagnostic = try #require(body["diagnostics"]?.arrayValue?.first)
        #expect(diagnostic["code"] == .string("limit_exceeded"))
        #expect(diagnostic["message"] == .string("The number 3e12 in group:big/1 is beyond ±1000000000000 (limit maxMagnitude)"))
        #expect(diagnostic["column"] == .number(13))
        #expect(request(.GET, "/groups/big").status == 404)
        #expect(request(.PUT, "/groups/big", #"{"constraints":["red.width == huge"]}"#).status == 201)
        #expect(request(.PUT, "/groups/big", #"{"constraints":["red.width == 1e12"]}"#).status == 200)
    }

    /// `*` beside entity tags is outside RFC 9110's `"*" / #entity-tag`: a 400, nothing written.
    @Test func starBesideEntityTagsIsRefused() throws {
        #expect(request(.PUT, "/groups/s", #"{"constraints":[]}"#).status == 201)
        let mixed = request(.PUT, "/groups/s", #"{"constraints":[]}"#, headers: ["If-Match": "\"1\", *"])
        #expect(mixed.status == 400)
        #expect(try json(mixed)["detail"] == .string("If-Match: '\"1\", *' lists * beside entity tags: send either * or a list of entity tags (RFC 9110 §13.1)"))
        #expect(request(.DELETE, "/groups/s", headers: ["If-None-Match": "*, \"7\""]).status == 400)
        // `*` on two field lines is the list `*, *`: `*` must be the only value.
        var twice: HTTPFields = [:]
        twice.append("If-None-Match", "*")
        twice.append("If-None-Match", "*")
        let repeated = request(.PUT, "/groups/s", #"{"constraints":[]}"#, headers: twice)
        #expect(repeated.status == 400)
        #expect(try json(repeated)["detail"] == .string("If-None-Match: '*, *' lists * more than once: * must be the field's only value, "
            + "given once (several field lines are one list, RFC 9110 §5.3, §13.1)"))
        #expect(request(.GET, "/groups/s", headers: ["If-Match": "*,*, *"]).status == 400)
        #expect(try json(request(.GET, "/groups/s", headers: ["If-Match": "*, *, \"1\""]))["detail"]
            == .string("If-Match: '*, *, \"1\"' lists * beside entity tags: send either * or a list of entity tags (RFC 9110 §13.1)"))
        #expect(request(.GET, "/groups/s", headers: ["If-Match": " * ,, "]).status == 200)
        #expect(request(.GET, "/groups/s").headers["ETag"] == "\"1\"")
        #expect(request(.PUT, "/groups/s", #"{"constraints":[]}"#, headers: ["If-Match": "\"1\""]).status == 200)
    }

    /// `"sizes": []` would answer no layout (the container left out): a 422 naming `$.sizes`.
    @Test func emptySizesAreRefused() throws {
        let refused = request(.POST, "/solve", #"{"container":{"width":100,"height":50},"views":["a"],"constraints":["H:|[a]|","V:|[a]|"],"sizes":[]}"#)
        #expect(refused.status == 422)
        let body = try json(refused)
        #expect(body["detail"] == .string(#"$.sizes is empty: give at least one size ({"width"?, "height"?}), or leave sizes out to lay out the container"#))
        let diagnostic = try #require(body["diagnostics"]?.arrayValue?.first)
        #expect(diagnostic["code"] == .string("invalid_scene"))
        #expect(diagnostic["path"] == .string("$.sizes"))
        #expect(request(.POST, "/solve", #"{"views":["a"],"constraints":["H:|[a(10)]|","V:|[a(10)]|"],"sizes":[{}]}"#).status == 200)
    }

    /// With `sizes`, a container height that an entry leaves out is fitted there, as a
    /// separate `/solve` would: the top-level `diagnostics` warns that `container.height`
    /// is not used, once, naming how many entries omit it; none when every entry gives it.
    @Test func sizesWithoutTheContainersHeightAreWarned() throws {
        let scene = #"{"container":{"width":320,"height":480},"views":["a"],"constraints":["H:|-[a]-|","V:|-[a(40)]-|"],"sizes":SIZES}"#
        let answered = request(.POST, "/solve", scene.replacingOccurrences(of: "SIZES", with: #"[{"width":320},{"width":768}]"#))
        #expect(answered.status == 200)
        let body = try json(answered)
        #expect(body["diagnostics"] == .array([.object([
            ("severity", .string("warning")), ("code", .string("invalid_scene")),
            ("message", .string(#"container.height (480) is not used with 'sizes': each entry is the container's size, and 2 entries give no height, so it is fitted there; give each entry its height ("height": 480)"#)),
            ("path", .string("$.container.height")),
        ])]))
        // Each layout is what a separate /solve with that container answers: height fitted to 20 + 40 + 20.
        #expect(body["layouts"]?.arrayValue?.first?["container"] == .object([("width", .number(320)), ("height", .number(80))]))
        let given = try json(request(.POST, "/solve", scene.replacingOccurrences(of: "SIZES", with: #"[{"width":320,"height":480}]"#)))
        #expect(given["diagnostics"] == .array([]))
    }

    /// `?width=` and `?scale=` size the SVG wireframe only: a JSON answer names the one given
    /// in a last top-level warning at `?width` / `?scale`. The caches hold the answer
    /// without it (it depends on the query, they on the body): the same body without a
    /// query is a hit with no warning, and a hit with a query gets the warning.
    @Test func displaySizesOfAJSONAnswerAreWarned() throws {
        let scene = #"{"container":{"width":320,"height":480},"views":["a"],"constraints":["H:|-[a]-|","V:|-[a(40)]"]}"#
        func warning(_ parameter: String) -> JSONValue {
            .object([
                ("severity", .string("warning")), ("code", .string("invalid_scene")),
                ("message", .string("'\(parameter)' sizes the SVG wireframe and is ignored in a JSON answer: add format=svg (or send Accept: image/svg+xml) to draw the layout")),
                ("path", .string("?\(parameter)")),
            ])
        }
        let widthAsked = request(.POST, "/solve?width=600", scene)
        #expect(widthAsked.status == 200)
        #expect(widthAsked.headers["Cache-Status"] == "layoutd; fwd=miss; stored")
        #expect(try json(widthAsked)["diagnostics"] == .array([warning("width")]))
        #expect(try json(widthAsked)["frames"]?["a"] == .object([("x", .number(20)), ("y", .number(20)), ("width", .number(280)), ("height", .number(40))]))
        let plain = request(.POST, "/solve", scene)
        #expect(plain.headers["Cache-Status"] == "layoutd; hit")
        #expect(try json(plain)["diagnostics"] == .array([]))
        #expect(widthAsked.body.count > plain.body.count)
        let scaleAsked = request(.POST, "/solve?format=json&scale=2", scene)
        #expect(scaleAsked.headers["Cache-Status"] == "layoutd; hit")
        #expect(try json(scaleAsked)["diagnostics"] == .array([warning("scale")]))
        // After the answer's own warnings; a picture is not warned; a refusal is unchanged.
        let sizes = #"{"container":{"width":320,"height":480},"views":["a"],"constraints":["H:|-[a]-|","V:|-[a(40)]-|"],"sizes":[{"width":320}]}"#
        let both = try json(request(.POST, "/solve?width=600", sizes))["diagnostics"]?.arrayValue
        #expect(both?.count == 2)
        #expect(both?.first?["path"] == .string("$.container.height"))
        #expect(both?.last == warning("width"))
        #expect(request(.POST, "/solve?width=600&format=svg", scene).headers["Content-Type"] == "image/svg+xml; charset=utf-8")
        let unknown = #"{"views":["a"],"constraints":["b.width == 10"]}"#
        let refused = request(.POST, "/solve?width=600", unknown)
        #expect(refused.status == 422)
        #expect(refused.body == request(.POST, "/solve", unknown).body)
    }

    /// Client text quoted in a problem's `detail` has its bidi controls written `\u{…}`.
    @Test func bidiControlsInEchoedTextAreEscaped() throws {
        let refused = request(.POST, "/solve", "{\"views\":[],\"constraints\":[],\"x\u{202E}y\u{2066}\":1}")
        #expect(refused.status == 400)
        #expect(try json(refused)["detail"] == .string(#"Unknown field 'x\u{202E}y\u{2066}' at $"#))
        let group = request(.GET, "/groups/a%E2%80%AEb")
        #expect(group.status == 400)
        #expect(try json(group)["detail"] == .string(#"'a\u{202E}b' is not a valid group name: names match [A-Za-z0-9][A-Za-z0-9._-]{0,127}"#))
    }

    /// RFC 9110 §13.1.2: a GET (or HEAD) of a group or of one of its versions whose
    /// `If-None-Match` lists its entity tag (weakly compared) or `*` is `304 Not Modified`
    /// with no content and the same `ETag`; another tag gets the 200.
    @Test func conditionalGETs() throws {
        #expect(request(.PUT, "/groups/g", #"{"constraints":[]}"#).status == 201)
        #expect(request(.PUT, "/groups/g", #"{"constraints":["H:|[a]|"]}"#).status == 200)   // version 2
        for (target, tag) in [("/groups/g", "\"2\""), ("/groups/g/versions/1", "\"1\"")] {
            for header in [tag, "W/\(tag)", "\"9\", \(tag)", "*"] {
                for method in [HTTPMethod.GET, .HEAD] {
                    let unchanged = request(method, target, headers: ["If-None-Match": header])
                    #expect(unchanged.status == 304, "\(method) \(target) If-None-Match: \(header)")
                    #expect(unchanged.body.isEmpty)
                    #expect(unchanged.headers["ETag"] == tag)
                    #expect(unchanged.headers["Content-Type"] == nil)
                }
            }
            let changed = request(.GET, target, headers: ["If-None-Match": "\"7\""])
            #expect(changed.status == 200)
            #expect(changed.headers["ETag"] == tag)
            #expect(try json(changed)["version"] == .number(target.hasSuffix("/1") ? 1 : 2))
        }
        #expect(request(.GET, "/groups/none", headers: ["If-None-Match": "*"]).status == 404)
        // `*` beside tags is a 400 on a GET as on a write, as is unquoted text (no entity tag).
        #expect(request(.GET, "/groups/g", headers: ["If-None-Match": "\"2\", *"]).status == 400)
        #expect(request(.HEAD, "/groups/g", headers: ["If-None-Match": "*, \"1\""]).status == 400)
        #expect(request(.GET, "/groups/g", headers: ["If-None-Match": "2"]).status == 400)
        // Several field lines are one list (RFC 9110 §5.3).
        let lines = HTTPRequest(method: .GET, target: "/groups/g", headers: [("Host", "t"), ("If-None-Match", "\"7\""), ("If-None-Match", "\"2\"")], body: [])
        #expect(LayoutService.listField("If-None-Match", of: lines) == "\"7\", \"2\"")
        #expect(router.respond(to: lines).status == 304)
        let star = HTTPRequest(method: .GET, target: "/groups/g", headers: [("Host", "t"), ("If-None-Match", "\"2\""), ("If-None-Match", "*")], body: [])
        #expect(router.respond(to: star).status == 400)
    }

    /// RFC 9110 §13.1.1, §13.2.2: a GET (or HEAD) whose `If-Match` lists neither `*` nor
    /// the entity tag of what it reads (strongly compared) is `412`, checked before
    /// `If-None-Match`; a match reads as usual.
    @Test func ifMatchOnGET() throws {
        #expect(request(.PUT, "/groups/g", #"{"constraints":[]}"#).status == 201)
        #expect(request(.PUT, "/groups/g", #"{"constraints":["H:|[a]|"]}"#).status == 200)   // version 2
        for method in [HTTPMethod.GET, .HEAD] {
            for header in ["\"2\"", "\"9\", \"2\"", "*"] {
                let read = request(method, "/groups/g", headers: ["If-Match": header])
                #expect(read.status == 200, "\(method) If-Match: \(header)")
                #expect(read.headers["ETag"] == "\"2\"")
            }
            #expect(request(method, "/groups/g", headers: ["If-Match": "W/\"2\""]).status == 412)
            #expect(request(method, "/groups/g/versions/1", headers: ["If-Match": "\"1\""]).status == 200)
        }
        let stale = request(.GET, "/groups/g", headers: ["If-Match": "\"1\""])
        #expect(stale.status == 412)
        #expect(stale.headers["Content-Type"] == "application/problem+json")
        #expect(try json(stale)["detail"] == .string("If-Match '\"1\"' does not match group 'g': its entity tag is \"2\""))
        let weak = request(.GET, "/groups/g/versions/1", headers: ["If-Match": "W/\"1\""])
        #expect(try json(weak)["detail"] == .string("If-Match 'W/\"1\"' does not match version 1 of group 'g': its entity tag is \"1\" (weak tags never match)"))
        let bare = request(.GET, "/groups/g", headers: ["If-Match": "2"])
        #expect(bare.status == 400)
        #expect(try json(bare)["detail"] == .string("If-Match: '2' is not * or a list of entity tags: If-Match takes quoted entity tags, such as \"2\" (RFC 9110 §8.8.3)"))
        // If-Match is evaluated first: a failing If-Match is a 412 even when If-None-Match would be a 304.
        #expect(request(.GET, "/groups/g", headers: ["If-Match": "\"1\"", "If-None-Match": "\"2\""]).status == 412)
        #expect(request(.GET, "/groups/g", headers: ["If-Match": "\"2\"", "If-None-Match": "\"2\""]).status == 304)
        #expect(request(.GET, "/groups/g", headers: ["If-Match": "\"2\", *"]).status == 400)
        #expect(request(.GET, "/groups/none", headers: ["If-Match": "\"1\""]).status == 404)
    }

    /// A request that asks for `100 Continue` on a path no route matches, or with a method
    /// its route lacks, gets that 404 or 405 at once instead of the continue, so no body is
    /// sent for nothing; a routed request gets its continue (nil).
    @Test func unroutedRequestsAreAnsweredBeforeContinue() throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        let check = service.makeContinueCheck(router: service.makeRouter())
        let headers: HTTPFields = ["Host": "127.0.0.1", "Expect": "100-continue", "Content-Length": "10"]
        let missing = try #require(check(HTTPRequest(method: .POST, target: "/solv", headers: headers)))
        #expect(missing.status == 404)
        #expect(missing.headers["X-Request-Id"] != nil)
        #expect(try JSONParser().parse(missing.body)["detail"] == .string("No resource at '/solv'"))
        let wrongMethod = try #require(check(HTTPRequest(method: .PUT, target: "/solve", headers: headers)))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Allow"] == "OPTIONS, POST")
        #expect(check(HTTPRequest(method: .POST, target: "/solve", headers: headers)) == nil)
        #expect(check(HTTPRequest(method: .PUT, target: "/groups/row", headers: headers)) == nil)
        #expect(check(HTTPRequest(method: .OPTIONS, target: "/solve", headers: headers)) == nil)
    }

    /// An `If-Match` or `If-None-Match` that is neither `*` nor a list of entity tags
    /// (RFC 9110 §8.8.3: `3` is no tag, `"3"` is) is a 400 showing the quoted form, on every
    /// method that reads the fields, before either is evaluated; nothing is written.
    /// A PUT's malformed precondition field is refused before its body is read: a body
    /// that is not JSON, or not a font, gets the same 400 about the field.
    @Test func malformedEntityTagsAreRefusedBeforeTheBody() throws {
        for (target, body) in [("/groups/g", "not json"), ("/groups/g", #"{"constraintz":[]}"#), ("/fonts/Acme/400", "garbage")] {
            let refused = request(.PUT, target, body, headers: ["If-Match": "2"])
            #expect(refused.status == 400, "\(target) \(body)")
            #expect(try json(refused)["detail"] == .string("If-Match: '2' is not * or a list of entity tags: "
                + "If-Match takes quoted entity tags, such as \"2\" (RFC 9110 §8.8.3)"), "\(target) \(body)")
        }
    }

    @Test func malformedEntityTagsAreRefused() throws {
        #expect(request(.PUT, "/groups/g", #"{"constraints":[]}"#).status == 201)
        let body = #"{"constraints":["H:|[a]|"]}"#
        for (field, value, example) in [("If-None-Match", "3", "\"3\""), ("If-Match", "1", "\"1\""), ("If-Match", "\"1", "\"1\""),
                                         ("If-None-Match", "w/\"1\"", "W/\"1\""), ("If-Match", "\"1\" \"2\"", "\"1\""),
                                         ("If-Match", "\"1\", 2", "\"2\""), ("If-None-Match", "\"a b\"", "\"1\""),
                                         ("If-Match", "W/ \"2\"", "W/\"2\""), ("If-None-Match", "w/  \"2", "W/\"2\""),
                                         ("If-Match", "2", "\"2\""), ("If-Match", "W/", "\"1\"")] {
            for (method, target, text) in [(HTTPMethod.PUT, "/groups/g", body), (.DELETE, "/groups/g", ""), (.GET, "/groups/g", ""),
                                            (.HEAD, "/groups/g", ""), (.GET, "/groups/g/versions/1", "")] {
                let refused = request(method, target, text, headers: [field: value])
                #expect(refused.status == 400, "\(method) \(target) \(field): \(value)")
                #expect(refused.headers["Content-Type"] == "application/problem+json")
                guard method != .HEAD else { continue }
                let problem = try json(refused)
                #expect(problem["type"] == .string("urn:layoutd:problem:bad-request"))
                #expect(problem["detail"] == .string("\(field): '\(value)' is not * or a list of entity tags: "
                    + "\(field) takes quoted entity tags, such as \(example) (RFC 9110 §8.8.3)"), "\(method) \(field): \(value)")
                #expect(problem["diagnostics"] == .array([]))
            }
        }
        // A malformed If-None-Match is refused even when If-Match alone would be a 412.
        #expect(request(.GET, "/groups/g", headers: ["If-Match": "\"9\"", "If-None-Match": "1"]).status == 400)
        // Nothing was written or deleted.
        let current = request(.GET, "/groups/g")
        #expect(current.headers["ETag"] == "\"1\"")
        // Well-formed lists: empty elements and whitespace around commas are allowed (RFC 9110 §5.6.1).
        #expect(request(.GET, "/groups/g", headers: ["If-None-Match": " \"7\" ,, W/\"1\" "]).status == 304)
        #expect(request(.GET, "/groups/g", headers: ["If-Match": "\"a,b\", \"1\""]).status == 200)
        #expect(request(.PUT, "/groups/g", body, headers: ["If-None-Match": "\"1\""]).status == 412)
        #expect(request(.PUT, "/groups/g", body, headers: ["If-Match": "\"2\", \"1\""]).status == 200)
    }

    /// RFC 9110 §13.1.2: `If-None-Match: *` is false for a DELETE of a group that exists
    /// (412, nothing deleted) and true for one that does not (the usual 404).
    @Test func deleteWithIfNoneMatchAny() throws {
        #expect(request(.PUT, "/groups/g", #"{"constraints":[]}"#).status == 201)
        let refused = request(.DELETE, "/groups/g", headers: ["If-None-Match": "*"])
        #expect(refused.status == 412)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(try json(refused)["detail"] == .string("Precondition failed for group 'g': it exists and the current version is 1"))
        #expect(request(.GET, "/groups/g").status == 200)
        let absent = request(.DELETE, "/groups/none", headers: ["If-None-Match": "*"])
        #expect(absent.status == 404)
        #expect(try json(absent)["detail"] == .string("No group named 'none'"))
        #expect(request(.DELETE, "/groups/g").status == 204)
    }

    @Test func groupThatDoesNotParseIsNotStored() throws {
        let refused = request(.PUT, "/groups/bad", #"{"constraints":["H:|-[a", "a.widht == 1"]}"#)
        #expect(refused.status == 422)
        let diagnostics = try json(refused)["diagnostics"]?.arrayValue ?? []
        #expect(diagnostics.map { $0["constraint"] } == [.string("group:bad/0"), .string("group:bad/1")])
        #expect(request(.GET, "/groups/bad").status == 404)
    }

    /// A metric beyond ±10¹² points, which every scene including the group would refuse, is
    /// a 422 when the group is written; nothing is stored.
    @Test func aMetricBeyondTheMagnitudeLimitIsRefusedOnPut() throws {
        let refused = request(.PUT, "/groups/m", #"{"constraints":["a.width == x"],"metrics":{"x":1e300,"y":5}}"#)
        #expect(refused.status == 422)
        let diagnostics = try json(refused)["diagnostics"]?.arrayValue ?? []
        #expect(diagnostics.map { $0["code"] } == [.string("limit_exceeded")])
        #expect(diagnostics.first?["path"] == .string("$.metrics.x"))
        #expect(diagnostics.first?["message"] == .string("$.metrics.x is 1e+300; lengths are limited to ±1000000000000 points (limit maxMagnitude)"))
        #expect(request(.GET, "/groups/m").status == 404)
        #expect(request(.PUT, "/groups/m", #"{"constraints":["a.width == x"],"metrics":{"x":-1e12}}"#).status == 201)
    }

    /// `GET /openapi.yaml` serves the top-level `openapi.yaml`, byte for byte.
    @Test func servedOpenAPIDocumentIsTheFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
        let onDisk = try [UInt8](Data(contentsOf: file))
        let served = request(.GET, "/openapi.yaml")
        #expect(served.status == 200)
        #expect(served.headers["Content-Type"] == "application/yaml")
        #expect(served.body.count == onDisk.count)
        // The first differing byte, not two 80 KB arrays, when the embedded copy is stale.
        let firstDifference = zip(served.body, onDisk).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "the served document differs from the file at byte \(firstDifference ?? -1)")
    }

    @Test func routesAndMethods() {
        #expect(request(.GET, "/healthz").status == 200)
        #expect(request(.GET, "/readyz").status == 200)
        let notAllowed = request(.DELETE, "/solve")
        #expect(notAllowed.status == 405)
        #expect(notAllowed.headers["Allow"] == "OPTIONS, POST")
        #expect(request(.GET, "/nope").status == 404)
        #expect(request(.POST, "/solve?format=png", Self.scene).status == 400)
        #expect(request(.POST, "/solve?format=svg", Self.scene).headers["Content-Type"] == "image/svg+xml; charset=utf-8")
        // A bare `format` is the empty value (400, as `format=`); a repeated one is refused.
        #expect(request(.POST, "/solve?format", Self.scene).status == 400)
        #expect(request(.POST, "/solve?format=", Self.scene).status == 400)
        let repeated = request(.POST, "/solve?format=svg&format=json", Self.scene)
        #expect(repeated.status == 400)
        #expect(String(decoding: repeated.body, as: UTF8.self).contains("'format' is given 2 times: give it at most once"))
        #expect(request(.POST, "/solve?format=json&format=json", Self.scene).status == 400)
        #expect(request(.POST, "/solve?scale=2&format=svg", Self.scene).headers["Content-Type"] == "image/svg+xml; charset=utf-8")
    }

    /// A problem about the scene is the same whether JSON or SVG was asked for, its
    /// `Cache-Status` included: `fwd=miss`, or `fwd=request` under `Cache-Control`; the SVG
    /// picture itself, never cached, carries none.
    @Test func svgProblemsCarryCacheStatus() throws {
        let syntax = #"{"views":["red"],"constraints":["H:|-0-[red-0-|"]}"#
        let shape = #"{"views":["red"],"contraints":[]}"#
        let conflict = #"{"container":{"width":100,"height":100},"views":["a"],"constraints":["a.width == 10","a.width == 20","H:|[a]","V:|[a(10)]"],"options":{"conflicts":"error"}}"#
        for (scene, status) in [(syntax, 422), (shape, 400), (conflict, 422)] {
            for (headers, cacheStatus) in [([:], "layoutd; fwd=miss"), (["Cache-Control": "no-cache"], "layoutd; fwd=request")] as [(HTTPFields, String)] {
                let json = request(.POST, "/solve", scene, headers: headers)
                let svg = request(.POST, "/solve?format=svg", scene, headers: headers)
                #expect(json.status.code == status)
                #expect(svg.status.code == status)
                #expect(svg.body == json.body)
                #expect(json.headers["Cache-Status"] == cacheStatus)
                #expect(svg.headers["Cache-Status"] == cacheStatus, "\(scene) \(headers)")
                #expect(svg.headers.values("Vary") == ["Accept"])
                #expect(json.headers.values("Vary") == ["Accept"])
            }
        }
        let picture = request(.POST, "/solve?format=svg", Self.scene)
        #expect(picture.headers["Content-Type"] == "image/svg+xml; charset=utf-8")
        #expect(picture.headers["Cache-Status"] == nil)
        #expect(picture.headers.values("Vary") == ["Accept"])
        // Refused before the scene is read: no Cache-Status, as for JSON.
        #expect(request(.POST, "/solve?format=svg&scale=0", Self.scene).headers["Cache-Status"] == nil)
    }

    @Test func corsIsOffByDefaultAndAnswersPreflightWhenConfigured() throws {
        let plain = service.makeHandler(router: router)
        let preflight = HTTPRequest(method: .OPTIONS, target: "/solve",
                                    headers: ["Host": "t", "Origin": "https://app.example", "Access-Control-Request-Method": "POST"])
        // Without CORS an OPTIONS is an ordinary one (RFC 9110 §9.3.7): no CORS grant.
        #expect(plain(preflight).status == 204)
        #expect(plain(preflight).headers["Allow"] == "OPTIONS, POST")
        #expect(plain(preflight).headers["Access-Control-Allow-Origin"] == nil)

        var configuration = ServiceConfiguration()
        configuration.corsOrigins = ["https://app.example"]
        let cors = LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration)
        let handler = cors.makeHandler(router: cors.makeRouter())
        let answer = handler(preflight)
        #expect(answer.status == 204)
        #expect(answer.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(answer.headers["Access-Control-Allow-Methods"]?.contains("POST") == true)
        let solved = handler(HTTPRequest(method: .POST, target: "/solve",
                                         headers: ["Host": "t", "Origin": "https://app.example"], body: Array(Self.scene.utf8)))
        #expect(solved.status == 200)
        #expect(solved.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(solved.headers["Vary"]?.contains("Origin") == true)
        let stranger = handler(HTTPRequest(method: .POST, target: "/solve",
                                           headers: ["Host": "t", "Origin": "https://evil.example"], body: Array(Self.scene.utf8)))
        #expect(stranger.headers["Access-Control-Allow-Origin"] == nil)
    }

    @Test func metricsCountRequests() {
        let handler = service.makeHandler(router: router)
        _ = handler(HTTPRequest(method: .GET, target: "/healthz",
                                headers: ["Host": "t", "X-Request-Id": "abc-123"], body: []))
        let text = String(decoding: request(.GET, "/metrics").body, as: UTF8.self)
        #expect(text.contains(#"layoutd_requests_total{route="/healthz",status="200"} 1"#))
        let echoed = handler(HTTPRequest(method: .GET, target: "/healthz",
                                         headers: ["Host": "t", "X-Request-Id": "abc-123"], body: []))
        #expect(echoed.headers["X-Request-Id"] == "abc-123")
        // A path no route matches is counted under `other`, not under a pattern it resembles.
        #expect(handler(HTTPRequest(method: .GET, target: "/groups/", headers: ["Host": "t"], body: [])).status == 404)
        let after = String(decoding: request(.GET, "/metrics").body, as: UTF8.self)
        #expect(after.contains(#"layoutd_requests_total{route="other",status="404"} 1"#))
        #expect(!after.contains(#"route="/groups/{name}""#))
    }

    /// A request's duration runs from its head's arrival (`headReceivedAt`, set by the
    /// connection), not from when a worker took it: a request whose head came 3 s before
    /// it was handled (it waited behind other solves) is logged and counted at 3 s or more.
    @Test func durationCountsTheWaitForAWorker() throws {
        let lines = Mutex<[String]>([])
        let handler = service.makeHandler(router: router, log: { line in lines.withLock { $0.append(line) } })
        var waited = HTTPRequest(method: .GET, target: "/healthz", headers: ["Host": "t"], body: [])
        waited.headReceivedAt = monotonicSeconds() - 3
        #expect(handler(waited).status == 200)
        let line = try #require(lines.withLock { $0 }.first)
        let logged = try #require(try JSONParser().parse(Array(line.utf8))["durationMs"]?.numberValue)
        #expect(logged >= 3000 && logged < 60_000, "\(line)")
        let text = String(decoding: request(.GET, "/metrics").body, as: UTF8.self)
        #expect(text.contains(#"layoutd_request_duration_seconds_bucket{route="/healthz",le="2.5"} 0"#))
        #expect(text.contains(#"layoutd_request_duration_seconds_bucket{route="/healthz",le="5.0"} 1"#))
        // Without a time of arrival (a request not read from a connection), from the handler's start.
        lines.withLock { $0.removeAll() }
        #expect(handler(HTTPRequest(method: .GET, target: "/healthz", headers: ["Host": "t"], body: [])).status == 200)
        let quickLine = try #require(lines.withLock { $0 }.first)
        let quick = try #require(try JSONParser().parse(Array(quickLine.utf8))["durationMs"]?.numberValue)
        #expect(quick < 1000)
    }

    /// The access log keeps the query, which chooses the answer's form: `?format=svg` and a
    /// JSON request to the same path are told apart; without a query there is no member.
    @Test func theAccessLogKeepsTheQuery() throws {
        let lines = Mutex<[String]>([])
        let handler = service.makeHandler(router: router, log: { line in lines.withLock { $0.append(line) } })
        _ = handler(HTTPRequest(method: .POST, target: "/solve?format=svg&scale=2", headers: ["Host": "t"], body: Array(Self.scene.utf8)))
        _ = handler(HTTPRequest(method: .GET, target: "/healthz", headers: ["Host": "t"], body: []))
        let logged = try lines.withLock { $0 }.map { try JSONParser().parse(Array($0.utf8)) }
        #expect(logged.map { $0["path"] } == [.string("/solve"), .string("/healthz")])
        #expect(logged.map { $0["query"] } == [.string("format=svg&scale=2"), nil])
    }

    /// A solve refused while clients leave too many answers unread is answered like any
    /// other request: request id, problem type, diagnostics list, a log line, a count.
    @Test func overCommittedRefusalsAreAnsweredLoggedAndCounted() throws {
        let lines = Mutex<[String]>([])
        let handler = service.makeOverCommittedHandler(router: router, log: { line in lines.withLock { $0.append(line) } })
        let response = handler(HTTPRequest(method: .POST, target: "/solve",
                                           headers: ["Host": "t", "X-Request-Id": "hoarded-1"], body: Array(Self.scene.utf8)))
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "1")
        #expect(response.headers["X-Request-Id"] == "hoarded-1")
        let body = try json(response)
        #expect(body["type"]?.stringValue == "urn:layoutd:problem:service-unavailable")
        #expect(body["diagnostics"]?.arrayValue?.isEmpty == true)
        #expect(body["detail"]?.stringValue?.contains("not read yet") == true)
        #expect(lines.withLock { $0 }.count == 1)
        #expect(lines.withLock { $0 }.first?.contains(#""status":503"#) == true)
        let text = String(decoding: request(.GET, "/metrics").body, as: UTF8.self)
        #expect(text.contains(#"layoutd_requests_total{route="/solve",status="503"} 1"#))
    }

    /// A request whose client closed its connection before a worker took it is not
    /// solved, but logged (status 499, nginx's "client closed request", 0 bytes, its
    /// request id and path) and counted in `layoutd_requests_total` and
    /// `layoutd_http_requests_abandoned_total`.
    @Test func anAbandonedRequestIsCountedAndLogged() throws {
        let lines = Mutex<[String]>([])
        let abandoned = service.makeAbandonedHandler(router: router, log: { line in lines.withLock { $0.append(line) } })
        #expect(String(decoding: request(.GET, "/metrics").body, as: UTF8.self).contains("\nlayoutd_http_requests_abandoned_total 0\n"))
        abandoned(HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "t", "X-Request-Id": "gone-1"], body: Array(Self.scene.utf8)))
        let logged = try lines.withLock { $0 }.map { try JSONParser().parse(Array($0.utf8)) }
        #expect(logged.count == 1)
        #expect(logged.first?["status"] == .number(499))
        #expect(logged.first?["requestId"] == .string("gone-1"))
        #expect(logged.first?["path"] == .string("/solve"))
        #expect(logged.first?["bytes"] == .number(0))
        #expect(logged.first?["cache"] == nil)
        let text = String(decoding: request(.GET, "/metrics").body, as: UTF8.self)
        #expect(text.contains(#"layoutd_requests_total{route="/solve",status="499"} 1"#))
        #expect(text.contains("\nlayoutd_http_requests_abandoned_total 1\n"))
        #expect(!text.contains("layoutd_cache_misses_total 1"))
    }

    /// Below `--log-level info` (`warn`, `error`, `--quiet`), the answers of status 500 and
    /// above still get their access-log lines; others get none. A fresh user's `--quiet`
    /// server once logged nothing when it answered 500.
    @Test func belowInfoOnlyServerFailuresAreLogged() throws {
        var configuration = ServiceConfiguration()
        configuration.accessLogMinimumStatus = 500
        let quiet = LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration)
        let quietRouter = quiet.makeRouter()
        let lines = Mutex<[String]>([])
        let log: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
        let handler = quiet.makeHandler(router: quietRouter, log: log)
        let ok = handler(HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "t"], body: Array(Self.scene.utf8)))
        #expect(ok.status == .ok)
        let refused = handler(HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "t"], body: Array("{".utf8)))
        #expect(refused.status == .badRequest)
        #expect(lines.withLock { $0 }.isEmpty)
        let busy = quiet.makeOverCommittedHandler(router: quietRouter, log: log)(
            HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "t", "X-Request-Id": "busy-1"], body: []))
        #expect(busy.status == .serviceUnavailable)
        let logged = try lines.withLock { $0 }.map { try JSONParser().parse(Array($0.utf8)) }
        #expect(logged.count == 1)
        #expect(logged.first?["status"] == .number(503))
        #expect(logged.first?["requestId"] == .string("busy-1"))
        // The server's own answers: a 408 is not logged, a 503 is.
        let serverLines = Mutex<[String]>([])
        let serverLog = LayoutdCommand.serverAccessLog(metrics: quiet.metrics, log: { line in serverLines.withLock { $0.append(line) } },
                                                       minimumStatus: 500)
        serverLog(AccessLogRecord(method: nil, target: nil, status: .requestTimeout, bodyBytes: 0, duration: 1, remoteAddress: "127.0.0.1"))
        serverLog(AccessLogRecord(method: nil, target: nil, status: .serviceUnavailable, bodyBytes: 0, duration: 0, remoteAddress: "127.0.0.1"))
        #expect(serverLines.withLock { $0 }.count == 1)
        #expect(serverLines.withLock { $0 }.first?.contains(#""status":503"#) == true)
    }
}

/// Faults that a new user met, through the handlers: status, code and column.
extension HandlerTests {
    func post(_ target: String, _ body: String, headers: HTTPFields = [:]) -> HTTPResponse {
        var fields = headers
        fields.append("Host", "test")
        return router.respond(to: HTTPRequest(method: .POST, target: target, headers: fields, body: Array(body.utf8)))
    }

    func diagnostics(_ response: HTTPResponse) throws -> [JSONValue] {
        try JSONParser().parse(response.body)["diagnostics"]?.arrayValue ?? []
    }

    @Test("an unknown view alone in VFL", arguments: ["H:[b]", "V:[b]", "[b]"])
    func unknownLoneView(_ source: String) throws {
        let body = #"{"views":["a"],"constraints":[""# + source + #""]}"#
        let validated = post("/validate", body)
        #expect(validated.status == 200)
        let verdict = try JSONParser().parse(validated.body)
        #expect(verdict["valid"] == .bool(false))
        let solved = post("/solve", body)
        #expect(solved.status == 422)
        for response in [validated, solved] {
            let found = try diagnostics(response)
            #expect(found.count == 1)
            #expect(found.first?["code"] == .string("unknown_view"))
            #expect(found.first?["severity"] == .string("error"))
            #expect(found.first?["column"] == .number(Double(source.firstIndex(of: "b")!.utf16Offset(in: source))))
        }
    }

    @Test("limit_exceeded at the metric or literal", arguments: [
        ("a.width == a.height + big", 22), ("H:|-big-[a]", 4), ("H:|-(==big)-[a]", 7), ("a.width == 1e13 - 1e13 + 5", 11),
    ])
    func limitColumn(_ source: String, _ column: Int) throws {
        let body = #"{"views":["a"],"metrics":{"big":1e13},"constraints":[""# + source + #""]}"#
        let solved = post("/solve", body)
        #expect(solved.status == 422)
        let found = try diagnostics(solved)
        #expect(found.count == 1)
        #expect(found.first?["code"] == .string("limit_exceeded"))
        #expect(found.first?["constraint"] == .number(0))
        #expect(found.first?["column"] == .number(Double(column)))
    }

    @Test func doublePriorityPointsAtTheAt() throws {
        let solved = post("/solve", #"{"views":["a"],"constraints":[{"equation":"a.width == 5 @500","priority":500}]}"#)
        #expect(solved.status == 422)
        let found = try diagnostics(solved)
        #expect(found.count == 1)
        #expect(found.first?["code"] == .string("invalid_scene"))
        #expect(found.first?["column"] == .number(13))
    }

    /// The access log's time, written digit by digit (zero-padded, RFC 3339 UTC).
    @Test func accessLogTimestamp() {
        #expect(LayoutService.timestamp(year: 2026, month: 11, day: 30, hour: 23, minute: 5, second: 9) == "2026-11-30T23:05:09Z")
        #expect(LayoutService.timestamp(year: 987, month: 1, day: 2, hour: 0, minute: 0, second: 59) == "0987-01-02T00:00:59Z")
        #expect(LayoutService.timestamp().count == 20)
    }
}
