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
        #expect(try GroupsTransfer.importLines(first.map { String($0.dropLast()) }, into: middle.store, replace: false).line
                == "3 groups, 5 versions read (3 imported, 0 unchanged); 0 high-water marks read")
        let second = try Self.export(middle.store)
        let back = try SQLiteStore(path: backPath, cacheCapacity: 1, maxGroupVersions: 3, diskReserveBytes: 0)
        #expect(try GroupsTransfer.importLines(second.map { String($0.dropLast()) }, into: back, replace: false)
                == GroupsTransfer.ImportSummary(groups: 3, versions: 5, imported: 3, unchanged: 0, marks: 0, floor: nil))
        let third = try Self.export(back)
        #expect(second == first)
        #expect(third == first)
        // An export holds the kept versions only: in the target, versions before the first
        // exported one were never written there (404 without "pruned"); numbering continues.
        #expect(try middle.store.prunedVersion(ofGroup: "row", version: 2) == nil)
        #expect(try middle.store.group(named: "row", version: 2) == nil)
        #expect(try back.prunedVersion(ofGroup: "gone", version: 1) == nil)
        #expect(try back.putGroup(name: "row", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: 5, ifNoneMatchAny: false).group.version == 6)
        // Again into the same store: every group is as exported, left as it is, with or without --replace.
        for replace in [false, true] {
            #expect(try GroupsTransfer.importLines(first.map { String($0.dropLast()) }, into: middle.store, replace: replace).line
                    == "3 groups, 5 versions read (0 imported, 3 unchanged); 0 high-water marks read")
        }
        #expect(try Self.export(middle.store) == first)
        // A group changed in the target since: refused, and --replace cannot help (its numbers were used there).
        _ = try middle.store.putGroup(name: "Card", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false)
        #expect(throws: GroupsTransfer.ImportFailure(
            line: 1,
            message: "the group 'Card' exists in the target with other versions (its current version there is 2), and the export's start at 1, "
                + "numbers the target has used; --replace cannot help: to keep the target's group, leave 'Card' out of the import; "
                + "to take the export's, import into a store that never had 'Card'"
        )) {
            try GroupsTransfer.importLines(first.map { String($0.dropLast()) }, into: middle.store, replace: false)
        }
        #expect(throws: GroupsTransfer.ImportFailure(
            line: 1,
            message: "group 'Card': version numbers are never reused: 'Card' has had versions up to 2 in this store, so its imported version 1 cannot be written; "
                + "--replace cannot help: to keep the target's group, leave 'Card' out of the import; to take the export's, import into a store that never had 'Card'"
        )) {
            try GroupsTransfer.importLines(first.map { String($0.dropLast()) }, into: middle.store, replace: true)
        }
        // Versions above the target's: --replace would work, and the refusal says so.
        let later = #"{"constraintsJSON":"[]","metricsJSON":"{}","name":"Card","updatedAt":"2026-11-30T14:05:09Z","version":7}"#
        #expect(throws: GroupsTransfer.ImportFailure(
            line: 1, message: "the group 'Card' exists in the target with other versions (its current version there is 2); give --replace to replace it")) {
            try GroupsTransfer.importLines([later], into: middle.store, replace: false)
        }
        #expect(try GroupsTransfer.importLines([later], into: middle.store, replace: true).imported == 1)
        #expect(try middle.store.group(named: "Card")?.version == 7)
    }

    @Test(arguments: [
        (#"{"name":"a","version":1}"#, "not a group version of an export (JSON object with name, version, updatedAt, constraintsJSON, metricsJSON), nor a high-water mark (name, highWaterMark) or the version floor (versionFloor)"),
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
        #expect(try GroupsTransfer.importLines([line], into: store, replace: false)
                == GroupsTransfer.ImportSummary(groups: 1, versions: 1, imported: 1, unchanged: 0, marks: 0, floor: nil))
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
        #expect(try store.groupCount() == 0)
        // 'b''s lines all came before the failing line (it names another group): 'b' stays imported.
        #expect(throws: GroupsTransfer.ImportFailure(line: 2, message: "'a' follows 'b': names must ascend in byte order", imported: 1)) {
            try GroupsTransfer.importLines([line("b", 1), line("a", 1)], into: store, replace: false)
        }
        #expect(try store.groups().map(\.name) == ["b"])
    }

    private static func line(_ name: String, _ version: Int, constraints: String = "[]") -> String {
        #"{"name":"\#(name)","version":\#(version),"updatedAt":"2026-11-30T14:05:09Z","constraintsJSON":"\#(constraints)","metricsJSON":"{}"}"#
    }

    /// What stays after a failure: every group followed by a line naming another group; not
    /// the group before a line that names none or names it (it may be one of its versions).
    @Test(arguments: TransferBackend.available)
    func groupsBeforeAFailingLineStayImported(_ backend: TransferBackend) throws {
        let good = (1...4).map { Self.line("g1", $0) }
        let cases: [(String, GroupsTransfer.ImportFailure, [String])] = [
            (Self.line("g2", 1, constraints: "not json"),
             .init(line: 5, message: "version 1 of 'g2' is not a group PUT /groups would store: Malformed JSON: constraintsJSON: Expected a JSON value ('null'?) but found 'not json' at line 1, column 1", imported: 1),
             ["g1"]),
            (Self.line("g1", 5, constraints: "not json"),
             .init(line: 5, message: "version 5 of 'g1' is not a group PUT /groups would store: Malformed JSON: constraintsJSON: Expected a JSON value ('null'?) but found 'not json' at line 1, column 1"),
             []),
            ("garbage",
             .init(line: 5, message: "not a group version of an export (JSON object with name, version, updatedAt, constraintsJSON, metricsJSON), nor a high-water mark (name, highWaterMark) or the version floor (versionFloor)"),
             []),
        ]
        for (bad, failure, kept) in cases {
            let target = try TransferStore(backend, maxGroupVersions: 100)
            #expect(throws: failure) { try GroupsTransfer.importLines(good + [bad], into: target.store, replace: false) }
            #expect(try target.store.groups().map(\.name) == kept)
            if !kept.isEmpty { #expect(try target.store.group(named: "g1")?.version == 4) }
        }
    }

    /// A migration keeps every number used: a deleted name's mark and the version floor travel
    /// with the export, so a name re-created in the target continues above them.
    @Test(arguments: TransferBackend.available)
    func deletedNamesKeepTheirMarksThroughAMigration(_ backend: TransferBackend) throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        // maxGroups 2 keeps 2 rows of deleted names: a third delete drops the lowest mark into the floor.
        let source = try SQLiteStore(path: path, cacheCapacity: 1, maxGroups: 2, diskReserveBytes: 0)
        func put(_ name: String, times: Int) throws {
            for _ in 0..<times { _ = try source.putGroup(name: name, constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false) }
        }
        try put("low", times: 2)
        #expect(try source.deleteGroup(named: "low"))
        try put("gone2", times: 3)
        #expect(try source.deleteGroup(named: "gone2"))
        try put("gone5", times: 5)
        #expect(try source.deleteGroup(named: "gone5"))
        try put("kept", times: 1)
        let lines = try Self.export(source)
        let keptAt = try #require(try source.group(named: "kept")).updatedAt
        #expect(lines == [
            #"{"constraintsJSON":"[]","metricsJSON":"{}","name":"kept","updatedAt":"\#(keptAt)","version":3}"# + "\n",
            #"{"highWaterMark":3,"name":"gone2"}"# + "\n",
            #"{"highWaterMark":5,"name":"gone5"}"# + "\n",
            #"{"versionFloor":2}"# + "\n",
        ])
        let target = try TransferStore(backend, maxGroupVersions: 100)
        let input = lines.map { String($0.dropLast()) }
        #expect(try GroupsTransfer.importLines(input, into: target.store, replace: false).line
                == "1 groups, 1 versions read (1 imported, 0 unchanged); 2 high-water marks, version floor 2 read")
        #expect(try target.store.versionMarks() == VersionMarks(names: [.init(name: "gone2", mark: 3), .init(name: "gone5", mark: 5)], floor: 2))
        // Again: nothing changes.
        #expect(try GroupsTransfer.importLines(input, into: target.store, replace: false).line
                == "1 groups, 1 versions read (0 imported, 1 unchanged); 2 high-water marks, version floor 2 read")
        func putTarget(_ name: String) throws -> Int {
            try target.store.putGroup(name: name, constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false).group.version
        }
        #expect(try putTarget("gone2") == 4)
        #expect(try putTarget("gone5") == 6)
        #expect(try putTarget("low") == 3)
        #expect(try putTarget("new") == 3)
        #expect(try putTarget("kept") == 4)
        // Marks never lower: an export with smaller ones changes nothing.
        #expect(try GroupsTransfer.importLines([#"{"highWaterMark":1,"name":"gone2"}"#, #"{"versionFloor":1}"#], into: target.store,
                                               replace: false).line == "0 groups, 0 versions read (0 imported, 0 unchanged); 1 high-water mark, version floor 1 read")
        #expect(try target.store.versionMarks() == VersionMarks(names: [], floor: 2))
        #expect(try putTarget("gone2") == 5)
    }

    @Test func markLinesAreChecked() throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteStore(path: path, cacheCapacity: 1, diskReserveBytes: 0)
        #expect(throws: GroupsTransfer.ImportFailure(line: 1, message: "highWaterMark 0 of 'a' is not from 1 to 9007199254740991")) {
            try GroupsTransfer.importLines([#"{"highWaterMark":0,"name":"a"}"#], into: store, replace: false)
        }
        #expect(throws: GroupsTransfer.ImportFailure(line: 1, message: "invalid group name '-a'")) {
            try GroupsTransfer.importLines([#"{"highWaterMark":3,"name":"-a"}"#], into: store, replace: false)
        }
        #expect(throws: GroupsTransfer.ImportFailure(line: 1, message: "versionFloor -1 is not from 0 to 9007199254740991")) {
            try GroupsTransfer.importLines([#"{"versionFloor":-1}"#], into: store, replace: false)
        }
        // A version after the marks is refused; the marks before it are raised.
        #expect(throws: GroupsTransfer.ImportFailure(line: 2, message: "a group version after the mark lines (from line 1): an export writes every version first")) {
            try GroupsTransfer.importLines([#"{"highWaterMark":3,"name":"a"}"#, Self.line("b", 1)], into: store, replace: false)
        }
        #expect(try store.versionMarks() == VersionMarks(names: [.init(name: "a", mark: 3)], floor: 0))
        #expect(try store.groupCount() == 0)
    }
}
