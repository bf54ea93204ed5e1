import LayoutCompiler
@testable import LayoutService
import Testing

/// The decoder, the canonical form behind the cache keys and the caches agree on names by
/// construction (names are bytes): two scenes share a result key only if a fresh engine
/// answers them with the same bytes, and the same bytes get the same answer from a cold
/// engine and from one that knows the body's template (``SceneTemplate``), whatever the
/// decoder rejects.
struct NameBytesServiceTests {
    typealias Cache = StructureCacheTests

    /// The result key of `body` for `/solve`, or `nil` when it is not prepared (4xx).
    static func key(_ body: String) -> String? {
        let engine = SceneEngine()
        guard case .success(let prepared) = engine.prepare(body: Array(body.utf8), resolveGroup: { _ in nil }) else { return nil }
        return CacheKey.result(prepared, route: .solve)
    }

    struct Answer: Equatable {
        var status: Int
        var body: String
    }

    static func answer(_ engine: SceneEngine, _ body: String) -> Answer {
        let answer = Cache.answer(engine, body: Array(body.utf8))
        return Answer(status: answer.status, body: String(decoding: answer.body, as: UTF8.self))
    }

    /// 62 metrics and `K` with its KELVIN SIGN twin, `a.width` laid out as `K` (a Swift
    /// dictionary or `String ==` takes the two as one name): the twin is an invalid name,
    /// so each body is a 422 from a cold and a warm engine alike, and the ASCII scenes
    /// that lay out 34 and 32 have two keys.
    @Test func kelvinMetricPairNeverSharesAnAnswer() throws {
        let others = (0..<62).map { "\"m\($0)\":\($0)" }.joined(separator: ",")
        func body(_ metrics: String) -> String {
            #"{"container":{"width":100,"height":50},"views":["a"],"metrics":{\#(others),\#(metrics)},"constraints":["H:|[a(==K)]","V:|[a]|"]}"#
        }
        let warm = Cache.cachingEngine()
        for pair in [#""K":34,"\u212a":32"#, #""\u212a":32,"K":34"#, #""K":32,"\u212a":34"#] {
            let fresh = Self.answer(SceneEngine(), body(pair))
            #expect(fresh.status == 422)
            #expect(fresh.body.contains(#""code":"invalid_scene""#))
            #expect(fresh.body.contains("U+212A is not ASCII"))
            #expect(Self.key(body(pair)) == nil)
            for _ in 0..<2 { #expect(Self.answer(warm, body(pair)) == fresh) }
        }
        let wide = Self.answer(warm, body(#""K":34"#)), narrow = Self.answer(warm, body(#""K":32"#))
        #expect(wide.status == 200 && narrow.status == 200)
        #expect(wide.body.contains(#""a":{"x":0,"y":0,"width":34,"height":50}"#))
        #expect(narrow.body.contains(#""a":{"x":0,"y":0,"width":32,"height":50}"#))
        #expect(Self.key(body(#""K":34"#)) != Self.key(body(#""K":32"#)))
    }

    /// A view named `K` and a parent spelled U+212A: a 422, cold and warm.
    @Test func kelvinParentIsRefused() {
        let body = #"{"container":{"width":100,"height":50},"views":{"K":{},"a":{"parent":"\u212a"}},"constraints":["H:|[K]|","V:|[K]|","H:|[a]|","V:|[a]|"]}"#
        let fresh = Self.answer(SceneEngine(), body)
        #expect(fresh.status == 422)
        #expect(fresh.body.contains("names an unknown parent"))
        let warm = Cache.cachingEngine()
        for _ in 0..<2 { #expect(Self.answer(warm, body) == fresh) }
    }

    // MARK: - One decoding path

    /// The base of the replayed rejections: valid, with every container member.
    static let base = #"{"container":{"width":300,"height":200,"margins":{"left":20,"right":20},"safeArea":{"top":10}},"views":{"a":{"intrinsicSize":{"width":40,"height":20}},"b":{}},"metrics":{"m":8},"constraints":["H:|-[a]-m-[b]-|","V:|-[a]-|","V:|-[b]-|"]}"#

    /// Bodies the decoder rejects (400 or 422): a repeated name at every depth, unknown
    /// fields, wrong types, invalid and twin names, limits; most are `base` with one change.
    static let rejections: [String] = {
        func replacing(_ old: String, _ new: String) -> String {
            precondition(base.contains(old))
            return base.replacingOccurrences(of: old, with: new)
        }
        return [
            // Repeated names, container first (the template's canonical part).
            replacing(#""safeArea":{"top":10}"#, #""safeArea":{"top":1,"top":10}"#),
            replacing(#""safeArea":{"top":10}"#, #""safeArea":{"top":10,"top":10}"#),
            replacing(#""margins":{"left":20,"right":20}"#, #""margins":{"left":3,"left":20,"right":20}"#),
            replacing(#""margins":{"left":20,"right":20}"#, #""margins":{"left":20,"right":20,"right":20}"#),
            replacing(#""safeArea":{"top":10}"#, #""safeArea":{"top":1},"safeArea":{"top":10}"#),
            replacing(#""margins":{"left":20,"right":20}"#, #""margins":{"left":1},"margins":{"left":20,"right":20}"#),
            replacing(#""width":300"#, #""width":1,"width":300"#),
            replacing(#""height":200"#, #""height":200,"height":200"#),
            replacing(#""container":{"#, #""container":{"width":5},"container":{"#),
            replacing(#""views":{"a""#, #""views":{"a":{},"a""#),
            replacing(#""intrinsicSize":{"width":40,"height":20}"#, #""intrinsicSize":{"width":4,"width":40,"height":20}"#),
            replacing(#""intrinsicSize":{"width":40,"height":20}"#, #""intrinsicSize":{"width":40,"height":20},"intrinsicSize":{"width":40,"height":20}"#),
            replacing(#""b":{}"#, #""b":{"margins":{"top":1,"top":2}}"#),
            replacing(#""b":{}"#, #""b":{"hugging":{"horizontal":1,"horizontal":2}}"#),
            replacing(#""b":{}"#, #""b":{"hidden":false,"hidden":true}"#),
            replacing(#""b":{}"#, #""b":{"stack":{"arranged":[],"arranged":[]}}"#),
            replacing(#""b":{}"#, #""b":{"stack":{"arranged":["a"],"customSpacing":{"a":1,"a":2}}}"#),
            replacing(#""metrics":{"m":8}"#, #""metrics":{"m":1,"m":8}"#),
            replacing(#""metrics":{"m":8}"#, #""metrics":{"m":8},"metrics":{"m":8}"#),
            replacing(#""m":8}"#, #""m":8},"options":{"spacing":{"sibling":1,"sibling":2}}"#),
            replacing(#""m":8}"#, #""m":8},"options":{"ambiguity":"warn","ambiguity":"ignore"}"#),
            replacing(#""m":8}"#, #""m":8},"guides":{"g":{},"g":{}}"#),
            replacing(#""m":8}"#, #""m":8},"guides":{"g":{"owner":"a","owner":"b"}}"#),
            replacing(#""V:|-[b]-|""#, #""V:|-[b]-|",{"equation":"a.width == 10","id":"x","id":"y"}"#),
            replacing(#""V:|-[b]-|"]"#, #""V:|-[b]-|"],"sizes":[{"width":1,"width":2}]"#),
            replacing(#""V:|-[b]-|"]"#, #""V:|-[b]-|"],"sizes":[],"sizes":[]"#),
            replacing(#""V:|-[b]-|"]"#, #""V:|-[b]-|"],"explain":["a"],"explain":["b"]"#),
            // Unknown fields, types, values.
            replacing(#""safeArea":{"top":10}"#, #""safeArea":{"top":10,"tpo":1}"#),
            replacing(#""safeArea":{"top":10}"#, #""safeArea":{"top":"10"}"#),
            replacing(#""margins":{"left":20,"right":20}"#, #""margins":{"left":20,"right":2e12}"#),
            replacing(#""width":300"#, #""width":-300"#),
            replacing(#""width":300"#, #""width":300,"depth":1"#),
            replacing(#""V:|-[b]-|"]"#, #""V:|-[b]-|"],"sizes":[{"width":-1}]"#),
            replacing(#""V:|-[b]-|"]"#, #""V:|-[b]-|"],"sizes":[{"width":1,"depth":1}]"#),
            // Names.
            replacing(#""m":8}"#, #""m":8,"\u212a":1}"#),
            replacing(#""b":{}"#, #""b":{"parent":"\u212a"}"#),
            replacing(#""b":{}"#, #""b":{"parent":"e\u0301"}"#),
            replacing(#""b":{}"#, #""b":{},"\uff21":{}"#),
            replacing(#""b":{}"#, #""b":{},"superview":{}"#),
            replacing(#""m":8}"#, #""m":8},"guides":{"g":{"owner":"\u212a"}}"#),
            replacing(#""V:|-[b]-|"]"#, #""V:|-[b]-|"],"explain":["bb"]"#),
            replacing(#""V:|-[b]-|"]"#, #""V:|-[b]-|"],"groups":["g","g@1"]"#),
        ]
    }()

    /// `value` with each object's repeated names dropped, keeping the last (or first)
    /// occurrence: the body a repeat-blind reader would have seen.
    static func deduplicated(_ value: JSONValue, keepingLast: Bool) -> JSONValue {
        switch value {
        case .array(let elements): return .array(elements.map { deduplicated($0, keepingLast: keepingLast) })
        case .object(let members):
            var kept: [(String, JSONValue)] = []
            for (index, member) in members.enumerated() {
                let repeated = keepingLast
                    ? members[(index + 1)...].contains { utf8Equal($0.0, member.0) }
                    : members[..<index].contains { utf8Equal($0.0, member.0) }
                if !repeated { kept.append((member.0, deduplicated(member.1, keepingLast: keepingLast))) }
            }
            return .object(kept)
        default: return value
        }
    }

    /// Every rejection, after its repeat-free twins were solved (so an engine that keeps
    /// templates knows theirs): the same status and bytes as a fresh engine's, twice.
    @Test func everyRejectionIsTheSameThroughAWarmTemplate() throws {
        #expect(Self.answer(SceneEngine(), Self.base).status == 200)
        for body in Self.rejections {
            let fresh = Self.answer(SceneEngine(), body)
            #expect([400, 422].contains(fresh.status), "\(body) → \(fresh.status) \(fresh.body)")
            let warm = Cache.cachingEngine()
            _ = Self.answer(warm, Self.base)
            let json = try JSONParser().parse(Array(body.utf8))
            for keepingLast in [true, false] {
                var writer = JSONWriter()
                writer.value(Self.deduplicated(json, keepingLast: keepingLast))
                _ = Self.answer(warm, String(decoding: writer.bytes, as: UTF8.self))
            }
            for _ in 0..<2 {
                let cached = Self.answer(warm, body)
                #expect(cached == fresh, "\(body)")
            }
        }
    }

    // MARK: - Property

    /// A small deterministic generator (SplitMix64, Steele, Lea & Flood 2014).
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D1_049B_133B_11EB
            return z ^ (z >> 31)
        }
    }

    /// Names as JSON string contents: ASCII ones and their look-alikes — canonically
    /// equivalent (U+212A for `K`, `e` + U+0301 for U+00E9, escaped or raw),
    /// compatibility characters (U+FF21 for `A`, U+FB01 for `fi`).
    static let spellings: [[String]] = [
        ["K", "\\u212a", "\u{212A}"], ["A", "\\uff21", "\u{FF21}"], ["fi", "\\ufb01", "\u{FB01}"],
        ["e", "\\u00e9", "e\\u0301", "e\u{301}", "\u{E9}"], ["b"],
    ]

    /// Random scenes of those names (views, metrics, parents, constraints, stacks), with
    /// members shuffled and sometimes repeated: two scenes with one result key get the
    /// same bytes from fresh engines, and every scene gets them from one warm engine too.
    @Test func sameKeyOnlyForTheSameAnswer() throws {
        var random = SplitMix(state: 0x6B_7974_6573)
        func pick(_ group: Int? = nil) -> String {
            let spellings = Self.spellings[group ?? Int.random(in: 0..<Self.spellings.count, using: &random)]
            // Mostly the first (ASCII) spelling, so that many scenes are valid.
            return Int.random(in: 0..<3, using: &random) == 0 ? spellings.randomElement(using: &random)! : spellings[0]
        }
        func object(_ members: [(String, String)]) -> String {
            var members = members
            if !members.isEmpty && Int.random(in: 0..<6, using: &random) == 0 { members.append(members.randomElement(using: &random)!) }
            members.shuffle(using: &random)
            return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        func scene() -> String {
            let viewCount = Int.random(in: 1...3, using: &random)
            let views = (0..<viewCount).map { _ in pick() }
            var viewMembers: [(String, String)] = []
            for (index, name) in views.enumerated() {
                if index > 0 && Int.random(in: 0..<4, using: &random) == 0 {
                    viewMembers.append((name, #"{"parent":"\#(Bool.random(using: &random) ? views[0] : pick())"}"#))
                } else if index == 0 && viewCount > 1 && Int.random(in: 0..<4, using: &random) == 0 {
                    let arranged = views[1...].map { "\"\($0)\"" }.joined(separator: ",")
                    viewMembers.append((name, #"{"stack":{"arranged":[\#(arranged)],"customSpacing":{"\#(pick())":3}}}"#))
                } else {
                    viewMembers.append((name, "{}"))
                }
            }
            var metrics = (0..<Int.random(in: 0...2, using: &random)).map { _ in (pick(), String(Int.random(in: 10...40, using: &random))) }
            if Bool.random(using: &random) { metrics += (0..<62).map { ("m\($0)", "\($0)") } }
            let metric = metrics.first?.0 ?? "8"
            // Constraints name views and metrics as the JSON spells them (escapes are
            // written into the JSON string: the parser sees the character).
            let constraints = [
                #""H:|-[\#(views[0])(==\#(metric))]""#, #""V:|-[\#(views[0])]-|""#,
                #""\#(views.last!).width == \#(metric) + 2""#, #""\#(views.last!).height == 10""#,
            ]
            var top: [(String, String)] = [
                ("container", object([("width", "200"), ("height", "100")])),
                ("views", object(viewMembers)),
                ("constraints", "[" + constraints.joined(separator: ",") + "]"),
            ]
            if !metrics.isEmpty { top.append(("metrics", object(metrics))) }
            top.shuffle(using: &random)
            return "{" + top.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        var answersByKey: [String: (body: String, answer: String)] = [:]
        var shared = 0, solved = 0, refused = 0
        let warm = Cache.cachingEngine()
        for _ in 0..<400 {
            let body = scene()
            let fresh = Self.answer(SceneEngine(), body)
            #expect(Self.answer(warm, body) == fresh, "\(body)")
            if fresh.status == 200 { solved += 1 } else { refused += 1 }
            guard let key = Self.key(body) else { continue }
            if let earlier = answersByKey[key] {
                shared += 1
                #expect(earlier.answer == fresh.body, "\(earlier.body) and \(body) share a key")
            } else {
                answersByKey[key] = (body, fresh.body)
            }
        }
        // Not vacuous: keys were shared, scenes were solved and refused.
        #expect(shared >= 10)
        #expect(solved >= 50)
        #expect(refused >= 50)
    }
}
