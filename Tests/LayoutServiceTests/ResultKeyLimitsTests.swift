import Foundation
import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// The result cache's key carries the limits checked after it is looked up
/// (``CacheKey/limits(_:maxResponseBytes:)``): a process restarted on the same SQLite file
/// with other limits answers as a fresh process with those limits would, never an entry
/// stored under the old ones; processes with equal limits share entries.
struct ResultKeyLimitsTests {
    static let scene = #"{"container":{"width":320,"height":480},"views":["red","green"],"constraints":["H:|-[red]-[green(==red)]-|","V:|-[red]-|","V:|-[green]-|"]}"#
    static let sized = #"{"views":["red","green"],"constraints":["H:|-[red]-[green(==red)]-|","V:|-[red]-|","V:|-[green]-|"],"sizes":[{"width":100,"height":50},{"width":200,"height":50},{"width":300,"height":50}]}"#

    /// A SQLite file for one test, removed with its `-wal` and `-shm` by `body`'s end.
    static func withFile(_ body: (String) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "layoutd-limits-" + UUID().uuidString + ".db"
        defer { for suffix in ["", "-wal", "-shm", "-reserve"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try body(path)
    }

    /// Posts `body` to `/solve` of a service on `path` with `configure`'s limits, then closes
    /// its store (writing its batch of cached results).
    static func solve(_ path: String, _ body: String, headers: HTTPFields = ["Host": "t"],
                      _ configure: (inout ServiceConfiguration) -> Void = { _ in }) throws -> HTTPResponse {
        var configuration = ServiceConfiguration()
        configure(&configuration)
        let service = LayoutService(store: try SQLiteStore(path: path, diskReserveBytes: 0), configuration: configuration)
        defer { service.store.close() }
        return service.makeRouter().respond(to: HTTPRequest(method: .POST, target: "/solve", headers: headers, body: Array(body.utf8)))
    }

    static func codes(_ json: JSONValue?) -> [String] {
        guard case .array(let diagnostics)? = json?["diagnostics"] else { return [] }
        return diagnostics.compactMap { if case .string(let code)? = $0["code"] { code } else { nil } }
    }

    /// The widths of `red` in each layout of a `sizes` answer, and each layout's codes.
    static func layouts(_ response: HTTPResponse) throws -> [(red: JSONValue?, codes: [String])] {
        guard case .array(let layouts)? = try JSONParser().parse(response.body)["layouts"] else { return [] }
        return layouts.map { ($0["frames"]?["red"]?["width"], codes($0)) }
    }

    @Test func aTightWorkLimitsAnswersAreNotServedAfterARestartWithTheDefault() throws {
        try Self.withFile { path in
            let tight = try Self.solve(path, Self.sized) { $0.sceneLimits.maxSolverWork = 5 }
            #expect(tight.status == 200)
            #expect(tight.headers["Cache-Status"] == "layoutd; fwd=miss; stored")
            #expect(try Self.layouts(tight).map(\.codes) == Array(repeating: ["limit_exceeded"], count: 3))
            // Restarted with the default limits: solved again, every size framed.
            let restarted = try Self.solve(path, Self.sized)
            #expect(restarted.status == 200)
            #expect(restarted.headers["Cache-Status"] == "layoutd; fwd=miss; stored")
            let layouts = try Self.layouts(restarted)
            #expect(layouts.map(\.red) == [.number(26), .number(76), .number(126)])
            #expect(layouts.map(\.codes) == [[], [], []])
            // The tight limit again: its own entry, stored before.
            let again = try Self.solve(path, Self.sized) { $0.sceneLimits.maxSolverWork = 5 }
            #expect(again.headers["Cache-Status"] == "layoutd; hit")
            #expect(again.body == tight.body)
        }
    }

    @Test func aDefaultAnswerIsNotServedAfterARestartWithTighterLimits() throws {
        try Self.withFile { path in
            let stored = try Self.solve(path, Self.scene)
            #expect(stored.status == 200)
            #expect(stored.headers["Cache-Status"] == "layoutd; fwd=miss; stored")
            #expect(try JSONParser().parse(stored.body)["frames"]?["red"]?["width"] == .number(136))
            let tighter: [(String, (inout ServiceConfiguration) -> Void)] = [
                ("maxSolverWork", { $0.sceneLimits.maxSolverWork = 5 }),
                ("maxResponseBytes", { $0.maxResponseBytes = 100 }),
            ]
            for (limit, configure) in tighter {
                let uncached = try Self.solve(path, Self.scene, headers: ["Host": "t", "Cache-Control": "no-cache"], configure)
                #expect(uncached.status == 422, "\(limit)")
                let answered = try Self.solve(path, Self.scene, configure)
                #expect(answered.status == 422, "\(limit)")
                #expect(answered.headers["Cache-Status"] == "layoutd; fwd=miss", "\(limit)")
                #expect(answered.body == uncached.body, "\(limit)")
                #expect(try Self.codes(JSONParser().parse(answered.body)) == ["limit_exceeded"], "\(limit)")
            }
            // The default limits still find their entry.
            let hit = try Self.solve(path, Self.scene)
            #expect(hit.headers["Cache-Status"] == "layoutd; hit")
            #expect(hit.body == stored.body)
        }
    }

    @Test func theLimitsComponentIsEmptyForTheDefaultsAndFixedOtherwise() throws {
        #expect(CacheKey.limits(SceneLimits(), maxResponseBytes: SceneEngine.defaultMaxResponseBytes) == [])
        var limits = SceneLimits()
        limits.maxSolverWork = 5
        #expect(String(decoding: CacheKey.limits(limits, maxResponseBytes: SceneEngine.defaultMaxResponseBytes), as: UTF8.self)
                == "limits 5 1000 4194304 67108864\n")
        #expect(String(decoding: CacheKey.limits(SceneLimits(), maxResponseBytes: 100), as: UTF8.self)
                == "limits 100000000 1000 4194304 100\n")
        // Limits checked before the lookup are not part of it.
        var views = SceneLimits()
        views.maxViews = 3
        views.maxSizes = 2
        #expect(CacheKey.limits(views, maxResponseBytes: SceneEngine.defaultMaxResponseBytes) == [])
        // The default key is the documented one (SceneEngineTests); another limit changes it
        // and the same limits give the same key.
        let engine = SceneEngine()
        let prepared = try engine.prepare(body: Array(Self.scene.utf8), resolveGroup: { _ in nil }).get()
        let plain = CacheKey.result(prepared, route: .solve)
        #expect(CacheKey.result(prepared, route: .solve, limits: []) == plain)
        let tight = CacheKey.result(prepared, route: .solve, limits: CacheKey.limits(limits, maxResponseBytes: SceneEngine.defaultMaxResponseBytes))
        #expect(tight != plain)
        #expect(tight == CacheKey.result(prepared, route: .solve, limits: Array("limits 5 1000 4194304 67108864\n".utf8)))
    }
}
