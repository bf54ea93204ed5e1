#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HTTP1
@testable import LayoutService
import LayoutStore
import Testing

/// The service's loop handler (``LayoutService/makeLoopHandler(router:log:)``): which
/// requests it answers on the I/O thread, that its answers are the workers' bytes, and,
/// through a real server, that a front cache hit never reaches a worker and that
/// pipelined hits and misses keep their order.
@Suite(.serialized)
struct LoopAnswerTests {
    static let scene = HandlerTests.scene
    /// Another scene (other widths), so it misses while ``scene`` hits.
    static let otherScene = #"{"container":{"width":200,"height":100},"views":["a","b"],"constraints":["H:|-[a]-[b(==a)]-|","V:|-[a]-|","V:|-[b]-|"]}"#

    static func request(_ method: HTTPMethod, _ target: String, _ body: String = "", headers: HTTPFields = [:]) -> HTTPRequest {
        var fields = headers
        fields.append("Host", "test")
        fields.append("X-Request-Id", "fixed")
        return HTTPRequest(method: method, target: target, headers: fields, body: Array(body.utf8))
    }

    @Test func answersHitsHealthAndUnknownPathsOnlyWithTheWorkersBytes() throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        let router = service.makeRouter()
        let handler = service.makeHandler(router: router)
        let onLoop = service.makeLoopHandler(router: router)
        let solve = Self.request(.POST, "/solve", Self.scene, headers: ["Content-Type": "application/json"])
        // Not cached yet: left to the workers.
        #expect(onLoop(solve) == nil)
        let miss = handler(solve)
        #expect(miss.headers["Cache-Status"] == "layoutd; fwd=miss; stored")
        // Cached: the loop answers with the bytes and fields a worker gives a hit.
        let hit = try #require(onLoop(solve))
        #expect(hit.status == 200)
        #expect(hit.body == miss.body)
        #expect(hit.headers["Cache-Status"] == "layoutd; hit")
        #expect(hit == handler(solve))
        // The same body asking for no cache, an SVG, or with a query: the workers'.
        #expect(onLoop(Self.request(.POST, "/solve", Self.scene, headers: ["Cache-Control": "no-cache"])) == nil)
        #expect(onLoop(Self.request(.POST, "/solve", Self.scene, headers: ["Accept": "image/svg+xml"])) == nil)
        #expect(onLoop(Self.request(.POST, "/solve?format=json", Self.scene)) == nil)
        #expect(onLoop(Self.request(.POST, "/solve", Self.scene, headers: ["Content-Type": "text/plain"])) == nil)
        // /validate: a hit once validated.
        let validate = Self.request(.POST, "/validate", Self.scene)
        #expect(onLoop(validate) == nil)
        let verdict = handler(validate)
        #expect(verdict.status == 200)
        #expect(onLoop(validate) == verdict)
        // Health and unknown paths: answered; the store's routes: not.
        let health = try #require(onLoop(Self.request(.GET, "/healthz")))
        #expect(health == handler(Self.request(.GET, "/healthz")))
        #expect(String(decoding: health.body, as: UTF8.self) == #"{"status":"ok"}"#)
        let notFound = try #require(onLoop(Self.request(.GET, "/nowhere")))
        #expect(notFound.status == 404)
        #expect(notFound == handler(Self.request(.GET, "/nowhere")))
        #expect(onLoop(Self.request(.GET, "/metrics")) == nil)
        #expect(onLoop(Self.request(.GET, "/readyz")) == nil)
        #expect(onLoop(Self.request(.GET, "/groups")) == nil)
        #expect(onLoop(Self.request(.PUT, "/groups/x", "{}")) == nil)
    }

    @Test func ioThreadsAreReadFromTheFlagOrTheEnvironmentWithinTheirBounds() throws {
        let base = ["--db", ":memory:"]
        #expect(try ServeOptions(parsing: base, environment: [:]).ioThreads == ProcessInfo.processInfo.activeProcessorCount)
        #expect(try ServeOptions(parsing: base + ["--io-threads", "3"], environment: [:]).ioThreads == 3)
        #expect(try ServeOptions(parsing: base, environment: ["LAYOUTD_IO_THREADS": "4"]).ioThreads == 4)
        for bad in ["0", "257"] {
            do {
                _ = try ServeOptions(parsing: base + ["--io-threads", bad], environment: [:])
                Issue.record("--io-threads \(bad) was accepted")
            } catch {
                #expect(error.message == "--io-threads must be 1…256")
            }
        }
    }

    /// A server like `layoutd serve`'s: the service's handler on the workers, its loop
    /// handler on `ioThreads` loops.
    static func withServer(ioThreads: Int, _ body: (Int, HTTPServer) throws -> Void) throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        let router = service.makeRouter()
        let server = HTTPServer(host: "127.0.0.1", port: 0, workerCount: 2, isExpensive: { $0.method == .POST },
                                ioThreads: ioThreads, loopHandler: service.makeLoopHandler(router: router),
                                handler: service.makeHandler(router: router))
        let port = try server.start()
        defer { server.shutdown() }
        try body(port, server)
    }

    @Test(arguments: [1, 2, 4])
    func aFrontCacheHitNeverReachesAWorker(ioThreads: Int) throws {
        try Self.withServer(ioThreads: ioThreads) { port, server in
            let client = try Client(port: port)
            let solve = Client.post("/solve", Self.scene)
            client.send(solve)
            let miss = try client.readResponse()
            #expect(miss.head.contains("Cache-Status: layoutd; fwd=miss; stored"))
            #expect(server.answeredCounts == (onLoops: 0, byWorkers: 1))
            for _ in 0..<3 {
                client.send(solve)
                let hit = try client.readResponse()
                #expect(hit.head.hasPrefix("HTTP/1.1 200 OK\r\n"))
                #expect(hit.head.contains("Cache-Status: layoutd; hit"))
                #expect(hit.body == miss.body)
            }
            #expect(server.answeredCounts == (onLoops: 3, byWorkers: 1))
        }
    }

    @Test(arguments: [1, 2, 4])
    func pipelinedHitsAndMissesKeepTheirOrder(ioThreads: Int) throws {
        try Self.withServer(ioThreads: ioThreads) { port, server in
            let warm = try Client(port: port)
            warm.send(Client.post("/solve", Self.scene))
            let cached = try warm.readResponse().body
            // hit, miss, hit, 404, miss (the same scene, now a front cache hit), hit: one
            // write, each request with its own X-Request-Id, which its answer echoes.
            let client = try Client(port: port)
            client.send(Client.post("/solve", Self.scene, id: "r0") + Client.post("/solve", Self.otherScene, id: "r1")
                        + Client.post("/solve", Self.scene, id: "r2")
                        + Array("GET /nowhere HTTP/1.1\r\nHost: test\r\nX-Request-Id: r3\r\n\r\n".utf8)
                        + Client.post("/solve", Self.otherScene, id: "r4") + Client.post("/solve", Self.scene, id: "r5"))
            let answers = try (0..<6).map { _ in try client.readResponse() }
            #expect(answers.map { Client.field("X-Request-Id", of: $0) } == ["r0", "r1", "r2", "r3", "r4", "r5"])
            // The hit ahead of the miss is answered on the loop; the miss, and everything
            // pipelined behind it, by the worker that answers the miss (after the warm-up's).
            #expect(server.answeredCounts == (onLoops: 1, byWorkers: 6))
            #expect(answers.map(\.body).enumerated().filter { [0, 2, 5].contains($0.offset) }.allSatisfy { $0.element == cached })
            #expect(answers[1].head.contains("Cache-Status: layoutd; fwd=miss; stored"))
            #expect(answers[3].head.hasPrefix("HTTP/1.1 404 "))
            #expect(answers[4].head.contains("Cache-Status: layoutd; hit"))
            #expect(answers[4].body == answers[1].body)
            let other = String(decoding: answers[1].body, as: UTF8.self)
            #expect(other.contains(#""a":{"x":20,"y":20,"width":76,"height":60}"#), "\(other)")
        }
    }
}

/// A blocking client on a raw TCP socket for these tests: exact bytes out, one
/// `Content-Length` response at a time in (reads give up after 10 s).
final class Client {
    struct Response {
        var head: String
        var body: [UInt8]
    }

    enum Failure: Error { case connect(Int32), closedEarly }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure.connect(code)
        }
        var time = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// A `POST` of `body` as JSON to `path`, with `X-Request-Id: id` when `id` is given.
    static func post(_ path: String, _ body: String, id: String? = nil) -> [UInt8] {
        let idField = id.map { "X-Request-Id: \($0)\r\n" } ?? ""
        return Array("POST \(path) HTTP/1.1\r\nHost: test\r\n\(idField)Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }

    /// The value of the field `name` (case-insensitive) in `response`'s head, or `nil`.
    static func field(_ name: String, of response: Response) -> String? {
        for line in response.head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            offset += count
        }
    }

    func readResponse() throws -> Response {
        while true {
            if let end = buffer.indices.dropLast(3).first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let lengthLine = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                let length = lengthLine.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                while buffer.count < end + 4 + length { try fill() }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return Response(head: head, body: body)
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { throw Failure.closedEarly }
        buffer.append(contentsOf: chunk[..<count])
    }
}
