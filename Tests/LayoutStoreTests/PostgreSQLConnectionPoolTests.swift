import Foundation
import Synchronization
import Testing
@testable import LayoutStore

/// ``PostgreSQLConnectionPool`` against a real server (scripts/pg-test-cluster.sh).
@Suite("PostgreSQL connection pool", .enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLConnectionPoolTests {
    private static func backendPID(_ pool: PostgreSQLConnectionPool) throws(PostgreSQLError) -> Int32 {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> Int32 in
            Int32(try connection.query("SELECT pg_backend_pid()").first?.int(0) ?? 0)
        }
    }

    @Test func reconnectsATerminatedConnectionOnAcquire() throws {
        let database = try PostgreSQLTestDatabase()
        let pool = PostgreSQLConnectionPool(configuration: database.configuration, size: 1)
        let first = try Self.backendPID(pool)
        #expect(first > 0)
        // The same connection serves the next use.
        #expect(try Self.backendPID(pool) == first)
        // Terminate it while it sits in the pool, and wait for the backend to exit.
        let admin = try database.connect()
        #expect(try admin.query("SELECT pg_terminate_backend($1, 5000)", [first]).first?.bool(0) == true)
        // The pool notices on acquire (PQconsumeInput + PQstatus) and reconnects: no error.
        let second = try Self.backendPID(pool)
        #expect(second > 0)
        #expect(second != first)
        #expect(try Self.backendPID(pool) == second)
    }

    @Test func connectionsAreSharedOneThreadAtATime() throws {
        let database = try PostgreSQLTestDatabase()
        try database.connect().execute("CREATE TABLE t (thread integer, n integer)")
        let pool = PostgreSQLConnectionPool(configuration: database.configuration, size: 3, acquireTimeout: 30)
        let threads = 8
        let perThread = 20
        let pids = Mutex<Set<Int32>>([])
        let failures = Mutex<[PostgreSQLError]>([])
        runOnThreads(threads) { thread in
            for n in 0..<perThread {
                do throws(PostgreSQLError) {
                    let pid = try pool.withConnection { (connection) throws(PostgreSQLError) -> Int32 in
                        try connection.transaction { () throws(PostgreSQLError) -> Int32 in
                            try connection.query("INSERT INTO t VALUES ($1, $2)", [thread, n])
                            return connection.backendPID
                        }
                    }
                    pids.withLock { _ = $0.insert(pid) }
                } catch {
                    failures.withLock { $0.append(error) }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let used = pids.withLock { $0 }
        #expect(used.count >= 1 && used.count <= 3)
        let check = try database.connect()
        #expect(try check.query("SELECT count(*), count(DISTINCT (thread, n)) FROM t").first.map {
            [try $0.int(0), try $0.int(1)]
        } == [threads * perThread, threads * perThread])
        // Never more server processes than the pool's size.
        let backends = try check.query(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).first?.int(0)
        #expect(backends == 3 || backends == used.count)
    }

    @Test func acquireTimesOutWhenEveryConnectionIsHeld() throws {
        let database = try PostgreSQLTestDatabase()
        let pool = PostgreSQLConnectionPool(configuration: database.configuration, size: 1, acquireTimeout: 0.2)
        let holding = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let holder = Thread {
            _ = try? pool.withConnection { (_) throws(PostgreSQLError) -> Int in
                holding.signal()
                finish.wait()
                return 0
            }
            holding.signal()
        }
        holder.start()
        holding.wait()
        do {
            _ = try Self.backendPID(pool)
            Issue.record("acquired a connection another thread holds")
        } catch {
            #expect(error.category == .unavailable)
            #expect(error.message.contains("pool of 1"))
        }
        finish.signal()
        holding.wait()   // the holder has given its connection back
        #expect(try Self.backendPID(pool) > 0)
    }

    @Test func openTransactionIsRolledBackOnRelease() throws {
        let database = try PostgreSQLTestDatabase()
        try database.connect().execute("CREATE TABLE t (x integer)")
        let pool = PostgreSQLConnectionPool(configuration: database.configuration, size: 1)
        try pool.withConnection { (connection) throws(PostgreSQLError) in
            try connection.execute("BEGIN")
            try connection.query("INSERT INTO t VALUES (1)")
        }
        let state = try pool.withConnection { (connection) throws(PostgreSQLError) -> [Int] in
            [connection.isInTransaction ? 1 : 0, try connection.query("SELECT count(*) FROM t").first?.int(0) ?? -1]
        }
        #expect(state == [0, 0])
    }

    @Test(.timeLimit(.minutes(2)))
    func recoversAfterTheServerRestartsAndAfterItWasDown() throws {
        let cluster = try PostgreSQLTestCluster()
        let pool = PostgreSQLConnectionPool(configuration: .init(url: cluster.url, connectTimeout: 2), size: 2)
        let before = try Self.backendPID(pool)
        // A restart terminates every backend: the pool notices on acquire and reconnects.
        try cluster.restart()
        let afterRestart = try Self.backendPID(pool)
        #expect(afterRestart != before)
        // While the server is down, every use fails as unavailable, and nothing is lost.
        try cluster.stop()
        for _ in 0..<3 {
            do {
                _ = try Self.backendPID(pool)
                Issue.record("a stopped server answered")
            } catch {
                #expect(error.category == .unavailable)
            }
        }
        // Back up: the same pool serves again, without being made anew.
        try cluster.start()
        let afterStart = try Self.backendPID(pool)
        #expect(afterStart > 0)
        #expect(afterStart != afterRestart)
        #expect(try Self.backendPID(pool) == afterStart)
    }
}
