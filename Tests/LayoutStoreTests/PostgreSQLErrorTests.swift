import Foundation
import Testing
@testable import LayoutStore

/// The parts of the PostgreSQL layer that need no server: SQLSTATE categories, the
/// connection keywords, parameter texts, and a refused connection.
@Suite("PostgreSQL without a server")
struct PostgreSQLErrorTests {
    @Test("SQLSTATE categories", arguments: [
        ("40001", PostgreSQLError.Category.conflict), ("40P01", .conflict),
        ("23505", .uniqueViolation), ("53100", .full),
        ("25006", .unavailable), ("53300", .unavailable), ("57P01", .unavailable),
        ("57P03", .unavailable), ("08006", .unavailable), ("08001", .unavailable),
        ("57014", .unavailable), ("55P03", .unavailable),
        ("23503", .other), ("42P01", .other), ("22021", .other), ("25P02", .other),
    ])
    func sqlStateCategories(_ sqlState: String, _ expected: PostgreSQLError.Category) {
        #expect(PostgreSQLError.category(sqlState: sqlState) == expected)
        #expect(PostgreSQLError(sqlState: sqlState, message: "m").category == expected)
        #expect(PostgreSQLError(sqlState: sqlState, message: "m").isRetryable == (expected == .conflict))
    }

    @Test func noSQLStateIsOtherUnlessTheFunnelSaysLost() {
        #expect(PostgreSQLError.category(sqlState: nil) == .other)
        #expect(PostgreSQLError(sqlState: nil, message: "m", category: .unavailable).category == .unavailable)
    }

    @Test func keywordsPutTheURLBetweenDefaultsAndOverrides() {
        let configuration = PostgreSQLConnection.Configuration(
            url: "postgres://u@h:5433/a?connect_timeout=30", database: "b", connectTimeout: 3)
        let pairs = configuration.keywordValues
        let keys = pairs.map(\.0)
        #expect(keys == ["application_name", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
                         "tcp_user_timeout", "dbname", "dbname", "connect_timeout", "client_encoding"])
        #expect(pairs[6].1 == "postgres://u@h:5433/a?connect_timeout=30")
        #expect(pairs[7].1 == "b")
        #expect(pairs[8].1 == "3")
        #expect(pairs[9].1 == "UTF8")
        // Without a URL libpq's PG* variables decide: no dbname at all.
        #expect(!PostgreSQLConnection.Configuration(url: nil).keywordValues.contains { $0.0 == "dbname" })
    }

    @Test("parameter texts", arguments: [
        (Int64.min as any PostgreSQLBindable, "-9223372036854775808" as String?),
        (Int32.max, "2147483647"), (42, "42"), (true, "t"), (false, "f"),
        (0.1, "0.1"), (-1.5e-300, "-1.5e-300"), (Double.infinity, "Infinity"), (-Double.infinity, "-Infinity"),
        (Double.nan, "NaN"), ("it's", "it's"), (String?.none, nil), (Int?.some(7), "7"),
    ])
    func parameterTexts(_ value: any PostgreSQLBindable, _ expected: String?) {
        #expect(value.postgreSQLText == expected)
    }

    @Test func refusedConnectionIsUnavailable() throws {
        let port = try closedLoopbackPort()
        do {
            _ = try PostgreSQLConnection(.init(url: "postgresql://nobody@127.0.0.1:\(port)/none", connectTimeout: 2))
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.category == .unavailable)
            #expect(error.sqlState == nil)
            #expect(error.message.contains("127.0.0.1"))
            #expect(error.message.contains(String(port)))
        }
    }

    @Test func malformedURLIsRefusedWithLibpqsMessage() {
        do {
            _ = try PostgreSQLConnection(.init(url: "postgresql://[::1", connectTimeout: 2))
            Issue.record("connected with a malformed URL")
        } catch {
            #expect(error.sqlState == nil)
            #expect(error.message.contains("IPv6 host address"))
        }
    }

    @Test func poolWithoutAServerAnswersUnavailable() throws {
        let port = try closedLoopbackPort()
        let pool = PostgreSQLConnectionPool(
            configuration: .init(url: "postgresql://nobody@127.0.0.1:\(port)/none", connectTimeout: 2), size: 2)
        for _ in 0..<3 {
            do {
                _ = try pool.withConnection { (connection) throws(PostgreSQLError) -> Int in
                    try connection.query("SELECT 1").first?.int(0) ?? 0
                }
                Issue.record("a pool without a server answered")
            } catch {
                #expect(error.category == .unavailable)
            }
        }
    }
}
