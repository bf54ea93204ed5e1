import Testing
@testable import HTTP1

struct RequestParserTests {
    // MARK: - Well-formed requests

    @Test func simpleGet() throws {
        let (outcomes, invariant) = parseEveryWay(crlf("GET /solve?x=1&y=2 HTTP/1.1\nHost: example.com\nAccept:  text/plain \n\n"))
        #expect(invariant)
        var expected = HTTPRequest(method: .GET, target: "/solve?x=1&y=2", headers: ["Host": "example.com", "Accept": "text/plain"])
        expected.version = .http1_1
        #expect(outcomes == [.request(expected)])
        let request = try #require(outcomes.first?.request)
        #expect(request.path == "/solve")
        #expect(request.query == "x=1&y=2")
        #expect(request.headers["accept"] == "text/plain")
    }

    @Test func contentLengthBody() {
        let (outcomes, invariant) = parseEveryWay(crlf("POST /echo HTTP/1.1\nHost: a\nContent-Length: 11\n\n") + Array("hello world".utf8))
        #expect(invariant)
        #expect(outcomes == [.request(HTTPRequest(method: .POST, target: "/echo",
                                                  headers: ["Host": "a", "Content-Length": "11"],
                                                  body: Array("hello world".utf8)))])
    }

    @Test func identicalDuplicateContentLengthIsOneLength() throws {
        let (outcomes, invariant) = parseEveryWay(crlf("POST / HTTP/1.1\nHost: a\nContent-Length: 3, 3\nContent-Length: 3\n\nabc"))
        #expect(invariant)
        let request = try #require(outcomes.first?.request, "expected a request, got \(outcomes)")
        #expect(request.body == Array("abc".utf8))
    }

    @Test func chunkedWithExtensionsAndTrailers() {
        let raw = crlf("POST /echo HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n5;name=value;flag\nhello\n6 ; x=\"q;uoted\"\n world\n0;last\nExpires: never\nX-Sum: 42\n\n")
        let (outcomes, invariant) = parseEveryWay(raw)
        #expect(invariant)
        #expect(outcomes == [.request(HTTPRequest(method: .POST, target: "/echo",
                                                  headers: ["Host": "a", "Transfer-Encoding": "chunked"],
                                                  body: Array("hello world".utf8),
                                                  trailers: ["Expires": "never", "X-Sum": "42"]))])
    }

    @Test func chunkedUppercaseHexAndCaseInsensitiveCoding() {
        let raw = crlf("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: Chunked\n\n") + crlf("A\n") + Array("0123456789".utf8) + crlf("\n0\n\n")
        let (outcomes, invariant) = parseEveryWay(raw)
        #expect(invariant)
        guard case .request(let request) = outcomes.first else {
            Issue.record("expected a request, got \(outcomes)")
            return
        }
        #expect(request.body == Array("0123456789".utf8))
    }

    @Test func pipelinedRequestsComeOutInOrder() {
        let raw = crlf("GET /a HTTP/1.1\nHost: h\n\nPOST /b HTTP/1.1\nHost: h\nContent-Length: 2\n\nhiGET /c HTTP/1.1\nHost: h\n\n")
        let (outcomes, invariant) = parseEveryWay(raw)
        #expect(invariant)
        let targets = outcomes.compactMap { outcome -> String? in
            if case .request(let request) = outcome { return request.target }
            return nil
        }
        #expect(targets == ["/a", "/b", "/c"])
    }

    @Test func postWithoutLengthHasEmptyBody() {
        var parser = RequestParser()
        parser.append(crlf("POST /solve HTTP/1.1\nHost: a\n\n"))
        #expect(parser.next() == .request(HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "a"])))
        #expect(parser.next() == .needMoreBytes)
        #expect(!parser.hasPartialRequest)
    }

    @Test func absoluteFormIsReducedToItsPath() throws {
        let (outcomes, invariant) = parseEveryWay(crlf("GET http://example.com:8080/groups/a?v=2 HTTP/1.1\nHost: example.com:8080\n\n"))
        #expect(invariant)
        let request = try #require(outcomes.first?.request, "expected a request, got \(outcomes)")
        #expect(request.target == "http://example.com:8080/groups/a?v=2")
        #expect(request.path == "/groups/a")
        #expect(request.query == "v=2")
    }

    @Test("target forms", arguments: [
        ("http://h", "/", nil), ("HTTPS://h?q", "/", "q"), ("/a/b?", "/a/b", ""), ("/", "/", nil),
    ] as [(String, String, String?)])
    func targetSplitting(_ target: String, _ path: String, _ query: String?) {
        let request = HTTPRequest(method: .GET, target: target)
        #expect(request.path == path)
        #expect(request.query == query)
    }

    @Test func asteriskFormWithOptions() throws {
        let (outcomes, invariant) = parseEveryWay(crlf("OPTIONS * HTTP/1.1\nHost: a\n\n"))
        #expect(invariant)
        let request = try #require(outcomes.first?.request, "expected a request, got \(outcomes)")
        #expect(request.path == "*")
    }

    @Test func http10WithoutHostAndKeepAliveRules() {
        let (outcomes, invariant) = parseEveryWay(crlf("GET / HTTP/1.0\n\nGET / HTTP/1.0\nConnection: keep-alive\n\n"))
        #expect(invariant)
        let requests = outcomes.compactMap { outcome -> HTTPRequest? in
            if case .request(let request) = outcome { return request }
            return nil
        }
        #expect(requests.map(\.version) == [.http1_0, .http1_0])
        #expect(requests.map(\.isKeepAlive) == [false, true])
        #expect(HTTPRequest(method: .GET, target: "/", headers: ["Connection": "Keep-Alive, close"]).isKeepAlive == false)
    }

    @Test func leadingEmptyLinesAndBareLFAreAccepted() {
        let (outcomes, invariant) = parseEveryWay(Array("\r\n\nGET /x HTTP/1.1\nHost: a\n\n".utf8))
        #expect(invariant)
        #expect(outcomes == [.request(HTTPRequest(method: .GET, target: "/x", headers: ["Host": "a"]))])
    }

    @Test func minorVersionAboveOneIsServedAsHTTP11() throws {
        let (outcomes, invariant) = parseEveryWay(crlf("GET / HTTP/1.7\nHost: a\n\n"))
        #expect(invariant)
        let request = try #require(outcomes.first?.request, "expected a request, got \(outcomes)")
        #expect(request.version == HTTPVersion(major: 1, minor: 7))
    }

    @Test func expectContinueIsAnnouncedOnceBeforeTheBody() {
        var parser = RequestParser()
        parser.append(crlf("PUT /groups/a HTTP/1.1\nHost: a\nExpect: 100-Continue\nContent-Length: 2\n\n"))
        #expect(parser.next() == .expectContinue)
        #expect(parser.next() == .needMoreBytes)
        #expect(parser.isReadingBody)
        parser.append(Array("{}".utf8))
        guard case .request(let request) = parser.next() else {
            Issue.record("expected a request")
            return
        }
        #expect(request.body == Array("{}".utf8))
    }

    @Test func expectContinueWithTooLargeBodyFailsAtOnce() {
        var parser = RequestParser(limits: ServerLimits(maxBodyBytes: 10))
        parser.append(crlf("PUT / HTTP/1.1\nHost: a\nExpect: 100-continue\nContent-Length: 11\n\n"))
        #expect(parser.next() == .failure(.contentTooLarge))
    }

    /// RFC 9112 §3.2: a Host field with an invalid value is a 400; RFC 9110 §7.2's
    /// `uri-host [ ":" port ]` and the empty value (a target without authority) are not.
    @Test func hostValuesAreChecked() {
        let valid = ["", "localhost", "localhost:8080", "127.0.0.1:99999", "a.localhost.", "[::1]", "[::1]:80",
                     "[v7.fe80::1]", "xn--bcher-kva.example", "caf%C3%A9.example", "a_b~c!$&'()*+,;=d", "h:"]
        for host in valid {
            #expect(RequestParser.isValidHost(host.utf8), "\(host)")
        }
        let invalid = ["evil.com#.localhost", "a b", "a/b", "a@b", "[::1", "[]", "[::1]x", "[::1]:8o", "a:b:c",
                       "a%2", "a%zz", "a:80a", "caf\u{E9}.example", "a\"b", "<a>"]
        for host in invalid {
            #expect(!RequestParser.isValidHost(host.utf8), "\(host)")
        }
        var parser = RequestParser()
        parser.append(crlf("GET / HTTP/1.1\nHost: a/b\n\n"))
        #expect(parser.next() == .failure(.invalidHost))
        #expect(HTTPParseError.invalidHost.status == .badRequest)
    }

    @Test func failureIsSticky() {
        var parser = RequestParser()
        parser.append(crlf("GET / HTTP/1.1\nHost: a\nHost: b\n\n"))
        #expect(parser.next() == .failure(.duplicateHost))
        parser.append(crlf("GET / HTTP/1.1\nHost: a\n\n"))
        #expect(parser.next() == .failure(.duplicateHost))
    }

    // MARK: - Malformed and smuggling attempts

    @Test("malformed requests get the exact error", arguments: [
        // Request smuggling (RFC 9112 §6.3).
        ("POST / HTTP/1.1\nHost: a\nContent-Length: 3\nTransfer-Encoding: chunked\n\n", HTTPParseError.contentLengthWithTransferEncoding),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\nContent-Length: 3\n\n", .contentLengthWithTransferEncoding),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: 3\nContent-Length: 4\n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: 3, 4\n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: -1\n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: +1\n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: 1a\n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: 0x10\n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: \n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: 3,\n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: 1 2\n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nContent-Length: 99999999999999999999999\n\n", .invalidContentLength),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: gzip\n\n", .invalidTransferEncoding),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked, gzip\n\n", .invalidTransferEncoding),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\nTransfer-Encoding: chunked\n\n", .invalidTransferEncoding),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: \n\n", .invalidTransferEncoding),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: gzip, chunked\n\n", .unsupportedTransferCoding("gzip")),
        ("POST / HTTP/1.0\nTransfer-Encoding: chunked\n\n", .invalidTransferEncoding),
        // Bad chunk framing (RFC 9112 §7.1).
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\nzz\n", .invalidChunkSize),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n-1\n", .invalidChunkSize),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n;ext\n", .invalidChunkSize),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n0x5\n", .invalidChunkSize),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n1000000000000000\n", .invalidChunkSize),
        ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n3\nabcX", .invalidChunkFraming),
        // Host (RFC 9112 §3.2).
        ("GET / HTTP/1.1\nAccept: */*\n\n", .missingHost),
        ("GET / HTTP/1.1\nHost: a\nhost: a\n\n", .duplicateHost),
        ("GET / HTTP/1.1\nHost: evil.example#.localhost\n\n", .invalidHost),
        // Field syntax (RFC 9112 §5).
        ("GET / HTTP/1.1\nHost : a\n\n", .whitespaceBeforeColon),
        ("GET / HTTP/1.1\nHost: a\nX-A: b\n  folded\n\n", .obsoleteLineFolding),
        ("GET / HTTP/1.1\n Host: a\n\n", .obsoleteLineFolding),
        ("GET / HTTP/1.1\nHost: a\nX-A: b\rc\n\n", .bareCarriageReturn),
        ("GET / HTTP/1.1\rHost: a\n\n", .bareCarriageReturn),
        ("GET / HTTP/1.1\nHost: a\n: empty\n\n", .invalidFieldName),
        ("GET / HTTP/1.1\nHost: a\nNo colon here\n\n", .whitespaceBeforeColon),
        ("GET / HTTP/1.1\nHost: a\nNoColon\n\n", .invalidFieldName),
        ("GET / HTTP/1.1\nHost: a\nX(y): b\n\n", .invalidFieldName),
        ("GET / HTTP/1.1\nHost: a\nX: a\u{7F}b\n\n", .invalidFieldValue),
        // Request line (RFC 9112 §3).
        ("BREW /pot HTTP/1.1\nHost: a\n\n", .unknownMethod("BREW")),
        ("get / HTTP/1.1\nHost: a\n\n", .unknownMethod("get")),
        ("CONNECT a:443 HTTP/1.1\nHost: a\n\n", .unknownMethod("CONNECT")),
        ("GET / HTTP/2.0\nHost: a\n\n", .unsupportedVersion("HTTP/2.0")),
        ("GET / HTTP/0.9\n\n", .unsupportedVersion("HTTP/0.9")),
        ("GET / HTTP/1.1x\nHost: a\n\n", .invalidRequestLine),
        ("GET / http/1.1\nHost: a\n\n", .invalidRequestLine),
        ("GET /\n\n", .invalidRequestLine),
        ("GET  / HTTP/1.1\nHost: a\n\n", .invalidRequestLine),
        (" GET / HTTP/1.1\nHost: a\n\n", .invalidRequestLine),
        ("GET / HTTP/1.1 \nHost: a\n\n", .invalidRequestLine),
        ("GET * HTTP/1.1\nHost: a\n\n", .asteriskFormWithoutOptions),
        ("GET ftp://a/b HTTP/1.1\nHost: a\n\n", .invalidTarget),
        ("GET http:///b HTTP/1.1\nHost: a\n\n", .invalidTarget),
        ("GET http://u:p@localhost:8080/healthz HTTP/1.1\nHost: localhost\n\n", .invalidTarget),
        ("GET https://@localhost HTTP/1.1\nHost: localhost\n\n", .invalidTarget),
        ("GET abc HTTP/1.1\nHost: a\n\n", .invalidTarget),
        ("GET /caf\u{E9} HTTP/1.1\nHost: a\n\n", .invalidTarget),
        // A fragment is not part of any request-target form (RFC 9112 §3.2, RFC 3986 §3.5).
        ("GET /healthz#x HTTP/1.1\nHost: a\n\n", .invalidTarget),
        ("GET /solve?a=1#x HTTP/1.1\nHost: a\n\n", .invalidTarget),
        ("GET /# HTTP/1.1\nHost: a\n\n", .invalidTarget),
        ("GET http://a/b#c HTTP/1.1\nHost: a\n\n", .invalidTarget),
        ("GET / HTTP/1.1\nHost: a\nExpect: 200-ok\n\n", .unsupportedExpectation),
    ])
    func malformed(_ text: String, _ expected: HTTPParseError) {
        let (outcomes, invariant) = parseEveryWay(crlf(text))
        #expect(invariant)
        #expect(outcomes == [.failure(expected)])
    }

    @Test("statuses of errors", arguments: [
        (HTTPParseError.invalidRequestLine, 400), (.unknownMethod("X"), 501), (.unsupportedVersion("HTTP/2.0"), 505),
        (.targetTooLong, 414), (.headerLineTooLong, 431), (.headerSectionTooLarge, 431), (.contentTooLarge, 413),
        (.unsupportedTransferCoding("gzip"), 501), (.contentLengthWithTransferEncoding, 400), (.invalidChunkSize, 400),
        (.missingHost, 400), (.duplicateHost, 400), (.invalidHost, 400), (.obsoleteLineFolding, 400), (.bareCarriageReturn, 400),
        (.unsupportedExpectation, 417),
    ])
    func statusOfError(_ error: HTTPParseError, _ status: Int) {
        #expect(error.status.code == status)
    }

    // MARK: - Limits

    @Test func limitsAreEnforcedAtTheFirstByteOver() {
        let limits = ServerLimits(maxBodyBytes: 8, maxHeaderBytes: 64, maxHeaderLineBytes: 30, maxTargetBytes: 10)
        let cases: [(String, HTTPParseError?)] = [
            ("GET /123456789 HTTP/1.1\nHost: a\n\n", nil),                 // target exactly 10 bytes
            ("GET /1234567890 HTTP/1.1\nHost: a\n\n", .targetTooLong),     // 11 bytes
            ("GET / HTTP/1.1\nHost: a\nX: 123456789012345678901234567\n\n", nil),  // line of exactly 30 bytes
            ("GET / HTTP/1.1\nHost: a\nX: 1234567890123456789012345678\n\n", .headerLineTooLong),
            ("GET / HTTP/1.1\nHost: a\nA: 1234567890\nB: 1234567890\nC: 1234567890\nD: 123456\n\n", .headerSectionTooLarge),
            ("POST / HTTP/1.1\nHost: a\nContent-Length: 8\n\n12345678", nil),
            ("POST / HTTP/1.1\nHost: a\nContent-Length: 9\n\n123456789", .contentTooLarge),
            ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n4\n1234\n4\n5678\n0\n\n", nil),
            ("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n4\n1234\n5\n56789\n0\n\n", .contentTooLarge),
        ]
        for (text, expected) in cases {
            let (outcomes, invariant) = parseEveryWay(crlf(text), limits: limits)
            #expect(invariant, "\(text)")
            if let expected {
                #expect(outcomes == [.failure(expected)], "\(text)")
            } else {
                #expect(outcomes.count == 1 && { if case .request = outcomes[0] { true } else { false } }(), "\(text)")
            }
        }
    }

    /// Found by the fuzzer: the chunk-size line length was measured from a stale
    /// index after the buffer was compacted, so byte-at-a-time feeding differed.
    @Test func longChunkExtensionFailsTheSameWhateverTheSplit() {
        let limits = ServerLimits(maxHeaderLineBytes: 40)
        let raw = crlf("POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n5;" + String(repeating: "d", count: 60) + "\nhello\n0\n\n")
        let (outcomes, invariant) = parseEveryWay(raw, limits: limits)
        #expect(invariant)
        #expect(outcomes == [.failure(.invalidChunkSize)])
    }

    @Test func endlessHeaderLineFailsWithoutTheEndOfLine() {
        var parser = RequestParser(limits: ServerLimits(maxHeaderLineBytes: 100))
        parser.append(crlf("GET / HTTP/1.1\nX: "))
        parser.append([UInt8](repeating: 0x61, count: 200))
        #expect(parser.next() == .failure(.headerLineTooLong))
    }

    // MARK: - Byte sweeps

    @Test func fieldValueByteSweep() {
        for byte in UInt8.min...UInt8.max where byte != 0x0A && byte != 0x0D {
            let raw = crlf("GET / HTTP/1.1\nHost: a\nX: a") + [byte] + crlf("b\n\n")
            let outcomes = parse(chunks: [raw])
            let allowed = byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
            if allowed {
                guard case .request(let request) = outcomes.first else {
                    Issue.record("byte \(byte) rejected: \(outcomes)")
                    continue
                }
                #expect(Array(request.headers["X"]!.utf8) == (byte >= 0x80 ? Array("a\u{FFFD}b".utf8) : [0x61, byte, 0x62]))
            } else {
                #expect(outcomes == [.failure(.invalidFieldValue)], "byte \(byte)")
            }
        }
    }

    @Test func fieldNameByteSweep() {
        let tokenBytes = Set(Array("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))
        for byte in UInt8.min...UInt8.max where byte != 0x3A {
            let outcomes = parse(chunks: [crlf("GET / HTTP/1.1\nHost: a\nX") + [byte] + crlf(": v\n\n")])
            if tokenBytes.contains(byte) {
                #expect(outcomes.count == 1 && outcomes.first != .failure(.invalidFieldName), "byte \(byte)")
            } else if byte == 0x20 || byte == 0x09 {
                #expect(outcomes == [.failure(.whitespaceBeforeColon)], "byte \(byte)")
            } else if byte == 0x0D {
                #expect(outcomes == [.failure(.invalidFieldName)], "byte \(byte)")
            } else {
                #expect(outcomes == [.failure(.invalidFieldName)], "byte \(byte)")
            }
        }
    }

    @Test func targetByteSweep() {
        for byte in UInt8.min...UInt8.max where byte != 0x20 {
            let outcomes = parse(chunks: [Array("GET /a".utf8) + [byte] + crlf(" HTTP/1.1\nHost: a\n\n")])
            if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "#") {
                #expect(outcomes.count == 1 && { if case .request = outcomes[0] { true } else { false } }(), "byte \(byte)")
            } else if byte == 0x0D || byte == 0x0A {
                #expect(outcomes == [.failure(.invalidRequestLine)], "byte \(byte)")
            } else {
                #expect(outcomes == [.failure(.invalidTarget)], "byte \(byte)")
            }
        }
    }
}
