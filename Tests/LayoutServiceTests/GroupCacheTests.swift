import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// Decoded groups kept by `NAME@VERSION` (``GroupCache``): decoded once, emptied by a
/// group write, bounded per entry.
struct GroupCacheTests {
    func solve(_ router: Router, width: Int) throws -> JSONValue {
        let scene = #"{"container":{"width":\#(width),"height":100},"views":["red"],"constraints":["V:|[red]|"],"groups":["row"]}"#
        let response = router.respond(to: HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "t"], body: Array(scene.utf8)))
        #expect(response.status == 200)
        return try JSONParser().parse(response.body)
    }

    @Test func aGroupIsDecodedOnceAndAWriteEmptiesTheCache() throws {
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"))
        let router = service.makeRouter()
        let put = HTTPRequest(method: .PUT, target: "/groups/row", headers: ["Host": "t"],
                              body: Array(#"{"constraints":["H:|-pad-[red]-pad-|"],"metrics":{"pad":12}}"#.utf8))
        #expect(router.respond(to: put).status == 201)
        #expect(service.groupCache.usage.entries == 0)
        #expect(try solve(router, width: 200)["frames"]?["red"]?["width"] == .number(176))
        let stored = try #require(try service.store.group(named: "row"))
        let cost = "row@1".utf8.count + stored.constraintsJSON.utf8.count + stored.metricsJSON.utf8.count
        #expect(service.groupCache.usage.entries == 1)
        #expect(service.groupCache.usage.bytes == cost)
        // Another size: the front cache misses, the group comes from the group cache.
        #expect(try solve(router, width: 300)["frames"]?["red"]?["width"] == .number(276))
        #expect(service.groupCache.usage.entries == 1)
        #expect(service.groupCache.usage.bytes == cost)
        let replace = HTTPRequest(method: .PUT, target: "/groups/row", headers: ["Host": "t"],
                                  body: Array(#"{"constraints":["H:|-pad-[red]-pad-|"],"metrics":{"pad":50}}"#.utf8))
        #expect(router.respond(to: replace).status == 200)
        #expect(service.groupCache.usage.entries == 0)
        #expect(try solve(router, width: 300)["frames"]?["red"]?["width"] == .number(200))
        #expect(service.groupCache.usage.entries == 1)
    }

    @Test func decodesOncePerVersionAndKeepsNothingOverAnEighthOfTheBound() throws {
        let cache = GroupCache()
        var decoded = 0
        func decode() -> ResolvedGroup {
            decoded += 1
            return ResolvedGroup(name: "g", version: 1, constraints: [], metrics: [:])
        }
        _ = cache.group(name: "g", version: 1, current: 1, jsonBytes: 10, decode: decode)
        _ = cache.group(name: "g", version: 1, current: 1, jsonBytes: 10, decode: decode)
        #expect(decoded == 1)
        _ = cache.group(name: "g", version: 2, current: 2, jsonBytes: 10, decode: decode)
        #expect(decoded == 2)
        #expect(cache.usage.entries == 2)
        #expect(cache.usage.bytes == 2 * ("g@1".utf8.count + 10))
        // Over maxBytes / 8 (2 MiB with the key): decoded every time, never kept.
        let big = GroupCache.maxBytes / 8
        _ = cache.group(name: "h", version: 1, current: 1, jsonBytes: big, decode: decode)
        _ = cache.group(name: "h", version: 1, current: 1, jsonBytes: big, decode: decode)
        #expect(decoded == 4)
        #expect(cache.usage.entries == 2)
        // Entries stay within the capacity however many versions are asked for.
        for version in 1...(GroupCache.capacity + 10) {
            _ = cache.group(name: "many", version: version, current: version, jsonBytes: 1, decode: decode)
        }
        #expect(cache.usage.entries <= GroupCache.capacity)
    }
}
