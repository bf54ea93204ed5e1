import LayoutCompiler
import Testing

/// The parser's string reading: 8 bytes at a time up to the first byte that needs a look
/// of its own, and a document's short ASCII strings made once each. Every string is held
/// against the `String` it spells, whatever its length, wherever the special byte is and
/// however near the end of the input it ends.
struct JSONStringScanTests {
    /// A string of `length` ASCII letters with `special` (its JSON spelling and its value)
    /// at `position`, and the same string as JSON.
    func sample(length: Int, special: (json: String, value: String)?, at position: Int) -> (json: String, value: String) {
        var json = "", value = ""
        for index in 0..<length {
            if let special, index == position {
                json += special.json
                value += special.value
            } else {
                let letter = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index % 26)))
                json += letter
                value += letter
            }
        }
        return ("\"" + json + "\"", value)
    }

    @Test func everyStringIsItsValueWhereverItsSpecialByteIs() throws {
        let specials: [(json: String, value: String)?] = [nil, (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), ("é", "é"), ("😀", "😀"), (#"\u0041"#, "A")]
        for length in 0...40 {
            for special in specials {
                for position in 0..<max(length, 1) {
                    let (json, value) = sample(length: length, special: special, at: position)
                    // Alone (the string ends the input), in an array, and as a member name and value.
                    #expect(try JSONParser().parse(Array(json.utf8)) == .string(value), "\(json)")
                    #expect(try JSONParser().parse(Array("[\(json),\(json)]".utf8)) == .array([.string(value), .string(value)]), "\(json)")
                    let object = try JSONParser().parseCanonical(Array("{\(json):\(json)}".utf8))
                    #expect(object.value == .object([(value, .string(value))]), "\(json)")
                }
            }
        }
    }

    @Test func aControlCharacterIsRefusedWhereverItIs() {
        for length in 1...24 {
            for position in 0..<length {
                var bytes = Array(sample(length: length, special: nil, at: 0).json.utf8)
                bytes[1 + position] = 0x09
                #expect(throws: JSONParser.SyntaxError.self) { try JSONParser().parse(bytes) }
            }
        }
    }

    @Test func manyShortStringsAndTheirRepeatsAreEachTheirOwn() throws {
        // More distinct short strings than the table keeps (128 slots), each twice, of
        // every length up to 15 and a few longer: the table fills and stays exact.
        var names: [String] = []
        for index in 0..<600 {
            let length = 1 + index % 18
            names.append(String((0..<length).map { offset in Character(UnicodeScalar(UInt8(ascii: "a") + UInt8((index / 18 + offset * 7) % 26))) }) + String(index))
        }
        let json = "[" + (names + names.reversed()).map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let expected = JSONValue.array((names + names.reversed()).map { .string($0) })
        #expect(try JSONParser().parse(Array(json.utf8)) == expected)
        #expect(try JSONParser().parseCanonical(Array(json.utf8)).value == expected)
    }

    /// `utf8Equal` answers at once for the same two words (a small string, or one
    /// storage), and by bytes otherwise: the same answers as comparing the bytes.
    @Test func utf8EqualIsByBytesHoweverTheStringsAreHeld() {
        let long = String(repeating: "compressionResistance", count: 3)
        let samples = ["", "width", String(decoding: Array("width".utf8), as: UTF8.self), "widtH", "K", "\u{212A}",
                       "\u{E9}", "e\u{301}", "compressionResistance", String(decoding: Array("compressionResistance".utf8), as: UTF8.self),
                       long, String(decoding: Array(long.utf8), as: UTF8.self), long + "x", String(long.dropLast()) + "y"]
        for a in samples {
            for b in samples {
                #expect(utf8Equal(a, b) == Array(a.utf8).elementsEqual(Array(b.utf8)), "\(a) \(b)")
            }
            let copy = a
            #expect(utf8Equal(a, copy))
        }
    }
}
