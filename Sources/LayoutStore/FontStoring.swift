/// One stored version of a font face: the file a client uploaded under `family/face`.
public struct StoredFace: Sendable, Equatable {
    /// `family/face`, e.g. `Acme Sans/700-italic` (checked by the service).
    public var name: String
    /// 1, 2, 3… per name, never reused: result cache keys name `family/face@version`.
    public var version: Int
    /// The TrueType or OpenType file, byte for byte.
    public var bytes: [UInt8]
    /// The file's SHA-256, 64 lowercase hex digits (computed by the service).
    public var sha256: String
    /// When this version was written: RFC 3339 UTC to the second.
    public var updatedAt: String

    public init(name: String, version: Int, bytes: [UInt8], sha256: String, updatedAt: String) {
        self.name = name
        self.version = version
        self.bytes = bytes
        self.sha256 = sha256
        self.updatedAt = updatedAt
    }

    /// The family part of ``name`` (before the last `/`).
    public var family: String { name.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") }
    /// The face part of ``name`` (after the last `/`).
    public var face: String { name.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? "" }
}

extension StoredFace: StoredVersion {
    /// The UTF-8 bytes of its name and SHA-256, and the file's length.
    public var contentBytes: Int { name.utf8.count + sha256.utf8.count + bytes.count }

    /// A query of the sum of ``StoredBytes/count(payload:)`` over the `font_versions` rows
    /// matching `condition`, in `dialect`: each row's payload is its name, SHA-256, file and
    /// `updated_at`, as ``payloadBytes`` counts a ``StoredFace``.
    static func storedBytesSQL(_ dialect: StoredBytes.Dialect, where condition: String) -> String {
        StoredBytes.sumSQL(dialect, table: "font_versions", textColumns: ["name", "sha256"], binaryColumns: ["bytes"],
                           timestampColumn: "updated_at", where: condition)
    }
}

/// One face in the list of stored fonts (`GET /fonts`): its current version, without the file.
public struct FaceSummary: Sendable, Equatable {
    /// `family/face`.
    public var name: String
    public var version: Int
    /// The file's length in bytes.
    public var byteCount: Int
    /// The file's SHA-256, 64 lowercase hex digits (computed by the service at upload).
    public var sha256: String
    public var updatedAt: String

    public init(name: String, version: Int, byteCount: Int, sha256: String, updatedAt: String) {
        self.name = name
        self.version = version
        self.byteCount = byteCount
        self.sha256 = sha256
        self.updatedAt = updatedAt
    }
}

extension VersionedWritePolicy {
    /// Stored font faces: `maxFonts`, `maxFontBytes` and their flags.
    public static let fontKind = StoredKind(
        noun: "font face",
        count: .init(name: "maxFonts", unit: "font faces", flag: "--max-fonts"),
        bytes: .init(name: "maxFontBytes", unit: "bytes of stored font files", flag: "--max-font-bytes"))

    /// The policy of stored font faces: one version kept per face (a replaced face's old
    /// file is deleted in the same write), numbered as groups are.
    public static func fonts(maxFonts: Int, maxBytes: Int) -> VersionedWritePolicy {
        VersionedWritePolicy(kind: fontKind, maxNames: maxFonts, maxVersions: 1, maxBytes: maxBytes)
    }

    /// The default of `maxFonts`: 256 faces.
    public static let defaultMaxFonts = 256
    /// The default of `maxFontBytes` for all faces together: 48 MiB (50,331,648), so that the database stays under 512 MiB with every default (docs/operations.md, "On disk").
    public static let defaultMaxFontBytes = 48 << 20
}

/// Stored font faces (contract, "Text", stored fonts), in the same database as the
/// groups: ``SQLiteStore`` or ``PostgreSQLFontStore``. Writes follow
/// ``VersionedWritePolicy/fonts(maxFonts:maxBytes:)``. Every call throws ``StoreError`` only.
public protocol FontStoring: Sendable {
    /// The most faces stored at once.
    var maxFonts: Int { get }
    /// The most bytes the stored faces count together (``StoredBytes/count(payload:)``).
    var maxFontBytes: Int { get }
    /// As ``GroupStoring/lookupsAreRoundTrips``.
    var lookupsAreRoundTrips: Bool { get }

    /// Writes a new version of `name` (`family/face`), replacing the current one.
    /// - Parameters:
    ///   - ifMatch: the version the client expects to be current (`If-Match`), re-checked
    ///     in the write's transaction; `nil` for no expectation.
    ///   - ifNoneMatchAny: `If-None-Match: *`: write only when `name` does not exist.
    /// - Returns: the stored version and whether the face was created (201) or replaced (200).
    /// - Throws: ``StoreError/preconditionFailed(current:)`` when `ifMatch` is not the
    ///   current version or `ifNoneMatchAny` and the face exists; nothing is written.
    /// - Throws: ``StoreError/limitExceeded(_:)`` (nothing changed), ``StoreError/readOnly``, ….
    func putFace(name: String, bytes: [UInt8], sha256: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> (face: StoredFace, created: Bool)
    /// The current version of `name`, or `nil`.
    func face(named name: String) throws(StoreError) -> StoredFace?
    /// Every face's current version, sorted by name in byte order of UTF-8.
    func faces() throws(StoreError) -> [FaceSummary]
    /// Deletes `name`; its version numbers stay used. `false` if there was none (and no
    /// precondition failed). `ifMatch` and `ifNoneMatchAny` are as in
    /// ``GroupStoring/deleteGroup(named:ifMatch:ifNoneMatchAny:)``, re-checked in the
    /// delete's transaction.
    /// - Throws: ``StoreError/preconditionFailed(current:)`` when a precondition fails;
    ///   nothing is deleted.
    func deleteFace(named name: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> Bool
    /// The sum of ``StoredBytes/count(payload:)`` over the stored faces.
    func fontBytes() throws(StoreError) -> Int
    /// The current version of each stored face whose name is one of `names` without
    /// regard to case (names are ASCII: families match case-insensitively, as the contract
    /// says), keyed by the stored spelling, in one statement. O(stored faces × names) at
    /// worst: both are bounded (``maxFonts``, and 18 names per family a scene names).
    func currentFaceVersions(of names: [String]) throws(StoreError) -> [String: Int]
    /// Writes one face exported from another store, keeping its number and time.
    @discardableResult
    func importFace(_ face: StoredFace, replace: Bool) throws(StoreError) -> Bool
    /// As ``GroupStoring/versionMarks()``, for faces (`layoutd fonts export`).
    func fontVersionMarks() throws(StoreError) -> VersionMarks
    /// As ``GroupStoring/raiseVersionMarks(_:)``, for faces (`layoutd fonts import`).
    @discardableResult
    func raiseFontVersionMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool)
}

extension FontStoring {
    /// Writes a new version of `name` without preconditions; see
    /// ``putFace(name:bytes:sha256:ifMatch:ifNoneMatchAny:)``.
    public func putFace(name: String, bytes: [UInt8], sha256: String) throws(StoreError) -> (face: StoredFace, created: Bool) {
        try putFace(name: name, bytes: bytes, sha256: sha256, ifMatch: nil, ifNoneMatchAny: false)
    }

    /// Deletes `name` without preconditions; see ``deleteFace(named:ifMatch:ifNoneMatchAny:)``.
    public func deleteFace(named name: String) throws(StoreError) -> Bool {
        try deleteFace(named: name, ifMatch: nil, ifNoneMatchAny: false)
    }
}
