import Foundation
import HTTP1
import LayoutCompiler
import LayoutStore
import LayoutSyntax

/// The `layoutd` command line: `serve`, `solve`, `validate`, `import`, `lint`.
///
/// Exit codes: 0 success (for `solve`: laid out, warnings allowed); 1 the scene has
/// errors (or, for `serve`, the service could not start: port taken, database damaged);
/// 2 bad usage or unreadable input.
public enum LayoutdCommand {
    static let serveOptions: [OptionSpec] = [
        OptionSpec(name: "host", valueName: "ADDRESS", help: "Address to listen on, resolved by getaddrinfo (127.1, localhost, [::1] are loopback); 0.0.0.0 for every interface.", defaultDescription: "127.0.0.1"),
        OptionSpec(name: "port", valueName: "PORT", help: "TCP port; 0 picks a free one.", defaultDescription: "8080"),
        OptionSpec(name: "db", valueName: "PATH|URL", help: "Where the groups live: a SQLite database file (which also holds the result cache unless --cache-db says otherwise; :memory: keeps nothing), or a PostgreSQL database shared by every replica, postgres://user:pass@host:port/db (parts left out come from libpq's PG* variables; postgres: for those alone). A replica started before PostgreSQL is up keeps trying, answering /readyz 503 meanwhile.", defaultDescription: "layoutd.db in the working directory"),
        OptionSpec(name: "cache-db", valueName: "PATH", help: "SQLite database file for this process's result cache; :memory: keeps it in memory.", defaultDescription: "the --db file for a SQLite --db; :memory: for a PostgreSQL one"),
        OptionSpec(name: "cache-capacity", valueName: "N", help: "Results kept in the SQLite cache; least recently used are evicted.", defaultDescription: "10000"),
        OptionSpec(name: "max-cached-result-bytes", valueName: "BYTES", help: "Largest response stored in the SQLite cache, bytes; a larger one is answered with Cache-Status: layoutd; fwd=miss.", defaultDescription: "16777216"),
        OptionSpec(name: "max-cache-bytes", valueName: "BYTES", help: "Bytes of response bodies kept in the SQLite cache; least recently used are evicted beyond it and the freed pages returned to the disk.", defaultDescription: "268435456"),
        OptionSpec(name: "disk-reserve-bytes", valueName: "BYTES", help: "Bytes allocated in the file <db>-reserve and given back when the disk is full, so the cache can be evicted to let group writes through; 0 keeps none.", defaultDescription: "8388608"),
        OptionSpec(name: "front-cache-entries", valueName: "N", help: "Responses kept in memory in front of SQLite; 0 turns it off.", defaultDescription: "4096"),
        OptionSpec(name: "front-cache-bytes", valueName: "BYTES", help: "Bytes of requests and responses kept in memory in front of SQLite; a response over 1/8 of it is not kept; 0 turns it off.", defaultDescription: "67108864"),
        OptionSpec(name: "structure-cache-entries", valueName: "N", help: "Scene structures (a scene without its container size) kept compiled and solved in memory, so the same scene at another size is solved faster; 0 turns it off.", defaultDescription: "256"),
        OptionSpec(name: "structure-cache-bytes", valueName: "BYTES", help: "Estimated bytes the structure cache may hold (half decoded scenes, half compiled ones); a structure over 1/16 of it is not kept; 0 turns it off.", defaultDescription: "33554432"),
        OptionSpec(name: "max-body-bytes", valueName: "BYTES", help: "Largest request body, bytes (413 beyond).", defaultDescription: "1048576"),
        OptionSpec(name: "max-header-bytes", valueName: "BYTES", help: "Largest request header section, bytes (431 beyond).", defaultDescription: "16384"),
        OptionSpec(name: "max-header-line-bytes", valueName: "BYTES", help: "Largest single header line, bytes (431 beyond).", defaultDescription: "8192"),
        OptionSpec(name: "max-target-bytes", valueName: "BYTES", help: "Longest request target, bytes (414 beyond).", defaultDescription: "8192"),
        OptionSpec(name: "head-timeout", valueName: "SECONDS", help: "Time to receive a whole request head (408 after).", defaultDescription: "10"),
        OptionSpec(name: "body-timeout", valueName: "SECONDS", help: "Time to receive a request body (408 after).", defaultDescription: "30"),
        OptionSpec(name: "idle-timeout", valueName: "SECONDS", help: "Idle keep-alive time before the connection is closed.", defaultDescription: "60"),
        OptionSpec(name: "max-requests-per-connection", valueName: "N", help: "Requests served on one connection before it is closed.", defaultDescription: "1000"),
        OptionSpec(name: "max-connections", valueName: "N", help: "Open connections; beyond it new ones get 503 with Retry-After.", defaultDescription: "4096"),
        OptionSpec(name: "max-pending-response-bytes", valueName: "BYTES", help: "Answers all clients together may leave waiting unread, and answers being written, bytes; beyond it every request but health checks gets 503 with Retry-After.", defaultDescription: "268435456"),
        OptionSpec(name: "max-pending-request-bytes", valueName: "BYTES", help: "Bytes of unfinished requests (bodies being received) all clients together may hold, bytes; a read beyond it gets 503 with Retry-After and the connection closes.", defaultDescription: "268435456"),
        OptionSpec(name: "max-response-bytes", valueName: "BYTES", help: "Largest answer body (JSON, layouts of sizes, diagnostics, SVG), bytes; a longer one stops being written and is answered 422 limit_exceeded.", defaultDescription: "67108864"),
        OptionSpec(name: "drain-timeout", valueName: "SECONDS", help: "On SIGTERM/SIGINT, time to finish in-flight requests.", defaultDescription: "10"),
        OptionSpec(name: "io-threads", valueName: "N", help: "Event loops (1-256): each accepts, reads and writes its own connections and answers cache hits, /healthz and 404s itself; everything else goes to the workers.", defaultDescription: "the number of cores"),
        OptionSpec(name: "workers", valueName: "N", help: "Scenes solved at once (at least 1): with SQLite, the threads of /solve and /validate; with a PostgreSQL --db, 2 x N threads take them, so requests can wait on the store, and N of them solve at once. Other routes have two threads of their own.", defaultDescription: "the number of cores"),
        OptionSpec(name: "large-body-bytes", valueName: "BYTES", help: "Body length beyond which a request is large: while every worker runs a large request, one spare thread solves the smaller ones, so a burst of large scenes never holds up a small one.", defaultDescription: "16384"),
        OptionSpec(name: "max-views", valueName: "N", help: "Views in one scene (422 limit_exceeded beyond).", defaultDescription: "20000"),
        OptionSpec(name: "max-constraints", valueName: "N", help: "Constraint entries in one scene with its groups (422 beyond).", defaultDescription: "100000"),
        OptionSpec(name: "max-sizes", valueName: "N", help: "Entries of `sizes` in one scene (422 beyond).", defaultDescription: "1000"),
        OptionSpec(name: "max-constraint-bytes", valueName: "BYTES", help: "Bytes in one constraint string (422 limit_exceeded beyond).", defaultDescription: "65536"),
        OptionSpec(name: "max-hierarchy-depth", valueName: "N", help: "Depth of the view hierarchy (422 limit_exceeded beyond).", defaultDescription: "64"),
        OptionSpec(name: "max-solver-work", valueName: "N", help: "Solver work for one layout, in simplex cell operations (422 limit_exceeded beyond); bounds the time one scene can take. Drawing an SVG wireframe may take as many units of work, bytes written or examined.", defaultDescription: "100000000"),
        OptionSpec(name: "max-json-depth", valueName: "N", help: "Nesting of arrays and objects in a request body (400 invalid_json beyond).", defaultDescription: "64"),
        OptionSpec(name: "max-groups", valueName: "N", help: "Named groups stored at once.", defaultDescription: "10000"),
        OptionSpec(name: "max-group-versions", valueName: "N", help: "Versions kept per group (at least 1); older ones are pruned and answer 404.", defaultDescription: "100"),
        OptionSpec(name: "max-group-bytes", valueName: "BYTES", help: "Bytes all kept group versions may count together (name, constraints and metrics JSON, timestamp, plus SQLite's row storage); a PUT beyond it is 422 limit_exceeded.", defaultDescription: "67108864"),
        OptionSpec(name: "max-fonts", valueName: "N", help: "Font faces stored at once (422 limit_exceeded beyond).", defaultDescription: "256"),
        OptionSpec(name: "max-font-bytes", valueName: "BYTES", help: "Bytes all stored font faces may count together (files, names, SHA-256s, timestamps, plus row storage); a PUT beyond it is 422 limit_exceeded.", defaultDescription: "50331648"),
        OptionSpec(name: "max-font-file-bytes", valueName: "BYTES", help: "Largest font file one PUT /fonts/… may store (413 beyond; --max-body-bytes bounds it too).", defaultDescription: "1048576"),
        OptionSpec(name: "max-group-constraints", valueName: "N", help: "Constraint entries in one group (422 limit_exceeded beyond).", defaultDescription: "1000"),
        OptionSpec(name: "busy-timeout", valueName: "SECONDS", help: "How long a database write waits for a lock held by another process before answering 503.", defaultDescription: "5"),
        OptionSpec(name: "db-timeout", valueName: "SECONDS", help: "With PostgreSQL, how long one round trip to the server (or making a connection) may take before the request answers 503 and the connection is dropped.", defaultDescription: "5"),
        OptionSpec(name: "api-token", valueName: "TOKEN", help: "When set, PUT and DELETE on /groups need 'Authorization: Bearer TOKEN'.", defaultDescription: "none: writes are open on a loopback address, refused (403) on any other"),
        OptionSpec(name: "allow-anonymous-writes", valueName: "", help: "Without --api-token, let anyone who can reach a non-loopback address write groups (refused with 403 otherwise).", isFlag: true),
        OptionSpec(name: "allowed-hosts", valueName: "HOSTS", help: "Comma-separated Host values answered besides the loopback ones (name, or name:port; * for any); others get 421. Checked on a loopback address always, on another only when given.", defaultDescription: "none: on loopback, only localhost, 127.0.0.1, [::1]"),
        OptionSpec(name: "cors-origin", valueName: "ORIGINS", help: "Comma-separated origins allowed by CORS, or *.", defaultDescription: "none: CORS off"),
        OptionSpec(name: "log-level", valueName: "LEVEL", help: "info: one JSON access-log line per request on stderr; warn: start-up and errors only.", defaultDescription: "info"),
        OptionSpec(name: "quiet", valueName: "", help: "Same as --log-level warn.", isFlag: true),
    ]

    static let sceneOptions: [OptionSpec] = [
        OptionSpec(name: "json", valueName: "", help: "Print JSON even on a terminal.", isFlag: true),
        OptionSpec(name: "db", valueName: "PATH|URL", help: "Database to read included groups and stored fonts from (read-only): a SQLite file, or postgres://… as serve's --db.", defaultDescription: "none: groups and stored fonts are unknown", readsEnvironment: false),
        OptionSpec(name: "max-solver-work", valueName: "N", help: "Solver work allowed, in simplex cell operations (as serve's flag); the SVG of --svg may take as many units of work, bytes written or examined.", defaultDescription: "100000000"),
        OptionSpec(name: "max-response-bytes", valueName: "BYTES", help: "Largest output (the JSON printed, the SVG written), bytes; a longer one is the 422 limit_exceeded problem instead (as serve's flag).", defaultDescription: "67108864"),
        OptionSpec(name: "svg", valueName: "FILE", help: "(solve only) also write the SVG wireframe (what POST /solve answers for Accept: image/svg+xml) to FILE; - prints it instead of the JSON (the exit status is the JSON's)."),
        OptionSpec(name: "explain", valueName: "FIELDS", help: "(solve only) comma-separated VIEW or VIEW.FIELD (FIELD x, y, width or height) added to the scene's explain: which constraints move each field, and by how much per point; printed as text on a terminal, as the JSON's explanations otherwise."),
    ]

    static let usage = """
    USAGE: layoutd <command> [options]

    COMMANDS:
      serve               Run the HTTP service (POST /solve, /validate, /groups…).
      solve FILE|-        Solve a scene file (or standard input); print the /solve JSON.
      validate FILE|-     Check a scene; print its diagnostics.
      import FILE         Read a .xib or .storyboard; print its hierarchies as scenes (--solve: with frames).
      lint FILE           Lay out a .xib or .storyboard; print misplaced views, conflicts, ambiguity as Xcode would; exit 1 on any.
      probe               Ask a running server's GET /healthz; exit 0 on 200 (a health check without curl).
      groups export|import  Copy named groups out of (JSON lines on stdout) or into (from stdin) a store, keeping versions.
      fonts export|import   Copy stored font faces out of (JSON lines, files in base64) or into a store, keeping versions.

    Run 'layoutd <command> --help' for a command's options.

    """

    /// Runs the command line `arguments` (without the program name) and returns the exit code.
    public static func main(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        guard let command = arguments.first else {
            FileHandle.standardError.write(Data(usage.utf8))
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do throws(UsageError) {
            switch command {
            case "serve": return try serve(rest, environment: environment)
            case "solve": return try scene(rest, validating: false, environment: environment)
            case "validate": return try scene(rest, validating: true, environment: environment)
            case "import": return try importOrLint(rest, linting: false, environment: environment)
            case "lint": return try importOrLint(rest, linting: true, environment: environment)
            case "probe": return try probe(rest, environment: environment)
            case "groups": return try groups(rest, environment: environment)
            case "fonts": return try fonts(rest, environment: environment)
            case "--help", "-h", "help":
                FileHandle.standardOutput.write(Data(usage.utf8))
                return 0
            case "--version":
                print("layoutd \(layoutdVersion)")
                return 0
            default:
                throw UsageError("unknown command '\(command)'")
            }
        } catch {
            FileHandle.standardError.write(Data("layoutd: \(error.message)\nRun 'layoutd --help' for usage.\n".utf8))
            return 2
        }
    }

    // MARK: - serve

    /// `layoutd serve`: parses the options (``ServeOptions``), opens the stores, starts
    /// the server, says how it is reachable and who may write, and serves until SIGTERM
    /// or SIGINT (then drains, closes the stores and exits 0).
    /// - Returns: 0 after `--help`; 1 when a store cannot be opened or the address cannot
    ///   be bound (it never returns once serving).
    /// - Throws: ``UsageError`` for bad options (exit 2).
    /// `host:port` as a URI's authority: an IPv6 address in brackets (`[::1]:8080`, RFC 3986 §3.2.2).
    static func authority(_ host: String, _ port: Int) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// File descriptors kept for the server's own use beside its connections: the
    /// database's files and connections, epoll sets, pipes, the spare descriptor, logs.
    static let reservedFileDescriptors = 128

    /// Raises the soft limit on open files (`RLIMIT_NOFILE`) to the hard one, as Go's
    /// runtime and nginx's `worker_rlimit_nofile` do.
    /// - Returns: the soft limit now in force; `nil` when it cannot be read.
    static func raiseOpenFileLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)   // RLIM_INFINITY is all bits set: Int.max
    }

    /// `--max-connections` within the open-file limit `fileLimit` (less
    /// ``reservedFileDescriptors``, at least 1): a connection over the limit then gets the
    /// documented `503` rather than waiting unaccepted (`accept` fails with `EMFILE`). With the
    /// start-up line saying so when the flag was lowered (test `ServeFlagEnvironmentTests`).
    static func connectionLimit(maxConnections: Int, fileLimit: Int?) -> (Int, String?) {
        guard let fileLimit else { return (maxConnections, nil) }
        let usable = max(1, fileLimit - reservedFileDescriptors)
        guard maxConnections > usable else { return (maxConnections, nil) }
        return (usable, "the open-file limit (ulimit -n) is \(fileLimit), so at most \(usable) connections are served at once, not --max-connections \(maxConnections); raise the limit to serve more")
    }

    static func serve(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(OptionParser.help(usage: "layoutd serve [options]", summary: "Runs the layoutd HTTP/1.1 service.", specs: serveOptions))
            return 0
        }
        var parsed = try ServeOptions(parsing: arguments, environment: environment)
        let (connections, fileLimitLine) = Self.connectionLimit(maxConnections: parsed.limits.maxConnections,
                                                               fileLimit: Self.raiseOpenFileLimit())
        parsed.limits.maxConnections = connections
        let options = parsed
        if let fileLimitLine { FileHandle.standardError.write(Data("layoutd: \(fileLimitLine)\n".utf8)) }
        let bindAddress: BindAddress
        switch options.bindAddress {
        case .success(let address): bindAddress = address
        case .failure(let error):
            FileHandle.standardError.write(Data("layoutd: cannot listen on \(Self.authority(options.host, options.port)): \(error)\n".utf8))
            return 1
        }
        // Bind before opening the stores: a port in use then leaves no database file behind
        // (e2e process/port-in-use-creates-no-database).
        let listener: Listener
        do {
            listener = try Listener.bind(bindAddress)
        } catch {
            FileHandle.standardError.write(Data("layoutd: cannot listen on \(Self.authority(options.host, options.port)): \(error)\n".utf8))
            return 1
        }
        guard let stores = openServeStores(options) else {
            listener.close()
            return 1
        }
        let server = makeServer(options, address: bindAddress, stores: stores)
        let boundPort: Int
        do {
            boundPort = try server.start(on: listener)
        } catch {
            FileHandle.standardError.write(Data("layoutd: cannot start serving on \(options.host):\(options.port): \(error)\n".utf8))
            listener.close()
            stores.close()
            return 1
        }
        if stores.groups.isReadOnly {
            FileHandle.standardError.write(Data("layoutd: the database '\(options.location.displayName)' is read-only: groups can be read, writes answer 503\n".utf8))
        }
        FileHandle.standardError.write(Data("layoutd: \(Self.writeModeLine(options.configuration, host: options.host, isLoopback: options.isLoopback))\n".utf8))
        FileHandle.standardError.write(Data("layoutd: \(Self.hostCheckLine(options.configuration.hostPolicy))\n".utf8))
        FileHandle.standardError.write(Data("layoutd \(layoutdVersion) listening on http://\(Self.listeningHost(bindAddress)):\(boundPort) (\(Self.databaseDescription(options.location, cachePath: stores.cachePath)))\n".utf8))
        installSignalHandlers {
            FileHandle.standardError.write(Data("layoutd: shutting down: finishing in-flight requests\n".utf8))
            let unfinished = server.shutdown()
            if unfinished > 0 {
                FileHandle.standardError.write(Data("layoutd: the drain ended (--drain-timeout \(Self.secondsText(options.limits.drainTimeout))) with \(unfinished) connection\(unfinished == 1 ? "" : "s") still busy; closed without their answers\n".utf8))
            }
            stores.close()
            FileHandle.standardError.write(Data("layoutd: stopped\n".utf8))
            exit(0)
        }
        dispatchMain()
    }

    /// `seconds` as a person writes it: `10 s`, `2.5 s`.
    static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// The stores `serve` runs on (``openStores(_:cacheDB:settings:report:)``).
    struct ServeStores {
        var cache: SQLiteStore
        var groups: any GroupStoring
        var cachePath: String

        /// Closes the cache store, and the group store when it is another SQLite file.
        func close() {
            cache.close()
            if let groups = groups as? SQLiteStore, groups !== cache { groups.close() }
        }
    }

    /// Opens `serve`'s stores, or writes why it cannot on stderr and answers `nil` (exit 1).
    static func openServeStores(_ options: ServeOptions) -> ServeStores? {
        do {
            let (cache, groups, path) = try openStores(options.location, cacheDB: options.cacheDB, settings: options.settings) { line in
                FileHandle.standardError.write(Data("layoutd: \(line)\n".utf8))
            }
            return ServeStores(cache: cache, groups: groups, cachePath: path)
        } catch {
            let failed = error.path
            let reason: String
            switch error.error {
            case .corrupt(let message): reason = "the database file '\(failed)' is damaged (\(message)); it was left untouched. Restore it from a backup or start with another --db"
            case .cannotOpen(let message): reason = "cannot open the database '\(failed)': \(message)"
            case .busy: reason = "the database '\(failed)' is locked by another process"
            case .full: reason = "cannot open the database '\(failed)': the disk holding it is full (SQLITE_FULL); free some space (the --disk-reserve-bytes file is made only once the database is open)"
            case .sqlite(let sqliteError):
                // SQLite's own words for the operator (they name no host): an I/O error here
                // is most often a full disk or a permission (SQLITE_IOERR, SQLITE_CANTOPEN).
                reason = "cannot open the database '\(failed)': \(sqliteError.description); check the free space and permissions of its directory"
            default: reason = "cannot open the database '\(failed)': \(LayoutService.describe(error.error))"
            }
            FileHandle.standardError.write(Data("layoutd: \(reason)\n".utf8))
            return nil
        }
    }

    /// The service on `stores` and the HTTP server in front of it, bound to `address` (resolved
    /// from `--host`), not yet started.
    static func makeServer(_ options: ServeOptions, address: BindAddress, stores: ServeStores) -> HTTPServer {
        // Every request's line at info; below it, the handler and the server's own answers
        // write only those of status 500 and above (configuration.accessLogMinimumStatus).
        let log: (@Sendable (String) -> Void)? = { @Sendable line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let connections = ConnectionCounter()
        // One count of pending response bytes: the server's unsent output and the answers
        // the service is still writing.
        let pending = PendingResponseBytes(limit: options.limits.maxPendingResponseBytes)
        let service = LayoutService(store: stores.cache, groupStore: stores.groups,
                                    fontStore: Self.fontStore(for: stores.groups, cache: stores.cache, settings: options.settings),
                                    configuration: options.configuration,
                                    pendingResponseBytes: pending, openConnections: { connections.value() },
                                    answeredCounts: { connections.answered() })
        let router = service.makeRouter()
        let handler = service.makeHandler(router: router, log: log)
        // Cache hits, /healthz and 404s are answered on the I/O thread that read them.
        let loopHandler = service.makeLoopHandler(router: router, log: log)
        // Solving and validating may take long: they get the workers; every other route
        // (health, metrics, groups, the page) runs on its own small pool.
        let server = HTTPServer(host: options.host, port: options.port, address: address, limits: options.limits, workerCount: max(1, options.postThreads),
                                accessLog: serverAccessLog(metrics: service.metrics, log: log,
                                                           minimumStatus: options.configuration.accessLogMinimumStatus),
                                isExpensive: { $0.method == .POST },
                                isSmallAnswer: LayoutService.hasSmallAnswer,
                                overCommittedHandler: service.makeOverCommittedHandler(router: router, log: log),
                                pendingResponseBytes: pending,
                                continueCheck: service.makeContinueCheck(router: router, log: log),
                                ioThreads: options.ioThreads, loopHandler: loopHandler,
                                abandoned: service.makeAbandonedHandler(router: router, log: log), handler: handler)
        connections.source = { server.openConnectionCount }
        connections.answeredSource = { server.answeredCounts }
        connections.cutSource = { server.cutAnswerCount }
        return server
    }

    /// The server's own answers (framing errors, timeouts, 503 over the connection
    /// limit) never reach the handler: counted and logged here. Requests that reached
    /// the handler are counted and logged by the service.
    static func serverAccessLog(metrics: Metrics, log: (@Sendable (String) -> Void)?,
                                minimumStatus: Int = 0) -> @Sendable (AccessLogRecord) -> Void {
        { record in
            guard record.method == nil else { return }
            metrics.recordRequest(route: "(server)", status: record.status, seconds: record.duration)
            guard let log, record.status.code >= minimumStatus else { return }
            var line = JSONWriter(reservingCapacity: 160)
            line.beginObject()
            line.key("time"); line.string(LayoutService.timestamp())
            line.key("status"); line.integer(record.status.code)
            line.key("remote"); line.string(record.remoteAddress)
            line.key("durationMs"); line.number((record.duration * 1e6).rounded() / 1e3)
            line.key("answeredBy"); line.string("server")
            line.endObject()
            log(String(decoding: line.bytes, as: UTF8.self))
        }
    }

    /// Threads for POST requests per `--workers` with a PostgreSQL group store: the
    /// requests beyond `--workers` wait on the store (front cache hits' version lookups,
    /// batched) or for a turn, while at most `--workers` of them run
    /// (``ServiceConfiguration/maxConcurrentSolves``). The pool keeps a connection for each
    /// of these threads and the two of the other routes. Each thread beyond `--workers`
    /// costs cached scenes without groups a wait for a turn (scripts/bench-replicas.sh on
    /// 2 cores: 4 per worker put them at 0.7x of SQLite, 2 at 1.0x with a cached group scene
    /// at 0.56x).
    static let postThreadsPerWorker = 2

    /// The bounds and timeouts `serve` opens its stores with (its flags of the same names).
    struct StoreSettings {
        var cacheCapacity = 10_000
        var busyTimeout = 5.0
        /// PostgreSQL's bound on one round trip or connection attempt (`--db-timeout`).
        var dbTimeout = 5.0
        var maxGroups = 10_000
        var maxCachedResultBytes = 16 << 20
        var maxCacheBytes = 256 << 20
        var maxGroupVersions = 100
        var diskReserveBytes = DiskReserve.defaultBytes
        var maxGroupBytes = 64 << 20
        var maxFonts = VersionedWritePolicy.defaultMaxFonts
        var maxFontBytes = VersionedWritePolicy.defaultMaxFontBytes
        /// PostgreSQL connections kept.
        var poolSize = 4
    }

    /// A store that could not be opened: its path and why.
    struct StoreOpenFailure: Error {
        var path: String
        var error: StoreError
    }

    /// Opens `serve`'s stores: the result cache in `cacheDB` (default: the SQLite `--db`
    /// file itself, or `:memory:` with PostgreSQL), and the group store `location` names:
    /// that same ``SQLiteStore`` when the cache is in the `--db` file, another SQLite file's
    /// store, or a ``PostgreSQLGroupStore`` that connects and migrates in the background
    /// (``PostgreSQLGroupStore/connecting(url:poolSize:acquireTimeout:timeout:maxGroups:maxGroupVersions:maxGroupBytes:retryDelays:report:)``,
    /// its lines told to `report`). Held by `ServeStoresTests`.
    /// - Returns: the cache store, the group store, and the cache's path.
    /// - Throws: ``StoreOpenFailure`` naming the SQLite file that could not be opened
    ///   (nothing stays open). PostgreSQL never fails here: it is retried.
    static func openStores(
        _ location: StoreLocation, cacheDB: String?, settings: StoreSettings, report: @escaping @Sendable (String) -> Void
    ) throws(StoreOpenFailure) -> (cache: SQLiteStore, groups: any GroupStoring, cachePath: String) {
        let path: String
        switch location {
        case .sqlite(let dbPath): path = cacheDB ?? dbPath
        case .postgreSQL: path = cacheDB ?? ":memory:"
        }
        let store: SQLiteStore
        do {
            store = try SQLiteStore(path: path, cacheCapacity: settings.cacheCapacity, busyTimeout: settings.busyTimeout,
                                    maxGroups: settings.maxGroups, maxResultBytes: settings.maxCachedResultBytes,
                                    maxCacheBytes: settings.maxCacheBytes, maxGroupVersions: settings.maxGroupVersions,
                                    diskReserveBytes: settings.diskReserveBytes, maxGroupBytes: settings.maxGroupBytes,
                                    maxFonts: settings.maxFonts, maxFontBytes: settings.maxFontBytes)
        } catch {
            throw StoreOpenFailure(path: path, error: error)
        }
        switch location {
        case .sqlite(let dbPath) where dbPath == path:
            return (store, store, path)
        case .sqlite(let dbPath):
            do {
                let groups = try SQLiteStore(path: dbPath, cacheCapacity: 0, busyTimeout: settings.busyTimeout, maxGroups: settings.maxGroups,
                                             maxGroupVersions: settings.maxGroupVersions, diskReserveBytes: settings.diskReserveBytes,
                                             maxGroupBytes: settings.maxGroupBytes, maxFonts: settings.maxFonts,
                                             maxFontBytes: settings.maxFontBytes)
                return (store, groups, path)
            } catch {
                store.close()
                throw StoreOpenFailure(path: dbPath, error: error)
            }
        case .postgreSQL(let url):
            let groups = PostgreSQLGroupStore.connecting(
                url: url, poolSize: settings.poolSize, acquireTimeout: settings.busyTimeout, timeout: settings.dbTimeout, maxGroups: settings.maxGroups,
                maxGroupVersions: settings.maxGroupVersions, maxGroupBytes: settings.maxGroupBytes, report: report)
            return (store, groups, path)
        }
    }

    /// The font store beside `groups`: that same SQLite file, or PostgreSQL's font tables
    /// on the group store's pool (with `settings`' font bounds).
    static func fontStore(for groups: any GroupStoring, cache: SQLiteStore, settings: StoreSettings) -> any FontStoring {
        if let postgreSQL = groups as? PostgreSQLGroupStore {
            return PostgreSQLFontStore(groups: postgreSQL, maxFonts: settings.maxFonts, maxFontBytes: settings.maxFontBytes)
        }
        return (groups as? SQLiteStore) ?? cache
    }

    /// The start-up line's account of the stores: `database PATH` when one SQLite file
    /// holds groups and cache, else where each is (a PostgreSQL URL without its password).
    static func databaseDescription(_ location: StoreLocation, cachePath: String) -> String {
        if case .sqlite(let path) = location, path == cachePath { return "database \(path)" }
        return "groups in \(location.displayName), result cache in \(cachePath)"
    }

    /// The start-up line that says who may write groups.
    static func writeModeLine(_ configuration: ServiceConfiguration, host: String, isLoopback: Bool) -> String {
        if configuration.apiToken != nil {
            return "group writes need 'Authorization: Bearer <token>' (--api-token is set)"
        }
        if isLoopback {
            return "group writes are open to anyone on this machine: no API token is set (--api-token / LAYOUTD_API_TOKEN) and \(host) is a loopback address"
        }
        if configuration.allowsAnonymousWrites {
            return "group writes are open to anyone who can reach \(host): no API token is set and --allow-anonymous-writes is given"
        }
        return "group writes are refused (403): \(host) is not a loopback address and no API token is set; "
            + "set --api-token TOKEN (or LAYOUTD_API_TOKEN), or pass --allow-anonymous-writes to open them to anyone"
    }

    /// The start-up line that says which `Host` values are answered.
    static func hostCheckLine(_ policy: HostPolicy) -> String {
        if !policy.isEnforced { return "any Host is answered (a non-loopback address without --allowed-hosts)" }
        if policy.allowedHosts.contains("*") { return "any Host is answered (--allowed-hosts *)" }
        let extra = policy.allowedHosts.isEmpty ? "" : " and \(policy.allowedHosts.joined(separator: ", "))"
        return "only Host \(HostPolicy.loopbackHostsDescription)\(extra) is answered, others get 421 (against DNS rebinding; --allowed-hosts widens it)"
    }

    /// The host of the start-up line's URL: `--host` as given (an IPv6 address in
    /// brackets), followed by the address bound when that is written otherwise
    /// (`127.1 = 127.0.0.1`, `localhost = ::1`).
    static func listeningHost(_ address: BindAddress) -> String {
        var text = address.text
        if text.contains(":") && !text.hasPrefix("[") { text = "[\(text)]" }
        return text == address.urlHost ? text : "\(text) = \(address.urlHost)"
    }

    // MARK: - solve / validate

    /// The line `solve` and `validate` write to standard error when they ran without `--db`
    /// and the scene names a group or a font family that is neither built in nor known
    /// (`unknown_group`, `unknown_font`): such names are read only from a database. `nil`
    /// for other diagnostics (test `CLIDatabaseHintTests`).
    static func missingDatabaseHint(_ diagnostics: [LayoutDiagnostic]) -> String? {
        let groups = diagnostics.contains { $0.code == .unknownGroup }
        // Not a built-in family whose files are missing: that one is `unknown_font` too.
        let fonts = diagnostics.contains { $0.code == .unknownFont && $0.message.hasPrefix("Unknown font family") }
        guard groups || fonts else { return nil }
        let what = groups && fonts ? "stored groups and font families are" : groups ? "stored groups are" : "stored font families are"
        return "no --db was given, so no \(what) read: pass --db PATH|URL, the database `layoutd serve --db` stores them in"
    }

    static func scene(_ arguments: [String], validating: Bool, environment: [String: String]) throws(UsageError) -> Int32 {
        let name = validating ? "validate" : "solve"
        if arguments.contains("--help") || arguments.contains("-h") {
            let summary = validating
                ? "Parses, compiles and solves a scene and prints its diagnostics: for people on a terminal, JSON otherwise (or with --json). Exit 0 valid, 1 not valid, 2 unreadable input."
                : "Solves a scene and prints what POST /solve answers. Exit 0 laid out (warnings allowed), 1 the scene has errors, 2 unreadable input."
            print(OptionParser.help(usage: "layoutd \(name) FILE|- [options]", summary: summary, specs: sceneOptions))
            return 0
        }
        let options = try OptionParser.parse(arguments, specs: sceneOptions, environment: environment)
        guard options.positionals.count == 1 else { throw UsageError("\(name) takes one FILE (or - for standard input)") }
        let file = options.positionals[0]
        var body: [UInt8]
        if file == "-" {
            body = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            body = [UInt8](try readDocument(file))
        }
        let explain = validating ? nil : options.string("explain")
        if let explain { body = withExplain(body, fields: explain) }
        var store: (any GroupStoring)?
        switch options.string("db").map(StoreLocation.init) {
        case .sqlite(let path)?:
            // Read-only: the groups of a database `serve` made. A missing file is a usage
            // error of its own (SQLite's read-only open only says it cannot open it).
            if path != ":memory:" && !FileManager.default.fileExists(atPath: path) {
                throw UsageError("the database '\(path)' does not exist: --db reads the groups of an existing database (one that `layoutd serve --db \(path)` made)")
            }
            do {
                store = try SQLiteStore(path: path, readOnly: path != ":memory:")
            } catch {
                throw UsageError("cannot open the database '\(path)': \(LayoutService.describe(error))")
            }
        case .postgreSQL(let url)?:
            do {
                store = try PostgreSQLGroupStore(url: url, poolSize: 1)
            } catch {
                throw UsageError("cannot open the database '\(StoreLocation.postgreSQL(url: url).displayName)': \(LayoutService.describe(error))")
            }
        case nil:
            break
        }
        defer { (store as? SQLiteStore)?.close() }
        var limits = SceneLimits()
        limits.maxSolverWork = try options.int("max-solver-work", default: limits.maxSolverWork)
        let engine = SceneEngine(limits: limits, maxResponseBytes: try options.int("max-response-bytes", default: SceneEngine.defaultMaxResponseBytes))
        let resolver: GroupResolver = { reference in
            guard let store else { return nil }
            let stored = try reference.version.map { try store.group(named: reference.name, version: $0) } ?? store.group(named: reference.name)
            guard let stored else { return nil }
            let json = try JSONParser().parse(Array("{\"constraints\":\(stored.constraintsJSON),\"metrics\":\(stored.metricsJSON)}".utf8))
            let decoded = try SceneDecoder().decodeGroupBody(json, stored: true)
            return ResolvedGroup(name: stored.name, version: stored.version, constraints: decoded.constraints, metrics: decoded.metrics)
        }
        // Stored fonts from the same database: labels measure with them as the server's do.
        let fontStore: (any FontStoring)? = (store as? SQLiteStore) ?? (store as? PostgreSQLGroupStore).map { PostgreSQLFontStore(groups: $0) }
        let fonts = fontStore.map { fontStore in
            StoredFontSource(store: StoredFontSource.uniqueStoreName(), currentVersions: { names in try fontStore.currentFaceVersions(of: names) },
                             bytes: { name, version in try fontStore.face(named: name).flatMap { $0.version == version ? $0.bytes : nil } })
        }
        let answer: EngineAnswer
        var svgRefused = false
        // `--svg -`: the drawing goes to standard output instead of the JSON.
        var svgForStandardOutput: [UInt8]?
        switch engine.prepare(body: body, fonts: fonts, resolveGroup: resolver) {
        case .success(let prepared):
            answer = validating ? engine.validate(prepared) : engine.solve(prepared)
            if !validating, let svgPath = options.string("svg") {
                let svg = engine.solveSVG(prepared)
                if svg.status == .ok && svgPath == "-" {
                    svgForStandardOutput = svg.body
                } else if svg.status == .ok, !FileManager.default.createFile(atPath: svgPath, contents: Data(svg.body)) {
                    throw UsageError("cannot write '\(svgPath)'")
                }
                if svg.status != .ok && answer.status == .ok {
                    // The JSON was laid out but its drawing was refused (a limit): say so.
                    let detail = (try? JSONParser().parse(svg.body)).flatMap { json -> String? in
                        if case .string(let text)? = json["detail"] { return text }
                        return nil
                    } ?? "status \(svg.status)"
                    FileHandle.standardError.write(Data("layoutd: the SVG was not written: \(detail)\n".utf8))
                    svgRefused = true
                }
            }
        case .failure(let failure):
            answer = validating && failure.status == .unprocessableContent ? engine.validity(failure.diagnostics) : engine.problem(status: failure.status, diagnostics: failure.diagnostics)
            if store == nil, let hint = missingDatabaseHint(failure.diagnostics) {
                FileHandle.standardError.write(Data("layoutd: \(hint)\n".utf8))
            }
        }
        let humanReadable = (validating || explain != nil) && !options.flag("json") && isatty(STDOUT_FILENO) == 1
        if let svgForStandardOutput {
            FileHandle.standardOutput.write(Data(svgForStandardOutput))
        } else if humanReadable {
            print(validating ? renderForTerminal(answer) : renderExplanations(answer))
        } else {
            FileHandle.standardOutput.write(Data(answer.body + [0x0A]))
        }
        if answer.status != .ok || svgRefused { return 1 }
        let json = try? JSONParser().parse(answer.body)
        if validating {
            return json?["valid"] == .bool(true) ? 0 : 1
        }
        // Laid out, but with an error (a conflict left out under `conflicts: break`): 1.
        var diagnostics: [JSONValue] = []
        if case .array(let list)? = json?["diagnostics"] { diagnostics += list }
        if case .array(let layouts)? = json?["layouts"] {
            for layout in layouts { if case .array(let list)? = layout["diagnostics"] { diagnostics += list } }
        }
        return diagnostics.contains { $0["severity"] == .string("error") } ? 1 : 0
    }

    /// `body` with `fields` (comma-separated, blanks trimmed, empty ones skipped) appended
    /// to its `explain` array (made when absent). A body that is not a JSON object, or
    /// whose `explain` is not an array, is returned as it is: the engine says what is wrong.
    static func withExplain(_ body: [UInt8], fields: String) -> [UInt8] {
        guard case .object(var members)? = try? JSONParser().parse(body) else { return body }
        let added = fields.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { JSONValue.string($0) }
        if let index = members.firstIndex(where: { $0.0 == "explain" }) {
            guard case .array(let existing) = members[index].1 else { return body }
            members[index].1 = .array(existing + added)
        } else {
            members.append(("explain", .array(added)))
        }
        var writer = JSONWriter()
        writer.value(.object(members))
        return writer.bytes
    }

    /// A `/solve` answer with explanations, for people: per layout (one, or one per size),
    /// each field with its value, then one line per constraint that moves it, rate first
    /// (`+1`, `-0.5`), its text and which entry it is; then the diagnostics, rendered as
    /// `validate` renders them. A problem answer is rendered as its diagnostics.
    static func renderExplanations(_ answer: EngineAnswer) -> String {
        guard let json = try? JSONParser().parse(answer.body) else { return String(decoding: answer.body, as: UTF8.self) }
        var lines: [String] = []
        func rate(_ value: Double) -> String { (value > 0 ? "+" : "") + JSONWriter.format(value) }
        func render(_ layout: JSONValue, heading: String?) {
            if let heading { lines.append(heading) }
            let indent = heading == nil ? "" : "  "
            guard case .object(let fields) = layout["explanations"] ?? .null else { return }
            for (field, value) in fields {
                let parts = field.split(separator: ".", maxSplits: 1).map(String.init)
                var head = indent + field
                if parts.count == 2, case .number(let current)? = layout["frames"]?[parts[0]]?[parts[1]] {
                    head += " = " + JSONWriter.format(current)
                }
                guard case .array(let entries) = value else { continue }
                lines.append(head + (entries.isEmpty ? "  (no constraint moves it)" : ""))
                let rates = entries.map { entry -> String in
                    if case .number(let by)? = entry["by"] { return rate(by) }
                    return "?"
                }
                let width = rates.map(\.count).max() ?? 0
                for (entry, shown) in zip(entries, rates) {
                    let ref = entry["ref"] ?? .null
                    var text = "?"
                    if case .string(let written)? = ref["text"] { text = written }
                    var which = ""
                    switch ref["constraint"] {
                    case .number(let index)?: which = "constraints[\(Int(index))]"
                    case .string(let name)?: which = name
                    default: break
                    }
                    if case .number(let part)? = ref["part"] { which += " part \(Int(part))" }
                    if case .string(let id)? = ref["id"] { which += ", id \(id)" }
                    lines.append(indent + "  " + String(repeating: " ", count: width - shown.count) + shown + "  " + text + "  [" + which + "]")
                }
            }
        }
        if case .array(let layouts)? = json["layouts"] {
            for layout in layouts {
                var heading = "at"
                if case .number(let width)? = layout["container"]?["width"] { heading += " " + JSONWriter.format(width) }
                if case .number(let height)? = layout["container"]?["height"] { heading += " × " + JSONWriter.format(height) }
                render(layout, heading: heading + ":")
                if case .array(let diagnostics)? = layout["diagnostics"] {
                    for diagnostic in diagnostics { lines.append(LayoutDiagnostic(json: diagnostic).rendered()) }
                }
            }
        } else {
            render(json, heading: nil)
        }
        if case .array(let diagnostics) = json["diagnostics"] ?? .array([]) {
            for diagnostic in diagnostics { lines.append(""); lines.append(LayoutDiagnostic(json: diagnostic).rendered()) }
        }
        return lines.joined(separator: "\n")
    }

    /// Diagnostics one after another, each with its source line and caret.
    static func renderForTerminal(_ answer: EngineAnswer) -> String {
        guard let json = try? JSONParser().parse(answer.body) else { return String(decoding: answer.body, as: UTF8.self) }
        var lines: [String] = []
        let valid = json["valid"] == .bool(true)
        if case .array(let diagnostics) = json["diagnostics"] ?? .array([]) {
            for diagnostic in diagnostics {
                lines.append(LayoutDiagnostic(json: diagnostic).rendered())
                lines.append("")
            }
            lines.append(valid ? "valid (\(diagnostics.count) warning\(diagnostics.count == 1 ? "" : "s"))" : "not valid: \(diagnostics.count) diagnostic\(diagnostics.count == 1 ? "" : "s")")
        }
        return lines.joined(separator: "\n")
    }
}

/// Reads the server's open-connection count and answers by thread once the server exists.
final class ConnectionCounter: @unchecked Sendable {
    // Written once on the main thread before the server starts, read afterwards only.
    var source: (@Sendable () -> Int)?
    var answeredSource: (@Sendable () -> (onLoops: Int, byWorkers: Int))?
    var cutSource: (@Sendable () -> Int)?
    func value() -> Int { source?() ?? 0 }
    func answered() -> (onLoops: Int, byWorkers: Int, cut: Int)? {
        answeredSource.map { source in
            let counts = source()
            return (counts.onLoops, counts.byWorkers, cutSource?() ?? 0)
        }
    }
}

extension LayoutDiagnostic {
    /// Rebuilds a diagnostic from its JSON (for terminal rendering of an answer).
    init(json: JSONValue) {
        func string(_ key: String) -> String? { if case .string(let value) = json[key] ?? .null { return value }; return nil }
        func int(_ key: String) -> Int? { if case .number(let value) = json[key] ?? .null { return Int(value) }; return nil }
        func key(_ value: JSONValue?) -> ConstraintKey? {
            switch value {
            case .number(let index)?: return .scene(Int(index))
            case .string(let text)?:
                if text.hasPrefix("group:"), let slash = text.lastIndex(of: "/"), let index = Int(text[text.index(after: slash)...]) {
                    return .group(name: String(text[text.index(text.startIndex, offsetBy: 6)..<slash]), index: index)
                }
                return .implicit(text)
            default: return nil
            }
        }
        func ref(_ value: JSONValue) -> ConstraintRef? {
            guard let constraintKey = key(value["constraint"]), case .string(let text) = value["text"] ?? .null else { return nil }
            var part: Int?
            if case .number(let number) = value["part"] ?? .null { part = Int(number) }
            var id: String?
            if case .string(let identifier) = value["id"] ?? .null { id = identifier }
            return ConstraintRef(key: constraintKey, part: part, id: id, text: text)
        }
        var conflicting: [ConstraintRef]?
        if case .array(let refs) = json["conflicting"] ?? .null { conflicting = refs.compactMap(ref) }
        self.init(
            severity: string("severity") == "warning" ? .warning : .error,
            code: string("code").flatMap(LayoutDiagnostic.Code.init(rawValue:)) ?? .invalidScene,
            message: string("message") ?? "",
            constraint: key(json["constraint"]), part: int("part"), id: string("id"), column: int("column"),
            source: string("source"), path: string("path"), view: string("view"), attribute: string("attribute"),
            broken: json["broken"].flatMap(ref), conflicting: conflicting)
        sourceOffset = int("sourceOffset")
    }
}
