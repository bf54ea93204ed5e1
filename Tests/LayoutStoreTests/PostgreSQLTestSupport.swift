import Foundation
import Synchronization
import Testing
@testable import LayoutStore

/// The PostgreSQL server the PostgreSQL tests use: `LAYOUTD_TEST_PG_URL`, as
/// scripts/pg-test-cluster.sh exports it (a superuser, so tests can create and drop
/// databases and terminate backends).
enum PostgreSQLTestServer {
    /// The server's URL, or `nil` when the tests are to be skipped.
    static let url: String? = {
        guard let url = ProcessInfo.processInfo.environment["LAYOUTD_TEST_PG_URL"], !url.isEmpty else { return nil }
        return url
    }()

    /// Whether a server was given.
    static var isAvailable: Bool { url != nil }

    /// Why the tests are skipped without one.
    static let skipReason: Comment =
        "LAYOUTD_TEST_PG_URL is not set: run scripts/pg-test-cluster.sh -- swift test --skip-build --filter PostgreSQL"

    /// A connection to the server's own database (`postgres`), for administration.
    static func adminConnection() throws -> PostgreSQLConnection {
        let url: String = try #require(url)
        return try PostgreSQLConnection(.init(url: url))
    }
}

/// A new, empty database on the test server, dropped (with any connections still in it)
/// when this value is released.
final class PostgreSQLTestDatabase {
    /// The database's name: `layoutd_test_` and 32 hex digits.
    let name: String
    /// Connects to this database.
    let configuration: PostgreSQLConnection.Configuration

    init() throws {
        let url = try #require(PostgreSQLTestServer.url)
        name = "layoutd_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        configuration = .init(url: url, database: name)
        // An identifier cannot be a parameter; the name is our own hex text.
        try PostgreSQLTestServer.adminConnection().execute("CREATE DATABASE \(name)")
    }

    /// A new connection to this database.
    func connect() throws -> PostgreSQLConnection {
        try PostgreSQLConnection(configuration)
    }

    deinit {
        try? PostgreSQLTestServer.adminConnection().execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}

/// Runs `body(i)` for i in 0..<count on `count` threads of their own, all released at
/// once after every one has started, and returns when all have finished.
/// (`DispatchQueue.concurrentPerform` would run no more at once than there are cores.)
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchSemaphore(value: 0)
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            ready.signal()
            start.wait()
            body(index)
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { start.signal() }
    done.wait()
}

/// A loopback TCP port nobody listens on (bound, then closed), for connection failures.
func closedLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    try #require(bound == 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    try #require(named == 0)
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A cluster of its own, started with `scripts/pg-test-cluster.sh --control`, for tests
/// that stop or restart the server and so must not share it. Stopped and removed when
/// this value is released (the script ends at the end of its input).
final class PostgreSQLTestCluster {
    /// The cluster's URL (superuser `postgres`, database `postgres`).
    let url: String
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()

    init() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        process.executableURL = repository.appendingPathComponent("scripts/pg-test-cluster.sh")
        process.arguments = ["--control"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let first = Self.nextLine(from: output, buffer: &pending)
        let line = try #require(first, "pg-test-cluster.sh printed no URL")
        let prefix = "LAYOUTD_TEST_PG_URL="
        try #require(line.hasPrefix(prefix), "unexpected line: \(line)")
        url = String(line.dropFirst(prefix.count))
    }

    /// `pg_ctl restart -m fast`; returns when the server accepts connections again.
    func restart() throws { try control("restart", expecting: "restarted") }
    /// `pg_ctl stop -m fast`; returns when the server is down.
    func stop() throws { try control("stop", expecting: "stopped") }
    /// Starts the stopped server again on the same port.
    func start() throws { try control("start", expecting: "started") }

    private func control(_ command: String, expecting answer: String) throws {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        let next = Self.nextLine(from: output, buffer: &pending)
        let line = try #require(next, "pg-test-cluster.sh ended")
        try #require(line == answer, "pg-test-cluster.sh answered \(line)")
    }

    /// The script's next line of output; `nil` when it ended.
    private static func nextLine(from output: Pipe, buffer pending: inout Data) -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                return line
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { return nil }
            pending.append(more)
        }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
