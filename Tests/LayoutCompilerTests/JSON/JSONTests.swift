import Foundation
import LayoutCompiler
import Testing

/// The JSON parser and writer the scene compiler relies on (RFC 8259).
struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)) }

    /// ``JSONParser/parseNumberObject(_:)`` answers only objects of numbers, and then
    /// exactly what ``JSONParser/parse(_:)`` answers: the same names in the same order and
    /// the same doubles, bit for bit; anything it leaves, the parser reads or refuses.
    @Test func flatNumberObjectsAreParsedAsTheParserParsesThem() throws {
        let read: [String] = [
            #"{}"#, #" { } "#, #"{"width":320.0001,"height":667}"#, #"{"width":375}"#, #"{ "height" : -0 , "width":0 }"#,
            #"{"width":1e2,"height":2.5E-3}"#, #"{"a":123456789012345,"b":1234567890123456,"c":-1234567890123456789}"#,
            #"{"width":1,"width":2}"#, #"{"w":0.1,"x":-0.0,"y":1E+2,"z":9007199254740993}"#, "{\n\t\"width\":\r 12 }",
        ]
        let left: [String] = [
            #"{"width":"1"}"#, #"{"width":null}"#, #"{"width":{}}"#, #"{"w\u0069dth":1}"#, "{\"caf\u{E9}\":1}", #"{"width":01}"#,
            #"{"width":1.}"#, #"{"width":.5}"#, #"{"width":1e}"#, #"{"width":+1}"#, #"{"width":1e999}"#, #"{"width":1,}"#,
            #"{"width":1"#, #"{"width" 1}"#, #"{"width":1} x"#, #"[1]"#, #"{"width":-}"#, "", #"{"a":1 "b":2}"#,
        ]
        for text in read {
            let bytes = ArraySlice(Array(text.utf8))
            let fast = try #require(JSONParser().parseNumberObject(bytes), "\(text)")
            guard case .object(let parsed) = try JSONParser().parse(bytes) else { Issue.record("\(text)"); continue }
            #expect(fast.map(\.0) == parsed.map(\.0), "\(text)")
            #expect(fast.count == parsed.count, "\(text)")
            for (mine, theirs) in zip(fast, parsed) {
                guard case .number(let a) = mine.1, case .number(let b) = theirs.1 else { Issue.record("\(text)"); continue }
                #expect(a.bitPattern == b.bitPattern, "\(text)")
            }
        }
        for text in left {
            #expect(JSONParser().parseNumberObject(ArraySlice(Array(text.utf8))) == nil, "\(text)")
        }
        #expect(JSONParser(maximumDepth: 0).parseNumberObject(ArraySlice(Array("{}".utf8))) == nil)
        #expect(JSONParser().parseNumberObject(ArraySlice(Array(#"{"width":320.0001}"#.utf8)))?.first?.1 == .number(320.0001))
    }

    /// The edges of the one number grammar, read by ``JSONParser/parseNumberObject(_:)``
    /// and ``JSONParser/parse(_:)`` alike: negative zero keeps its sign, 15 digits are
    /// read exactly and 16 or more correctly rounded, a tiny exponent reads as zero, and
    /// leading zeros or a number past `Double`'s range are refused by both.
    @Test func numberEdgesAreReadAlikeByBoth() throws {
        let read: [(String, Double)] = [
            ("-0", -0.0), ("0", 0), ("-0.0e5", -0.0), ("999999999999999", 999_999_999_999_999),
            ("-999999999999999", -999_999_999_999_999), ("1234567890123456", 1_234_567_890_123_456),
            ("9007199254740993", 9_007_199_254_740_992), ("12345678901234567890", 12_345_678_901_234_567_168),
            ("1e-400", 0), ("1.7976931348623157e308", .greatestFiniteMagnitude), ("0.5", 0.5), ("1E2", 100),
        ]
        for (text, expected) in read {
            let fast = JSONParser().parseNumberObject(ArraySlice(Array("{\"n\":\(text)}".utf8)))
            guard case .number(let a)? = fast?.first?.1 else { Issue.record("\(text)"); continue }
            #expect(a.bitPattern == expected.bitPattern, "\(text): \(a)")
            guard case .array(let items) = try parse("[\(text)]"), case .number(let b)? = items.first else {
                Issue.record("\(text)"); continue
            }
            #expect(b.bitPattern == expected.bitPattern, "\(text): \(b)")
        }
        for text in ["00", "-01", "007", "1e400", "-1e400", "1.8e308", "-", "1.e5", "1e", "--1"] {
            #expect(JSONParser().parseNumberObject(ArraySlice(Array("{\"n\":\(text)}".utf8))) == nil, "\(text)")
            #expect(throws: JSONParser.SyntaxError.self, "\(text)") { try parse("[\(text)]") }
        }
    }

    @Test func valuesAndMemberOrder() throws {
        let value = try parse(#" {"b": [1, 2.5, -0.25e1, true, false, null], "a": "x\u00e9\ud83d\ude00\n"} "#)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.0) == ["b", "a"])
        #expect(value["b"] == .array([.number(1), .number(2.5), .number(-2.5), .bool(true), .bool(false), .null]))
        #expect(value["a"] == .string("xé😀\n"))
    }

    @Test func booleansAreNeverNumbers() throws {
        #expect(try parse("true") == .bool(true))
        #expect(try parse("1") == .number(1))
        #expect(try parse("true") != .number(1))
    }

    @Test("syntax errors name the place", arguments: [
        (#"{"a": tru}"#, 1, 7, "Expected a JSON value ('true'?) but found 'tru}'"),
        ("not json", 1, 1, "Expected a JSON value ('null'?) but found 'not json'"),
        ("{\n  \"a\": 1,\n}", 3, 1, "Expected a member name"),
        (#"[1, 2"#, 1, 6, "Expected ',' or ']'"),
        (#"{"a" 1}"#, 1, 6, "Expected ':'"),
        (#"01"#, 1, 2, "Leading zeros"),
        (#"[-00]"#, 1, 4, "Leading zeros are not allowed in a number"),
        (#"[-]"#, 1, 3, "Expected a digit in a number"),
        (#"[1.]"#, 1, 4, "Expected a digit after '.' in a number"),
        (#"[1e+]"#, 1, 5, "Expected a digit in a number's exponent"),
        (#"[1e400]"#, 1, 2, "Number 1e400 is out of range"),
        (#"[-1234567890123456e300]"#, 1, 2, "Number -1234567890123456e300 is out of range"),
        (#""\x""#, 1, 2, "Invalid escape"),
        (#"[1] x"#, 1, 5, "Unexpected character 'x'"),
        (#""\ud800""#, 1, 8, "Unpaired UTF-16 surrogate"),
    ])
    func syntaxErrors(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        do throws(JSONParser.SyntaxError) {
            _ = try JSONParser().parse(Array(text.utf8))
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.line == line, "\(text): \(error.message)")
            #expect(error.column == column, "\(text): \(error.message)")
            #expect(error.message.hasPrefix(message), "\(text): \(error.message)")
        }
    }

    /// A slice of a larger buffer is read in place (not copied first): the same values,
    /// and errors at the same offsets, lines and columns (counted from the slice's start)
    /// as the same bytes in an array of their own; a collection without contiguous
    /// storage is copied and parsed alike.
    @Test func slicesParseAsTheirOwnBytes() throws {
        let texts = [#"{"width":320.5,"height":[1,2]}"#, #"{"a": tru}"#, "{\n  \"a\": 1,\n}", #"[1] x"#]
        for text in texts {
            let bytes = Array(text.utf8)
            let framed = Array("xx[".utf8) + bytes + Array("]yy".utf8)
            let slice = framed[3..<(3 + bytes.count)]
            let lazy = bytes.lazy.map { $0 }   // no contiguous storage
            let own = Result { () throws(JSONParser.SyntaxError) in try JSONParser().parse(bytes) }
            let sliced = Result { () throws(JSONParser.SyntaxError) in try JSONParser().parse(slice) }
            let copied = Result { () throws(JSONParser.SyntaxError) in try JSONParser().parse(lazy) }
            #expect(sliced == own, "\(text)")
            #expect(copied == own, "\(text)")
        }
        #expect(try JSONParser().parse(Array(#"{"width":320.5}"#.utf8)[9..<14]) == .number(320.5))
    }

    @Test func nestingBeyondTheLimitIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParser.SyntaxError.self) { try parse(deep) }
        #expect(throws: Never.self) { try JSONParser(maximumDepth: 3).parse(Array("[[[1]]]".utf8)) }
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser(maximumDepth: 3).parse(Array("[[[[1]]]]".utf8)) }
    }

    @Test func invalidUTF8AndOutOfRangeNumbersAreErrors() {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser().parse([0x22, 0xFF, 0x22]) }
        #expect(throws: JSONParser.SyntaxError.self) { try parse("1e400") }
        #expect(throws: JSONParser.SyntaxError.self) { try parse("\"a\u{01}\"") }
    }

    /// A number out of range is quoted whole up to 40 characters, else shortened around
    /// "…" with its length: a 900,000-digit number made a 1.8 MB answer.
    @Test func aLongNumberOutOfRangeIsQuotedShort() {
        func message(_ text: String) -> String {
            do throws(JSONParser.SyntaxError) {
                _ = try JSONParser().parse(Array(text.utf8))
                return "parsed"
            } catch { return error.message }
        }
        #expect(message("1e400") == "Number 1e400 is out of range at line 1, column 1")
        let long = "1" + String(repeating: "0", count: 100_000) + "e1"
        #expect(message("[" + long + "]") == "Number 100000000000000000000000…000000e1 (100003 characters) is out of range at line 1, column 2")
    }

    @Test func lastRepeatedMemberWins() throws {
        #expect(try parse(#"{"a": 1, "a": 2}"#)["a"] == .number(2))
    }
}

struct JSONWriterTests {
    func written(_ value: JSONValue, sortingKeys: Bool = false) -> String {
        var writer = JSONWriter()
        writer.value(value, sortingKeys: sortingKeys)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("number format", arguments: [
        (20.0, "20"), (-0.0, "0"), (0.5, "0.5"), (-3.25, "-3.25"), (1e-7, "1e-07"), (123456789, "123456789"),
        (-9_007_199_254_740_991, "-9007199254740991"), (1e17, "1e+17"), (0.1 + 0.2, "0.30000000000000004"),
    ])
    func numberFormat(_ value: Double, _ expected: String) {
        #expect(written(.number(value)) == expected)
    }

    /// The edges of the micro-decimal path (`JSONWriter.writeMicros`): ±0, halves, the
    /// smallest fraction it writes and the one below it, the last value below 10⁹,
    /// fractions it must leave (1/3), whole numbers past it, and exponents.
    @Test func numberFormatAtTheEdgesOfTheDecimalPath() {
        let cases: [(Double, String)] = [
            (0.0, "0"), (-0.5, "-0.5"), (0.0001, "0.0001"), (-0.0001, "-0.0001"), (0.00005, "5e-05"), (0.000099, "9.9e-05"),
            (320.0001, "320.0001"), (-288.000001, "-288.000001"), (1.1, "1.1"), (12.34, "12.34"), (999_999_999.999999, "999999999.999999"),
            (999_999_999, "999999999"), (-999_999_999, "-999999999"), (1e9, "1000000000"), (-1e9 - 0.5, "-1000000000.5"),
            (1.0 / 3, "0.3333333333333333"), (-2.0 / 3, "-0.6666666666666666"), (123_456_789_012, "123456789012"),
            (9_007_199_254_740_992, "9007199254740992.0"), (1e21, "1e+21"), (-1e21, "-1e+21")
        ]
        for (value, expected) in cases {
            #expect(written(.number(value)) == expected, "\(value.bitPattern)")
        }
    }

    /// Byte equality and the ASCII check across the 8-byte words they read: a difference
    /// in the last byte, in a word's middle, and canonically equivalent spellings.
    @Test func namesCompareByBytes() {
        #expect(utf8Equal("", ""))
        #expect(utf8Equal("emailFieldLabel1", "emailFieldLabel1"))
        #expect(!utf8Equal("emailFieldLabel1", "emailFieldLabel2"))
        #expect(!utf8Equal("emailFieXdLabel1", "emailFieldLabel1"))
        #expect(!utf8Equal("abcdefghi", "abcdefgh"))
        #expect(!utf8Equal("K", "\u{212A}"))
        #expect(!utf8Equal("caf\u{E9}", "cafe\u{301}"))
        #expect(utf8Equal(String(repeating: "a", count: 100) + "\u{E9}", String(repeating: "a", count: 100) + "\u{E9}"))
        #expect(isASCII(""))
        #expect(isASCII("H:|-[emailLabel(labelW)]-[emailField]-|"))
        #expect(!isASCII("H:|-[emailLabel(labelW)]-[emailField\u{E9}]-|"))
        #expect(!isASCII("abcdefg\u{E9}"))
        #expect(!isASCII("\u{E9}"))
    }

    @Test func escaping() {
        #expect(written(.string("a\"b\\c\n\t\u{01}é")) == #""a\"b\\c\n\t\u0001é""#)
    }

    /// Sorted by bytes, then by position: a repeated name is written each time, in the
    /// order given, so a body with a repeat never has the canonical form of one without.
    @Test func canonicalFormKeepsEveryMemberInByteOrder() throws {
        let value = try JSONParser().parse(Array(#"{"b": {"z": 1, "a": [3, {"y": 1, "x": 2}]}, "a": 1, "B": 2, "a": 3}"#.utf8))
        #expect(written(value, sortingKeys: true) == #"{"B":2,"a":1,"a":3,"b":{"a":[3,{"x":2,"y":1}],"z":1}}"#)
        #expect(written(value) == #"{"b":{"z":1,"a":[3,{"y":1,"x":2}]},"a":1,"B":2,"a":3}"#)
        let once = try JSONParser().parse(Array(#"{"safeArea": {"top": 5}}"#.utf8))
        let twice = try JSONParser().parse(Array(#"{"safeArea": {"top": 1, "top": 5}}"#.utf8))
        #expect(written(once, sortingKeys: true) == #"{"safeArea":{"top":5}}"#)
        #expect(written(twice, sortingKeys: true) == #"{"safeArea":{"top":1,"top":5}}"#)
    }

    /// Names already in byte order are written as they are. A name spelled with U+212A
    /// KELVIN SIGN (a Swift string equal to `K`) is another name, after `K` in byte order
    /// (E2 84 AA > 4B), whichever comes first; with more than 32 members (the other sort)
    /// too. Both orders of the same members give the same bytes: a strict order.
    @Test func canonicalFormOfSortedAndEquivalentNames() throws {
        let sorted = try JSONParser().parse(Array(#"{"A":1,"B":[2,{"c":3,"d":4}],"a":5}"#.utf8))
        #expect(written(sorted, sortingKeys: true) == #"{"A":1,"B":[2,{"c":3,"d":4}],"a":5}"#)
        let kelvinFirst = try JSONParser().parse(Array("{\"\u{212A}\":1,\"K\":2,\"J\":0}".utf8))
        #expect(written(kelvinFirst, sortingKeys: true) == "{\"J\":0,\"K\":2,\"\u{212A}\":1}")
        let kelvinLast = try JSONParser().parse(Array("{\"K\":2,\"\u{212A}\":1,\"J\":0}".utf8))
        #expect(written(kelvinLast, sortingKeys: true) == "{\"J\":0,\"K\":2,\"\u{212A}\":1}")
        // 64 members: "K" and U+212A among 62 others, in both orders.
        let others = (0..<62).map { "\"m\($0)\":\($0)" }.joined(separator: ",")
        let large1 = try JSONParser().parse(Array("{\(others),\"K\":34,\"\u{212A}\":32}".utf8))
        let large2 = try JSONParser().parse(Array("{\"\u{212A}\":32,\(others),\"K\":34}".utf8))
        let large3 = try JSONParser().parse(Array("{\"\u{212A}\":34,\(others),\"K\":32}".utf8))
        #expect(written(large1, sortingKeys: true) == written(large2, sortingKeys: true))
        #expect(written(large1, sortingKeys: true) != written(large3, sortingKeys: true))
        #expect(written(large1, sortingKeys: true).hasPrefix("{\"K\":34,\"m0\":0,"))
        #expect(written(large1, sortingKeys: true).hasSuffix(",\"m9\":9,\"\u{212A}\":32}"))
    }

    /// A large object (sorted with the standard library's sort, not the insertion sort
    /// small objects use) gets the same order: by bytes, then position.
    @Test func canonicalFormOfALargeObject() throws {
        let names = (0..<300).map { "v\($0)" }
        var text = "{" + names.reversed().map { "\"\($0)\":1" }.joined(separator: ",")
        text += ",\"v7\":2}"
        let value = try JSONParser().parse(Array(text.utf8))
        let expected = "{" + names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { $0 == "v7" ? "\"v7\":1,\"v7\":2" : "\"\($0)\":1" }.joined(separator: ",") + "}"
        #expect(written(value, sortingKeys: true) == expected)
    }

    /// Member lookup and equality are by bytes: U+212A is not `K`, `e` + U+0301 is not `é`.
    @Test func lookupAndEqualityAreByBytes() {
        let object = JSONValue.object([("\u{212A}", .number(1)), ("e\u{301}", .number(2))])
        #expect(object["K"] == nil)
        #expect(object["\u{212A}"] == .number(1))
        #expect(object["\u{E9}"] == nil)
        #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
        #expect(JSONValue.object([("K", .null)]) != .object([("\u{212A}", .null)]))
    }

    /// Every number is written as ``JSONWriter/format(_:)`` writes it (integral values as
    /// integers, others as Swift's `description`), byte for byte, whichever way the writer
    /// takes: seeded random bit patterns, values rounded for a response at every magnitude,
    /// the pixel grids of display scales 1, 2 and 3 and their resizes by 1/10,000 of a point,
    /// and the bounds of the decimal path.
    @Test func microDecimalsAreWrittenAsDescriptionWritesThem() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        var values: [Double] = []
        for _ in 0..<100_000 {
            let bits = Double(bitPattern: next())
            if bits.isFinite { values.append(bits) }
        }
        for _ in 0..<200_000 {
            // Every magnitude from 10⁻⁷ to 10¹⁰, either sign, rounded as answers are.
            let magnitude = Foundation.pow(10, unit() * 17 - 7) * (next() & 1 == 0 ? 1 : -1)
            values.append(roundedForResponse(magnitude))
            values.append(magnitude)
        }
        for scale in [1.0, 2, 3] {
            for k in -20_000...20_000 {
                let pixel = Double(k) / scale
                values.append(pixel)
                values.append(roundedForResponse(pixel))
                values.append(roundedForResponse((320 + Double(k) / 10_000) / scale))
            }
        }
        // The short binary path's values: every k/32 (and every k/64, half of them past
        // it) for |k| ≤ 2¹⁸, each one ulp either side; whole numbers and 32nds around
        // 2³¹, where the path ends, and around powers of ten, where a digit is added.
        for k in -(1 << 18)...(1 << 18) {
            let value = Double(k) / 32
            values.append(value)
            values.append(value.nextUp)
            values.append(value.nextDown)
            values.append(Double(k) / 64)
        }
        for base in [2_147_483_648.0, 4_294_967_296] + (0...10).map({ Foundation.pow(10, Double($0)) }) {
            for k in -64...64 {
                let value = base + Double(k) / 32
                values.append(value)
                values.append(-value)
                values.append(value.nextUp)
            }
        }
        values.append(-0.0)
        for bound in [1e-4, 0.00012, 0.000999999, 0.001, 999_999_999.999999, 1e9, 123_456_789.123456, 0.1 + 0.2] {
            for value in [bound, bound.nextUp, bound.nextDown, -bound, roundedForResponse(bound)] { values.append(value) }
        }
        var mismatches: [String] = []
        var decimals = 0
        for value in values {
            var writer = JSONWriter()
            writer.number(value)
            let expected = JSONWriter.format(value)
            if value != value.rounded(.towardZero) {
                #expect(expected == value.description)
                decimals += 1
            }
            if writer.bytes != Array(expected.utf8), mismatches.count < 10 {
                mismatches.append("\(value.bitPattern): \(String(decoding: writer.bytes, as: UTF8.self)) against \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(values.count > 2_800_000 && decimals > 2_500_000, "\(values.count) values, \(decimals) not integral")
    }

    /// ``JSONWriter/frame(x:y:width:height:)`` writes the bytes of the object written field
    /// by field, and under every byte limit it stops exactly when the field-by-field
    /// writer does.
    @Test func aFrameIsWrittenAsItsFields() {
        let frames: [(Double, Double, Double, Double)] = [
            (0, -0.0, 320.0001, 1e-7), (1.5, 2.25, -3.333333, 1e17), (-12, 0.1 + 0.2, 44.000001, 999_999_999.5),
            (123_456_789.123456, -0.0001, 7, 0.5),
        ]
        // Plain names, and names written through the escaping path: a quote, a control
        // character, past the plain length, non-ASCII.
        let names = ["view0", "q\"uote", "tab\t", String(repeating: "n", count: 65), "\u{E9}t\u{E9}", String(repeating: "m", count: 64)]
        func write(fused: Bool, limit: Int = .max) -> JSONWriter {
            var writer = JSONWriter(limit: limit)
            writer.beginObject()
            for (index, name) in names.enumerated() {
                let frame = frames[index % frames.count]
                if fused && index % 2 == 1 {
                    writer.key(name)
                    writer.frame(x: frame.0, y: frame.1, width: frame.2, height: frame.3)
                } else if fused {
                    writer.frame(named: name, x: frame.0, y: frame.1, width: frame.2, height: frame.3)
                } else {
                    writer.key(name)
                    writer.beginObject()
                    writer.key(plain: "x"); writer.number(frame.0)
                    writer.key(plain: "y"); writer.number(frame.1)
                    writer.key(plain: "width"); writer.number(frame.2)
                    writer.key(plain: "height"); writer.number(frame.3)
                    writer.endObject()
                }
            }
            writer.endObject()
            return writer
        }
        let whole = write(fused: false).bytes
        #expect(write(fused: true).bytes == whole)
        #expect(String(decoding: whole, as: UTF8.self).hasPrefix(#"{"view0":{"x":0,"y":0,"width":320.0001,"height":1e-07},"q\"uote":{"x":1.5,"#))
        for limit in 0...(whole.count + 2) {
            var fused = write(fused: true, limit: limit), fields = write(fused: false, limit: limit)
            let finished = fields.finish()
            #expect(fused.finish() == finished, "limit \(limit)")
            // A stopped writer's bytes are never used (``JSONWriter/finish()`` is false).
            #expect(fused.stop == fields.stop && (!finished || fused.bytes == fields.bytes), "limit \(limit)")
            #expect(finished == (limit >= whole.count), "limit \(limit)")
        }
    }

    /// ``JSONWriter/frame(named:x:y:width:height:)`` with any name writes the bytes of
    /// ``JSONWriter/key(_:)`` and ``JSONWriter/frame(x:y:width:height:)``: names that need
    /// an escape anywhere (first, middle, last byte) fall back to the key after the plain
    /// copy has begun, and leave nothing of it behind.
    @Test func aFrameOfAnyNameIsWrittenAsItsKeyAndFrame() {
        let names = ["a", "\"first", "mid\"dle", "last\"", "back\\slash", "ctl\u{1}", "\u{1F}", "caf\u{E9}",
                     String(repeating: "p", count: 64), String(repeating: "q", count: 63) + "\"", ""]
        for name in names {
            var fused = JSONWriter(), parts = JSONWriter()
            fused.beginObject(); parts.beginObject()
            for (x, y) in [(1.5, -2.0), (320.0001, 0.1 + 0.2)] {
                fused.frame(named: name, x: x, y: y, width: 10, height: 44.000001)
                parts.key(name)
                parts.frame(x: x, y: y, width: 10, height: 44.000001)
            }
            fused.endObject(); parts.endObject()
            #expect(String(decoding: fused.bytes, as: UTF8.self) == String(decoding: parts.bytes, as: UTF8.self), "name \(name.debugDescription)")
        }
    }

    /// ``roundedForResponse(_:)`` equals `(value * 1e6).rounded() / 1e6` (halves away from
    /// zero, `-0` as `0`) bit for bit: on exact halves of a millionth, their neighbours,
    /// and values of every magnitude below 10⁹ of both signs.
    @Test func roundingForTheResponseMatchesRounded() {
        func reference(_ value: Double) -> Double {
            guard value.isFinite, abs(value) < 1e9 else { return value }
            let rounded = (value * 1_000_000).rounded() / 1_000_000
            return rounded == 0 ? 0 : rounded
        }
        var values: [Double] = [0, -0.0, 0.5e-6, -0.5e-6, 1.5e-6, -2.5e-6, 0.4999999e-6, 999_999_999.9999995, -999_999_999.9999995,
                                1e9, -1e9, 1e9.nextDown, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, 320.0001, 0.1 + 0.2]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<200_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let whole = Double(state >> 34)                  // 0 to 2³⁰
            let fraction = Double((state >> 8) & 0x3FF_FFFF) / Double(1 << 26)
            let sign: Double = state & 1 == 0 ? 1 : -1
            let magnitude = (whole + fraction) / pow(10, Double((state >> 1) & 15))
            values.append(sign * magnitude)
            // Exact halves of a millionth, and the doubles next to them.
            let half = sign * (Double(state >> 44) + 0.5) / 1_000_000
            values.append(contentsOf: [half, half.nextUp, half.nextDown])
        }
        let differing = values.filter { value in
            !(roundedForResponse(value).bitPattern == reference(value).bitPattern || (value.isNaN && roundedForResponse(value).isNaN))
        }
        #expect(values.count == 800_018)
        #expect(differing.isEmpty, "first: \(differing.prefix(5))")
    }

    @Test func roundingForResponses() {
        #expect(roundedForResponse(1.23456789) == 1.234568)
        #expect(roundedForResponse(-0.0000001) == 0)
        #expect(roundedForResponse(-0.0).sign == .plus)
        #expect(roundedForResponse(1e308) == 1e308)
    }
}
