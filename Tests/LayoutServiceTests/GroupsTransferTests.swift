import Foundation
import Testing
@testable import LayoutService
@testable import LayoutStore

/// The store in the middle of a round trip: SQLite always, PostgreSQL when
/// `LAYOUTD_TEST_PG_URL` names a server (a database of its own, dropped on release).
enum TransferBackend: String, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgreSQL

    var testDescription: String { rawValue }

    static var url: String? {
        guard let url = ProcessInfo.processInfo.environment["LAYOUTD_TEST_PG_URL"], !url.isEmpty else { return nil }
        return url
    }

    static var available: [TransferBackend] { url == nil ? [.sqlite] : [.sqlite, .postgreSQL] }
}

final class TransferStore {
    let store: any GroupStoring
    private let cleanup: () -> Void

    init(_ backend: TransferBackend, maxGroupVersions: Int) throws {
        switch backend {
        case .sqlite:
            let path = NSTemporaryDirectory() + "layoutd-transfer-" + UUID().uuidString + ".db"
            store = try SQLiteStore(path: path, cacheCapacity: 1, maxGroupVersions: maxGroupVersions, diskReserveBytes: 0)
            cleanup = { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        case .postgreSQL:
            let url = try #require(TransferBackend.url)
            let name = "layoutd_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            // An identifier cannot be a parameter; the name is our own hex text.
            try PostgreSQLConnection(.init(url: url)).execute("CREATE DATABASE \(name)")
            store = PostgreSQLGroupStore(
                pool: PostgreSQLConnectionPool(configuration: .init(url: url, database: name), size: 1, acquireTimeout: 30),
                maxGroups: 10_000, maxGroupVersions: maxGroupVersions)
            try (store as? PostgreSQLGroupStore)?.migrate()
            cleanup = { try? PostgreSQLConnection(.init(url: url)).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        }
    }

    deinit { cleanup() }
}

/// `layoutd groups export` / `import`: a round trip SQLite → PostgreSQL → SQLite gives
/// byte-identical exports (PostgreSQL when `LAYOUTD_TEST_PG_URL` is set; SQLite → SQLite
/// always), and bad input names its line.
@Suite("groups export and import")
struct GroupsTransferTests {
    private static func temporaryPath() -> String {
        NSTemporaryDirectory() + "layoutd-transfer-" + UUID().uuidString + ".db"
    }

    private static func export(_ store: any GroupStoring) throws -> [String] {
        var lines: [String] = []
        try GroupsTransfer.export(store) { lines.append($0) }
        return lines
    }

    /// A source with history, pruning, a deleted and re-created group, non-ASCII text.
    private static func filledSource(_ path: String) throws -> SQLiteStore {
        let source = try SQLiteStore(path: path, cacheCapacity: 1, maxGroupVersions: 3, diskReserveBytes: 0)
        for pad in 1...5 {
            _ = try source.putGroup(name: "row", constraintsJSON: #"["H:|-\#(pad)-[a]|"]"#, metricsJSON: #"{"pad":\#(pad)}"#,
                                    ifMatch: nil, ifNoneMatchAny: false)
        }
        // As a PUT writes them (an import stores what a PUT would): an id with escapes.
        _ = try source.putGroup(name: "Card", constraintsJSON: #"[{"equation":"t.height == 8","id":"é\"/"},"V:|[t]-(>=8)-[b]|"]"#,
                                metricsJSON: #"{"gap":8}"#, ifMatch: nil, ifNoneMatchAny: false)
        _ = try source.putGroup(name: "gone", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        _ = try source.deleteGroup(named: "gone")
        _ = try source.putGroup(name: "gone", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        return source
    }

    @Test func exportListsEveryKeptVersionInNameThenVersionOrder() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let lines = try Self.export(try Self.filledSource(path))
        let keys = try lines.map { line -> String in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return "\(object["name"] as? String ?? "?")@\(object["version"] as? Int ?? 0)"
        }
        #expect(keys == ["Card@1", "gone@2", "row@3", "row@4", "row@5"])
        #expect(lines.allSatisfy { $0.hasSuffix("\n") && $0.filter { $0 == "\n" }.count == 1 })
        #expect(lines[0].contains(#""constraintsJSON":"[{\"equation\":\"t.height == 8\",\"id\":\"é\\\"/\"},"#))
    }

    @Test(arguments: TransferBackend.available)
    func roundTripThroughTheBackendGivesIdenticalExports(_ backend: TransferBackend) throws {
        let (sourcePath, backPath) = (Self.temporaryPath(), Self.temporaryPath())
        defer {
            for path in [sourcePath, backPath] {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        }
        let first = try Self.export(try Self.filledSource(sourcePath))
        let middle = try TransferStore(backend, maxGroupVersions: 3)
        #expect(try GroupsTransfer.importLines(first.map { String($0.dropLast()) }, into: middle.store, replace: false) == (3, 5))
        let second = try Self.export(middle.store)
        let back = try SQLiteStore(path: backPath, cacheCapacity: 1, maxGroupVersions: 3, diskReserveBytes: 0)
        #expect(try GroupsTransfer.importLines(second.map { String($0.dropLast()) }, into: back, replace: false) == (3, 5))
        let third = try Self.export(back)
        #expect(second == first)
        #expect(third == first)
        // An export holds the kept versions only: in the target, versions before the first
        // exported one were never written there (404 without "pruned"); numbering continues.
        #expect(try middle.store.prunedVersion(ofGroup: "row", version: 2) == nil)
        #expect(try middle.store.group(named: "row", version: 2) == nil)
        #expect(try back.prunedVersion(ofGroup: "gone", version: 1) == nil)
        #expect(try back.putGroup(name: "row", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: 5, ifNoneMatchAny: false).group.version == 6)
        // Again into the same store: refused without --replace, and with it (the numbers were had).
        #expect(throws: GroupsTransfer.ImportFailure(line: 1, message: "the group 'Card' exists in the target; give --replace to replace it")) {
            try GroupsTransfer.importLines(first.map { String($0.dropLast()) }, into: middle.store, replace: false)
        }
        #expect(throws: GroupsTransfer.ImportFailure(
            line: 1,
            message: "group 'Card': version numbers are never reused: 'Card' has had versions up to 1 in this store, so its imported version 1 cannot be written"
        )) {
            try GroupsTransfer.importLines(first.map { String($0.dropLast()) }, into: middle.store, replace: true)
        }
    }

    @Test(arguments: [
        (#"{"name":"a","version":1}"#, "not a group version of an export (JSON object with name, version, updatedAt, constraintsJSON, metricsJSON)"),
        (#"{"name":"-a","version":1,"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"[]","metricsJSON":"{}"}"#, "invalid group name '-a'"),
        (#"{"name":"a","version":0,"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"[]","metricsJSON":"{}"}"#, "version 0 is below 1"),
        (#"{"name":"a","version":1,"updatedAt":"2026-13-30T14:05:09Z","constraintsJSON":"[]","metricsJSON":"{}"}"#,
         "updatedAt '2026-13-30T14:05:09Z' is not RFC 3339 UTC to the second (2026-11-30T14:05:09Z)"),
        (#"{"name":"a","version":9223372036854775807,"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"[]","metricsJSON":"{}"}"#,
         "version 9223372036854775807 is above 9007199254740991, the largest a JSON number carries exactly"),
        // Contents a PUT refuses (they were stored, then GET answered invalid JSON and a scene 500).
        (#"{"name":"a","version":1,"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"not json","metricsJSON":"{}"}"#,
         "version 1 of 'a' is not a group PUT /groups would store: Malformed JSON: constraintsJSON: Expected a JSON value ('null'?) but found 'not json' at line 1, column 1"),
        (#"{"name":"a","version":1,"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"[]","metricsJSON":"[1,2]"}"#,
         "version 1 of 'a' is not a group PUT /groups would store: Expected an object of name → number at $.metrics, found an array"),
        (#"{"name":"a","version":1,"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"[\"H:|[a\"]","metricsJSON":"{}"}"#,
         "version 1 of 'a' is not a group PUT /groups would store: Expected ']' to close view 'a'"),
        (#"{"name":"a","version":1,"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"[]","metricsJSON":"{\"m\":1e300}"}"#,
         "version 1 of 'a' is not a group PUT /groups would store: $.metrics.m is 1e+300; lengths are limited to ±1000000000000 points (limit maxMagnitude)"),
        (#"{"name":"a","version":1,"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"[\"a.width == 1e13\"]","metricsJSON":"{}"}"#,
         "version 1 of 'a' is not a group PUT /groups would store: The number 1e13 in group:a/0 is beyond ±1000000000000 (limit maxMagnitude)"),
        ("{\"name\":\"a\",\"version\":1,\"updatedAt\":\"2026-11-30T14:05:09Z\",\"constraintsJSON\":\"["
            + Array(repeating: #"\"a.width == 1\""#, count: 1_001).joined(separator: ",") + #"]","metricsJSON":"{}"}"#,
         "version 1 of 'a' is not a group PUT /groups would store: A group may hold at most 1000 constraints; this one has 1001 (limit maxGroupConstraints)"),
    ])
    func badLinesAreNamedAndNothingIsWritten(_ line: String, _ message: String) throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteStore(path: path, cacheCapacity: 1, diskReserveBytes: 0)
        #expect(throws: GroupsTransfer.ImportFailure(line: 2, message: message)) {
            try GroupsTransfer.importLines(["", line], into: store, replace: false)
        }
        #expect(try store.groupCount() == 0)
    }

    /// An imported version is stored as a PUT writes it, and read back as JSON.
    @Test func importedContentsAreStoredAsAPutWritesThem() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteStore(path: path, cacheCapacity: 1, diskReserveBytes: 0)
        let line = #"{"name":"a","version":3,"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":" [ \"a.width == m\" ] ","metricsJSON":"{ \"m\" : 4.0 }"}"#
        #expect(try GroupsTransfer.importLines([line], into: store, replace: false) == (1, 1))
        let stored = try #require(try store.group(named: "a"))
        #expect(stored.version == 3)
        #expect(stored.constraintsJSON == #"["a.width == m"]"#)
        #expect(stored.metricsJSON == #"{"m":4}"#)
    }

    @Test func outOfOrderLinesAreRefused() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteStore(path: path, cacheCapacity: 1, diskReserveBytes: 0)
        func line(_ name: String, _ version: Int) -> String {
            #"{"name":"\#(name)","version":\#(version),"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"[]","metricsJSON":"{}"}"#
        }
        #expect(throws: GroupsTransfer.ImportFailure(line: 2, message: "version 1 of 'a' follows version 2: versions must ascend")) {
            try GroupsTransfer.importLines([line("a", 2), line("a", 1)], into: store, replace: false)
        }
        #expect(throws: GroupsTransfer.ImportFailure(line: 2, message: "'a' follows 'b': names must ascend in byte order")) {
            try GroupsTransfer.importLines([line("b", 1), line("a", 1)], into: store, replace: false)
        }
        #expect(try store.groupCount() == 0)
    }
}
