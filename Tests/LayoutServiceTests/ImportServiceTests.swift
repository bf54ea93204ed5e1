import HTTP1
import InterfaceBuilder
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing

/// `POST /import` through the router (no sockets) and `layoutd lint`'s problems, on small
/// documents written here.
struct ImportServiceTests {
    let router: Router

    init() throws {
        router = LayoutService(store: try SQLiteStore(path: ":memory:")).makeRouter()
    }

    /// The element at `index` of a JSON array (nil for anything else).
    static func item(_ value: JSONValue?, _ index: Int) -> JSONValue? {
        guard case .array(let elements)? = value, index < elements.count else { return nil }
        return elements[index]
    }

    func post(_ target: String, _ body: String, contentType: String? = "application/xml", accept: String? = nil) -> HTTPResponse {
        Self.post(router, target, body, contentType: contentType, accept: accept)
    }

    static func post(_ router: Router, _ target: String, _ body: String, contentType: String? = "application/xml",
                     accept: String? = nil) -> HTTPResponse {
        var fields: HTTPFields = ["Host": "test"]
        if let contentType { fields.append("Content-Type", contentType) }
        if let accept { fields.append("Accept", accept) }
        return router.respond(to: HTTPRequest(method: .POST, target: target, headers: fields, body: Array(body.utf8)))
    }

    /// A 320 × 100 root (line 4) with a view `box` (line 6) pinned by four constraints
    /// (lines 9–12) at 16, 20, 288 × 60, recorded at `recordedX`.
    static func document(recordedX: Int = 16, device: String = "retina4_7") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
        <device id="\(device)" orientation="portrait"/><objects>
        <view id="root-1"><rect key="frame" x="0" y="0" width="320" height="100"/>
        <subviews>
        <view userLabel="box" translatesAutoresizingMaskIntoConstraints="NO" id="box-1"><rect key="frame" x="\(recordedX)" y="20" width="288" height="60"/></view>
        </subviews>
        <constraints>
        <constraint firstItem="box-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" constant="16" id="c-1"/>
        <constraint firstItem="box-1" firstAttribute="top" secondItem="root-1" secondAttribute="top" constant="20" id="c-2"/>
        <constraint firstItem="root-1" firstAttribute="trailing" secondItem="box-1" secondAttribute="trailing" constant="16" id="c-3"/>
        <constraint firstItem="box-1" firstAttribute="height" constant="60" id="c-4"/>
        </constraints>
        </view></objects></document>
        """
    }

    @Test func importAnswersTheHierarchyAndItsFrames() throws {
        let response = post("/import?solve=true", Self.document())
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        let json = try JSONParser().parse(response.body)
        let hierarchy = try #require(Self.item(json["hierarchies"], 0))
        #expect(hierarchy["ids"] == .object([("superview", .string("root-1")), ("box", .string("box-1"))]))
        #expect(hierarchy["frames"]?["box"] == .object([("x", .number(16)), ("y", .number(20)), ("width", .number(288)), ("height", .number(60))]))
        #expect(hierarchy["misplaced"] == .array([]))
        #expect(json["diagnostics"] == .array([]))
    }

    /// Recorded at x 17 on a 2× device: a whole point (two pixels) from where it belongs.
    @Test func aStaleFrameIsMisplacedAndLinted() throws {
        let response = post("/import?solve=true", Self.document(recordedX: 17))
        let misplaced = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0)?["misplaced"])
        #expect(misplaced == .array([.object([
            ("view", .string("box")), ("ibId", .string("box-1")),
            ("recorded", .object([("x", .number(17)), ("y", .number(20)), ("width", .number(288)), ("height", .number(60))])),
            ("solved", .object([("x", .number(16)), ("y", .number(20)), ("width", .number(288)), ("height", .number(60))])),
        ])]))
        let outcome = try SceneEngine().importDocument(Array(Self.document(recordedX: 17).utf8), request: ImportRequest(solves: true))
        #expect(LayoutdCommand.lintProblems(outcome).map { $0.rendered(file: "Box.xib") } == [
            #"Box.xib:6: warning: view: box: Frame for "box" will be different at run time: recorded 17,20 288×60, at run time 16,20 288×60"#,
        ])
    }

    /// The lint lines of `document` named `Box.xib`.
    static func lint(_ document: String) throws -> [String] {
        let outcome = try SceneEngine().importDocument(Array(document.utf8), request: ImportRequest(solves: true))
        return LayoutdCommand.lintProblems(outcome).map { $0.rendered(file: "Box.xib") }
    }

    /// A constraint naming an id no element has: the hierarchy's `invalid_document` warning
    /// is a lint line at the constraint's line (12), on its owner, without "Line 12: " (the
    /// box's height, left free, is its recorded one: no ambiguity line).
    @Test func aFaultOfTheDocumentIsLinted() throws {
        let document = Self.document().replacingOccurrences(of: #"firstItem="box-1" firstAttribute="height""#, with: #"firstItem="ZZZ" firstAttribute="height""#)
        #expect(try Self.lint(document) == [
            "Box.xib:12: warning: view: superview: Constraint c-4 names ZZZ, which no element of the document has; it is left out",
        ])
    }

    /// Two constraints with one id (`c-3`, lines 11 and 12): the second is an
    /// `invalid_document` warning of the hierarchy of the view owning it (the root), at its
    /// line, as a view given another's id is.
    @Test func aConstraintIdGivenTwiceIsAFault() throws {
        let document = Self.document().replacingOccurrences(of: #"constant="60" id="c-4""#, with: #"constant="60" id="c-3""#)
        let json = try JSONParser().parse(post("/import?solve=true", document).body)
        let message = "The id c-3 is given to another element too (line 11): both <constraint> elements are read"
        #expect(Self.item(json["hierarchies"], 0)?["diagnostics"] == .array([
            .object([("severity", .string("warning")), ("code", .string("invalid_document")),
                     ("message", .string("Line 12: " + message)), ("line", .number(12))]),
        ]))
        #expect(try Self.lint(document) == ["Box.xib:12: warning: view: superview: " + message])
    }

    /// Xcode's `verifyAmbiguity`: `off` (the scroll view `scroll`, line 6) hides every
    /// ambiguity of the view and of the guides it owns (lines 7, 8); `ignoreSizes` hides
    /// width and height (`box`, line 9, pinned at its top left only, is not listed) but not
    /// the position (`free`, line 10, pinned at its left only, lacks its Y position), which
    /// is checked with the size held: `corner` (line 12), pinned at its bottom right only,
    /// is not listed. `plain` (line 11), without the attribute, is listed whole. The solved
    /// answer keeps every ambiguity: `verifyAmbiguity` only filters what lint lists.
    @Test func verifyAmbiguityHidesWhatXcodeHides() throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
            <device id="retina4_7" orientation="portrait"/><objects>
            <view id="root-1"><rect key="frame" x="0" y="0" width="320" height="200"/>
            <subviews>
            <scrollView userLabel="scroll" verifyAmbiguity="off" ambiguous="YES" translatesAutoresizingMaskIntoConstraints="NO" id="scroll-1"><rect key="frame" x="0" y="0" width="320" height="100"/>
            <viewLayoutGuide key="contentLayoutGuide" id="content-1"/>
            <viewLayoutGuide key="frameLayoutGuide" id="frame-1"/></scrollView>
            <view userLabel="box" verifyAmbiguity="ignoreSizes" ambiguous="YES" translatesAutoresizingMaskIntoConstraints="NO" id="box-1"><rect key="frame" x="10" y="120" width="50" height="50"/></view>
            <view userLabel="free" verifyAmbiguity="ignoreSizes" ambiguous="YES" translatesAutoresizingMaskIntoConstraints="NO" id="free-1"><rect key="frame" x="100" y="120" width="50" height="50"/></view>
            <view userLabel="plain" ambiguous="YES" translatesAutoresizingMaskIntoConstraints="NO" id="plain-1"><rect key="frame" x="200" y="120" width="50" height="50"/></view>
            <view userLabel="corner" verifyAmbiguity="ignoreSizes" ambiguous="YES" translatesAutoresizingMaskIntoConstraints="NO" id="corner-1"><rect key="frame" x="260" y="140" width="50" height="50"/></view>
            </subviews>
            <constraints>
            <constraint firstItem="scroll-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" id="c-1"/>
            <constraint firstItem="scroll-1" firstAttribute="top" secondItem="root-1" secondAttribute="top" id="c-2"/>
            <constraint firstItem="root-1" firstAttribute="trailing" secondItem="scroll-1" secondAttribute="trailing" id="c-3"/>
            <constraint firstItem="box-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" constant="10" id="c-4"/>
            <constraint firstItem="box-1" firstAttribute="top" secondItem="root-1" secondAttribute="top" constant="120" id="c-5"/>
            <constraint firstItem="free-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" constant="100" id="c-6"/>
            <constraint firstItem="plain-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" constant="200" id="c-7"/>
            <constraint firstItem="plain-1" firstAttribute="top" secondItem="root-1" secondAttribute="top" constant="120" id="c-8"/>
            <constraint firstItem="root-1" firstAttribute="trailing" secondItem="corner-1" secondAttribute="trailing" constant="10" id="c-9"/>
            <constraint firstItem="root-1" firstAttribute="bottom" secondItem="corner-1" secondAttribute="bottom" constant="10" id="c-10"/>
            </constraints>
            </view></objects></document>
            """
        #expect(try Self.lint(document) == [
            "Box.xib:10: error: view: free: Need constraints for: Y position",
            "Box.xib:11: error: view: plain: Need constraints for: width, height",
        ])
        let outcome = try SceneEngine().importDocument(Array(document.utf8), request: ImportRequest(solves: true))
        let ambiguous = try #require(outcome.solved.first).diagnostics.filter { $0.code == .ambiguousLayout }
        #expect(ambiguous.map { "\($0.view ?? "") \($0.attribute ?? "")" } == [
            "box width", "box height", "corner x", "corner y", "corner width", "corner height", "free y", "free width", "free height", "plain width", "plain height",
            "scroll height", "scrollContentLayoutGuide width", "scrollContentLayoutGuide height", "scrollFrameLayoutGuide height",
        ])
    }

    /// A top-level view without `<rect key="frame">` (line 4 here) starts no hierarchy: the
    /// answer's top-level `diagnostics` and `layoutd lint` say so at its line, and the views
    /// that have frames are imported as before.
    @Test func framelessRootsAreReported() throws {
        let frameless = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
            <objects><placeholder placeholderIdentifier="IBFilesOwner" id="-1"/><customObject id="obj-1"/>
            <view id="root-0"><subviews/></view>
            <label text="Hi" id="lab-0"/>
            <view id="root-1"><rect key="frame" x="0" y="0" width="320" height="100"/></view>
            </objects></document>
            """
        let response = post("/import", frameless)
        #expect(response.status == 200)
        let json = try JSONParser().parse(response.body)
        #expect(Self.item(json["hierarchies"], 0)?["ibId"] == .string("root-1"))
        #expect(Self.item(json["hierarchies"], 1) == nil)
        let message = ", so it is not imported: Xcode records one for every view when it saves the document"
        #expect(json["diagnostics"] == .array([
            .object([("severity", .string("warning")), ("code", .string("invalid_document")),
                     ("message", .string("Line 4: The top-level view root-0 records no frame (<rect key=\"frame\">)" + message)), ("line", .number(4))]),
            .object([("severity", .string("warning")), ("code", .string("invalid_document")),
                     ("message", .string("Line 5: The top-level label lab-0 records no frame (<rect key=\"frame\">)" + message)), ("line", .number(5))]),
        ]))
        #expect(try Self.lint(frameless) == [
            "Box.xib:4: warning: The top-level view root-0 records no frame (<rect key=\"frame\">)" + message,
            "Box.xib:5: warning: The top-level label lab-0 records no frame (<rect key=\"frame\">)" + message,
        ])
    }

    /// An error of the generated scene about a constraint is at the `<constraint>`'s line
    /// (12) and on the view it names first, not at the root.
    @Test func aSceneErrorIsAtItsConstraintsElement() throws {
        let document = Self.document().replacingOccurrences(of: #"firstItem="box-1" firstAttribute="height""#, with: #"firstItem="box-1" firstAttribute="bogus""#)
        #expect(try Self.lint(document) == ["Box.xib:12: error: view: box: Unknown attribute 'bogus'"])
    }

    /// A document that cannot be imported: one error at its line, the line written once;
    /// an empty document at line 1.
    @Test func aRefusedDocumentIsLintedAtItsLine() throws {
        let broken = Self.document().replacingOccurrences(of: #"constant="60" id="c-4""#, with: #"constant="6x" id="c-4""#)
        let failure = try #require(throws: EngineFailure.self) { try SceneEngine().importDocument(Array(broken.utf8), request: ImportRequest(solves: true)) }
        #expect(LayoutdCommand.lintProblems(failure: failure.diagnostics).map { $0.rendered(file: "Box.xib") } == [#"Box.xib:12: error: Malformed constant "6x""#])
        let empty = try #require(throws: EngineFailure.self) { try SceneEngine().importDocument([], request: ImportRequest(solves: true)) }
        #expect(empty.diagnostics.map(\.line) == [1])
        let problems = LayoutdCommand.lintProblems(failure: empty.diagnostics)
        #expect(problems.map { $0.rendered(file: "empty.xib") } == ["empty.xib:1: error: The document is empty"])
        #expect(problems.map { $0.json(file: "empty.xib") } == [.object([
            ("file", .string("empty.xib")), ("line", .number(1)), ("severity", .string("error")),
            ("hierarchy", .null), ("view", .null), ("message", .string("The document is empty")),
        ])])
    }

    @Test func anotherDeviceTakesItsWidthAndScale() throws {
        // The root is as wide as no screen, so it keeps its width; the scale is the new device's.
        let json = try JSONParser().parse(post("/import?device=retina6_1&solve=true", Self.document()).body)
        #expect(json["document"]?["device"]?["id"] == .string("retina6_1"))
        #expect(json["document"]?["recordedDevice"]?["id"] == .string("retina4_7"))
        #expect(Self.item(json["hierarchies"], 0)?["scene"]?["options"]?["displayScale"] == .number(2))
        #expect(Self.item(json["hierarchies"], 0)?["misplaced"] == .array([]))
        // A root as wide as the recorded screen (375 on retina4_7) takes the new width.
        let wide = Self.document().replacingOccurrences(of: #"width="320" height="100""#, with: #"width="375" height="100""#)
        let moved = try JSONParser().parse(post("/import?device=retina6_1&solve=true", wide).body)
        #expect(Self.item(moved["hierarchies"], 0)?["frames"]?["box"]?["width"] == .number(414 - 32))
    }

    @Test func refusals() throws {
        let unknown = post("/import?device=nokia", Self.document())
        #expect(unknown.status == 400)
        let detail = try JSONParser().parse(unknown.body)["detail"]
        #expect(detail == .string("device='nokia' is not allowed: use one of " + ["ipad10_2", "ipad10_5", "ipad10_9rounded", "ipad11_0rounded", "ipad12_9",
            "ipad12_9rounded", "ipad7_9", "ipad9_7", "retina3_5", "retina4_0", "retina4_7", "retina5_4", "retina5_5", "retina5_9", "retina6_0",
            "retina6_1", "retina6_12", "retina6_3", "retina6_5", "retina6_54", "retina6_7", "retina6_72", "retina6_9"].joined(separator: ", ")))
        #expect(post("/import", Self.document(), contentType: "application/json").status == 415)
        #expect(post("/import", Self.document(), contentType: nil).status == 200)
        #expect(post("/import", Self.document(), contentType: "text/xml; charset=utf-8").status == 200)
        let broken = post("/import", Self.document().replacingOccurrences(of: #"constant="60" id="c-4""#, with: #"constant="6x" id="c-4""#))
        #expect(broken.status == 422)
        let problem = try JSONParser().parse(broken.body)
        #expect(problem["type"] == .string("urn:layoutd:problem:invalid-document"))
        #expect(Self.item(problem["diagnostics"], 0)?["line"] == .number(12))
        #expect(Self.item(problem["diagnostics"], 0)?["message"] == .string(#"Line 12: Malformed constant "6x""#))
    }

    /// A numeric attribute that is not a finite number is a 422 naming its line, never a 0.
    @Test func nonFiniteNumbersAreRefusedNamingTheLine() throws {
        for (value, shown) in [("NaN", "NaN"), ("1e309", "1e309"), ("abc", "abc")] {
            let response = post("/import", Self.document().replacingOccurrences(of: #"width="288""#, with: "width=\"\(value)\""))
            #expect(response.status == 422)
            let problem = try JSONParser().parse(response.body)
            #expect(problem["type"] == .string("urn:layoutd:problem:invalid-document"))
            #expect(Self.item(problem["diagnostics"], 0)?["line"] == .number(6))
            #expect(Self.item(problem["diagnostics"], 0)?["message"] == .string("Line 6: Malformed <rect> width \"\(shown)\""))
        }
    }

    /// `/import?format=svg` sends `/solve?format=svg`'s Content-Security-Policy and, with
    /// `?intrinsic=measured`, draws the labels' lines as `/solve`'s wireframe does.
    @Test func wireframeHasThePolicyAndTheLabelsText() throws {
        let labelled = Self.document().replacingOccurrences(
            of: #"<view userLabel="box" translatesAutoresizingMaskIntoConstraints="NO" id="box-1">"#,
            with: #"<label userLabel="box" text="Hello there" translatesAutoresizingMaskIntoConstraints="NO" id="box-1">"#)
            .replacingOccurrences(of: #"height="60"/></view>"#, with: #"height="60"/><fontDescription key="fontDescription" type="system" pointSize="17"/></label>"#)
        let response = post("/import?format=svg&intrinsic=measured", labelled)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "image/svg+xml; charset=utf-8")
        #expect(response.headers["Content-Security-Policy"] == PlaygroundPage.wireframePolicy)
        let svg = String(decoding: response.body, as: UTF8.self)
        #expect(svg.contains(#"<g class="text" data-view="box" data-lines="1" data-truncated="false""#))
        #expect(svg.contains(">Hello there</text>"))
        let recorded = post("/import?format=svg", labelled)
        #expect(recorded.status == 200)
        #expect(recorded.headers["Content-Security-Policy"] == PlaygroundPage.wireframePolicy)
        #expect(!String(decoding: recorded.body, as: UTF8.self).contains(#"<g class="text""#))
    }

    /// `Accept` chooses JSON or the drawing as on `/solve`: `image/svg+xml` ranked strictly
    /// above `application/json` draws; a tie, `*/*` or no acceptable type answers JSON
    /// (never 406, as `/solve`); `format` wins over `Accept`. Both carry `Vary: Accept`.
    @Test func acceptChoosesTheDrawingAsOnSolve() throws {
        let drawn = post("/import", Self.document(), accept: "image/svg+xml")
        #expect(drawn.status == 200)
        #expect(drawn.headers["Content-Type"] == "image/svg+xml; charset=utf-8")
        #expect(drawn.headers["Content-Security-Policy"] == PlaygroundPage.wireframePolicy)
        #expect(drawn.headers["Vary"] == "Accept")
        #expect(drawn.body == post("/import?format=svg", Self.document()).body)
        let ranked = post("/import", Self.document(), accept: "application/json;q=0.5, image/svg+xml")
        #expect(ranked.headers["Content-Type"] == "image/svg+xml; charset=utf-8")
        for accept in ["application/json", "*/*", "image/svg+xml, application/json", "text/html"] {
            let json = post("/import", Self.document(), accept: accept)
            #expect(json.status == 200, "\(accept)")
            #expect(json.headers["Content-Type"] == "application/json", "\(accept)")
            #expect(json.headers["Vary"] == "Accept", "\(accept)")
            let solved = router.respond(to: HTTPRequest(method: .POST, target: "/solve",
                                                        headers: ["Host": "test", "Accept": accept], body: Array(#"{"views":{}}"#.utf8)))
            #expect(solved.status == 200, "\(accept)")
            #expect(solved.headers["Content-Type"] == "application/json", "\(accept)")
        }
        let forced = post("/import?format=json", Self.document(), accept: "image/svg+xml")
        #expect(forced.headers["Content-Type"] == "application/json")
        #expect(try ImportRequest.parse(query: nil, accept: "image/svg+xml") == ImportRequest(drawsWireframe: true))
        #expect(try ImportRequest.parse(query: "format=json", accept: "image/svg+xml") == ImportRequest())
        #expect(try ImportRequest.parse(query: "solve=1", accept: "image/*;q=0.9, application/json;q=0.8")
                == ImportRequest(solves: true, drawsWireframe: true))
    }

    /// `curl --data-binary @file.xib` sends curl's default `application/x-www-form-urlencoded`:
    /// the body is read as the document all the same, as `/solve` reads such a body as
    /// JSON; a body that is not a document is the usual 422 `invalid_document`.
    @Test func curlsDefaultContentTypeIsReadAsTheDocument() throws {
        let form = post("/import", Self.document(), contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 200)
        #expect(form.body == post("/import", Self.document()).body)
        let notXML = post("/import", "a=1&b=2", contentType: "application/x-www-form-urlencoded")
        #expect(notXML.status == 422)
        let diagnostics = try #require(try JSONParser().parse(notXML.body)["diagnostics"]?.arrayValue)
        #expect(diagnostics.map { $0["code"] } == [.string("invalid_document")])
        let solved = router.respond(to: HTTPRequest(method: .POST, target: "/solve",
                                                    headers: ["Host": "test", "Content-Type": "application/x-www-form-urlencoded"],
                                                    body: Array(#"{"views":{}}"#.utf8)))
        #expect(solved.status == 200)
        let html = post("/import", Self.document(), contentType: "text/html")
        #expect(html.status == 415)
        #expect(html.headers["Accept-Post"] == "application/xml, text/xml, application/octet-stream")
    }

    /// A scene `/solve` would refuse for a limit is imported with a note naming the limit
    /// and its flag; sent to `/solve` of the same service it is the 422 the note quotes.
    @Test func scenesBeyondSolveLimitsSayWhich() throws {
        var configuration = ServiceConfiguration()
        configuration.sceneLimits.maxConstraints = 3
        configuration.maxBodyBytes = 100
        let router = LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration).makeRouter()
        let response = Self.post(router, "/import", Self.document())
        #expect(response.status == 200)
        let hierarchy = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0))
        let scene = try #require(hierarchy["scene"])
        var writer = JSONWriter()
        writer.value(scene)
        let sceneBytes = writer.bytes
        #expect(sceneBytes.count > 100)
        let notes = try #require(hierarchy["notes"]?.arrayValue)
        #expect(notes.suffix(2) == [
            .string("/solve would refuse this scene (413): it is \(sceneBytes.count) bytes as JSON, more than the 100 a request body may have (limit maxBodyBytes, --max-body-bytes)"),
            .string("/solve would refuse this scene (422 limit_exceeded): The scene has 4 constraints; at most 3 are allowed (limit maxConstraints): raise it with --max-constraints"),
        ])
        let solved = router.respond(to: HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "test"], body: sceneBytes))
        #expect(solved.status == 422)
        let diagnostics = try #require(try JSONParser().parse(solved.body)["diagnostics"]?.arrayValue)
        #expect(diagnostics.map { $0["code"] } == [.string("limit_exceeded")])
        #expect(diagnostics.first?["message"] == .string("The scene has 4 constraints; at most 3 are allowed (limit maxConstraints)"))
        // Within the limits: no such note.
        let within = try #require(Self.item(try JSONParser().parse(post("/import", Self.document()).body)["hierarchies"], 0))
        #expect(within["notes"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("/solve would refuse") == true } == false)
        #expect(SceneEngine.solveLimitNotes(scene, limits: SceneLimits(), maxBodyBytes: sceneBytes.count) == [])
        var shallow = SceneLimits()
        shallow.maxJSONDepth = 2
        #expect(SceneEngine.solveLimitNotes(scene, limits: shallow, maxBodyBytes: sceneBytes.count)
                == ["/solve would refuse this scene (400): its JSON is nested more than 2 levels deep (limit maxJSONDepth, --max-json-depth)"])
    }

    /// A xib whose top-level view holds a chain of `levels - 1` nested views (a hierarchy
    /// `levels - 1` deep below its container; two XML elements per level).
    static func nested(levels: Int) -> String {
        var text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
        <device id="retina6_1" orientation="portrait"/><objects>

        """
        for level in 0..<levels {
            text += "<view id=\"v\(level)\"><rect key=\"frame\" x=\"\(level == 0 ? 0 : 1)\" y=\"\(level == 0 ? 0 : 1)\" width=\"\(414 - 2 * level)\" height=\"\(896 - 2 * level)\"/>"
                + "<autoresizingMask key=\"autoresizingMask\" widthSizable=\"YES\" heightSizable=\"YES\"/>" + (level < levels - 1 ? "<subviews>\n" : "\n")
        }
        text += "</view>" + String(repeating: "</subviews></view>", count: levels - 1) + "\n</objects></document>\n"
        return text
    }

    /// docs/scenes.md, "Limits": a hierarchy deeper than `--max-hierarchy-depth` is imported
    /// with the note naming the flag; the XML depth bound (twice the flag plus 32) refuses
    /// only deeper documents, saying what it is and what to do, and follows the flag.
    @Test func aHierarchyDeeperThanTheFlagIsImportedWithItsNote() throws {
        func hierarchy(_ response: HTTPResponse) throws -> JSONValue {
            try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0))
        }
        let shallow = post("/import", Self.nested(levels: 63))
        #expect(shallow.status == 200)
        #expect(try hierarchy(shallow)["notes"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("/solve would refuse") == true } == false)
        let deep = post("/import", Self.nested(levels: 70))
        #expect(deep.status == 200)
        #expect(try hierarchy(deep)["notes"]?.arrayValue?.last == .string(
            "/solve would refuse this scene (422 limit_exceeded): View 'view65' is nested more than 64 levels deep (limit maxHierarchyDepth): raise it with --max-hierarchy-depth"))
        // 100 levels: 202 elements deep, past 2 × 64 + 32 at view79 (line 83).
        let deeper = post("/import", Self.nested(levels: 100))
        #expect(deeper.status == 422)
        let message = "Line 83: Elements nested more than 160 deep: an Interface Builder document may nest twice --max-hierarchy-depth (64) "
            + "plus 32 elements, as each view level is two (<view> in <subviews>); flatten the view hierarchy or raise --max-hierarchy-depth (up to 112 raises this bound)"
        #expect(try JSONParser().parse(deeper.body)["detail"] == .string(message))
        var configuration = ServiceConfiguration()
        configuration.sceneLimits.maxHierarchyDepth = 100
        let raised = LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration).makeRouter()
        let imported = Self.post(raised, "/import", Self.nested(levels: 100))
        #expect(imported.status == 200)
        #expect(try hierarchy(imported)["notes"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("/solve would refuse") == true } == false)
    }

    /// The depth note's rule is the parser's: for every nesting of arrays and objects up to
    /// 6 levels and every limit from 1 to 6, `nestsDeeper` is true exactly when
    /// `JSONParser(maximumDepth:)` refuses the value's bytes.
    @Test func depthWalkAgreesWithTheParser() throws {
        var values: [JSONValue] = [.null, .number(1), .string("a")]
        var frontier: [JSONValue] = values
        for _ in 1...6 {
            frontier = frontier.prefix(3).flatMap { inner in
                [JSONValue.array([inner]), .object([("k", inner)]), .array([.number(0), .object([("k", inner)])])]
            }
            values += frontier
        }
        for value in values {
            var writer = JSONWriter()
            writer.value(value)
            for limit in 1...6 {
                let refused = (try? JSONParser(maximumDepth: limit).parse(writer.bytes)) == nil
                #expect(SceneEngine.nestsDeeper(value, than: limit) == refused, "\(String(decoding: writer.bytes, as: UTF8.self)) at \(limit)")
            }
        }
    }

    @Test func queryParsing() throws {
        #expect(try ImportRequest.parse(query: "format=SVG") == ImportRequest(drawsWireframe: true))
        #expect(try ImportRequest.parse(query: "format=Json") == ImportRequest(drawsWireframe: false))
        #expect(try ImportRequest.parse(query: "solve&device=ipad12_9&orientation=landscape&intrinsic=measured&format=svg")
                == ImportRequest(solves: true, deviceID: "ipad12_9", orientation: "landscape", drawsWireframe: true, measuresLabels: true))
        #expect(throws: ImportRequest.Refusal(parameter: "solve", value: "maybe", allowed: ["true", "false", "1", "0", "''"])) {
            try ImportRequest.parse(query: "solve=maybe")
        }
        #expect(try ImportRequest.parse(query: "device=retina6%5F1&solve=") == ImportRequest(solves: true, deviceID: "retina6_1"))
        #expect(throws: ImportRequest.Refusal(parameter: "solve", value: "TRUE", allowed: ["true", "false", "1", "0", "''"])) {
            try ImportRequest.parse(query: "solve=TRUE")
        }
        #expect(throws: ImportRequest.Refusal(parameter: "solve", value: "", allowed: [], count: 2)) {
            try ImportRequest.parse(query: "solve=1&solve=0")
        }
        #expect(throws: ImportRequest.Refusal(parameter: "orientation", value: "upside", allowed: ["portrait", "landscape"])) {
            try ImportRequest.parse(query: "orientation=upside")
        }
    }

    /// `/import` reads its query as `/solve` reads `scale` and `width`: percent-decoded,
    /// case-sensitive, each parameter once; the 400 says what is allowed.
    @Test func queryIsParsedAsSolveParsesIt() throws {
        let decoded = post("/import?device=retina6%5F1&solve=1", Self.document())
        #expect(decoded.status == 200)
        #expect(try JSONParser().parse(decoded.body)["document"]?["device"]?["id"] == .string("retina6_1"))
        let repeated = post("/import?solve=1&solve=0", Self.document())
        #expect(repeated.status == 400)
        #expect(try JSONParser().parse(repeated.body)["detail"] == .string("'solve' is given 2 times: give it at most once"))
        let solveRepeated = router.respond(to: HTTPRequest(method: .POST, target: "/solve?scale=1&scale=2", headers: ["Host": "test", "Content-Type": "application/json"],
                                                           body: Array(#"{"views":{}}"#.utf8)))
        #expect(solveRepeated.status == 400)
        #expect(try JSONParser().parse(solveRepeated.body)["detail"] == .string("'scale' is given 2 times: give it at most once"))
        let upper = post("/import?solve=TRUE", Self.document())
        #expect(upper.status == 400)
        #expect(try JSONParser().parse(upper.body)["detail"] == .string("solve='TRUE' is not allowed: use one of true, false, 1, 0, ''"))
        let yes = post("/import?solve=yes", Self.document())
        #expect(yes.status == 400)
        #expect(try JSONParser().parse(yes.body)["detail"] == .string("solve='yes' is not allowed: use one of true, false, 1, 0, ''"))
        // `format` is compared case-insensitively, as `/solve` compares it.
        let svg = post("/import?format=SVG", Self.document())
        #expect(svg.status == 200)
        #expect(svg.headers["Content-Type"] == "image/svg+xml; charset=utf-8")
    }

    /// The importer's own solve (the free-size pass) is charged to `--max-solver-work`: a
    /// document of 400 flat views (written here) is a 422 `limit_exceeded` naming the flag
    /// under a budget of 10,000 cell operations, and imports under the default.
    @Test func importWorkIsChargedToTheSolverWorkBudget() throws {
        let views = (0..<400).map { #"<view id="v\#($0)"><rect key="frame" x="\#($0 % 300)" y="\#($0 % 800)" width="10" height="10"/></view>"# }
        let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
        <device id="retina6_1" orientation="portrait"/><objects>
        <view id="root"><rect key="frame" x="0" y="0" width="414" height="896"/><subviews>
        \(views.joined(separator: "\n"))
        </subviews></view></objects></document>
        """
        var limits = SceneLimits()
        limits.maxSolverWork = 10_000
        var failure: EngineFailure?
        do {
            _ = try SceneEngine(limits: limits).importDocument(Array(document.utf8), request: ImportRequest())
        } catch {
            failure = error
        }
        let refused = try #require(failure)
        #expect(refused.status == .unprocessableContent)
        #expect(refused.diagnostics.map(\.code) == [.limitExceeded])
        #expect(refused.diagnostics.first?.message == "Importing this document takes more work than allowed (limit maxSolverWork, 10000 cell operations for this hierarchy's free sizes, the request's budget shared by the document's hierarchies): split it, or raise --max-solver-work")
        let imported = try SceneEngine().importDocument(Array(document.utf8), request: ImportRequest())
        #expect(imported.imported.hierarchies.count == 1)
        #expect(imported.imported.hierarchies.first?.ids.count == 401)
    }

    /// A label longer than a scene's label may be keeps its recorded size under
    /// `?intrinsic=measured`, with a note, and the hierarchy is still solved.
    @Test func longLabelKeepsItsRecordedSizeWhenMeasured() throws {
        let long = String(repeating: "a", count: 10_001)
        let labelled = Self.document().replacingOccurrences(
            of: #"<view userLabel="box" translatesAutoresizingMaskIntoConstraints="NO" id="box-1">"#,
            with: #"<label userLabel="box" text="\#(long)" translatesAutoresizingMaskIntoConstraints="NO" id="box-1">"#)
            .replacingOccurrences(of: #"height="60"/></view>"#, with: #"height="60"/></label>"#)
        let response = post("/import?solve=true&intrinsic=measured", labelled)
        #expect(response.status == 200)
        let hierarchy = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0))
        #expect(hierarchy["frames"]?["box"] == .object([("x", .number(16)), ("y", .number(20)), ("width", .number(288)), ("height", .number(60))]))
        let notes = try #require(hierarchy["notes"]?.arrayValue)
        #expect(notes.contains(.string("Label box keeps its recorded size: its text has 10001 characters, more than the 10000 a label measures")))
        #expect(hierarchy["scene"]?["views"]?["box"]?["text"] == nil)
    }

    /// `document()` with `box` a label: `attributes` on the `<label>`, `font` its
    /// `<fontDescription>`'s attributes.
    static func label(_ attributes: String, font: String = #"type="system" pointSize="17""#) -> String {
        document().replacingOccurrences(
            of: #"<view userLabel="box" translatesAutoresizingMaskIntoConstraints="NO" id="box-1">"#,
            with: #"<label userLabel="box" \#(attributes) translatesAutoresizingMaskIntoConstraints="NO" id="box-1">"#)
            .replacingOccurrences(of: #"height="60"/></view>"#,
                                  with: #"height="60"/><fontDescription key="fontDescription" \#(font)/></label>"#)
    }

    /// A label value the scene format refuses (a point size out of (0, 1000], a
    /// `numberOfLines` out of 0…100,000, a negative or huge `preferredMaxLayoutWidth`) leaves
    /// that label its recorded size with a note naming the attribute and value, as an
    /// over-long text does: the hierarchy is still solved, and lint warns on the label.
    @Test func outOfRangeLabelValuesKeepTheRecordedSize() throws {
        let cases: [(attributes: String, font: String, why: String)] = [
            (#"text="Hello""#, #"type="system" pointSize="1001""#, "its pointSize is 1001; a font size is more than 0 and at most 1000 points"),
            (#"text="Hello""#, #"type="system" pointSize="0""#, "its pointSize is 0; a font size is more than 0 and at most 1000 points"),
            (#"text="Hello""#, #"name="Helvetica" family="Helvetica" pointSize="-5""#, "its pointSize is -5; a font size is more than 0 and at most 1000 points"),
            (#"text="Hello""#, #"type="system" pointSize="1e9""#, "its pointSize is 1000000000; a font size is more than 0 and at most 1000 points"),
            (#"text="Hello" numberOfLines="999999999""#, #"type="system" pointSize="17""#, "its numberOfLines is 999999999; a label measures from 0 (as many as needed) to 100000 lines"),
            (#"text="Hello" numberOfLines="-1""#, #"type="system" pointSize="17""#, "its numberOfLines is -1; a label measures from 0 (as many as needed) to 100000 lines"),
            (#"text="Hello" preferredMaxLayoutWidth="-10""#, #"type="system" pointSize="17""#, "its preferredMaxLayoutWidth is -10; a preferred width is from 0 to 1000000000000 points"),
            (#"text="Hello" preferredMaxLayoutWidth="1e300""#, #"type="system" pointSize="17""#, "its preferredMaxLayoutWidth is 1e+300; a preferred width is from 0 to 1000000000000 points"),
        ]
        for (attributes, font, why) in cases {
            let document = Self.label(attributes, font: font)
            let response = post("/import?solve=true&intrinsic=measured", document)
            #expect(response.status == 200)
            let hierarchy = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0))
            #expect(hierarchy["frames"]?["box"] == .object([("x", .number(16)), ("y", .number(20)), ("width", .number(288)), ("height", .number(60))]), "\(why)")
            #expect(hierarchy["notes"]?.arrayValue?.contains(.string("Label box keeps its recorded size: \(why)")) == true, "\(hierarchy["notes"] ?? .null)")
            #expect(hierarchy["scene"]?["views"]?["box"]?["text"] == nil)
            #expect(hierarchy["diagnostics"]?.arrayValue?.isEmpty == true, "\(hierarchy["diagnostics"] ?? .null)")
            let outcome = try SceneEngine().importDocument(Array(document.utf8), request: ImportRequest(solves: true, measuresLabels: true))
            #expect(LayoutdCommand.lintProblems(outcome).map { $0.rendered(file: "Box.xib") } == [
                #"Box.xib:6: warning: view: box: Label "box" keeps its recorded size: "# + why,
            ])
        }
        // In range, the label is measured.
        let measured = try #require(Self.item(try JSONParser().parse(post("/import?intrinsic=measured", Self.label(#"text="Hello" numberOfLines="2""#, font: #"type="system" pointSize="1000""#)).body)["hierarchies"], 0))
        #expect(measured["scene"]?["views"]?["box"]?["text"]?["numberOfLines"] == .number(2))
        #expect(measured["scene"]?["views"]?["box"]?["text"]?["font"]?["size"] == .number(1000))
    }

    /// A label whose font has an empty name is said as such, not with a blank.
    @Test func anEmptyFontNameIsSaid() throws {
        let response = post("/import?intrinsic=measured", Self.label(#"text="Hello""#, font: #"name="" family="" pointSize="17""#))
        let hierarchy = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0))
        #expect(hierarchy["notes"]?.arrayValue?.contains(.string("Label box is measured: a font with no name, 17 as Inter weight 400")) == true,
                "\(hierarchy["notes"] ?? .null)")
    }

    /// An id given to two views is noted in `/import`'s hierarchy, solved or not (and a
    /// warning of the solved hierarchy's `diagnostics`), as lint warns of it.
    @Test func duplicateIdsAreNoted() throws {
        let twice = Self.document().replacingOccurrences(of: #"id="box-1""#, with: #"id="root-1""#)
        let note = "Line 6: The id root-1 is given to another element too (line 4): the second is a view of its own"
        for target in ["/import", "/import?solve=true"] {
            let response = post(target, twice)
            #expect(response.status == 200)
            let hierarchy = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0))
            #expect(hierarchy["notes"]?.arrayValue?.contains(.string(note)) == true, "\(target): \(hierarchy["notes"] ?? .null)")
        }
    }

    /// A one-line label that shrinks its text (`adjustsFontSizeToFit`, `minimumScaleFactor`)
    /// is noted, and lint does not call it truncated when its text fits at that scale:
    /// here 50 characters in 288 points, which fit at half size but not at 0.9.
    @Test func shrinkingLabelsAreNotedAndNotLintedAsTruncated() throws {
        let text = String(repeating: "Truncated ", count: 5)
        func shrinking(_ scale: String) -> String {
            Self.label(#"text="\#(text)" numberOfLines="1" adjustsFontSizeToFit="YES" minimumScaleFactor="\#(scale)""#)
        }
        func lint(_ document: String) throws -> [String] {
            let outcome = try SceneEngine().importDocument(Array(document.utf8), request: ImportRequest(solves: true, measuresLabels: true))
            return LayoutdCommand.lintProblems(outcome).map { $0.rendered(file: "Box.xib") }
        }
        let response = post("/import?solve=true&intrinsic=measured", shrinking("0.5"))
        #expect(response.status == 200)
        let hierarchy = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0))
        #expect(hierarchy["notes"]?.arrayValue?.contains(.string("Label box shrinks its text to fit at run time (scale at least 0.5): it is measured at its full size, as UIKit's intrinsic content size is")) == true,
                "\(hierarchy["notes"] ?? .null)")
        #expect(try lint(shrinking("0.5")) == [])
        #expect(try lint(shrinking("0.9")) == [
            #"Box.xib:6: warning: view: box: Text of "box" will be truncated at run time: its frame shows 1 line"#,
        ])
        // UIKit's property name is read too; a factor of 0 does not shrink (Apple's UILabel documentation).
        #expect(try lint(Self.label(#"text="\#(text)" numberOfLines="1" adjustsFontSizeToFitWidth="YES" minimumScaleFactor="0.5""#)) == [])
        #expect(try lint(shrinking("0")).count == 1)
    }

    /// With `?intrinsic=measured` a solved hierarchy answers its labels' `text` as `/solve`
    /// does, and lint warns of a label whose text is truncated in its frame, unless it is
    /// hidden: here one line of 80 characters in 288 points.
    @Test func measuredLabelsAnswerTheirTextAndTruncatedOnesAreLinted() throws {
        let text = String(repeating: "Truncated ", count: 8)
        func labelled(hidden: Bool) -> String {
            Self.document().replacingOccurrences(
                of: #"<view userLabel="box" translatesAutoresizingMaskIntoConstraints="NO" id="box-1">"#,
                with: #"<label userLabel="box" text="\#(text)" numberOfLines="1" \#(hidden ? #"hidden="YES" "# : "")translatesAutoresizingMaskIntoConstraints="NO" id="box-1">"#)
                .replacingOccurrences(of: #"height="60"/></view>"#, with: #"height="60"/></label>"#)
        }
        let response = post("/import?solve=true&intrinsic=measured", labelled(hidden: false))
        #expect(response.status == 200)
        let hierarchy = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0))
        #expect(hierarchy["text"] == .object([("box", .object([("lines", .number(1)), ("truncated", .bool(true))]))]))
        func lint(_ document: String) throws -> [String] {
            let outcome = try SceneEngine().importDocument(Array(document.utf8), request: ImportRequest(solves: true, measuresLabels: true))
            return LayoutdCommand.lintProblems(outcome).map { $0.rendered(file: "Box.xib") }
        }
        #expect(try lint(labelled(hidden: false)) == [
            #"Box.xib:6: warning: view: box: Text of "box" will be truncated at run time: its frame shows 1 line"#,
        ])
        #expect(try lint(labelled(hidden: true)) == [])
        // Recorded sizes (the default) measure nothing: no `text`.
        let recorded = try #require(Self.item(try JSONParser().parse(post("/import?solve=true", labelled(hidden: false)).body)["hierarchies"], 0))
        #expect(recorded["text"] == nil)
    }

    /// A scroll view's content layout guide that no constraint names has no size: Xcode lists
    /// nothing for it, and neither does lint (NetNewsWire's Main.storyboard had such a line);
    /// once a constraint of the document names it, its ambiguity is listed.
    @Test func anUnusedContentLayoutGuideIsNotLinted() throws {
        let scroll = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
        <device id="retina4_7" orientation="portrait"/><objects>
        <view id="root-1"><rect key="frame" x="0" y="0" width="320" height="100"/>
        <subviews>
        <scrollView userLabel="scroll" translatesAutoresizingMaskIntoConstraints="NO" id="sv-1"><rect key="frame" x="0" y="0" width="320" height="100"/>
        <viewLayoutGuide key="contentLayoutGuide" id="cg-1"/>
        <viewLayoutGuide key="frameLayoutGuide" id="fg-1"/>
        </scrollView>
        </subviews>
        <constraints>
        <constraint firstItem="sv-1" firstAttribute="leading" secondItem="root-1" secondAttribute="leading" id="c-1"/>
        <constraint firstItem="sv-1" firstAttribute="top" secondItem="root-1" secondAttribute="top" id="c-2"/>
        <constraint firstItem="root-1" firstAttribute="trailing" secondItem="sv-1" secondAttribute="trailing" id="c-3"/>
        <constraint firstItem="root-1" firstAttribute="bottom" secondItem="sv-1" secondAttribute="bottom" id="c-4"/>
        </constraints>
        </view></objects></document>
        """
        #expect(try Self.lint(scroll) == [])
        // The importer says which guides no constraint of the document names.
        let unnamed = try InterfaceBuilderImporter.importDocument(Array(scroll.utf8)).hierarchies.map(\.guidesNoDocumentConstraintNames)
        #expect(unnamed == [["scrollContentLayoutGuide", "scrollFrameLayoutGuide"]])
        let named = scroll.replacingOccurrences(of: "</constraints>", with: #"""
        <constraint firstItem="cg-1" firstAttribute="width" constant="500" id="c-5"/>
        </constraints>
        """#)
        #expect(try Self.lint(named) == ["Box.xib:7: error: view: scrollContentLayoutGuide: Need constraints for: height"])
        let namedUnnamed = try InterfaceBuilderImporter.importDocument(Array(named.utf8)).hierarchies.map(\.guidesNoDocumentConstraintNames)
        #expect(namedUnnamed == [["scrollFrameLayoutGuide"]])
    }

    /// A label whose text is attributed (`<attributedString key="attributedText">`, its
    /// fragments' `content` attributes or `<string key="content">` children) is named and
    /// measured by that text, in its first fragment's font: the same frame as the scene
    /// written by hand with that string and font.
    @Test func anAttributedLabelIsMeasuredByItsFragments() throws {
        func fragment(_ content: String, font: String, asElement: Bool = false) -> String {
            (asElement ? #"<fragment><string key="content">\#(content)</string>"# : #"<fragment content="\#(content)">"#)
                + #"<attributes>\#(font)</attributes></fragment>"#
        }
        let attributed = #"<attributedString key="attributedText">"#
            + fragment("Attri", font: #"<font key="NSFont" size="20" name="Georgia-Bold"/>"#)
            + fragment("buted", font: #"<font key="NSFont" metaFont="system" size="11"/>"#, asElement: true)
            + "</attributedString>"
        let labelled = Self.document().replacingOccurrences(
            of: #"<view userLabel="box" translatesAutoresizingMaskIntoConstraints="NO" id="box-1"><rect key="frame" x="16" y="20" width="288" height="60"/></view>"#,
            with: #"<label translatesAutoresizingMaskIntoConstraints="NO" id="box-1"><rect key="frame" x="16" y="20" width="288" height="60"/>\#(attributed)</label>"#)
            .replacingOccurrences(of: #"<constraint firstItem="box-1" firstAttribute="height" constant="60" id="c-4"/>"#, with: "")
        let response = post("/import?solve=true&intrinsic=measured", labelled)
        #expect(response.status == 200)
        let hierarchy = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0))
        #expect(hierarchy["ids"] == .object([("superview", .string("root-1")), ("labelAttributed", .string("box-1"))]))
        #expect(hierarchy["scene"]?["views"]?["labelAttributed"]?["text"] == .object([
            ("string", .string("Attributed")),
            ("font", .object([("family", .string("Liberation Serif")), ("size", .number(20)), ("weight", .number(700)), ("italic", .bool(false))])),
        ]))
        let notes = try #require(hierarchy["notes"]?.arrayValue)
        #expect(notes.contains(.string("Label labelAttributed is measured: Georgia-Bold 20 as Liberation Serif weight 700 (the first of its 2 attributed fragments' fonts)")))
        // The same label written as a scene: the same frame, to the point.
        let scene = #"{"container":{"width":320,"height":100},"views":{"l":{"text":{"string":"Attributed","font":{"family":"Liberation Serif","size":20,"weight":700}}}},"constraints":["H:|-16-[l]-16-|","V:|-20-[l]"],"options":{"displayScale":2}}"#
        let solved = router.respond(to: HTTPRequest(method: .POST, target: "/solve", headers: ["Host": "test", "Content-Type": "application/json"], body: Array(scene.utf8)))
        let expected = try #require(try JSONParser().parse(solved.body)["frames"]?["l"])
        #expect(hierarchy["frames"]?["labelAttributed"] == expected)
        #expect(expected["height"] != .number(0))
    }

    /// A named font's weight and slant come from its PostScript style, whatever follows the
    /// weight word (`Italic`, `Oblique`, the vendor's `MT`); attributed text wins over `text`.
    @Test func aFontNamesWeightIsReadFromItsStyle() throws {
        for (name, family, weight, italic) in [
            ("Georgia-BoldItalic", "Liberation Serif", 700, true), ("Helvetica-BoldOblique", "Liberation Sans", 700, true),
            ("Arial-BoldMT", "Liberation Sans", 700, false), ("Arial-BoldItalicMT", "Liberation Sans", 700, true),
            ("TimesNewRomanPS-BoldItalicMT", "Liberation Serif", 700, true), ("HelveticaNeue-MediumItalic", "Liberation Sans", 500, true),
            ("HelveticaNeue-UltraLight", "Liberation Sans", 100, false), ("Menlo-Regular", "Liberation Mono", 400, false),
            ("Avenir-Heavy", "system", 800, false), ("HelveticaNeue", "Liberation Sans", 400, false), ("Courier-Oblique", "Liberation Mono", 400, true),
        ] {
            let labelled = Self.document().replacingOccurrences(
                of: #"<view userLabel="box" translatesAutoresizingMaskIntoConstraints="NO" id="box-1"><rect key="frame" x="16" y="20" width="288" height="60"/></view>"#,
                with: #"<label userLabel="box" text="Plain" translatesAutoresizingMaskIntoConstraints="NO" id="box-1"><rect key="frame" x="16" y="20" width="288" height="60"/>"#
                    + #"<attributedString key="attributedText"><fragment content="Shown"><attributes><font key="NSFont" size="20" name="\#(name)"/></attributes></fragment></attributedString>"#
                    + #"<fontDescription key="fontDescription" type="system" pointSize="17"/></label>"#)
            let response = post("/import?intrinsic=measured", labelled)
            let text = try #require(Self.item(try JSONParser().parse(response.body)["hierarchies"], 0)?["scene"]?["views"]?["box"]?["text"], "\(name)")
            #expect(text == .object([("string", .string("Shown")), ("font", .object([
                ("family", .string(family)), ("size", .number(20)), ("weight", .number(Double(weight))), ("italic", .bool(italic)),
            ]))]), "\(name)")
        }
    }

    /// `?device=` on a document that names no device: the recorded frames are not the
    /// answer's device's, so nothing is listed as misplaced, and the note says which scale
    /// the layout used.
    @Test func anotherDeviceForADocumentWithoutOneListsNothingMisplaced() throws {
        let document = Self.document(recordedX: 17).replacingOccurrences(of: #"<device id="retina4_7" orientation="portrait"/>"#, with: "")
        let own = post("/import?solve=true", document)
        let ownHierarchy = try #require(Self.item(try JSONParser().parse(own.body)["hierarchies"], 0))
        #expect(ownHierarchy["misplaced"]?.arrayValue?.count == 1)
        let moved = post("/import?solve=true&device=retina6_9", document)
        #expect(moved.status == 200)
        let hierarchy = try #require(Self.item(try JSONParser().parse(moved.body)["hierarchies"], 0))
        #expect(hierarchy["misplaced"] == .array([]))
        #expect(hierarchy["scene"]?["options"]?["displayScale"] == .number(3))
        let notes = try #require(hierarchy["notes"]?.arrayValue)
        #expect(notes.contains(.string("The document names no device: its recorded frames lie on a grid of 1 pixel per point; laid out for retina6_9 at its display scale, 3")))
        #expect(!notes.contains { $0.stringValue?.hasSuffix("taken as the display scale") == true })
    }

    @Test func theWireframeDrawsMisplacedViewsAtBothFrames() throws {
        let response = post("/import?format=svg", Self.document(recordedX: 17))
        #expect(response.status == 200)
        let svg = String(decoding: response.body, as: UTF8.self)
        #expect(svg.contains(##"<rect class="misplaced recorded" fill="none" stroke="#e80" stroke-width="1.5" stroke-dasharray="4 3" data-view="box" x="17" y="20" width="288" height="60"/>"##))
        #expect(svg.contains(##"<rect class="misplaced solved" fill="none" stroke="#d00" stroke-width="1.5" data-view="box" x="16" y="20" width="288" height="60"/>"##))
    }
}
