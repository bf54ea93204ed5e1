/// One stored version of a named record: what ``VersionedWritePolicy`` numbers, counts
/// and prunes (``StoredGroup``).
public protocol StoredVersion: Sendable {
    /// The record's name, its key.
    var name: String { get }
    /// The version, 1, 2, 3… per name, never reused.
    var version: Int { get }
    /// When it was written: RFC 3339 UTC to the second (set by a store whose database's
    /// clock writes it on insert).
    var updatedAt: String { get set }
    /// The UTF-8 bytes of everything stored for it but `updatedAt` (its name included):
    /// with `updatedAt`'s, the payload ``StoredBytes/count(payload:)`` counts.
    var contentBytes: Int { get }
}

extension StoredVersion {
    /// The payload ``StoredBytes/count(payload:)`` counts: ``contentBytes`` and the UTF-8
    /// bytes of ``updatedAt``.
    var payloadBytes: Int { contentBytes + updatedAt.utf8.count }
}

/// What a kind of stored record is called in the messages of its limits, and the `serve`
/// flags that raise them (``VersionedWritePolicy/groupKind``).
public struct StoredKind: Sendable, Equatable {
    /// A bound's name in messages, what it counts, and the flag that raises it.
    public struct Limit: Sendable, Equatable {
        /// E.g. `maxGroups`.
        public var name: String
        /// What its number counts, e.g. `groups`.
        public var unit: String
        /// The `serve` flag that raises it, e.g. `--max-groups`.
        public var flag: String
    }

    /// One record in words, e.g. `group`.
    public var noun: String
    /// The bound on the names existing at once.
    public var count: Limit
    /// The bound on the kept versions' counted bytes together.
    public var bytes: Limit
}

/// When a write takes the lock that serialises creations (``VersionedRows/lockCreations()``),
/// relative to its lock on the name's row: a creation must be counted against the bound
/// on names while no other creation can commit, and every writer takes the two locks in
/// the same order (creations first) so none waits on the other in a cycle.
enum CreationLock {
    /// Never before the row (deletes: they only lower the count).
    case never
    /// Before the row only when a read without a lock finds no current version (puts:
    /// most replace an existing record and need not queue behind creations).
    case ifAbsent
    /// Always before the row (imports: rare, and whole records).
    case always
}

/// What keeps a kind's version numbers unique beyond its kept versions, as `layoutd groups
/// export` and `layoutd fonts export` carry it: every name whose high-water mark is above
/// its newest kept version (a deleted name whose row is kept), and the version floor (the
/// largest mark of the deleted names whose rows were dropped). Read by
/// ``GroupStoring/versionMarks()``, raised by ``GroupStoring/raiseVersionMarks(_:)``.
public struct VersionMarks: Sendable, Equatable {
    /// One name's high-water mark: no version of `name` will ever be numbered `mark` or below.
    public struct Mark: Sendable, Equatable {
        public var name: String
        public var mark: Int
        public init(name: String, mark: Int) {
            self.name = name
            self.mark = mark
        }
    }

    /// The names, in byte order of UTF-8 when read from a store.
    public var names: [Mark]
    /// The start of every name without a row (0 in a store that never dropped one).
    public var floor: Int

    public init(names: [Mark] = [], floor: Int = 0) {
        self.names = names
        self.floor = floor
    }
}

/// A name's row: its high-water mark `last` (never decreases; the row survives a
/// delete), its `current` version (`nil` once deleted) and the `first` version of its
/// current life (`nil` once deleted).
struct NameRow: Sendable, Equatable {
    var last: Int
    var current: Int?
    var first: Int?
}

/// The rows of one kind of versioned record, as one write transaction sees them: what a
/// database provides to ``VersionedWritePolicy``. Each call only reads or writes rows and
/// decides nothing; the policy calls them inside one transaction the backend opened, and
/// the backend commits it, or rolls it back when a call throws or the policy refuses.
///
/// The tables, per kind: one row per name (``NameRow``), the kept versions, one running
/// total of their counted bytes (``StoredBytes``) and one version floor (the start of
/// every name without a row).
protocol VersionedRows: AnyObject {
    associatedtype Record: StoredVersion
    associatedtype Failure: Error

    /// Reads `name`'s row and holds it until the transaction ends, so no other write of
    /// `name` runs in between; takes the creation lock before it as `creation` says.
    /// `nil`: the name has no row.
    func lockName(_ name: String, creation: CreationLock) throws(Failure) -> NameRow?
    /// Serialises creations until the transaction ends (the name count stays as read).
    /// Taking it twice in one transaction is taking it once.
    func lockCreations() throws(Failure)
    /// The names with a current version.
    func liveNameCount() throws(Failure) -> Int
    /// The start of every name without a row.
    func versionFloor() throws(Failure) -> Int
    /// The running total of the kept versions' counted bytes, held until the transaction ends.
    func lockTotalBytes() throws(Failure) -> Int
    /// The sum of ``StoredBytes/count(payload:)`` over the kept versions of `name`
    /// numbered up to `version`.
    func storedBytes(of name: String, upTo version: Int) throws(Failure) -> Int
    /// The `updatedAt` of a version written now, or `nil` when the database's clock writes
    /// it on insert (then it counts ``StoredBytes/timestamp`` bytes).
    func timestampForNewVersion() -> String?

    /// Writes `name`'s row, creating it or replacing its values.
    func setName(_ name: String, last: Int, current: Int, first: Int) throws(Failure)
    /// Inserts one version; returns it as stored (with the database's `updatedAt` when
    /// ``timestampForNewVersion()`` gave none).
    func insert(_ record: Record) throws(Failure) -> Record
    /// Deletes the versions of `name` numbered up to `version` (all of them for `nil`).
    func deleteVersions(of name: String, upTo version: Int?) throws(Failure)
    /// Marks `name` deleted: no current version, no first version; its mark stays.
    func markDeleted(_ name: String) throws(Failure)
    /// Adds `delta` (not 0) to the running total of counted bytes.
    func addToTotalBytes(_ delta: Int) throws(Failure)
    /// The rows of deleted names (each keeps a high-water mark).
    func deletedNameCount() throws(Failure) -> Int
    /// Deletes the `count` rows of deleted names with the lowest marks (then by name, in
    /// byte order: deterministic); returns the largest mark deleted.
    func dropDeletedNames(count: Int) throws(Failure) -> Int
    /// Raises the version floor to `mark` if it is below.
    func raiseVersionFloor(to mark: Int) throws(Failure)
    /// Raises `name`'s high-water mark to `mark` if it is below, leaving its current and
    /// first versions; a name without a row gets one of a deleted name (no current version).
    func raiseMark(_ name: String, to mark: Int) throws(Failure)
    /// Called last in every write of `name`: what depends on it goes in the same
    /// transaction (SQLite's result cache deletes the results that used it).
    func didWrite(_ name: String) throws(Failure)
}

/// The rules of every write of a stored, versioned, size-bounded kind of record, for any
/// database: preconditions, version numbers, the bounds, pruning, and their messages.
/// Each database only reads and writes rows (``VersionedRows``), in one transaction per
/// write. Groups follow it in SQLite (``SQLiteGroupStore``) and PostgreSQL
/// (``PostgreSQLGroupStore``), held by `GroupStoringConformanceTests` against both.
///
/// - Versions are 1, 2, 3… per name: one more than the name's high-water mark, or the
///   version floor for a name without a row; never reused (the mark survives a delete).
/// - `If-Match` (RFC 9110 §13.1.1) names the current version; `If-None-Match: *`
///   (§13.1.2) wants none. Checked in the write's transaction.
/// - At most ``maxNames`` names have a current version at once.
/// - Each name keeps its last ``maxVersions`` versions: the write that makes version *v*
///   deletes those up to *v* − ``maxVersions``. Versions of one life are consecutive, so
///   exactly the last ``maxVersions`` remain, and one from `first` up to below the oldest
///   kept was pruned.
/// - The kept versions count at most ``maxBytes`` together (``StoredBytes``); a write's
///   own pruning frees bytes before the bound is checked.
/// - At most ``maxDeletedNames`` rows of deleted names keep their marks; beyond that a
///   delete drops the lowest marks and raises the version floor to the largest dropped,
///   so a dropped name's old versions stay below any it gets again.
///
/// A refused write (a failed precondition, a passed bound) changes nothing.
public struct VersionedWritePolicy: Sendable, Equatable {
    /// What the records are called in messages.
    public let kind: StoredKind
    /// The most names with a current version at once (at least 0).
    public let maxNames: Int
    /// The most versions kept per name (at least 1).
    public let maxVersions: Int
    /// The most bytes the kept versions count together (at least 0).
    public let maxBytes: Int
    /// The most rows of deleted names kept (at least 0).
    public let maxDeletedNames: Int

    /// The bounds as given, raised to their least values; `maxDeletedNames` defaults to
    /// `maxNames`.
    public init(kind: StoredKind, maxNames: Int, maxVersions: Int, maxBytes: Int, maxDeletedNames: Int? = nil) {
        self.kind = kind
        self.maxNames = max(0, maxNames)
        self.maxVersions = max(1, maxVersions)
        self.maxBytes = max(0, maxBytes)
        self.maxDeletedNames = max(0, maxDeletedNames ?? maxNames)
    }

    /// Named constraint groups: `maxGroups`, `maxGroupBytes` and their flags.
    public static let groupKind = StoredKind(
        noun: "group",
        count: .init(name: "maxGroups", unit: "groups", flag: "--max-groups"),
        bytes: .init(name: "maxGroupBytes", unit: "bytes of stored group versions", flag: "--max-group-bytes"))

    /// The policy of named constraint groups.
    public static func groups(
        maxGroups: Int, maxVersions: Int = defaultMaxVersions, maxBytes: Int = defaultMaxBytes, maxDeletedNames: Int? = nil
    ) -> VersionedWritePolicy {
        VersionedWritePolicy(kind: groupKind, maxNames: maxGroups, maxVersions: maxVersions, maxBytes: maxBytes,
                             maxDeletedNames: maxDeletedNames)
    }

    /// The default of `maxVersions` for groups: 100.
    public static let defaultMaxVersions = 100
    /// The default of `maxBytes` for groups: 64 MiB (67,108,864).
    public static let defaultMaxBytes = 64 << 20

    // MARK: - Messages (the text of ``StoreError/limitExceeded(_:)``)

    /// The bound on names was reached.
    func countMessage() -> String {
        "\(kind.count.name) (\(maxNames) \(kind.count.unit)): raise it with \(kind.count.flag)"
    }

    /// The bound on bytes would be passed: `total` stored, `added` by the write, `freed` by its pruning.
    func bytesMessage(total: Int, added: Int, freed: Int) -> String {
        "\(kind.bytes.name) (\(maxBytes) \(kind.bytes.unit); \(total) are stored, this version needs \(added)"
            + (freed > 0 ? " and its write frees \(freed)" : "") + "): raise it with \(kind.bytes.flag)"
    }

    /// The version numbers ran out.
    func overflowMessage() -> String {
        "\(kind.noun) version (version numbers end at \(Int.max))"
    }

    /// How ``reuseMessage(name:mark:version:)`` begins, so that an import can tell it from
    /// the other bounds and say what would work instead.
    public static let reusePrefix = "version numbers are never reused: "

    /// An import would reuse version numbers: `name` had versions up to `mark` here.
    func reuseMessage(name: String, mark: Int, version: Int) -> String {
        Self.reusePrefix + "'\(name)' has had versions up to \(mark) in this store, "
            + "so its imported version \(version) cannot be written"
    }

    // MARK: - Writes

    /// Writes a new version of `name`, made by `make(version, updatedAt)` (`updatedAt`
    /// empty when the database's clock writes it), in the caller's transaction on `rows`.
    ///
    /// - Returns: the stored version and whether the name was created (it had no current
    ///   version), or the refusal: ``StoreError/preconditionFailed(current:)``,
    ///   ``StoreError/limitExceeded(_:)``. On a refusal nothing was written.
    /// - Throws: what `rows` throws.
    func put<Rows: VersionedRows>(
        name: String, ifMatch: Int?, ifNoneMatchAny: Bool, in rows: Rows, make: (Int, String) -> Rows.Record
    ) throws(Rows.Failure) -> Result<(record: Rows.Record, created: Bool), StoreError> {
        let row = try rows.lockName(name, creation: .ifAbsent)
        let current = row?.current
        if let ifMatch, ifMatch != current { return .failure(.preconditionFailed(current: current)) }
        if ifNoneMatchAny, current != nil { return .failure(.preconditionFailed(current: current)) }
        if current == nil {
            try rows.lockCreations()
            if try rows.liveNameCount() >= maxNames { return .failure(.limitExceeded(countMessage())) }
        }
        let start = if let row { row.last } else { try rows.versionFloor() }
        let (version, overflow) = start.addingReportingOverflow(1)
        guard !overflow else { return .failure(.limitExceeded(overflowMessage())) }
        let stamp = rows.timestampForNewVersion()
        let draft = make(version, stamp ?? "")
        let added = StoredBytes.count(payload: draft.contentBytes + (stamp?.utf8.count ?? StoredBytes.timestamp))
        let total = try rows.lockTotalBytes()
        let prunedUpTo = version - maxVersions
        let freed = prunedUpTo > 0 ? try rows.storedBytes(of: name, upTo: prunedUpTo) : 0
        if total - freed + added > maxBytes {
            return .failure(.limitExceeded(bytesMessage(total: total, added: added, freed: freed)))
        }
        try rows.setName(name, last: version, current: version, first: current == nil ? version : (row?.first ?? version))
        let stored = try rows.insert(draft)
        if prunedUpTo > 0 { try rows.deleteVersions(of: name, upTo: prunedUpTo) }
        if added != freed { try rows.addToTotalBytes(added - freed) }
        try rows.didWrite(name)
        return .success((stored, current == nil))
    }

    /// Writes the exported `versions` of `name` (ascending, all named `name`, at least
    /// one), keeping their numbers and times; only the last ``maxVersions`` are kept and
    /// the first given starts the name's current life. An existing name is refused unless
    /// `replace`, which deletes its versions first.
    ///
    /// - Returns: whether an existing name was replaced, or the refusal:
    ///   ``StoreError/preconditionFailed(current:)`` (exists, no `replace`),
    ///   ``StoreError/limitExceeded(_:)`` (a number not above every one the name had here,
    ///   or a bound). On a refusal nothing was written.
    /// - Throws: what `rows` throws.
    func importVersions<Rows: VersionedRows>(
        name: String, versions: [Rows.Record], replace: Bool, in rows: Rows
    ) throws(Rows.Failure) -> Result<Bool, StoreError> {
        guard let firstGiven = versions.first?.version else { return .success(false) }
        let kept = versions.suffix(maxVersions)
        let row = try rows.lockName(name, creation: .always)
        let current = row?.current
        if let current, !replace { return .failure(.preconditionFailed(current: current)) }
        let mark = if let row { row.last } else { try rows.versionFloor() }
        guard firstGiven > mark else {
            return .failure(.limitExceeded(reuseMessage(name: name, mark: mark, version: firstGiven)))
        }
        if current == nil, try rows.liveNameCount() >= maxNames { return .failure(.limitExceeded(countMessage())) }
        let added = kept.reduce(0) { $0 + StoredBytes.count(payload: $1.payloadBytes) }
        let total = try rows.lockTotalBytes()
        let freed = if let current { try rows.storedBytes(of: name, upTo: current) } else { 0 }
        if total - freed + added > maxBytes {
            return .failure(.limitExceeded(bytesMessage(total: total, added: added, freed: freed)))
        }
        try rows.deleteVersions(of: name, upTo: nil)
        let newest = kept[kept.endIndex - 1].version
        try rows.setName(name, last: newest, current: newest, first: firstGiven)
        for record in kept { _ = try rows.insert(record) }
        if added != freed { try rows.addToTotalBytes(added - freed) }
        try rows.didWrite(name)
        return .success(current != nil)
    }

    /// Raises the marks of `marks.names` and the version floor to at least `marks.floor`
    /// (never lowers one), in the caller's transaction on `rows`: what an import of
    /// ``VersionMarks`` does, so that no version number the source used is used again
    /// here. A name without a row whose mark is not above the floor (as raised) needs no
    /// row; beyond ``maxDeletedNames`` rows of deleted names, the lowest are dropped and
    /// the floor raised, as a delete does. Takes the creation lock first, then the name
    /// rows in the order given (a concurrent creation of one of them waits).
    /// - Returns: the names whose mark was raised or recorded, and whether the floor rose.
    /// - Throws: what `rows` throws.
    func raiseMarks<Rows: VersionedRows>(_ marks: VersionMarks, in rows: Rows) throws(Rows.Failure) -> (names: Int, floor: Bool) {
        let floor = try rows.versionFloor()
        let newFloor = max(floor, marks.floor)
        var raised = 0
        for entry in marks.names {
            let row = try rows.lockName(entry.name, creation: .always)
            guard entry.mark > (row?.last ?? newFloor) else { continue }
            try rows.raiseMark(entry.name, to: entry.mark)
            raised += 1
        }
        if newFloor > floor { try rows.raiseVersionFloor(to: newFloor) }
        let deleted = try rows.deletedNameCount()
        if deleted > maxDeletedNames {
            try rows.raiseVersionFloor(to: try rows.dropDeletedNames(count: deleted - maxDeletedNames))
        }
        return (raised, newFloor > floor)
    }

    /// Deletes `name` and all its versions; its mark stays (within ``maxDeletedNames``).
    /// `ifMatch` and `ifNoneMatchAny` are checked on the locked row, as ``put(name:ifMatch:ifNoneMatchAny:in:make:)``
    /// checks them: RFC 9110 §13.1.2 makes `If-None-Match: *` false for any method but
    /// GET/HEAD when the name has a current version, so such a delete is refused; when it
    /// has none the condition holds and the delete answers `false` as without it.
    /// - Returns: `false` if it had no current version, or the refusal
    ///   ``StoreError/preconditionFailed(current:)``; on a refusal nothing was written.
    /// - Throws: what `rows` throws.
    func delete<Rows: VersionedRows>(
        name: String, ifMatch: Int? = nil, ifNoneMatchAny: Bool = false, in rows: Rows
    ) throws(Rows.Failure) -> Result<Bool, StoreError> {
        let current = try rows.lockName(name, creation: .never)?.current
        if let ifMatch, ifMatch != current { return .failure(.preconditionFailed(current: current)) }
        if ifNoneMatchAny, current != nil { return .failure(.preconditionFailed(current: current)) }
        guard let current else { return .success(false) }
        let freed = try rows.storedBytes(of: name, upTo: current)
        try rows.deleteVersions(of: name, upTo: nil)
        try rows.markDeleted(name)
        let deleted = try rows.deletedNameCount()
        if deleted > maxDeletedNames {
            try rows.raiseVersionFloor(to: try rows.dropDeletedNames(count: deleted - maxDeletedNames))
        }
        if freed != 0 { try rows.addToTotalBytes(-freed) }
        try rows.didWrite(name)
        return .success(true)
    }
}
