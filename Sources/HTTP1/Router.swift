/// The values of `{name}` segments matched by a route pattern, e.g. `name` →
/// `"header"` for pattern `/groups/{name}` and path `/groups/header`.
///
/// Values are percent-decoded (RFC 3986 §2.1) when that yields valid UTF-8;
/// otherwise the raw segment is kept.
public struct PathParameters: Sendable, Equatable {
    private var pairs: [(name: String, value: String)] = []

    /// No parameters.
    public init() {}

    /// The value bound to `name`, or `nil` when the pattern has no such parameter.
    public subscript(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every parameter in pattern order.
    public var all: [(name: String, value: String)] { pairs }

    mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    /// Same names and values in the same order.
    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// Maps (method, path) to handlers: exact segments plus `{param}` segments.
///
/// Built once at start-up with ``add(_:_:_:)``, then used as an immutable
/// `Sendable` value. Matching (``respond(to:)``):
/// - The path is split on `/` and compared segment by segment; a literal
///   segment beats a `{param}` segment at the same position, earlier positions
///   first, so `/groups/new` wins over `/groups/{name}` whatever the order of
///   registration.
/// - No route matches the path → `404` problem.
/// - The path matches but not the method → `405` problem with `Allow` listing
///   the resource's methods sorted by name, with `HEAD` wherever `GET` exists and
///   `OPTIONS` everywhere (RFC 9110 §15.5.6).
/// - `HEAD` without its own route runs the `GET` handler; the server then sends
///   the headers (with the GET `Content-Length`) and no body (RFC 9110 §9.3.2).
/// - `OPTIONS` without its own route → `204` with that `Allow` list; `OPTIONS *`
///   (the server in general) → `204` with every method any route takes
///   (RFC 9110 §9.3.7).
///
/// - Complexity: O(routes × segments) per request; a service has a handful.
public struct Router: Sendable {
    /// A request handler: the request and the pattern's parameters in, a response out.
    public typealias Handler = @Sendable (HTTPRequest, PathParameters) -> HTTPResponse

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)

        /// 0 for a literal, 1 for a parameter: literals sort first.
        var kindRank: Int {
            switch self {
            case .literal: 0
            case .parameter: 1
            }
        }
    }

    private struct Resource: Sendable {
        var pattern: String
        var segments: [Segment]
        var handlers: [(method: HTTPMethod, handler: Handler)]
    }

    private var resources: [Resource] = []
    /// The base of the problem `type` of 404 and 405 answers (see
    /// ``ServerLimits/problemTypeBase``); `nil` gives `about:blank`.
    public var problemTypeBase: String?
    /// Extension members added to the 404 and 405 problems, as
    /// ``ServerLimits/problemMembers``.
    public var problemMembers: [ProblemMember]

    /// A router with no routes: every request gets 404.
    public init(problemTypeBase: String? = nil, problemMembers: [ProblemMember] = []) {
        self.problemTypeBase = problemTypeBase
        self.problemMembers = problemMembers
    }

    private func problemType(_ status: HTTPStatus) -> String {
        problemTypeBase.map { $0 + status.problemSlug } ?? "about:blank"
    }

    /// Registers `handler` for `method` on `pattern`, such as `/solve` or
    /// `/groups/{name}/versions/{version}`. A second registration of the same
    /// method and pattern replaces the first.
    ///
    /// - Precondition: `pattern` starts with `/` (a programmer error otherwise).
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        precondition(pattern.hasPrefix("/"), "route pattern must start with '/': \(pattern)")
        let segments: [Segment] = Router.split(pattern).map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
        if let index = resources.firstIndex(where: { $0.segments == segments }) {
            resources[index].handlers.removeAll { $0.method == method }
            resources[index].handlers.append((method, handler))
        } else {
            resources.append(Resource(pattern: pattern, segments: segments, handlers: [(method, handler)]))
            // Literal before parameter at the first position where kinds differ,
            // then registration order: a total order, so the sort is well defined.
            resources = resources.enumerated().sorted { lhs, rhs in
                let left = lhs.element.segments.map(\.kindRank), right = rhs.element.segments.map(\.kindRank)
                if left != right { return left.lexicographicallyPrecedes(right) }
                return lhs.offset < rhs.offset
            }.map(\.element)
        }
    }

    /// Finds the handler for `request` and runs it, or answers 404/405.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        dispatch(request).response
    }

    /// The pattern of the route `path` matches (`/groups/{name}` for `/groups/header`),
    /// the route identifier metrics and access logs use; `nil` when no route matches
    /// (the request is answered 404), and for `*` (`OPTIONS *`). The same matching as
    /// ``respond(to:)``. Held by `RouterTests.matchedRouteIsThePattern`.
    /// - Complexity: O(routes × segments).
    public func route(for path: String) -> String? {
        if path == "*" { return nil }
        let parts = Router.split(path)
        return resources.first { Router.match($0.segments, parts) != nil }?.pattern
    }

    /// The answer ``dispatch(_:)`` gives `request` without running a handler because no
    /// route matches its path (`404`) or its route has no handler for its method (`405`),
    /// with the matched pattern; `nil` when a handler (or `OPTIONS`) would answer. It reads
    /// only the head, so it can answer before `100 Continue`.
    public func refusal(_ request: HTTPRequest) -> (route: String?, response: HTTPResponse)? {
        if request.method == .OPTIONS && request.path == "*" { return nil }
        let parts = Router.split(request.path)
        guard let resource = resources.first(where: { Router.match($0.segments, parts) != nil }) else { return dispatch(request) }
        if request.method == .OPTIONS { return nil }
        let methods = resource.handlers.map(\.method)
        if methods.contains(request.method) || (request.method == .HEAD && methods.contains(.GET)) { return nil }
        return dispatch(request)
    }

    /// ``respond(to:)``'s answer together with the matched route's pattern
    /// (``route(for:)``, `nil` when none matched), matching the path once.
    public func dispatch(_ request: HTTPRequest) -> (route: String?, response: HTTPResponse) {
        if request.method == .OPTIONS && request.path == "*" {
            return (nil, Router.options(allowing: Array(Set(resources.flatMap(allowedMethods))).sorted()))
        }
        let parts = Router.split(request.path)
        for resource in resources {
            guard let parameters = Router.match(resource.segments, parts) else { continue }
            if let entry = resource.handlers.first(where: { $0.method == request.method }) {
                return (resource.pattern, entry.handler(request, parameters))
            }
            if request.method == .HEAD, let entry = resource.handlers.first(where: { $0.method == .GET }) {
                return (resource.pattern, entry.handler(request, parameters))
            }
            let allowed = allowedMethods(resource)
            if request.method == .OPTIONS { return (resource.pattern, Router.options(allowing: allowed)) }
            var response = HTTPResponse.problem(
                status: .methodNotAllowed, title: "Method Not Allowed",
                detail: "\(request.method.rawValue) is not allowed on \(request.path); allowed: \(allowed.joined(separator: ", ")).",
                type: problemType(.methodNotAllowed), extra: problemMembers)
            response.headers.append("Allow", allowed.joined(separator: ", "))
            return (resource.pattern, response)
        }
        return (nil, HTTPResponse.problem(status: .notFound, title: "Not Found", detail: "No resource at '\(request.path)'", type: problemType(.notFound),
                                          extra: problemMembers))
    }

    /// The answer to `OPTIONS`: `204 No Content` with `Allow: <methods>`.
    private static func options(allowing methods: [String]) -> HTTPResponse {
        var response = HTTPResponse(status: .noContent)
        response.headers.append("Allow", methods.joined(separator: ", "))
        return response
    }

    /// The `Allow` list of a resource: its methods plus HEAD where GET exists and
    /// OPTIONS, sorted.
    private func allowedMethods(_ resource: Resource) -> [String] {
        var names = resource.handlers.map(\.method.rawValue)
        if names.contains("GET") && !names.contains("HEAD") { names.append("HEAD") }
        if !names.contains("OPTIONS") { names.append("OPTIONS") }
        return names.sorted()
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    private static func match(_ segments: [Segment], _ parts: [Substring]) -> PathParameters? {
        guard segments.count == parts.count else { return nil }
        var parameters = PathParameters()
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters.append(name, percentDecoded(part) ?? String(part))
            }
        }
        return parameters
    }
}

/// Decodes `%XX` escapes (RFC 3986 §2.1); `nil` for a malformed escape or
/// bytes that are not UTF-8.
func percentDecoded(_ text: Substring) -> String? {
    guard text.utf8.contains(0x25) else { return String(text) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
        if byte == 0x25 {
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(UInt8(high << 4 | low))
        } else {
            bytes.append(byte)
        }
    }
    return String(validating: bytes, as: UTF8.self)
}
