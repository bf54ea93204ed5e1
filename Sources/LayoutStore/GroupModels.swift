/// A group name with one of its versions: what a cached result was computed from.
public struct GroupVersion: Hashable, Sendable {
    /// The group's name (`[A-Za-z0-9][A-Za-z0-9._-]{0,127}`, checked by the service).
    public var name: String
    /// The version, 1, 2, 3… per name.
    public var version: Int

    public init(name: String, version: Int) {
        self.name = name
        self.version = version
    }
}

/// One stored version of a named constraint group.
public struct StoredGroup: Sendable, Equatable {
    /// The group's name.
    public var name: String
    /// This version's number (1, 2, 3… per name; never reused, even after a delete).
    public var version: Int
    /// The group's `constraints` JSON array, exactly as the service stored it.
    public var constraintsJSON: String
    /// The group's `metrics` JSON object, exactly as the service stored it.
    public var metricsJSON: String
    /// When this version was written: RFC 3339 UTC to the second, e.g. `2026-11-30T14:05:09Z`.
    public var updatedAt: String

    public init(name: String, version: Int, constraintsJSON: String, metricsJSON: String, updatedAt: String) {
        self.name = name
        self.version = version
        self.constraintsJSON = constraintsJSON
        self.metricsJSON = metricsJSON
        self.updatedAt = updatedAt
    }
}

/// One entry of a group's version history (`GET /groups/{name}/versions`).
public struct GroupVersionInfo: Sendable, Equatable {
    /// The version number.
    public var version: Int
    /// When it was written: RFC 3339 UTC, e.g. `2026-11-30T14:05:09Z`.
    public var updatedAt: String

    public init(version: Int, updatedAt: String) {
        self.version = version
        self.updatedAt = updatedAt
    }
}

/// One group in the list of groups (`GET /groups`): its current version.
public struct GroupSummary: Sendable, Equatable {
    /// The group's name.
    public var name: String
    /// Its current version.
    public var version: Int
    /// When the current version was written: RFC 3339 UTC, e.g. `2026-11-30T14:05:09Z`.
    public var updatedAt: String

    public init(name: String, version: Int, updatedAt: String) {
        self.name = name
        self.version = version
        self.updatedAt = updatedAt
    }
}

/// One page of a group's version history (`GET /groups/{name}/versions?after=&limit=`).
public struct GroupVersionPage: Sendable, Equatable {
    /// The versions of the page, ascending.
    public var versions: [GroupVersionInfo]
    /// Whether kept versions follow the last one of the page.
    public var hasMore: Bool

    public init(versions: [GroupVersionInfo], hasMore: Bool) {
        self.versions = versions
        self.hasMore = hasMore
    }
}

extension StoredGroup: StoredVersion {
    /// The UTF-8 bytes of its name, constraints JSON and metrics JSON.
    public var contentBytes: Int { name.utf8.count + constraintsJSON.utf8.count + metricsJSON.utf8.count }

    /// A query of the sum of ``StoredBytes/count(payload:)`` over the `group_versions`
    /// rows matching `condition` (0 for none), in `dialect`: each row's payload is its
    /// name, constraints JSON, metrics JSON and `updated_at`, as ``payloadBytes`` counts
    /// a ``StoredGroup``.
    static func storedBytesSQL(_ dialect: StoredBytes.Dialect, where condition: String) -> String {
        StoredBytes.sumSQL(dialect, table: "group_versions", textColumns: ["name", "constraints_json", "metrics_json"],
                           timestampColumn: "updated_at", where: condition)
    }
}
