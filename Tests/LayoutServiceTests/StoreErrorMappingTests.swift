import Testing
@testable import LayoutService
@testable import LayoutStore

/// ``LayoutService/storeFailure(_:groupName:)`` for the PostgreSQL store's errors: an
/// unavailable database is 503 with `Retry-After`, any other PostgreSQL error 500 (whose
/// detail does not leak the server's message).
@Suite("Store error mapping")
struct StoreErrorMappingTests {
    @Test func unavailableIs503WithRetryAfter() throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        let response = service.storeFailure(.unavailable("PostgreSQL client error: connection refused"), groupName: "g")
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "5")
        #expect(String(decoding: response.body, as: UTF8.self).contains("The database is unavailable; try again"))
    }

    @Test func otherPostgreSQLErrorsAre500() throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        let error = StoreError(PostgreSQLError(sqlState: "42P01", message: "relation \"secret_table\" does not exist"))
        #expect(error == .postgreSQL(PostgreSQLError(sqlState: "42P01", message: "relation \"secret_table\" does not exist")))
        let response = service.storeFailure(error, groupName: "g")
        #expect(response.status == 500)
        #expect(response.headers["Retry-After"] == nil)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("secret_table"))
        #expect(StoreError(PostgreSQLError(sqlState: "57P01", message: "terminating connection")) == .unavailable("PostgreSQL error 57P01: terminating connection"))
        #expect(StoreError(PostgreSQLError(sqlState: "53100", message: "disk full")) == .full)
    }
}
