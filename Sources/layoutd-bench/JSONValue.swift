/// A small JSON reader for the benchmark files (RFC 8259), leaner than
/// `JSONSerialization`: a 7 MB `layout-lp/1` system parsed into Foundation objects
/// peaks at ~350 MB, which would swamp the solver's own memory in the benchmark.
enum JSONValue {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    struct ParseError: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "JSON syntax error at byte \(offset)" }
    }

    /// Parses `bytes` (UTF-8). Nesting deeper than 64 levels is rejected.
    /// - Throws: `ParseError` with the byte offset.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = Parser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw ParseError(offset: parser.index) }
        return value
    }

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    var string: String? { if case .string(let text) = self { return text } else { return nil } }
    var number: Double? { if case .number(let value) = self { return value } else { return nil } }
    var array: [JSONValue]? { if case .array(let items) = self { return items } else { return nil } }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < 64 else { throw ParseError(offset: index) }
            skipSpace()
            guard index < bytes.count else { throw ParseError(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: JSONValue)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw ParseError(offset: index) }
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw ParseError(offset: index) }
                    index += 1
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw ParseError(offset: index) }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                    throw ParseError(offset: index)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw ParseError(offset: index) }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                    throw ParseError(offset: index)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                return .number(try number())
            }
        }

        mutating func literal(_ word: String) throws {
            for byte in word.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw ParseError(offset: index) }
                index += 1
            }
        }

        mutating func number() throws -> Double {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                let isNumberByte = (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                if !isNumberByte { break }
                index += 1
            }
            guard index > start, let text = String(bytes: bytes[start..<index], encoding: .utf8),
                  let value = Double(text) else { throw ParseError(offset: start) }
            return value
        }

        mutating func string() throws -> String {
            index += 1   // opening quote
            var scalars: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") {
                    return String(decoding: scalars, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") {
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                            throw ParseError(offset: index)
                        }
                        index += 4
                        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                        scalars.append(contentsOf: Array(String(scalar).utf8))
                    default: scalars.append(escape)
                    }
                } else {
                    scalars.append(byte)
                }
            }
            throw ParseError(offset: index)
        }
    }
}
