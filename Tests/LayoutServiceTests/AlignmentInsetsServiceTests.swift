import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// `alignmentInsets` through `POST /solve`: the answered frame is the alignment rectangle
/// grown by the insets, bad insets are 400/422, and scenes that differ only in the insets
/// are different cache entries.
struct AlignmentInsetsServiceTests {
    let router: Router

    init() throws {
        router = LayoutService(store: try SQLiteStore(path: ":memory:")).makeRouter()
    }

    func solve(_ body: String) -> HTTPResponse {
        router.respond(to: HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "test"], body: Array(body.utf8)))
    }

    static func scene(_ insets: String) -> String {
        #"{"container":{"width":375,"height":100},"views":{"toggle":{"intrinsicSize":{"width":49,"height":31}\#(insets)}},"constraints":["toggle.trailing == superview.trailing - 16","toggle.top == superview.top + 10"]}"#
    }

    @Test func solveAnswersTheFrameAndKeysTheInsets() throws {
        let plain = solve(Self.scene(""))
        #expect(plain.status == 200)
        #expect(String(decoding: plain.body, as: UTF8.self) == #"{"frames":{"superview":{"x":0,"y":0,"width":375,"height":100},"toggle":{"x":310,"y":10,"width":49,"height":31}},"diagnostics":[]}"#)
        let inset = solve(Self.scene(#","alignmentInsets":{"right":2}"#))
        #expect(inset.status == 200)
        #expect(inset.headers["Cache-Status"] == "layoutd; fwd=miss; stored")
        #expect(String(decoding: inset.body, as: UTF8.self) == #"{"frames":{"superview":{"x":0,"y":0,"width":375,"height":100},"toggle":{"x":310,"y":10,"width":51,"height":31}},"diagnostics":[]}"#)
    }

    @Test func badInsetsAreClientErrors() throws {
        #expect(solve(Self.scene(#","alignmentInsets":{"right":"2"}"#)).status == 400)
        #expect(solve(Self.scene(#","alignmentInsets":[2]"#)).status == 400)
        #expect(solve(Self.scene(#","alignmentInsets":{"right":1e13}"#)).status == 422)
    }
}
