import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing
import Wireframe

/// `--max-response-bytes` (``SceneEngine/maxResponseBytes``): every answer (frames,
/// `layouts` of `sizes`, verdicts, problems, SVG) is at most that long; an answer of
/// exactly the bound is given, one byte more is the 422 `limit_exceeded` problem, which
/// is never cached. SVG rendering also stops at its work budget (`--max-solver-work`).
struct ResponseBoundTests {
    static let scene = #"{"container":{"width":320,"height":480},"views":["red","green"],"constraints":["H:|-[red]-[green(==red)]-|","V:|-[red]-|","V:|-[green]-|"]}"#
    /// Three sizes of the same scene: a `layouts` answer.
    static let sizesScene = #"{"container":{"width":320,"height":480},"views":["red","green"],"constraints":["H:|-[red]-[green(==red)]-|","V:|-[red]-|","V:|-[green]-|"],"sizes":[{"width":320,"height":480},{"width":400,"height":480},{"width":500}]}"#

    static func prepare(_ json: String, engine: SceneEngine = SceneEngine()) throws -> SceneEngine.Prepared {
        switch engine.prepare(body: Array(json.utf8), resolveGroup: { _ in nil }) {
        case .success(let prepared): return prepared
        case .failure(let failure):
            Issue.record("prepare failed: \(failure.status) \(failure.diagnostics.map(\.message))")
            throw failure
        }
    }

    static func engine(maxResponseBytes: Int, maxSolverWork: Int? = nil) -> SceneEngine {
        var limits = SceneLimits()
        if let maxSolverWork { limits.maxSolverWork = maxSolverWork }
        return SceneEngine(limits: limits, maxResponseBytes: maxResponseBytes)
    }

    /// The 422 over the bound: its status, media type and single diagnostic naming the
    /// limit and the flag.
    static func expectTooLarge(_ answer: EngineAnswer, limit: Int) throws {
        #expect(answer.status == 422)
        #expect(answer.contentType == "application/problem+json")
        #expect(!answer.isCacheable)
        let problem = try JSONParser().parse(answer.body)
        #expect(problem["type"]?.stringValue == "urn:layoutd:problem:unprocessable-scene")
        #expect(problem["status"] == .number(422))
        let diagnostics = try #require(problem["diagnostics"]?.arrayValue)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["code"]?.stringValue == "limit_exceeded")
        #expect(diagnostics.first?["severity"]?.stringValue == "error")
        let message = try #require(diagnostics.first?["message"]?.stringValue)
        #expect(message.hasPrefix("The answer would be more than \(limit) bytes (limit maxResponseBytes, --max-response-bytes)"))
        #expect(problem["detail"]?.stringValue == message)
        #expect(answer.body.count < 512)
    }

    @Test("JSON answers: exactly the bound passes, one byte more is 422", arguments: [scene, sizesScene])
    func jsonCutOff(_ scene: String) throws {
        let full = SceneEngine().solve(try Self.prepare(scene))
        #expect(full.status == 200)
        let exact = Self.engine(maxResponseBytes: full.body.count).solve(try Self.prepare(scene))
        #expect(exact.status == 200)
        #expect(exact.body == full.body)
        #expect(exact.isCacheable)
        let over = Self.engine(maxResponseBytes: full.body.count - 1).solve(try Self.prepare(scene))
        try Self.expectTooLarge(over, limit: full.body.count - 1)
    }

    @Test func verdictsAndProblemsAreBoundedToo() throws {
        let verdict = SceneEngine().validate(try Self.prepare(Self.scene))
        #expect(verdict.status == 200)
        #expect(Self.engine(maxResponseBytes: verdict.body.count).validate(try Self.prepare(Self.scene)).body == verdict.body)
        try Self.expectTooLarge(Self.engine(maxResponseBytes: verdict.body.count - 1).validate(try Self.prepare(Self.scene)),
                                limit: verdict.body.count - 1)
        // A problem whose diagnostics pass the bound is the bound's problem instead.
        let many = (0..<50).map { LayoutDiagnostic(code: .unknownView, message: "No view named 'v\($0)'") }
        let problem = SceneEngine().problem(status: 422, diagnostics: many)
        #expect(problem.body.count > 2_000)
        #expect(Self.engine(maxResponseBytes: problem.body.count).problem(status: 422, diagnostics: many).body == problem.body)
        try Self.expectTooLarge(Self.engine(maxResponseBytes: problem.body.count - 1).problem(status: 422, diagnostics: many),
                                limit: problem.body.count - 1)
    }

    @Test func svgCutOff() throws {
        let full = SceneEngine().solveSVG(try Self.prepare(Self.sizesScene))
        #expect(full.status == 200)
        let exact = Self.engine(maxResponseBytes: full.body.count).solveSVG(try Self.prepare(Self.sizesScene))
        #expect(exact.status == 200)
        #expect(exact.body == full.body)
        try Self.expectTooLarge(Self.engine(maxResponseBytes: full.body.count - 1).solveSVG(try Self.prepare(Self.sizesScene)),
                                limit: full.body.count - 1)
    }

    /// Rendering's work is at least the bytes it writes: a budget below the document's
    /// length stops it (422 naming --max-solver-work), twice its length draws it, and a
    /// document of many long-named views is refused within its budget, without building it.
    @Test func renderingStopsAtItsWorkBudget() throws {
        let full = SceneEngine().solveSVG(try Self.prepare(Self.sizesScene))
        let length = full.body.count
        let drawn = Self.engine(maxResponseBytes: .max, maxSolverWork: 2 * length).solveSVG(try Self.prepare(Self.sizesScene))
        #expect(drawn.status == 200)
        #expect(drawn.body == full.body)
        let refused = Self.engine(maxResponseBytes: .max, maxSolverWork: length - 1).solveSVG(try Self.prepare(Self.sizesScene))
        #expect(refused.status == 422)
        let problem = try JSONParser().parse(refused.body)
        let message = try #require(problem["diagnostics"]?.arrayValue?.first?["message"]?.stringValue)
        #expect(message.hasPrefix("Drawing the wireframe would take more than \(length - 1) units of work, bytes written or examined (limit maxSolverWork, --max-solver-work)"))
        #expect(problem["diagnostics"]?.arrayValue?.first?["code"]?.stringValue == "limit_exceeded")

        // 60 views of 200-character names at 300 sizes: about 18 MB of SVG, refused at a
        // budget of 10⁶ units, in the renderer, with nothing kept.
        let names = (0..<60).map { "\"v\($0)_" + String(repeating: "n", count: 200) + "\"" }
        let sizes = (0..<300).map { "{\"width\":\(300 + $0),\"height\":400}" }
        let hostile = #"{"container":{"width":320,"height":480},"views":[\#(names.joined(separator: ","))],"sizes":[\#(sizes.joined(separator: ","))],"options":{"ambiguity":"ignore"}}"#
        let engine = Self.engine(maxResponseBytes: .max, maxSolverWork: 1_000_000)
        let prepared = try Self.prepare(hostile, engine: engine)
        let (compiled, layouts) = engine.compileAndSolve(prepared)
        #expect(layouts.count == 300)
        let output = WireframeRenderer.svg(compiled: compiled, layouts: layouts, sizes: prepared.scene.sizes,
                                           maxBytes: .max, pool: nil, maxWork: 1_000_000)
        #expect(output.stop == .workExceeded(limit: 1_000_000))
        #expect(output.bytes.isEmpty)
        #expect(engine.solveSVG(prepared).status == 422)
    }

    /// Arranging the panels of `sizes` tries each row length over every panel, twice at
    /// most: 2 × panels² units of the rendering's work, charged before it is done. 1,000
    /// sizes are charged 2 × 10⁶ before a byte is written, so that budget stops them;
    /// 10 sizes (200 units) are drawn within it.
    @Test func arrangingManySizesIsChargedToTheWork() throws {
        func render(_ count: Int, maxWork: Int) throws -> (stop: Bool, bytes: Int) {
            let engine = Self.engine(maxResponseBytes: .max, maxSolverWork: .max)
            let prepared = try Self.prepare(WireframeSizingTests.manySizes(count), engine: engine)
            let (compiled, layouts) = engine.compileAndSolve(prepared)
            let output = WireframeRenderer.svg(compiled: compiled, layouts: layouts, sizes: prepared.scene.sizes,
                                               maxBytes: .max, pool: nil, maxWork: maxWork)
            return (output.stop == .workExceeded(limit: maxWork), output.bytes.count)
        }
        let many = try render(1_000, maxWork: 2_000_000)
        #expect(many.stop && many.bytes == 0)
        let full = try render(1_000, maxWork: .max)
        #expect(!full.stop && full.bytes > 0 && full.bytes < 2_000_000)
        let few = try render(10, maxWork: 2_000_000)
        #expect(!few.stop && few.bytes > 0)
    }

    /// Through the service: the 422 over `maxResponseBytes` is answered every time
    /// (never stored, so a later request with room is solved) and names the flag.
    @Test func theServiceNeverCachesTheBoundsAnswer() throws {
        let store = try SQLiteStore(path: ":memory:")
        var configuration = ServiceConfiguration()
        configuration.maxResponseBytes = 100
        let router = LayoutService(store: store, configuration: configuration).makeRouter()
        func solve(_ target: String = "/solve") -> HTTPResponse {
            router.respond(to: HTTPRequest(method: .POST, target: target, headers: ["Host": "test"], body: Array(Self.scene.utf8)))
        }
        for _ in 0..<2 {
            let response = solve()
            #expect(response.status == 422)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.headers["Cache-Status"] == "layoutd; fwd=miss")
            #expect(String(decoding: response.body, as: UTF8.self).contains("--max-response-bytes"))
        }
        #expect(try store.cacheCount() == 0)
        #expect(solve("/solve?format=svg").status == 422)
        let verdict = router.respond(to: HTTPRequest(method: .POST, target: "/validate", headers: ["Host": "test"], body: Array(Self.scene.utf8)))
        #expect(verdict.status == 200)   // {"valid":true,"diagnostics":[]} fits in 100 bytes
    }

    /// `?width=` on a JSON `/solve` adds a warning to the answer after the engine checked
    /// the bound: with the warning, an answer is at most `--max-response-bytes` still. At
    /// the bound exactly it is given; with the plain answer at the bound, the warned one is
    /// the bound's 422 (`fwd=miss`), while the plain answer stays cached and answers a
    /// request without the query.
    @Test func theWarningKeepsTheBound() throws {
        // Sixteen views: an answer longer than the bound's 422, which is written unbounded.
        let names = (0..<16).map { "v\($0)" }
        let scene = #"{"container":{"width":320,"height":480},"views":[\#(names.map { "\"\($0)\"" }.joined(separator: ","))],"constraints":[\#(names.map { "\"H:|[\($0)]|\"" }.joined(separator: ",")),"V:|\#(names.map { "[\($0)(10)]" }.joined())"]}"#
        let plainLength = SceneEngine().solve(try Self.prepare(scene)).body.count
        #expect(plainLength > 512)
        func service(maxResponseBytes: Int) throws -> Router {
            var configuration = ServiceConfiguration()
            configuration.maxResponseBytes = maxResponseBytes
            return LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration).makeRouter()
        }
        func solve(_ router: Router, _ target: String) -> HTTPResponse {
            router.respond(to: HTTPRequest(method: .POST, target: target, headers: ["Host": "test"], body: Array(scene.utf8)))
        }
        let roomy = try service(maxResponseBytes: 1 << 20)
        let warned = solve(roomy, "/solve?width=600")
        #expect(warned.status == 200)
        let warnedLength = warned.body.count
        #expect(warnedLength > plainLength)

        // The warned answer exactly at the bound: given.
        let exact = solve(try service(maxResponseBytes: warnedLength), "/solve?width=600")
        #expect(exact.status == 200)
        #expect(exact.body == warned.body)

        // The plain answer at the bound: it is given, the warned one is the 422.
        let tight = try service(maxResponseBytes: plainLength)
        for _ in 0..<2 {
            let over = solve(tight, "/solve?width=600")
            #expect(over.status == 422)
            #expect(over.body.count <= plainLength)
            #expect(over.headers["Content-Type"] == "application/problem+json")
            #expect(over.headers["Cache-Status"] == "layoutd; fwd=miss")
            let problem = try JSONParser().parse(over.body)
            #expect(problem["diagnostics"]?.arrayValue?.map { $0["code"] } == [.string("limit_exceeded")])
            #expect(problem["detail"]?.stringValue?.hasPrefix("The answer would be more than \(plainLength) bytes (limit maxResponseBytes, --max-response-bytes)") == true)
        }
        let plain = solve(tight, "/solve")
        #expect(plain.status == 200)
        #expect(plain.headers["Cache-Status"] == "layoutd; hit")
        #expect(plain.body.count == plainLength)
    }

    /// Answers reserve from the server's pending-response pool beyond their first MiB,
    /// hold it until the response is dropped, and a full pool makes the answer a 503
    /// with `Retry-After: 1`.
    @Test func aFullPoolIsA503AndReservationsComeBack() throws {
        let names = (0..<400).map { "\"v\($0)_" + String(repeating: "n", count: 100) + "\"" }
        let sizes = (0..<100).map { "{\"width\":\(300 + $0),\"height\":400}" }
        let large = #"{"container":{"width":320,"height":480},"views":[\#(names.joined(separator: ","))],"sizes":[\#(sizes.joined(separator: ","))],"options":{"ambiguity":"ignore"}}"#
        let roomy = PendingResponseBytes(limit: 64 << 20)
        do {
            let engine = SceneEngine(answerPool: roomy)
            let answer = engine.solve(try Self.prepare(large, engine: engine))
            #expect(answer.status == 200)
            #expect(answer.body.count > 4 << 20)
            #expect(roomy.current >= answer.body.count - AnswerBytes.step)
            #expect(roomy.current == answer.reservation?.bytes)
        }
        #expect(roomy.current == 0)

        let full = PendingResponseBytes(limit: 64 << 20)
        #expect(full.reserve((64 << 20) - (1 << 20)))
        let engine = SceneEngine(answerPool: full)
        let refused = engine.solve(try Self.prepare(large, engine: engine))
        #expect(refused.status == 503)
        #expect(refused.headers.first { $0.0 == "Retry-After" }?.1 == "1")
        #expect(try JSONParser().parse(refused.body)["detail"]?.stringValue == HTTPServer.overCommittedDetail)
        #expect(full.current == (64 << 20) - (1 << 20))
        // Small answers never touch the pool.
        #expect(engine.solve(try Self.prepare(Self.scene, engine: engine)).status == 200)
    }
}
