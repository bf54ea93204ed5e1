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
    /// (byte order) then version order, through `write` (each call one line with its `\n`).
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
        return written
    }

    /// The largest version an import takes: 2^53 − 1, the largest integer every JSON reader
    /// carries exactly (RFC 8259 §6), far beyond what a store's `PUT`s reach, and leaving the
    /// group room for new versions.
    static let maxImportedVersion = (1 << 53) - 1

    /// Why an import stopped: the 1-based line and what was wrong.
    struct ImportFailure: Error, Equatable {
        var line: Int
        var message: String
    }

    /// Reads `lines` (an export) and imports each group's versions in one transaction
    /// (``GroupStoring/importGroup(name:versions:replace:)``). Lines must come in name
    /// then version order, as export writes them; blank lines are skipped. Groups imported
    /// before a failure stay imported.
    /// - Returns: the groups imported and the versions read.
    /// - Throws: ``ImportFailure`` at the first bad line (not JSON of the export's shape, an
    ///   invalid name, a version < 1 or above ``maxImportedVersion``, `updatedAt` not RFC 3339
    ///   UTC to the second, out of order, contents that `PUT /groups/{name}` would refuse under
    ///   `configuration`: ``LayoutService/checkGroupBody(_:name:configuration:)``) or refused
    ///   group (it exists and `replace` is false, numbers it already had, a bound), naming the line.
    static func importLines(
        _ lines: some Sequence<String>, into store: any GroupStoring, replace: Bool,
        configuration: ServiceConfiguration = ServiceConfiguration()
    ) throws(ImportFailure) -> (groups: Int, versions: Int) {
        let decoder = JSONDecoder()
        var pending: [StoredGroup] = []
        var pendingLine = 0
        var (groups, versions, number) = (0, 0, 0)
        func flush() throws(ImportFailure) {
            guard let name = pending.first?.name else { return }
            do {
                try store.importGroup(name: name, versions: pending, replace: replace)
            } catch {
                guard case .preconditionFailed = error else {
                    throw ImportFailure(line: pendingLine, message: "group '\(name)': \(LayoutService.describe(error))")
                }
                throw ImportFailure(line: pendingLine, message: "the group '\(name)' exists in the target; give --replace to replace it")
            }
            groups += 1
            pending.removeAll(keepingCapacity: true)
        }
        for text in lines {
            number += 1
            guard !text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) else { continue }
            guard let line = try? decoder.decode(ExportedGroupVersion.self, from: Data(text.utf8)) else {
                throw ImportFailure(line: number, message: "not a group version of an export (JSON object with name, version, updatedAt, constraintsJSON, metricsJSON)")
            }
            guard isValidGroupName(line.name) else { throw ImportFailure(line: number, message: "invalid group name '\(line.name)'") }
            guard line.version >= 1 else { throw ImportFailure(line: number, message: "version \(line.version) is below 1") }
            guard line.version <= maxImportedVersion else {
                throw ImportFailure(line: number, message: "version \(line.version) is above \(maxImportedVersion), the largest a JSON number carries exactly")
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
                throw ImportFailure(line: number, message: "version \(line.version) of '\(line.name)' is not a group PUT /groups would store: \(detail)")
            }
            guard isTimestamp(line.updatedAt) else {
                throw ImportFailure(line: number, message: "updatedAt '\(line.updatedAt)' is not RFC 3339 UTC to the second (2026-11-30T14:05:09Z)")
            }
            if let previous = pending.last {
                if previous.name == line.name {
                    guard line.version > previous.version else {
                        throw ImportFailure(line: number, message: "version \(line.version) of '\(line.name)' follows version \(previous.version): versions must ascend")
                    }
                } else {
                    guard Array(previous.name.utf8).lexicographicallyPrecedes(Array(line.name.utf8)) else {
                        throw ImportFailure(line: number, message: "'\(line.name)' follows '\(previous.name)': names must ascend in byte order")
                    }
                    try flush()
                }
            }
            if pending.isEmpty { pendingLine = number }
            // Stored as a PUT writes them (an export's own text comes back unchanged).
            pending.append(StoredGroup(name: line.name, version: line.version, constraintsJSON: body.constraintsJSON,
                                       metricsJSON: body.metricsJSON, updatedAt: line.updatedAt))
            versions += 1
        }
        try flush()
        return (groups, versions)
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
        OptionSpec(name: "replace", valueName: "", help: "(import) Replace groups that exist in the target; without it such a group stops the import.", isFlag: true),
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
            let (groups, versions) = try GroupsTransfer.importLines(lines, into: store, replace: options.flag("replace"),
                                                                    configuration: configuration)
            return "\(groups) groups, \(versions) versions read"
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
            FileHandle.standardError.write(Data("layoutd \(kind) import: line \(error.line): \(error.message)\n".utf8))
            return 1
        }
    }
}
