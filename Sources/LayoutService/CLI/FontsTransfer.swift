import Foundation
import LayoutCompiler
import LayoutStore

/// One line of `layoutd fonts export`: one stored face, its file in base64 (RFC 4648 §4).
struct ExportedFontFace: Codable, Equatable {
    var name: String
    var version: Int
    var updatedAt: String
    var sha256: String
    var base64: String
}

/// `layoutd fonts export` / `layoutd fonts import`: moving stored font faces between
/// stores (SQLite ↔ PostgreSQL), keeping version numbers and `updatedAt`, beside
/// ``GroupsTransfer``. Held by `FontsTransferTests`.
enum FontsTransfer {
    /// Opens the font store `db` names (as ``GroupsTransfer/openStore(_:readOnly:maxGroups:maxGroupVersions:maxGroupBytes:)``).
    static func openStore(_ db: String, readOnly: Bool, maxFonts: Int, maxFontBytes: Int) throws(StoreError) -> any FontStoring {
        switch StoreLocation(db) {
        case .postgreSQL(let url):
            return PostgreSQLFontStore(groups: try PostgreSQLGroupStore(url: url, poolSize: 1), maxFonts: maxFonts, maxFontBytes: maxFontBytes)
        case .sqlite(let path):
            return try SQLiteStore(path: path, cacheCapacity: 1, readOnly: readOnly, diskReserveBytes: 0,
                                   maxFonts: maxFonts, maxFontBytes: maxFontBytes)
        }
    }

    /// Writes every stored face of `store`, one JSON object a line, in name (byte order)
    /// order, through `write` (each call one line with its `\n`).
    /// - Returns: the faces written.
    @discardableResult
    static func export(_ store: any FontStoring, write: (String) -> Void) throws(StoreError) -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var written = 0
        for summary in try store.faces() {
            // A face deleted between the list and this read is skipped.
            guard let face = try store.face(named: summary.name) else { continue }
            let line = ExportedFontFace(name: face.name, version: face.version, updatedAt: face.updatedAt, sha256: face.sha256,
                                        base64: Data(face.bytes).base64EncodedString())
            write(String(decoding: (try? encoder.encode(line)) ?? Data(), as: UTF8.self) + "\n")
            written += 1
        }
        return written
    }

    /// Reads `lines` (an export) and imports each face (``FontStoring/importFace(_:replace:)``),
    /// each checked as `PUT /fonts/…` checks it. Blank lines are skipped; faces imported
    /// before a failure stay imported.
    /// - Returns: the faces imported.
    /// - Throws: ``GroupsTransfer/ImportFailure`` at the first bad line (not JSON of the
    ///   export's shape, an invalid or built-in name, a version < 1, a bad `updatedAt`,
    ///   base64 that does not decode, a SHA-256 that is not the file's, not a font) or
    ///   refused face (it exists and `replace` is false, numbers it already had, a bound).
    static func importLines(_ lines: some Sequence<String>, into store: any FontStoring, replace: Bool)
        throws(GroupsTransfer.ImportFailure) -> Int {
        let decoder = JSONDecoder()
        var (imported, number) = (0, 0)
        for text in lines {
            number += 1
            guard !text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            func fail(_ message: String) -> GroupsTransfer.ImportFailure { .init(line: number, message: message) }
            guard let line = try? decoder.decode(ExportedFontFace.self, from: Data(text.utf8)) else {
                throw fail("not a font face of an export (JSON object with name, version, updatedAt, sha256, base64)")
            }
            let (family, face) = LayoutService.split(line.name)
            if let problem = LayoutService.fontNameProblem(family: family, face: face) {
                throw fail("'\(line.name)' is not a valid font face name: \(problem)")
            }
            if let builtIn = LayoutService.builtInFamily(namedLike: family) {
                throw fail("'\(family)' is named like the built-in family '\(builtIn)'")
            }
            guard line.version >= 1 else { throw fail("version \(line.version) is below 1") }
            guard GroupsTransfer.isTimestamp(line.updatedAt) else {
                throw fail("updatedAt '\(line.updatedAt)' is not RFC 3339 UTC to the second (2026-11-30T14:05:09Z)")
            }
            guard let data = Data(base64Encoded: line.base64) else { throw fail("base64 of '\(line.name)' does not decode") }
            let bytes = [UInt8](data)
            guard SHA256.hexDigest(bytes) == line.sha256 else { throw fail("sha256 of '\(line.name)' is not the SHA-256 of its file") }
            if let problem = FontFiles.problem(bytes) { throw fail("'\(line.name)': \(problem)") }
            do {
                try store.importFace(StoredFace(name: line.name, version: line.version, bytes: bytes, sha256: line.sha256,
                                                updatedAt: line.updatedAt), replace: replace)
            } catch {
                guard case .preconditionFailed = error else { throw fail("font face '\(line.name)': \(LayoutService.describe(error))") }
                throw fail("the font face '\(line.name)' exists in the target; give --replace to replace it")
            }
            imported += 1
        }
        return imported
    }
}

extension LayoutdCommand {
    static let fontsOptions: [OptionSpec] = [
        OptionSpec(name: "db", valueName: "PATH|URL", help: "The store: a SQLite file, or postgres://user:pass@host:port/db (parts left out come from libpq's PG* variables; postgres: for those alone)."),
        OptionSpec(name: "replace", valueName: "", help: "(import) Replace faces that exist in the target; without it such a face stops the import.", isFlag: true),
        OptionSpec(name: "max-fonts", valueName: "N", help: "(import) Font faces the target may hold (as serve's flag).", defaultDescription: "256"),
        OptionSpec(name: "max-font-bytes", valueName: "BYTES", help: "(import) Bytes all stored faces may count together (as serve's flag).", defaultDescription: "50331648"),
    ]

    /// `layoutd fonts export --db A` / `layoutd fonts import --db B [--replace]`.
    /// Exit 0 done, 1 a store or input failure (the reason on stderr, with the line for
    /// import), 2 bad usage.
    static func fonts(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Int32 {
        let summary = """
            export: print every stored font face as JSON lines (name order; the file in base64).
            import: read such lines from standard input and store them, keeping version numbers.
            Exit 0 done, 1 failure, 2 bad usage.
            """
        guard let (options, action, db) = try transferArguments("fonts", arguments, specs: fontsOptions, summary: summary,
                                                                environment: environment) else { return 0 }
        return try runTransfer("fonts", action: action) { () throws -> any FontStoring in
            try FontsTransfer.openStore(
                db, readOnly: action == "export",
                maxFonts: try options.int("max-fonts", default: VersionedWritePolicy.defaultMaxFonts),
                maxFontBytes: try options.int("max-font-bytes", default: VersionedWritePolicy.defaultMaxFontBytes))
        } export: { (store, write) throws(StoreError) in
            try FontsTransfer.export(store, write: write)
        } import: { (store, lines) throws(GroupsTransfer.ImportFailure) -> String in
            "\(try FontsTransfer.importLines(lines, into: store, replace: options.flag("replace"))) font faces read"
        }
    }
}
