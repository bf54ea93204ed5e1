import Dispatch
import Synchronization

/// Versioned named constraint groups in PostgreSQL, shared by every process that uses the
/// database: the rules of ``VersionedWritePolicy``, as SQLite's ``SQLiteGroupStore``
/// follows them, made to hold across processes by row and advisory locks (this type only
/// reads and writes the rows, ``PostgreSQLVersionedRows``).
///
/// - Versions are global and never reused: `group_names.last_version`, the high-water mark,
///   is read under a row lock (`SELECT … FOR UPDATE`) and raised in the same transaction
///   that writes the version, so concurrent writers of one name queue behind each other and
///   each gets the next number. Deleted names' marks are bounded by the policy: beyond
///   ``maxDeletedNames`` rows, a delete drops the lowest marks and raises `version_floor`.
/// - `If-Match` and `If-None-Match: *` are checked inside that transaction, against the
///   locked row.
/// - The group count limit is exact: a write that would create a group (a new name, or one
///   deleted) first takes the transaction-level advisory lock ``creationLockKey``, so
///   creations are counted one at a time; deletions need no lock (they only lower the
///   count). Lock order is creation lock, name row, `group_bytes` row; a delete locks its
///   name row, the deleted names it drops, then `group_bytes`. Should a writer that finds
///   the row deleted only after locking it deadlock on the creation lock, PostgreSQL aborts
///   one transaction with 40P01, which ``PostgreSQLConnection/transaction(isolation:maxAttempts:_:)``
///   runs again.
/// - History: the write that makes version *v* deletes versions up to *v* − ``maxGroupVersions``;
///   `first_version` tells a pruned version from one never written.
/// - Bytes: the running total is the one row of `group_bytes`, read `FOR UPDATE` by every
///   write, so the bound ``maxGroupBytes`` is exact across processes (at the price of
///   group writes committing one at a time, which they nearly do anyway on one name).
///   Each version counts ``StoredBytes/count(payload:)`` of its UTF-8 bytes, the same
///   rule as SQLite's (``StoredGroup/storedBytesSQL(_:where:)``).
/// - `updatedAt` is the database's clock (`now()`, the transaction's start).
///
/// Every call takes one connection from the pool for one transaction or one statement.
/// Errors map to ``StoreError`` by ``StoreError/init(_:)-(PostgreSQLError)``: a lost or
/// refused connection, a read-only server or a pool wait beyond its timeout is
/// ``StoreError/unavailable(_:)`` (503). Held by `PostgreSQLGroupStoreTests` and
/// `GroupStoringConformanceTests`.
public final class PostgreSQLGroupStore: GroupStoring {
    /// The advisory lock key that serialises group creations: ``PostgreSQLSchema/migrationLockKey`` + 1.
    static let creationLockKey: Int64 = PostgreSQLSchema.migrationLockKey + 1

    /// Where the connections come from.
    let pool: PostgreSQLConnectionPool
    /// The rules of every write: bounds, numbering, pruning, messages.
    public let policy: VersionedWritePolicy
    /// The most groups that may exist at once.
    public var maxGroups: Int { policy.maxNames }
    /// The most versions kept per group (at least 1).
    public var maxGroupVersions: Int { policy.maxVersions }
    /// The most deleted names whose high-water marks are kept in rows (default: ``maxGroups``).
    public var maxDeletedNames: Int { policy.maxDeletedNames }
    /// The most bytes the kept versions count together.
    public var maxGroupBytes: Int { policy.maxBytes }
    /// `true`: every call is a round trip to the server.
    public var lookupsAreRoundTrips: Bool { true }
    /// `false`: a read-only server (a standby) is found write by write (503).
    public var isReadOnly: Bool { false }

    /// Whether the schema is known to be up to date: true from a successful ``migrate()``
    /// on; a store made on a migrated pool (``init(pool:maxGroups:maxGroupVersions:maxDeletedNames:maxGroupBytes:schemaReady:)``)
    /// starts true. While false, every ``GroupStoring`` call throws
    /// ``StoreError/unavailable(_:)`` without touching the database and ``isReachable()``
    /// is false (``connecting(url:poolSize:acquireTimeout:timeout:maxGroups:maxGroupVersions:maxGroupBytes:retryDelays:report:)``).
    private let schemaReady: Atomic<Bool>

    /// Whether the schema has been brought up to date (see ``migrate()``).
    public var isSchemaReady: Bool { schemaReady.load(ordering: .acquiring) }

    /// Creates a store on `pool`. With `schemaReady` (the default) the schema must be
    /// migrated already (``PostgreSQLSchema/migrate(_:)``); without it, calls are
    /// unavailable until ``migrate()`` succeeds.
    init(
        pool: PostgreSQLConnectionPool, maxGroups: Int, maxGroupVersions: Int = VersionedWritePolicy.defaultMaxVersions,
        maxDeletedNames: Int? = nil, maxGroupBytes: Int = VersionedWritePolicy.defaultMaxBytes, schemaReady: Bool = true
    ) {
        self.schemaReady = Atomic(schemaReady)
        self.pool = pool
        self.policy = .groups(maxGroups: maxGroups, maxVersions: maxGroupVersions, maxBytes: maxGroupBytes,
                              maxDeletedNames: maxDeletedNames)
    }

    /// Connects to the database `url` and brings its schema up to date
    /// (``PostgreSQLSchema/migrate(_:)``: once, under an advisory lock, however many
    /// processes start at once).
    ///
    /// - Parameters:
    ///   - url: a `postgres://user:pass@host:port/db` URI or a libpq `key=value` string;
    ///     `nil` uses libpq's `PG*` environment variables.
    ///   - poolSize: connections kept (each one server process; default 4).
    ///   - acquireTimeout: seconds a call waits for a free connection before
    ///     ``StoreError/unavailable(_:)`` (default 5).
    ///   - timeout: seconds one round trip to the server, or making a connection, may take
    ///     before ``StoreError/unavailable(_:)`` (`--db-timeout`; default 5).
    ///   - maxGroups, maxGroupVersions, maxDeletedNames, maxGroupBytes: the bounds, as
    ///     ``SQLiteStore``'s.
    /// - Throws: ``StoreError/unavailable(_:)`` when the server cannot be reached (or is a
    ///   standby that needs migrating); ``StoreError/postgreSQL(_:)`` when the URL is
    ///   malformed or the database's schema is newer than this build.
    public convenience init(
        url: String?, poolSize: Int = 4, acquireTimeout: Double = 5, timeout: Double = 5, maxGroups: Int = 10_000,
        maxGroupVersions: Int = 100, maxDeletedNames: Int? = nil, maxGroupBytes: Int = 64 << 20
    ) throws(StoreError) {
        let pool = PostgreSQLConnectionPool(configuration: .init(url: url, timeout: timeout), size: poolSize, acquireTimeout: acquireTimeout)
        self.init(pool: pool, maxGroups: maxGroups, maxGroupVersions: maxGroupVersions,
                  maxDeletedNames: maxDeletedNames, maxGroupBytes: maxGroupBytes)
        try migrate()
    }

    /// Brings the schema up to date; see ``PostgreSQLSchema/migrate(_:)``.
    /// - Returns: the migrations this call ran (0 when another process did them).
    /// Marks the schema ready (``isSchemaReady``) when it succeeds.
    @discardableResult
    public func migrate() throws(StoreError) -> Int {
        let ran = try Self.mapping { () throws(PostgreSQLError) -> Int in
            try pool.withConnection { (connection) throws(PostgreSQLError) -> Int in try PostgreSQLSchema.migrate(connection) }
        }
        schemaReady.store(true, ordering: .releasing)
        return ran
    }

    /// Runs `body` with a pooled connection once the schema is ready (``requireSchema()``),
    /// mapping its error to ``StoreError``.
    private func withConnection<T: Sendable>(_ body: (PostgreSQLConnection) throws(PostgreSQLError) -> T) throws(StoreError) -> T {
        try requireSchema()
        return try Self.mapping { () throws(PostgreSQLError) -> T in try pool.withConnection(body) }
    }

    /// Throws ``StoreError/unavailable(_:)`` until the schema is known to be up to date.
    private func requireSchema() throws(StoreError) {
        guard isSchemaReady else {
            throw .unavailable("the database has not been reached since start-up (connecting and migrating are retried)")
        }
    }

    /// The pauses between attempts of ``connecting(url:poolSize:acquireTimeout:timeout:maxGroups:maxGroupVersions:maxGroupBytes:retryDelays:report:)``,
    /// seconds: 0.25, doubling up to 8, then 8 for every later attempt.
    public static let defaultRetryDelays: [Double] = [0.25, 0.5, 1, 2, 4, 8]

    /// A store for the database `url` that does not wait for it: connecting and
    /// migrating (``migrate()``) run on a queue of their own and are tried again after
    /// each failure, pausing `retryDelays[n]` seconds after the n-th failure (the last
    /// delay repeats), until one succeeds. Until then every ``GroupStoring`` call throws
    /// ``StoreError/unavailable(_:)`` (503 with `Retry-After`) and ``isReachable()`` is
    /// false, so a replica started before PostgreSQL serves scenes without groups and
    /// answers `/readyz` 503. Every failure and the success are told to `report` (one
    /// line each, without the URL's password: libpq's messages name host and port only),
    /// and so, later, is each time the server becomes unreachable and is back
    /// (``PostgreSQLConnectionPool``).
    ///
    /// - Parameters: as ``init(url:poolSize:acquireTimeout:timeout:maxGroups:maxGroupVersions:maxDeletedNames:maxGroupBytes:)``;
    ///   `retryDelays` at least one value (default ``defaultRetryDelays``).
    /// - Returns: the store, at once; ``isSchemaReady`` says when it is usable.
    public static func connecting(
        url: String?, poolSize: Int = 4, acquireTimeout: Double = 5, timeout: Double = 5, maxGroups: Int = 10_000,
        maxGroupVersions: Int = 100, maxGroupBytes: Int = 64 << 20, retryDelays: [Double] = defaultRetryDelays,
        report: @escaping @Sendable (String) -> Void
    ) -> PostgreSQLGroupStore {
        let pool = PostgreSQLConnectionPool(configuration: .init(url: url, timeout: timeout), size: poolSize,
                                            acquireTimeout: acquireTimeout, report: report)
        let store = PostgreSQLGroupStore(pool: pool, maxGroups: maxGroups, maxGroupVersions: maxGroupVersions,
                                         maxGroupBytes: maxGroupBytes, schemaReady: false)
        let delays = retryDelays.isEmpty ? defaultRetryDelays : retryDelays.map { $0.isFinite ? max(0, $0) : 8 }
        let queue = DispatchQueue(label: "layoutd.postgresql.connect")
        queue.async { keepMigrating(store, failures: 0, delays: delays, queue: queue, report: report) }
        return store
    }

    /// One attempt of ``connecting(url:poolSize:acquireTimeout:timeout:maxGroups:maxGroupVersions:maxGroupBytes:retryDelays:report:)``;
    /// after a failure the next is scheduled on `queue`, holding the store weakly between
    /// attempts, so a store nobody uses any more stops trying.
    private static func keepMigrating(
        _ store: PostgreSQLGroupStore, failures: Int, delays: [Double], queue: DispatchQueue,
        report: @escaping @Sendable (String) -> Void
    ) {
        do {
            let ran = try store.migrate()
            report("connected to PostgreSQL" + (failures > 0 ? " after \(failures) failed attempt\(failures == 1 ? "" : "s")" : "")
                   + (ran > 0 ? "; ran \(ran) schema migration\(ran == 1 ? "" : "s")" : "; the schema is up to date"))
        } catch {
            let delay = delays[min(failures, delays.count - 1)]
            report("cannot use PostgreSQL yet (\(describe(error))); trying again in \(delay) s")
            queue.asyncAfter(deadline: .now() + delay) { [weak store] in
                guard let store else { return }
                keepMigrating(store, failures: failures + 1, delays: delays, queue: queue, report: report)
            }
        }
    }

    /// A store error in words for ``connecting(url:poolSize:acquireTimeout:timeout:maxGroups:maxGroupVersions:maxGroupBytes:retryDelays:report:)``'s reports.
    private static func describe(_ error: StoreError) -> String {
        switch error {
        case .unavailable(let reason): reason
        case .postgreSQL(let error): error.description
        default: "\(error)"
        }
    }

    /// Runs `body`, converting its ``PostgreSQLError`` to ``StoreError``.
    static func mapping<T>(_ body: () throws(PostgreSQLError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(error)
        }
    }

    private static let selectGroupColumns =
        "v.name, v.version, v.constraints_json, v.metrics_json, \(PostgreSQLSchema.updatedAtText("v.updated_at"))"

    private static func readGroup(_ row: PostgreSQLRow) throws(PostgreSQLError) -> StoredGroup {
        StoredGroup(name: try row.string(0), version: try row.int(1), constraintsJSON: try row.string(2),
                    metricsJSON: try row.string(3), updatedAt: try row.string(4))
    }

    // MARK: - Writing

    /// The outcome of a put: the version and whether the group was created, or the
    /// policy's refusal (``StoreError/preconditionFailed(current:)``, ``StoreError/limitExceeded(_:)``).
    typealias PutOutcome = Result<(record: StoredGroup, created: Bool), StoreError>

    /// Writes a new version of `name` under ``policy``, in one transaction.
    ///
    /// - Parameters:
    ///   - ifMatch: the version the caller expects to be current (`If-Match`), or `nil`.
    ///   - ifNoneMatchAny: `If-None-Match: *`: only if the group does not exist.
    /// - Throws: ``PostgreSQLError`` (unavailable when the database is; conflicts are
    ///   retried first).
    func put(
        name: String, constraintsJSON: String, metricsJSON: String, ifMatch: Int?, ifNoneMatchAny: Bool
    ) throws(PostgreSQLError) -> PutOutcome {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> PutOutcome in
            try connection.transaction { () throws(PostgreSQLError) -> PutOutcome in
                try policy.put(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny, in: PostgreSQLVersionedRows(connection, tables: .groups)) {
                    version, updatedAt in
                    StoredGroup(name: name, version: version, constraintsJSON: constraintsJSON, metricsJSON: metricsJSON,
                                updatedAt: updatedAt)
                }
            }
        }
    }

    /// Deletes `name` and all its versions under ``policy`` when `ifMatch` /
    /// `ifNoneMatchAny` hold (checked in the transaction); the high-water mark stays.
    /// - Returns: `false` if there was no such group, or the policy's refusal
    ///   (``StoreError/preconditionFailed(current:)``).
    func delete(name: String, ifMatch: Int? = nil, ifNoneMatchAny: Bool = false) throws(PostgreSQLError) -> Result<Bool, StoreError> {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> Result<Bool, StoreError> in
            try connection.transaction { () throws(PostgreSQLError) -> Result<Bool, StoreError> in
                try policy.delete(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny,
                                  in: PostgreSQLVersionedRows(connection, tables: .groups))
            }
        }
    }

    /// The start of every name without a row (for tests) and the rows of deleted names kept.
    func versionFloor() throws(PostgreSQLError) -> (floor: Int, deletedNames: Int) {
        try pool.withConnection { (connection) throws(PostgreSQLError) -> (floor: Int, deletedNames: Int) in
            let row = try connection.query(
                "SELECT (SELECT value FROM version_floor), (SELECT count(*) FROM group_names WHERE current_version IS NULL)"
            ).first
            return (try row?.int(0) ?? 0, try row?.int(1) ?? 0)
        }
    }

    // MARK: - GroupStoring

    public func putGroup(
        name: String, constraintsJSON: String, metricsJSON: String, ifMatch: Int?, ifNoneMatchAny: Bool
    ) throws(StoreError) -> (group: StoredGroup, created: Bool) {
        try requireSchema()
        let outcome = try Self.mapping { () throws(PostgreSQLError) -> PutOutcome in
            try put(name: name, constraintsJSON: constraintsJSON, metricsJSON: metricsJSON,
                    ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny)
        }
        let (group, created) = try outcome.get()
        return (group, created)
    }

    public func deleteGroup(named name: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> Bool {
        try requireSchema()
        return try Self.mapping { () throws(PostgreSQLError) -> Result<Bool, StoreError> in
            try delete(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny)
        }.get()
    }

    public func group(named name: String) throws(StoreError) -> StoredGroup? {
        return try withConnection { (connection) throws(PostgreSQLError) -> StoredGroup? in
            guard let row = try connection.queryPrepared(
                """
                SELECT \(Self.selectGroupColumns) FROM group_names n
                JOIN group_versions v ON v.name = n.name AND v.version = n.current_version
                WHERE n.name = $1
                """,
                [name]
            ).first else { return nil }
            return try Self.readGroup(row)
        }
    }

    public func group(named name: String, version: Int) throws(StoreError) -> StoredGroup? {
        return try withConnection { (connection) throws(PostgreSQLError) -> StoredGroup? in
            guard let row = try connection.queryPrepared(
                "SELECT \(Self.selectGroupColumns) FROM group_versions v WHERE v.name = $1 AND v.version = $2",
                [name, version]
            ).first else { return nil }
            return try Self.readGroup(row)
        }
    }

    /// - Complexity: O(log n + limit), one statement for existence and one for the page.
    public func versions(ofGroup name: String, after: Int, limit: Int) throws(StoreError) -> GroupVersionPage? {
        let limit = max(0, limit)
        return try withConnection { (connection) throws(PostgreSQLError) -> GroupVersionPage? in
            guard try !connection.query(
                "SELECT 1 FROM group_names WHERE name = $1 AND current_version IS NOT NULL", [name]).rows.isEmpty
            else { return nil }
            var versions: [GroupVersionInfo] = []
            for row in try connection.query(
                """
                SELECT version, \(PostgreSQLSchema.updatedAtText("updated_at")) FROM group_versions
                WHERE name = $1 AND version > $2 ORDER BY version LIMIT $3
                """,
                [name, after, limit + 1]
            ).rows {
                versions.append(GroupVersionInfo(version: try row.int(0), updatedAt: try row.string(1)))
            }
            let hasMore = versions.count > limit
            if hasMore { versions.removeLast() }
            return GroupVersionPage(versions: versions, hasMore: hasMore)
        }
    }

    /// The kept versions of `name`, ascending (at most ``maxGroupVersions``); `nil` if the
    /// group does not exist.
    func versions(ofGroup name: String) throws(StoreError) -> [GroupVersionInfo]? {
        try versions(ofGroup: name, after: 0, limit: maxGroupVersions)?.versions
    }

    public func prunedVersion(ofGroup name: String, version: Int) throws(StoreError) -> Int? {
        return try withConnection { (connection) throws(PostgreSQLError) -> Int? in
            guard let row = try connection.query(
                """
                SELECT n.first_version, (SELECT min(v.version) FROM group_versions v WHERE v.name = n.name)
                FROM group_names n WHERE n.name = $1 AND n.current_version IS NOT NULL
                """,
                [name]
            ).first, let first = try row.optionalInt(0), let oldestKept = try row.optionalInt(1) else { return nil }
            return first <= version && version < oldestKept ? oldestKept : nil
        }
    }

    public func groups() throws(StoreError) -> [GroupSummary] {
        return try withConnection { (connection) throws(PostgreSQLError) -> [GroupSummary] in
            var groups: [GroupSummary] = []
            for row in try connection.query(
                """
                SELECT n.name, n.current_version, \(PostgreSQLSchema.updatedAtText("v.updated_at")) FROM group_names n
                JOIN group_versions v ON v.name = n.name AND v.version = n.current_version
                ORDER BY n.name
                """
            ).rows {
                groups.append(GroupSummary(name: try row.string(0), version: try row.int(1), updatedAt: try row.string(2)))
            }
            return groups
        }
    }

    /// Every existing group's current version, sorted by name (byte order, `COLLATE "C"`).
    func all() throws(StoreError) -> [GroupSummary] { try groups() }

    public func groupBytes() throws(StoreError) -> Int {
        return try withConnection { (connection) throws(PostgreSQLError) -> Int in
            try connection.query("SELECT value FROM group_bytes WHERE id = 1").first?.int(0) ?? 0
        }
    }

    public func groupCount() throws(StoreError) -> Int {
        return try withConnection { (connection) throws(PostgreSQLError) -> Int in
            try connection.query("SELECT count(*) FROM group_names WHERE current_version IS NOT NULL").first?.int(0) ?? 0
        }
    }

    /// The number of existing groups.
    func count() throws(StoreError) -> Int { try groupCount() }

    /// ``groupCount()``; `nil` at once, without a round trip, while the server is
    /// unreachable (``PostgreSQLConnectionPool/isUnreachable``), so `/metrics` never waits
    /// on it then. Held by `PostgreSQLTimeoutTests`.
    public func groupCountForMetrics() -> Int? {
        guard !pool.isUnreachable else { return nil }
        return try? groupCount()
    }

    /// One statement (`name = ANY($1::text[])`) for all names.
    /// - Complexity: one index lookup per name.
    public func currentVersions(of names: [String]) throws(StoreError) -> [String: Int] {
        try requireSchema()
        guard !names.isEmpty else { return [:] }
        return try withConnection { (connection) throws(PostgreSQLError) -> [String: Int] in
            var versions: [String: Int] = [:]
            // Prepared: this runs on every request of a scene with unversioned groups.
            for row in try connection.queryPrepared(
                "SELECT name, current_version FROM group_names WHERE name = ANY($1::text[]) AND current_version IS NOT NULL",
                [ListLiteral.postgreSQLArray(names)]
            ).rows {
                versions[try row.string(0)] = try row.int(1)
            }
            return versions
        }
    }

    @discardableResult
    public func importGroup(name: String, versions: [StoredGroup], replace: Bool) throws(StoreError) -> Bool {
        try requireSchema()
        guard !versions.isEmpty else { return false }
        return try Self.mapping { () throws(PostgreSQLError) -> Result<Bool, StoreError> in
            try pool.withConnection { (connection) throws(PostgreSQLError) -> Result<Bool, StoreError> in
                try connection.transaction { () throws(PostgreSQLError) -> Result<Bool, StoreError> in
                    try policy.importVersions(name: name, versions: versions, replace: replace, in: PostgreSQLVersionedRows(connection, tables: .groups))
                }
            }
        }.get()
    }

    public func versionMarks() throws(StoreError) -> VersionMarks {
        try withConnection { (connection) throws(PostgreSQLError) -> VersionMarks in
            try PostgreSQLVersionedRows(connection, tables: .groups).marks()
        }
    }

    @discardableResult
    public func raiseVersionMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool) {
        try withConnection { (connection) throws(PostgreSQLError) -> (names: Int, floor: Bool) in
            try connection.transaction { () throws(PostgreSQLError) -> (names: Int, floor: Bool) in
                try policy.raiseMarks(marks, in: PostgreSQLVersionedRows(connection, tables: .groups))
            }
        }
    }

    public func isReachable() -> Bool {
        guard isSchemaReady else { return false }
        return (try? pool.withConnection { (connection) throws(PostgreSQLError) -> Bool in
            try connection.query("SELECT 1").first?.int(0) == 1
        }) ?? false
    }
}
