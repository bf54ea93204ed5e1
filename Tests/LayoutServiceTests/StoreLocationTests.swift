@testable import LayoutService
import Testing

/// What `--db` names (``StoreLocation``), and how start-up lines show it without a password.
struct StoreLocationTests {
    @Test func postgreSQLURLsAndPathsAreToldApart() {
        #expect(StoreLocation("postgres://u:p@db:5432/layoutd") == .postgreSQL(url: "postgres://u:p@db:5432/layoutd"))
        #expect(StoreLocation("postgresql://db/layoutd") == .postgreSQL(url: "postgresql://db/layoutd"))
        // Parts left out are libpq's to fill from PG* variables: the URL goes as given.
        #expect(StoreLocation("postgres://") == .postgreSQL(url: "postgres://"))
        #expect(StoreLocation("postgres:") == .postgreSQL(url: nil))
        #expect(StoreLocation("postgresql:") == .postgreSQL(url: nil))
        #expect(StoreLocation("layoutd.db") == .sqlite(path: "layoutd.db"))
        #expect(StoreLocation(":memory:") == .sqlite(path: ":memory:"))
        #expect(StoreLocation("./postgres://x") == .sqlite(path: "./postgres://x"))
        #expect(StoreLocation("POSTGRES://db/x") == .sqlite(path: "POSTGRES://db/x"))
        #expect(StoreLocation("postgres") == .sqlite(path: "postgres"))
    }

    @Test func displayNamesHideThePassword() {
        #expect(StoreLocation("postgres://layoutd:s3cret@db:5432/layoutd").displayName == "postgres://layoutd:***@db:5432/layoutd")
        #expect(StoreLocation("postgres://layoutd@db/layoutd").displayName == "postgres://layoutd@db/layoutd")
        #expect(StoreLocation("postgresql://a:b:c@db/x?sslmode=require&password=hunter2").displayName
                == "postgresql://a:***@db/x?sslmode=require&password=***")
        #expect(StoreLocation("postgres://db?password=x").displayName == "postgres://db?password=***")
        #expect(StoreLocation("postgres:").displayName == "PostgreSQL (PG* environment variables)")
        #expect(StoreLocation("/var/lib/layoutd.db").displayName == "/var/lib/layoutd.db")
    }

    @Test func theStartUpLineSaysWhereGroupsAndCacheAre() {
        #expect(LayoutdCommand.databaseDescription(.sqlite(path: "layoutd.db"), cachePath: "layoutd.db") == "database layoutd.db")
        #expect(LayoutdCommand.databaseDescription(.sqlite(path: "groups.db"), cachePath: "cache.db")
                == "groups in groups.db, result cache in cache.db")
        #expect(LayoutdCommand.databaseDescription(.postgreSQL(url: "postgres://u:pw@h/d"), cachePath: ":memory:")
                == "groups in postgres://u:***@h/d, result cache in :memory:")
    }
}
