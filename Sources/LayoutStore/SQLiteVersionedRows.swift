/// The SQLite tables of one stored, versioned kind of record (groups, fonts) and the
/// statements ``SQLiteVersionedRows`` sends to them: every kind has the same shape of
/// tables (see ``SQLiteGroupStore``), only their names and the content columns differ.
/// The statements for groups are held byte for byte by `VersionedTablesTests`.
struct SQLiteVersionedTables<Record: StoredVersion> {
    /// Per name: `last_version` (the high-water mark), `current_version`, `first_version`.
    let names: String
    /// The kept versions: `name`, `version`, the content columns, `updated_at`.
    let versions: String
    /// One row (`id = 1`): the start of every name without a row.
    let floor: String
    /// One row (`id = 1`): the running total of the kept versions' counted bytes.
    let bytes: String
    /// The columns between `version` and `updated_at` in ``versions``, comma-separated,
    /// as ``bindContent`` binds them (from parameter 3 on).
    let contentColumns: String
    /// The sum of ``StoredBytes/count(payload:)`` over the rows of `name = ? AND version <= ?`.
    let storedBytesSQL: String
    /// Binds a record's content columns, in ``contentColumns``' order, from parameter 3 on.
    let bindContent: (Statement, Record) throws(SQLiteError) -> Void
    /// The name the result cache records for a record's name (``ResultCache/invalidate(groupNamed:)``).
    let cacheName: (String) -> String

    var lockNameSQL: String { "SELECT last_version, current_version, first_version FROM \(names) WHERE name = ?" }
    var liveNameCountSQL: String { "SELECT count(*) FROM \(names) WHERE current_version IS NOT NULL" }
    var versionFloorSQL: String { "SELECT value FROM \(floor)" }
    var totalBytesSQL: String { "SELECT value FROM \(bytes)" }
    var setNameSQL: String {
        """
        INSERT INTO \(names) (name, last_version, current_version, first_version) VALUES (?, ?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET
            last_version = excluded.last_version, current_version = excluded.current_version,
            first_version = excluded.first_version
        """
    }
    var insertSQL: String { "INSERT INTO \(versions) (name, version, \(contentColumns), updated_at) VALUES (?, ?, ?, ?, ?)" }
    var deleteVersionsUpToSQL: String { "DELETE FROM \(versions) WHERE name = ? AND version <= ?" }
    var deleteAllVersionsSQL: String { "DELETE FROM \(versions) WHERE name = ?" }
    var markDeletedSQL: String { "UPDATE \(names) SET current_version = NULL, first_version = NULL WHERE name = ?" }
    var addToTotalBytesSQL: String { "UPDATE \(bytes) SET value = value + ? WHERE id = 1" }
    var deletedNameCountSQL: String { "SELECT count(*) FROM \(names) WHERE current_version IS NULL" }
    var selectDeletedNamesSQL: String {
        "SELECT name, last_version FROM \(names) WHERE current_version IS NULL ORDER BY last_version, name LIMIT ?"
    }
    var dropDeletedNameSQL: String { "DELETE FROM \(names) WHERE name = ? AND current_version IS NULL" }
    var raiseVersionFloorSQL: String { "UPDATE \(floor) SET value = max(value, ?) WHERE id = 1" }
    var raiseMarkSQL: String {
        """
        INSERT INTO \(names) (name, last_version, current_version, first_version) VALUES (?, ?, NULL, NULL)
        ON CONFLICT (name) DO UPDATE SET last_version = max(last_version, excluded.last_version)
        """
    }
    /// The names whose mark is above their newest kept version (``VersionMarks``), by name.
    var marksSQL: String {
        "SELECT name, last_version FROM \(names) WHERE current_version IS NULL OR last_version > current_version ORDER BY name"
    }
}

extension SQLiteVersionedTables where Record == StoredGroup {
    /// `group_names`, `group_versions` (`constraints_json`, `metrics_json`), `version_floor`,
    /// `group_bytes`; cached results record the group's own name.
    static var groups: Self {
        Self(names: "group_names", versions: "group_versions", floor: "version_floor", bytes: "group_bytes",
             contentColumns: "constraints_json, metrics_json",
             storedBytesSQL: StoredGroup.storedBytesSQL(.sqlite, where: "name = ? AND version <= ?"),
             bindContent: { (statement, group) throws(SQLiteError) in
                 try statement.bind(group.constraintsJSON, at: 3)
                 try statement.bind(group.metricsJSON, at: 4)
             },
             cacheName: { $0 })
    }
}

extension SQLiteVersionedTables where Record == StoredFace {
    /// `font_names`, `font_versions` (`bytes`, `sha256`), `font_version_floor`, `font_bytes`;
    /// cached results record ``SQLiteFontStore/cacheName(_:)``.
    static var fonts: Self {
        Self(names: "font_names", versions: "font_versions", floor: "font_version_floor", bytes: "font_bytes",
             contentColumns: "bytes, sha256",
             storedBytesSQL: StoredFace.storedBytesSQL(.sqlite, where: "name = ? AND version <= ?"),
             bindContent: { (statement, face) throws(SQLiteError) in
                 try statement.bind(face.bytes, at: 3)
                 try statement.bind(face.sha256, at: 4)
             },
             cacheName: SQLiteFontStore.cacheName)
    }
}

/// The tables of ``tables`` as one SQLite write transaction sees them (``VersionedRows``),
/// for groups and fonts alike. SQLite runs one writer at a time: the `BEGIN IMMEDIATE`
/// transaction the caller opened is the only lock, so the row and creation locks the
/// policy asks for are that transaction itself. Made per write (it holds no state).
final class SQLiteVersionedRows<Record: StoredVersion>: VersionedRows {
    typealias Failure = SQLiteError

    let connection: SQLiteConnection
    let cache: ResultCache
    let tables: SQLiteVersionedTables<Record>
    let now: () -> String

    init(connection: SQLiteConnection, cache: ResultCache, tables: SQLiteVersionedTables<Record>, now: @escaping () -> String) {
        self.connection = connection
        self.cache = cache
        self.tables = tables
        self.now = now
    }

    /// Runs `sql` once, with `name` bound first when given and `numbers` after it.
    private func run(_ sql: String, name: String? = nil, _ numbers: Int...) throws(SQLiteError) {
        try connection.withStatement(sql) { (statement) throws(SQLiteError) in
            var index: Int32 = 1
            if let name {
                try statement.bind(name, at: index)
                index += 1
            }
            for number in numbers {
                try statement.bind(number, at: index)
                index += 1
            }
            try statement.step()
        }
    }

    /// A plain read: `BEGIN IMMEDIATE` already holds the only write lock.
    func lockName(_ name: String, creation: CreationLock) throws(SQLiteError) -> NameRow? {
        try connection.withStatement(tables.lockNameSQL) { (statement) throws(SQLiteError) -> NameRow? in
            try statement.bind(name, at: 1)
            guard try statement.step() else { return nil }
            return NameRow(last: statement.int(at: 0), current: statement.isNull(at: 1) ? nil : statement.int(at: 1),
                           first: statement.isNull(at: 2) ? nil : statement.int(at: 2))
        }
    }

    /// Nothing to take: `BEGIN IMMEDIATE` serialises every write.
    func lockCreations() {}

    func liveNameCount() throws(SQLiteError) -> Int {
        try connection.scalarInt(tables.liveNameCountSQL)
    }

    func versionFloor() throws(SQLiteError) -> Int {
        try connection.scalarInt(tables.versionFloorSQL)
    }

    func lockTotalBytes() throws(SQLiteError) -> Int {
        try connection.scalarInt(tables.totalBytesSQL)
    }

    /// O(the bytes of those rows): each is read once.
    func storedBytes(of name: String, upTo version: Int) throws(SQLiteError) -> Int {
        try connection.withStatement(tables.storedBytesSQL) { (statement) throws(SQLiteError) -> Int in
            try statement.bind(name, at: 1)
            try statement.bind(version, at: 2)
            return try statement.step() ? statement.int(at: 0) : 0
        }
    }

    func timestampForNewVersion() -> String? { now() }

    func setName(_ name: String, last: Int, current: Int, first: Int) throws(SQLiteError) {
        try run(tables.setNameSQL, name: name, last, current, first)
    }

    func insert(_ record: Record) throws(SQLiteError) -> Record {
        try connection.withStatement(tables.insertSQL) { (statement) throws(SQLiteError) in
            try statement.bind(record.name, at: 1)
            try statement.bind(record.version, at: 2)
            try tables.bindContent(statement, record)
            try statement.bind(record.updatedAt, at: 5)
            try statement.step()
        }
        return record
    }

    func deleteVersions(of name: String, upTo version: Int?) throws(SQLiteError) {
        if let version {
            try run(tables.deleteVersionsUpToSQL, name: name, version)
        } else {
            try run(tables.deleteAllVersionsSQL, name: name)
        }
    }

    func markDeleted(_ name: String) throws(SQLiteError) {
        try run(tables.markDeletedSQL, name: name)
    }

    func addToTotalBytes(_ delta: Int) throws(SQLiteError) {
        try run(tables.addToTotalBytesSQL, delta)
    }

    /// O(deleted rows) (a partial index).
    func deletedNameCount() throws(SQLiteError) -> Int {
        try connection.scalarInt(tables.deletedNameCountSQL)
    }

    /// O(d log n) for d rows.
    func dropDeletedNames(count: Int) throws(SQLiteError) -> Int {
        var dropped: [String] = []
        var highest = 0
        try connection.withStatement(tables.selectDeletedNamesSQL) { (statement) throws(SQLiteError) in
            try statement.bind(count, at: 1)
            while try statement.step() {
                dropped.append(statement.string(at: 0))
                highest = max(highest, statement.int(at: 1))
            }
        }
        for name in dropped {
            try run(tables.dropDeletedNameSQL, name: name)
        }
        return highest
    }

    func raiseVersionFloor(to mark: Int) throws(SQLiteError) {
        try run(tables.raiseVersionFloorSQL, mark)
    }

    func raiseMark(_ name: String, to mark: Int) throws(SQLiteError) {
        try run(tables.raiseMarkSQL, name: name, mark)
    }

    /// The names whose mark is above their newest kept version, and the floor; O(deleted rows + n).
    func marks() throws(SQLiteError) -> VersionMarks {
        let names = try connection.withStatement(tables.marksSQL) { (statement) throws(SQLiteError) -> [VersionMarks.Mark] in
            var names: [VersionMarks.Mark] = []
            while try statement.step() { names.append(.init(name: statement.string(at: 0), mark: statement.int(at: 1))) }
            return names
        }
        return VersionMarks(names: names, floor: try versionFloor())
    }

    /// Deletes the cached results that used any version of `name`.
    func didWrite(_ name: String) throws(SQLiteError) {
        try cache.invalidate(groupNamed: tables.cacheName(name))
    }
}

@available(*, unavailable)
extension SQLiteVersionedRows: Sendable {}
