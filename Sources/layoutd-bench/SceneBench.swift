// Scene-level benchmarks: `sizes` against separate solves and the cost of
// explaining a conflict. Times are wall-clock medians over repeats, release build.
import Dispatch
import Foundation
import LayoutCompiler
import LayoutService

enum SceneBench {
    /// A scene of `rows` rows of two labels each (title + value), intrinsic sizes, VFL rows
    /// and a vertical chain: `2 × rows` views.
    static func formScene(rows: Int, extra: [String] = [], sizes: [(Double?, Double?)]? = nil) -> [UInt8] {
        var views: [String] = []
        var constraints: [String] = []
        var chain = "V:|-"
        for row in 0..<rows {
            views.append("\"t\(row)\":{\"intrinsicSize\":{\"width\":\(80 + row % 7 * 10),\"height\":21}}")
            views.append("\"v\(row)\":{\"intrinsicSize\":{\"width\":\(40 + row % 5 * 12),\"height\":21},\"hugging\":{\"horizontal\":251}}")
            constraints.append("{\"vfl\":\"H:|-[t\(row)]-[v\(row)]-|\",\"options\":[\"alignAllCenterY\"]}")
            chain += "[t\(row)]-"
        }
        chain += "(>=20)-|"
        constraints.append("\"\(chain)\"")
        constraints += extra.map { "\"\($0)\"" }
        var body = "{\"container\":{\"width\":375,\"height\":\(40 + rows * 30)},\"views\":{\(views.joined(separator: ","))},\"constraints\":[\(constraints.joined(separator: ","))]"
        if let sizes {
            let list = sizes.map { size -> String in
                var fields: [String] = []
                if let width = size.0 { fields.append("\"width\":\(width)") }
                if let height = size.1 { fields.append("\"height\":\(height)") }
                return "{\(fields.joined(separator: ","))}"
            }
            body += ",\"sizes\":[\(list.joined(separator: ","))]"
        }
        return Array((body + "}").utf8)
    }

    static func medianMilliseconds(repeats: Int, _ work: () -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            work()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    static func solve(_ body: [UInt8], engine: SceneEngine) -> EngineAnswer {
        switch engine.prepare(body: body, resolveGroup: { _ in nil }) {
        case .success(let prepared): return engine.solve(prepared)
        case .failure(let failure): return engine.problem(status: failure.status, diagnostics: failure.diagnostics)
        }
    }

    /// `layoutd-bench sizes [--views N] [--sizes K] [--repeats R]`: one request with K sizes
    /// against K separate requests (in process: JSON parse, compile, solve, serialise
    /// each time; HTTP excluded, which only favours the separate requests).
    static func runSizes(_ arguments: [String]) -> Int32 {
        let views = intOption(arguments, "--views", 50)
        let count = intOption(arguments, "--sizes", 100)
        let repeats = intOption(arguments, "--repeats", 5)
        let engine = SceneEngine()
        var sizes: [(Double?, Double?)] = []
        for index in 0..<count {
            let width = Double(320 + index * 4)
            let height: Double? = index % 3 == 0 ? nil : Double(900 + index)
            sizes.append((width, height))
        }
        let batched = formScene(rows: views / 2, sizes: sizes)
        let separate = sizes.map { size -> [UInt8] in
            var body = String(decoding: formScene(rows: views / 2), as: UTF8.self)
            var container: [String] = []
            if let width = size.0 { container.append("\"width\":\(width)") }
            if let height = size.1 { container.append("\"height\":\(height)") }
            body = body.replacingOccurrences(of: "\"container\":{\"width\":375,\"height\":\(40 + views / 2 * 30)}", with: "\"container\":{\(container.joined(separator: ","))}")
            return Array(body.utf8)
        }
        guard solve(batched, engine: engine).status == 200 else {
            FileHandle.standardError.write(Data("sizes: the generated scene did not solve\n".utf8))
            return 1
        }
        let batchedMs = medianMilliseconds(repeats: repeats) { _ = solve(batched, engine: engine) }
        let separateMs = medianMilliseconds(repeats: repeats) { for body in separate { _ = solve(body, engine: engine) } }
        let ratio = separateMs / batchedMs
        print(String(format: "{\"bench\":\"sizes\",\"views\":%d,\"sizes\":%d,\"one_request_ms\":%.3f,\"separate_requests_ms\":%.3f,\"speedup\":%.2f,\"target_speedup\":10,\"verdict\":\"%@\"}",
                     views, count, batchedMs, separateMs, ratio, ratio >= 10 ? "met" : "missed by \(String(format: "%.1f", 10 / ratio))x"))
        return 0
    }

    /// `layoutd-bench explain [--constraints N] [--repeats R]`: a chain of N required
    /// constraints with one contradicting constraint at the end, explained (minimal set),
    /// against the same scene without the conflict.
    static func runExplain(_ arguments: [String]) -> Int32 {
        let total = intOption(arguments, "--constraints", 1000)
        let repeats = intOption(arguments, "--repeats", 5)
        let engine = SceneEngine()
        let count = max(1, total / 4)
        func chain(conflict: Bool) -> [UInt8] {
            var views: [String] = []
            var constraints: [String] = []
            for index in 0..<count {
                views.append("\"v\(index)\"")
                constraints.append(index == 0 ? "\"v0.left == 0\"" : "\"v\(index).left == v\(index - 1).right\"")
                constraints.append("\"v\(index).width == 1\"")
                constraints.append("\"v\(index).top == 0\"")
                constraints.append("\"v\(index).height == 1\"")
            }
            if conflict { constraints.append("\"v\(count - 1).right == \(count + 10)\"") }
            return Array("{\"container\":{\"width\":\(count + 100),\"height\":10},\"views\":[\(views.joined(separator: ","))],\"constraints\":[\(constraints.joined(separator: ","))]}".utf8)
        }
        let clean = chain(conflict: false)
        let conflicting = chain(conflict: true)
        let answer = solve(conflicting, engine: engine)
        let text = String(decoding: answer.body, as: UTF8.self)
        guard text.contains("unsatisfiable_constraints") else {
            FileHandle.standardError.write(Data("explain: expected a conflict\n".utf8))
            return 1
        }
        let cleanMs = medianMilliseconds(repeats: repeats) { _ = solve(clean, engine: engine) }
        let conflictMs = medianMilliseconds(repeats: repeats) { _ = solve(conflicting, engine: engine) }
        let explainMs = conflictMs - cleanMs
        print(String(format: "{\"bench\":\"explain\",\"required_constraints\":%d,\"solve_without_conflict_ms\":%.3f,\"solve_with_one_conflict_ms\":%.3f,\"explain_ms\":%.3f,\"target_explain_ms\":100,\"verdict\":\"%@\"}",
                     count * 4 + 1, cleanMs, conflictMs, explainMs, explainMs < 100 ? "met" : "missed"))
        return 0
    }

    /// `layoutd-bench engine FILE [--repeats N]`: the in-process cost of one uncached
    /// `/solve` of the scene in FILE (JSON parse, decode, cache key, compile, solve,
    /// ambiguity, serialise), median µs over N runs — the server's work without HTTP.
    ///
    /// Then the same work phase by phase (medians of separate runs, so they need not add
    /// up exactly): `prepare` (`parse`: JSON text to `JSONValue`; `decode`: a tape
    /// to a `Scene`; `canonical`: the parse into a tape that also writes the sorted JSON
    /// the key hashes, as `prepare` parses), `key` (SHA-256),
    /// `compile`, `solve` (the Cassowary solve and the ambiguity check at the
    /// container's size) and `answer` (everything of `SceneEngine.solve` but
    /// `compile` and `solve`: the response body and freeing the compiled scene).
    ///
    /// With `--structure-hit-only`, only the structure-hit phase runs (one compile, then
    /// N resizes), so a profiler sees that path alone; with `--new-scene-only`, only the
    /// N uncached solves of the first figure run. With `--new-structure-only`, N scenes
    /// of as many structures (the scene with one more metric, `benchStructure`, of
    /// another value each) go through an engine with `layoutd serve`'s default structure
    /// cache, which keeps each one and drops the oldest: a stream of uncached new
    /// structures as the server solves them, without HTTP.
    static func runEngine(_ arguments: [String]) -> Int32 {
        guard let path = arguments.first, let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("usage: layoutd-bench engine FILE [--repeats N] [--new-scene-only | --new-structure-only | --structure-hit-only]\n".utf8))
            return 2
        }
        let repeats = intOption(arguments, "--repeats", 2000)
        let body = [UInt8](data)
        if arguments.contains("--structure-hit-only") {
            let json = (try? JSONParser(maximumDepth: SceneLimits().maxJSONDepth).parse(body)) ?? .null
            print(String(format: "{\"bench\":\"engine\",\"file\":\"%@\",\"structure_hit_median_us\":%.1f}",
                         path, structureHitMicroseconds(json, repeats: repeats, limits: SceneLimits())))
            return 0
        }
        if arguments.contains("--new-structure-only") {
            let json = (try? JSONParser(maximumDepth: SceneLimits().maxJSONDepth).parse(body)) ?? .null
            let (median, p90) = newStructureMicroseconds(json, repeats: repeats)
            print(String(format: "{\"bench\":\"engine\",\"file\":\"%@\",\"new_structure_median_us\":%.1f,\"p90_us\":%.1f}", path, median, p90))
            return 0
        }
        let engine = SceneEngine()
        let first = solve(body, engine: engine)
        guard case .success(let prepared) = engine.prepare(body: body, resolveGroup: { _ in nil }) else {
            print(String(format: "{\"bench\":\"engine\",\"file\":\"%@\",\"status\":%d}", path, first.status.code))
            return 0
        }
        /// Median in microseconds.
        func median(_ work: () -> Void) -> Double { medianMilliseconds(repeats: repeats, work) * 1e3 }
        let samples = requestMicroseconds(repeatElement(body, count: repeats), engine: engine).sorted()
        if arguments.contains("--new-scene-only") {
            print(String(format: "{\"bench\":\"engine\",\"file\":\"%@\",\"status\":%d,\"median_us\":%.1f,\"p90_us\":%.1f}",
                         path, first.status.code, samples[samples.count / 2], samples[samples.count * 9 / 10]))
            return 0
        }
        let compiled = SceneCompiler(scene: prepared.scene, groups: prepared.groups, limits: engine.limits).compile()
        let prepareMicroseconds = median { _ = engine.prepare(body: body, resolveGroup: { _ in nil }) }
        let parser = JSONParser(maximumDepth: engine.limits.maxJSONDepth)
        let json = (try? parser.parse(body)) ?? .null
        let parseMicroseconds = median { _ = try? parser.parse(body) }
        // What a new scene pays: the tape the engine parses, then decoded from it.
        let tape = try? parser.parseTape(body)
        let decodeMicroseconds = median { if let tape { _ = try? SceneDecoder(limits: engine.limits).decode(tape) } }
        let canonicalMicroseconds = median { _ = try? parser.parseCanonicalTape(body) }
        let keyMicroseconds = median { _ = CacheKey.result(prepared, route: .solve) }
        let compileMicroseconds = median { _ = SceneCompiler(scene: prepared.scene, groups: prepared.groups, limits: engine.limits).compile() }
        let solveMicroseconds = median { _ = compiled.solve(size: prepared.scene.container.size) }
        let engineSolveMicroseconds = median { _ = engine.solve(prepared) }
        // The same scene at a different container width each time, through an engine that
        // keeps scene structures (as `layoutd serve` does): no compile, no base solve.
        let resizeMicroseconds = structureHitMicroseconds(json, repeats: repeats, limits: engine.limits)
        print(String(format: "{\"bench\":\"engine\",\"file\":\"%@\",\"status\":%d,\"median_us\":%.1f,\"p90_us\":%.1f,\"per_core_per_s\":%.0f,\"structure_hit_median_us\":%.1f,\"phases_us\":{\"prepare\":%.1f,\"parse\":%.1f,\"decode\":%.1f,\"canonical\":%.1f,\"key\":%.1f,\"compile\":%.1f,\"solve\":%.1f,\"answer\":%.1f}}",
                     path, first.status.code, samples[samples.count / 2], samples[samples.count * 9 / 10], 1e6 / samples[samples.count / 2], resizeMicroseconds,
                     prepareMicroseconds, parseMicroseconds, decodeMicroseconds, canonicalMicroseconds, keyMicroseconds, compileMicroseconds, solveMicroseconds,
                     max(0, engineSolveMicroseconds - compileMicroseconds - solveMicroseconds)))
        return 0
    }

    /// Median µs of `prepare`, `cacheKey` and `solve` for `scene` at `repeats` different
    /// container widths (320 + k/10,000 points) through an engine with a structure
    /// cache, after one request that fills it: the `/solve` miss of a known structure.
    static func structureHitMicroseconds(_ scene: JSONValue, repeats: Int, limits: SceneLimits) -> Double {
        guard case .object(var members) = scene else { return 0 }
        let engine = SceneEngine(limits: limits, structureCacheEntries: 16, structureCacheBytes: 64 << 20)
        let index = members.firstIndex { $0.0 == "container" }
        var container: [(String, JSONValue)] = []
        if let index, case .object(let existing) = members[index].1 { container = existing.filter { $0.0 != "width" } }
        let bodies = (0...repeats).map { k -> [UInt8] in
            members.removeAll { $0.0 == "container" }
            members.append(("container", .object(container + [("width", .number(320 + Double(k) / 10_000))])))
            var writer = JSONWriter()
            writer.value(.object(members))
            return writer.bytes
        }
        var samples = requestMicroseconds(bodies, engine: engine)
        samples.removeFirst()   // the request that compiled and solved the base
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Median and 90th percentile µs of `prepare`, `cacheKey` and `solve` for `repeats`
    /// scenes of as many structures (`scene` with the metric `benchStructure` set to
    /// 12 + k/10⁶), through an engine with ``ServiceConfiguration``'s default structure
    /// cache, as `layoutd serve` has it.
    static func newStructureMicroseconds(_ scene: JSONValue, repeats: Int) -> (median: Double, p90: Double) {
        guard case .object(var members) = scene else { return (0, 0) }
        let configuration = ServiceConfiguration()
        let engine = SceneEngine(structureCacheEntries: configuration.structureCacheEntries,
                                 structureCacheBytes: configuration.structureCacheBytes)
        let index = members.firstIndex { $0.0 == "metrics" }
        var metrics: [(String, JSONValue)] = []
        if let index, case .object(let existing) = members[index].1 { metrics = existing }
        members.removeAll { $0.0 == "metrics" }
        let bodies = (0..<repeats).map { k -> [UInt8] in
            var writer = JSONWriter()
            writer.value(.object(members + [("metrics", .object(metrics + [("benchStructure", .number(12 + Double(k) / 1e6))]))]))
            return writer.bytes
        }
        let samples = requestMicroseconds(bodies, engine: engine).sorted()
        return (samples[samples.count / 2], samples[samples.count * 9 / 10])
    }

    /// µs of `prepare`, `cacheKey` and `solve` for each of `bodies` in turn through
    /// `engine`, in their order: a `/solve` miss without HTTP.
    static func requestMicroseconds<Bodies: Sequence<[UInt8]>>(_ bodies: Bodies, engine: SceneEngine) -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(bodies.underestimatedCount)
        for body in bodies {
            let start = DispatchTime.now().uptimeNanoseconds
            if case .success(let prepared) = engine.prepare(body: body, resolveGroup: { _ in nil }) {
                _ = CacheKey.result(prepared, route: .solve)
                _ = engine.solve(prepared)
            }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
        }
        return samples
    }

    static func intOption(_ arguments: [String], _ name: String, _ defaultValue: Int) -> Int {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
            return defaultValue
        }
        return value
    }
}
