import Foundation
import Synchronization
import Testing
@testable import LayoutService
@testable import LayoutStore

/// Which stores `serve` opens for `--db` and `--cache-db` (``LayoutdCommand/openStores(_:cacheDB:settings:report:)``).
struct ServeStoresTests {
    private static func temporaryPath(_ tag: String) -> String {
        NSTemporaryDirectory() + "layoutd-serve-\(tag)-" + UUID().uuidString + ".db"
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-reserve"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func aSQLiteDBHoldsGroupsAndCacheUnlessCacheDBSaysOtherwise() throws {
        let db = Self.temporaryPath("db")
        defer { Self.remove(db) }
        var settings = LayoutdCommand.StoreSettings()
        settings.diskReserveBytes = 0
        let one = try LayoutdCommand.openStores(.sqlite(path: db), cacheDB: nil, settings: settings) { _ in }
        #expect(one.cachePath == db)
        #expect((one.groups as? SQLiteStore) === one.cache)
        one.cache.close()

        let cache = Self.temporaryPath("cache")
        defer { Self.remove(cache) }
        let two = try LayoutdCommand.openStores(.sqlite(path: db), cacheDB: cache, settings: settings) { _ in }
        #expect(two.cachePath == cache)
        let groups = try #require(two.groups as? SQLiteStore)
        #expect(groups !== two.cache)
        // The groups are written to --db; results go to the cache file, not tied to groups there.
        _ = try groups.putGroup(name: "row", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(try two.cache.groupCount() == 0)
        #expect(try groups.groupCount() == 1)
        let service = LayoutService(store: two.cache, groupStore: two.groups)
        #expect(!service.groupsShareCacheStore)
        // A SQLite lookup is a statement in this process: no coalescing, in either file.
        #expect(!groups.lookupsAreRoundTrips && service.versionResolver == nil)
        #expect(LayoutService(store: groups).groupsShareCacheStore)
        groups.close()
        two.cache.close()
    }

    @Test func aFileThatCannotBeOpenedIsNamed() {
        let missingFolder = NSTemporaryDirectory() + "layoutd-no-such-folder-" + UUID().uuidString + "/groups.db"
        do {
            _ = try LayoutdCommand.openStores(.sqlite(path: missingFolder), cacheDB: ":memory:", settings: .init()) { _ in }
            Issue.record("a database in a missing folder opened")
        } catch {
            #expect(error.path == missingFolder)
            guard case .cannotOpen = error.error else {
                Issue.record("not cannotOpen: \(error.error)")
                return
            }
        }
    }

    @Test func aPostgreSQLDBKeepsTheCacheInMemoryAndDoesNotWaitForTheServer() throws {
        // A port nobody listens on: the store is returned at once and keeps trying.
        let lines = Mutex<[String]>([])
        let stores = try LayoutdCommand.openStores(.postgreSQL(url: "postgresql://layoutd@127.0.0.1:1/layoutd"), cacheDB: nil,
                                                   settings: .init()) { line in lines.withLock { $0.append(line) } }
        #expect(stores.cachePath == ":memory:")
        let groups = try #require(stores.groups as? PostgreSQLGroupStore)
        #expect(!groups.isSchemaReady)
        #expect(!groups.isReachable())
        // Each lookup is a round trip: the service coalesces them; not read-only.
        #expect(groups.lookupsAreRoundTrips && !groups.isReadOnly)
        #expect(LayoutService(store: stores.cache, groupStore: stores.groups).versionResolver != nil)
        stores.cache.close()
    }
}
