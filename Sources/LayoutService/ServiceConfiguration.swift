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
    /// Bytes the in-memory front cache may hold, request and response bodies together
    /// (default 64 MiB, 67,108,864 bytes). An entry over 1/8 of it is not kept in memory
    /// (it may still be in the SQLite cache). 0 turns the front cache off.
    public var frontCacheBytes = 64 << 20
    /// Scene structures (a scene without its container size) whose compiled form and
    /// solved base are kept in memory, so the same scene at another size skips compiling
    /// and the base solve (default 256). 0 turns it off; answers are the same either way.
    public var structureCacheEntries = 256
    /// Estimated bytes the structure cache may hold (default 32 MiB, 33,554,432 bytes),
    /// half for decoded scenes and half for compiled ones with their solved bases; a
    /// structure over 1/16 of it is not kept. 0 turns it off.
    public var structureCacheBytes = 32 << 20
    /// When set, `PUT` and `DELETE` on `/groups` need `Authorization: Bearer <token>`.
    public var apiToken: String?
    /// Whether `PUT` and `DELETE` on `/groups` are allowed without ``apiToken`` when none
    /// is set (default true). `serve` sets it false on a non-loopback bind unless
    /// `--allow-anonymous-writes` is given; such writes then answer `403`.
    public var allowsAnonymousWrites = true
    /// Which `Host` values are answered (default: any); others get `421`. See ``HostPolicy``.
    public var hostPolicy = HostPolicy(isEnforced: false)
    /// Origins allowed by CORS (`*` for any); empty turns CORS off.
    public var corsOrigins: [String] = []
    /// Constraints one stored group may hold (default 1,000).
    public var maxGroupConstraints = 1_000
    /// The lowest status an access-log line is written for: 0 logs every request
    /// (`--log-level info`), 500 only the server's failures (`warn`, `error`, `--quiet`).
    public var accessLogMinimumStatus = 0
    /// The largest stored font file, bytes (default 1 MiB, 1,048,576; `serve
    /// --max-font-file-bytes`): a larger `PUT /fonts/…` body is a 413. The server's
    /// `--max-body-bytes` bounds every body before it.
    public var maxFontFileBytes = 1 << 20
    /// Bytes one answer's body may have (`--max-response-bytes`, default 64 MiB,
    /// 67,108,864); a longer one is 422 `limit_exceeded` (``SceneEngine/maxResponseBytes``).
    public var maxResponseBytes = SceneEngine.defaultMaxResponseBytes
    /// The server's `--max-body-bytes` (default 1 MiB, 1,048,576; `HTTP1.ServerLimits`
    /// enforces it): here only so that `POST /import` can say when a scene it made is
    /// larger than `/solve` reads (``SceneEngine/solveLimitNotes(_:limits:maxBodyBytes:)``).
    public var maxBodyBytes = 1 << 20
    /// How many `/solve` and `/validate` requests may run at once (decode, compile, solve:
    /// everything but a front cache hit's wait on the group store); the others wait for a
    /// turn. `nil`
    /// (default): no limit beyond the server's threads. `serve` sets it to `--workers`
    /// with a PostgreSQL group store, where it runs more threads than that so requests can
    /// wait on the store while at most `--workers` solve: memory held by solving stays
    /// bounded per `--workers`, as with SQLite.
    public var maxConcurrentSolves: Int?
    /// The server's `--large-body-bytes` (default 16 KiB, 16,384; `HTTP1.ServerLimits`):
    /// with ``maxConcurrentSolves``, a request whose body is longer takes one of those
    /// turns only, while a smaller one may also take a spare turn when large ones hold
    /// them all (``SolveTurns``).
    public var largeBodyBytes = 16_384

    /// The defaults above.
    public init() {}
}
