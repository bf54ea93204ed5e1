import Foundation
import Synchronization
import Testing
@testable import LayoutStore

/// ``PostgreSQLConnection`` against a real server (scripts/pg-test-cluster.sh), each test in
/// a database of its own.
@Suite("PostgreSQL connection", .enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLConnectionTests {
    @Test func connectsWithTheURLAndItsSettings() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        #expect(connection.isConnected)
        #expect(connection.backendPID > 0)
        let row = try #require(try connection.query(
            "SELECT current_database(), current_setting('client_encoding'), current_setting('application_name')").first)
        #expect(try row.string(0) == database.name)
        #expect(try row.string(1) == "UTF8")
        #expect(try row.string(2) == "layoutd")
    }

    @Test func connectsThroughTheUnixSocketWithAConnectionString() throws {
        let host = try #require(ProcessInfo.processInfo.environment["LAYOUTD_TEST_PG_HOST"])
        let port = try #require(ProcessInfo.processInfo.environment["LAYOUTD_TEST_PG_PORT"])
        let database = try PostgreSQLTestDatabase()
        let connection = try PostgreSQLConnection(
            .init(url: "host=\(host) port=\(port) user=postgres dbname=\(database.name)"))
        let row = try #require(try connection.query("SELECT current_database(), inet_server_addr() IS NULL").first)
        #expect(try row.string(0) == database.name)
        #expect(try row.bool(1))   // no IP address: a unix socket
    }

    @Test func parametersRoundTrip() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        let quoted = #"O'Reilly "quoted" \back\slash'); DROP TABLE x; --"#
        let unicode = "héllo ✓ 𝄞 日本 \u{1F600}"
        let row = try #require(try connection.query(
            "SELECT $1::text, $2::text, $3::text, octet_length($3::text), length($3::text), $4::bigint, $5::bool, $6::float8, $7::text IS NULL",
            [quoted, String?.none, unicode, Int64.min, true, 0.1, String?.none]
        ).first)
        #expect(try row.string(0) == quoted)
        #expect(try row.optionalString(1) == nil)
        #expect(try row.isNull(1))
        #expect(try row.string(2) == unicode)
        #expect(try row.int(3) == unicode.utf8.count)
        #expect(try row.int(4) == unicode.unicodeScalars.count)
        #expect(try row.int64(5) == Int64.min)
        #expect(try row.bool(6) == true)
        #expect(try row.double(7) == 0.1)
        #expect(try row.bool(8))
        #expect(row.columnNames.count == 9)
    }

    @Test func storedValuesComeBackExactly() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (id bigint PRIMARY KEY, body text)")
        let bodies = ["", "'", "\\", "[\"H:|-[a]-|\"]", "\u{7F}\u{1}tab\there", String(repeating: "é", count: 10_000)]
        for (id, body) in bodies.enumerated() {
            let inserted = try connection.query("INSERT INTO t (id, body) VALUES ($1, $2)", [id, body])
            #expect(inserted.affectedRows == 1)
        }
        let rows = try connection.query("SELECT id, body FROM t ORDER BY id").rows
        #expect(try rows.map { try $0.string(1) } == bodies)
        #expect(try rows.map { try $0.int(0) } == Array(bodies.indices))
    }

    @Test func nulByteParameterIsRefusedBeforeSending() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        do {
            try connection.query("SELECT $1::text", ["a\u{0}b"])
            Issue.record("a NUL byte was sent")
        } catch {
            #expect(error.sqlState == "22021")
            #expect(error.message.contains("$1"))
        }
        // The connection is still fine.
        #expect(try connection.query("SELECT 1").first?.int(0) == 1)
    }

    @Test func typedGettersRefuseWrongTypesAndNull() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        let row = try #require(try connection.query("SELECT 'abc' AS word, NULL::bigint AS nothing").first)
        #expect(throws: PostgreSQLError.self) { try row.int(0) }
        #expect(throws: PostgreSQLError.self) { try row.int(1) }
        #expect(throws: PostgreSQLError.self) { try row.string(2) }
        #expect(try row.optionalInt(1) == nil)
        do {
            _ = try row.int(0)
        } catch {
            #expect(error.message == #"column 0 (word) is not an integer: "abc""#)
        }
    }

    @Test func serverErrorCarriesSQLStateAndTheConnectionStaysUsable() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        do {
            try connection.query("SELECT * FROM no_such_table")
            Issue.record("selected from a missing table")
        } catch {
            #expect(error.sqlState == "42P01")
            #expect(error.category == .other)
            #expect(error.message == #"relation "no_such_table" does not exist"#)
            #expect(error.sql == "SELECT * FROM no_such_table")
        }
        #expect(connection.isConnected)
        #expect(try connection.query("SELECT 2").first?.int(0) == 2)
    }

    @Test func uniqueViolationIsMapped() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (name text PRIMARY KEY)")
        try connection.query("INSERT INTO t VALUES ($1)", ["a"])
        do {
            try connection.query("INSERT INTO t VALUES ($1)", ["a"])
            Issue.record("inserted a duplicate key")
        } catch {
            #expect(error.sqlState == "23505")
            #expect(error.category == .uniqueViolation)
        }
    }

    @Test func transactionCommitsOnReturnAndRollsBackOnThrow() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (x integer)")
        let refusal = PostgreSQLError(sqlState: nil, message: "refused by the test")
        do {
            try connection.transaction { () throws(PostgreSQLError) in
                try connection.query("INSERT INTO t VALUES ($1)", [1])
                #expect(connection.isInTransaction)
                throw refusal
            }
            Issue.record("the transaction did not throw")
        } catch {
            #expect(error == refusal)
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.query("SELECT count(*) FROM t").first?.int(0) == 0)

        let returned = try connection.transaction { () throws(PostgreSQLError) -> Int in
            try connection.query("INSERT INTO t VALUES ($1), ($2)", [2, 3]).affectedRows ?? -1
        }
        #expect(returned == 2)
        #expect(try connection.query("SELECT sum(x) FROM t").first?.int(0) == 5)
    }

    @Test func failedStatementInsideMakesTheTransactionFailNotCommit() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (x integer PRIMARY KEY)")
        do {
            try connection.transaction { () throws(PostgreSQLError) in
                try connection.query("INSERT INTO t VALUES ($1)", [1])
                // Swallowed: the transaction is now failed, and must not pretend to commit.
                _ = try? connection.query("INSERT INTO t VALUES ($1)", [1])
            }
            Issue.record("a failed transaction committed")
        } catch {
            #expect(error.sqlState == "25P02")
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.query("SELECT count(*) FROM t").first?.int(0) == 0)
    }

    @Test func transactionRetriesSerializationFailure() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE t (attempt integer)")
        var attempts = 0
        let committed = try connection.transaction(isolation: .serializable) { () throws(PostgreSQLError) -> Int in
            attempts += 1
            try connection.query("INSERT INTO t VALUES ($1)", [attempts])
            if attempts < 3 {
                try connection.execute("DO $$ BEGIN RAISE EXCEPTION 'lost' USING ERRCODE = 'serialization_failure'; END $$")
            }
            return attempts
        }
        #expect(committed == 3)
        #expect(attempts == 3)
        // The failed attempts' rows were rolled back.
        #expect(try connection.query("SELECT array_agg(attempt)::text FROM t").first?.string(0) == "{3}")
    }

    @Test func transactionRetriesDeadlockAndGivesUpAfterMaxAttempts() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        var attempts = 0
        do {
            try connection.transaction(maxAttempts: 4) { () throws(PostgreSQLError) in
                attempts += 1
                try connection.execute("DO $$ BEGIN RAISE EXCEPTION 'lost' USING ERRCODE = 'deadlock_detected'; END $$")
            }
            Issue.record("the transaction did not throw")
        } catch {
            #expect(error.sqlState == "40P01")
            #expect(error.category == .conflict)
        }
        #expect(attempts == 4)
        #expect(!connection.isInTransaction)
    }

    @Test func otherErrorsAreNotRetried() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        var attempts = 0
        #expect(throws: PostgreSQLError.self) {
            try connection.transaction { () throws(PostgreSQLError) in
                attempts += 1
                try connection.execute("SELECT 1/0")
            }
        }
        #expect(attempts == 1)
    }

    @Test func realSerializationFailureIsAConflict() throws {
        let database = try PostgreSQLTestDatabase()
        let first = try database.connect()
        let second = try database.connect()
        try first.execute("CREATE TABLE t (x integer)")
        // Write skew: each reads the other's future write; the second COMMIT must fail.
        try first.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try second.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try first.query("SELECT count(*) FROM t")
        try second.query("SELECT count(*) FROM t")
        try first.query("INSERT INTO t VALUES (1)")
        try second.query("INSERT INTO t VALUES (2)")
        try first.execute("COMMIT")
        do {
            try second.execute("COMMIT")
            Issue.record("write skew committed under SERIALIZABLE")
        } catch {
            #expect(error.sqlState == "40001")
            #expect(error.isRetryable)
        }
    }

    @Test func terminatedBackendIsDetected() throws {
        let database = try PostgreSQLTestDatabase()
        let victim = try database.connect()
        let admin = try database.connect()
        let pid = victim.backendPID
        #expect(try admin.query("SELECT pg_terminate_backend($1, 5000)", [pid]).first?.bool(0) == true)
        // libpq notices only when it reads: `isConnected` alone still says yes.
        #expect(victim.isConnected)
        #expect(!victim.checkAlive())
        #expect(!victim.isConnected)
        do {
            try victim.query("SELECT 1")
            Issue.record("a terminated connection answered")
        } catch {
            #expect(error.category == .unavailable)
        }
        try victim.reset()
        #expect(victim.isConnected)
        #expect(victim.backendPID != pid)
        #expect(try victim.query("SELECT current_database()").first?.string(0) == database.name)
    }

    @Test func queryOnATerminatedConnectionIsUnavailable() throws {
        let database = try PostgreSQLTestDatabase()
        let victim = try database.connect()
        let admin = try database.connect()
        let pid = victim.backendPID
        #expect(try admin.query("SELECT pg_terminate_backend($1, 5000)", [pid]).first?.bool(0) == true)
        // Without checkAlive: the statement itself finds the connection gone.
        do {
            try victim.query("SELECT 1")
            Issue.record("a terminated connection answered")
        } catch {
            #expect(error.category == .unavailable)
        }
        #expect(!victim.isConnected)
        #expect(!victim.checkAlive())
    }

    @Test func closedConnectionRefusesCalls() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        connection.close()
        connection.close()
        #expect(!connection.isConnected)
        #expect(connection.backendPID == 0)
        do {
            try connection.query("SELECT 1")
            Issue.record("a closed connection answered")
        } catch {
            #expect(error.category == .unavailable)
            #expect(error.message == "the connection is closed")
        }
    }
}
