import Foundation
import Testing
@testable import LayoutStore

/// A font store of one backend, with what keeps it alive.
final class OpenedFontStore {
    let store: any FontStoring
    private let keep: AnyObject

    init(_ backend: GroupBackend, maxFonts: Int = 256, maxFontBytes: Int = 256 << 20) throws {
        switch backend {
        case .sqlite:
            let directory = TemporaryDirectory()
            keep = directory
            store = try SQLiteStore(path: directory.file("fonts.db"), cacheCapacity: 100, busyTimeout: 5, maxGroups: 10,
                                    readOnly: false, cacheWriteBehind: 0, maxFonts: maxFonts, maxFontBytes: maxFontBytes,
                                    now: Timestamp.now)
        case .postgreSQL:
            let database = try PostgreSQLTestDatabase()
            keep = database
            try PostgreSQLSchema.migrate(database.connect())
            let pool = PostgreSQLConnectionPool(configuration: database.configuration, size: 2, acquireTimeout: 30)
            store = PostgreSQLFontStore(groups: PostgreSQLGroupStore(pool: pool, maxGroups: 10), maxFonts: maxFonts,
                                        maxFontBytes: maxFontBytes)
        }
    }
}

/// The bytes of a Debian font file the tests store (fonts-dejavu-core).
func dejaVuSansBytes() throws -> [UInt8] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")))
}

/// 64 hex digits standing for a file's SHA-256 (the store keeps what the service computed).
func fakeDigest(_ digit: Character) -> String { String(repeating: digit, count: 64) }

@Suite("Font store")
struct FontStoreTests {
    @Test("a face round-trips byte for byte, is numbered 1, 2 on replace and 3 after a delete; the list has its size and digest",
          arguments: GroupBackend.available)
    func roundTrip(_ backend: GroupBackend) throws {
        let opened = try OpenedFontStore(backend)
        let store = opened.store
        let file = try dejaVuSansBytes()
        let first = try store.putFace(name: "Acme Sans/400", bytes: file, sha256: fakeDigest("a"))
        #expect(first.created)
        #expect(first.face.version == 1)
        #expect(first.face.updatedAt.count == 20)
        let read = try #require(try store.face(named: "Acme Sans/400"))
        #expect(read.bytes == file)
        #expect(read.sha256 == fakeDigest("a"))
        let second = try store.putFace(name: "Acme Sans/400", bytes: Array(file.prefix(1000)), sha256: fakeDigest("b"))
        #expect(!second.created)
        #expect(second.face.version == 2)
        #expect(try store.face(named: "Acme Sans/400")?.bytes == Array(file.prefix(1000)))
        _ = try store.putFace(name: "Acme/700-italic", bytes: [1, 2, 3], sha256: fakeDigest("c"))
        let listed = try store.faces()
        #expect(listed.map(\.name) == ["Acme Sans/400", "Acme/700-italic"])
        #expect(listed.map(\.byteCount) == [1000, 3])
        #expect(listed.map(\.version) == [2, 1])
        #expect(listed.map(\.sha256) == [fakeDigest("b"), fakeDigest("c")])
        #expect(try store.currentFaceVersions(of: ["Acme Sans/400", "Nope/400"]) == ["Acme Sans/400": 2])
        // Families match without regard to case; the answer keys the stored spelling.
        #expect(try store.currentFaceVersions(of: ["acme sans/400", "ACME/700-ITALIC", "acme/400"]) == ["Acme Sans/400": 2, "Acme/700-italic": 1])
        #expect(try store.deleteFace(named: "Acme Sans/400"))
        #expect(try store.deleteFace(named: "Acme Sans/400") == false)
        #expect(try store.face(named: "Acme Sans/400") == nil)
        #expect(try store.putFace(name: "Acme Sans/400", bytes: [9], sha256: fakeDigest("d")).face.version == 3)
    }

    @Test("a delete checks If-Match and If-None-Match: * in its transaction; a refused one changes nothing",
          arguments: GroupBackend.available)
    func deletePreconditions(_ backend: GroupBackend) throws {
        let opened = try OpenedFontStore(backend)
        let store = opened.store
        _ = try store.putFace(name: "Acme/400", bytes: [1, 2, 3], sha256: fakeDigest("a"))
        #expect(storeError { _ = try store.deleteFace(named: "Acme/400", ifMatch: nil, ifNoneMatchAny: true) }
                == .preconditionFailed(current: 1))
        #expect(storeError { _ = try store.deleteFace(named: "Acme/400", ifMatch: 7, ifNoneMatchAny: false) }
                == .preconditionFailed(current: 1))
        #expect(try store.face(named: "Acme/400")?.bytes == [1, 2, 3])
        #expect(try store.deleteFace(named: "Nope/400", ifMatch: nil, ifNoneMatchAny: true) == false)
        #expect(try store.deleteFace(named: "Acme/400", ifMatch: 1, ifNoneMatchAny: false))
        #expect(try store.face(named: "Acme/400") == nil)
    }

    @Test("the byte total is StoredBytes.count of each kept face (name, digest, file, timestamp) and one version is kept",
          arguments: GroupBackend.available)
    func bytesCounted(_ backend: GroupBackend) throws {
        let opened = try OpenedFontStore(backend)
        let store = opened.store
        let file = try dejaVuSansBytes()
        _ = try store.putFace(name: "Acme/400", bytes: file, sha256: fakeDigest("a"))
        let one = StoredBytes.count(payload: "Acme/400".utf8.count + 64 + file.count + 20)
        #expect(try store.fontBytes() == one)
        _ = try store.putFace(name: "Acme/400", bytes: file, sha256: fakeDigest("a"))
        #expect(try store.fontBytes() == one)
        _ = try store.putFace(name: "B/400", bytes: [1, 2, 3], sha256: fakeDigest("b"))
        #expect(try store.fontBytes() == one + StoredBytes.count(payload: "B/400".utf8.count + 64 + 3 + 20))
        #expect(try store.deleteFace(named: "Acme/400"))
        #expect(try store.fontBytes() == StoredBytes.count(payload: "B/400".utf8.count + 64 + 3 + 20))
    }

    @Test("maxFonts and maxFontBytes refuse a write with their flags named and change nothing", arguments: GroupBackend.available)
    func bounds(_ backend: GroupBackend) throws {
        let small = try OpenedFontStore(backend, maxFonts: 1)
        _ = try small.store.putFace(name: "A/400", bytes: [1], sha256: fakeDigest("a"))
        let count = storeError { _ = try small.store.putFace(name: "A/700", bytes: [2], sha256: fakeDigest("b")) }
        #expect(count == .limitExceeded("maxFonts (1 font faces): raise it with --max-fonts"))
        #expect(try small.store.putFace(name: "A/400", bytes: [3], sha256: fakeDigest("c")).face.version == 2)
        #expect(try small.store.faces().map(\.name) == ["A/400"])

        let file = try dejaVuSansBytes()
        let needed = StoredBytes.count(payload: "A/400".utf8.count + 64 + file.count + 20)
        let tight = try OpenedFontStore(backend, maxFontBytes: needed)
        _ = try tight.store.putFace(name: "A/400", bytes: file, sha256: fakeDigest("a"))
        // Replacing the one face frees its bytes first: it fits again.
        _ = try tight.store.putFace(name: "A/400", bytes: file, sha256: fakeDigest("a"))
        let bytes = storeError { _ = try tight.store.putFace(name: "B/400", bytes: [1], sha256: fakeDigest("b")) }
        let added = StoredBytes.count(payload: "B/400".utf8.count + 64 + 1 + 20)
        #expect(bytes == .limitExceeded(
            "maxFontBytes (\(needed) bytes of stored font files; \(needed) are stored, this version needs \(added)): raise it with --max-font-bytes"))
        #expect(try tight.store.faces().map(\.name) == ["A/400"])
        #expect(try tight.store.fontBytes() == needed)
    }

    @Test("an imported face keeps its version and time; an existing one is refused unless replaced", arguments: GroupBackend.available)
    func importKeepsNumbers(_ backend: GroupBackend) throws {
        let opened = try OpenedFontStore(backend)
        let face = StoredFace(name: "Acme/400", version: 7, bytes: [4, 5, 6], sha256: fakeDigest("e"), updatedAt: "2026-11-30T14:05:09Z")
        #expect(try opened.store.importFace(face, replace: false) == false)
        let read = try #require(try opened.store.face(named: "Acme/400"))
        #expect(read == face)
        #expect(storeError { try opened.store.importFace(face, replace: false) } == .preconditionFailed(current: 7))
        #expect(try opened.store.putFace(name: "Acme/400", bytes: [1], sha256: fakeDigest("f")).face.version == 8)
    }
}
