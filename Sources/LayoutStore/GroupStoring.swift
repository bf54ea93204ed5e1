/// Versioned named constraint groups, as the contract (`design/scene-format.md`, "Named
/// groups") defines them, whatever database holds them: ``SQLiteStore`` (SQLite, one
/// file, the default) and ``PostgreSQLGroupStore`` (shared by every process using the
/// database). Both implement every requirement with the same semantics, held by the
/// conformance suite `GroupStoringConformanceTests`, run against each backend; both
/// write under one ``VersionedWritePolicy``.
///
/// - Versions are 1, 2, 3… per name, allocated in the write's transaction, global to every
///   process using the database and never reused (a name keeps its high-water mark after a
///   delete; the marks of deleted names are bounded by a version floor).
/// - `If-Match` / `If-None-Match: *` are checked in the same transaction as the write.
/// - At most ``maxGroups`` groups exist at once, exactly; each keeps its last
///   ``maxGroupVersions`` versions; the kept versions count at most ``maxGroupBytes``
///   together, each as ``StoredBytes/count(payload:)``.
/// - `updatedAt` is RFC 3339 UTC to the second, from PostgreSQL's clock (`now()`) or, with
///   SQLite, the writing process's clock.
///
/// Every call throws ``StoreError`` only.
public protocol GroupStoring: Sendable {
    /// The most groups that may exist at once.
    var maxGroups: Int { get }
    /// The most versions kept per group (at least 1); older ones are pruned.
    var maxGroupVersions: Int { get }
    /// The most bytes the kept versions of all groups count together.
    var maxGroupBytes: Int { get }
    /// Whether each call is a round trip to a database server (PostgreSQL), rather than a
    /// statement in this process (SQLite). When it is, the service coalesces concurrent
    /// requests' ``currentVersions(of:)`` into one call (``VersionResolver``).
    var lookupsAreRoundTrips: Bool { get }
    /// Whether the store was opened read-only (a SQLite file this process cannot write):
    /// reads work, writes throw ``StoreError/readOnly``. A PostgreSQL standby is not known
    /// at start-up: its writes throw ``StoreError/unavailable(_:)`` one by one.
    var isReadOnly: Bool { get }

    /// Writes a new version of `name`; see ``SQLiteStore/putGroup(name:constraintsJSON:metricsJSON:ifMatch:ifNoneMatchAny:)``.
    /// - Returns: the stored version, and whether the group was created (201) or replaced (200).
    /// - Throws: ``StoreError/preconditionFailed(current:)``, ``StoreError/limitExceeded(_:)``
    ///   (nothing changed), ``StoreError/unavailable(_:)``, ``StoreError/readOnly``, ….
    func putGroup(
        name: String, constraintsJSON: String, metricsJSON: String, ifMatch: Int?, ifNoneMatchAny: Bool
    ) throws(StoreError) -> (group: StoredGroup, created: Bool)

    /// Deletes `name` and all its versions; its version numbers stay used.
    /// - Parameters:
    ///   - ifMatch: the version the client expects to be current (`If-Match`), re-checked
    ///     in the delete's transaction; `nil` for no expectation.
    ///   - ifNoneMatchAny: `If-None-Match: *` (RFC 9110 §13.1.2): delete only when `name`
    ///     does not exist, that is, refuse whenever it exists.
    /// - Returns: `false` if there was no such group (and no precondition failed).
    /// - Throws: ``StoreError/preconditionFailed(current:)`` when a precondition fails;
    ///   nothing is deleted.
    func deleteGroup(named name: String, ifMatch: Int?, ifNoneMatchAny: Bool) throws(StoreError) -> Bool

    /// The current version of `name`, or `nil`.
    func group(named name: String) throws(StoreError) -> StoredGroup?

    /// Version `version` of `name`, or `nil` (never written, pruned, or deleted).
    func group(named name: String, version: Int) throws(StoreError) -> StoredGroup?

    /// Up to `limit` kept versions of `name` numbered above `after`, ascending, and whether
    /// more follow; `nil` if the group does not exist.
    func versions(ofGroup name: String, after: Int, limit: Int) throws(StoreError) -> GroupVersionPage?

    /// The oldest kept version if `version` belonged to the current life of `name` and was
    /// pruned; `nil` if it is kept, was never written, or predates a delete. Distinguishes
    /// "pruned" from "never existed" (both are absent from ``group(named:version:)``).
    func prunedVersion(ofGroup name: String, version: Int) throws(StoreError) -> Int?

    /// Every group's current version, sorted by name in byte order of UTF-8.
    func groups() throws(StoreError) -> [GroupSummary]

    /// The sum of ``StoredBytes/count(payload:)`` over every kept version.
    func groupBytes() throws(StoreError) -> Int

    /// The number of existing groups.
    func groupCount() throws(StoreError) -> Int

    /// The current version of each of `names` that exists, in one round trip to the
    /// database (one statement): what a scene's unversioned references are resolved
    /// against on every request, since another process may have written since. Names
    /// without a current version are absent. Callers look names up; the dictionary's
    /// order chooses nothing.
    func currentVersions(of names: [String]) throws(StoreError) -> [String: Int]

    /// Writes the versions of one group as they were exported from another store (`layoutd
    /// groups import`), keeping their numbers and `updatedAt`, in one transaction.
    ///
    /// - Parameters:
    ///   - versions: the group's versions, ascending by version, all named `name`, at least
    ///     one. Only the last ``maxGroupVersions`` are kept (as writes prune); the first one
    ///     given starts the group's current life, so the dropped ones answer "pruned".
    ///   - replace: whether an existing group of that name is replaced (its versions deleted
    ///     first); without it an existing group is refused.
    /// - Returns: whether an existing group was replaced.
    /// - Throws: ``StoreError/preconditionFailed(current:)`` when the group exists and
    ///   `replace` is false; ``StoreError/limitExceeded(_:)`` when the first version is not
    ///   above every version the name ever had here (numbers are never reused), or the group
    ///   count or byte bound would be passed. Nothing changes on any error.
    @discardableResult
    func importGroup(name: String, versions: [StoredGroup], replace: Bool) throws(StoreError) -> Bool

    /// What keeps version numbers unique beyond the kept versions (`layoutd groups export`):
    /// every name whose high-water mark is above its newest kept version (deleted names
    /// whose rows are kept), in byte order of UTF-8, and the version floor.
    func versionMarks() throws(StoreError) -> VersionMarks

    /// Raises each of `marks.names`' high-water mark, and the version floor, to at least
    /// the given value (`layoutd groups import`), in one transaction; never lowers one, and
    /// changes no version. A name without a row gets the row of a deleted name unless the
    /// floor already covers its mark; rows of deleted names beyond the store's bound are
    /// trimmed as a delete trims them (raising the floor).
    /// - Returns: the names whose mark was raised or recorded, and whether the floor rose.
    /// - Throws: ``StoreError/readOnly``, ``StoreError/unavailable(_:)``, …; nothing changes on an error.
    @discardableResult
    func raiseVersionMarks(_ marks: VersionMarks) throws(StoreError) -> (names: Int, floor: Bool)

    /// Whether the database answers a trivial query now (for `/readyz`).
    func isReachable() -> Bool

    /// A number that changes whenever a group write may have been committed, by this
    /// process or any other, since it was last read: two equal answers mean no version was
    /// deleted or pruned in between, without a query of the groups' tables. `nil` when the
    /// store cannot tell that more cheaply than ``currentVersions(of:)`` (PostgreSQL: a
    /// round trip either way). ``SQLiteStore``: SQLite's `PRAGMA data_version` of a
    /// connection of its own (any commit to the file by another connection changes it).
    func changeCount() -> Int64?

    /// ``groupCount()`` for `/metrics`, `nil` when it cannot be read: never waits on a
    /// database known to be unreachable (``PostgreSQLGroupStore``: `nil` at once then).
    func groupCountForMetrics() -> Int?
}

extension GroupStoring {
    /// None: every check asks ``currentVersions(of:)``.
    public func changeCount() -> Int64? { nil }

    /// ``groupCount()``, or `nil` when it fails.
    public func groupCountForMetrics() -> Int? { try? groupCount() }
}

extension GroupStoring {
    /// Deletes `name` without preconditions; see ``deleteGroup(named:ifMatch:ifNoneMatchAny:)``.
    public func deleteGroup(named name: String) throws(StoreError) -> Bool {
        try deleteGroup(named: name, ifMatch: nil, ifNoneMatchAny: false)
    }
}
