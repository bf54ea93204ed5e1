import Foundation
import Testing
@testable import LayoutService
@testable import LayoutStore

/// A font store in the middle of a round trip, removed on release.
final class FontTransferStore {
    let store: any FontStoring
    private let cleanup: () -> Void

    init(_ backend: TransferBackend) throws {
        switch backend {
        case .sqlite:
            let path = NSTemporaryDirectory() + "layoutd-fonts-" + UUID().uuidString + ".db"
            store = try SQLiteStore(path: path, cacheCapacity: 1, diskReserveBytes: 0)
            cleanup = { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        case .postgreSQL:
            let url = try #require(TransferBackend.url)
            let name = "layoutd_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            // An identifier cannot be a parameter; the name is our own hex text.
            try PostgreSQLConnection(.init(url: url)).execute("CREATE DATABASE \(name)")
            let groups = PostgreSQLGroupStore(
                pool: PostgreSQLConnectionPool(configuration: .init(url: url, database: name), size: 1, acquireTimeout: 30),
                maxGroups: 10, schemaReady: false)
            try groups.migrate()
            store = PostgreSQLFontStore(groups: groups)
            cleanup = { try? PostgreSQLConnection(.init(url: url)).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        }
    }

    deinit { cleanup() }
}

/// `layoutd fonts export` / `import`: a round trip through each backend gives the same
/// export (files, versions, times), and bad lines name their line.
@Suite("fonts export and import")
struct FontsTransferTests {
    static func file(_ path: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }

    static func export(_ store: any FontStoring) throws -> [String] {
        var lines: [String] = []
        try FontsTransfer.export(store) { lines.append($0) }
        return lines
    }

    @Test("SQLite → backend → SQLite keeps every byte, version and time", arguments: TransferBackend.available)
    func roundTrip(_ backend: TransferBackend) throws {
        let source = try FontTransferStore(.sqlite)
        let dejavu = try Self.file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let inter = try Self.file("/usr/share/fonts/opentype/inter/Inter-Bold.otf")
        _ = try source.store.putFace(name: "Acme/400", bytes: dejavu, sha256: SHA256.hexDigest(dejavu))
        _ = try source.store.putFace(name: "Acme/400", bytes: dejavu, sha256: SHA256.hexDigest(dejavu))
        _ = try source.store.putFace(name: "Acme Sans/700-italic", bytes: inter, sha256: SHA256.hexDigest(inter))
        let exported = try Self.export(source.store)
        #expect(exported.count == 2)
        let middle = try FontTransferStore(backend)
        #expect(try FontsTransfer.importLines(exported.map { String($0.dropLast()) }, into: middle.store, replace: false).line
                == "2 font faces read (2 imported, 0 unchanged); 0 high-water marks read")
        // Again: both faces are as exported and left as they are.
        #expect(try FontsTransfer.importLines(exported.map { String($0.dropLast()) }, into: middle.store, replace: false).line
                == "2 font faces read (0 imported, 2 unchanged); 0 high-water marks read")
        #expect(try middle.store.face(named: "Acme/400")?.version == 2)
        #expect(try middle.store.face(named: "Acme/400")?.bytes == dejavu)
        let back = try FontTransferStore(.sqlite)
        _ = try FontsTransfer.importLines(try Self.export(middle.store).map { String($0.dropLast()) }, into: back.store, replace: false)
        #expect(try Self.export(back.store) == exported)
    }

    @Test("bad lines stop the import at their line with the reason")
    func badLines() throws {
        let target = try FontTransferStore(.sqlite)
        let dejavu = try Self.file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let inter = try Self.file("/usr/share/fonts/opentype/inter/Inter-Bold.otf")
        func line(name: String = "Acme/400", version: Int = 3, bytes: [UInt8], sha256: String? = nil) -> String {
            #"{"name":"\#(name)","version":\#(version),"updatedAt":"2026-11-30T14:05:09Z","sha256":"\#(sha256 ?? SHA256.hexDigest(bytes))","base64":"\#(Data(bytes).base64EncodedString())"}"#
        }
        let cases: [([String], GroupsTransfer.ImportFailure)] = [
            (["", "{}"], .init(line: 2, message: "not a font face of an export (JSON object with name, version, updatedAt, sha256, base64), nor a high-water mark (name, highWaterMark) or the version floor (versionFloor)")),
            ([line(bytes: dejavu, sha256: String(repeating: "0", count: 64))],
             .init(line: 1, message: "sha256 of 'Acme/400' is not the SHA-256 of its file")),
            ([line(bytes: Array(dejavu.prefix(100)))],
             .init(line: 1, message: "'Acme/400': The font is truncated: its table directory needs \(12 + 16 * (Int(dejavu[4]) << 8 | Int(dejavu[5]))) bytes and the file has 100")),
            ([line(name: "Inter/400", bytes: dejavu)], .init(line: 1, message: "'Inter' is named like the built-in family 'Inter'")),
            // The same face twice: the second is unchanged; another file under a number the target used cannot be written.
            ([line(bytes: dejavu), line(bytes: dejavu), line(bytes: inter)],
             .init(line: 3, message: "the font face 'Acme/400' exists in the target with other versions (its current version there is 3), "
                + "and the export's start at 3, numbers the target has used; --replace cannot help: to keep the target's font face, "
                + "leave 'Acme/400' out of the import; to take the export's, import into a store that never had 'Acme/400'",
                   imported: 1, unchanged: 1)),
            ([line(version: 4, bytes: inter)],
             .init(line: 1, message: "the font face 'Acme/400' exists in the target with other versions (its current version there is 3); give --replace to replace it")),
        ]
        for (lines, failure) in cases {
            #expect(throws: failure) { _ = try FontsTransfer.importLines(lines, into: target.store, replace: false) }
        }
        #expect(try target.store.faces().map(\.name) == ["Acme/400"])
        #expect(throws: GroupsTransfer.ImportFailure(line: 1, message: "font face 'Acme/400': version numbers are never reused: 'Acme/400' has had versions up to 3 in this store, so its imported version 3 cannot be written; --replace cannot help: to keep the target's font face, leave 'Acme/400' out of the import; to take the export's, import into a store that never had 'Acme/400'")) {
            _ = try FontsTransfer.importLines([line(bytes: inter)], into: target.store, replace: true)
        }
        #expect(try FontsTransfer.importLines([line(version: 4, bytes: inter)], into: target.store, replace: true).imported == 1)
        #expect(try target.store.face(named: "Acme/400")?.version == 4)
    }

    @Test("a deleted face's mark travels: re-created in the target, it continues above it", arguments: TransferBackend.available)
    func deletedFaceKeepsItsMark(_ backend: TransferBackend) throws {
        let source = try FontTransferStore(.sqlite)
        let dejavu = try Self.file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        for _ in 0..<3 { _ = try source.store.putFace(name: "Gone/400", bytes: dejavu, sha256: SHA256.hexDigest(dejavu)) }
        #expect(try source.store.deleteFace(named: "Gone/400"))
        let exported = try Self.export(source.store)
        #expect(exported == [#"{"highWaterMark":3,"name":"Gone/400"}"# + "\n"])
        let target = try FontTransferStore(backend)
        #expect(try FontsTransfer.importLines(exported.map { String($0.dropLast()) }, into: target.store, replace: false).line
                == "0 font faces read (0 imported, 0 unchanged); 1 high-water mark read")
        #expect(try target.store.putFace(name: "Gone/400", bytes: dejavu, sha256: SHA256.hexDigest(dejavu)).face.version == 4)
    }
}
