/// Stored font faces in SQLite, under ``VersionedWritePolicy/fonts(maxFonts:maxBytes:)``
/// (this type only reads and writes the rows, ``SQLiteVersionedRows``), as ``SQLiteGroupStore`` keeps
/// groups: `font_names` (per `family/face`: high-water mark, current and first version),
/// `font_versions` (the file, its SHA-256 and `updated_at`; one version per face),
/// `font_version_floor` and `font_bytes` (the running total of ``StoredBytes``).
/// A write deletes the cached results that used the face (``ResultCache/invalidate(groupNamed:)``
/// with the key `font:family/face`) in its transaction.
///
/// Not thread-safe: owned by ``SQLiteStore`` and used only on its queue.
final class SQLiteFontStore {
    let policy: VersionedWritePolicy
    private let connection: SQLiteConnection
    private let cache: ResultCache
    private let now: () -> String

    init(connection: SQLiteConnection, cache: ResultCache, policy: VersionedWritePolicy, now: @escaping () -> String) {
        self.connection = connection
        self.cache = cache
        self.policy = policy
        self.now = now
    }

    /// The name a cached result records for a stored face it used (`font:family/face`):
    /// group names cannot contain `:` or `/`, so the two never meet.
    static func cacheName(_ face: String) -> String { "font:" + face }

    func put(name: String, bytes: [UInt8], sha256: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> (face: StoredFace, created: Bool) {
        try connection.transaction { () throws(StoreError) -> (face: StoredFace, created: Bool) in
            let outcome = try mapped { () throws(SQLiteError) -> Result<(record: StoredFace, created: Bool), StoreError> in
                try policy.put(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny, in: rows) { version, updatedAt in
                    StoredFace(name: name, version: version, bytes: bytes, sha256: sha256, updatedAt: updatedAt)
                }
            }
            let (face, created) = try outcome.get()
            return (face, created)
        }
    }

    func importFace(_ face: StoredFace, replace: Bool) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) -> Bool in
            try mapped { () throws(SQLiteError) -> Result<Bool, StoreError> in
                try policy.importVersions(name: face.name, versions: [face], replace: replace, in: rows)
            }.get()
        }
    }

    /// As ``SQLiteGroupStore/raiseMarks(_:)``, for faces.
    func raiseMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool) {
        try connection.transaction { () throws(StoreError) -> (names: Int, floor: Bool) in
            try mapped { () throws(SQLiteError) -> (names: Int, floor: Bool) in try policy.raiseMarks(marks, in: rows) }
        }
    }

    /// The marks an export carries (``VersionMarks``).
    func marks() throws(SQLiteError) -> VersionMarks { try rows.marks() }

    /// Deletes `name` when `ifMatch` / `ifNoneMatchAny` hold (checked in the transaction).
    func delete(name: String, ifMatch: Int? = nil, ifNoneMatchAny: Bool = false) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) -> Bool in
            try mapped { () throws(SQLiteError) -> Result<Bool, StoreError> in
                try policy.delete(name: name, ifMatch: ifMatch, ifNoneMatchAny: ifNoneMatchAny, in: rows)
            }.get()
        }
    }

    func totalBytes() throws(SQLiteError) -> Int {
        try connection.scalarInt("SELECT value FROM font_bytes")
    }

    func face(named name: String) throws(SQLiteError) -> StoredFace? {
        try connection.withStatement(
            """
            SELECT v.name, v.version, v.bytes, v.sha256, v.updated_at FROM font_names n
            JOIN font_versions v ON v.name = n.name AND v.version = n.current_version WHERE n.name = ?
            """
        ) { (statement) throws(SQLiteError) -> StoredFace? in
            try statement.bind(name, at: 1)
            guard try statement.step() else { return nil }
            return StoredFace(name: statement.string(at: 0), version: statement.int(at: 1), bytes: statement.bytes(at: 2),
                              sha256: statement.string(at: 3), updatedAt: statement.string(at: 4))
        }
    }

    func all() throws(SQLiteError) -> [FaceSummary] {
        try connection.withStatement(
            """
            SELECT v.name, v.version, length(v.bytes), v.sha256, v.updated_at FROM font_names n
            JOIN font_versions v ON v.name = n.name AND v.version = n.current_version ORDER BY n.name
            """
        ) { (statement) throws(SQLiteError) -> [FaceSummary] in
            var faces: [FaceSummary] = []
            while try statement.step() {
                faces.append(FaceSummary(name: statement.string(at: 0), version: statement.int(at: 1), byteCount: statement.int(at: 2),
                                         sha256: statement.string(at: 3), updatedAt: statement.string(at: 4)))
            }
            return faces
        }
    }

    func currentVersions(of names: [String]) throws(SQLiteError) -> [String: Int] {
        guard !names.isEmpty else { return [:] }
        return try connection.withStatement(
            "SELECT name, current_version FROM font_names WHERE current_version IS NOT NULL AND lower(name) IN (SELECT lower(value) FROM json_each(?))"
        ) { (statement) throws(SQLiteError) -> [String: Int] in
            try statement.bind(ListLiteral.json(names), at: 1)
            var versions: [String: Int] = [:]
            while try statement.step() { versions[statement.string(at: 0)] = statement.int(at: 1) }
            return versions
        }
    }

    /// The font tables for the policy; made per write (it holds no state).
    private var rows: SQLiteVersionedRows<StoredFace> {
        SQLiteVersionedRows(connection: connection, cache: cache, tables: .fonts, now: now)
    }
}

@available(*, unavailable)
extension SQLiteFontStore: Sendable {}
