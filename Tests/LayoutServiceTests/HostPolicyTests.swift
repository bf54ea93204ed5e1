import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// ``HostPolicy`` (DNS rebinding), the bind-address classification behind anonymous
/// writes, and how the handler answers both (421, 403), with the security fields.
struct HostPolicyTests {
    /// The bind is classified by the address `getaddrinfo` resolves, so every spelling of
    /// a loopback address turns the Host check on, and `0.0.0.0`, `::` do not.
    @Test func everyLoopbackSpellingEnforcesTheHostCheck() throws {
        for text in ["127.0.0.1", "127.1", "2130706433", "0x7f.1", "017700000001", "127.8.9.10", "localhost", "LOCALHOST",
                     "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"] {
            let policy = HostPolicy.forBind(try BindAddress.resolve(text, port: 0), allowedHosts: [])
            #expect(policy.isEnforced, "\(text)")
            #expect(!policy.allows(host: "evil.example"), "\(text)")
            #expect(policy.allows(host: "localhost:8080"), "\(text)")
        }
        for text in ["0.0.0.0", "0", "::", "[::]", "10.0.0.1", "128.0.0.1", "0x80.1", "192.168.1.2"] {
            #expect(!HostPolicy.forBind(try BindAddress.resolve(text, port: 0), allowedHosts: []).isEnforced, "\(text)")
        }
    }

    @Test func splitsHostValues() {
        #expect(HostPolicy.splitAuthority("Example.COM:8080")! == ("example.com", "8080"))
        #expect(HostPolicy.splitAuthority("localhost")! == ("localhost", nil))
        #expect(HostPolicy.splitAuthority("localhost.:80")! == ("localhost", "80"))
        #expect(HostPolicy.splitAuthority("localhost:")! == ("localhost", nil))
        #expect(HostPolicy.splitAuthority("[::1]:9")! == ("::1", "9"))
        #expect(HostPolicy.splitAuthority("[::1]")! == ("::1", nil))
        for bad in ["", ":80", "[::1", "[::1]x", "a:b", "user@localhost", "localhost/x", "[127.0.0.1]"] {
            #expect(HostPolicy.splitAuthority(bad) == nil, "\(bad)")
        }
    }

    @Test func enforcedPolicyAllowsLoopbackNamesOnAnyPortOnly() {
        let policy = HostPolicy(isEnforced: true)
        for host in ["localhost", "localhost:8080", "LocalHost:1", "app.localhost:3000", "127.0.0.1", "127.0.0.1:65535",
                     "127.255.0.9:80", "[::1]", "[::1]:8080", "[::ffff:127.0.0.1]:8080"] {
            #expect(policy.allows(host: host), "\(host)")
        }
        for host in ["evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.evil.example", "128.0.0.1",
                     "0.0.0.0:8080", "[::2]", "[::]:80", "", "127.0.0.1:80x", "localhost:http", "2130706433", "127.1"] {
            #expect(!policy.allows(host: host), "\(host)")
        }
        #expect(policy.allows(host: nil))   // HTTP/1.0 without Host: browsers always send one
    }

    @Test func allowedHostsWidenThePolicy() {
        let policy = HostPolicy(isEnforced: true, allowedHosts: [" Layout.Example ", "api.example:8443", "[2001:db8::1]:80", ""])
        #expect(policy.allowedHosts == ["layout.example", "api.example:8443", "[2001:db8::1]:80"])
        #expect(policy.allows(host: "layout.example"))
        #expect(policy.allows(host: "LAYOUT.example:9000"))
        #expect(policy.allows(host: "api.example:8443"))
        #expect(!policy.allows(host: "api.example:8444"))
        #expect(!policy.allows(host: "api.example"))
        #expect(policy.allows(host: "[2001:db8::1]:80"))
        #expect(!policy.allows(host: "[2001:db8::1]:81"))
        #expect(!policy.allows(host: "evil.example"))
        #expect(policy.allows(host: "localhost:1"))
        #expect(HostPolicy(isEnforced: true, allowedHosts: ["*"]).allows(host: "evil.example"))
        #expect(HostPolicy(isEnforced: false).allows(host: "evil.example"))
    }

    @Test func forBindEnforcesOnLoopbackOrWhenHostsAreGiven() throws {
        #expect(HostPolicy.forBind(try BindAddress.resolve("127.0.0.1", port: 0), allowedHosts: []).isEnforced)
        #expect(!HostPolicy.forBind(try BindAddress.resolve("0.0.0.0", port: 0), allowedHosts: []).isEnforced)
        #expect(HostPolicy.forBind(try BindAddress.resolve("0.0.0.0", port: 0), allowedHosts: ["a.example"]).isEnforced)
    }

    /// The start-up line names every loopback host the policy answers.
    @Test func theStartUpLineNamesWhatIsAnswered() throws {
        let policy = HostPolicy(isEnforced: true, allowedHosts: ["a.example"])
        #expect(LayoutdCommand.hostCheckLine(policy)
            == "only Host localhost, *.localhost, 127.x.y.z (127.0.0.0/8 in dotted-decimal form), [::1], [::ffff:127.x.y.z], any port and a.example is answered, "
            + "others get 421 (against DNS rebinding; --allowed-hosts widens it)")
        for host in ["localhost", "app.localhost", "127.0.0.1", "127.200.3.4:9", "[::1]:80", "[::ffff:127.9.0.1]:80", "a.example"] {
            #expect(policy.allows(host: host), "\(host)")
        }
        #expect(LayoutdCommand.listeningHost(try BindAddress.resolve("127.1", port: 0)) == "127.1 = 127.0.0.1")
        #expect(LayoutdCommand.listeningHost(try BindAddress.resolve("::1", port: 0)) == "[::1]")
        #expect(LayoutdCommand.listeningHost(try BindAddress.resolve("[::1]", port: 0)) == "[::1]")
        #expect(LayoutdCommand.listeningHost(try BindAddress.resolve("127.0.0.1", port: 0)) == "127.0.0.1")
    }

    /// A request that asks for `100 Continue` with a foreign Host gets its 421 from the
    /// continue check (with the service's fields), a loopback one gets nil (continue).
    @Test func theContinueCheckRefusesAForeignHost() throws {
        var configuration = ServiceConfiguration()
        configuration.hostPolicy = HostPolicy(isEnforced: true)
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration)
        let check = service.makeContinueCheck(router: service.makeRouter())
        let refused = try #require(check(HTTPRequest(method: .PUT, target: "/groups/g", headers: ["Host": "evil.example", "Expect": "100-continue"])))
        #expect(refused.status == 421)
        #expect(refused.headers["X-Request-Id"] != nil)
        let problem = try JSONParser().parse(refused.body)
        #expect(problem["type"] == .string("urn:layoutd:problem:misdirected-request"))
        #expect(check(HTTPRequest(method: .PUT, target: "/groups/g", headers: ["Host": "127.0.0.1:8080", "Expect": "100-continue"])) == nil)
        #expect(check(HTTPRequest(method: .PUT, target: "/groups/g", headers: ["Host": "app.localhost"])) == nil)
    }

    func service(_ change: (inout ServiceConfiguration) -> Void) throws -> @Sendable (HTTPRequest) -> HTTPResponse {
        var configuration = ServiceConfiguration()
        change(&configuration)
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration)
        return service.makeHandler(router: service.makeRouter())
    }

    @Test func aForeignHostGets421WithAProblem() throws {
        let handler = try service { $0.hostPolicy = HostPolicy(isEnforced: true) }
        let refused = handler(HTTPRequest(method: .GET, target: "/healthz", headers: ["Host": "evil.example:8080"]))
        #expect(refused.status == 421)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        let problem = try JSONParser().parse(refused.body)
        #expect(problem["type"] == .string("urn:layoutd:problem:misdirected-request"))
        #expect(problem["title"] == .string("Misdirected Request"))
        guard case .string(let detail)? = problem["detail"] else { Issue.record("no detail"); return }
        #expect(detail.contains("'evil.example:8080'"))
        #expect(detail.contains("--allowed-hosts"))
        #expect(handler(HTTPRequest(method: .GET, target: "/healthz", headers: ["Host": "localhost:8080"])).status == 200)
        // An absolute-form target's authority counts, not Host (RFC 9112 §3.2.2).
        #expect(handler(HTTPRequest(method: .GET, target: "http://evil.example/healthz", headers: ["Host": "localhost"])).status == 421)
        #expect(handler(HTTPRequest(method: .GET, target: "http://127.0.0.1:9/healthz", headers: ["Host": "evil.example"])).status == 200)
    }

    @Test func anonymousWritesOffAnswer403SayingHowToSetAToken() throws {
        let handler = try service { $0.allowsAnonymousWrites = false }
        let body = Array(#"{"constraints":["H:|[a]|"]}"#.utf8)
        let put = handler(HTTPRequest(method: .PUT, target: "/groups/g", headers: ["Host": "h"], body: body))
        #expect(put.status == 403)
        let problem = try JSONParser().parse(put.body)
        guard case .string(let detail)? = problem["detail"] else { Issue.record("no detail"); return }
        #expect(detail.contains("--api-token"))
        #expect(detail.contains("LAYOUTD_API_TOKEN"))
        #expect(detail.contains("--allow-anonymous-writes"))
        #expect(handler(HTTPRequest(method: .DELETE, target: "/groups/g", headers: ["Host": "h"])).status == 403)
        #expect(handler(HTTPRequest(method: .GET, target: "/groups", headers: ["Host": "h"])).status == 200)

        let open = try service { $0.allowsAnonymousWrites = true }
        #expect(open(HTTPRequest(method: .PUT, target: "/groups/g", headers: ["Host": "h"], body: body)).status == 201)
        let token = try service { $0.allowsAnonymousWrites = false; $0.apiToken = "s3cret" }
        #expect(token(HTTPRequest(method: .PUT, target: "/groups/g", headers: ["Host": "h"], body: body)).status == 401)
        #expect(token(HTTPRequest(method: .PUT, target: "/groups/g", headers: ["Host": "h", "Authorization": "Bearer s3cret"], body: body)).status == 201)
    }

    @Test func varyOriginOnEveryAnswerWhenCORSIsOn() throws {
        let handler = try service { $0.corsOrigins = ["*"] }
        let noOrigin = handler(HTTPRequest(method: .GET, target: "/healthz", headers: ["Host": "h"]))
        #expect(noOrigin.headers.values("Vary") == ["Origin"])
        let solve = handler(HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "h", "Origin": "https://a.example"],
                                        body: Array(#"{"views":["a"],"constraints":["H:|[a]|","V:|[a]|"],"container":{"width":10,"height":10}}"#.utf8)))
        #expect(solve.headers.values("Vary") == ["Accept, Origin"])
        #expect(solve.headers["Access-Control-Allow-Origin"] == "*")
        let off = try service { _ in }
        #expect(off(HTTPRequest(method: .GET, target: "/healthz", headers: ["Host": "h", "Origin": "https://a.example"])).headers["Vary"] == nil)
    }

    @Test func playgroundAndWireframePoliciesHashTheirInlineContent() throws {
        let handler = try service { _ in }
        let page = handler(HTTPRequest(method: .GET, target: "/", headers: ["Host": "h"]))
        let policy = try #require(page.headers["Content-Security-Policy"])
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(policy.hasPrefix("default-src 'none'; script-src 'sha256-"))
        #expect(!policy.contains("unsafe-inline"))
        // The hashes are those of the page's own script and style (CSP Level 3 §8.3).
        let html = String(decoding: page.body, as: UTF8.self)
        func inner(_ open: String, _ close: String) throws -> String {
            let start = try #require(html.range(of: open))
            let end = try #require(html.range(of: close, range: start.upperBound..<html.endIndex))
            return String(html[start.upperBound..<end.lowerBound])
        }
        let scriptHash = "'sha256-" + base64(SHA256.hash(Array(try inner("<script>", "</script>").utf8))) + "'"
        let styleHash = "'sha256-" + base64(SHA256.hash(Array(try inner("<style>", "</style>").utf8))) + "'"
        #expect(policy.contains("script-src \(scriptHash);"))
        #expect(policy.contains("style-src \(styleHash) "))

        let svg = handler(HTTPRequest(method: .POST, target: "/solve?format=svg", headers: ["Host": "h"],
                                      body: Array(#"{"views":["a"],"constraints":["H:|[a]|","V:|[a]|"],"container":{"width":10,"height":10}}"#.utf8)))
        #expect(svg.status == 200)
        let svgPolicy = try #require(svg.headers["Content-Security-Policy"])
        let svgText = String(decoding: svg.body, as: UTF8.self)
        let svgStart = try #require(svgText.range(of: "<style>"))
        let svgEnd = try #require(svgText.range(of: "</style>"))
        let svgStyleHash = "'sha256-" + base64(SHA256.hash(Array(svgText[svgStart.upperBound..<svgEnd.lowerBound].utf8))) + "'"
        #expect(svgPolicy == "default-src 'none'; style-src \(svgStyleHash); frame-ancestors 'none'")
        #expect(policy.contains(svgStyleHash))   // the page inserts the SVG with its style
    }

    /// Standard base64 (RFC 4648 §4), written out so the test does not reuse the code it checks.
    func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : "=")
            }
            index += 3
        }
        return out
    }
}

/// What `serve` prints when it cannot listen: the address as a URI authority, the socket
/// error in words.
struct ListenFailureTests {
    @Test func theAddressIsAnAuthorityAndTheErrorOneLine() {
        #expect(LayoutdCommand.authority("::1", 8080) == "[::1]:8080")
        #expect(LayoutdCommand.authority("[::1]", 8080) == "[::1]:8080")
        #expect(LayoutdCommand.authority("127.0.0.1", 80) == "127.0.0.1:80")
        #expect(LayoutdCommand.authority("localhost", 80) == "localhost:80")
        #expect(String(describing: HTTPServerError.socket(operation: "bind", errno: 98, message: "Address already in use"))
            == "Address already in use (bind, errno 98)")
        #expect(String(describing: HTTPServerError.addressResolution(host: "nohost", message: "Name or service not known"))
            == "cannot resolve 'nohost': Name or service not known")
    }
}
