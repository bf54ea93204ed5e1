import HTTP1
import Synchronization

/// Counters and histograms for `GET /metrics`, in the Prometheus text exposition format
/// (version 0.0.4).
///
/// A `final class` shared by all request threads; its state is guarded by a `Mutex`.
public final class Metrics: Sendable {
    /// Upper bounds of the latency buckets, seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Histogram {
        var counts = [UInt64](repeating: 0, count: Metrics.buckets.count)
        var sum = 0.0
        var count: UInt64 = 0

        mutating func observe(_ seconds: Double) {
            for (index, bound) in Metrics.buckets.enumerated() where seconds <= bound {
                counts[index] += 1
            }
            sum += seconds
            count += 1
        }
    }

    struct RouteStatus: Hashable, Comparable {
        var route: String
        var status: HTTPStatus
        static func < (a: RouteStatus, b: RouteStatus) -> Bool { (a.route, a.status.code) < (b.route, b.status.code) }
    }

    private struct State {
        var requests: [RouteStatus: UInt64] = [:]
        var latency: [String: Histogram] = [:]
        var solve = Histogram()
        var cacheHits: UInt64 = 0
        var cacheMisses: UInt64 = 0
        var conflicts: UInt64 = 0
        var abandoned: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Empty counters.
    public init() {}

    /// Records one answered request: its route pattern (`/groups/{name}`, or `other`),
    /// status code and duration in seconds.
    public func recordRequest(route: String, status: HTTPStatus, seconds: Double) {
        state.withLock { state in
            state.requests[RouteStatus(route: route, status: status), default: 0] += 1
            state.latency[route, default: Histogram()].observe(seconds)
        }
    }

    /// Records a request not handled because its client had gone (``LayoutService/makeAbandonedHandler(router:log:)``).
    public func recordAbandoned() {
        state.withLock { $0.abandoned += 1 }
    }

    /// Records the time spent compiling and solving one scene, seconds.
    public func recordSolve(seconds: Double) {
        state.withLock { $0.solve.observe(seconds) }
    }

    /// Records a `/solve` answered from a cache (`hit`) or computed.
    public func recordCache(hit: Bool) {
        state.withLock { state in
            if hit { state.cacheHits += 1 } else { state.cacheMisses += 1 }
        }
    }

    /// The exposition text; `openConnections` and `groups` are gauges read by the caller,
    /// `diskFull` the store's count of writes that met a full disk (a counter), `answered`
    /// the HTTP server's requests answered on its event loops' threads and by its
    /// workers (``HTTPServer/answeredCounts``, counters summed over the loops) and its
    /// connections closed with answers unsent (`cut`, ``HTTPServer/cutAnswerCount``).
    public func render(openConnections: Int, groups: Int?, diskFull: Int? = nil,
                       answered: (onLoops: Int, byWorkers: Int, cut: Int)? = nil) -> String {
        let snapshot = state.withLock { $0 }
        var out = ""
        out += "# HELP layoutd_requests_total HTTP requests answered, by route and status.\n"
        out += "# TYPE layoutd_requests_total counter\n"
        for key in snapshot.requests.keys.sorted() {
            out += "layoutd_requests_total{route=\"\(key.route)\",status=\"\(key.status)\"} \(snapshot.requests[key] ?? 0)\n"
        }
        out += "# HELP layoutd_request_duration_seconds Time from a request's head to its answer.\n"
        out += "# TYPE layoutd_request_duration_seconds histogram\n"
        for route in snapshot.latency.keys.sorted() {
            out += histogramLines("layoutd_request_duration_seconds", labels: "route=\"\(route)\"", snapshot.latency[route] ?? Histogram())
        }
        out += "# HELP layoutd_solve_duration_seconds Time to compile and solve one scene (cache misses only).\n"
        out += "# TYPE layoutd_solve_duration_seconds histogram\n"
        out += histogramLines("layoutd_solve_duration_seconds", labels: nil, snapshot.solve)
        out += "# HELP layoutd_cache_hits_total Solve results answered from a cache.\n"
        out += "# TYPE layoutd_cache_hits_total counter\n"
        out += "layoutd_cache_hits_total \(snapshot.cacheHits)\n"
        out += "# HELP layoutd_cache_misses_total Solve results computed because no cache held them.\n"
        out += "# TYPE layoutd_cache_misses_total counter\n"
        out += "layoutd_cache_misses_total \(snapshot.cacheMisses)\n"
        out += "# HELP layoutd_http_requests_abandoned_total Requests not handled because their connection closed while they waited for a worker (logged with status 499).\n"
        out += "# TYPE layoutd_http_requests_abandoned_total counter\n"
        out += "layoutd_http_requests_abandoned_total \(snapshot.abandoned)\n"
        out += "# HELP layoutd_open_connections Client connections open now.\n"
        out += "# TYPE layoutd_open_connections gauge\n"
        out += "layoutd_open_connections \(openConnections)\n"
        if let answered {
            out += "# HELP layoutd_http_answers_total Requests answered, by the thread that made the answer: an I/O thread (cache hits, health checks) or a worker.\n"
            out += "# TYPE layoutd_http_answers_total counter\n"
            out += "layoutd_http_answers_total{thread=\"io\"} \(answered.onLoops)\n"
            out += "layoutd_http_answers_total{thread=\"worker\"} \(answered.byWorkers)\n"
            out += "# HELP layoutd_http_answers_cut_total Connections closed before their answers were sent whole (the client read nothing for --body-timeout, the connection failed, or the drain ended).\n"
            out += "# TYPE layoutd_http_answers_cut_total counter\n"
            out += "layoutd_http_answers_cut_total \(answered.cut)\n"
        }
        if let groups {
            out += "# HELP layoutd_groups Named constraint groups stored.\n"
            out += "# TYPE layoutd_groups gauge\n"
            out += "layoutd_groups \(groups)\n"
        }
        if let diskFull {
            out += "# HELP layoutd_store_disk_full_total Database writes that met a full disk (SQLITE_FULL); each freed cached results.\n"
            out += "# TYPE layoutd_store_disk_full_total counter\n"
            out += "layoutd_store_disk_full_total \(diskFull)\n"
        }
        return out
    }

    private func histogramLines(_ name: String, labels: String?, _ histogram: Histogram) -> String {
        var out = ""
        let prefix = labels.map { "\($0)," } ?? ""
        for (index, bound) in Metrics.buckets.enumerated() {
            out += "\(name)_bucket{\(prefix)le=\"\(bound)\"} \(histogram.counts[index])\n"
        }
        out += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(histogram.count)\n"
        let suffix = labels.map { "{\($0)}" } ?? ""
        out += "\(name)_sum\(suffix) \(histogram.sum)\n"
        out += "\(name)_count\(suffix) \(histogram.count)\n"
        return out
    }
}
