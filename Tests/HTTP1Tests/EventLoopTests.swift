#if canImport(Glibc)
import Glibc
#endif
import CLayoutdSystem
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import HTTP1

/// The event loops (`ioThreads`): which thread answers a request, the order of answers
/// made on different threads, how connections spread over the loops, and what an idle
/// connection holds. Real servers on 127.0.0.1:0, raw bytes over sockets.
@Suite(.serialized)
struct EventLoopTests {
    /// The threads (`pthread_self()`) that made each answer, in the order they were made.
    final class Threads: Sendable {
        let ids = Mutex<[UInt]>([])
        func record() { ids.withLock { $0.append(UInt(pthread_self())) } }
        /// For each answer, the index of the server's loop whose thread made it, or
        /// nil for another thread (a worker).
        func loops(of server: HTTPServer) -> [Int?] {
            let loopIDs = server.loopThreadIDs
            return ids.withLock { $0 }.map { loopIDs.firstIndex(of: $0) }
        }
    }

    /// A server whose loop handler answers `GET /hit…` (body: the query) and whose worker
    /// handler answers `/hit…` too, `/miss` (body `miss`) and `/slow` (waits for `gate`).
    func withServer(ioThreads: Int, limits: ServerLimits = HTTPServerTests.limits, gate: HTTPServerTests.Gate = .init(),
                    threads: Threads = Threads(), _ body: (Int, HTTPServer) throws -> Void) throws {
        let hit: @Sendable (HTTPRequest) -> HTTPResponse = { request in
            threads.record()
            return HTTPResponse(status: 200, body: Array("hit \(request.query ?? "")".utf8))
        }
        let server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, workerCount: 2, ioThreads: ioThreads,
                                loopHandler: { request in request.path == "/hit" ? hit(request) : nil }) { request in
            switch request.path {
            case "/hit": return hit(request)
            case "/slow":
                gate.entered.signal()
                gate.semaphore.wait()
                threads.record()
                return HTTPResponse(status: 200, body: Array("slow".utf8))
            case "/echo":
                return HTTPResponse(status: 200, body: request.body)
            default:
                threads.record()
                return HTTPResponse(status: 200, body: Array("miss".utf8))
            }
        }
        let port = try server.start()
        defer {
            gate.open(8)
            server.shutdown()
        }
        #expect(server.ioThreadCount == ioThreads)
        try body(port, server)
    }

    @Test(arguments: [1, 2, 4])
    func aLoopHandlerAnswerIsMadeOnTheIOThreadWithoutAWorker(ioThreads: Int) throws {
        let threads = Threads()
        try withServer(ioThreads: ioThreads, threads: threads) { port, server in
            let client = try RawClient(port: port)
            for index in 0..<3 {
                client.send("GET /hit?\(index) HTTP/1.1\nHost: t\n\n")
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.bodyText == "hit \(index)")
            }
            #expect(server.answeredCounts == (onLoops: 3, byWorkers: 0))
            client.send("GET /miss HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().bodyText == "miss")
            #expect(server.answeredCounts == (onLoops: 3, byWorkers: 1))
            let loops = threads.loops(of: server)
            #expect(loops.count == 4)
            #expect(loops.prefix(3).allSatisfy { $0 != nil }, "\(loops)")
            #expect(loops.last == .some(nil), "the miss was answered on loop \(String(describing: loops.last))")
        }
    }

    @Test(arguments: [1, 2, 4])
    func pipelinedHitsBehindAMissWaitForItsAnswer(ioThreads: Int) throws {
        let gate = HTTPServerTests.Gate()
        try withServer(ioThreads: ioThreads, gate: gate) { port, server in
            let client = try RawClient(port: port)
            client.send("GET /hit?a HTTP/1.1\nHost: t\n\nGET /slow HTTP/1.1\nHost: t\n\nGET /hit?b HTTP/1.1\nHost: t\n\nGET /hit?c HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().bodyText == "hit a")
            gate.entered.wait()
            // The hits behind the miss are parsed (the bytes came in one segment) but not
            // answered ahead of it: nothing more has been written.
            usleep(100_000)
            var byte: UInt8 = 0
            let early = recv(client.fd, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
            #expect(early == -1 && (errno == EAGAIN || errno == EWOULDBLOCK), "an answer was written ahead of /slow's")
            gate.open()
            #expect(try client.readResponse().bodyText == "slow")
            #expect(try client.readResponse().bodyText == "hit b")
            #expect(try client.readResponse().bodyText == "hit c")
            // The hit before the miss was answered on the loop; the miss and what queued
            // behind it by the worker that answered the miss.
            #expect(server.answeredCounts == (onLoops: 1, byWorkers: 3))
            client.send("GET /hit?d HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().bodyText == "hit d")
            #expect(server.answeredCounts == (onLoops: 2, byWorkers: 3))
        }
    }

    @Test(arguments: [1, 2, 4])
    func connectionsAreServedRoundRobinByTheLoops(ioThreads: Int) throws {
        let threads = Threads()
        try withServer(ioThreads: ioThreads, threads: threads) { port, server in
            var clients: [RawClient] = []
            for index in 0..<(4 * ioThreads) {
                let client = try RawClient(port: port)
                client.send("GET /hit?\(index) HTTP/1.1\nHost: t\n\n")
                #expect(try client.readResponse().bodyText == "hit \(index)")
                clients.append(client)
            }
            let loops = threads.loops(of: server)
            let perLoop = (0..<ioThreads).map { loop in loops.filter { $0 == loop }.count }
            #expect(perLoop == Array(repeating: 4, count: ioThreads), "\(loops)")
            #expect(server.acceptedCounts.reduce(0, +) == 4 * ioThreads)
        }
    }

    /// Resident memory (`VmRSS` of /proc/self/status), bytes, after giving the
    /// allocator's free pages back to the system (`malloc_trim(0)`), so what is counted
    /// is what the process holds, not what the allocator keeps for reuse.
    static func residentBytes() throws -> Int {
        _ = malloc_trim(0)
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// The bound docs/operations.md gives for an idle keep-alive connection's memory in
    /// the server (its `Connection`, state machine and parser, without a receive
    /// buffer), bytes. The client ends of the connections, in this process too, are
    /// counted against it as well, and so is what other suites running in parallel
    /// allocate meanwhile (alone: about 1.3 KB each; with its receive buffer kept, a
    /// connection held 50 KB).
    static let idleConnectionBound = 16 * 1024

    @Test func idleKeepAliveConnectionsHoldNoReceiveBuffer() throws {
        // Client and server ends of 2,000 connections live in this process.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 8192 {
            limit.rlim_cur = min(8192, limit.rlim_max)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        var limits = HTTPServerTests.limits
        limits.maxBodyBytes = 64 << 10
        limits.idleTimeout = 60
        try withServer(ioThreads: 2, limits: limits) { port, server in
            let connections = 2000
            // Each request's body (48 KiB) fills most of a 64 KiB read: a connection that
            // kept its receive buffer between requests would hold that much.
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 48 << 10)
            let request = Array("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            var held: [RawClient] = []
            held.reserveCapacity(connections)
            // One connection first, so the threads, buffers and pools every connection
            // shares exist before the baseline is taken.
            let warm = try RawClient(port: port)
            warm.send(request)
            #expect(try warm.readResponse().body.count == body.count)
            held.append(warm)
            let before = try Self.residentBytes()
            for _ in 0..<connections {
                let client = try RawClient(port: port)
                client.send(request)
                #expect(try client.readResponse().body.count == body.count)
                held.append(client)
            }
            #expect(server.openConnectionCount == connections + 1)
            #expect(server.pendingRequestBytes.current == 0)
            let grown = try Self.residentBytes() - before
            #expect(grown < connections * Self.idleConnectionBound,
                    "\(connections) idle connections added \(grown) bytes (\(grown / connections) each)")
        }
    }
}
