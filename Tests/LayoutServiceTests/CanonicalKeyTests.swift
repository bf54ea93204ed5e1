import Foundation
import LayoutCompiler
@testable import LayoutService
import Testing

/// The canonical form the parser writes in the same pass (`JSONParser.parseCanonical`)
/// against the writer over the parsed tree (`CacheKey.split`, then
/// `JSONWriter.value(_:sortingKeys: true)` of each part): the same bytes for the whole
/// value, the structure and the sizes, hence the same structure digest and result key,
/// for the corpus, scenes of `scripts/gen_scene.py`, the corpus with its members
/// shuffled and respelled, and generated documents full of the edge cases (escapes,
/// `\u` sequences and surrogate pairs, repeated names, `1e2`, `-0`, `0.1+0.2`, names
/// that are canonically equivalent but different bytes, whitespace). Malformed input
/// fails with the same error either way.
struct CanonicalKeyTests {
    /// The writer's canonical form of `body`: the whole value, the structure and the sizes.
    static func reference(_ json: JSONValue) -> (whole: [UInt8], structure: [UInt8], size: [UInt8]) {
        let (structure, size) = CacheKey.split(json)
        var whole = JSONWriter()
        whole.value(json, sortingKeys: true)
        var structureWriter = JSONWriter()
        structureWriter.value(structure, sortingKeys: true)
        var sizeWriter = JSONWriter()
        sizeWriter.value(size, sortingKeys: true)
        return (whole.bytes, structureWriter.bytes, sizeWriter.bytes)
    }

    /// Checks `body` both ways; returns the canonical structure.
    @discardableResult
    static func check(_ body: [UInt8], _ label: @autoclosure () -> String) throws -> [UInt8] {
        let parsed = Result { () throws(JSONParser.SyntaxError) in try JSONParser().parse(body) }
        let canonical = Result { () throws(JSONParser.SyntaxError) in try JSONParser().parseCanonical(body) }
        switch (parsed, canonical) {
        case (.failure(let expected), .failure(let found)):
            #expect(found == expected, "\(label())")
            return []
        case (.success(let json), .success(let (value, form))):
            #expect(value == json, "\(label())")
            let expected = reference(json)
            #expect(form.bytes == expected.whole, "\(label()): \(String(decoding: form.bytes, as: UTF8.self)) against \(String(decoding: expected.whole, as: UTF8.self))")
            #expect(form.structure == expected.structure, "\(label()): \(String(decoding: form.structure, as: UTF8.self)) against \(String(decoding: expected.structure, as: UTF8.self))")
            #expect(form.sizeJSON == expected.size, "\(label()): \(String(decoding: form.sizeJSON, as: UTF8.self)) against \(String(decoding: expected.size, as: UTF8.self))")
            #expect(CacheKey.structureDigest(canonical: form.structure) == CacheKey.structureDigest(CacheKey.split(json).structure, reservingCapacity: 64),
                    "\(label())")
            return form.structure
        default:
            Issue.record("\(label()): parse gave \(parsed), parseCanonical \(canonical.map { $0.value })")
            return []
        }
    }

    static func corpusScenes() throws -> [(String, JSONValue)] {
        try CorpusTests.caseFiles().map { file in
            let data = try Data(contentsOf: CorpusTests.corpusDirectory.appendingPathComponent(file))
            return (file, try #require(try JSONParser().parse([UInt8](data))["scene"]))
        }
    }

    @Test func theCanonicalFormIsTheWritersForTheCorpusAndGeneratedDocuments() throws {
        let scenes = try Self.corpusScenes()
        #expect(scenes.count >= 30)
        var random = SplitMix(state: 0x5EED)
        var checked = 0
        for (file, scene) in scenes {
            var writer = JSONWriter()
            writer.value(scene)
            let plain = try Self.check(writer.bytes, file)
            #expect(!plain.isEmpty, "\(file)")
            // Shuffled members, random whitespace and escapes: the same structure bytes.
            for round in 0..<20 {
                var respeller = Respeller(random: random.next())
                let respelled = respeller.spell(scene, shuffle: true)
                let structure = try Self.check(Array(respelled.utf8), "\(file) respelled \(round): \(respelled)")
                #expect(structure == plain, "\(file) respelled \(round)")
                checked += 1
            }
        }
        // Generated documents with every edge case, both as scenes (a container object,
        // sizes) and as any JSON value.
        for round in 0..<3_000 {
            var generator = DocumentGenerator(random: random.next())
            let document = generator.document(sceneLike: round % 3 != 0)
            var respeller = Respeller(random: random.next())
            let text = respeller.spell(document, shuffle: false)
            try Self.check(Array(text.utf8), "generated \(round): \(text)")
            checked += 1
        }
        #expect(checked == scenes.count * 20 + 3_000)
    }

    /// Scenes of `scripts/gen_scene.py` (4 to 2,000 views): the keys as the writer's.
    @Test func scenesOfGenSceneHaveTheWritersKeys() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/gen_scene.py")
        for (views, width) in [(4, 375.0), (20, 320.5), (200, 1024), (2_000, 0.1 + 0.2)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, String(views), "--width", String(width)]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(data.count > 100 * views / 4)
            try Self.check([UInt8](data), "gen_scene \(views)")
            // And through the engine: the digest and the result key of the old path.
            let engine = SceneEngine()
            guard case .success(let prepared) = engine.prepare(body: [UInt8](data), resolveGroup: { _ in nil }) else {
                Issue.record("gen_scene \(views) did not prepare")
                continue
            }
            let json = try JSONParser().parse([UInt8](data))
            #expect(prepared.structureDigest == CacheKey.structureDigest(CacheKey.split(json).structure, reservingCapacity: 64))
            #expect(prepared.sizeJSON == Self.reference(json).size)
        }
    }

    /// Every prefix of a corpus scene (malformed but for the whole) and single-byte
    /// corruptions fail with the same message and place as `parse`.
    @Test func malformedBodiesFailAsParseFails() throws {
        let scenes = try Self.corpusScenes().prefix(6)
        var random = SplitMix(state: 7)
        for (file, scene) in scenes {
            var writer = JSONWriter()
            writer.value(scene)
            let body = writer.bytes
            for end in stride(from: 0, to: body.count, by: 3) {
                try Self.check(Array(body[..<end]), "\(file) prefix \(end)")
            }
            let junk: [UInt8] = [0x00, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0xFF, 0xC3, 0x2D, 0x65, 0x30]
            for round in 0..<200 {
                var corrupt = body
                corrupt[Int(random.next() % UInt64(body.count))] = junk[Int(random.next() % UInt64(junk.count))]
                try Self.check(corrupt, "\(file) corrupt \(round)")
            }
        }
        for text in ["", " ", "{", "{\"a\"", "{\"a\":}", "[1,]", "\u{FEFF}{}", "{\"a\":1}x", "\"\\ud800\"", "1e999", "-", "[" + String(repeating: "[", count: 70)] {
            try Self.check(Array(text.utf8), "literal \(text.debugDescription)")
        }
    }

    /// Names the writer orders by bytes, not by `String <`, and repeated names in
    /// document order: the cases a sort by `String` would get wrong.
    @Test func edgeCasesByHand() throws {
        let texts = [
            #"{"sizes":[{"width":1e2}],"container":{"height":-0,"width":0.30000000000000004,"margins":{"top":1}},"views":{}}"#,
            #"{"container":{"width":1,"width":2},"sizes":[],"sizes":[1],"container":{"height":3},"container":5}"#,
            #"{"\u0073izes":1,"c\u006Fntainer":{"w\u0069dth":2,"x":3}}"#,
            #"{"K":1,"\u212A":2,"k":3,"é":4,"e\u0301":5,"":6,"a\"b":7,"a\\b":8,"a\nb":9,"a\u0001b":10,"\ud83d\ude00":11,"/":12,"\/":13}"#,
            "{ \"b\" :\t[ 1 , 2 ] ,\r\n \"a\" : { \"d\" : null , \"c\" : true , \"c\" : false } }",
            #"[{"b":1,"a":2},{"container":{"width":1}},"x\ty"]"#,
            #"{"container":[{"width":1}],"sizes":{"b":1,"a":2}}"#,
            #"{"container":{}}"#, #"{}"#, #"[]"#, #"1e2"#, #""\u00e9""#, #"{"a":{}}"#,
            #"{"n":[0,-0,1E2,1e-7,5e-324,1.7976931348623157e308,123456789012345678,0.1,-2.5e-3,1e15,9007199254740993]}"#,
        ]
        for text in texts { try Self.check(Array(text.utf8), text) }
        // 40 members out of order: the large-object sort.
        let many = "{" + (0..<40).reversed().map { "\"m\($0 % 13)\":\($0)" }.joined(separator: ",") + ",\"container\":{\"width\":1}}"
        try Self.check(Array(many.utf8), many)
    }
}

/// The deterministic SplitMix64 generator the name mutations use.
typealias SplitMix = SceneNameMutator.Generator

/// Random JSON values built of the cases canonical forms get wrong.
struct DocumentGenerator {
    var random: SplitMix
    init(random seed: UInt64) { random = SplitMix(state: seed) }

    static let names = ["sizes", "container", "width", "height", "views", "a", "b", "ab", "a\u{0}", "", "K", "\u{212A}", "é", "e\u{301}",
                        "a\"b", "a\\b", "line\nbreak", "tab\t", "\u{1}", "\u{7F}", "/", "😀", "\u{FFFF}", "z", "Z", "margins"]
    static let numbers: [Double] = [0, -0.0, 100, 1e2, 0.1 + 0.2, 0.1, 1.5, -2.25, 1e15, 1e16, 1e300, .leastNonzeroMagnitude, 1e-7, 123_456_789_012_345_680,
                                    9_007_199_254_740_992, 2_147_483_648, 0.03125, -0.000001, 375, 667.5, 1e21, 4.35]
    static let strings = ["", "x", "H:|-[a]-|", "quote\"", "back\\slash", "nl\n", "\u{0}\u{1F}", "é", "😀", "\u{2028}", "/path/", "\u{7F}"]

    mutating func document(sceneLike: Bool) -> JSONValue {
        guard sceneLike else { return value(depth: 0) }
        var members: [(String, JSONValue)] = []
        for _ in 0..<(1 + random.below(6)) {
            switch random.below(6) {
            case 0: members.append(("container", random.below(5) == 0 ? value(depth: 2) : object(depth: 1, names: ["width", "height", "margins", "safeArea", "width", "x"])))
            case 1: members.append(("sizes", .array((0..<random.below(4)).map { _ in object(depth: 2, names: ["width", "height"]) })))
            default: members.append((Self.names[random.below(Self.names.count)], value(depth: 1)))
            }
        }
        return .object(members)
    }

    mutating func object(depth: Int, names: [String]) -> JSONValue {
        .object((0..<random.below(5)).map { _ in (names[random.below(names.count)], value(depth: depth + 1)) })
    }

    mutating func value(depth: Int) -> JSONValue {
        switch random.below(depth > 3 ? 4 : 7) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .number(Self.numbers[random.below(Self.numbers.count)])
        case 3: return .string(Self.strings[random.below(Self.strings.count)])
        case 4: return .array((0..<random.below(4)).map { _ in value(depth: depth + 1) })
        default: return object(depth: depth, names: Self.names)
        }
    }
}

/// Writes a JSON value in one of its many spellings: random whitespace, members
/// shuffled (when asked), characters written as `\u` escapes (surrogate pairs beyond
/// the BMP) or `\/`, numbers as written by `description` or with an exponent.
struct Respeller {
    var random: SplitMix
    init(random seed: UInt64) { random = SplitMix(state: seed) }

    mutating func spell(_ value: JSONValue, shuffle: Bool) -> String {
        var out = ""
        write(value, shuffle: shuffle, into: &out)
        return space() + out + space()
    }

    mutating func space() -> String {
        ["", "", "", " ", "\n", "\t ", "\r\n  "][random.below(7)]
    }

    mutating func write(_ value: JSONValue, shuffle: Bool, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number): out += spell(number)
        case .string(let text): out += quote(text)
        case .array(let elements):
            out += "[" + space()
            for (index, element) in elements.enumerated() {
                if index > 0 { out += space() + "," + space() }
                write(element, shuffle: shuffle, into: &out)
            }
            out += space() + "]"
        case .object(var members):
            if shuffle {
                for index in members.indices.reversed() where index > 0 { members.swapAt(index, random.below(index + 1)) }
            }
            out += "{" + space()
            for (index, member) in members.enumerated() {
                if index > 0 { out += space() + "," + space() }
                out += quote(member.0) + space() + ":" + space()
                write(member.1, shuffle: shuffle, into: &out)
            }
            out += space() + "}"
        }
    }

    mutating func spell(_ number: Double) -> String {
        if number == 0 { return number.sign == .minus ? ["-0", "-0.0", "-0e5"][random.below(3)] : ["0", "0.0", "0E-3"][random.below(3)] }
        if number == number.rounded(), abs(number) < 1e15 {
            let whole = String(Int64(number))
            switch random.below(4) {
            case 0: return whole + ".0"
            case 1: return whole + "e0"
            case 2 where number == 100: return "1e2"
            default: return whole
            }
        }
        return random.below(2) == 0 ? "\(number)" : "\(number)".replacingOccurrences(of: "e", with: "E")
    }

    mutating func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where random.below(2) == 0: out += "\\/"
            case "\n": out += ["\\n", "\\u000a", "\\u000A"][random.below(3)]
            case "\t": out += ["\\t", "\\u0009"][random.below(2)]
            default:
                if scalar.value < 0x20 || random.below(8) == 0 {
                    if scalar.value > 0xFFFF {
                        let offset = scalar.value - 0x10000
                        out += String(format: "\\u%04X\\u%04x", 0xD800 + (offset >> 10), 0xDC00 + (offset & 0x3FF))
                    } else {
                        out += String(format: random.below(2) == 0 ? "\\u%04x" : "\\u%04X", scalar.value)
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
