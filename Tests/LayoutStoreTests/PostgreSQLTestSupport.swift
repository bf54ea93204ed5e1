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
