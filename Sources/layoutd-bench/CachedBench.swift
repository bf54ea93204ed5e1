// `layoutd-bench cached`: the in-process cost of a /solve answered from the caches, through
// the same router `layoutd serve` answers with (no sockets).
import Dispatch
import Foundation
import HTTP1
import LayoutService
import LayoutStore

enum CachedBench {
    /// `layoutd-bench cached FILE [--repeats N]`: one `POST /solve` of FILE's scene to fill
    /// the caches (an in-memory SQLite result cache and the front cache of whole answers),
    /// then N more of the same body, each a front-cache hit: hashing the body, one lookup,
    /// the response. Prints the median µs of a hit and the status of both answers. Under
    /// callgrind, `--toggle-collect='*CachedBench*hits*'` counts the hits alone.
    static func run(_ arguments: [String]) -> Int32 {
        guard let path = arguments.first, let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("usage: layoutd-bench cached FILE [--repeats N]\n".utf8))
            return 2
        }
        let repeats = SceneBench.intOption(arguments, "--repeats", 2000)
        let store: SQLiteStore
        do { store = try SQLiteStore(path: ":memory:") } catch {
            FileHandle.standardError.write(Data("cached: \(error)\n".utf8))
            return 1
        }
        let router = LayoutService(store: store).makeRouter()
        let request = HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "bench", "Content-Type": "application/json"],
                                  body: [UInt8](data))
        let first = router.respond(to: request)
        let samples = hits(router, request, repeats)
        let last = router.respond(to: request)
        guard last.body == first.body else {
            FileHandle.standardError.write(Data("cached: a hit answered other bytes than the first request\n".utf8))
            return 1
        }
        print(String(format: "{\"bench\":\"cached\",\"file\":\"%@\",\"status\":%d,\"repeats\":%d,\"hit_median_us\":%.2f,\"hit_p90_us\":%.2f}",
                     path, first.status.code, repeats, samples[samples.count / 2], samples[samples.count * 9 / 10]))
        return 0
    }

    /// µs of each of `repeats` cached answers, sorted.
    @inline(never)
    static func hits(_ router: Router, _ request: HTTPRequest, _ repeats: Int) -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(repeats)
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = router.respond(to: request)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3)
        }
        return samples.sorted()
    }
}
