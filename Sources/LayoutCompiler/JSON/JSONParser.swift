/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Errors carry the byte offset and the 1-based line and column of the first byte
/// that could not be consumed. Nesting deeper than ``maximumDepth`` is an error, so
/// hostile input such as 100,000 `[` cannot overflow the stack.
///
/// - Complexity: O(n) in the input length.
public struct JSONParser: Sendable {
    /// A syntax error: what was expected, and where (byte offset, 0-based; line and column, 1-based).
    public struct SyntaxError: Error, Equatable, Sendable {
        public var message: String
        public var offset: Int
        public var line: Int
        public var column: Int
    }

    /// The deepest nesting of arrays and objects accepted (default 64).
    public var maximumDepth: Int

    public init(maximumDepth: Int = 64) {
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON text (surrounding whitespace allowed, nothing else after it).
    ///
    /// - Throws: ``SyntaxError`` for malformed input, invalid UTF-8 in strings, or nesting
    ///   deeper than ``maximumDepth``.
    public func parse(_ bytes: some Collection<UInt8>) throws(SyntaxError) -> JSONValue {
        try parse(Array(bytes))
    }

    /// ``parse(_:)`` of an array's bytes, read in place.
    public func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) in try parse(buffer: buffer) }
    }

    /// ``parse(_:)`` of a slice's bytes, read in place (not copied into an array first);
    /// offsets, lines and columns count from the slice's start.
    public func parse(_ bytes: ArraySlice<UInt8>) throws(SyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) in try parse(buffer: buffer) }
    }

    @inline(__always)
    private func parse(buffer: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: buffer, maximumDepth: maximumDepth)
        // JSON text has no byte order mark (RFC 8259 §8.1): say so, not "byte 0xEF".
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw reader.error("The body starts with a UTF-8 byte order mark (EF BB BF), which JSON text must not have (RFC 8259 §8.1): remove it")
        }
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        if reader.position != buffer.count {
            throw reader.error("Unexpected \(reader.describeCurrent()) after the JSON value")
        }
        return value
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0
    /// Members of the objects being parsed, innermost last: an object's members are
    /// collected here and copied out once, into an array of their exact count, instead
    /// of growing an array of their own member by member.
    let memberStack = ScratchStack<(String, JSONValue)>()
    /// The same for the elements of the arrays being parsed.
    let elementStack = ScratchStack<JSONValue>()

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONParser.SyntaxError {
        let offset = offset ?? position
        var line = 1
        var column = 1
        var index = 0
        while index < offset && index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return JSONParser.SyntaxError(
            message: "\(message) at line \(line), column \(column)", offset: offset, line: line, column: column)
    }

    /// Up to 12 characters of the input from `offset`, quoted, for messages.
    func describeText(at offset: Int) -> String {
        var end = offset
        while end < bytes.count && end - offset < 12 && bytes[end] >= 0x20 && bytes[end] != UInt8(ascii: "\"") { end += 1 }
        return "'" + String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self) + "'"
    }

    func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F {
            return "character '\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error("Expected a JSON value but found the end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("Expected a JSON value but found \(describeCurrent())")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParser.SyntaxError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        for index in 0..<count {
            guard position < bytes.count, bytes[position] == pointer[index] else {
                throw error("Expected a JSON value ('\(literal)'?) but found \(describeText(at: start))", at: start)
            }
            position += 1
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard depth <= maximumDepth else { throw error("JSON nested deeper than \(maximumDepth) levels (limit maxJSONDepth)") }
        position += 1
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object([])
        }
        let base = memberStack.count
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("Expected a member name in double quotes but found \(describeCurrent())")
            }
            let name = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("Expected ':' after member name \"\(name)\" but found \(describeCurrent())")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            memberStack.append((name, value))
            skipWhitespace()
            guard position < bytes.count else { throw error("Expected ',' or '}' but found the end of input") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                let members = memberStack.pop(from: base)
                return .object(members)
            }
            throw error("Expected ',' or '}' but found \(describeCurrent())")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParser.SyntaxError) -> JSONValue {
        guard depth <= maximumDepth else { throw error("JSON nested deeper than \(maximumDepth) levels (limit maxJSONDepth)") }
        position += 1
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        let base = elementStack.count
        while true {
            skipWhitespace()
            elementStack.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("Expected ',' or ']' but found the end of input") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                let elements = elementStack.pop(from: base)
                return .array(elements)
            }
            throw error("Expected ',' or ']' but found \(describeCurrent())")
        }
    }

    mutating func parseString() throws(JSONParser.SyntaxError) -> String {
        let start = position
        position += 1
        // Fast path: no escapes, ASCII or valid UTF-8 copied as is.
        var scalars = String.UnicodeScalarView()
        var runStart = position
        var hasEscapes = false
        var isASCII = true
        while true {
            guard position < bytes.count else { throw error("Unterminated string", at: start) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                break
            }
            if byte >= 0x80 { isASCII = false }
            if byte < 0x20 {
                throw error("Control character 0x\(String(byte, radix: 16, uppercase: true)) in a string (escape it)")
            }
            if byte == UInt8(ascii: "\\") {
                if !hasEscapes {
                    hasEscapes = true
                }
                try appendRun(from: runStart, to: position, into: &scalars)
                position += 1
                guard position < bytes.count else { throw error("Unterminated escape sequence") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let unit = try parseHex4()
                    if (0xD800...0xDBFF).contains(unit) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                              bytes[position + 1] == UInt8(ascii: "u") else {
                            throw error("Unpaired UTF-16 surrogate in \\u escape")
                        }
                        position += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("Unpaired UTF-16 surrogate in \\u escape") }
                        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        guard let scalar = Unicode.Scalar(value) else { throw error("Invalid \\u escape") }
                        scalars.append(scalar)
                    } else {
                        guard let scalar = Unicode.Scalar(UInt32(unit)) else {
                            throw error("Unpaired UTF-16 surrogate in \\u escape")
                        }
                        scalars.append(scalar)
                    }
                default:
                    throw error("Invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: position - 2)
                }
                runStart = position
                continue
            }
            position += 1
        }
        let end = position
        position += 1
        if !hasEscapes {
            // ASCII needs no validation: decoding it is exact (and skips the generic
            // validating initializer).
            if isASCII { return String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self) }
            guard let string = String(validating: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self) else {
                throw error("Invalid UTF-8 in a string", at: start)
            }
            return string
        }
        try appendRun(from: runStart, to: end, into: &scalars)
        return String(scalars)
    }

    func appendRun(from start: Int, to end: Int, into scalars: inout String.UnicodeScalarView) throws(JSONParser.SyntaxError) {
        guard start < end else { return }
        guard let run = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) else {
            throw error("Invalid UTF-8 in a string", at: start)
        }
        scalars.append(contentsOf: run.unicodeScalars)
    }

    mutating func parseHex4() throws(JSONParser.SyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw error("Expected 4 hexadecimal digits after \\u") }
            let byte = bytes[position]
            let digit: UInt16
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt16(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt16(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt16(byte - UInt8(ascii: "A") + 10)
            default: throw error("Expected 4 hexadecimal digits after \\u")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParser.SyntaxError) -> Double {
        let start = position
        let isNegative = bytes[position] == UInt8(ascii: "-")
        if isNegative { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("Expected a digit in a number") }
        let integerStart = position
        var integer: Int64 = 0
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count && isDigit(bytes[position]) {
                throw error("Leading zeros are not allowed in a number")
            }
        } else {
            while position < bytes.count && isDigit(bytes[position]) {
                integer = integer &* 10 &+ Int64(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
        }
        // An integer of at most 15 digits is exact in a Double: no text to convert
        // (the same value Double's parser gives; `-0` stays negative zero).
        if position - integerStart <= 15,
           position == bytes.count || (bytes[position] != UInt8(ascii: ".") && bytes[position] | 0x20 != UInt8(ascii: "e")) {
            let value = Double(integer)
            return isNegative ? -value : value
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("Expected a digit after '.' in a number") }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("Expected a digit in a number's exponent") }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        // The text is ASCII digits, sign, '.', 'e': Double's parser handles it exactly (correctly rounded).
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("Number \(text) is out of range", at: start)
        }
        return value
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

/// A stack of values whose top elements are moved out into an array in one step (no
/// copy, no retain/release per element): the parser's member and element scratch.
/// Whatever is left when parsing stops (an error) is freed with the stack.
private final class ScratchStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements on the stack.
    private(set) var count = 0

    init() {
        capacity = 16
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Pushes `element`, doubling the storage when full.
    func append(_ element: consuming Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from index `base` to the top into a new array, in order, and
    /// removes them from the stack.
    func pop(from base: Int) -> [Element] {
        let moved = count - base
        let elements = [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
            buffer.baseAddress?.moveInitialize(from: storage + base, count: moved)
            initialized = moved
        }
        count = base
        return elements
    }
}
