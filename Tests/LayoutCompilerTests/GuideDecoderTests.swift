import LayoutCompiler
import LayoutSyntax
import Testing

/// `guides` and `container.safeArea` in the decoder (contract, "Layout guides and the
/// safe area"): the 422 `invalid_scene` name rules and the 400 shapes, with their
/// messages and JSON paths.
struct GuideDecoderTests {
    func rejection(_ json: String) -> SceneRejection? {
        do {
            _ = try SceneDecoder().decode(body: Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func guidesAreSortedWithTheirOwners() throws {
        let scene = try SceneDecoder().decode(body: Array(#"""
        {"views":{"card":{}},"guides":{"z":{"owner":"card"},"a":{},"m":{"owner":"superview"}},
         "container":{"safeArea":{"top":47,"bottom":34}}}
        """#.utf8))
        #expect(scene.guides == [GuideSpec(name: "a"), GuideSpec(name: "m"), GuideSpec(name: "z", owner: "card")])
        #expect(scene.container.safeArea == Insets(top: 47, left: 0, bottom: 34, right: 0))
        // Margins keep their default of 8 a side.
        #expect(scene.container.margins == Insets())
        let hierarchy = ViewHierarchy(views: scene.views, guides: scene.guides)
        #expect(hierarchy.names == ["superview", "card", "a", "m", "z", "safeArea"])
        #expect(hierarchy.parents == [0, 0, 0, 0, 1, 0])
        #expect(hierarchy.count == 2)
        #expect(hierarchy.guides == 2..<5)
        #expect(hierarchy.safeArea == 5)
        #expect(hierarchy.viewNames == ["superview", "card"])
        #expect(hierarchy.isLayoutGuide(named: "safeArea") && hierarchy.isLayoutGuide(named: "z"))
        #expect(!hierarchy.isLayoutGuide(named: "card") && !hierarchy.isLayoutGuide(named: "superview"))
    }

    /// ``ViewHierarchy/index(of:)`` finds every item by name, whether the views and guides
    /// come sorted (as the decoder gives them: bisection) or not (a table), with the same
    /// answers: `superview` 0, `safeArea` last, unknown and non-ASCII names `nil`.
    @Test func namesAreFoundSortedOrNot() {
        let views = [ViewSpec(name: "b"), ViewSpec(name: "d", parent: "b"), ViewSpec(name: "f")]
        let guides = [GuideSpec(name: "a"), GuideSpec(name: "c", owner: "d"), GuideSpec(name: "e")]
        let sorted = ViewHierarchy(views: views, guides: guides)
        #expect(sorted.names == ["superview", "b", "d", "f", "a", "c", "e", "safeArea"])
        #expect(sorted.parents == [0, 0, 1, 0, 0, 2, 0, 0])
        let unsorted = ViewHierarchy(views: views.reversed(), guides: guides.reversed())
        #expect(unsorted.names == ["superview", "f", "d", "b", "e", "c", "a", "safeArea"])
        #expect(unsorted.parents == [0, 0, 3, 0, 0, 2, 0, 0])
        for hierarchy in [sorted, unsorted] {
            for (index, name) in hierarchy.names.enumerated() { #expect(hierarchy.index(of: name) == index) }
            for name in ["", "g", "B", "aa", "superviews", "safearea", "b\u{301}"] { #expect(hierarchy.index(of: name) == nil) }
        }
    }

    @Test("422 invalid_scene for a guide's name or owner", arguments: [
        (#"{"views":["a"],"guides":{"g":{"owner":"b"}}}"#, "Layout guide 'g' names an unknown owner 'b'", "$.guides.g.owner"),
        (#"{"views":["a"],"guides":{"a":{}}}"#, "Layout guide 'a' has the name of a view: guides and views share one namespace", "$.guides.a"),
        (#"{"guides":{"safeArea":{}}}"#, "'safeArea' is reserved (the container's safe-area layout guide) and cannot name a layout guide", "$.guides.safeArea"),
        (#"{"guides":{"superview":{}}}"#, "'superview' is reserved (the container) and cannot name a layout guide", "$.guides.superview"),
        (#"{"guides":{"9g":{}}}"#, "Layout guide name '9g' is invalid: names match [A-Za-z_][A-Za-z0-9_]*", "$.guides[\"9g\"]"),
        (#"{"views":["safeArea"]}"#, "'safeArea' is reserved for the container's safe-area layout guide and cannot name a view", "$.views[0]"),
        (#"{"guides":{"g":{},"h":{"owner":"g"}}}"#, "Layout guide 'h' names the layout guide 'g' as its owner: an owner is a view", "$.guides.h.owner"),
        (#"{"guides":{"h":{"owner":"safeArea"}}}"#, "Layout guide 'h' names the layout guide 'safeArea' as its owner: an owner is a view", "$.guides.h.owner"),
    ])
    func invalidGuide(_ json: String, _ message: String, _ path: String) throws {
        let rejected = try #require(rejection(json))
        #expect(rejected.reason == .invalid)
        #expect(rejected.diagnostics.map(\.message) == [message])
        #expect(rejected.diagnostics.map(\.code) == [.invalidScene])
        #expect(rejected.diagnostics.first?.path == path)
    }

    @Test func aGuideNameOver256CharactersIsRejected() throws {
        let name = String(repeating: "g", count: 257)
        let rejected = try #require(rejection("{\"guides\":{\"\(name)\":{}}}"))
        #expect(rejected.reason == .invalid)
        #expect(rejected.diagnostics.first?.message.hasPrefix("Layout guide name '") == true)
        #expect(rejected.diagnostics.first?.message.hasSuffix("is 257 characters long; names are at most 256 characters (limit maxNameLength)") == true)
    }

    @Test("400 invalid_scene for a guide of the wrong shape", arguments: [
        (#"{"guides":["g"]}"#, "Expected an object of name → layout guide at $.guides, found an array", "$.guides"),
        (#"{"guides":{"g":3}}"#, "Expected an object (a layout guide: {\"owner\": VIEW}) at $.guides.g, found a number", "$.guides.g"),
        (#"{"guides":{"g":{"owner":1}}}"#, "Expected a view name (a string) at $.guides.g.owner, found a number", "$.guides.g.owner"),
        (#"{"guides":{"g":{"parent":"a"}}}"#, "Unknown field 'parent' at $.guides.g", "$.guides.g.parent"),
        (#"{"container":{"safeArea":{"top":"47"}}}"#, "Expected a number (points) at $.container.safeArea.top, found a string", "$.container.safeArea.top"),
        (#"{"container":{"safeArea":[]}}"#, "Expected an object {top, left, bottom, right} at $.container.safeArea, found an array", "$.container.safeArea"),
    ])
    func malformedGuide(_ json: String, _ message: String, _ path: String) throws {
        let rejected = try #require(rejection(json))
        #expect(rejected.reason == .malformed)
        #expect(rejected.diagnostics.first.map { $0.message.hasPrefix(message) } == true, "\(rejected.diagnostics.map(\.message))")
        #expect(rejected.diagnostics.first?.path == path)
    }

    @Test func guidesCountTowardsTheViewLimit() throws {
        var limits = SceneLimits()
        limits.maxViews = 2
        do {
            _ = try SceneDecoder(limits: limits).decode(body: Array(#"{"views":["a"],"guides":{"g":{},"h":{}}}"#.utf8))
            Issue.record("3 views and guides passed a limit of 2")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["The scene has 1 views and 2 layout guides; at most 2 together are allowed (limit maxViews)"])
            #expect(error.diagnostics.map(\.code) == [.limitExceeded])
        }
    }
}
