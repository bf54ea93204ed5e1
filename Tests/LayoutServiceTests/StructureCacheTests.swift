import Foundation
import Synchronization
import LayoutCompiler
@testable import LayoutService
import Testing

/// The structure cache (compiled scenes and solved bases kept per scene without its
/// container size) must never change an answer: every test compares an engine that
/// keeps structures, after it solved the same structure at other sizes, with a fresh
/// engine that keeps none, byte for byte.
struct StructureCacheTests {
    /// What `/solve` answers for `body` (without HTTP and the result cache).
    static func answer(_ engine: SceneEngine, body: [UInt8]) -> EngineAnswer {
        switch engine.prepare(body: body, resolveGroup: { _ in nil }) {
        case .success(let prepared): return engine.solve(prepared)
        case .failure(let failure): return engine.problem(status: failure.status, diagnostics: failure.diagnostics)
        }
    }

    static func answer(_ engine: SceneEngine, _ scene: JSONValue) -> EngineAnswer {
        var writer = JSONWriter()
        writer.value(scene)
        return answer(engine, body: writer.bytes)
    }

    /// `scene` with its container's width set to `width` (`nil`: fitted).
    static func resized(_ scene: JSONValue, width: Double?) -> JSONValue {
        guard case .object(var members) = scene else { return scene }
        var container: [(String, JSONValue)] = []
        if let index = members.firstIndex(where: { $0.0 == "container" }), case .object(let existing) = members[index].1 {
            container = existing.filter { $0.0 != "width" }
        }
        members.removeAll { $0.0 == "container" }
        if let width { container.append(("width", .number(width))) }
        members.append(("container", .object(container)))
        return .object(members)
    }

    static func body(_ scene: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(scene)
        return writer.bytes
    }

    static func cachingEngine(_ limits: SceneLimits = SceneLimits()) -> SceneEngine {
        SceneEngine(limits: limits, structureCacheEntries: 64, structureCacheBytes: 64 << 20)
    }

    @Test("corpus scene after other sizes", arguments: CorpusTests.caseFiles())
    func corpusSceneAnswersAsWithoutTheCache(_ file: String) throws {
        let data = try Data(contentsOf: CorpusTests.corpusDirectory.appendingPathComponent(file))
        let scene = try #require(try JSONParser().parse([UInt8](data))["scene"])
        let engine = Self.cachingEngine()
        // Other widths first, then the fitted width (its own base), then the scene's own:
        // each base is kept and reused.
        for width in [123.5, nil, 1_000, 123.5, nil] as [Double?] {
            let resized = Self.resized(scene, width: width)
            let cached = Self.answer(engine, resized), fresh = Self.answer(SceneEngine(), resized)
            #expect(cached.status == fresh.status, "\(file) at width \(String(describing: width))")
            #expect(String(decoding: cached.body, as: UTF8.self) == String(decoding: fresh.body, as: UTF8.self), "\(file) at width \(String(describing: width))")
        }
        let expected = Self.answer(SceneEngine(), scene)
        let again = Self.answer(engine, scene)
        #expect(again.status == expected.status, "\(file)")
        #expect(String(decoding: again.body, as: UTF8.self) == String(decoding: expected.body, as: UTF8.self), "\(file)")
    }

    static let form = try! JSONParser().parse(Array(#"""
    {"container": {"width": 375, "height": 200, "margins": {"left": 20, "right": 20, "top": 8, "bottom": 8}},
     "views": {"label": {"intrinsicSize": {"width": 80, "height": 21}}, "field": {"intrinsicSize": {"width": -1, "height": 34}},
               "note": {}},
     "constraints": ["H:|-[label]-[field]-|", "V:|-[field]", "label.centerY == field.centerY", "H:[note]-|",
                     "V:[field]-[note(>=10)]-|", "note.leading == superview.leadingMargin"]}
    """#.utf8))

    /// Widths across the scene's breakpoints (the field's width hitting zero below 120
    /// points: a negative size) in a shuffled but fixed order, each against a fresh engine.
    @Test func manyWidthsMatchFreshSolves() {
        let engine = Self.cachingEngine()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let width = Double(state >> 40) / Double(1 << 24) * 600
            let scene = Self.resized(Self.form, width: width.rounded() / 4)
            let cached = Self.answer(engine, scene), fresh = Self.answer(SceneEngine(), scene)
            #expect(cached.status == fresh.status)
            #expect(cached.body == fresh.body, "width \(width.rounded() / 4)")
        }
        #expect(engine.structures?.usage.entries == 1)
    }

    /// A base nothing keeps (an engine without a structure cache) is resized in place,
    /// without the scratch copy a kept base lends: for every corpus scene and a `sizes`
    /// list that moves its width up and down, fits it and comes back, the answer is byte
    /// for byte the one of an engine that keeps the base and resizes a copy of it (its
    /// first request: the base is built, kept, and lends it a copy).
    @Test("unkept base resized in place", arguments: CorpusTests.caseFiles())
    func anUnkeptBaseIsResizedInPlace(_ file: String) throws {
        let data = try Data(contentsOf: CorpusTests.corpusDirectory.appendingPathComponent(file))
        let scene = try #require(try JSONParser().parse([UInt8](data))["scene"])
        guard case .object(var members) = scene else { Issue.record("\(file): not an object"); return }
        let height: JSONValue = .number(480)
        let sizes: [JSONValue] = [.object([("width", .number(320)), ("height", height)]),
                                  .object([("width", .number(412.5)), ("height", height)]),
                                  .object([("height", height)]),
                                  .object([("width", .number(96)), ("height", height)]),
                                  .object([("width", .number(320)), ("height", height)])]
        members.removeAll { $0.0 == "sizes" }
        members.append(("sizes", .array(sizes)))
        let engine = Self.cachingEngine()
        let kept = Self.answer(engine, .object(members)), unkept = Self.answer(SceneEngine(), .object(members))
        #expect(kept.status == unkept.status, "\(file)")
        #expect(String(decoding: kept.body, as: UTF8.self) == String(decoding: unkept.body, as: UTF8.self), "\(file)")
    }

    /// A body of a known template takes its structure key from the structure cache when
    /// it includes no groups and has no labels: the key must be the one computed from its
    /// digest, groups and fonts, on the first body and on every later size; with groups
    /// or a label it is computed (and differs from the key without them).
    @Test func keptStructureKeyIsTheComputedOne() throws {
        let engine = Self.cachingEngine()
        let resolve: GroupResolver = { reference in
            ResolvedGroup(name: reference.name, version: reference.version ?? 3, constraints: [], metrics: [:])
        }
        func key(_ prepared: SceneEngine.Prepared) -> SHA256Digest {
            CacheKey.structureKey(digest: prepared.structureDigest, groups: prepared.groups,
                                  fonts: prepared.text == nil ? nil : SceneText.measurer.catalog.fingerprint,
                                  storedFaces: prepared.storedFonts.used)
        }
        let plain = #"{"container": {"width": WIDTH, "height": 100}, "views": {"a": {}}, "constraints": ["H:|-[a]-|", "V:|-[a]-|"]}"#
        let grouped = #"{"container": {"width": WIDTH, "height": 100}, "groups": ["g"], "views": {"a": {}}, "constraints": ["H:|-[a]-|", "V:|-[a]-|"]}"#
        let labelled = #"{"container": {"width": WIDTH, "height": 100}, "views": {"a": {"text": {"string": "Hi", "font": {"family": "Inter", "size": 15}}}}, "constraints": ["H:|-[a]", "V:|-[a]"]}"#
        var keys: [String: Set<SHA256Digest>] = [:]
        for width in [300, 310, 320.5] {
            for (name, text) in [("plain", plain), ("grouped", grouped), ("labelled", labelled)] {
                let body = Array(text.replacingOccurrences(of: "WIDTH", with: "\(width)").utf8)
                let prepared = try engine.prepare(body: body, resolveGroup: resolve).get()
                #expect(prepared.structureKey == key(prepared), "\(name) at \(width)")
                keys[name, default: []].insert(prepared.structureKey)
            }
        }
        // One key per structure whatever the width, and three structures.
        #expect(keys.mapValues(\.count) == ["plain": 1, "grouped": 1, "labelled": 1])
        #expect(Set(keys.values.flatMap { $0 }).count == 3)
        // The grouped scene's key is not its digest's key without groups.
        let grouped300 = try engine.prepare(body: Array(grouped.replacingOccurrences(of: "WIDTH", with: "300").utf8), resolveGroup: resolve).get()
        #expect(grouped300.groups.map(\.version) == [3])
        #expect(grouped300.structureKey != CacheKey.structureKey(digest: grouped300.structureDigest, groups: []))
    }

    /// The margins are part of the structure: a kept compiled scene of other margins
    /// must not be used.
    @Test func marginsAreNotSharedBetweenStructures() throws {
        let engine = Self.cachingEngine()
        _ = Self.answer(engine, Self.form)
        let text = String(decoding: { var w = JSONWriter(); w.value(Self.form); return w.bytes }(), as: UTF8.self)
            .replacingOccurrences(of: #""left":20"#, with: #""left":50"#)
        let other = try JSONParser().parse(Array(text.utf8))
        let cached = Self.answer(engine, other), fresh = Self.answer(SceneEngine(), other)
        #expect(cached.body == fresh.body)
        // The note's frame starts at the new leading margin.
        #expect(String(decoding: cached.body, as: UTF8.self).contains(#""note":{"x":50,"#))
        #expect(engine.structures?.usage.entries == 2)
    }

    /// A kept base is charged at the work it took: at every budget the answer (a
    /// `limit_exceeded` 422 or the frames) is the one of a fresh engine, `sizes` included.
    @Test func workLimitAnswersDoNotDependOnTheCache() {
        var statuses: [Int] = []
        for budget in [500, 2_000, 5_000, 10_000, 20_000, 40_000, 80_000, 160_000] {
            var limits = SceneLimits()
            limits.maxSolverWork = budget
            let engine = Self.cachingEngine(limits)
            _ = Self.answer(engine, Self.resized(Self.form, width: 500))
            guard case .object(var members) = Self.form else {
                Issue.record("form is not a JSON object: \(Self.form)")
                return
            }
            members.append(("sizes", .array([.object([("width", .number(300))]), .object([("width", .number(200)), ("height", .number(90))])])))
            for scene in [Self.form, .object(members)] {
                let cached = Self.answer(engine, scene), fresh = Self.answer(SceneEngine(limits: limits), scene)
                #expect(cached.status == fresh.status, "budget \(budget)")
                #expect(cached.body == fresh.body, "budget \(budget)")
                statuses.append(cached.status.code)
            }
        }
        // The budgets span the scene's needs: the smallest fail, the largest solve.
        #expect(statuses.first == 422 && statuses.last == 200, "\(statuses)")
    }

    /// A known structure with sizes the decoder rejects is decoded whole: the same 400 or
    /// 422 with the same diagnostics as from a fresh engine. Each case is the container's
    /// width/height members, then the top level's `sizes` members (JSON text).
    @Test("invalid sizes of a known structure", arguments: [
        (#""width": -5"#, ""), (#""width": "375""#, ""), (#""width": null"#, ""), (#""width": 1e13"#, ""),
        (#""width": 1, "height": -0.5"#, ""), (#""width": 1, "width": 2"#, ""),
        ("", #", "sizes": [{"width": 1, "depth": 2}]"#), ("", #", "sizes": {"width": 1}"#),
        ("", #", "sizes": [{"width": -1}]"#), ("", #", "sizes": [3]"#), ("", #", "sizes": [], "sizes": []"#),
        // Not JSON: the container's value, or the sizes' (the skimmer's ranges then differ).
        (#""width": 3,"#, ""), (#""width": 3e"#, ""), ("", #", "sizes": [{"width": 1}"#), ("", #", "sizes": [{"width": 1}]]"#),
    ])
    func invalidSizesOfAKnownStructure(_ container: String, _ sizes: String) throws {
        let engine = Self.cachingEngine()
        _ = Self.answer(engine, Self.form)
        let views = String(decoding: { var w = JSONWriter(); w.value(Self.form["views"] ?? .null); return w.bytes }(), as: UTF8.self)
        let constraints = String(decoding: { var w = JSONWriter(); w.value(Self.form["constraints"] ?? .null); return w.bytes }(), as: UTF8.self)
        let margins = #""margins": {"left": 20, "right": 20, "top": 8, "bottom": 8}"#
        let text = #"{"container": {\#(container.isEmpty ? "" : container + ", ")\#(margins)}, "views": \#(views), "constraints": \#(constraints)\#(sizes)}"#
        let body = Array(text.utf8)
        let cached = Self.answer(engine, body: body), fresh = Self.answer(SceneEngine(), body: body)
        #expect([400, 422].contains(fresh.status), "\(String(decoding: fresh.body, as: UTF8.self))")
        #expect(cached.status == fresh.status)
        #expect(cached.body == fresh.body)
        // The template is the known one: valid sizes are answered from it.
        let valid = #"{"container": {"width": 300, \#(margins)}, "views": \#(views), "constraints": \#(constraints)}"#
        let template = try #require(SceneTemplate(body: Array(valid.utf8), maximumDepth: 64))
        #expect(engine.structures?.scene(template: template) != nil)
    }

    /// Too many sizes for maxFrames on a known structure: the 422 of a fresh decode.
    @Test func tooManyFramesOfAKnownStructure() throws {
        var limits = SceneLimits()
        limits.maxFrames = 8
        let engine = Self.cachingEngine(limits)
        _ = Self.answer(engine, Self.form)
        guard case .object(var members) = Self.form else {
            Issue.record("form is not a JSON object: \(Self.form)")
            return
        }
        members.append(("sizes", .array((0..<3).map { .object([("width", .number(Double(100 + $0)))]) })))
        let cached = Self.answer(engine, .object(members)), fresh = Self.answer(SceneEngine(limits: limits), .object(members))
        #expect(fresh.status == 422)
        #expect(cached.body == fresh.body)
        members.removeLast()
        members.append(("sizes", .array((0..<2).map { .object([("width", .number(Double(100 + $0)))]) })))
        #expect(Self.answer(engine, .object(members)).status == 200)
    }

    /// A member name written with an escape is the decoder's `container` or `sizes`
    /// but not the template's: the same body twice must answer as without the cache
    /// (found by a new-user test: the second answer lost the container's size).
    @Test("escaped member names", arguments: [
        #"{"contain\u0065r":{"width":300,"height":100},"views":["q1"],"constraints":["H:|-[q1]-|","V:|-[q1]-|"]}"#,
        #"{"\u0063ontainer":{"width":300,"height":100},"views":["q1"],"constraints":["H:|-[q1]-|","V:|-[q1]-|"]}"#,
        #"{"container":{"width":300,"height":100},"views":["q1"],"constraints":["H:|-[q1]-|","V:|-[q1]-|"],"s\u0069zes":[{"width":10}]}"#,
        #"{"container":{"w\u0069dth":300,"height":100},"views":["q1"],"constraints":["H:|-[q1]-|","V:|-[q1]-|"]}"#,
    ])
    func escapedMemberNames(_ text: String) throws {
        let engine = Self.cachingEngine()
        let scene = try JSONParser().parse(Array(text.utf8))
        let fresh = Self.answer(SceneEngine(), body: Array(text.utf8))
        #expect(fresh.status == 200)
        for _ in 0..<3 {
            #expect(String(decoding: Self.answer(engine, body: Array(text.utf8)).body, as: UTF8.self) == String(decoding: fresh.body, as: UTF8.self))
        }
        // And the same scene written plainly, at another width, still answers as without the cache.
        let other = Self.resized(scene, width: 280)
        #expect(Self.answer(engine, other).body == Self.answer(SceneEngine(), other).body)
    }

    /// A body recognised in place as another body's template has the template made from
    /// scratch (same key, same sizes); a body that is not (other margins, another view,
    /// a value cut off or followed by anything) is not recognised.
    @Test func aTemplateIsRecognisedInPlaceExactlyWhenItIsTheSame() throws {
        let base = #"{"container": {"width": 375, "height": 200, "margins": {"left": 20}}, "views": ["a", "b"], "constraints": ["H:|-[a]-[b]-|"], "sizes": [{"width": 10}]}"#
        let template = try #require(SceneTemplate(body: Array(base.utf8), maximumDepth: 64))
        let same = [
            base,
            base.replacingOccurrences(of: #""width": 375"#, with: #""width": 320.0001"#),
            base.replacingOccurrences(of: #""width": 375, "height": 200, "#, with: ""),
            base.replacingOccurrences(of: #"{"width": 375, "height": 200, "margins": {"left": 20}}"#, with: #"{ "margins" : {"left":20}, "height": 1e2 }"#),
            base.replacingOccurrences(of: #"[{"width": 10}]"#, with: #"[{"width": 10}, {"height": 5}, {}]"#),
            base.replacingOccurrences(of: #"[{"width": 10}]"#, with: #""none""#),
        ]
        let other = [
            base.replacingOccurrences(of: #""left": 20"#, with: #""left": 21"#),
            base.replacingOccurrences(of: #"["a", "b"]"#, with: #"["a", "c"]"#),
            base.replacingOccurrences(of: #""height": 200, "#, with: #""height": 200,, "#),
            base.replacingOccurrences(of: #"[{"width": 10}]"#, with: #"[{"width": 10}"#),
            base.replacingOccurrences(of: #"[{"width": 10}]"#, with: #"[{"width": 10}]]"#),
            base.replacingOccurrences(of: #"[{"width": 10}]"#, with: #"[{"width": 10}] 3"#),
            base + " x",
            String(base.dropLast()),
            base.replacingOccurrences(of: #""container""#, with: #""contain\u0065r""#),
        ]
        for text in same {
            let body = Array(text.utf8)
            let fresh = try #require(SceneTemplate(body: body, maximumDepth: 64), "\(text)")
            let found = try #require(template.rebased(onto: body, maximumDepth: 64), "\(text)")
            #expect(found.key == fresh.key && found.key == template.key, "\(text)")
            #expect(found.sizeMembers == fresh.sizeMembers, "\(text)")
            #expect(found.varying.map(\.value) == fresh.varying.map(\.value), "\(text)")
            // And recognised from the recognised one in turn.
            #expect(found.rebased(onto: Array(base.utf8), maximumDepth: 64)?.sizeMembers == template.sizeMembers)
        }
        for text in other {
            #expect(template.rebased(onto: Array(text.utf8), maximumDepth: 64) == nil, "\(text)")
            if let fresh = SceneTemplate(body: Array(text.utf8), maximumDepth: 64) { #expect(fresh.key != template.key, "\(text)") }
        }
        // Other whitespace between the members: the same template, but not found in place
        // (the body is then read whole and finds it by its key).
        let spaced = Array(base.replacingOccurrences(of: #""views": "#, with: #""views":"#).utf8)
        #expect(template.rebased(onto: spaced, maximumDepth: 64) == nil)
        #expect(SceneTemplate(body: spaced, maximumDepth: 64)?.key == template.key)
    }

    /// Requests of one structure at different widths on several threads at once: each
    /// takes its own scratch copy of the kept base (or copies the base), and each gets the
    /// frames of a fresh engine at its own width, byte for byte; afterwards at most
    /// ``ScratchSolvers/capacity`` copies are kept, each restored to the base.
    @Test func concurrentResizesOfOneStructure() throws {
        let engine = Self.cachingEngine()
        let widths = (0..<64).map { 200 + Double($0) * 7.25 }
        let bodies = widths.map { width -> [UInt8] in
            var writer = JSONWriter()
            writer.value(Self.resized(Self.form, width: width))
            return writer.bytes
        }
        let expected = bodies.map { Self.answer(SceneEngine(), body: $0).body }
        // Some widths give a negative size (a warning): the answers differ from width to width.
        #expect(Set(expected).count == widths.count)
        _ = Self.answer(engine, body: bodies[0])
        let answers = Mutex([[UInt8]?](repeating: nil, count: widths.count))
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<4 {
                for index in stride(from: (worker + round) % 4, to: widths.count, by: 4) {
                    let body = Self.answer(engine, body: bodies[index]).body
                    answers.withLock { answers in
                        if let earlier = answers[index] { #expect(earlier == body, "width \(widths[index])") }
                        answers[index] = body
                    }
                }
            }
        }
        let answered = answers.withLock { $0 }
        for index in widths.indices {
            #expect(answered[index] == expected[index], "width \(widths[index])")
        }
        let prepared = try engine.prepare(body: bodies[0], resolveGroup: { _ in nil }).get()
        let entry = try #require(engine.structures?.lookup(digest: prepared.structureKey, fitsWidth: false, fitsHeight: false))
        #expect((1...ScratchSolvers.capacity).contains(entry.base.scratch.count))
        #expect(engine.structures?.usage.entries == 1)
    }

    /// The ambiguity analysis of a size reached from a kept base by the same pivots as
    /// an earlier size is reused (AmbiguityMemo), charged at its work: at every budget
    /// around the point where a fresh solve of two sizes runs out at the second, the
    /// answer through a base primed under a large budget is the fresh one's.
    @Test func reusedAmbiguityAnalysisIsChargedInFull() throws {
        func compiled(_ budget: Int) throws -> CompiledScene {
            var limits = SceneLimits()
            limits.maxSolverWork = budget
            let scene = try SceneDecoder(limits: limits).decode(Self.form)
            return SceneCompiler(scene: scene, groups: [], limits: limits).compile()
        }
        // The charge matters to what is left for the sizes after the first.
        let size = [ContainerSize(width: 361, height: 200), ContainerSize(width: 520, height: 200)]
        func fresh(_ budget: Int) throws -> Layout { try compiled(budget).solve(sizes: size)[1] }
        // The least budget a fresh solve needs at width 361 (binary search).
        var low = 1, high = 1_000_000
        #expect(!(try fresh(high)).isRejected)
        while low < high {
            let middle = (low + high) / 2
            if try fresh(middle).isRejected { low = middle + 1 } else { high = middle }
        }
        // One base, primed at width 360 with room to spare: its analysis is kept.
        let roomy = try compiled(1_000_000)
        let base = roomy.makeResizableBase(fitsWidth: false, fitsHeight: false)
        _ = roomy.solve(sizes: [ContainerSize(width: 360, height: 200)]) { _, _ in base }
        #expect(base.memo.count == 1)
        var rejected: [Bool] = []
        for budget in (high - 3)...(high + 3) {
            let reused = try compiled(budget).solve(sizes: size) { _, _ in base }[1]
            let alone = try fresh(budget)
            #expect(reused.isRejected == alone.isRejected, "budget \(budget)")
            #expect(reused.frames.map(\.frame) == alone.frames.map(\.frame), "budget \(budget)")
            #expect(reused.diagnostics == alone.diagnostics, "budget \(budget)")
            rejected.append(reused.isRejected)
        }
        #expect(rejected == [true, true, true, false, false, false, false])
        // 360 and 361 reach the same tableau: still one kept analysis, now reused.
        #expect(base.memo.count == 1)
    }

    /// Both container dimensions given and changed from request to request, a size after
    /// a different size (the scratch copy of the kept base restored in between), then the
    /// first sizes again: every answer is a fresh engine's, byte for byte, and one scratch
    /// copy is kept, restored to the base.
    @Test func sizesAfterOtherSizesInBothDimensionsMatchFreshSolves() throws {
        let engine = Self.cachingEngine()
        let sizes: [(Double, Double)] = [(375, 200), (320.0001, 200), (375, 480.5), (90, 60), (1_000, 200), (375, 200),
                                         (320.0001, 480.5), (90, 60)]
        var writer = JSONWriter()
        writer.value(Self.form)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#""width":375,"height":200,"#))
        for (width, height) in sizes {
            let body = Array(text.replacingOccurrences(of: #""width":375,"height":200,"#, with: #""width":\#(width),"height":\#(height),"#).utf8)
            let cached = Self.answer(engine, body: body), fresh = Self.answer(SceneEngine(), body: body)
            #expect(cached.status == fresh.status, "\(width) × \(height)")
            #expect(String(decoding: cached.body, as: UTF8.self) == String(decoding: fresh.body, as: UTF8.self), "\(width) × \(height)")
        }
        let prepared = try engine.prepare(body: writer.bytes, resolveGroup: { _ in nil }).get()
        let entry = try #require(engine.structures?.lookup(digest: prepared.structureKey, fitsWidth: false, fitsHeight: false))
        #expect(entry.base.scratch.count == 1)
        #expect(engine.structures?.usage.entries == 1)
    }

    /// A structure asked once keeps its base and no scratch copy (the copy its request
    /// resized is dropped, not restored); asked again, it copies the base once more and
    /// keeps that copy. Every answer is a fresh engine's, byte for byte.
    @Test func aStructureAskedOnceKeepsNoScratchCopy() throws {
        let engine = Self.cachingEngine()
        func entry() throws -> StructureCache.Entry {
            let prepared = try engine.prepare(body: Self.body(Self.form), resolveGroup: { _ in nil }).get()
            return try #require(engine.structures?.lookup(digest: prepared.structureKey, fitsWidth: false, fitsHeight: false))
        }
        for (request, width) in [375.0, 320.5, 410, 320.5].enumerated() {
            let scene = Self.resized(Self.form, width: width)
            let cached = Self.answer(engine, scene), fresh = Self.answer(SceneEngine(), scene)
            #expect(cached.status == .ok)
            #expect(String(decoding: cached.body, as: UTF8.self) == String(decoding: fresh.body, as: UTF8.self), "width \(width)")
            #expect(try entry().base.scratch.count == (request == 0 ? 0 : 1), "after request \(request)")
        }
    }

    /// ``CacheKey/sizePart(_:)`` is ``CacheKey/split(_:)``'s size for every shape of size
    /// members a template keeps: a container of only its size (in either order, one of the
    /// two, none), with margins or a safe area, with `sizes`, `sizes` alone.
    @Test func theSizePartIsTheSplitsSize() throws {
        let shapes = [
            #"{"container": {"width": 320.0001, "height": 200}}"#,
            #"{"container": {"height": 200, "width": 1}}"#,
            #"{"container": {"width": 1}}"#,
            #"{"container": {}}"#,
            #"{"container": {"width": 1, "margins": {"left": 2}, "height": 3}}"#,
            #"{"container": {"safeArea": {"top": 20}, "width": 1}}"#,
            #"{"container": {"width": 1, "height": 2}, "sizes": [{"width": 5}, {}]}"#,
            #"{"sizes": [{"height": 5}], "container": {"height": 2}}"#,
            #"{"sizes": "none"}"#,
            #"{}"#,
            #"{"container": {"width": -0, "height": 1e21}}"#,
            #"{"container": {"width": 1, "width": 2}}"#,
            #"{"container": {"height": 0.5, "height": 0.25}}"#,
            #"{"container": {"width": null}}"#,
            #"{"container": {"w\u0069dth": 3, "height": 4}}"#,
            #"{"container": []}"#,
        ]
        for shape in shapes {
            let json = try JSONParser().parse(Array(shape.utf8))
            #expect(CacheKey.sizePart(json) == CacheKey.split(json).size, "\(shape)")
            var fast = JSONWriter(), split = JSONWriter()
            fast.value(CacheKey.sizePart(json), sortingKeys: true)
            split.value(CacheKey.split(json).size, sortingKeys: true)
            #expect(fast.bytes == split.bytes, "\(shape)")
            #expect(CacheKey.sizeJSON(json) == split.bytes, "\(shape)")
        }
    }

    /// A container of only its size has the template of the empty structure: bodies of
    /// other sizes (or none) are recognised in place and have the key made from scratch,
    /// and one with margins is not the same template.
    @Test func aContainerOfOnlyItsSizeIsRecognised() throws {
        let base = #"{"container": {"width": 375, "height": 200}, "views": ["a"], "constraints": ["H:|-[a]-|"]}"#
        let template = try #require(SceneTemplate(body: Array(base.utf8), maximumDepth: 64))
        for text in [base.replacingOccurrences(of: "375", with: "320.0001"), base.replacingOccurrences(of: #""width": 375, "height": 200"#, with: ""),
                     base.replacingOccurrences(of: #""width": 375, "height": 200"#, with: #""height": 1, "width": 2"#)] {
            let body = Array(text.utf8)
            let found = try #require(template.rebased(onto: body, maximumDepth: 64), "\(text)")
            let fresh = try #require(SceneTemplate(body: body, maximumDepth: 64))
            #expect(found.key == fresh.key && found.key == template.key && found.sizeMembers == fresh.sizeMembers, "\(text)")
        }
        for text in [base.replacingOccurrences(of: #""height": 200"#, with: #""height": 200, "margins": {}"#),
                     base.replacingOccurrences(of: #""height": 200"#, with: #""height": 200, "x": 1"#)] {
            #expect(template.rebased(onto: Array(text.utf8), maximumDepth: 64) == nil, "\(text)")
            #expect(SceneTemplate(body: Array(text.utf8), maximumDepth: 64)?.key != template.key, "\(text)")
        }
    }
}
