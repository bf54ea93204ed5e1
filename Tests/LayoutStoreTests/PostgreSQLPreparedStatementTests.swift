import Foundation
import Testing
@testable import LayoutStore

/// ``PostgreSQLConnection/queryPrepared(_:_:)``: prepared once per session, run by name,
/// prepared again after a reset or when the server forgot it.
@Suite("PostgreSQL prepared statements", .enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLPreparedStatementTests {
    static let sql = "SELECT $1::int + 1, $2::text"

    private static func prepared(_ connection: PostgreSQLConnection) throws -> [String] {
        try connection.query("SELECT name FROM pg_prepared_statements ORDER BY name").rows.map { try $0.string(0) }
    }

    @Test func preparedOncePerSessionAndAgainWhenForgotten() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        let name = PostgreSQLConnection.statementName(Self.sql)
        #expect(name.hasPrefix("layoutd_") && name.count == 24)
        #expect(try Self.prepared(connection) == [])
        for value in [1, 41] {
            let row = try #require(try connection.queryPrepared(Self.sql, [value, "x"]).first)
            #expect(try row.int(0) == value + 1)
            #expect(try row.string(1) == "x")
        }
        #expect(try Self.prepared(connection) == [name])

        // The server forgets it (DEALLOCATE): SQLSTATE 26000, prepared again once.
        try connection.execute("DEALLOCATE ALL")
        #expect(try connection.queryPrepared(Self.sql, [2, "y"]).first?.int(0) == 3)
        #expect(try Self.prepared(connection) == [name])

        // A reset starts a new session: prepared again there.
        let before = connection.backendPID
        try connection.reset()
        #expect(connection.backendPID != before)
        #expect(try connection.queryPrepared(Self.sql, [9, "z"]).first?.int(0) == 10)
        #expect(try Self.prepared(connection) == [name])
    }

    @Test func errorsAreThoseOfQuery() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try database.connect()
        do {
            try connection.queryPrepared("SELECT $1::int", ["not a number"])
            Issue.record("a bad integer was accepted")
        } catch {
            #expect(error.sqlState == "22P02")
            #expect(error.category == .other)
        }
        do {
            try connection.queryPrepared("SELEC 1")
            Issue.record("bad SQL was accepted")
        } catch {
            #expect(error.sqlState == "42601")
        }
        // The connection is still usable.
        #expect(try connection.queryPrepared("SELECT $1::int", [5]).first?.int(0) == 5)
    }
}
