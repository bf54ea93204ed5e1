import Foundation
import LayoutCompiler
import LayoutStore

/// One line of `layoutd groups export`: one kept version of one group. The JSON texts are
/// carried as strings, exactly as stored, so a round trip keeps every byte.
struct ExportedGroupVersion: Codable, Equatable {
    var name: String
    var version: Int
    var updatedAt: String
    var constraintsJSON: String
    var metricsJSON: String
}

/// Any line of an export, read only as far as its `name` (mark lines have one too).
struct NamedLine: Decodable {
    var name: String
}

/// A high-water mark line of an export (`{"highWaterMark":3,"name":"gone"}`): no version of
/// `name` may ever be numbered `highWaterMark` or below in the target. Written after every
/// version line, for each name whose mark is above its newest exported version (a deleted
/// name whose row the source keeps), in name order. Used by groups and fonts alike.
struct ExportedMark: Codable, Equatable {
    var name: String
    var highWaterMark: Int
}

/// The version floor line of an export (`{"versionFloor":7}`), last, written when the
/// source's floor is above 0: every name the target has no row for starts above it.
struct ExportedFloor: Codable, Equatable {
    var versionFloor: Int
}

/// One line of an export, of any kind; what an import reads.
enum ExportLine<Version: Decodable>: Equatable where Version: Equatable {
    case version(Version)
    case mark(ExportedMark)
    case floor(ExportedFloor)

    /// `text` as one of the kinds (a version first: its members are the most), or `nil`.
    init?(_ text: String, decoder: JSONDecoder) {
        let data = Data(text.utf8)
        if let version = try? decoder.decode(Version.self, from: data) {
            self = .version(version)
        } else if let mark = try? decoder.decode(ExportedMark.self, from: data) {
            self = .mark(mark)
        } else if let floor = try? decoder.decode(ExportedFloor.self, from: data) {
            self = .floor(floor)
        } else {
            return nil
        }
    }
}

/// The mark and floor lines an import has read, raised in the target in one transaction
/// once the versions are in (``GroupStoring/raiseVersionMarks(_:)``).
struct ReadMarks {
    var marks = VersionMarks()
    var floorRead: Int?
    /// The line of the first mark or floor line (versions may not follow it).
    var firstLine: Int?
    var isEmpty: Bool { marks.names.isEmpty && floorRead == nil }

    /// Reads a mark or floor line `line` (number `number`), checked: a valid name
    /// (`nameProblem` says why not), a mark of 1 to ``GroupsTransfer/maxImportedVersion``,
    /// a floor of 0 to it.
    mutating func read(_ line: ExportLine<some Decodable & Equatable>, number: Int, nameProblem: (String) -> String?)
        throws(GroupsTransfer.ImportFailure) {
        let maximum = GroupsTransfer.maxImportedVersion
        switch line {
        case .version: return
        case .mark(let mark):
            if let problem = nameProblem(mark.name) { throw .init(line: number, message: problem) }
            guard (1...maximum).contains(mark.highWaterMark) else {
                throw .init(line: number, message: "highWaterMark \(mark.highWaterMark) of '\(mark.name)' is not from 1 to \(maximum)")
            }
            marks.names.append(.init(name: mark.name, mark: mark.highWaterMark))
        case .floor(let floor):
            guard (0...maximum).contains(floor.versionFloor) else {
                throw .init(line: number, message: "versionFloor \(floor.versionFloor) is not from 0 to \(maximum)")
            }
            marks.floor = max(marks.floor, floor.versionFloor)
            floorRead = marks.floor
        }
        if firstLine == nil { firstLine = number }
    }

    /// The summary's words for them: `2 high-water marks, version floor 7 read`.
    var summary: String {
        "\(marks.names.count) high-water mark\(marks.names.count == 1 ? "" : "s")"
            + (floorRead.map { ", version floor \($0)" } ?? "") + " read"
    }

    /// Raises them through `raise` (nothing when none were read).
    func apply(_ raise: (VersionMarks) throws(StoreError) -> Void) throws(GroupsTransfer.ImportFailure) {
        guard !isEmpty, let firstLine else { return }
        do {
            try raise(marks)
        } catch {
            throw .init(line: firstLine, message: "high-water marks: \(LayoutService.describe(error))")
        }
    }
}

/// `layoutd groups export` / `layoutd groups import`: moving named groups between stores
/// (SQLite ↔ PostgreSQL), keeping version numbers and `updatedAt`. Held by
/// `GroupsTransferTests` (round trips SQLite → PostgreSQL → SQLite).
enum GroupsTransfer {
    /// Opens the store `db` names (``StoreLocation``): a `postgres://` or `postgresql://`
    /// URL, or `postgres:` for libpq's `PG*` variables, is PostgreSQL (migrated if
    /// needed), anything else a SQLite path.
    static func openStore(
        _ db: String, readOnly: Bool, maxGroups: Int, maxGroupVersions: Int, maxGroupBytes: Int
    ) throws(StoreError) -> any GroupStoring {
        switch StoreLocation(db) {
        case .postgreSQL(let url):
            return try PostgreSQLGroupStore(url: url, poolSize: 1, maxGroups: maxGroups, maxGroupVersions: maxGroupVersions,
                                            maxGroupBytes: maxGroupBytes)
        case .sqlite(let path):
            return try SQLiteStore(path: path, cacheCapacity: 1, maxGroups: maxGroups, readOnly: readOnly,
                                   maxGroupVersions: maxGroupVersions, diskReserveBytes: 0, maxGroupBytes: maxGroupBytes)
        }
    }

    /// Writes every kept version of every group of `store`, one JSON object a line, in name
    /// (byte order) then version order, then its ``VersionMarks`` (``writeMarks(_:encoder:write:)``),
    /// through `write` (each call one line with its `\n`).
    /// - Returns: the versions written.
    /// - Complexity: one statement per page of 1,000 versions and one per version.
    @discardableResult
    static func export(_ store: any GroupStoring, write: (String) -> Void) throws(StoreError) -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var written = 0
        for summary in try store.groups() {
            var after = 0
            while let page = try store.versions(ofGroup: summary.name, after: after, limit: 1_000) {
                for info in page.versions {
                    // A version pruned between the page and this read is skipped.
                    guard let group = try store.group(named: summary.name, version: info.version) else { continue }
                    let line = ExportedGroupVersion(name: group.name, version: group.version, updatedAt: group.updatedAt,
                                                    constraintsJSON: group.constraintsJSON, metricsJSON: group.metricsJSON)
                    // Encoding strings and integers cannot fail.
                    let data = (try? encoder.encode(line)) ?? Data()
                    write(String(decoding: data, as: UTF8.self) + "\n")
                    written += 1
                }
                guard page.hasMore, let last = page.versions.last else { break }
                after = last.version
            }
        }
        writeMarks(try store.versionMarks(), encoder: encoder, write: write)
        return written
    }

    /// Writes `marks` as export lines: one ``ExportedMark`` a name, then ``ExportedFloor``
    /// when the floor is above 0.
    static func writeMarks(_ marks: VersionMarks, encoder: JSONEncoder, write: (String) -> Void) {
        func line(_ value: some Encodable) { write(String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self) + "\n") }
        for mark in marks.names { line(ExportedMark(name: mark.name, highWaterMark: mark.mark)) }
        if marks.floor > 0 { line(ExportedFloor(versionFloor: marks.floor)) }
    }

    /// The largest version an import takes: 2^53 − 1, the largest integer every JSON reader
    /// carries exactly (RFC 8259 §6), far beyond what a store's `PUT`s reach, and leaving the
    /// group room for new versions.
    static let maxImportedVersion = (1 << 53) - 1

    /// Why an import stopped: the 1-based line and what was wrong.
    struct ImportFailure: Error, Equatable {
        var line: Int
        var message: String
        /// The groups (faces) written before the failure, which stay.
        var imported = 0
        /// The groups (faces) found in the target exactly as exported before the failure.
        var unchanged = 0
    }

    /// What an import did: the summary line's numbers.
    struct ImportSummary: Equatable {
        /// Groups read (each imported or unchanged) and versions read.
        var groups = 0, versions = 0
        /// Groups written, and groups whose kept versions in the target were already exactly
        /// the exported ones (numbers, contents, `updatedAt`), left as they were.
        var imported = 0, unchanged = 0
        /// Mark lines read, and the floor line's value if one was read.
        var marks = 0
        var floor: Int?

        /// `2 groups, 4 versions read (1 imported, 1 unchanged); 1 high-water mark, version floor 3 read`.
        var line: String {
            "\(groups) groups, \(versions) versions read (\(imported) imported, \(unchanged) unchanged); "
                + "\(marks) high-water mark\(marks == 1 ? "" : "s")" + (floor.map { ", version floor \($0)" } ?? "") + " read"
        }
    }

    /// What an import says when a group (face) `name` whose numbers were used in the target
    /// (up to `mark`, or its current version when the mark is not known) cannot be written:
    /// `--replace` cannot help, so it says what can.
    static func reuseAdvice(_ noun: String, _ name: String) -> String {
        "--replace cannot help: to keep the target's \(noun), leave '\(name)' out of the import; "
            + "to take the export's, import into a store that never had '\(name)'"
    }

    /// The refusal of an existing group (face) `name` without `--replace`: it says
    /// whether `--replace` would work (the export's first version `first` is above the
    /// target's `current`) or what would.
    static func existsMessage(_ noun: String, _ name: String, current: Int?, first: Int) -> String {
        let held = current.map { " (its current version there is \($0))" } ?? ""
        if let current, first <= current {
            return "the \(noun) '\(name)' exists in the target with other versions\(held), and the export's start at \(first), "
                + "numbers the target has used; " + reuseAdvice(noun, name)
        }
        return "the \(noun) '\(name)' exists in the target with other versions\(held); give --replace to replace it"
    }

    /// A refused write of `name` in words: a reuse of numbers says what would work.
    static func refusal(_ noun: String, _ name: String, _ error: StoreError) -> String {
        let reason = LayoutService.describe(error)
        guard case .limitExceeded(let message) = error, message.hasPrefix(VersionedWritePolicy.reusePrefix) else {
            return "\(noun) '\(name)': \(reason)"
        }
        return "\(noun) '\(name)': \(reason); " + reuseAdvice(noun, name)
    }

    /// Reads `lines` (an export) and imports each group's versions in one transaction
    /// (``GroupStoring/importGroup(name:versions:replace:)``), then raises the target's
    /// high-water marks and version floor to the export's mark lines, in one transaction
    /// (``GroupStoring/raiseVersionMarks(_:)``; an export without them imports as before).
    /// Lines must come in name then version order, as export writes them, the mark lines
    /// after every version; blank lines are skipped. A group whose kept versions in the
    /// target are exactly the imported ones (numbers, contents, `updatedAt`) is left as it
    /// is and counted unchanged, so the same export imports again without error.
    ///
    /// On a failure, what came before the failing line stays: every group whose lines were
    /// followed by a line naming another group (read as far as its `name`) is imported, and
    /// the mark lines read are raised; the group of the lines just before a line that names
    /// no group (not JSON, no `name`) or names the same group is not, as that line may be
    /// one of its versions.
    /// - Returns: the summary (``ImportSummary``).
    /// - Throws: ``ImportFailure`` at the first bad line (not JSON of an export line's shape,
    ///   an invalid name, a version < 1 or above ``maxImportedVersion``, `updatedAt` not RFC 3339
    ///   UTC to the second, out of order, a version after a mark line, contents that
    ///   `PUT /groups/{name}` would refuse under `configuration`:
    ///   ``LayoutService/checkGroupBody(_:name:configuration:)``) or refused group (it exists
    ///   with other versions and `replace` is false, numbers it already had, a bound), naming
    ///   the line, with the groups imported and unchanged before it.
    static func importLines(
        _ lines: some Sequence<String>, into store: any GroupStoring, replace: Bool,
        configuration: ServiceConfiguration = ServiceConfiguration()
    ) throws(ImportFailure) -> ImportSummary {
        let decoder = JSONDecoder()
        var pending: [StoredGroup] = []
        var pendingLine = 0
        var summary = ImportSummary()
        var marks = ReadMarks()
        var number = 0
        func flush() throws(ImportFailure) {
            guard let name = pending.first?.name, let first = pending.first?.version else { return }
            defer { pending.removeAll(keepingCapacity: true) }
            func fail(_ message: String) -> ImportFailure {
                ImportFailure(line: pendingLine, message: message, imported: summary.imported, unchanged: summary.unchanged)
            }
            do {
                if try holds(store, pending) {
                    summary.unchanged += 1
                    return
                }
                try store.importGroup(name: name, versions: pending, replace: replace)
            } catch {
                guard case .preconditionFailed(let current) = error else { throw fail(refusal("group", name, error)) }
                throw fail(existsMessage("group", name, current: current, first: first))
            }
            summary.imported += 1
        }
        /// Stops at `number`: what came before stays (see above).
        func failure(_ message: String, flushing: Bool) -> ImportFailure {
            if flushing {
                do { try flush() } catch { return error }
            }
            do { try marks.apply { (marks) throws(StoreError) in try store.raiseVersionMarks(marks) } } catch { return error }
            return ImportFailure(line: number, message: message, imported: summary.imported, unchanged: summary.unchanged)
        }
        for text in lines {
            number += 1
            guard !text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            // A line naming another group than the pending one ends it, whatever else is wrong with the line.
            let named = (try? decoder.decode(NamedLine.self, from: Data(text.utf8)))?.name
            let endsPending = named.map { $0 != pending.last?.name } ?? false
            func fail(_ message: String) -> ImportFailure { failure(message, flushing: endsPending) }
            guard let parsed = ExportLine<ExportedGroupVersion>(text, decoder: decoder) else {
                throw fail("not a group version of an export (JSON object with name, version, updatedAt, constraintsJSON, metricsJSON), "
                           + "nor a high-water mark (name, highWaterMark) or the version floor (versionFloor)")
            }
            guard case .version(let line) = parsed else {
                if marks.firstLine == nil { try flush() }
                do {
                    try marks.read(parsed, number: number) { isValidGroupName($0) ? nil : "invalid group name '\($0)'" }
                } catch {
                    throw failure(error.message, flushing: false)
                }
                continue
            }
            if let firstMark = marks.firstLine {
                throw fail("a group version after the mark lines (from line \(firstMark)): an export writes every version first")
            }
            guard isValidGroupName(line.name) else { throw fail("invalid group name '\(line.name)'") }
            guard line.version >= 1 else { throw fail("version \(line.version) is below 1") }
            guard line.version <= maxImportedVersion else {
                throw fail("version \(line.version) is above \(maxImportedVersion), the largest a JSON number carries exactly")
            }
            let body: LayoutService.CheckedGroupBody
            do throws(EngineFailure) {
                let parser = JSONParser(maximumDepth: configuration.sceneLimits.maxJSONDepth)
                // Each text alone first, so that a syntax error's line and column are its own.
                for (member, text) in [("constraintsJSON", line.constraintsJSON), ("metricsJSON", line.metricsJSON)] {
                    do {
                        _ = try parser.parse(Array(text.utf8))
                    } catch {
                        throw EngineFailure.malformedJSON("\(member): \(error.message)").aboutAGroup()
                    }
                }
                let json: JSONValue
                do {
                    json = try parser.parse(Array("{\"constraints\":\(line.constraintsJSON),\"metrics\":\(line.metricsJSON)}".utf8))
                } catch {
                    throw EngineFailure.malformedJSON(error.message).aboutAGroup()
                }
                body = try LayoutService.checkGroupBody(json, name: line.name, configuration: configuration)
            } catch {
                let detail = Problem.describe(status: error.status, diagnostics: error.diagnostics, subject: .group).detail
                throw fail("version \(line.version) of '\(line.name)' is not a group PUT /groups would store: \(detail)")
            }
            guard isTimestamp(line.updatedAt) else {
                throw fail("updatedAt '\(line.updatedAt)' is not RFC 3339 UTC to the second (2026-11-30T14:05:09Z)")
            }
            if let previous = pending.last {
                if previous.name == line.name {
                    guard line.version > previous.version else {
                        throw fail("version \(line.version) of '\(line.name)' follows version \(previous.version): versions must ascend")
                    }
                } else {
                    guard Array(previous.name.utf8).lexicographicallyPrecedes(Array(line.name.utf8)) else {
                        throw fail("'\(line.name)' follows '\(previous.name)': names must ascend in byte order")
                    }
                    try flush()
                }
            }
            if pending.isEmpty {
                pendingLine = number
                summary.groups += 1
            }
            // Stored as a PUT writes them (an export's own text comes back unchanged).
            pending.append(StoredGroup(name: line.name, version: line.version, constraintsJSON: body.constraintsJSON,
                                       metricsJSON: body.metricsJSON, updatedAt: line.updatedAt))
            summary.versions += 1
        }
        try flush()
        try marks.apply { (marks) throws(StoreError) in try store.raiseVersionMarks(marks) }
        summary.marks = marks.marks.names.count
        summary.floor = marks.floorRead
        return summary
    }

    /// Whether the kept versions of `versions[0].name` in `store` are exactly the last
    /// ``GroupStoring/maxGroupVersions`` of `versions` (numbers, contents, `updatedAt`): a
    /// re-run import leaves such a group as it is.
    static func holds(_ store: any GroupStoring, _ versions: [StoredGroup]) throws(StoreError) -> Bool {
        guard let name = versions.first?.name else { return false }
        let kept = versions.suffix(store.maxGroupVersions)
        var stored: [StoredGroup] = []
        var after = 0
        while let page = try store.versions(ofGroup: name, after: after, limit: 1_000) {
            for info in page.versions {
                guard stored.count < kept.count, let group = try store.group(named: name, version: info.version) else { return false }
                stored.append(group)
            }
            guard page.hasMore, let last = page.versions.last else { break }
            after = last.version
        }
        return stored.elementsEqual(kept)
    }

    /// Whether `text` is `YYYY-MM-DDTHH:MM:SSZ` with digits where digits belong and fields in range.
    static func isTimestamp(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 4, 7: guard byte == UInt8(ascii: "-") else { return false }
            case 10: guard byte == UInt8(ascii: "T") else { return false }
            case 13, 16: guard byte == UInt8(ascii: ":") else { return false }
            case 19: guard byte == UInt8(ascii: "Z") else { return false }
            default: guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
            }
        }
        func field(_ start: Int, _ length: Int) -> Int { bytes[start..<start + length].reduce(0) { $0 * 10 + Int($1 - 48) } }
        return (1...12).contains(field(5, 2)) && (1...31).contains(field(8, 2)) && field(11, 2) < 24
            && field(14, 2) < 60 && field(17, 2) < 60 && field(0, 4) >= 1
    }
}

extension LayoutdCommand {
    static let groupsOptions: [OptionSpec] = [
        OptionSpec(name: "db", valueName: "PATH|URL", help: "The store: a SQLite file, or postgres://user:pass@host:port/db (parts left out come from libpq's PG* variables; postgres: for those alone)."),
        OptionSpec(name: "replace", valueName: "", help: "(import) Replace groups the target holds with other versions, when the export's numbers are above the target's; without it such a group stops the import (groups stored as exported are left as they are)", isFlag: true),
        OptionSpec(name: "max-groups", valueName: "N", help: "(import) Groups the target may hold (as serve's flag).", defaultDescription: "10000"),
        OptionSpec(name: "max-group-versions", valueName: "N", help: "(import) Versions kept per group; older imported ones are pruned (as serve's flag).", defaultDescription: "100"),
        OptionSpec(name: "max-group-bytes", valueName: "BYTES", help: "(import) Bytes all kept group versions may count together (as serve's flag).", defaultDescription: "67108864"),
        OptionSpec(name: "max-group-constraints", valueName: "N", help: "(import) Constraint entries in one group version (as serve's flag).", defaultDescription: "1000"),
    ]

    /// `layoutd groups export --db A` / `layoutd groups import --db B [--replace]`.
    /// Exit 0 done, 1 a store or input failure (the reason on stderr, with the line for
    /// import), 2 bad usage.
    static func groups(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Int32 {
        let summary = """
            export: print every kept version of every group as JSON lines (name, then version order).
            import: read such lines from standard input and store them, keeping version numbers.
            Exit 0 done, 1 failure, 2 bad usage.
            """
        guard let (options, action, db) = try transferArguments("groups", arguments, specs: groupsOptions, summary: summary,
                                                                environment: environment) else { return 0 }
        let maxGroupVersions = try options.int("max-group-versions", default: 100)
        guard maxGroupVersions >= 1 else { throw UsageError("--max-group-versions must be at least 1") }
        var configuration = ServiceConfiguration()
        configuration.maxGroupConstraints = try options.int("max-group-constraints", default: configuration.maxGroupConstraints)
        guard configuration.maxGroupConstraints >= 0 else { throw UsageError("--max-group-constraints must be at least 0") }
        return try runTransfer("groups", action: action) { () throws -> any GroupStoring in
            try GroupsTransfer.openStore(db, readOnly: action == "export", maxGroups: try options.int("max-groups", default: 10_000),
                                         maxGroupVersions: maxGroupVersions,
                                         maxGroupBytes: try options.int("max-group-bytes", default: 64 << 20))
        } export: { (store, write) throws(StoreError) in
            try GroupsTransfer.export(store, write: write)
        } import: { (store, lines) throws(GroupsTransfer.ImportFailure) -> String in
            try GroupsTransfer.importLines(lines, into: store, replace: options.flag("replace"), configuration: configuration).line
        }
    }
}

extension LayoutdCommand {
    /// The arguments of `layoutd KIND export|import --db PATH|URL [options]` (groups, fonts):
    /// with `--help` or `-h`, prints the help (`summary` and `specs`) and returns `nil`.
    /// - Throws: ``UsageError`` for an unknown option or bad value, no action or another
    ///   than `export` or `import`, or no `--db`.
    static func transferArguments(
        _ kind: String, _ arguments: [String], specs: [OptionSpec], summary: String, environment: [String: String]
    ) throws(UsageError) -> (options: ParsedArguments, action: String, db: String)? {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(OptionParser.help(usage: "layoutd \(kind) export|import --db PATH|URL [options]", summary: summary, specs: specs))
            return nil
        }
        let options = try OptionParser.parse(arguments, specs: specs, environment: environment)
        guard options.positionals.count == 1, let action = options.positionals.first, action == "export" || action == "import" else {
            throw UsageError("\(kind) needs one action, export or import")
        }
        guard let db = options.string("db"), !db.isEmpty else { throw UsageError("\(kind) \(action) needs --db PATH|URL") }
        return (options, action, db)
    }

    /// What `layoutd groups` and `layoutd fonts` do once their options are read: open the
    /// store (`open`; ``UsageError`` passes through, a ``StoreError`` is reported as
    /// `layoutd KIND: cannot open the store: …`), then for `export` write its lines to
    /// standard output, or for `import` read standard input's lines into it and report
    /// `layoutd KIND import: SUMMARY` (the failing line and why, on failure).
    /// - Returns: the exit status: 0 done, 1 a store or input failure (the reason on stderr).
    /// - Throws: ``UsageError`` from `open` (a bad option value).
    static func runTransfer<Store>(
        _ kind: String, action: String, open: () throws -> Store,
        export: (Store, (String) -> Void) throws(StoreError) -> Void,
        import importLines: (Store, IteratorSequence<AnyIterator<String>>) throws(GroupsTransfer.ImportFailure) -> String
    ) throws(UsageError) -> Int32 {
        let store: Store
        do {
            store = try open()
        } catch let error as UsageError {
            throw error
        } catch let error as StoreError {
            var reason = LayoutService.describe(error)
            if case .cannotOpen(let message) = error { reason = message }
            FileHandle.standardError.write(Data("layoutd \(kind): cannot open the store: \(reason)\n".utf8))
            return 1
        } catch {
            return 1
        }
        if action == "export" {
            do {
                try export(store) { line in FileHandle.standardOutput.write(Data(line.utf8)) }
            } catch {
                FileHandle.standardError.write(Data("layoutd \(kind) export: \(LayoutService.describe(error))\n".utf8))
                return 1
            }
            return 0
        }
        let lines = AnyIterator<String> { readLine(strippingNewline: true) }
        do {
            let summary = try importLines(store, IteratorSequence(lines))
            FileHandle.standardError.write(Data("layoutd \(kind) import: \(summary)\n".utf8))
            return 0
        } catch {
            var report = "layoutd \(kind) import: line \(error.line): \(error.message)\n"
            if error.imported + error.unchanged > 0 {
                report += "layoutd \(kind) import: before line \(error.line), \(error.imported) imported and \(error.unchanged) unchanged; they stay\n"
            }
            FileHandle.standardError.write(Data(report.utf8))
            return 1
        }
    }
}
