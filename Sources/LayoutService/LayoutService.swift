import Foundation
import HTTP1
import LayoutCompiler
import LayoutStore
import LayoutSyntax

/// layoutd's routes: `/solve`, `/validate`, `/groups…`, `/healthz`, `/readyz`,
/// `/metrics`, `/openapi.yaml`, built once into an immutable ``Router``.
///
/// A `final class` because it owns shared resources (the store, the caches, the
/// metrics) that every request thread uses; each of those synchronises itself, and
/// the class's own properties are immutable after `init`.
public final class LayoutService: Sendable {
    /// The base of every problem `type` layoutd answers: `urn:layoutd:problem:<slug>`.
    public static let problemTypeBase = "urn:layoutd:problem:"
    /// What every problem the server or router answers by itself carries besides `type`,
    /// `title`, `status` and `detail`: the contract's `diagnostics` list, empty.
    public static let problemMembers = [ProblemMember("diagnostics", "[]")]

    /// The SQLite result cache of this process; the group store too when it is
    /// ``groupStore``.
    public let store: SQLiteStore
    /// Where the groups live: ``store`` itself (one SQLite file, the default), another
    /// SQLite file, or PostgreSQL shared by every replica (``PostgreSQLGroupStore``).
    public let groupStore: any GroupStoring
    /// Whether ``groupStore`` is ``store``: then a cached result records the group
    /// versions it used and a group write deletes those results in its transaction;
    /// otherwise results are tied to groups only by their keys' `NAME@VERSION`s.
    let groupsShareCacheStore: Bool
    /// Where stored font faces live: the groups' database (``SQLiteStore`` or
    /// ``PostgreSQLFontStore``).
    public let fontStore: any FontStoring
    /// Limits, caches and access settings.
    public let configuration: ServiceConfiguration
    /// The counters behind `GET /metrics`.
    public let metrics = Metrics()
    let engine: SceneEngine
    /// The result key's limits component (``CacheKey/limits(_:maxResponseBytes:)``) of
    /// ``engine``'s limits, which never change while the service runs.
    let resultKeyLimits: [UInt8]
    let frontCache: FrontCache
    /// Stored groups decoded, by `NAME@VERSION` (``GroupCache``).
    let groupCache = GroupCache()
    /// Gauge source for `/metrics` (the HTTP server's open connections).
    let openConnections: @Sendable () -> Int
    /// Counter source for `/metrics`: the HTTP server's answers by thread
    /// (``HTTPServer/answeredCounts``) and its connections closed with answers unsent
    /// (``HTTPServer/cutAnswerCount``); nil: not reported.
    let answeredCounts: @Sendable () -> (onLoops: Int, byWorkers: Int, cut: Int)?
    /// Coalesces concurrent requests' version lookups into one statement
    /// (``VersionResolver``) when each lookup is a round trip to a database server
    /// (``GroupStoring/lookupsAreRoundTrips``: PostgreSQL); `nil` with SQLite, where each
    /// request asks the store itself.
    let versionResolver: VersionResolver?
    /// As ``versionResolver``, for the stored font faces' versions
    /// (``FontStoring/lookupsAreRoundTrips``).
    let fontVersionResolver: VersionResolver?
    /// Whether ``fontStore`` is ``store``: then a cached result records the stored faces it
    /// used (`font:family/face`) and a font write deletes it in its transaction; otherwise
    /// results are tied to faces only by their keys' `family/face@version`s.
    let fontsShareCacheStore: Bool
    /// Names ``fontStore`` in the process's face cache (``StoredFontSource/store``).
    let fontStoreName = StoredFontSource.uniqueStoreName()
    /// Admits at most ``ServiceConfiguration/maxConcurrentSolves`` `/solve`, `/validate`
    /// and `/import` requests to run at once (all but a front cache hit's version lookup),
    /// plus one small one while large ones hold them all; `nil` without that limit.
    let solveTurns: SolveTurns?

    /// A service caching results in `store` and keeping groups in `groupStore` (default:
    /// `store`); `openConnections` feeds the `/metrics` gauge, `answeredCounts` its
    /// answers by thread. Answers draw on `pendingResponseBytes` (the HTTP server's,
    /// shared) while they are written.
    public init(store: SQLiteStore, groupStore: (any GroupStoring)? = nil, fontStore: (any FontStoring)? = nil,
                configuration: ServiceConfiguration = ServiceConfiguration(),
                pendingResponseBytes: PendingResponseBytes? = nil,
                openConnections: @escaping @Sendable () -> Int = { 0 },
                answeredCounts: @escaping @Sendable () -> (onLoops: Int, byWorkers: Int, cut: Int)? = { nil }) {
        self.store = store
        self.groupStore = groupStore ?? store
        self.fontStore = fontStore ?? (groupStore as? SQLiteStore) ?? store
        self.groupsShareCacheStore = groupStore.map { ($0 as? SQLiteStore) === store } ?? true
        self.fontsShareCacheStore = (self.fontStore as? SQLiteStore) === store
        self.configuration = configuration
        self.engine = SceneEngine(limits: configuration.sceneLimits, structureCacheEntries: configuration.structureCacheEntries,
                                  structureCacheBytes: configuration.structureCacheBytes,
                                  maxResponseBytes: configuration.maxResponseBytes, answerPool: pendingResponseBytes)
        self.resultKeyLimits = CacheKey.limits(configuration.sceneLimits, maxResponseBytes: configuration.maxResponseBytes)
        self.frontCache = FrontCache(capacity: configuration.frontCacheEntries, maxBytes: configuration.frontCacheBytes)
        self.openConnections = openConnections
        self.answeredCounts = answeredCounts
        self.versionResolver = self.groupStore.lookupsAreRoundTrips ? VersionResolver(store: self.groupStore) : nil
        self.fontVersionResolver = self.fontStore.lookupsAreRoundTrips ? VersionResolver(fontStore: self.fontStore) : nil
        self.solveTurns = configuration.maxConcurrentSolves.map { SolveTurns(count: $0) }
        // Fonts are found at start-up (a table of Debian paths), not at the first label.
        _ = SceneText.measurer.catalog.missingFamilies
    }

    /// Runs `body` once a solving turn for `request` is free (``solveTurns``: large when
    /// its body is longer than ``ServiceConfiguration/largeBodyBytes``), and frees it
    /// after. `body` gets the turn held, to give it up while it waits on the database
    /// (``HeldTurn/whileWaiting(_:)``: ``checkFront(_:turn:)``, ``groupSource(known:turn:)``,
    /// ``storedFontSource(turn:)``). Not reentrant: `body` must not take another turn.
    func takingSolveTurn<T>(for request: HTTPRequest, _ body: (HeldTurn) -> T) -> T {
        let turn = HeldTurn(solveTurns, isLarge: request.body.count > configuration.largeBodyBytes)
        defer { turn.finish() }
        return body(turn)
    }

    /// The store's current versions of `names`: through ``versionResolver`` when there is
    /// one (a lookup sent after this call began, possibly shared), else one call to
    /// ``groupStore``.
    func lookUpCurrentVersions(_ names: [String]) throws(StoreError) -> [String: Int] {
        if let versionResolver { return try versionResolver.currentVersions(of: names) }
        return try groupStore.currentVersions(of: names)
    }

    /// The font store's current versions of stored face `names` (without regard to case),
    /// through ``fontVersionResolver`` when there is one, as ``lookUpCurrentVersions(_:)``.
    func lookUpFontVersions(_ names: [String]) throws(StoreError) -> [String: Int] {
        if let fontVersionResolver { return try fontVersionResolver.currentVersions(of: names) }
        return try fontStore.currentFaceVersions(of: names)
    }

    /// Where a request's stored faces come from: their versions looked up once per request
    /// (``lookUpFontVersions(_:)``: read-your-writes across replicas, as groups), a face's
    /// file read from ``fontStore`` only when the measurer's face cache does not hold that
    /// version (`nil` when the version read is not the one asked: replaced meanwhile).
    /// Every store call waits with `turn` given up (``HeldTurn/whileWaiting(_:)``).
    func storedFontSource(turn: HeldTurn) -> StoredFontSource {
        StoredFontSource(
            store: fontStoreName,
            currentVersions: { [self] names in
                do throws(StoreError) {
                    return try turn.whileWaiting { () throws(StoreError) in try lookUpFontVersions(names) }
                } catch {
                    throw EngineFailure.fontLookupFailed(error)
                }
            },
            bytes: { [fontStore] name, version in
                do throws(StoreError) {
                    guard let face = try turn.whileWaiting({ () throws(StoreError) in try fontStore.face(named: name) }),
                          face.version == version else { return nil }
                    return face.bytes
                } catch {
                    throw EngineFailure.fontLookupFailed(error)
                }
            },
            familyNames: { [fontStore] in
                do throws(StoreError) {
                    // Sorted by name, so each family's faces are together: one entry per family.
                    var families: [String] = []
                    for summary in try turn.whileWaiting({ () throws(StoreError) in try fontStore.faces() }) {
                        let family = Self.split(summary.name).family
                        if families.last != family { families.append(family) }
                    }
                    return families
                } catch {
                    throw EngineFailure.fontLookupFailed(error)
                }
            })
    }

    /// The front cache entry of an answer computed from `prepared`; `nil` when its groups'
    /// versions were not confirmed by the store (it was away and the scene pins every
    /// group: ``SceneEngine/Prepared/currentVersions`` is empty), so it is not kept.
    /// `changeCount` is the group store's change count read before the versions were
    /// looked up (``SeenVersions/changeCount``).
    static func frontAnswer(_ body: [UInt8], _ prepared: SceneEngine.Prepared, changeCount: Int64? = nil) -> FrontAnswer? {
        if !prepared.groups.isEmpty && prepared.currentVersions.isEmpty { return nil }
        return FrontAnswer(body: body, currentVersions: prepared.currentVersions, fontNames: prepared.fontNames,
                           fontVersions: prepared.storedFonts.available,
                           pinnedOnly: prepared.scene.groups.allSatisfy { $0.version != nil }, changeCount: changeCount)
    }

    /// Keeps `answer` (when there is one) for `key` in the front cache.
    func keepInFront(_ answer: FrontAnswer?, for key: FrontCacheKey, generation: UInt64) {
        if let answer { frontCache.insert(answer, for: key, generation: generation) }
    }

    /// The router with every route of the API (see `openapi.yaml`).
    public func makeRouter() -> Router {
        var router = Router(problemTypeBase: Self.problemTypeBase, problemMembers: Self.problemMembers)
        // Every API route's query is checked first, the same way (``queryProblem(_:route:)``);
        // the probes, the metrics, the OpenAPI document and the playground page ignore theirs
        // (``operationalRoutes``), as a load balancer's probe or a cache-buster may add one.
        func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Router.Handler) {
            let route = "\(method.rawValue) \(pattern)"
            if Self.operationalRoutes.contains(route) {
                router.add(method, pattern, handler)
                return
            }
            router.add(method, pattern) { [self] request, parameters in
                queryProblem(request, route: route) ?? handler(request, parameters)
            }
        }
        add(.POST, "/solve") { [self] request, _ in solve(request) }
        add(.POST, "/validate") { [self] request, _ in validate(request) }
        add(.POST, "/import") { [self] request, _ in importDocument(request) }
        add(.GET, "/healthz") { _, _ in Self.json(.ok, #"{"status":"ok"}"#) }
        add(.GET, "/readyz") { [self] _, _ in
            let missingFonts = SceneText.measurer.catalog.missingFamilies
            if !missingFonts.isEmpty { return problem(.fontsMissing(missingFonts)) }
            if (groupStore as? SQLiteStore)?.databaseFileHasMoved == true { return problem(.databaseFileMoved) }
            return groupStore.isReachable() ? Self.json(.ok, #"{"status":"ready"}"#)
                : problem(.databaseNotReachable)
        }
        add(.GET, "/metrics") { [self] _, _ in
            let groups = groupStore.groupCountForMetrics()
            var response = HTTPResponse(status: .ok, body: Array(metrics.render(openConnections: openConnections(), groups: groups,
                                                                                 diskFull: store.diskFullCount, answered: answeredCounts()).utf8))
            response.headers.append("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            return response
        }
        add(.GET, "/openapi.yaml") { _, _ in
            var response = HTTPResponse(status: .ok, body: OpenAPIDocument.bytes)
            response.headers.append("Content-Type", "application/yaml")
            return response
        }
        add(.GET, "/") { _, _ in
            var response = HTTPResponse(status: .ok, body: PlaygroundPage.html)
            response.headers.append("Content-Type", "text/html; charset=utf-8")
            response.headers.append("Content-Security-Policy", PlaygroundPage.contentSecurityPolicy)
            return response
        }
        add(.GET, "/groups") { [self] request, _ in listGroups(request) }
        add(.PUT, "/groups/{name}") { [self] request, parameters in putGroup(request, name: parameters["name"] ?? "") }
        add(.GET, "/groups/{name}") { [self] request, parameters in getGroup(request, name: parameters["name"] ?? "", version: nil) }
        add(.DELETE, "/groups/{name}") { [self] request, parameters in deleteGroup(request, name: parameters["name"] ?? "") }
        add(.GET, "/groups/{name}/versions") { [self] request, parameters in listVersions(request, name: parameters["name"] ?? "") }
        add(.GET, "/groups/{name}/versions/{version}") { [self] request, parameters in
            getGroup(request, name: parameters["name"] ?? "", version: parameters["version"] ?? "")
        }
        add(.GET, "/fonts") { [self] request, _ in listFonts(request) }
        add(.PUT, "/fonts/{family}/{face}") { [self] request, parameters in
            putFont(request, family: parameters["family"] ?? "", face: parameters["face"] ?? "")
        }
        add(.GET, "/fonts/{family}/{face}") { [self] request, parameters in
            getFont(request, family: parameters["family"] ?? "", face: parameters["face"] ?? "")
        }
        add(.DELETE, "/fonts/{family}/{face}") { [self] request, parameters in
            deleteFont(request, family: parameters["family"] ?? "", face: parameters["face"] ?? "")
        }
        return router
    }

    /// The request handler for `HTTPServer`: routes, then adds `X-Request-Id`, CORS
    /// headers, and records metrics.
    /// Metrics and the access log label each request with the pattern of the route it
    /// matched (``Router/route(for:)``), or `other` when none did.
    public func makeHandler(router: Router, log: (@Sendable (String) -> Void)? = nil) -> @Sendable (HTTPRequest) -> HTTPResponse {
        makeHandler(router: router, respond: { router.dispatch($0) }, log: log)
    }

    /// Whether `request` is answered in a few kilobytes at most, whatever the store holds:
    /// `GET`/`HEAD` of `/healthz`, `/readyz` and `/metrics` (a fixed set of series), and
    /// `OPTIONS`. The server keeps answering these while clients leave more than
    /// `--max-pending-response-bytes` unread, so health checks work during that attack
    /// (e2e `hostile/http-unread-gets`).
    public static let hasSmallAnswer: @Sendable (HTTPRequest) -> Bool = { request in
        switch request.method {
        case .OPTIONS: return true
        case .GET, .HEAD: return ["/healthz", "/readyz", "/metrics"].contains(request.path)
        default: return false
        }
    }

    /// The handler for requests the server refuses while clients leave too many answers
    /// unread (`HTTPServer`'s `overCommittedHandler`): `503` `service-unavailable` with
    /// `Retry-After: 1`, and like every answer of ``makeHandler(router:log:)`` an
    /// `X-Request-Id`, an access-log line and a count in `/metrics`.
    /// `router` labels its metrics as ``makeHandler(router:log:)``'s.
    public func makeOverCommittedHandler(router: Router, log: (@Sendable (String) -> Void)? = nil) -> @Sendable (HTTPRequest) -> HTTPResponse {
        makeHandler(router: router, respond: { [self] request in
            (router.route(for: request.path), problem(.overCommitted))
        }, log: log)
    }

    /// The status the access log and `layoutd_requests_total` give a request whose client
    /// closed the connection before a worker took it: 499, nginx's "client closed request"
    /// (nginx `ngx_http_request.h`, `NGX_HTTP_CLIENT_CLOSED_REQUEST`); no answer is sent.
    public static let clientClosedRequest: HTTPStatus = 499

    /// The server's `abandoned`: a request whose connection closed while it waited for a
    /// worker is not handled (nothing could be sent); it is counted in
    /// `layoutd_http_requests_abandoned_total` and, as ``clientClosedRequest`` (499) with
    /// `bytes` 0, in `layoutd_requests_total` and the access log, with the fields of
    /// ``makeHandler(router:log:)``'s lines. Held by `HandlerTests.anAbandonedRequestIsCountedAndLogged`.
    public func makeAbandonedHandler(router: Router, log: (@Sendable (String) -> Void)? = nil) -> @Sendable (HTTPRequest) -> Void {
        let record = makeHandler(router: router, respond: { request in
            (router.route(for: request.path), HTTPResponse(status: Self.clientClosedRequest))
        }, log: log)
        return { [metrics] request in
            metrics.recordAbandoned()
            _ = record(request)
        }
    }

    /// The server's `continueCheck`: a request that asks for `100 Continue` from a `Host`
    /// the ``HostPolicy`` refuses gets its `421` at once, before any `100 Continue`, and one
    /// whose path no route matches or whose route has no such method its `404` or `405`
    /// (``Router/refusal(_:)``), so the client does not send a body for nothing; each with
    /// the fields, access-log line and count of ``makeHandler(router:log:)``'s answers.
    /// Any other request gets its continue (nil). Held by hostile/http-continue-foreign-host,
    /// `HostPolicyTests` and `HandlerTests.unroutedRequestsAreAnsweredBeforeContinue`.
    public func makeContinueCheck(router: Router, log: (@Sendable (String) -> Void)? = nil) -> @Sendable (HTTPRequest) -> HTTPResponse? {
        let hostPolicy = configuration.hostPolicy
        let refuse = makeHandler(router: router, respond: { [self] request in
            (router.route(for: request.path), misdirected(request))
        }, log: log)
        let unrouted = makeHandler(router: router, respond: { request in
            router.refusal(request) ?? router.dispatch(request)
        }, log: log)
        return { request in
            if !hostPolicy.allows(host: Self.requestAuthority(request)) { return refuse(request) }
            return router.refusal(request) == nil ? nil : unrouted(request)
        }
    }

    /// The server's `loopHandler`: answers on the event loop's thread, with
    /// ``makeHandler(router:log:)``'s fields, count and access-log line, a request whose
    /// answer is ready without solving or waiting on the store: a `/solve` or `/validate`
    /// front cache hit without group references (``answerFromFront(_:)``), `/healthz`,
    /// a path no route matches (404), a refused `Host` (421) and a CORS preflight. Nil for
    /// any other request, which then goes to the workers. `/readyz` and `/metrics` ask
    /// the store (a query, a round trip with PostgreSQL), so they stay on the workers.
    /// Held by `LoopAnswerTests`.
    public func makeLoopHandler(router: Router, log: (@Sendable (String) -> Void)? = nil) -> @Sendable (HTTPRequest) -> HTTPResponse? {
        let healthz = router.route(for: "/healthz")
        return makeHandler(router: router, respond: { [self] request -> (route: String?, response: HTTPResponse)? in
            switch request.method {
            case .POST:
                switch request.path {
                case "/solve": return answerFromFront(request, route: .solve).map { ("/solve", $0) }
                case "/validate": return answerFromFront(request, route: .validate).map { ("/validate", $0) }
                default: break
                }
            case .GET, .HEAD:
                if request.path == "/healthz" { return (healthz, router.dispatch(request).response) }
            default: break
            }
            if router.route(for: request.path) == nil && request.path != "*" { return router.dispatch(request) }
            return nil
        }, log: log)
    }

    /// A `/solve` or `/validate` answer straight from the front cache, when it needs
    /// neither solving nor the store: the request has no query, asks for JSON, has an
    /// accepted media type and no `Cache-Control: no-cache`/`no-store`, and the hit's
    /// scene includes no group and no stored font family (both need the store to say the
    /// hit is current: e2e `fonts/stored-face-across-pg-replicas`), or pins every group and
    /// the group store's change count is still the recorded one (SQLite's `data_version`
    /// of a connection kept for it: a step that reads no table, under a lock held only for
    /// that step; ``FrontAnswer/changeCount``). The same bytes and fields as
    /// ``solve(_:)``'s and ``validate(_:)``'s answers to it; `nil` otherwise.
    func answerFromFront(_ request: HTTPRequest, route: CacheKey.Space) -> HTTPResponse? {
        guard request.query == nil, checkMediaType(request) == nil else { return nil }
        if route == .solve {
            guard !Self.prefersWireframe(request) else { return nil }
            let directives = Self.cacheDirectives(request.headers)
            guard !directives.any else { return nil }
        }
        guard let hit = frontCache.lookup(CacheKey.front(route, body: request.body)), hit.fontNames.isEmpty,
              hit.currentVersions.isEmpty || (hit.changeCount != nil && groupStore.changeCount() == hit.changeCount) else { return nil }
        if route == .solve {
            metrics.recordCache(hit: true)
            return HTTPResponse(status: .ok, headers: Self.frontHitFields, body: hit.body)
        }
        return HTTPResponse(status: .ok, headers: Self.frontValidateFields, body: hit.body)
    }

    /// The fields of a `/solve` front cache hit, as ``answer(status:contentType:body:cacheStatus:)``
    /// writes them; made once (a hit shares them until the `X-Request-Id` is appended).
    private static let frontHitFields: HTTPFields = answer(status: .ok, contentType: "application/json", body: [], cacheStatus: "layoutd; hit").headers
    /// The fields of a `/validate` front cache hit.
    private static let frontValidateFields: HTTPFields = answer(status: .ok, contentType: "application/json", body: [], cacheStatus: nil).headers

    private func makeHandler(router: Router, respond: @escaping @Sendable (HTTPRequest) -> (route: String?, response: HTTPResponse),
                             log: (@Sendable (String) -> Void)?) -> @Sendable (HTTPRequest) -> HTTPResponse {
        let answer = makeHandler(router: router, respond: { request -> (route: String?, response: HTTPResponse)? in respond(request) }, log: log)
        return { request in
            // `respond` always answers, so `answer` does.
            answer(request) ?? HTTPResponse(status: .internalServerError)
        }
    }

    /// The handler made of `respond`, or of the `Host` check and the CORS preflight
    /// before it, with the fields, metrics and log line every answer gets; nil when
    /// `respond` gives none (then nothing is counted or logged).
    private func makeHandler(router: Router, respond: @escaping @Sendable (HTTPRequest) -> (route: String?, response: HTTPResponse)?,
                             log: (@Sendable (String) -> Void)?) -> @Sendable (HTTPRequest) -> HTTPResponse? {
        let corsOrigins = configuration.corsOrigins
        let hostPolicy = configuration.hostPolicy
        let minimumLoggedStatus = configuration.accessLogMinimumStatus
        return { [self] request in
            let start = monotonicSeconds()
            var response: HTTPResponse
            var route: String?
            if !hostPolicy.allows(host: Self.requestAuthority(request)) {
                response = misdirected(request)
                route = router.route(for: request.path)
            } else if request.method == .OPTIONS, !corsOrigins.isEmpty, request.headers["Origin"] != nil {
                response = HTTPResponse(status: .noContent)
                response.headers.append("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, DELETE, OPTIONS")
                response.headers.append("Access-Control-Allow-Headers", request.headers["Access-Control-Request-Headers"] ?? "Content-Type, Authorization, If-Match, If-None-Match, Cache-Control, X-Request-Id")
                response.headers.append("Access-Control-Max-Age", "600")
                route = router.route(for: request.path)
            } else if let answer = respond(request) {
                (route, response) = answer
            } else {
                return nil
            }
            if !corsOrigins.isEmpty {
                if let origin = request.headers["Origin"], corsOrigins.contains("*") || corsOrigins.contains(origin) {
                    response.headers.append("Access-Control-Allow-Origin", corsOrigins.contains("*") ? "*" : origin)
                    response.headers.append("Access-Control-Expose-Headers", "ETag, Cache-Status, X-Request-Id, Retry-After")
                }
                // With CORS on, the CORS fields depend on Origin (present or not, listed or
                // not), so every answer says so, in one Vary field listing every selecting
                // header (RFC 9110 §12.5.5; Fetch standard §3.2.5 "CORS protocol and HTTP
                // caches"). Held by hostile/exposure-headers.
                let vary = response.headers.values("Vary") + ["Origin"]
                response.headers.set("Vary", vary.joined(separator: ", "))
            }
            let requestID = Self.requestID(request.headers["X-Request-Id"])
            response.headers.append("X-Request-Id", requestID)
            // From the head's arrival, so the time a request waited for a worker (or behind
            // the requests pipelined before it) is counted: "time from a request's head to
            // its answer" (HandlerTests.durationCountsTheWaitForAWorker).
            let seconds = max(0, monotonicSeconds() - (request.headReceivedAt ?? start))
            metrics.recordRequest(route: route ?? "other", status: response.status, seconds: seconds)
            if let log, response.status.code >= minimumLoggedStatus {
                var line = JSONWriter(reservingCapacity: 200)
                line.beginObject()
                line.key("time"); line.string(Self.timestamp())
                line.key("requestId"); line.string(requestID)
                line.key("method"); line.string(request.method.rawValue)
                line.key("path"); line.string(request.path)
                // The query chooses the answer's form (`format=svg`, `device=`); bounded by
                // --max-target-bytes like the path.
                if let query = request.query { line.key("query"); line.string(query) }
                line.key("status"); line.integer(response.status.code)
                line.key("durationMs"); line.number((seconds * 1e6).rounded() / 1e3)
                line.key("bytes"); line.integer(response.body.count)
                if let cache = response.headers["Cache-Status"] { line.key("cache"); line.string(cache) }
                line.endObject()
                log(String(decoding: line.bytes, as: UTF8.self))
            }
            return response
        }
    }

    /// The authority a request is for: the `Host` field, or for an absolute-form target
    /// (`GET http://name/path`) the target's authority, which a server must use instead of
    /// `Host` (RFC 9112 §3.2.2). Nil when there is neither (an HTTP/1.0 request).
    static func requestAuthority(_ request: HTTPRequest) -> String? {
        let target = request.target
        if target.utf8.first == UInt8(ascii: "/") { return request.headers["Host"] }   // origin-form, the usual case
        for scheme in ["http://", "https://"] where target.count > scheme.count && target.prefix(scheme.count).lowercased() == scheme {
            let rest = target.dropFirst(scheme.count)
            return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        }
        return request.headers["Host"]
    }

    /// The answer to a request whose `Host` the ``HostPolicy`` refuses: `421 Misdirected
    /// Request`. 421 rather than 403: RFC 9110 §15.5.20 defines 421 for a request "directed
    /// at a server that is unable or unwilling to produce an authoritative response for
    /// the target URI", which is the case here (the target's host is not one this server
    /// answers for, as after DNS rebinding), while 403 would say the client lacks a
    /// permission it could obtain. Held by hostile/exposure-dns-rebinding and
    /// `HostPolicyTests`.
    func misdirected(_ request: HTTPRequest) -> HTTPResponse {
        problem(.misdirected(host: Self.requestAuthority(request) ?? ""))
    }

    // MARK: - /solve and /validate

    /// `POST /solve`. Read-your-writes across processes: every cache is looked up only by
    /// keys carrying the versions the request's scene resolves to, the current versions of
    /// all its groups (pinned ones included: a delete or prune elsewhere removes them) asked
    /// of the group store once per request (``currentVersions(_:known:)``); see
    /// ``FrontCache`` and ``CacheKey``.
    ///
    /// Runs in a solving turn (``takingSolveTurn(for:_:)``), given up while it waits on the
    /// database: a front cache hit's versions (``checkFront(_:turn:)``), the groups'
    /// current versions and contents (``groupSource(known:turn:)``), stored faces.
    func solve(_ request: HTTPRequest) -> HTTPResponse {
        takingSolveTurn(for: request) { turn in solveInTurn(request, turn: turn) }
    }

    private func solveInTurn(_ request: HTTPRequest, turn: HeldTurn) -> HTTPResponse {
        // A repeated `format` is refused, as `scale`, `width` and `/import`'s parameters are:
        // which one was meant cannot be told (HandlerTests.routesAndMethods).
        let formats = Self.queryCount("format", in: request.query)
        if formats > 1 { return problem(.repeatedQueryParameter("format", count: formats)) }
        if let format = Self.queryValue("format", in: request.query), format != "json" && format != "svg" {
            return problem(.unknownFormat(format))
        }
        // Before the front cache: a cached JSON body must not answer an SVG request.
        if Self.prefersWireframe(request) { return solveWireframe(request, turn: turn) }
        // `scale` and `width` choose the picture's size and do not change a JSON answer, but a
        // malformed one is refused whatever the answer's type (openapi.yaml's patterns); a
        // well-formed one is named in a warning of the answer (``ignoredDisplayWarning(_:in:)``).
        if request.query != nil {
            switch Self.wireframeDisplay(query: request.query) {
            case .failure(let failure):
                var response = problem(failure)
                response.headers.append("Vary", "Accept")
                return response
            case .success(let display):
                let parameter: String
                switch display.sizing {
                case .fit: return solveJSON(request, turn: turn)
                case .scale: parameter = "scale"
                case .width: parameter = "width"
                }
                let warned = Self.ignoredDisplayWarning(parameter, in: solveJSON(request, turn: turn))
                // The warning is added after the engine's bound was checked: an answer
                // it takes past --max-response-bytes is that bound's 422, never cached as
                // every such answer (ResponseBoundTests.theWarningKeepsTheBound).
                guard warned.body.count <= configuration.maxResponseBytes else {
                    return answer(engine.responseTooLarge(limit: configuration.maxResponseBytes),
                                  cacheStatus: Self.unstoredCacheStatus(Self.cacheDirectives(request.headers)))
                }
                return warned
            }
        }
        return solveJSON(request, turn: turn)
    }

    /// A 200 JSON answer of `/solve` with a warning `invalid_scene` at `?PARAMETER` added
    /// last to its top-level `diagnostics` (the answer's last member, as ``SceneEngine``
    /// writes it): `scale` or `width` sizes the SVG wireframe only. Added to the answer
    /// as sent, never to what the caches hold, which depends on the body alone
    /// (HandlerTests.displaySizesOfAJSONAnswerAreWarned). Any other answer is unchanged.
    /// The answer may grow past `--max-response-bytes` by the warning's length: the caller
    /// checks the bound again.
    static func ignoredDisplayWarning(_ parameter: String, in response: HTTPResponse) -> HTTPResponse {
        let body = response.body
        guard response.status == .ok, body.count >= 3, body[body.count - 1] == UInt8(ascii: "}"),
              body[body.count - 2] == UInt8(ascii: "]") else { return response }
        var writer = JSONWriter(reservingCapacity: 256)
        writer.beginArray()
        writer.diagnostic(LayoutDiagnostic(
            severity: .warning, code: .invalidScene,
            message: "'\(parameter)' sizes the SVG wireframe and is ignored in a JSON answer: "
                + "add format=svg (or send Accept: image/svg+xml) to draw the layout",
            path: "?\(parameter)"))
        writer.endArray()
        // The diagnostic's object, without the array's brackets.
        let diagnostic = writer.bytes[1..<(writer.bytes.count - 1)]
        var response = response
        let closing = body.count - 2
        response.body = Array(body[..<closing])
        if body[closing - 1] != UInt8(ascii: "[") { response.body.append(UInt8(ascii: ",")) }
        response.body += diagnostic
        response.body += [UInt8(ascii: "]"), UInt8(ascii: "}")]
        return response
    }

    /// `POST /solve` answering JSON, its query checked.
    private func solveJSON(_ request: HTTPRequest, turn: HeldTurn) -> HTTPResponse {
        if let unsupported = checkMediaType(request) { return unsupported }
        let directives = Self.cacheDirectives(request.headers)
        let frontKey = CacheKey.front(.solve, body: request.body)
        var asked: FrontCheck?
        if !directives.noCache && !directives.noStore, let hit = frontCache.lookup(frontKey) {
            switch checkFront(hit, turn: turn) {
            case .success(let check) where check.isCurrent:
                keepInFront(check.refreshed, for: frontKey, generation: check.generation)
                metrics.recordCache(hit: true)
                return Self.answer(status: .ok, contentType: "application/json", body: hit.body, cacheStatus: "layoutd; hit")
            case .success(let check):
                asked = check
            case .failure(let failure):
                var response = response(for: failure)
                response.headers.append("Cache-Status", "layoutd; fwd=miss")
                return response
            }
        }
        return solveMissed(request, frontKey: frontKey, directives: directives, asked: asked, turn: turn)
    }

    /// `POST /solve` past the front cache: prepare, the result cache, solve.
    private func solveMissed(_ request: HTTPRequest, frontKey: FrontCacheKey, directives: CacheDirectives, asked: FrontCheck?,
                             turn: HeldTurn) -> HTTPResponse {
        let generation = frontCache.generation
        let prepared: SceneEngine.Prepared
        let groupLookup = groupSource(known: asked, turn: turn)
        switch engine.prepare(body: request.body, currentVersions: groupLookup.current, fonts: storedFontSource(turn: turn),
                              groupNames: storedGroupNames(turn: turn), resolveGroup: groupLookup.resolve) {
        case .success(let value): prepared = value
        case .failure(let failure):
            return response(for: failure, cacheStatus: Self.unstoredCacheStatus(directives))
        }
        let key = CacheKey.result(prepared, route: .solve, limits: resultKeyLimits)
        if !directives.noCache && !directives.noStore {
            if let stored = try? store.cachedResult(forKey: key) {
                metrics.recordCache(hit: true)
                keepInFront(Self.frontAnswer(stored, prepared, changeCount: groupLookup.seen.changeCount), for: frontKey, generation: generation)
                return Self.answer(status: .ok, contentType: "application/json", body: stored, cacheStatus: "layoutd; hit")
            }
        }
        metrics.recordCache(hit: false)
        let start = DispatchTime.now().uptimeNanoseconds
        let result = engine.solve(prepared)
        metrics.recordSolve(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        var cacheStatus = directives.any ? "layoutd; fwd=request" : "layoutd; fwd=miss"
        if result.isCacheable && !directives.noStore {
            // With the groups in this very database, the entry records their versions and
            // a group write deletes it in its transaction; elsewhere (PostgreSQL, another
            // file) the key's NAME@VERSIONs alone keep it from answering another version.
            var groups = groupsShareCacheStore ? prepared.groups.map { GroupVersion(name: $0.name, version: $0.version) } : []
            // Likewise the stored faces its labels measured with, as `font:family/face`.
            if fontsShareCacheStore {
                groups += prepared.storedFonts.used.map { GroupVersion(name: SQLiteStore.fontCacheName($0.name), version: $0.version) }
            }
            // The in-memory front cache only holds what the result cache stored, so a
            // later hit never contradicts this answer's Cache-Status.
            if (try? store.storeResult(result.body, forKey: key, groups: groups)) == true {
                if !directives.any { cacheStatus = "layoutd; fwd=miss; stored" }
                keepInFront(Self.frontAnswer(result.body, prepared, changeCount: groupLookup.seen.changeCount), for: frontKey, generation: generation)
            }
        }
        return answer(result, cacheStatus: cacheStatus)
    }

    /// `POST /validate`, in a solving turn as ``solve(_:)``.
    func validate(_ request: HTTPRequest) -> HTTPResponse {
        takingSolveTurn(for: request) { turn in validateInTurn(request, turn: turn) }
    }

    private func validateInTurn(_ request: HTTPRequest, turn: HeldTurn) -> HTTPResponse {
        if let unsupported = checkMediaType(request) { return unsupported }
        // The verdict depends only on the body and the groups' content: the front cache
        // serves repeats without solving again, while its groups' versions are current.
        let frontKey = CacheKey.front(.validate, body: request.body)
        var asked: FrontCheck?
        if let hit = frontCache.lookup(frontKey) {
            switch checkFront(hit, turn: turn) {
            case .success(let check) where check.isCurrent:
                keepInFront(check.refreshed, for: frontKey, generation: check.generation)
                return Self.answer(status: .ok, contentType: "application/json", body: hit.body, cacheStatus: nil)
            case .success(let check):
                asked = check
            case .failure(let failure):
                return response(for: failure)
            }
        }
        return validateMissed(request, frontKey: frontKey, asked: asked, turn: turn)
    }

    /// `POST /validate` past the front cache: prepare and validate.
    private func validateMissed(_ request: HTTPRequest, frontKey: FrontCacheKey, asked: FrontCheck?, turn: HeldTurn) -> HTTPResponse {
        let generation = frontCache.generation
        let groupLookup = groupSource(known: asked, turn: turn)
        switch engine.prepare(body: request.body, currentVersions: groupLookup.current, fonts: storedFontSource(turn: turn),
                              groupNames: storedGroupNames(turn: turn), resolveGroup: groupLookup.resolve) {
        case .success(let prepared):
            let verdict = engine.validate(prepared)
            // Only verdicts: not a 422 over --max-response-bytes nor a 503 (the pool was full).
            if verdict.status == .ok {
                keepInFront(Self.frontAnswer(verdict.body, prepared, changeCount: groupLookup.seen.changeCount), for: frontKey, generation: generation)
            }
            return answer(verdict, cacheStatus: nil)
        case .failure(let failure):
            // 400 only for bodies that are not JSON objects; a well-formed object always
            // gets a verdict, even with wrong types inside. A 5xx keeps its fields
            // (`Retry-After`), as /solve's does.
            let isJSONObject = (try? JSONParser(maximumDepth: configuration.sceneLimits.maxJSONDepth).parse(request.body)).map { if case .object = $0 { return true }; return false } ?? false
            if !isJSONObject || failure.status.isServerError {
                return response(for: failure)
            }
            return answer(engine.validity(failure.diagnostics), cacheStatus: nil)
        }
    }

    /// What a front cache hit's check found: the store's current versions of the hit's
    /// names (``FrontAnswer/currentNames``), and whether they are the hit's.
    struct FrontCheck {
        var names: [String]
        var versions: [String: Int]
        var isCurrent: Bool
        /// The group store's change count read before `versions` were looked up; `nil`
        /// when it cannot tell, or nothing was looked up.
        var changeCount: Int64? = nil
        /// The front cache's generation read before the lookup (for ``refreshed``).
        var generation: UInt64 = 0
        /// The hit confirmed by this lookup with its new change count, to keep in its place
        /// (a pinned-only hit whose count had changed); `nil` otherwise.
        var refreshed: FrontAnswer? = nil
    }

    /// Checks a front cache hit against the store: current at once, without a round trip,
    /// when its scene includes no group; otherwise after one
    /// ``GroupStoring/currentVersions(of:)`` for all of them, pinned or not. When that
    /// lookup fails, a hit whose scene pins every group is current (as held); any other
    /// is the 503.
    func checkFront(_ hit: FrontAnswer, turn: HeldTurn) -> Result<FrontCheck, EngineFailure> {
        if hit.currentVersions.isEmpty && hit.fontNames.isEmpty { return .success(FrontCheck(names: [], versions: [:], isCurrent: true)) }
        // Called in a solving turn (solve, validate): the wait on the store holds none, so
        // other requests use the cores meanwhile; nothing decoded is held during it.
        return turn.whileWaiting { checkFrontWaiting(hit) }
    }

    /// ``checkFront(_:turn:)`` past a hit that needs no store, its turn given up.
    private func checkFrontWaiting(_ hit: FrontAnswer) -> Result<FrontCheck, EngineFailure> {
        let names = hit.currentNames
        // Stored faces first: a stale one makes the hit a miss whatever the groups say.
        if !hit.fontNames.isEmpty {
            do {
                if !hit.fontsAreCurrent(try lookUpFontVersions(hit.fontNames)) {
                    return .success(FrontCheck(names: [], versions: [:], isCurrent: false))
                }
            } catch {
                return .failure(.fontLookupFailed(error))
            }
        }
        if names.isEmpty { return .success(FrontCheck(names: [], versions: [:], isCurrent: true)) }
        // Pinned versions only, and no commit anywhere since they were confirmed: none can
        // have been deleted or pruned.
        let changeCount = hit.pinnedOnly ? groupStore.changeCount() : nil
        if let changeCount, changeCount == hit.changeCount { return .success(FrontCheck(names: [], versions: [:], isCurrent: true)) }
        let generation = frontCache.generation
        do {
            let versions = try lookUpCurrentVersions(names)
            let isCurrent = hit.isCurrent(versions)
            return .success(FrontCheck(names: names, versions: versions, isCurrent: isCurrent, changeCount: changeCount,
                                       generation: generation,
                                       refreshed: isCurrent ? changeCount.map { hit.confirmed(at: $0) } : nil))
        } catch {
            // Pinned versions only: answered as held while the store is away (whether
            // another process removed one cannot be told until it is back).
            if hit.pinnedOnly { return .success(FrontCheck(names: [], versions: [:], isCurrent: true)) }
            return .failure(.groupLookupFailed(error))
        }
    }

    /// The current versions of `names` (the groups a scene includes, sorted): `known`'s
    /// when it asked the store for exactly these names in this request, else the store's
    /// answer in one round trip.
    /// - Throws: ``EngineFailure/groupLookupFailed(_:)`` (503) when the store cannot answer.
    func currentVersions(_ names: [String], known: FrontCheck?) throws -> [String: Int] {
        if let known, known.names == names { return known.versions }
        do {
            return try lookUpCurrentVersions(names)
        } catch {
            throw EngineFailure.groupLookupFailed(error)
        }
    }

    /// The stored group names, for an `unknown_group`'s did-you-mean: read (with `turn`
    /// given up) only when a scene names a group that is not stored; none when the store
    /// cannot list them. Bounded by `--max-groups`.
    func storedGroupNames(turn: HeldTurn) -> () -> [String] {
        { [groupStore] in
            (try? turn.whileWaiting { () throws(StoreError) in try groupStore.groups() })?.map(\.name) ?? []
        }
    }

    /// The two group closures of one request's ``SceneEngine/prepare(body:currentVersions:fonts:resolveGroup:)``:
    /// the current versions of the scene's names (``currentVersions(_:known:)``, one lookup,
    /// or `known`'s), and a resolver that checks pinned versions against that same answer
    /// (``resolveGroup(_:current:)``), or resolves them as held when the lookup failed.
    /// Both wait on the store with `turn` given up (``HeldTurn/whileWaiting(_:)``), so a
    /// store that stopped answering holds no solving turn for up to `--db-timeout`; a group's
    /// contents are decoded with the turn held, so at most `--workers` requests decode at
    /// once (docs/operations.md, `--workers`).
    func groupSource(known: FrontCheck?, turn: HeldTurn) -> (current: CurrentVersionResolver, resolve: GroupResolver, seen: SeenVersions) {
        let seen = SeenVersions()
        return ({ [self] names in
            try turn.whileWaiting {
                // Read before the lookup: a removal committed after it changes the count.
                seen.changeCount = known?.names == names ? known?.changeCount : groupStore.changeCount()
                let versions = try currentVersions(names, known: known)
                seen.versions = versions
                return versions
            }
        }, { [self] reference in try resolveGroup(reference, current: seen.versions, turn: turn) }, seen)
    }

    /// What one request's store lookup answered (``groupSource(known:turn:)``), `nil` until it
    /// answered, and the store's change count read just before it; used on that request's
    /// thread only.
    final class SeenVersions {
        var versions: [String: Int]?
        var changeCount: Int64?
    }

    /// Loads a group for a scene, given `current`: the current versions the store named for
    /// the scene's names in this request (``groupSource(known:turn:)``). A pinned version (pinned
    /// by the scene, or resolved from `current`) of a name without a current version was
    /// deleted: `nil`. One kept in ``groupCache`` and sure to be stored still
    /// (``GroupCache/lookup(name:version:current:)``) is used without asking the store;
    /// otherwise it is read and kept. With `current` `nil` (the store could not be asked;
    /// the scene pins every group) a kept version is used as held, anything else is read.
    /// Store failures become an ``EngineFailure`` (503); a pinned version that was pruned
    /// throws ``PrunedGroupVersion``. The store is read with `turn` given up, and the
    /// contents are decoded with it held (`GroupTurnTests`).
    func resolveGroup(_ reference: GroupReference, current: [String: Int]?, turn: HeldTurn? = nil) throws -> ResolvedGroup? {
        func waiting<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
            guard let turn else { return try body() }
            return try turn.whileWaiting(body)
        }
        var nameCurrent = 0
        if let version = reference.version {
            if let current {
                // A delete removes every version; numbers are never reused.
                guard let known = current[reference.name] else { return nil }
                nameCurrent = known
                if let kept = groupCache.lookup(name: reference.name, version: version, current: known) { return kept }
            } else if let held = groupCache.held(name: reference.name, version: version) {
                return held
            }
        }
        let stored: StoredGroup?
        do {
            stored = try waiting { () throws(StoreError) in
                if let version = reference.version {
                    return try groupStore.group(named: reference.name, version: version)
                }
                return try groupStore.group(named: reference.name)
            }
        } catch {
            throw EngineFailure.groupLookupFailed(error)
        }
        guard let stored else {
            if let version = reference.version,
               let oldestKept = try? waiting({ () throws(StoreError) in try groupStore.prunedVersion(ofGroup: reference.name, version: version) }) {
                throw PrunedGroupVersion(message: prunedMessage(name: reference.name, version: version, oldestKept: oldestKept))
            }
            return nil
        }
        return try groupCache.group(name: stored.name, version: stored.version, current: max(nameCurrent, stored.version),
                                    jsonBytes: stored.constraintsJSON.utf8.count + stored.metricsJSON.utf8.count) {
            let body = "{\"constraints\":\(stored.constraintsJSON),\"metrics\":\(stored.metricsJSON)}"
            guard let json = try? JSONParser().parse(Array(body.utf8)),
                  let decoded = try? SceneDecoder(limits: configuration.sceneLimits).decodeGroupBody(json, stored: true) else {
                throw EngineFailure.internalError
            }
            return ResolvedGroup(name: stored.name, version: stored.version, constraints: decoded.constraints, metrics: decoded.metrics)
        }
    }

    /// 415 unless the body is JSON: `application/json`, any `+json` type, none, or curl's
    /// default `application/x-www-form-urlencoded` (contract, "Responses"); also 415, with
    /// `Accept-Encoding: identity`, for a content-coded body (`Content-Encoding: gzip`),
    /// which layoutd does not decode (RFC 9110 §8.4.1, §15.5.16).
    func checkMediaType(_ request: HTTPRequest) -> HTTPResponse? {
        if let coding = request.headers["Content-Encoding"],
           coding.trimmingCharacters(in: .whitespaces).lowercased() != "identity" {
            return problem(.contentCoded(coding: coding))
        }
        guard let contentType = request.headers["Content-Type"] else { return nil }
        if contentType == "application/json" { return nil }   // the common case, without Foundation
        // A blank value is as if absent; otherwise the part before the first ';' must be
        // a JSON type (`;;;` or `;charset=utf-8` names none: 415).
        if contentType.allSatisfy({ $0 == " " || $0 == "\t" }) { return nil }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            .first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if mediaType == "application/json" || (mediaType.count > 5 && mediaType.hasSuffix("+json") && mediaType.contains("/"))
            || mediaType == "application/x-www-form-urlencoded" {
            return nil
        }
        return problem(.unsupportedMediaType(contentType: contentType, xmlBody: request.body.starts(with: "<?xml".utf8)))
    }

    struct CacheDirectives {
        var noCache = false
        var noStore = false
        var any: Bool { noCache || noStore }
    }

    /// The `Cache-Status` of an answer about a scene that the result cache neither
    /// answered nor stored (a problem, or a result it could not keep): `layoutd; fwd=request`
    /// when the request's `Cache-Control` said `no-cache` or `no-store`, else `layoutd; fwd=miss`.
    static func unstoredCacheStatus(_ directives: CacheDirectives) -> String {
        directives.any ? "layoutd; fwd=request" : "layoutd; fwd=miss"
    }

    /// `Cache-Control: no-cache` / `no-store` of a request (RFC 9111 §5.2.1). `max-age=0`
    /// counts as `no-cache` (§5.2.1.1: no stored response is fresh enough; the fresh
    /// result is still stored); another `max-age` changes nothing, as a stored result
    /// never goes stale.
    static func cacheDirectives(_ headers: HTTPFields) -> CacheDirectives {
        var directives = CacheDirectives()
        for value in headers.values("Cache-Control") {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
                if name == "no-cache" { directives.noCache = true }
                if name == "no-store" { directives.noStore = true }
                if name == "max-age", parts.count == 2 {
                    // delta-seconds (RFC 9111 §1.2.2); the quoted form is accepted too (§5.2).
                    var argument = parts[1].trimmingCharacters(in: .whitespaces)
                    if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") {
                        argument = String(argument.dropFirst().dropLast())
                    }
                    if !argument.isEmpty, argument.utf8.allSatisfy({ $0 == UInt8(ascii: "0") }) { directives.noCache = true }
                }
            }
        }
        return directives
    }

    // MARK: - Helpers

    /// The HTTP answer of an engine answer: its fields, and its reservation of pending
    /// bytes kept until the server has queued it.
    func answer(_ result: EngineAnswer, cacheStatus: String?) -> HTTPResponse {
        var response = Self.answer(status: result.status, contentType: result.contentType, body: result.body, cacheStatus: cacheStatus)
        for (name, value) in result.headers { response.headers.append(name, value) }
        response.attachment = result.reservation
        return response
    }

    static func answer(status: HTTPStatus, contentType: String, body: [UInt8], cacheStatus: String?) -> HTTPResponse {
        var response = HTTPResponse(status: status, body: body)
        response.headers.append("Content-Type", contentType)
        if let cacheStatus {
            response.headers.append("Cache-Status", cacheStatus)
            // /solve answers JSON or an SVG wireframe by Accept.
            response.headers.append("Vary", "Accept")
        }
        return response
    }

    static func json(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        var response = HTTPResponse(status: status, body: Array(text.utf8))
        response.headers.append("Content-Type", "application/json")
        return response
    }

    static func describe(_ error: StoreError) -> String {
        switch error {
        case .preconditionFailed: return "precondition failed"
        case .readOnly: return "the database is read-only"
        case .full: return "the disk is full"
        case .busy: return "the database is busy"
        case .corrupt: return "the database is damaged"
        case .cannotOpen: return "the database cannot be opened"
        case .limitExceeded(let message): return message
        case .sqlite, .postgreSQL: return "a database error occurred"
        case .unavailable(let reason): return "the database is unavailable (\(reason))"
        case .fileMoved: return SQLiteStore.movedFileMessage
        }
    }

    /// The client's `X-Request-Id` when it is short and printable, else a new one
    /// (`RequestIDs.next()`: 16 hex digits, unique within the process).
    static func requestID(_ given: String?) -> String {
        if let given, !given.isEmpty, given.utf8.count <= 128,
           given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return given
        }
        return RequestIDs.next()
    }

    /// The value of the first parameter `name` of a query string (``QueryParameters``:
    /// percent-decoded), lowercased; `""` for a bare `name` (no `=`), as for `name=`.
    /// `nil` when `name` does not occur.
    static func queryValue(_ name: String, in query: String?) -> String? {
        QueryParameters(query).value(name)?.lowercased()
    }

    /// The value of the parameter `name` of `query` as the client meant it
    /// (``QueryParameters``: percent-decoded, `+` a space), case kept, `""` for a bare
    /// `name`, `nil` when absent; `.failure(count)` when `name` is given more than once (a
    /// 400 ``ServiceFailure/repeatedQueryParameter(_:count:)``).
    static func singleQueryValue(_ name: String, in query: String?) -> Result<String?, RepeatedQueryParameter> {
        let parameters = QueryParameters(query)
        let count = parameters.count(name)
        if count > 1 { return .failure(RepeatedQueryParameter(name: name, count: count)) }
        return .success(parameters.value(name))
    }

    /// A query parameter given `count` (more than one) times.
    struct RepeatedQueryParameter: Error, Equatable {
        var name: String
        var count: Int
    }

    /// How many parameters of `query` (``QueryParameters``, names decoded) are named `name`.
    static func queryCount(_ name: String, in query: String?) -> Int {
        QueryParameters(query).count(name)
    }

    /// The access log's time: RFC 3339 UTC to the second, `2026-11-30T23:10:18Z`.
    /// Written digit by digit: `String(format:)` cost 3.6% of the server's CPU under load.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return timestamp(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                         hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    static func timestamp(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> String {
        String(unsafeUninitializedCapacity: 20) { buffer in
            func put(_ value: Int, _ width: Int, at start: Int) {
                var value = value
                for index in stride(from: start + width - 1, through: start, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 0); buffer[4] = UInt8(ascii: "-")
            put(month, 2, at: 5); buffer[7] = UInt8(ascii: "-")
            put(day, 2, at: 8); buffer[10] = UInt8(ascii: "T")
            put(hour, 2, at: 11); buffer[13] = UInt8(ascii: ":")
            put(minute, 2, at: 14); buffer[16] = UInt8(ascii: ":")
            put(second, 2, at: 17); buffer[19] = UInt8(ascii: "Z")
            return 20
        }
    }
}
