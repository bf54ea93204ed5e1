import Foundation
import HTTP1
import LayoutStore

/// What `layoutd serve` is told by its flags and `LAYOUTD_*` environment variables
/// (``LayoutdCommand/serveOptions``), parsed and checked in one place before anything is
/// opened or bound: a usage error leaves no database created and no port taken.
struct ServeOptions {
    /// `--host` and `--port` (0 picks a free port).
    var host = "127.0.0.1"
    var port = 8080
    /// `host` resolved by `getaddrinfo` for `port`: the address bound, or why it cannot be
    /// (answered as "cannot listen", exit 1, after the usage checks).
    var bindAddress: Result<BindAddress, HTTPServerError> = .failure(.addressResolution(host: "", message: "not resolved"))
    /// Whether the address bound is a loopback address (group writes and `Host` checks
    /// depend on it): classified by the resolved address, so `127.1`, `2130706433` and
    /// `localhost` are loopback (BindAddressTests).
    var isLoopback = true
    /// `--db`: where the groups live (and the result cache, for SQLite without `--cache-db`).
    var location: StoreLocation = .sqlite(path: "layoutd.db")
    /// `--cache-db`, as given.
    var cacheDB: String?
    /// The HTTP server's bounds and timeouts, with the service's problem type and fields.
    var limits = ServerLimits()
    var configuration = ServiceConfiguration()
    /// The bounds the stores are opened with.
    var settings = LayoutdCommand.StoreSettings()
    /// `--io-threads`: event loops, 1…256.
    var ioThreads = 1
    /// `--workers`: scenes solved at once, at least 1.
    var workers = 1
    /// Threads taking POST requests: `workers`, or ``LayoutdCommand/postThreadsPerWorker``
    /// times as many with a PostgreSQL `--db`.
    var postThreads = 1
    /// Whether each request gets a JSON access-log line on stderr (`--log-level info`
    /// without `--quiet`); otherwise only answers of status 500 and above do
    /// (``ServiceConfiguration/accessLogMinimumStatus``).
    var logsRequests = true

    /// Parses `arguments` (after `serve`) with `environment`'s `LAYOUTD_*` variables.
    /// - Throws: ``UsageError`` for an unknown flag, a positional argument, or a value
    ///   out of its range (the first one found, in the order of the checks below).
    init(parsing arguments: [String], environment: [String: String]) throws(UsageError) {
        let options = try OptionParser.parse(arguments, specs: LayoutdCommand.serveOptions, environment: environment)
        guard options.positionals.isEmpty else { throw UsageError("serve takes no arguments, got '\(options.positionals[0])'") }
        host = options.string("host") ?? "127.0.0.1"
        port = try options.int("port", default: 8080)
        guard port <= 65535 else { throw UsageError("--port must be 0…65535") }
        location = StoreLocation(options.string("db") ?? "layoutd.db")
        cacheDB = options.string("cache-db")
        limits = try Self.serverLimits(options)
        bindAddress = Result { () throws(HTTPServerError) -> BindAddress in try BindAddress.resolve(host, port: port) }
        let resolved = try? bindAddress.get()
        isLoopback = resolved?.isLoopback ?? false
        configuration = try Self.serviceConfiguration(options, bindAddress: resolved, isLoopback: isLoopback)
        configuration.maxBodyBytes = limits.maxBodyBytes
        configuration.largeBodyBytes = limits.largeBodyBytes
        workers = try options.int("workers", default: ProcessInfo.processInfo.activeProcessorCount)
        guard workers >= 1 else { throw UsageError("--workers must be at least 1") }
        ioThreads = try options.int("io-threads", default: ProcessInfo.processInfo.activeProcessorCount)
        guard (1...256).contains(ioThreads) else { throw UsageError("--io-threads must be 1…256") }
        settings = try Self.storeSettings(options)
        configuration.maxGroupConstraints = try options.int("max-group-constraints", default: configuration.maxGroupConstraints)
        guard configuration.maxGroupConstraints >= 0 else { throw UsageError("--max-group-constraints must be at least 0") }
        configuration.maxFontFileBytes = try options.int("max-font-file-bytes", default: configuration.maxFontFileBytes)
        guard configuration.maxFontFileBytes >= 0 else { throw UsageError("--max-font-file-bytes must be at least 0") }
        configuration.maxResponseBytes = try options.int("max-response-bytes", default: configuration.maxResponseBytes)
        settings.busyTimeout = try options.seconds("busy-timeout", default: 5)
        settings.dbTimeout = try options.seconds("db-timeout", default: 5)
        // With PostgreSQL, POST requests get more threads than --workers run at once: a
        // front cache hit waiting on the store (its version lookup, batched with others'
        // by VersionResolver) holds a thread but no solving turn. With SQLite, --workers
        // threads and no turns: lookups are in-process.
        let isPostgreSQL: Bool
        if case .postgreSQL = location { isPostgreSQL = true } else { isPostgreSQL = false }
        postThreads = isPostgreSQL ? LayoutdCommand.postThreadsPerWorker * workers : workers
        if isPostgreSQL { configuration.maxConcurrentSolves = workers }
        // One connection per thread that may use the store (the POST threads, and the two
        // threads of the other routes), so no request waits for another's.
        settings.poolSize = postThreads + 2
        let logLevel = options.string("log-level") ?? "info"
        guard ["info", "warn", "error"].contains(logLevel) else { throw UsageError("--log-level must be info, warn or error, got '\(logLevel)'") }
        logsRequests = !options.flag("quiet") && logLevel == "info"
        // Below info, the answers the server failed to give still get their lines.
        configuration.accessLogMinimumStatus = logsRequests ? 0 : 500
    }

    /// The HTTP server's flags (`--max-body-bytes` … `--drain-timeout`) over
    /// ``ServerLimits``'s defaults, with the service's problem type and the fields every
    /// answer carries.
    private static func serverLimits(_ options: ParsedArguments) throws(UsageError) -> ServerLimits {
        var limits = ServerLimits()
        limits.problemTypeBase = LayoutService.problemTypeBase
        limits.problemMembers = LayoutService.problemMembers
        // Every answer, the server's own 400/408/413/431/503 included, tells browsers not
        // to guess another type than Content-Type's (Fetch standard §3.5); held by
        // hostile/exposure-headers.
        limits.responseFields = ["X-Content-Type-Options": "nosniff"]
        limits.maxBodyBytes = try options.int("max-body-bytes", default: limits.maxBodyBytes)
        limits.maxHeaderBytes = try options.int("max-header-bytes", default: limits.maxHeaderBytes)
        limits.maxHeaderLineBytes = try options.int("max-header-line-bytes", default: limits.maxHeaderLineBytes)
        limits.maxTargetBytes = try options.int("max-target-bytes", default: limits.maxTargetBytes)
        limits.headTimeout = try options.seconds("head-timeout", default: limits.headTimeout)
        limits.bodyTimeout = try options.seconds("body-timeout", default: limits.bodyTimeout)
        limits.idleTimeout = try options.seconds("idle-timeout", default: limits.idleTimeout)
        limits.maxRequestsPerConnection = try options.int("max-requests-per-connection", default: limits.maxRequestsPerConnection)
        limits.maxConnections = try options.int("max-connections", default: limits.maxConnections)
        limits.maxPendingResponseBytes = try options.int("max-pending-response-bytes", default: limits.maxPendingResponseBytes)
        limits.maxPendingRequestBytes = try options.int("max-pending-request-bytes", default: limits.maxPendingRequestBytes)
        limits.drainTimeout = try options.seconds("drain-timeout", default: limits.drainTimeout)
        limits.largeBodyBytes = try options.int("large-body-bytes", default: limits.largeBodyBytes)
        guard limits.largeBodyBytes >= 0 else { throw UsageError("--large-body-bytes must be at least 0") }
        return limits
    }

    /// The service's flags: scene limits, the in-memory caches, who may write groups
    /// (`--api-token`, `--allow-anonymous-writes`), CORS and the `Host` values answered.
    private static func serviceConfiguration(_ options: ParsedArguments, bindAddress: BindAddress?,
                                             isLoopback: Bool) throws(UsageError) -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.sceneLimits.maxViews = try options.int("max-views", default: configuration.sceneLimits.maxViews)
        configuration.sceneLimits.maxConstraints = try options.int("max-constraints", default: configuration.sceneLimits.maxConstraints)
        configuration.sceneLimits.maxSizes = try options.int("max-sizes", default: configuration.sceneLimits.maxSizes)
        configuration.sceneLimits.maxConstraintBytes = try options.int("max-constraint-bytes", default: configuration.sceneLimits.maxConstraintBytes)
        configuration.sceneLimits.maxHierarchyDepth = try options.int("max-hierarchy-depth", default: configuration.sceneLimits.maxHierarchyDepth)
        configuration.sceneLimits.maxJSONDepth = try options.int("max-json-depth", default: configuration.sceneLimits.maxJSONDepth)
        configuration.sceneLimits.maxSolverWork = try options.int("max-solver-work", default: configuration.sceneLimits.maxSolverWork)
        configuration.frontCacheEntries = try options.int("front-cache-entries", default: configuration.frontCacheEntries)
        configuration.frontCacheBytes = try options.int("front-cache-bytes", default: configuration.frontCacheBytes)
        configuration.structureCacheEntries = try options.int("structure-cache-entries", default: configuration.structureCacheEntries)
        configuration.structureCacheBytes = try options.int("structure-cache-bytes", default: configuration.structureCacheBytes)
        configuration.apiToken = options.string("api-token").flatMap { $0.isEmpty ? nil : $0 }
        configuration.corsOrigins = (options.string("cors-origin") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        configuration.allowsAnonymousWrites = isLoopback || options.flag("allow-anonymous-writes")
        let allowedHosts = (options.string("allowed-hosts") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for entry in allowedHosts where entry != "*" {
            guard !entry.contains(where: \.isWhitespace), HostPolicy.splitAuthority(entry) != nil else {
                throw UsageError("--allowed-hosts: '\(entry)' is not a host name or address, with or without :port (or *)")
            }
        }
        if let bindAddress { configuration.hostPolicy = HostPolicy.forBind(bindAddress, allowedHosts: allowedHosts) }
        return configuration
    }

    /// The stores' flags (`--cache-capacity` … `--max-group-bytes`); `busyTimeout` and
    /// `poolSize` are set by the caller.
    private static func storeSettings(_ options: ParsedArguments) throws(UsageError) -> LayoutdCommand.StoreSettings {
        var settings = LayoutdCommand.StoreSettings()
        settings.cacheCapacity = try options.int("cache-capacity", default: 10_000)
        settings.maxCachedResultBytes = try options.int("max-cached-result-bytes", default: 16 << 20)
        settings.maxGroups = try options.int("max-groups", default: 10_000)
        settings.maxCacheBytes = try options.int("max-cache-bytes", default: 256 << 20)
        settings.maxGroupVersions = try options.int("max-group-versions", default: 100)
        settings.diskReserveBytes = try options.int("disk-reserve-bytes", default: DiskReserve.defaultBytes)
        guard settings.maxGroupVersions >= 1 else { throw UsageError("--max-group-versions must be at least 1") }
        settings.maxGroupBytes = try options.int("max-group-bytes", default: 64 << 20)
        guard settings.maxGroupBytes >= 0 else { throw UsageError("--max-group-bytes must be at least 0") }
        settings.maxFonts = try options.int("max-fonts", default: VersionedWritePolicy.defaultMaxFonts)
        guard settings.maxFonts >= 0 else { throw UsageError("--max-fonts must be at least 0") }
        settings.maxFontBytes = try options.int("max-font-bytes", default: VersionedWritePolicy.defaultMaxFontBytes)
        guard settings.maxFontBytes >= 0 else { throw UsageError("--max-font-bytes must be at least 0") }
        return settings
    }
}
