import LayoutCompiler
import Testing

/// The JSON parser and writer the scene compiler relies on (RFC 8259).
struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)) }

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

    @Test func roundingForResponses() {
        #expect(roundedForResponse(1.23456789) == 1.234568)
        #expect(roundedForResponse(-0.0000001) == 0)
        #expect(roundedForResponse(-0.0).sign == .plus)
        #expect(roundedForResponse(1e308) == 1e308)
    }
}
