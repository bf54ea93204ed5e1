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
    /// order, then its ``VersionMarks`` (``GroupsTransfer/writeMarks(_:encoder:write:)``),
    /// through `write` (each call one line with its `\n`).
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
        GroupsTransfer.writeMarks(try store.fontVersionMarks(), encoder: encoder, write: write)
        return written
    }

    /// What a fonts import did: faces read (each imported or unchanged), mark lines read.
    struct ImportSummary: Equatable {
        var faces = 0, imported = 0, unchanged = 0, marks = 0
        var floor: Int?

        /// `2 font faces read (1 imported, 1 unchanged); 0 high-water marks read`.
        var line: String {
            "\(faces) font faces read (\(imported) imported, \(unchanged) unchanged); "
                + "\(marks) high-water mark\(marks == 1 ? "" : "s")" + (floor.map { ", version floor \($0)" } ?? "") + " read"
        }
    }

    /// Reads `lines` (an export) and imports each face (``FontStoring/importFace(_:replace:)``),
    /// each checked as `PUT /fonts/…` checks it, then raises the target's high-water marks
    /// and version floor to the export's mark lines in one transaction
    /// (``FontStoring/raiseFontVersionMarks(_:)``; an export without them imports as
    /// before). Blank lines are skipped. A face stored in the target exactly as exported
    /// (number, file, SHA-256, `updatedAt`) is left as it is and counted unchanged, so the
    /// same export imports again without error. On a failure, the faces before the failing
    /// line stay imported and the mark lines before it are raised.
    /// - Returns: the summary (``ImportSummary``).
    /// - Throws: ``GroupsTransfer/ImportFailure`` at the first bad line (not JSON of an
    ///   export line's shape, an invalid or built-in name, a version < 1, a bad `updatedAt`,
    ///   base64 that does not decode, a SHA-256 that is not the file's, not a font, a face
    ///   after a mark line) or refused face (it exists with another version and `replace`
    ///   is false, numbers it already had, a bound), with the faces imported and unchanged before it.
    static func importLines(_ lines: some Sequence<String>, into store: any FontStoring, replace: Bool)
        throws(GroupsTransfer.ImportFailure) -> ImportSummary {
        let decoder = JSONDecoder()
        var summary = ImportSummary()
        var marks = ReadMarks()
        var number = 0
        func nameProblem(_ name: String) -> String? {
            let (family, face) = LayoutService.split(name)
            if let problem = LayoutService.fontNameProblem(family: family, face: face) {
                return "'\(name)' is not a valid font face name: \(problem)"
            }
            if let builtIn = LayoutService.builtInFamily(namedLike: family) {
                return "'\(family)' is named like the built-in family '\(builtIn)'"
            }
            return nil
        }
        for text in lines {
            number += 1
            guard !text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            func fail(_ message: String) -> GroupsTransfer.ImportFailure {
                do { try marks.apply { (marks) throws(StoreError) in try store.raiseFontVersionMarks(marks) } } catch { return error }
                return .init(line: number, message: message, imported: summary.imported, unchanged: summary.unchanged)
            }
            guard let parsed = ExportLine<ExportedFontFace>(text, decoder: decoder) else {
                throw fail("not a font face of an export (JSON object with name, version, updatedAt, sha256, base64), "
                           + "nor a high-water mark (name, highWaterMark) or the version floor (versionFloor)")
            }
            guard case .version(let line) = parsed else {
                do { try marks.read(parsed, number: number, nameProblem: nameProblem) } catch { throw fail(error.message) }
                continue
            }
            if let firstMark = marks.firstLine {
                throw fail("a font face after the mark lines (from line \(firstMark)): an export writes every face first")
            }
            if let problem = nameProblem(line.name) { throw fail(problem) }
            guard line.version >= 1 else { throw fail("version \(line.version) is below 1") }
            guard GroupsTransfer.isTimestamp(line.updatedAt) else {
                throw fail("updatedAt '\(line.updatedAt)' is not RFC 3339 UTC to the second (2026-11-30T14:05:09Z)")
            }
            guard let data = Data(base64Encoded: line.base64) else { throw fail("base64 of '\(line.name)' does not decode") }
            let bytes = [UInt8](data)
            guard SHA256.hexDigest(bytes) == line.sha256 else { throw fail("sha256 of '\(line.name)' is not the SHA-256 of its file") }
            if let problem = FontFiles.problem(bytes) { throw fail("'\(line.name)': \(problem)") }
            summary.faces += 1
            let face = StoredFace(name: line.name, version: line.version, bytes: bytes, sha256: line.sha256, updatedAt: line.updatedAt)
            do {
                if try store.face(named: line.name) == face {
                    summary.unchanged += 1
                    continue
                }
                try store.importFace(face, replace: replace)
            } catch {
                guard case .preconditionFailed(let current) = error else {
                    throw fail(GroupsTransfer.refusal("font face", line.name, error))
                }
                throw fail(GroupsTransfer.existsMessage("font face", line.name, current: current, first: line.version))
            }
            summary.imported += 1
        }
        try marks.apply { (marks) throws(StoreError) in try store.raiseFontVersionMarks(marks) }
        summary.marks = marks.marks.names.count
        summary.floor = marks.floorRead
        return summary
    }
}

extension LayoutdCommand {
    static let fontsOptions: [OptionSpec] = [
        OptionSpec(name: "db", valueName: "PATH|URL", help: "The store: a SQLite file, or postgres://user:pass@host:port/db (parts left out come from libpq's PG* variables; postgres: for those alone)."),
        OptionSpec(name: "replace", valueName: "", help: "(import) Replace faces the target holds with other versions, when the export's numbers are above the target's; without it such a face stops the import (faces stored as exported are left as they are)", isFlag: true),
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
            try FontsTransfer.importLines(lines, into: store, replace: options.flag("replace")).line
        }
    }
}
