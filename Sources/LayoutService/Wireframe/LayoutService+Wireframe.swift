import Foundation
import HTTP1
import LayoutCompiler
import LayoutSyntax
import Wireframe

extension LayoutService {
    /// Whether a `POST /solve` asks for the SVG wireframe instead of JSON: `?format=svg`
    /// in the query (`format=json` forces JSON), or an `Accept` field that ranks
    /// `image/svg+xml` above `application/json` (RFC 9110 §12.5.1; on a tie, JSON, the
    /// default representation, wins, so `*/*` and a missing `Accept` get JSON).
    static func prefersWireframe(_ request: HTTPRequest) -> Bool {
        prefersWireframe(accept: request.headers["Accept"], query: request.query)
    }

    static func prefersWireframe(accept: String?, query: String?) -> Bool {
        // `format` is given once here (an unknown or repeated one is answered 400 before this).
        if let value = queryValue("format", in: query) {
            if value == "svg" { return true }
            if value == "json" { return false }
        }
        guard let accept else { return false }
        let svg = quality(of: "image", "svg+xml", in: accept)
        let json = quality(of: "application", "json", in: accept)
        return svg > 0 && svg > json
    }

    /// The quality an `Accept` value gives a media type: from its most specific matching
    /// range (`type/subtype` over `type/*` over `*/*`), 0 when none matches (RFC 9110
    /// §12.5.1). A malformed `q` counts as 1; parameters other than `q` are ignored.
    static func quality(of type: String, _ subtype: String, in accept: String) -> Double {
        var best: (specificity: Int, quality: Double) = (-1, 0)
        for element in accept.split(separator: ",") {
            let parameters = element.split(separator: ";")
            guard let range = parameters.first else { continue }
            let parts = range.trimmingCharacters(in: .whitespaces).lowercased().split(separator: "/", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let specificity: Int
            if parts[0] == type && parts[1] == subtype {
                specificity = 2
            } else if parts[0] == type && parts[1] == "*" {
                specificity = 1
            } else if parts[0] == "*" && parts[1] == "*" {
                specificity = 0
            } else {
                continue
            }
            var quality = 1.0
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q",
                   let value = Double(pair[1].trimmingCharacters(in: .whitespaces)), value >= 0, value <= 1 {
                    quality = value
                }
            }
            if specificity > best.specificity { best = (specificity, quality) }
        }
        return best.quality
    }

    /// `POST /solve` answered as an SVG wireframe: the same parsing, group
    /// resolution and 400/415/422 problems as the JSON answer, then
    /// ``SceneEngine/solveSVG(_:)``. Not cached (the result cache holds JSON answers);
    /// `Vary: Accept` tells shared caches that `/solve` has two representations.
    ///
    /// The display size comes from `?scale=` or `?width=` (``wireframeDisplay(query:)``):
    /// a value out of range, both, or either given twice is a 400 before the body is read.
    func solveWireframe(_ request: HTTPRequest, turn: HeldTurn) -> HTTPResponse {
        let display: WireframeDisplay
        switch Self.wireframeDisplay(query: request.query) {
        case .success(let value): display = value
        case .failure(let failure):
            var response = problem(failure)
            response.headers.append("Vary", "Accept")
            return response
        }
        if let unsupported = checkMediaType(request) { return unsupported }
        var response: HTTPResponse
        // A problem about the scene is the JSON answer's, `Cache-Status` included (never
        // stored: `fwd=miss`, or `fwd=request` under `Cache-Control`); the picture, which
        // the result cache never holds, carries none (HandlerTests.svgProblemsCarryCacheStatus).
        let unstored = Self.unstoredCacheStatus(Self.cacheDirectives(request.headers))
        let groupLookup = groupSource(known: nil, turn: turn)
        switch engine.prepare(body: request.body, currentVersions: groupLookup.current, fonts: storedFontSource(turn: turn),
                              resolveGroup: groupLookup.resolve) {
        case .success(let prepared):
            let result = engine.solveSVG(prepared, display: display)
            let isPicture = result.contentType.hasPrefix("image/svg+xml")
            response = answer(result, cacheStatus: isPicture ? nil : unstored)
            if isPicture {
                response.headers.append("Content-Security-Policy", PlaygroundPage.wireframePolicy)
            }
        case .failure(let failure):
            response = self.response(for: failure, cacheStatus: unstored)
        }
        // An answer given a `Cache-Status` has its `Vary: Accept` already (``answer(status:contentType:body:cacheStatus:)``).
        if response.headers["Vary"] == nil { response.headers.append("Vary", "Accept") }
        return response
    }

    /// The wireframe's display size from the query: `scale` (pixels per point, a decimal
    /// number in [0.001, 16]) or `width` (pixels, an integer from 16 to 16384), at most one of
    /// them, each at most once (``WireframeDisplay/parse(scale:width:)``).
    static func wireframeDisplay(query: String?) -> Result<WireframeDisplay, ServiceFailure> {
        var values: [String?] = []
        for name in ["scale", "width"] {
            switch singleQueryValue(name, in: query) {
            case .success(let value): values.append(value)
            case .failure(let repeated): return .failure(.repeatedQueryParameter(repeated.name, count: repeated.count))
            }
        }
        // Case kept (``queryValue(_:in:)`` lowers it for `format`), so a refusal echoes
        // what the client wrote (`scale='NaN'`).
        switch WireframeDisplay.parse(scale: values[0], width: values[1]) {
        case .success(let display): return .success(display)
        case .failure(.scale(let text)): return .failure(.invalidDisplaySize(parameter: "scale", value: Diagnostic.echo(text)))
        case .failure(.width(let text)): return .failure(.invalidDisplaySize(parameter: "width", value: Diagnostic.echo(text)))
        case .failure(.bothGiven): return .failure(.conflictingDisplaySizes)
        }
    }
}
