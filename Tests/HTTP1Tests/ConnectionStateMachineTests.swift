import Testing
@testable import HTTP1

/// The connection state machine, driven by a fake clock: `now` is whatever the
/// test says, so timeouts are tested exactly and instantly.
struct ConnectionStateMachineTests {
    typealias Action = ConnectionStateMachine.Action

    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"
    let limits = ServerLimits(headTimeout: 10, bodyTimeout: 30, idleTimeout: 60, maxRequestsPerConnection: 3)

    private func bytes(_ text: String) -> [UInt8] { crlf(text) }

    private func ok(_ body: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(body.utf8))
    }

    /// The exact wire form of `ok(body)` with the given `Connection` line.
    private func okBytes(_ body: String, connection: String? = nil) -> [UInt8] {
        var text = "HTTP/1.1 200 OK\nContent-Type: text/plain\nDate: \(Self.date)\nContent-Length: \(body.utf8.count)\n"
        if let connection { text += "Connection: \(connection)\n" }
        return bytes(text + "\n") + Array(body.utf8)
    }

    private func request(_ actions: [Action]) -> HTTPRequest? {
        for case .handle(let request) in actions { return request }
        return nil
    }

    @Test func keepAliveRequestThenIdleDeadline() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        #expect(machine.deadline == 10)
        let actions = machine.received(bytes("GET /a HTTP/1.1\nHost: h\n\n"), now: 1, date: Self.date)
        #expect(actions == [.handle(HTTPRequest(method: .GET, target: "/a", headers: ["Host": "h"]))])
        #expect(machine.deadline == nil)
        #expect(machine.handlerFinished(ok("hi"), now: 2, date: Self.date) == [.write(okBytes("hi"))])
        #expect(machine.deadline == 62)
        #expect(machine.timerFired(now: 61.9, date: Self.date) == [])
        #expect(machine.timerFired(now: 62, date: Self.date) == [.close])
        #expect(machine.isClosed)
    }

    @Test func freshConnectionThatSendsNothingClosesSilentlyAtHeadTimeout() {
        var machine = ConnectionStateMachine(limits: limits, now: 100)
        #expect(machine.timerFired(now: 109.99, date: Self.date) == [])
        #expect(machine.timerFired(now: 110, date: Self.date) == [.close])
    }

    @Test func partialHeadTimesOutWith408() throws {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        #expect(machine.received(Array("GET / HT".utf8), now: 5, date: Self.date) == [])
        #expect(machine.deadline == 15)
        #expect(machine.received(Array("TP/1.1\r\n".utf8), now: 14, date: Self.date) == [])
        #expect(machine.deadline == 15)   // trickling bytes do not extend the head deadline
        let actions = machine.timerFired(now: 15, date: Self.date)
        #expect(actions.count == 3)
        guard case .write(let written) = actions.first else {
            Issue.record("expected a write, got \(actions)")
            return
        }
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json\r\nDate: \(Self.date)\r\nContent-Length: "))
        #expect(text.contains("\r\nConnection: close\r\n\r\n{\"type\":\"about:blank\",\"title\":\"Request Timeout\",\"status\":408,"))
        #expect(Array(actions.dropFirst()) == [.rejected(status: 408, since: 5), .close])   // the head's first byte came at 5
    }

    @Test func slowBodyTimesOutFromTheEndOfTheHead() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        #expect(machine.received(bytes("POST / HTTP/1.1\nHost: h\nContent-Length: 10\n\nabc"), now: 2, date: Self.date) == [])
        #expect(machine.deadline == 32)
        #expect(machine.received(Array("def".utf8), now: 31, date: Self.date) == [])
        #expect(machine.timerFired(now: 31.5, date: Self.date) == [])
        #expect(machine.timerFired(now: 32, date: Self.date).suffix(2) == [.rejected(status: 408, since: 2), .close])
    }

    @Test func noTimeoutWhileTheHandlerRuns() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        _ = machine.received(bytes("GET / HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        #expect(machine.deadline == nil)
        #expect(machine.timerFired(now: 10_000, date: Self.date) == [])
        #expect(machine.handlerFinished(ok(""), now: 10_000, date: Self.date) == [.write(okBytes(""))])
    }

    @Test func pipelinedResponsesAreCoalescedInOrder() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        let first = machine.received(bytes("GET /1 HTTP/1.1\nHost: h\n\nGET /2 HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        #expect(request(first)?.target == "/1")
        let second = machine.handlerFinished(ok("one"), now: 0, date: Self.date)
        #expect(second.count == 1)
        #expect(request(second)?.target == "/2")
        #expect(machine.handlerFinished(ok("two"), now: 0, date: Self.date) == [.write(okBytes("one") + okBytes("two"))])
    }

    /// A request carries when its head began to arrive (the first bytes, here at 3, not
    /// the body's end at 7); one pipelined behind it, when the answer before it was made.
    @Test func aRequestCarriesWhenItsHeadArrived() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        #expect(machine.received(bytes("POST /1 HTTP/1.1\nHost: h\nContent-Length: 4\n\nab"), now: 3, date: Self.date) == [])
        let first = machine.received(Array("cdGET /2 HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: 7, date: Self.date)
        #expect(request(first)?.headReceivedAt == 3)
        let second = machine.handlerFinished(ok("one"), now: 9, date: Self.date)
        #expect(request(second)?.target == "/2")
        #expect(request(second)?.headReceivedAt == 9)
        // Not part of equality: the same message received at another time.
        var later = request(second)
        later?.headReceivedAt = 100
        #expect(later == request(second))
    }

    @Test func requestLimitClosesAfterTheLastAllowedRequest() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        for index in 1...3 {
            _ = machine.received(bytes("GET / HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
            let actions = machine.handlerFinished(ok("\(index)"), now: 0, date: Self.date)
            if index < 3 {
                #expect(actions == [.write(okBytes("\(index)"))])
            } else {
                #expect(actions == [.write(okBytes("3", connection: "close")), .close])
            }
        }
        #expect(machine.requestCount == 3)
    }

    @Test func connectionCloseAndHTTP10() {
        var closing = ConnectionStateMachine(limits: limits, now: 0)
        _ = closing.received(bytes("GET / HTTP/1.1\nHost: h\nConnection: close\n\n"), now: 0, date: Self.date)
        #expect(closing.handlerFinished(ok("x"), now: 0, date: Self.date) == [.write(okBytes("x", connection: "close")), .close])

        var old = ConnectionStateMachine(limits: limits, now: 0)
        _ = old.received(bytes("GET / HTTP/1.0\n\n"), now: 0, date: Self.date)
        #expect(old.handlerFinished(ok("x"), now: 0, date: Self.date) == [.write(okBytes("x", connection: "close")), .close])

        var oldKeepAlive = ConnectionStateMachine(limits: limits, now: 0)
        _ = oldKeepAlive.received(bytes("GET / HTTP/1.0\nConnection: keep-alive\n\n"), now: 0, date: Self.date)
        #expect(oldKeepAlive.handlerFinished(ok("x"), now: 0, date: Self.date) == [.write(okBytes("x", connection: "keep-alive"))])

        var handlerCloses = ConnectionStateMachine(limits: limits, now: 0)
        _ = handlerCloses.received(bytes("GET / HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        var response = ok("x")
        response.headers.append("Connection", "close")
        #expect(handlerCloses.handlerFinished(response, now: 0, date: Self.date) == [.write(okBytes("x", connection: "close")), .close])
    }

    @Test func headKeepsContentLengthButSendsNoBody() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        _ = machine.received(bytes("HEAD / HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        let expected = bytes("HTTP/1.1 200 OK\nContent-Type: text/plain\nDate: \(Self.date)\nContent-Length: 5\n\n")
        #expect(machine.handlerFinished(ok("hello"), now: 0, date: Self.date) == [.write(expected)])
    }

    @Test func noContentHasNoContentLength() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        _ = machine.received(bytes("DELETE /g HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        let expected = bytes("HTTP/1.1 204 No Content\nDate: \(Self.date)\n\n")
        #expect(machine.handlerFinished(HTTPResponse(status: 204, body: Array("ignored".utf8)), now: 0, date: Self.date) == [.write(expected)])
    }

    @Test func expectContinue() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        let head = machine.received(bytes("PUT /g HTTP/1.1\nHost: h\nExpect: 100-continue\nContent-Length: 2\n\n"), now: 0, date: Self.date)
        #expect(head == [.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))])
        let body = machine.received(Array("{}".utf8), now: 1, date: Self.date)
        #expect(request(body)?.body == Array("{}".utf8))
    }

    /// The continue check sees the head (without its body) before `100 Continue`: its
    /// answer goes out instead, final, and the connection closes with the body unread.
    @Test func theContinueCheckAnswersBeforeAnyContinue() {
        let refusal = HTTPResponse(status: 421, headers: ["Content-Type": "text/plain"], body: Array("no".utf8))
        var machine = ConnectionStateMachine(limits: limits, now: 0) { head in
            head.headers["Host"] == "evil.example" ? refusal : nil
        }
        let actions = machine.received(bytes("PUT /g HTTP/1.1\nHost: evil.example\nExpect: 100-continue\nContent-Length: 2\n\n"),
                                       now: 0, date: Self.date)
        let expected = bytes("HTTP/1.1 421 Misdirected Request\nContent-Type: text/plain\nDate: \(Self.date)\nContent-Length: 2\nConnection: close\n\n")
            + Array("no".utf8)
        let head = HTTPRequest(method: .PUT, target: "/g", headers: ["Host": "evil.example", "Expect": "100-continue", "Content-Length": "2"])
        #expect(actions == [.write(expected), .answeredBeforeContinue(head, status: 421, bodyBytes: 2, since: 0), .close])
        #expect(machine.isClosed)
        #expect(machine.received(Array("{}".utf8), now: 1, date: Self.date) == [])

        var allowed = ConnectionStateMachine(limits: limits, now: 0) { head in
            head.headers["Host"] == "evil.example" ? refusal : nil
        }
        let continued = allowed.received(bytes("PUT /g HTTP/1.1\nHost: h\nExpect: 100-continue\nContent-Length: 2\n\n"), now: 0, date: Self.date)
        #expect(continued == [.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))])
        #expect(request(allowed.received(Array("{}".utf8), now: 1, date: Self.date))?.body == Array("{}".utf8))
    }

    @Test func expectContinueWithTooLargeBodyGets413AtOnce() throws {
        var machine = ConnectionStateMachine(limits: ServerLimits(maxBodyBytes: 4), now: 0)
        let actions = machine.received(bytes("PUT /g HTTP/1.1\nHost: h\nExpect: 100-continue\nContent-Length: 5\n\n"), now: 0, date: Self.date)
        #expect(actions.count == 3)
        let written = try #require(actions.first?.written, "expected a write first, got \(actions)")
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
        #expect(Array(actions.dropFirst()) == [.rejected(status: 413, since: 0), .close])
    }

    @Test func framingErrorAnswersProblemAndCloses() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        let actions = machine.received(bytes("GET / HTTP/1.1\nHost: a\nHost: b\n\n"), now: 0, date: Self.date)
        let body = #"{"type":"about:blank","title":"Bad Request","status":400,"detail":"The request has more than one Host header field."}"#
        let expected = bytes("HTTP/1.1 400 Bad Request\nContent-Type: application/problem+json\nDate: \(Self.date)\nContent-Length: \(body.utf8.count)\nConnection: close\n\n") + Array(body.utf8)
        #expect(actions == [.write(expected), .rejected(status: 400, since: 0), .close])
        #expect(machine.received(bytes("GET / HTTP/1.1\nHost: a\n\n"), now: 0, date: Self.date) == [])
    }

    /// The problem type base and extension members the application configures go into
    /// the server's own problems: the 413 of an oversized body, the 408 of a stalled head.
    @Test func ownProblemsCarryTheConfiguredTypeAndMembers() {
        var configured = ServerLimits(maxBodyBytes: 4)
        configured.problemTypeBase = "urn:app:problem:"
        configured.problemMembers = [ProblemMember("diagnostics", "[]")]
        var machine = ConnectionStateMachine(limits: configured, now: 0)
        let actions = machine.received(bytes("PUT /g HTTP/1.1\nHost: h\nContent-Length: 5\n\n"), now: 0, date: Self.date)
        let body = #"{"type":"urn:app:problem:payload-too-large","title":"Content Too Large","status":413,"detail":"The request body is larger than 4 bytes (--max-body-bytes).","diagnostics":[]}"#
        guard case .write(let written) = actions.first else {
            Issue.record("no response written")
            return
        }
        #expect(String(decoding: written, as: UTF8.self).hasSuffix("\r\n\r\n" + body))
        var stalled = ConnectionStateMachine(limits: configured, now: 0)
        _ = stalled.received(bytes("GET / HT"), now: 0, date: Self.date)
        let timeout = stalled.timerFired(now: configured.headTimeout, date: Self.date)
        guard case .write(let answer) = timeout.first else {
            Issue.record("no 408 written")
            return
        }
        #expect(String(decoding: answer, as: UTF8.self).hasSuffix(#","status":408,"detail":"The request was not received in time.","diagnostics":[]}"#))
    }

    @Test func errorAfterAPipelinedRequestComesAfterItsResponse() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        let first = machine.received(bytes("GET / HTTP/1.1\nHost: h\n\nGET / HTTP/9.9\n\n"), now: 0, date: Self.date)
        #expect(request(first) != nil)
        let actions = machine.handlerFinished(ok("a"), now: 0, date: Self.date)
        guard case .write(let written) = actions.first else {
            Issue.record("expected a write, got \(actions)")
            return
        }
        #expect(written.starts(with: okBytes("a")))
        #expect(String(decoding: written[okBytes("a").count...], as: UTF8.self).hasPrefix("HTTP/1.1 505 HTTP Version Not Supported\r\n"))
        #expect(Array(actions.dropFirst()) == [.rejected(status: 505, since: 0), .close])
    }

    @Test func inputClosedAnswersWhatArrivedThenCloses() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        _ = machine.received(bytes("GET / HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        #expect(machine.inputClosed(now: 0, date: Self.date) == [])
        #expect(machine.handlerFinished(ok("a"), now: 0, date: Self.date) == [.write(okBytes("a")), .close])

        var partial = ConnectionStateMachine(limits: limits, now: 0)
        _ = partial.received(Array("GET / HT".utf8), now: 0, date: Self.date)
        #expect(partial.inputClosed(now: 0, date: Self.date) == [.close])
    }

    @Test func shutdownClosesIdleAndDrainsBusy() {
        var idle = ConnectionStateMachine(limits: limits, now: 0)
        #expect(idle.beginShutdown(now: 0, date: Self.date) == [.close])

        var busy = ConnectionStateMachine(limits: limits, now: 0)
        _ = busy.received(bytes("GET / HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        #expect(busy.beginShutdown(now: 0, date: Self.date) == [])
        #expect(busy.handlerFinished(ok("a"), now: 0, date: Self.date) == [.write(okBytes("a", connection: "close")), .close])
    }

    @Test func stopsWantingBytesWhenTooMuchIsBuffered() {
        var machine = ConnectionStateMachine(limits: ServerLimits(maxBodyBytes: 10, maxHeaderBytes: 100), now: 0)
        _ = machine.received(bytes("GET / HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        #expect(machine.wantsBytes)
        _ = machine.received([UInt8](repeating: 0x41, count: 100 + 10 + 65_536), now: 0, date: Self.date)
        #expect(!machine.wantsBytes)
    }
}

/// ``ServerLimits/responseFields``: written on every answer, the server's own included.
struct ResponseFieldsTests {
    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"

    var limits: ServerLimits {
        var limits = ServerLimits()
        limits.responseFields = ["X-Content-Type-Options": "nosniff"]
        return limits
    }

    @Test func aHandlerAnswerGetsTheFieldUnlessItHasOne() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        _ = machine.received(crlf("GET / HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        let plain = HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("ok".utf8))
        let expected = crlf("HTTP/1.1 200 OK\nContent-Type: text/plain\nX-Content-Type-Options: nosniff\nDate: \(Self.date)\nContent-Length: 2\n\n") + Array("ok".utf8)
        #expect(machine.handlerFinished(plain, now: 0, date: Self.date) == [.write(expected)])

        _ = machine.received(crlf("GET / HTTP/1.1\nHost: h\n\n"), now: 0, date: Self.date)
        let own = HTTPResponse(status: 200, headers: ["x-content-type-options": "other"], body: [])
        let ownExpected = crlf("HTTP/1.1 200 OK\nx-content-type-options: other\nDate: \(Self.date)\nContent-Length: 0\n\n")
        #expect(machine.handlerFinished(own, now: 0, date: Self.date) == [.write(ownExpected)])
    }

    @Test func framingErrorsAndTheOverloadAnswerGetTheField() {
        var machine = ConnectionStateMachine(limits: limits, now: 0)
        let actions = machine.received(crlf("GET / HTTP/1.1\n\n"), now: 0, date: Self.date)   // no Host: 400
        guard case .write(let written)? = actions.first else {
            Issue.record("expected a write, got \(actions)")
            return
        }
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nX-Content-Type-Options: nosniff\r\nDate: "))
        let overload = String(decoding: ConnectionStateMachine.overloadResponse(date: Self.date, limits: limits), as: UTF8.self)
        #expect(overload.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(overload.contains("\r\nRetry-After: 1\r\nX-Content-Type-Options: nosniff\r\nDate: \(Self.date)\r\n"))
    }
}
