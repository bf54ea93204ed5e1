/// Stored font faces in PostgreSQL, beside the groups of a ``PostgreSQLGroupStore`` (its
/// pool and schema): the rules of ``VersionedWritePolicy/fonts(maxFonts:maxBytes:)`` with
/// the locks groups use (the name row `FOR UPDATE`, an advisory lock ``creationLockKey``
/// for creations, the `font_bytes` row `FOR UPDATE`), through the rows groups use
/// (``PostgreSQLVersionedRows`` on ``PostgreSQLVersionedTables/fonts``). `updatedAt` is the database's clock.
/// Files travel as hex text (`decode($n, 'hex')`, `encode(bytes, 'hex')`): the pool speaks
/// PostgreSQL's text format only. Held by `FontStoreTests` (with `LAYOUTD_TEST_POSTGRES_URL`).
public final class PostgreSQLFontStore: FontStoring {
    /// The advisory lock key that serialises face creations: ``PostgreSQLSchema/migrationLockKey`` + 2.
    static let creationLockKey: Int64 = PostgreSQLSchema.migrationLockKey + 2

    /// The group store whose pool and schema this uses.
    let groups: PostgreSQLGroupStore
    public let policy: VersionedWritePolicy
    public var maxFonts: Int { policy.maxNames }
    public var maxFontBytes: Int { policy.maxBytes }
    public var lookupsAreRoundTrips: Bool { true }

    /// Faces in `groups`'s database (its schema includes the font tables).
    public init(groups: PostgreSQLGroupStore, maxFonts: Int = VersionedWritePolicy.defaultMaxFonts,
                maxFontBytes: Int = VersionedWritePolicy.defaultMaxFontBytes) {
        self.groups = groups
        self.policy = .fonts(maxFonts: maxFonts, maxBytes: maxFontBytes)
    }

    private func withConnection<T: Sendable>(_ body: (PostgreSQLConnection) throws(PostgreSQLError) -> T) throws(StoreError) -> T {
        guard groups.isSchemaReady else {
            throw .unavailable("the database has not been reached since start-up (connecting and migrating are retried)")
        }
        return try PostgreSQLGroupStore.mapping { () throws(PostgreSQLError) -> T in try groups.pool.withConnection(body) }
    }

    private func write<T: Sendable>(_ body: (PostgreSQLVersionedRows<StoredFace>) throws(PostgreSQLError) -> Result<T, StoreError>) throws(StoreError) -> T {
        try withConnection { (connection) throws(PostgreSQLError) -> Result<T, StoreError> in
            try connection.transaction { () throws(PostgreSQLError) -> Result<T, StoreError> in try body(PostgreSQLVersionedRows(connection, tables: .fonts)) }
        }.get()
    }

    public func putFace(name: String, bytes: [UInt8], sha256: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> (face: StoredFace, created: Bool) {
        let (face, created) = try write { (rows) throws(PostgreSQLError) -> Result<(record: StoredFace, created: Bool), StoreError> in
            try policy.put(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny, in: rows) { version, updatedAt in
                StoredFace(name: name, version: version, bytes: bytes, sha256: sha256, updatedAt: updatedAt)
            }
        }
        return (face, created)
    }

    public func deleteFace(named name: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> Bool {
        try write { (rows) throws(PostgreSQLError) -> Result<Bool, StoreError> in
            try policy.delete(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny, in: rows)
        }
    }

    @discardableResult
    public func importFace(_ face: StoredFace, replace: Bool) throws(StoreError) -> Bool {
        try write { (rows) throws(PostgreSQLError) -> Result<Bool, StoreError> in
            try policy.importVersions(name: face.name, versions: [face], replace: replace, in: rows)
        }
    }

    public func fontVersionMarks() throws(StoreError) -> VersionMarks {
        try withConnection { (connection) throws(PostgreSQLError) -> VersionMarks in
            try PostgreSQLVersionedRows(connection, tables: .fonts).marks()
        }
    }

    @discardableResult
    public func raiseFontVersionMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool) {
        try withConnection { (connection) throws(PostgreSQLError) -> (names: Int, floor: Bool) in
            try connection.transaction { () throws(PostgreSQLError) -> (names: Int, floor: Bool) in
                try policy.raiseMarks(marks, in: PostgreSQLVersionedRows(connection, tables: .fonts))
            }
        }
    }

    public func face(named name: String) throws(StoreError) -> StoredFace? {
        try withConnection { (connection) throws(PostgreSQLError) -> StoredFace? in
            guard let row = try connection.query(
                """
                SELECT v.name, v.version, encode(v.bytes, 'hex'), v.sha256, \(PostgreSQLSchema.updatedAtText("v.updated_at"))
                FROM font_names n JOIN font_versions v ON v.name = n.name AND v.version = n.current_version WHERE n.name = $1
                """, [name]).first else { return nil }
            return StoredFace(name: try row.string(0), version: try row.int(1), bytes: Self.bytes(hex: try row.string(2)),
                              sha256: try row.string(3), updatedAt: try row.string(4))
        }
    }

    public func faces() throws(StoreError) -> [FaceSummary] {
        try withConnection { (connection) throws(PostgreSQLError) -> [FaceSummary] in
            var faces: [FaceSummary] = []
            for row in try connection.query(
                """
                SELECT v.name, v.version, octet_length(v.bytes), v.sha256, \(PostgreSQLSchema.updatedAtText("v.updated_at"))
                FROM font_names n JOIN font_versions v ON v.name = n.name AND v.version = n.current_version ORDER BY n.name
                """).rows {
                faces.append(FaceSummary(name: try row.string(0), version: try row.int(1), byteCount: try row.int(2),
                                         sha256: try row.string(3), updatedAt: try row.string(4)))
            }
            return faces
        }
    }

    public func fontBytes() throws(StoreError) -> Int {
        try withConnection { (connection) throws(PostgreSQLError) -> Int in
            try connection.query("SELECT value FROM font_bytes WHERE id = 1").first?.int(0) ?? 0
        }
    }

    public func currentFaceVersions(of names: [String]) throws(StoreError) -> [String: Int] {
        guard !names.isEmpty else { return [:] }
        return try withConnection { (connection) throws(PostgreSQLError) -> [String: Int] in
            var versions: [String: Int] = [:]
            for row in try connection.queryPrepared(
                "SELECT name, current_version FROM font_names WHERE lower(name) = ANY($1::text[]) AND current_version IS NOT NULL",
                [ListLiteral.postgreSQLArray(names.map { $0.lowercased() })]).rows {
                versions[try row.string(0)] = try row.int(1)
            }
            return versions
        }
    }

    /// Lowercase hex digits of `bytes`. O(n).
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of hex digits (as `encode(…, 'hex')` writes them). O(n).
    static func bytes(hex: String) -> [UInt8] {
        func value(_ c: UInt8) -> UInt8 { c >= 97 ? c - 87 : c >= 65 ? c - 55 : c - 48 }
        let utf8 = Array(hex.utf8)
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index + 1 < utf8.count {
            out.append(value(utf8[index]) << 4 | value(utf8[index + 1]))
            index += 2
        }
        return out
    }
}
