/// The PostgreSQL tables of one stored, versioned kind of record (groups, fonts), the
/// advisory lock that serialises its creations, and the statements
/// ``PostgreSQLVersionedRows`` sends: every kind has the same shape of tables (see
/// ``PostgreSQLGroupStore``), only their names, the content columns and the lock key differ.
/// The statements for groups are held byte for byte by `VersionedTablesTests`.
struct PostgreSQLVersionedTables<Record: StoredVersion> {
    /// Per name: `last_version` (the high-water mark), `current_version`, `first_version`.
    let names: String
    /// The kept versions: `name`, `version`, the content columns, `updated_at` (default `now()`).
    let versions: String
    /// One row (`id = 1`): the start of every name without a row.
    let floor: String
    /// One row (`id = 1`): the running total of the kept versions' counted bytes.
    let bytes: String
    /// The columns between `version` and `updated_at` in ``versions``, comma-separated.
    let contentColumns: String
    /// Their values in an insert, parameters `$3` on (e.g. `decode($3, 'hex')`).
    let contentPlaceholders: String
    /// The parameters of ``contentPlaceholders``, in order.
    let contentValues: (Record) -> [any PostgreSQLBindable]
    /// The sum of ``StoredBytes/count(payload:)`` over the rows of `name = $1 AND version <= $2`.
    let storedBytesSQL: String
    /// The transaction-level advisory lock key that serialises creations.
    let creationLockKey: Int64

    /// `name`'s row; with `locking`, `FOR UPDATE`.
    func readNameSQL(locking: Bool) -> String {
        "SELECT last_version, current_version, first_version FROM \(names) WHERE name = $1" + (locking ? " FOR UPDATE" : "")
    }
    var lockCreationsSQL: String { "SELECT pg_advisory_xact_lock($1)" }
    var liveNameCountSQL: String { "SELECT count(*) FROM \(names) WHERE current_version IS NOT NULL" }
    var versionFloorSQL: String { "SELECT value FROM \(floor)" }
    var lockTotalBytesSQL: String { "SELECT value FROM \(bytes) WHERE id = 1 FOR UPDATE" }
    var setNameSQL: String {
        """
        INSERT INTO \(names) (name, last_version, current_version, first_version) VALUES ($1, $2, $3, $4)
        ON CONFLICT (name) DO UPDATE SET
            last_version = excluded.last_version, current_version = excluded.current_version,
            first_version = excluded.first_version
        """
    }
    /// An insert with the record's own `updated_at` (`$5`).
    var insertStampedSQL: String {
        """
        INSERT INTO \(versions) (name, version, \(contentColumns), updated_at)
        VALUES ($1, $2, \(contentPlaceholders), $5::timestamptz)
        """
    }
    /// An insert that takes the database's clock and returns it.
    var insertReturningSQL: String {
        """
        INSERT INTO \(versions) (name, version, \(contentColumns)) VALUES ($1, $2, \(contentPlaceholders))
        RETURNING \(PostgreSQLSchema.updatedAtText("updated_at"))
        """
    }
    var deleteVersionsUpToSQL: String { "DELETE FROM \(versions) WHERE name = $1 AND version <= $2" }
    var deleteAllVersionsSQL: String { "DELETE FROM \(versions) WHERE name = $1" }
    var markDeletedSQL: String { "UPDATE \(names) SET current_version = NULL, first_version = NULL WHERE name = $1" }
    var addToTotalBytesSQL: String { "UPDATE \(bytes) SET value = value + $1 WHERE id = 1" }
    var deletedNameCountSQL: String { "SELECT count(*) FROM \(names) WHERE current_version IS NULL" }
    var dropDeletedNamesSQL: String {
        """
        WITH dropped AS (
            DELETE FROM \(names) WHERE current_version IS NULL AND name IN (
                SELECT name FROM \(names) WHERE current_version IS NULL
                ORDER BY last_version, name LIMIT $1 FOR UPDATE)
            RETURNING last_version)
        SELECT coalesce(max(last_version), 0) FROM dropped
        """
    }
    var raiseVersionFloorSQL: String { "UPDATE \(floor) SET value = greatest(value, $1) WHERE id = 1" }
    var raiseMarkSQL: String {
        """
        INSERT INTO \(names) (name, last_version, current_version, first_version) VALUES ($1, $2, NULL, NULL)
        ON CONFLICT (name) DO UPDATE SET last_version = greatest(\(names).last_version, excluded.last_version)
        """
    }
    /// The names whose mark is above their newest kept version (``VersionMarks``), by name (`COLLATE "C"`).
    var marksSQL: String {
        "SELECT name, last_version FROM \(names) WHERE current_version IS NULL OR last_version > current_version ORDER BY name"
    }
}

extension PostgreSQLVersionedTables where Record == StoredGroup {
    /// `group_names`, `group_versions` (`constraints_json`, `metrics_json`), `version_floor`,
    /// `group_bytes`; creations take ``PostgreSQLGroupStore/creationLockKey``.
    static var groups: Self {
        Self(names: "group_names", versions: "group_versions", floor: "version_floor", bytes: "group_bytes",
             contentColumns: "constraints_json, metrics_json", contentPlaceholders: "$3, $4",
             contentValues: { [$0.constraintsJSON, $0.metricsJSON] },
             storedBytesSQL: StoredGroup.storedBytesSQL(.postgreSQL, where: "name = $1 AND version <= $2"),
             creationLockKey: PostgreSQLGroupStore.creationLockKey)
    }
}

extension PostgreSQLVersionedTables where Record == StoredFace {
    /// `font_names`, `font_versions` (`bytes` as hex text, `sha256`), `font_version_floor`,
    /// `font_bytes`; creations take ``PostgreSQLFontStore/creationLockKey``.
    static var fonts: Self {
        Self(names: "font_names", versions: "font_versions", floor: "font_version_floor", bytes: "font_bytes",
             contentColumns: "bytes, sha256", contentPlaceholders: "decode($3, 'hex'), $4",
             contentValues: { [PostgreSQLFontStore.hex($0.bytes), $0.sha256] },
             storedBytesSQL: StoredFace.storedBytesSQL(.postgreSQL, where: "name = $1 AND version <= $2"),
             creationLockKey: PostgreSQLFontStore.creationLockKey)
    }
}

/// The tables of ``tables`` as one write transaction on `connection` sees them
/// (``VersionedRows``), for groups and fonts alike. Lock order, for every writer: the
/// creation lock (``PostgreSQLVersionedTables/creationLockKey``), name rows, the bytes row;
/// a delete locks its name row, the deleted names it drops, then the bytes row.
final class PostgreSQLVersionedRows<Record: StoredVersion>: VersionedRows {
    typealias Failure = PostgreSQLError

    let connection: PostgreSQLConnection
    let tables: PostgreSQLVersionedTables<Record>
    /// Whether this transaction holds the creation lock.
    private var holdsCreationLock = false

    init(_ connection: PostgreSQLConnection, tables: PostgreSQLVersionedTables<Record>) {
        self.connection = connection
        self.tables = tables
    }

    func lockName(_ name: String, creation: CreationLock) throws(PostgreSQLError) -> NameRow? {
        switch creation {
        case .never: break
        case .always: try lockCreations()
        case .ifAbsent:
            // A plain read first: if this write may create the name, the creation lock
            // must come before the row lock.
            if try read(name, locking: false)?.current == nil { try lockCreations() }
        }
        return try read(name, locking: true)
    }

    /// `name`'s row; with `locking`, locked until the transaction ends.
    private func read(_ name: String, locking: Bool) throws(PostgreSQLError) -> NameRow? {
        guard let row = try connection.query(tables.readNameSQL(locking: locking), [name]).first else { return nil }
        return NameRow(last: try row.int(0), current: try row.optionalInt(1), first: try row.optionalInt(2))
    }

    /// The transaction-level advisory lock ``PostgreSQLVersionedTables/creationLockKey``.
    /// Should a writer that finds the row deleted only after locking it deadlock here,
    /// PostgreSQL aborts one transaction with 40P01, which
    /// ``PostgreSQLConnection/transaction(isolation:maxAttempts:_:)`` runs again.
    func lockCreations() throws(PostgreSQLError) {
        guard !holdsCreationLock else { return }
        try connection.query(tables.lockCreationsSQL, [tables.creationLockKey])
        holdsCreationLock = true
    }

    func liveNameCount() throws(PostgreSQLError) -> Int {
        try connection.query(tables.liveNameCountSQL).first?.int(0) ?? 0
    }

    func versionFloor() throws(PostgreSQLError) -> Int {
        try connection.query(tables.versionFloorSQL).first?.int(0) ?? 0
    }

    /// `FOR UPDATE`: the bound is exact across processes.
    func lockTotalBytes() throws(PostgreSQLError) -> Int {
        try connection.query(tables.lockTotalBytesSQL).first?.int(0) ?? 0
    }

    func storedBytes(of name: String, upTo version: Int) throws(PostgreSQLError) -> Int {
        try connection.query(tables.storedBytesSQL, [name, version]).first?.int(0) ?? 0
    }

    /// `nil`: the column's default, the database's `now()` (the transaction's start).
    func timestampForNewVersion() -> String? { nil }

    func setName(_ name: String, last: Int, current: Int, first: Int) throws(PostgreSQLError) {
        try connection.query(tables.setNameSQL, [name, last, current, first])
    }

    /// A version with an empty `updatedAt` takes the database's clock (and gets it back).
    func insert(_ record: Record) throws(PostgreSQLError) -> Record {
        let content = tables.contentValues(record)
        guard record.updatedAt.isEmpty else {
            try connection.query(tables.insertStampedSQL, [record.name, record.version] + content + [record.updatedAt])
            return record
        }
        var stored = record
        stored.updatedAt = try connection.query(tables.insertReturningSQL, [record.name, record.version] + content)
            .first?.string(0) ?? ""
        return stored
    }

    func deleteVersions(of name: String, upTo version: Int?) throws(PostgreSQLError) {
        if let version {
            try connection.query(tables.deleteVersionsUpToSQL, [name, version])
        } else {
            try connection.query(tables.deleteAllVersionsSQL, [name])
        }
    }

    func markDeleted(_ name: String) throws(PostgreSQLError) {
        try connection.query(tables.markDeletedSQL, [name])
    }

    func addToTotalBytes(_ delta: Int) throws(PostgreSQLError) {
        try connection.query(tables.addToTotalBytesSQL, [delta])
    }

    func deletedNameCount() throws(PostgreSQLError) -> Int {
        try connection.query(tables.deletedNameCountSQL).first?.int(0) ?? 0
    }

    /// A row a concurrent write is re-creating is locked by it; once that commits the
    /// row is no longer deleted and is skipped.
    func dropDeletedNames(count: Int) throws(PostgreSQLError) -> Int {
        try connection.query(tables.dropDeletedNamesSQL, [count]).first?.int(0) ?? 0
    }

    func raiseVersionFloor(to mark: Int) throws(PostgreSQLError) {
        try connection.query(tables.raiseVersionFloorSQL, [mark])
    }

    func raiseMark(_ name: String, to mark: Int) throws(PostgreSQLError) {
        try connection.query(tables.raiseMarkSQL, [name, mark])
    }

    /// The names whose mark is above their newest kept version, and the floor.
    func marks() throws(PostgreSQLError) -> VersionMarks {
        var names: [VersionMarks.Mark] = []
        for row in try connection.query(tables.marksSQL).rows {
            names.append(.init(name: try row.string(0), mark: try row.int(1)))
        }
        return VersionMarks(names: names, floor: try versionFloor())
    }

    /// Nothing else depends on a record in this database: the result caches of the
    /// processes tie results to groups and faces by their keys' `NAME@VERSION`s.
    func didWrite(_ name: String) {}
}
