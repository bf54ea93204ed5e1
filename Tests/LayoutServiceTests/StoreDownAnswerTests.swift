import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// `/solve` and `/validate` answer a scene whose groups cannot be read alike: the same
/// 503, the same `unknown_group` detail and the same `Retry-After` (the store's answer to
/// a group route), whether the scene was answered before (a front cache hit whose versions
/// must be checked) or not, and for a pinned version as for the current one.
struct StoreDownAnswerTests {
    typealias R = ReplicaRequests

    @Test func solveAndValidateKeepTheSameRetryAfter() throws {
        let cases: [(StoreError, String, String)] = [
            (.unavailable("no server"), "5", "the database is unavailable"),
            (.busy, "1", "the database is busy"),
            (.readOnly, "60", "the database is read-only"),
            (.corrupt("page 3"), "1", "the database is damaged"),
        ]
        for (error, retryAfter, reason) in cases {
            let groups = ObservedGroupStore(try SQLiteStore(path: ":memory:"))
            let router = LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: groups).makeRouter()
            #expect(R.put(router, pad: 12).status == 201)
            #expect(R.put(router, pad: 20).status == 200)   // row@2: row@1 is never read, so never kept
            // Answered once while the store is up: the repeats are front cache hits.
            #expect(R.post(router, "/solve", R.scene).status == 200)
            #expect(R.post(router, "/validate", R.scene).status == 200)
            groups.downError.withLock { $0 = error }
            groups.isDown.store(true, ordering: .relaxed)
            let unseen = R.scene.replacingOccurrences(of: "\"width\":200", with: "\"width\":300")
            let pinned = R.pinnedScene.replacingOccurrences(of: "\"width\":200", with: "\"width\":301")
            for body in [R.scene, unseen] {
                for path in ["/solve", "/validate"] {
                    let response = R.post(router, path, body)
                    #expect(response.status == 503, "\(error) \(path) \(body)")
                    #expect(response.headers["Retry-After"] == retryAfter, "\(error) \(path) \(body)")
                    #expect(response.headers["Content-Type"] == "application/problem+json")
                    let problem = try JSONParser().parse(response.body)
                    #expect(problem["title"] == .string("Service Unavailable"))
                    #expect(problem["detail"] == .string("The group store cannot be read right now: \(reason)"), "\(error) \(path)")
                }
            }
            // A pinned version not kept in memory is read from the store: the same answer.
            let solved = R.post(router, "/solve", pinned)
            let validated = R.post(router, "/validate", pinned)
            #expect(solved.status == 503)
            #expect(validated.status == 503)
            #expect(solved.headers["Retry-After"] == retryAfter)
            #expect(validated.headers["Retry-After"] == retryAfter)
            #expect(solved.body == validated.body)
        }
    }
}
