import LayoutCompiler
@testable import LayoutService
import Testing

/// The cache key is a documented function of the request (README, "Caching"): SHA-256 of
/// `"layoutd VERSION\nROUTE\n"`, the canonical scene (members sorted by name, no
/// whitespace, numbers in layoutd's form, the last of a repeated name) and
/// `"\nNAME@VERSION"` per included group. Keys must not change between builds, or a
/// stored cache would silently stop hitting.
struct SceneEngineTests {
    /// Whitespace, member order, `1.50`/`2E1`/`375.0`/`-0`, a `\u` escape and a repeated
    /// member, all of which the canonical form normalises.
    static let body = #"""
    { "views": {"b": {"intrinsicSize": {"width": 1.50, "height": 2E1}}, "a": {}},
      "container": {"width": 375.0, "height": -0},
      "constraints": ["H:|-[a]-[b]-|", {"vfl": "V:|[a][b]|", "options": ["alignAllLeading"]}, "a.width == b.width @\u0037\u00350"],
      "metrics": {"m": 1, "m": 2}, "options": {"ambiguity": "ignore"} }
    """#

    static let canonical = #"{"constraints":["H:|-[a]-[b]-|",{"options":["alignAllLeading"],"vfl":"V:|[a][b]|"},"a.width == b.width @750"],"container":{"height":0,"width":375},"metrics":{"m":2},"options":{"ambiguity":"ignore"},"views":{"a":{},"b":{"intrinsicSize":{"height":20,"width":1.5}}}}"#

    func prepared(groups: [ResolvedGroup] = []) throws -> SceneEngine.Prepared {
        guard case .success(let prepared) = SceneEngine().prepare(body: Array(Self.body.utf8), resolveGroup: { _ in nil }) else {
            throw PrepareFailed()
        }
        var withGroups = prepared
        withGroups.groups = groups
        return withGroups
    }

    struct PrepareFailed: Error {}

    @Test func canonicalForm() throws {
        #expect(String(decoding: try prepared().canonicalJSON, as: UTF8.self) == Self.canonical)
    }

    /// Expected digests from Python's hashlib over the message spelled out above
    /// (and the same value layoutd 0.1.0 stored before the hashing was made incremental).
    /// A new `layoutdVersion` changes every key on purpose: update the digests with it.
    @Test func keyIsSHA256OfTheDocumentedMessage() throws {
        #expect(SceneEngine().cacheKey(try prepared(), route: "solve") == "2248688b55863f6a56a5f221ecf156401f8f2219ba4f081b1c9adf54c99b1a4f")
        let groups = [ResolvedGroup(name: "g1", version: 2, constraints: [], metrics: [:]),
                      ResolvedGroup(name: "other", version: 7, constraints: [], metrics: [:])]
        #expect(SceneEngine().cacheKey(try prepared(groups: groups), route: "solve") == "a7cf981886234ba1a13fb5f7e33203c2f3ea43a75f804b73c5d303061a08d442")
    }
}
