/// Stored font faces in SQLite, under ``VersionedWritePolicy/fonts(maxFonts:maxBytes:)``
/// (this type only reads and writes the rows, ``Rows``), as ``SQLiteGroupStore`` keeps
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

    func put(name: String, bytes: [UInt8], sha256: String) throws(StoreError) -> (face: StoredFace, created: Bool) {
        try connection.transaction { () throws(StoreError) -> (face: StoredFace, created: Bool) in
            let outcome = try mapped { () throws(SQLiteError) -> Result<(record: StoredFace, created: Bool), StoreError> in
                try policy.put(name: name, ifMatch: nil, ifNoneMatchAny: false, in: rows) { version, updatedAt in
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

    func delete(name: String) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) -> Bool in
            try mapped { () throws(SQLiteError) -> Bool in try policy.delete(name: name, in: rows) }
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
            "SELECT name, current_version FROM font_names WHERE current_version IS NOT NULL AND name IN (SELECT value FROM json_each(?))"
        ) { (statement) throws(SQLiteError) -> [String: Int] in
            try statement.bind(ListLiteral.json(names), at: 1)
            var versions: [String: Int] = [:]
            while try statement.step() { versions[statement.string(at: 0)] = statement.int(at: 1) }
            return versions
        }
    }

    private var rows: Rows { Rows(connection: connection, cache: cache, now: now) }

    /// The font tables as a write transaction sees them (``VersionedRows``); SQLite's
    /// `BEGIN IMMEDIATE` is the only lock, as for groups.
    private final class Rows: VersionedRows {
        typealias Failure = SQLiteError

        let connection: SQLiteConnection
        let cache: ResultCache
        let now: () -> String

        init(connection: SQLiteConnection, cache: ResultCache, now: @escaping () -> String) {
            self.connection = connection
            self.cache = cache
            self.now = now
        }

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

        func lockName(_ name: String, creation: CreationLock) throws(SQLiteError) -> NameRow? {
            try connection.withStatement("SELECT last_version, current_version, first_version FROM font_names WHERE name = ?") {
                (statement) throws(SQLiteError) -> NameRow? in
                try statement.bind(name, at: 1)
                guard try statement.step() else { return nil }
                return NameRow(last: statement.int(at: 0), current: statement.isNull(at: 1) ? nil : statement.int(at: 1),
                               first: statement.isNull(at: 2) ? nil : statement.int(at: 2))
            }
        }

        func lockCreations() {}

        func liveNameCount() throws(SQLiteError) -> Int {
            try connection.scalarInt("SELECT count(*) FROM font_names WHERE current_version IS NOT NULL")
        }

        func versionFloor() throws(SQLiteError) -> Int {
            try connection.scalarInt("SELECT value FROM font_version_floor")
        }

        func lockTotalBytes() throws(SQLiteError) -> Int {
            try connection.scalarInt("SELECT value FROM font_bytes")
        }

        func storedBytes(of name: String, upTo version: Int) throws(SQLiteError) -> Int {
            try connection.withStatement(StoredFace.storedBytesSQL(.sqlite, where: "name = ? AND version <= ?")) {
                (statement) throws(SQLiteError) -> Int in
                try statement.bind(name, at: 1)
                try statement.bind(version, at: 2)
                return try statement.step() ? statement.int(at: 0) : 0
            }
        }

        func timestampForNewVersion() -> String? { now() }

        func setName(_ name: String, last: Int, current: Int, first: Int) throws(SQLiteError) {
            try run(
                """
                INSERT INTO font_names (name, last_version, current_version, first_version) VALUES (?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET
                    last_version = excluded.last_version, current_version = excluded.current_version,
                    first_version = excluded.first_version
                """, name: name, last, current, first)
        }

        func insert(_ face: StoredFace) throws(SQLiteError) -> StoredFace {
            try connection.withStatement(
                "INSERT INTO font_versions (name, version, bytes, sha256, updated_at) VALUES (?, ?, ?, ?, ?)"
            ) { (statement) throws(SQLiteError) in
                try statement.bind(face.name, at: 1)
                try statement.bind(face.version, at: 2)
                try statement.bind(face.bytes, at: 3)
                try statement.bind(face.sha256, at: 4)
                try statement.bind(face.updatedAt, at: 5)
                try statement.step()
            }
            return face
        }

        func deleteVersions(of name: String, upTo version: Int?) throws(SQLiteError) {
            if let version {
                try run("DELETE FROM font_versions WHERE name = ? AND version <= ?", name: name, version)
            } else {
                try run("DELETE FROM font_versions WHERE name = ?", name: name)
            }
        }

        func markDeleted(_ name: String) throws(SQLiteError) {
            try run("UPDATE font_names SET current_version = NULL, first_version = NULL WHERE name = ?", name: name)
        }

        func addToTotalBytes(_ delta: Int) throws(SQLiteError) {
            try run("UPDATE font_bytes SET value = value + ? WHERE id = 1", delta)
        }

        func deletedNameCount() throws(SQLiteError) -> Int {
            try connection.scalarInt("SELECT count(*) FROM font_names WHERE current_version IS NULL")
        }

        func dropDeletedNames(count: Int) throws(SQLiteError) -> Int {
            var dropped: [String] = []
            var highest = 0
            try connection.withStatement(
                "SELECT name, last_version FROM font_names WHERE current_version IS NULL ORDER BY last_version, name LIMIT ?"
            ) { (statement) throws(SQLiteError) in
                try statement.bind(count, at: 1)
                while try statement.step() {
                    dropped.append(statement.string(at: 0))
                    highest = max(highest, statement.int(at: 1))
                }
            }
            for name in dropped {
                try run("DELETE FROM font_names WHERE name = ? AND current_version IS NULL", name: name)
            }
            return highest
        }

        func raiseVersionFloor(to mark: Int) throws(SQLiteError) {
            try run("UPDATE font_version_floor SET value = max(value, ?) WHERE id = 1", mark)
        }

        /// Deletes the cached results that used any version of the face.
        func didWrite(_ name: String) throws(SQLiteError) {
            try cache.invalidate(groupNamed: SQLiteFontStore.cacheName(name))
        }
    }
}

@available(*, unavailable)
extension SQLiteFontStore: Sendable {}
