import LayoutCompiler

/// layoutd's version; part of every cache key, so an upgrade never serves an old answer.
public let layoutdVersion = "0.1.0"

/// Settings of the service (not of the HTTP framing, which `HTTP1.ServerLimits` holds).
public struct ServiceConfiguration: Sendable {
    /// Scene size limits (views, constraints, sizes, nesting).
    public var sceneLimits = SceneLimits()
    /// Entries in the in-memory front cache of whole responses, keyed by the exact body
    /// bytes (default 4,096). 0 turns it off.
    public var frontCacheEntries = 4_096
    /// When set, `PUT` and `DELETE` on `/groups` need `Authorization: Bearer <token>`.
    public var apiToken: String?
    /// Origins allowed by CORS (`*` for any); empty turns CORS off.
    public var corsOrigins: [String] = []
    /// Constraints one stored group may hold (default 1,000).
    public var maxGroupConstraints = 1_000

    /// The defaults above.
    public init() {}
}
