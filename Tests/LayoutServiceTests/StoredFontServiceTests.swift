import Foundation
import HTTP1
import LayoutCompiler
@testable import LayoutService
import LayoutStore
import Testing
import TextLayout

/// Labels measured with stored font faces through the service's routes (contract, "Text",
/// stored fonts): the face a label's family, weight and style choose among the stored
/// faces, and no answer computed with a face served after that face was replaced or
/// deleted — through the front cache, the result cache, a warm template and a restart.
/// Widths come from the font files' own numbers: the faces are Debian's monospaced
/// DejaVu Sans Mono and Liberation Mono, every glyph one hmtx advance wide.
struct StoredFontServiceTests {
    static let dejaVuMono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
    static let liberationMono = "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf"
    static let dejaVuMonoBold = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
    /// 20 characters, no kerning pair in a monospaced face.
    static let string = "abcdefghijklmnopqrst"

    /// The label's frame (width, height) in whole points for the font file at `path` at
    /// 40 points: 20 advances and one line height, each rounded up.
    static func expectedSize(_ path: String) throws -> (width: Double, height: Double) {
        let face = try #require(LoadedFace(FontFace(family: "file", weight: 400, italic: false, path: path),
                                           bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
        let scale = 40 / Double(face.unitsPerEm)
        let width = Double(try #require(face.advance(of: "a"))) * 20 * scale
        let height = Double(face.ascender - face.descender + face.lineGap) * scale
        return (width.rounded(.up), height.rounded(.up))
    }

    static func scene(family: String, weight: Int = 400, width: Int = 600) -> String {
        #"{"container":{"width":\#(width),"height":100},"views":{"l":{"text":{"string":"\#(string)","font":{"family":"\#(family)","size":40,"weight":\#(weight)}}}},"constraints":["H:|[l]","V:|[l]"]}"#
    }

    struct Client {
        let router: Router
        init(_ service: LayoutService) { router = service.makeRouter() }

        func send(_ method: HTTPMethod, _ target: String, _ body: [UInt8], _ extra: [(String, String)] = []) -> HTTPResponse {
            var headers: HTTPFields = ["Host": "test"]
            for (name, value) in extra { headers.append(name, value) }
            return router.respond(to: HTTPRequest(method: method, target: target, headers: headers, body: body))
        }

        func put(_ family: String, _ face: String, file path: String) throws -> Int {
            send(.PUT, "/fonts/\(family.replacingOccurrences(of: " ", with: "%20"))/\(face)",
                 Array(try Data(contentsOf: URL(fileURLWithPath: path)))).status.code
        }

        /// The label's frame size, and the answer's `Cache-Status`.
        func solve(_ scene: String) throws -> (width: Double, height: Double, cacheStatus: String?) {
            let response = send(.POST, "/solve", Array(scene.utf8))
            try #require(response.status.code == 200, "\(String(decoding: response.body, as: UTF8.self))")
            let frame = try JSONParser().parse(response.body)["frames"]?["l"]
            return (try #require(frame?["width"]?.numberValue), try #require(frame?["height"]?.numberValue), response.headers["Cache-Status"])
        }
    }

    @Test func aLabelMeasuresWithTheStoredFaceAndNeverWithAReplacedOne() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        let dejaVu = try Self.expectedSize(Self.dejaVuMono), liberation = try Self.expectedSize(Self.liberationMono)
        #expect(dejaVu.width != liberation.width)
        #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
        // Families match without regard to case.
        let scene = Self.scene(family: "acme mono")
        let first = try client.solve(scene)
        #expect((first.width, first.height) == dejaVu)
        #expect(first.cacheStatus == "layoutd; fwd=miss; stored")
        #expect(try client.solve(scene).cacheStatus == "layoutd; hit")

        #expect(try client.put("Acme Mono", "400", file: Self.liberationMono) == 200)
        // The front cache (same bytes) and the result cache (same scene, other bytes).
        let replaced = try client.solve(scene)
        #expect((replaced.width, replaced.height) == liberation)
        #expect(replaced.cacheStatus == "layoutd; fwd=miss; stored")
        let spaced = try client.solve(" " + scene)
        #expect((spaced.width, spaced.height) == liberation)
        #expect(spaced.cacheStatus == "layoutd; hit")

        // A warm template (only the container's width differs) measures with the new face.
        let resized = try client.solve(Self.scene(family: "acme mono", width: 601))
        #expect((resized.width, resized.height) == liberation)
    }

    @Test func aDeletedFamilyIsUnknownFont() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
        _ = try client.solve(Self.scene(family: "Acme Mono"))
        #expect(client.send(.DELETE, "/fonts/Acme%20Mono/400", []).status.code == 204)
        let response = client.send(.POST, "/solve", Array(Self.scene(family: "Acme Mono").utf8))
        #expect(response.status.code == 422)
        let diagnostic = try #require(try JSONParser().parse(response.body)["diagnostics"]?.arrayValue?.first)
        #expect(diagnostic["code"]?.stringValue == "unknown_font")
        #expect(diagnostic["message"]?.stringValue == "Unknown font family 'Acme Mono'")
        #expect(diagnostic["path"]?.stringValue == "$.views.l.text.font.family")
    }

    /// A stored family with a weight word after it names the family and the weight.
    @Test func aStoredFamilyWithAStyleWordGetsTheFamilyAndWeight() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
        let response = client.send(.POST, "/solve", Array(Self.scene(family: "acme mono Bold").utf8))
        #expect(response.status.code == 422)
        let diagnostic = try #require(try JSONParser().parse(response.body)["diagnostics"]?.arrayValue?.first)
        #expect(diagnostic["code"]?.stringValue == "unknown_font")
        #expect(diagnostic["message"]?.stringValue == "Unknown font family 'acme mono Bold'; did you mean family 'Acme Mono' with weight 700?")
        #expect(diagnostic["path"]?.stringValue == "$.views.l.text.font.family")
        #expect(diagnostic["notes"]?.arrayValue?.first?.stringValue?.hasSuffix("; stored: Acme Mono") == true, "\(diagnostic)")
    }

    /// A family close to a stored one (and to no built-in one) gets a did-you-mean naming it.
    @Test func aMisspeltStoredFamilyGetsADidYouMean() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
        let response = client.send(.POST, "/solve", Array(Self.scene(family: "Acme Mnoo").utf8))
        #expect(response.status.code == 422)
        let diagnostic = try #require(try JSONParser().parse(response.body)["diagnostics"]?.arrayValue?.first)
        #expect(diagnostic["code"]?.stringValue == "unknown_font")
        #expect(diagnostic["message"]?.stringValue == "Unknown font family 'Acme Mnoo'; did you mean 'Acme Mono'?")
        // The note names every stored family, not only those the scene asked for.
        #expect(diagnostic["notes"]?.arrayValue?.first?.stringValue?.hasSuffix("; stored: Acme Mono") == true, "\(diagnostic)")
    }

    /// An unknown family's note names the stored families: the first 20, sorted, then a count.
    @Test func anUnknownFamilysNoteNamesTheStoredOnes() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        let names = (0..<23).map { "Family \(Character(UnicodeScalar(UInt8(ascii: "A") + UInt8($0))))" }
        for name in names { #expect(try client.put(name, "400", file: Self.dejaVuMono) == 201) }
        let response = client.send(.POST, "/solve", Array(Self.scene(family: "Zzzzzzzz").utf8))
        #expect(response.status.code == 422)
        let note = try #require(try JSONParser().parse(response.body)["diagnostics"]?.arrayValue?.first?["notes"]?.arrayValue?.first?.stringValue)
        #expect(note.hasSuffix("; stored: " + names.prefix(20).joined(separator: ", ") + " and 3 more"), "\(note)")
    }

    /// A face added to a stored family changes the answers whose weight now picks it
    /// (CSS Fonts 4: 700 asked of {400} is 400, of {400, 700} is 700), through the front cache.
    @Test func anAddedFaceIsChosenByWeight() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
        let bold = Self.scene(family: "Acme Mono", weight: 700)
        let before = try client.solve(bold)
        #expect((before.width, before.height) == (try Self.expectedSize(Self.dejaVuMono)))
        #expect(try client.put("Acme Mono", "700", file: Self.liberationMono) == 201)
        let after = try client.solve(bold)
        #expect((after.width, after.height) == (try Self.expectedSize(Self.liberationMono)))
        #expect(after.cacheStatus == "layoutd; fwd=miss; stored")
        // 400 still picks the 400 face, and is answered from the result cache.
        let regular = try client.solve(Self.scene(family: "Acme Mono"))
        #expect((regular.width, regular.height) == (try Self.expectedSize(Self.dejaVuMono)))
    }

    /// The result cache persists in the database file: a face replaced while no server ran
    /// (another process's write) is never answered with the old measurement after a restart.
    @Test func aFaceReplacedBetweenRunsIsNotAnsweredFromTheResultCache() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stored-fonts-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scene = Self.scene(family: "Acme Mono")
        do {
            let store = try SQLiteStore(path: path)
            let client = Client(LayoutService(store: store))
            #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
            #expect(try client.solve(scene).cacheStatus == "layoutd; fwd=miss; stored")
            store.close()
        }
        do {
            let store = try SQLiteStore(path: path)
            let again = try Client(LayoutService(store: store)).solve(scene)
            #expect(again.cacheStatus == "layoutd; hit")
            #expect((again.width, again.height) == (try Self.expectedSize(Self.dejaVuMono)))
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.liberationMono)))
            _ = try store.putFace(name: "Acme Mono/400", bytes: bytes, sha256: SHA256.hexDigest(bytes))
            #expect(try store.cacheCount() == 0)
            store.close()
        }
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        let restarted = try Client(LayoutService(store: store)).solve(scene)
        #expect(restarted.cacheStatus == "layoutd; fwd=miss; stored")
        #expect((restarted.width, restarted.height) == (try Self.expectedSize(Self.liberationMono)))
    }

    /// The result cache key of a scene with a stored face names the face's version; a scene
    /// without stored families keeps the key it had.
    @Test func theResultKeyChangesWithTheStoredFaceVersion() throws {
        let store = try SQLiteStore(path: ":memory:")
        let service = LayoutService(store: store)
        let client = Client(service)
        func key(_ scene: String) throws -> String {
            let prepared = try service.engine.prepare(body: Array(scene.utf8), fonts: service.storedFontSource(turn: HeldTurn(nil, isLarge: false)), resolveGroup: { _ in nil }).get()
            return CacheKey.result(prepared, route: .solve)
        }
        let builtIn = Self.scene(family: "DejaVu Sans Mono")
        let builtInKey = try key(builtIn)
        #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
        let first = try key(Self.scene(family: "Acme Mono"))
        #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 200)
        let second = try key(Self.scene(family: "Acme Mono"))
        #expect(first != second)
        #expect(try key(builtIn) == builtInKey)
        let prepared = try service.engine.prepare(body: Array(Self.scene(family: "ACME MONO").utf8), fonts: service.storedFontSource(turn: HeldTurn(nil, isLarge: false)),
                                                  resolveGroup: { _ in nil }).get()
        #expect(prepared.storedFonts.used == [StoredFaceVersion(name: "Acme Mono/400", version: 2)])
        #expect(prepared.fontNames.count == 18)
    }

    /// A stored family may not be named like a built-in one, so a built-in family is never
    /// shadowed: its labels measure with the built-in face whatever is stored.
    @Test func aBuiltInFamilyIsNeverShadowed() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        #expect(try client.put("liberation mono", "400", file: Self.dejaVuMono) == 422)
        let refused = client.send(.PUT, "/fonts/liberation%20mono/400", Array(try Data(contentsOf: URL(fileURLWithPath: Self.dejaVuMono))))
        let problem = try JSONParser().parse(refused.body)
        #expect(problem["type"] == .string("urn:layoutd:problem:invalid-font"))
        #expect(problem["title"] == .string("The font cannot be stored"))
        #expect(problem["diagnostics"]?.arrayValue?.first?["code"] == .string("invalid_font"))
        let solved = try client.solve(Self.scene(family: "Liberation Mono"))
        #expect((solved.width, solved.height) == (try Self.expectedSize(Self.liberationMono)))
    }

    /// A WOFF2 web font is refused with how to convert it (FontFileCheck's `wOF2` rule).
    @Test func aWebFontIsToldToConvert() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        let refused = client.send(.PUT, "/fonts/Acme/400", Array("wOF2".utf8) + [0, 1, 0, 0] + [UInt8](repeating: 0, count: 40))
        #expect(refused.status.code == 422)
        let problem = try JSONParser().parse(refused.body)
        #expect(problem["type"] == .string("urn:layoutd:problem:invalid-font"))
        let diagnostic = try #require(problem["diagnostics"]?.arrayValue?.first)
        #expect(diagnostic["code"] == .string("invalid_font"))
        #expect(diagnostic["message"] == .string("The file is a WOFF2 web font, not a TrueType or OpenType font: convert it to .ttf or .otf first (e.g. with fonttools: fonttools ttLib.woff2 decompress FILE.woff2)"))
        #expect(diagnostic["path"] == nil)
    }

    /// A font sent as a form (`curl -F`) is not a font file: the 422 says to send the file
    /// itself; the same bytes without the form's Content-Type get the message alone.
    @Test func aFontSentAsAFormIsToldToSendTheFile() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        let form = Array("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.ttf\"\r\n\r\n".utf8)
            + Array(try Data(contentsOf: URL(fileURLWithPath: Self.dejaVuMono))) + Array("\r\n--b--\r\n".utf8)
        let message = "The file is not a TrueType or OpenType font (its first 4 bytes are not 00010000, 'OTTO' or 'true')"
        let asForm = client.send(.PUT, "/fonts/Acme/400", form, [("Content-Type", "multipart/form-data; boundary=b")])
        #expect(asForm.status.code == 422)
        #expect(try JSONParser().parse(asForm.body)["diagnostics"]?.arrayValue?.first?["message"] == .string(
            message + "; the body is a form (curl -F): send the file itself as the body: curl -X PUT --data-binary @font.ttf URL"))
        let plain = client.send(.PUT, "/fonts/Acme/400", form)
        #expect(plain.status.code == 422)
        #expect(try JSONParser().parse(plain.body)["diagnostics"]?.arrayValue?.first?["message"] == .string(message))
    }

    /// Two replicas sharing one font store, each with its own result and front caches: a
    /// face replaced through one is never answered from the other's front cache (its hit is
    /// checked against the store's current faces), nor a deleted one.
    @Test func aFaceReplacedOnAnotherReplicaIsNotAnsweredFromTheFrontCache() throws {
        let shared = try SQLiteStore(path: ":memory:")
        let a = Client(LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: shared))
        let b = Client(LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: shared))
        let scene = Self.scene(family: "Acme Mono")
        #expect(try a.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
        #expect(try b.solve(scene).cacheStatus == "layoutd; fwd=miss; stored")
        #expect(try b.solve(scene).cacheStatus == "layoutd; hit")
        #expect(try a.put("Acme Mono", "400", file: Self.liberationMono) == 200)
        let replaced = try b.solve(scene)
        #expect((replaced.width, replaced.height) == (try Self.expectedSize(Self.liberationMono)))
        #expect(replaced.cacheStatus == "layoutd; fwd=miss; stored")
        #expect(a.send(.DELETE, "/fonts/Acme%20Mono/400", []).status.code == 204)
        #expect(b.send(.POST, "/solve", Array(scene.utf8)).status.code == 422)
    }

    /// Families match without regard to case on every route: GET and DELETE of a face find
    /// it in any spelling of its family (404 for a face that is not stored).
    @Test func getAndDeleteMatchTheFamilyWithoutRegardToCase() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: Self.dejaVuMono)))
        let got = client.send(.GET, "/fonts/ACME%20mono/400", [])
        #expect(got.status.code == 200)
        let gotWhole = got.body == file   // one Bool: a failed == of large arrays is diffed (quadratic)
        #expect(gotWhole, "\(got.body.count) bytes of \(file.count)")
        #expect(got.headers["ETag"] == "\"1\"")
        let missing = client.send(.GET, "/fonts/acme%20mono/700", [])
        #expect(missing.status.code == 404)
        #expect(try JSONParser().parse(missing.body)["detail"]?.stringValue == "No stored font face 'acme mono/700'")
        #expect(client.send(.DELETE, "/fonts/acme%20MONO/400", []).status.code == 204)
        #expect(client.send(.GET, "/fonts/Acme%20Mono/400", []).status.code == 404)
        #expect(client.send(.DELETE, "/fonts/Acme%20Mono/400", []).status.code == 404)
    }

    /// RFC 9110 §13.1.2: a GET of a stored face whose `If-None-Match` lists its `ETag`
    /// (weakly compared) or `*` is `304 Not Modified`, no content, the same `ETag`.
    @Test func conditionalGET() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        #expect(try client.put("Acme Mono", "400", file: Self.dejaVuMono) == 201)
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: Self.dejaVuMono)))
        func get(_ ifNoneMatch: String) -> HTTPResponse {
            client.router.respond(to: HTTPRequest(method: .GET, target: "/fonts/acme%20mono/400",
                                                  headers: ["Host": "test", "If-None-Match": ifNoneMatch], body: []))
        }
        for header in ["\"1\"", "W/\"1\"", "*"] {
            let unchanged = get(header)
            #expect(unchanged.status.code == 304)
            #expect(unchanged.body.isEmpty)
            #expect(unchanged.headers["ETag"] == "\"1\"")
        }
        let changed = get("\"2\"")
        #expect(changed.status.code == 200)
        let changedWhole = changed.body == file   // one Bool: a failed == of large arrays is diffed (quadratic)
        #expect(changedWhole, "\(changed.body.count) bytes of \(file.count)")
        // If-Match (RFC 9110 §13.1.1): a stale tag is a 412, the current one reads.
        func get(ifMatch: String) -> HTTPResponse {
            client.router.respond(to: HTTPRequest(method: .GET, target: "/fonts/acme%20mono/400",
                                                  headers: ["Host": "test", "If-Match": ifMatch], body: []))
        }
        let stale = get(ifMatch: "\"2\"")
        #expect(stale.status.code == 412)
        #expect(try JSONParser().parse(stale.body)["detail"]?.stringValue == "If-Match '\"2\"' does not match font face 'Acme Mono/400': its entity tag is \"1\"")
        #expect(get(ifMatch: "\"1\"").body == file)
    }

    /// Font writes evaluate `If-Match` and `If-None-Match` as group writes do (RFC 9110
    /// §13.1.1): a stale `If-Match` or `If-None-Match: *` on an existing face is 412 and
    /// changes nothing; a matching `If-Match` writes.
    @Test func fontWritesHonourPreconditions() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: Self.dejaVuMono)))
        let other = Array(try Data(contentsOf: URL(fileURLWithPath: Self.liberationMono)))
        func send(_ method: HTTPMethod, _ target: String, _ body: [UInt8], _ headers: [(String, String)]) -> HTTPResponse {
            var fields: HTTPFields = ["Host": "test"]
            for (name, value) in headers { fields.append(name, value) }
            return client.router.respond(to: HTTPRequest(method: method, target: target, headers: fields, body: body))
        }
        func detail(_ response: HTTPResponse) throws -> String? { try JSONParser().parse(response.body)["detail"]?.stringValue }
        let absent = send(.PUT, "/fonts/Acme/400", file, [("If-Match", "*")])
        #expect(absent.status.code == 412)
        #expect(try detail(absent) == "If-Match: * but no font face named 'Acme/400' exists")
        for _ in 0..<3 { _ = send(.PUT, "/fonts/Acme/400", file, []) }
        #expect(send(.GET, "/fonts/Acme/400", [], []).headers["ETag"] == "\"3\"")

        let stale = send(.PUT, "/fonts/Acme/400", other, [("If-Match", "\"1\"")])
        #expect(stale.status.code == 412)
        #expect(stale.headers["Content-Type"] == "application/problem+json")
        #expect(try detail(stale) == "If-Match '\"1\"' does not match font face 'Acme/400': the current version is 3")
        let exists = send(.PUT, "/fonts/Acme/400", other, [("If-None-Match", "*")])
        #expect(exists.status.code == 412)
        #expect(try detail(exists) == "Precondition failed for font face 'Acme/400': it exists and the current version is 3")
        let listed = send(.PUT, "/fonts/acme/400", other, [("If-None-Match", "\"2\", \"3\"")])
        #expect(listed.status.code == 422)  // another spelling of a stored family is refused first
        let named = send(.PUT, "/fonts/Acme/400", other, [("If-None-Match", "\"2\", \"3\"")])
        #expect(named.status.code == 412)
        #expect(try detail(named) == "If-None-Match '\"2\", \"3\"' matches font face 'Acme/400': the current version is 3")
        let staleDelete = send(.DELETE, "/fonts/acme/400", [], [("If-Match", "\"2\"")])
        #expect(staleDelete.status.code == 412)
        #expect(try detail(staleDelete) == "If-Match '\"2\"' does not match font face 'acme/400': the current version is 3")
        // RFC 9110 §13.1.2: If-None-Match: * fails a DELETE of an existing face.
        let anyDelete = send(.DELETE, "/fonts/acme/400", [], [("If-None-Match", "*")])
        #expect(anyDelete.status.code == 412)
        #expect(try detail(anyDelete) == "Precondition failed for font face 'acme/400': it exists and the current version is 3")
        let absentDelete = send(.DELETE, "/fonts/Acme/500", [], [("If-None-Match", "*")])
        #expect(absentDelete.status.code == 404)
        #expect(try detail(absentDelete) == "No stored font face 'Acme/500'")
        // Unquoted text is no entity tag: a 400 on every method, nothing written.
        for method in [HTTPMethod.PUT, .DELETE, .GET] {
            let bare = send(method, "/fonts/Acme/400", method == .PUT ? other : [], [("If-None-Match", "3")])
            #expect(bare.status.code == 400, "\(method)")
            #expect(try detail(bare) == "If-None-Match: '3' is not * or a list of entity tags: If-None-Match takes quoted entity tags, such as \"3\" (RFC 9110 §8.8.3)")
        }
        // Nothing changed.
        let got = send(.GET, "/fonts/Acme/400", [], [])
        let gotWhole = got.body == file   // one Bool: a failed == of large arrays is diffed (quadratic)
        #expect(gotWhole, "\(got.body.count) bytes of \(file.count)")
        #expect(got.headers["ETag"] == "\"3\"")

        let matching = send(.PUT, "/fonts/Acme/400", other, [("If-Match", "\"3\"")])
        #expect(matching.status.code == 200)
        #expect(try JSONParser().parse(matching.body)["version"]?.numberValue == 4)
        #expect(send(.DELETE, "/fonts/Acme/400", [], [("If-Match", "\"4\"")]).status.code == 204)
        #expect(send(.PUT, "/fonts/Acme/400", file, [("If-None-Match", "*")]).status.code == 201)
    }

    /// A font write without the token speaks of fonts (a group write of groups).
    @Test func aFontWriteWithoutTheTokenSpeaksOfFonts() throws {
        var configuration = ServiceConfiguration()
        configuration.apiToken = "secret"
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration))
        for (method, target) in [(HTTPMethod.PUT, "/fonts/Acme/400"), (.DELETE, "/fonts/Acme/400")] {
            let response = client.send(method, target, [1, 2, 3])
            #expect(response.status.code == 401)
            #expect(response.headers["WWW-Authenticate"] == "Bearer realm=\"layoutd\"")
            #expect(try JSONParser().parse(response.body)["detail"]?.stringValue == "Writing fonts needs 'Authorization: Bearer <token>'")
        }
        let group = client.send(.PUT, "/groups/g", Array(#"{"constraints":[]}"#.utf8))
        #expect(try JSONParser().parse(group.body)["detail"]?.stringValue == "Writing groups needs 'Authorization: Bearer <token>'")
        // A wrong token says so.
        let wrong = client.send(.PUT, "/groups/g", Array(#"{"constraints":[]}"#.utf8), [("Authorization", "Bearer guess")])
        #expect(wrong.status.code == 401)
        #expect(try JSONParser().parse(wrong.body)["detail"]?.stringValue
                == "Writing groups needs 'Authorization: Bearer <token>': the bearer token given is not the server's (--api-token)")
        configuration.apiToken = nil
        configuration.allowsAnonymousWrites = false
        let closed = Client(LayoutService(store: try SQLiteStore(path: ":memory:"), configuration: configuration))
        let refused = closed.send(.PUT, "/fonts/Acme/400", [1, 2, 3])
        #expect(refused.status.code == 403)
        #expect(try JSONParser().parse(refused.body)["detail"]?.stringValue == LayoutService.anonymousWritesRefusedDetail(fonts: true))
        #expect(LayoutService.anonymousWritesRefusedDetail(fonts: true).hasPrefix("Font writes are off: "))
        #expect(LayoutService.anonymousWritesRefusedDetail(fonts: true).hasSuffix("to let anyone who can reach it write fonts."))
    }

    /// `"text": {}` says the member `string` is missing, not that it found null.
    @Test func aLabelWithoutItsStringSaysTheMemberIsMissing() throws {
        let client = Client(LayoutService(store: try SQLiteStore(path: ":memory:")))
        let response = client.send(.POST, "/solve", Array(#"{"container":{"width":100,"height":100},"views":{"l":{"text":{}}},"constraints":[]}"#.utf8))
        #expect(response.status.code == 400)
        let diagnostic = try #require(try JSONParser().parse(response.body)["diagnostics"]?.arrayValue?.first)
        #expect(diagnostic["code"]?.stringValue == "invalid_scene")
        #expect(diagnostic["message"]?.stringValue == "Missing member 'string' at $.views.l.text: a label's text is required")
        #expect(diagnostic["path"]?.stringValue == "$.views.l.text.string")
    }
}
