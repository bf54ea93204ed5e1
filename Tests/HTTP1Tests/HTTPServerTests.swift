import Dispatch
import Foundation
import Synchronization
import Testing
@testable import HTTP1

/// End-to-end: a real server on 127.0.0.1:0, raw bytes over sockets, exact
/// status lines and whether the server closed the connection.
@Suite(.serialized)
struct HTTPServerTests {
    /// A handler gate: requests to `/slow` wait until `open()`.
    final class Gate: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        func open(_ count: Int = 1) { for _ in 0..<count { semaphore.signal() } }
    }

    static func makeRouter(gate: Gate) -> Router {
        var router = Router()
        router.add(.GET, "/hello") { _, _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
        }
        router.add(.GET, "/path/{rest}") { request, _ in
            HTTPResponse(status: 200, body: Array("\(request.path)?\(request.query ?? "")".utf8))
        }
        router.add(.POST, "/echo") { request, _ in
            var response = HTTPResponse(status: 200, body: request.body)
            for field in request.trailers { response.headers.append("X-Trailer-\(field.name)", field.value) }
            return response
        }
        router.add(.GET, "/big/{megabytes}") { _, parameters in
            let count = (Int(parameters["megabytes"] ?? "") ?? 0) << 20
            return HTTPResponse(status: 200, body: Array(HTTPServerTests.bigBody.prefix(count)))
        }
        router.add(.GET, "/slow") { _, _ in
            gate.entered.signal()
            gate.semaphore.wait()
            return HTTPResponse(status: 200, body: Array("slow".utf8))
        }
        router.add(.POST, "/slow") { request, _ in
            gate.entered.signal()
            gate.semaphore.wait()
            return HTTPResponse(status: 200, body: Array("slow \(request.body.count)".utf8))
        }
        return router
    }

    /// 4 MiB of a non-repeating-per-block byte pattern, for large responses.
    static let bigBody: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: 4 << 20)
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 12) }
        }
        return bytes
    }()

    static let limits = ServerLimits(maxBodyBytes: 1024, maxHeaderBytes: 2048, maxHeaderLineBytes: 512,
                                     maxTargetBytes: 256, headTimeout: 5, bodyTimeout: 5, idleTimeout: 5,
                                     maxRequestsPerConnection: 100, maxConnections: 4096, drainTimeout: 2)

    /// Runs `body` against a fresh server; always shuts it down.
    func withServer(limits: ServerLimits = HTTPServerTests.limits, workers: Int = 2,
                    gate: Gate = Gate(), log: (@Sendable (AccessLogRecord) -> Void)? = nil,
                    _ body: (Int, HTTPServer) throws -> Void) throws {
        let router = HTTPServerTests.makeRouter(gate: gate)
        let server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, workerCount: workers, accessLog: log) {
            router.respond(to: $0)
        }
        let port = try server.start()
        defer {
            gate.open(8)
            server.shutdown()
        }
        try body(port, server)
    }

    // MARK: - Conformance

    @Test func keepAliveServesSeveralRequests() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            for _ in 0..<3 {
                client.send("GET /hello HTTP/1.1\nHost: t\n\n")
                let response = try client.readResponse()
                #expect(response.statusLine == "HTTP/1.1 200 OK")
                #expect(response.headers["Content-Length"] == "5")
                #expect(response.headers["Content-Type"] == "text/plain")
                #expect(response.headers["Date"]?.hasSuffix(" GMT") == true)
                #expect(response.headers["Connection"] == nil)
                #expect(response.bodyText == "hello")
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send("GET /path/1 HTTP/1.1\nHost: t\n\nPOST /echo HTTP/1.1\nHost: t\nContent-Length: 3\n\ntwoGET /path/3?q HTTP/1.1\nHost: t\n\nHEAD /hello HTTP/1.1\nHost: t\n\nGET /path/5 HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().bodyText == "/path/1?")
            #expect(try client.readResponse().bodyText == "two")
            #expect(try client.readResponse().bodyText == "/path/3?q")
            let head = try client.readResponse(isHead: true)
            #expect(head.status == 200)
            #expect(head.headers["Content-Length"] == "5")
            #expect(try client.readResponse().bodyText == "/path/5?")
        }
    }

    @Test func largeResponsesLargerThanTheSocketBufferArriveWhole() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send("GET /big/4 HTTP/1.1\nHost: t\n\nGET /big/1 HTTP/1.1\nHost: t\n\nGET /hello HTTP/1.1\nHost: t\n\n")
            for megabytes in [4, 1] {
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.body.count == megabytes << 20)
                #expect(response.body == Array(HTTPServerTests.bigBody.prefix(megabytes << 20)))
            }
            #expect(try client.readResponse().bodyText == "hello")
        }
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send("POST /echo HTTP/1.1\nHost: t\nTransfer-Encoding: chunked\n\n4;ext=1\nWiki\n5 ; a=\"b\"\npedia\n0\nChecksum: abc\n\n")
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 200 OK")
            #expect(response.bodyText == "Wikipedia")
            #expect(response.headers["X-Trailer-Checksum"] == "abc")
            client.send("GET /hello HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().status == 200)
        }
    }

    @Test func expectContinueGets100ThenTheResponse() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send("POST /echo HTTP/1.1\nHost: t\nContent-Length: 4\nExpect: 100-continue\n\n")
            let interim = try client.readResponse()
            #expect(interim.statusLine == "HTTP/1.1 100 Continue")
            client.send(Array("ping".utf8))
            let final = try client.readResponse()
            #expect(final.statusLine == "HTTP/1.1 200 OK")
            #expect(final.bodyText == "ping")
        }
    }

    @Test func expectContinueWithTooLargeBodyGets413AtOnce() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send("POST /echo HTTP/1.1\nHost: t\nContent-Length: 5000\nExpect: 100-continue\n\n")
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 413 Content Too Large")
            #expect(response.headers["Connection"] == "close")
            #expect(client.isClosedByServer())
        }
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() throws {
        try withServer { port, _ in
            let plain = try RawClient(port: port)
            plain.send("GET /hello HTTP/1.0\n\n")
            let response = try plain.readResponse()
            #expect(response.statusLine == "HTTP/1.1 200 OK")
            #expect(response.headers["Connection"] == "close")
            #expect(plain.isClosedByServer())

            let keepAlive = try RawClient(port: port)
            keepAlive.send("GET /hello HTTP/1.0\nConnection: keep-alive\n\n")
            #expect(try keepAlive.readResponse().headers["Connection"] == "keep-alive")
            keepAlive.send("GET /hello HTTP/1.0\n\n")
            #expect(try keepAlive.readResponse().status == 200)
            #expect(keepAlive.isClosedByServer())
        }
    }

    @Test func connectionCloseCloses() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send("GET /hello HTTP/1.1\nHost: t\nConnection: close\n\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.headers["Connection"] == "close")
            #expect(client.isClosedByServer())
        }
    }

    @Test func absoluteFormTarget() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send("GET http://t/path/x?y=1 HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().bodyText == "/path/x?y=1")
        }
    }

    @Test func postWithoutLengthIsAnsweredWithoutWaiting() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send("POST /echo HTTP/1.1\nHost: t\n\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.headers["Content-Length"] == "0")
        }
    }

    @Test("framing errors: exact status, problem+json, Connection: close, closed", arguments: [
        ("POST /echo HTTP/1.1\nHost: t\nContent-Length: 3\nTransfer-Encoding: chunked\n\nabc", "HTTP/1.1 400 Bad Request"),
        ("POST /echo HTTP/1.1\nHost: t\nContent-Length: 3\nContent-Length: 4\n\nabcd", "HTTP/1.1 400 Bad Request"),
        ("POST /echo HTTP/1.1\nHost: t\nContent-Length: -3\n\n", "HTTP/1.1 400 Bad Request"),
        ("POST /echo HTTP/1.1\nHost: t\nContent-Length: 18446744073709551617\n\n", "HTTP/1.1 400 Bad Request"),
        ("POST /echo HTTP/1.1\nHost: t\nTransfer-Encoding: chunked, identity\n\n", "HTTP/1.1 400 Bad Request"),
        ("POST /echo HTTP/1.1\nHost: t\nTransfer-Encoding: gzip, chunked\n\n", "HTTP/1.1 501 Not Implemented"),
        ("POST /echo HTTP/1.1\nHost: t\nTransfer-Encoding: chunked\n\nxyz\n", "HTTP/1.1 400 Bad Request"),
        ("GET /hello HTTP/1.1\n\n", "HTTP/1.1 400 Bad Request"),
        ("GET /hello HTTP/1.1\nHost: a\nHost: b\n\n", "HTTP/1.1 400 Bad Request"),
        ("GET /hello#x HTTP/1.1\nHost: t\n\n", "HTTP/1.1 400 Bad Request"),
        ("GET /hello HTTP/1.1\nHost : t\n\n", "HTTP/1.1 400 Bad Request"),
        ("GET /hello HTTP/1.1\nHost: t\nX: a\n b\n\n", "HTTP/1.1 400 Bad Request"),
        ("GET /hello HTTP/1.1\nHost: t\nX: a\rb\n\n", "HTTP/1.1 400 Bad Request"),
        ("GET /hello HTTP/2.0\nHost: t\n\n", "HTTP/1.1 505 HTTP Version Not Supported"),
        ("BREW /hello HTTP/1.1\nHost: t\n\n", "HTTP/1.1 501 Not Implemented"),
        ("POST /echo HTTP/1.1\nHost: t\nContent-Length: 1025\n\n", "HTTP/1.1 413 Content Too Large"),
        ("GET /hello HTTP/1.1\nHost: t\nExpect: teapot\n\n", "HTTP/1.1 417 Expectation Failed"),
    ])
    func framingError(_ request: String, _ statusLine: String) throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send(request)
            let response = try client.readResponse()
            #expect(response.statusLine == statusLine)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.headers["Connection"] == "close")
            let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(json?["status"] as? Int == response.status)
            #expect(json?["type"] as? String == "about:blank")
            #expect(json?["title"] is String && json?["detail"] is String)
            #expect(client.isClosedByServer())
        }
    }

    @Test func tooLongTargetAndHeadersGet414And431() throws {
        try withServer { port, _ in
            let target = try RawClient(port: port)
            target.send("GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\nHost: t\n\n")
            #expect(try target.readResponse().statusLine == "HTTP/1.1 414 URI Too Long")
            #expect(target.isClosedByServer())

            let line = try RawClient(port: port)
            line.send("GET / HTTP/1.1\nHost: t\nX: " + String(repeating: "a", count: 600) + "\n\n")
            #expect(try line.readResponse().statusLine == "HTTP/1.1 431 Request Header Fields Too Large")
            #expect(line.isClosedByServer())

            let section = try RawClient(port: port)
            section.send("GET / HTTP/1.1\nHost: t\n" + String(repeating: "X-Long: " + String(repeating: "b", count: 100) + "\n", count: 30) + "\n")
            #expect(try section.readResponse().statusLine == "HTTP/1.1 431 Request Header Fields Too Large")
            #expect(section.isClosedByServer())
        }
    }

    @Test func routerStatusesKeepTheConnectionOpen() throws {
        try withServer { port, _ in
            let client = try RawClient(port: port)
            client.send("DELETE /hello HTTP/1.1\nHost: t\n\n")
            let notAllowed = try client.readResponse()
            #expect(notAllowed.statusLine == "HTTP/1.1 405 Method Not Allowed")
            #expect(notAllowed.headers["Allow"] == "GET, HEAD, OPTIONS")
            client.send("GET /nowhere HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().statusLine == "HTTP/1.1 404 Not Found")
            client.send("GET /hello HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().statusLine == "HTTP/1.1 200 OK")
        }
    }

    // MARK: - Limits and timeouts

    @Test func slowHeadAndSlowBodyGet408AndClose() throws {
        var limits = HTTPServerTests.limits
        limits.headTimeout = 0.3
        limits.bodyTimeout = 0.3
        try withServer(limits: limits) { port, _ in
            let head = try RawClient(port: port)
            head.send(Array("GET /hello HTTP/1.1\r\nHo".utf8))
            let headResponse = try head.readResponse()
            #expect(headResponse.statusLine == "HTTP/1.1 408 Request Timeout")
            #expect(headResponse.headers["Connection"] == "close")
            #expect(head.isClosedByServer())

            let body = try RawClient(port: port)
            body.send("POST /echo HTTP/1.1\nHost: t\nContent-Length: 10\n\nabc")
            #expect(try body.readResponse().statusLine == "HTTP/1.1 408 Request Timeout")
            #expect(body.isClosedByServer())
        }
    }

    @Test func idleKeepAliveConnectionIsClosedSilently() throws {
        var limits = HTTPServerTests.limits
        limits.idleTimeout = 0.2
        try withServer(limits: limits) { port, _ in
            let client = try RawClient(port: port)
            client.send("GET /hello HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().status == 200)
            #expect(client.isClosedByServer())
        }
    }

    @Test func requestsPerConnectionLimit() throws {
        var limits = HTTPServerTests.limits
        limits.maxRequestsPerConnection = 2
        try withServer(limits: limits) { port, _ in
            let client = try RawClient(port: port)
            client.send("GET /hello HTTP/1.1\nHost: t\n\nGET /hello HTTP/1.1\nHost: t\n\nGET /hello HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().headers["Connection"] == nil)
            #expect(try client.readResponse().headers["Connection"] == "close")
            #expect(client.isClosedByServer())
        }
    }

    @Test func connectionsBeyondTheLimitGet503AndTheServerKeepsAnswering() throws {
        var limits = HTTPServerTests.limits
        limits.maxConnections = 2
        try withServer(limits: limits) { port, server in
            let first = try RawClient(port: port)
            let second = try RawClient(port: port)
            for client in [first, second] {
                client.send("GET /hello HTTP/1.1\nHost: t\n\n")
                #expect(try client.readResponse().status == 200)
            }
            #expect(server.openConnectionCount == 2)
            let third = try RawClient(port: port)
            third.send("GET /hello HTTP/1.1\nHost: t\n\n")
            let refused = try third.readResponse()
            #expect(refused.statusLine == "HTTP/1.1 503 Service Unavailable")
            #expect(refused.headers["Retry-After"] == "1")
            #expect(refused.headers["Connection"] == "close")
            #expect(third.isClosedByServer())
            first.send("GET /hello HTTP/1.1\nHost: t\n\n")
            #expect(try first.readResponse().status == 200)
        }
    }

    // MARK: - Concurrency

    @Test func thousandIdleAndThousandStuckConnectionsDoNotStopANewClient() throws {
        // Client and server ends of 2,001 connections live in this process.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 8192 {
            limit.rlim_cur = min(8192, limit.rlim_max)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        try withServer { port, server in
            var held: [RawClient] = []
            for index in 0..<2000 {
                let client = try RawClient(port: port)
                if index % 2 == 1 { client.send(Array("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Le".utf8)) }
                held.append(client)
            }
            let start = monotonicNow()
            let fresh = try RawClient(port: port)
            fresh.send("GET /hello HTTP/1.1\nHost: t\n\n")
            let response = try fresh.readResponse()
            let elapsed = monotonicNow() - start
            #expect(response.status == 200)
            #expect(elapsed < 1.0, "answered after \(elapsed) s")
            #expect(server.openConnectionCount == 2001)
        }
    }

    @Test func slowHandlerBlocksNeitherOtherHandlersNorIO() throws {
        let gate = Gate()
        try withServer(workers: 2, gate: gate) { port, _ in
            let slow = try RawClient(port: port)
            slow.send("GET /slow HTTP/1.1\nHost: t\n\n")
            gate.entered.wait()
            let fast = try RawClient(port: port)
            fast.send("GET /hello HTTP/1.1\nHost: t\n\n")
            #expect(try fast.readResponse().status == 200)

            let slow2 = try RawClient(port: port)
            slow2.send("GET /slow HTTP/1.1\nHost: t\n\n")
            gate.entered.wait()
            // Both workers are now blocked; I/O still answers framing errors.
            let bad = try RawClient(port: port)
            bad.send("GET /hello HTTP/1.1\n\n")
            #expect(try bad.readResponse().status == 400)

            gate.open(2)
            #expect(try slow.readResponse().bodyText == "slow")
            #expect(try slow2.readResponse().bodyText == "slow")
        }
    }

    @Test func cheapRequestsAreAnsweredWhileEveryWorkerIsBusy() throws {
        let gate = Gate()
        let router = HTTPServerTests.makeRouter(gate: gate)
        // One worker; only /slow is expensive, every other request has the light pool.
        let server = HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPServerTests.limits, workerCount: 1,
                                isExpensive: { $0.path == "/slow" }) { router.respond(to: $0) }
        let port = try server.start()
        defer { server.shutdown() }
        let slow = try RawClient(port: port)
        slow.send("GET /slow HTTP/1.1\nHost: t\n\n")
        gate.entered.wait()
        // The only worker is blocked in /slow: /hello still gets its answer.
        let cheap = try RawClient(port: port)
        cheap.send("GET /hello HTTP/1.1\nHost: t\n\n")
        #expect(try cheap.readResponse().status == 200)
        gate.open(1)
        #expect(try slow.readResponse().bodyText == "slow")
    }

    @Test func aSmallRequestIsAnsweredWhileLargeOnesHoldEveryWorker() throws {
        let gate = Gate()
        var limits = HTTPServerTests.limits
        limits.largeBodyBytes = 8
        try withServer(limits: limits, workers: 1, gate: gate) { port, _ in
            // The only worker runs a large request; a second large one queues behind it.
            let large = try RawClient(port: port)
            large.send("POST /slow HTTP/1.1\nHost: t\nContent-Length: 9\n\n123456789")
            gate.entered.wait()
            let queued = try RawClient(port: port)
            queued.send("POST /slow HTTP/1.1\nHost: t\nContent-Length: 20\n\n12345678901234567890")
            // A body of 8 bytes is small: the spare thread answers it, and the next one.
            let small = try RawClient(port: port)
            small.send("POST /echo HTTP/1.1\nHost: t\nContent-Length: 8\n\nsmall-ok")
            let answer = try small.readResponse()
            #expect(answer.status == 200)
            #expect(answer.bodyText == "small-ok")
            small.send("POST /echo HTTP/1.1\nHost: t\nContent-Length: 3\n\nabc")
            #expect(try small.readResponse().bodyText == "abc")
            gate.open(1)
            #expect(try large.readResponse().bodyText == "slow 9")
            gate.entered.wait()
            gate.open(1)
            #expect(try queued.readResponse().bodyText == "slow 20")
        }
    }

    @Test func shutdownFinishesInFlightRequestsThenReturns() throws {
        let gate = Gate()
        let router = HTTPServerTests.makeRouter(gate: gate)
        let server = HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPServerTests.limits, workerCount: 2) {
            router.respond(to: $0)
        }
        let port = try server.start()
        let idle = try RawClient(port: port)
        let busy = try RawClient(port: port)
        busy.send("GET /slow HTTP/1.1\nHost: t\n\n")
        gate.entered.wait()
        let finished = DispatchSemaphore(value: 0)
        let unfinished = Atomic<Int>(-1)
        DispatchQueue.global().async {
            unfinished.store(server.shutdown(), ordering: .relaxed)
            finished.signal()
        }
        #expect(idle.isClosedByServer())
        #expect(finished.wait(timeout: .now() + 0.2) == .timedOut)   // still draining the busy request
        gate.open()
        let response = try busy.readResponse()
        #expect(response.bodyText == "slow")
        #expect(response.headers["Connection"] == "close")
        #expect(busy.isClosedByServer())
        finished.wait()
        #expect(unfinished.load(ordering: .relaxed) == 0)   // every busy connection was answered
        #expect((try? RawClient(port: port)) == nil)
    }

    /// A request still running when the drain ends is closed without its answer, and
    /// `shutdown()` says how many were (for the `serve` log line).
    @Test func shutdownCountsTheConnectionsTheDrainCutShort() throws {
        let gate = Gate()
        let router = HTTPServerTests.makeRouter(gate: gate)
        var limits = HTTPServerTests.limits
        limits.drainTimeout = 0.2
        let server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, workerCount: 2) {
            router.respond(to: $0)
        }
        let port = try server.start()
        let busy = try RawClient(port: port)
        busy.send("GET /slow HTTP/1.1\nHost: t\n\n")
        gate.entered.wait()
        let unfinished = server.shutdown()
        gate.open()
        #expect(unfinished == 1)
        #expect(busy.isClosedByServer())
        #expect(server.shutdown() == 0)
    }

    /// A request queued for a worker whose client reset the connection meanwhile is not
    /// handled (its answer could not be sent): it is counted in `abandonedCount` and
    /// given to `abandoned`. A client that only ended its sending side is still answered.
    @Test func aQueuedRequestOfAClosedConnectionIsNotHandled() throws {
        let gate = Gate()
        let router = HTTPServerTests.makeRouter(gate: gate)
        let handled = Mutex<[String]>([])
        let abandoned = Mutex<[String]>([])
        // One worker: while /slow holds it, small requests queue (the spare is for a
        // small request while large ones hold every worker).
        let server = HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPServerTests.limits, workerCount: 1,
                                abandoned: { request in abandoned.withLock { $0.append(request.target) } }) { request in
            handled.withLock { $0.append(request.target) }
            return router.respond(to: request)
        }
        let port = try server.start()
        defer {
            gate.open(8)
            server.shutdown()
        }
        let busy = try RawClient(port: port)
        busy.send("GET /slow HTTP/1.1\nHost: t\n\n")
        gate.entered.wait()
        do {
            let gone = try RawClient(port: port)
            gone.send("GET /hello HTTP/1.1\nHost: t\n\n")
            usleep(300_000)   // read and queued by the server
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(gone.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        }   // closed here with a reset
        let halfClosed = try RawClient(port: port)
        halfClosed.send("GET /path/kept HTTP/1.1\nHost: t\n\n")
        usleep(300_000)
        shutdown(halfClosed.fd, Int32(SHUT_WR))
        for _ in 0..<500 where server.openConnectionCount > 2 { usleep(10_000) }
        #expect(server.openConnectionCount == 2)
        #expect(handled.withLock { $0 } == ["/slow"])
        gate.open()
        #expect(try busy.readResponse().bodyText == "slow")
        #expect(try halfClosed.readResponse().bodyText == "/path/kept?")
        #expect(handled.withLock { $0 } == ["/slow", "/path/kept"])
        #expect(abandoned.withLock { $0 } == ["/hello"])
        #expect(server.abandonedCount == 1)
    }

    /// Many clients at once, pipelining, and half of them resetting the connection
    /// (`SO_LINGER` 0) while responses are in flight: every connection is answered or
    /// closed, every fd is released (the open-connection count returns to 0), and the
    /// server still answers a new client.
    @Test func concurrentPipeliningClientsAndResetsLeaveNoConnectionBehind() throws {
        try withServer { port, server in
            let answered = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 16) { index in
                for round in 0..<20 {
                    guard let client = try? RawClient(port: port) else { continue }
                    let burst = String(repeating: "POST /echo HTTP/1.1\nHost: t\nContent-Length: 5\n\nhello", count: 4)
                    client.send(burst)
                    if (index + round) % 2 == 0 {
                        // Reset at once: the server may be reading, handling or writing.
                        var linger = linger(l_onoff: 1, l_linger: 0)
                        setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                        continue
                    }
                    for _ in 0..<4 where (try? client.readResponse())?.bodyText == "hello" {
                        answered.add(1, ordering: .relaxed)
                    }
                }
            }
            #expect(answered.load(ordering: .relaxed) == 16 * 10 * 4)
            for _ in 0..<500 where server.openConnectionCount > 0 { usleep(10_000) }
            #expect(server.openConnectionCount == 0)
            let client = try RawClient(port: port)
            client.send("GET /hello HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().bodyText == "hello")
        }
    }

    @Test func aClientThatDoesNotReadIsNotServedAheadWithoutBound() throws {
        let handled = Atomic<Int>(0)
        try withServer(log: { _ in handled.add(1, ordering: .relaxed) }) { port, _ in
            let client = try RawClient(port: port)
            // 40 pipelined requests for 1 MiB each, and no reading for a while: the server
            // handles a few (what the socket buffers and Connection.maxUnsentBytes take),
            // not all 40 into a 40 MiB buffer.
            client.send(String(repeating: "GET /big/1 HTTP/1.1\nHost: t\n\n", count: 40))
            usleep(500_000)
            let early = handled.load(ordering: .relaxed)
            #expect(early >= 1 && early < 20)
            // Once the client reads, the rest are handled and arrive whole, in order.
            for _ in 0..<40 {
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.body.count == 1 << 20)
            }
            client.send("GET /hello HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().bodyText == "hello")
        }
        #expect(handled.load(ordering: .relaxed) == 41)
    }

    @Test func unreadAnswersOverTheServerBudgetGet503UntilTheyAreRead() throws {
        var limits = HTTPServerTests.limits
        limits.maxPendingResponseBytes = 1 << 20
        try withServer(limits: limits) { port, _ in
            // A client asks for 4 MiB and does not read: most of the answer waits in the
            // server, over its 1 MiB budget of unread answers.
            let hoarder = try RawClient(port: port, receiveBuffer: 4096)
            hoarder.send("GET /big/4 HTTP/1.1\nHost: t\n\n")
            var refused: RawClient.Response?
            for _ in 0..<200 {
                let other = try RawClient(port: port)
                other.send("GET /hello HTTP/1.1\nHost: t\n\n")
                let response = try other.readResponse()
                if response.status == 503 { refused = response; break }
                #expect(response.bodyText == "hello")
                usleep(10_000)
            }
            #expect(refused?.headers["Retry-After"] == "1")
            #expect(refused?.headers["Content-Type"] == "application/problem+json")
            #expect(refused?.bodyText.contains("not read yet") == true)
            // Once the answer is read, requests are served again.
            let big = try hoarder.readResponse()
            #expect(big.status == 200)
            #expect(big.body == Array(HTTPServerTests.bigBody.prefix(4 << 20)))
            var served = false
            for _ in 0..<200 where !served {
                let other = try RawClient(port: port)
                other.send("GET /hello HTTP/1.1\nHost: t\n\n")
                served = try other.readResponse().bodyText == "hello"
                if !served { usleep(10_000) }
            }
            #expect(served)
        }
    }

    @Test func pendingResponseBytesReserveWithinTheLimitOnly() {
        let pending = PendingResponseBytes(limit: 100)
        #expect(pending.reserve(60))
        #expect(!pending.reserve(41))
        #expect(pending.current == 60)
        #expect(pending.reserve(40))
        #expect(pending.current == 100)
        #expect(!pending.reserve(1))
        pending.release(100)
        #expect(pending.current == 0)
    }

    /// Gives back a reservation when the server drops the response it was attached to.
    final class Reservation: Sendable {
        let pool: PendingResponseBytes
        let bytes: Int
        init(pool: PendingResponseBytes, bytes: Int) { self.pool = pool; self.bytes = bytes }
        deinit { pool.release(bytes) }
    }

    /// An answer's reservation is counted until the server has queued its bytes (then
    /// those count), so a second answer written meanwhile finds no room: the count covers
    /// answers being written, not only answers waiting to be read.
    @Test func aResponsesAttachmentIsKeptUntilItIsQueued() throws {
        var limits = HTTPServerTests.limits
        limits.maxPendingResponseBytes = 3 << 20
        let pending = PendingResponseBytes(limit: limits.maxPendingResponseBytes)
        let refusals = Atomic<Int>(0)
        let slowHolds = Atomic<Bool>(false)
        let server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, workerCount: 2,
                                pendingResponseBytes: pending) { request in
            // Each answer holds 2 MiB while written: of two at once, one finds no room.
            guard pending.reserve(2 << 20) else {
                refusals.add(1, ordering: .relaxed)
                return HTTPResponse(status: 503, body: Array("full".utf8))
            }
            var response = HTTPResponse(status: 200, body: Array("written".utf8))
            response.attachment = Reservation(pool: pending, bytes: 2 << 20)
            if request.path == "/slow" {
                slowHolds.store(true, ordering: .releasing)
                usleep(300_000)
            }
            return response
        }
        let port = try server.start()
        defer { server.shutdown() }
        #expect(server.pendingResponseBytes === pending)
        let slow = try RawClient(port: port)
        slow.send("GET /slow HTTP/1.1\nHost: t\n\n")
        // The fast requests are sent once the slow answer holds its reservation, so they,
        // not it, find no room however the threads are scheduled.
        for _ in 0..<400 where !slowHolds.load(ordering: .acquiring) { usleep(5_000) }
        let held = slowHolds.load(ordering: .acquiring)
        try #require(held, "the slow answer never reserved")
        var refused: RawClient.Response?
        for _ in 0..<100 where refused == nil {
            let other = try RawClient(port: port)
            other.send("GET /fast HTTP/1.1\nHost: t\n\n")
            let response = try other.readResponse()
            if response.status == 503 { refused = response }
        }
        #expect(refused?.bodyText == "full")
        #expect(try slow.readResponse().bodyText == "written")
        // Every reservation was given back once its answer was queued.
        var drained = false
        for _ in 0..<200 where !drained {
            drained = pending.current == 0
            if !drained { usleep(5_000) }
        }
        #expect(drained)
        #expect(refusals.load(ordering: .relaxed) >= 1)
    }

    @Test func accessLogHasOneRecordPerRequest() throws {
        let records = Mutex<[AccessLogRecord]>([])
        try withServer(log: { record in records.withLock { $0.append(record) } }) { port, _ in
            let client = try RawClient(port: port)
            client.send("GET /hello?x HTTP/1.1\nHost: t\n\nGET /missing HTTP/1.1\nHost: t\n\nGET / HTTP/1.1\n\n")
            _ = try client.readResponse()
            _ = try client.readResponse()
            _ = try client.readResponse()
            #expect(client.isClosedByServer())
            // Records are written just after the responses; wait for them (bounded).
            for _ in 0..<500 where records.withLock({ $0.count }) < 3 { usleep(10_000) }
        }
        let logged = records.withLock { $0 }
        #expect(logged.map(\.status) == [200, 404, 400])
        #expect(logged.map(\.target) == ["/hello?x", "/missing", nil])
        #expect(logged.map(\.method) == [.GET, .GET, nil])
        #expect(logged[0].bodyBytes == 5)
        #expect(logged[0].remoteAddress.hasPrefix("127.0.0.1:"))
    }

    /// The server's own answers are logged with the time since the head's first byte, as
    /// handled requests are: a 408 for a head that never ends took the head timeout.
    @Test func aTimeoutIsLoggedWithTheTimeSinceTheHeadBegan() throws {
        var limits = HTTPServerTests.limits
        limits.headTimeout = 0.4
        let records = Mutex<[AccessLogRecord]>([])
        try withServer(limits: limits, log: { record in records.withLock { $0.append(record) } }) { port, _ in
            let client = try RawClient(port: port)
            client.send("GET /hello HTTP/1.1\nHost: t")
            #expect(try client.readResponse().status == 408)
            for _ in 0..<500 where records.withLock({ $0.isEmpty }) { usleep(10_000) }
        }
        let logged = records.withLock { $0 }
        #expect(logged.map(\.status) == [408])
        let duration = try #require(logged.first?.duration)
        #expect(duration >= 0.4 && duration < 5, "logged \(duration) s")
    }
}
