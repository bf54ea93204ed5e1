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

    /// ``parse(_:)``, and in the same pass the canonical form of the value as
    /// `JSONWriter.value(_:sortingKeys: true)` writes it, split as a scene's cache keys
    /// split it (``CanonicalScene``): no second tree, no second walk.
    ///
    /// The bytes are those of the writer for every input: strings are written from their
    /// decoded scalars with the writer's escapes (a string without escapes, whose bytes
    /// are valid UTF-8 without `"`, `\` or control characters, is its own canonical
    /// body), numbers with ``JSONWriter/formatNumber(_:into:)`` of the parsed `Double`
    /// (`1e2` is `100`, `-0` is `0`), and an object's members, each written once, are
    /// put in the order of their names' bytes, then their positions, when the object
    /// closes. Held against the writer by
    /// `CanonicalKeyTests.theCanonicalFormIsTheWritersForTheCorpusAndGeneratedDocuments`.
    ///
    /// - Throws: ``SyntaxError``, exactly as ``parse(_:)`` (the same reader).
    /// - Complexity: O(n) in the input length, plus O(m log m) name comparisons per object
    ///   of m members whose names are out of order (an insertion sort up to 32 members), and a copy of such an object's bytes
    ///   (at most ``maximumDepth`` copies of any byte).
    public func parseCanonical(_ bytes: [UInt8]) throws(SyntaxError) -> (value: JSONValue, canonical: CanonicalScene) {
        try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) in
            var reader = Reader(bytes: buffer, maximumDepth: maximumDepth, canonical: ByteBuffer(capacity: buffer.count + 16))
            let value = try parse(reader: &reader, buffer: buffer)
            return (value, reader.canonicalScene())
        }
    }

    /// ``parseCanonical(_:)``, the value written to a tape (``JSONTape``) instead of a
    /// tree: the same errors, the same canonical bytes, and the same values read through
    /// ``JSONNode`` as through the ``JSONValue`` the tree would hold.
    ///
    /// - Throws: ``SyntaxError``, as ``parse(_:)``; also for a document over
    ///   4,294,967,294 bytes, which a tape cannot index.
    public func parseCanonicalTape(_ bytes: [UInt8]) throws(SyntaxError) -> (tape: JSONTape, canonical: CanonicalScene) {
        try Self.checkTapeSize(bytes.count)
        return try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) in
            var reader = Reader(bytes: buffer, maximumDepth: maximumDepth, canonical: ByteBuffer(capacity: buffer.count + 16),
                                tape: TapeBuilder(capacity: JSONTape.nodeBound(byteCount: buffer.count)))
            _ = try parse(reader: &reader, buffer: buffer)
            return (JSONTape(reader.tape!, bytes: buffer), reader.canonicalScene())
        }
    }

    /// ``parse(_:)``, the value written to a tape (``JSONTape``) instead of a tree.
    ///
    /// - Throws: ``SyntaxError``, as ``parseCanonicalTape(_:)``.
    public func parseTape(_ bytes: [UInt8]) throws(SyntaxError) -> JSONTape {
        try Self.checkTapeSize(bytes.count)
        return try bytes.withUnsafeBufferPointer { buffer throws(SyntaxError) in
            var reader = Reader(bytes: buffer, maximumDepth: maximumDepth, canonical: nil, tape: TapeBuilder(capacity: JSONTape.nodeBound(byteCount: buffer.count)))
            _ = try parse(reader: &reader, buffer: buffer)
            return JSONTape(reader.tape!, bytes: buffer)
        }
    }

    /// Refuses a document too large for a tape's 32-bit fields (``JSONTape/maximumDocumentBytes``).
    private static func checkTapeSize(_ count: Int) throws(SyntaxError) {
        if count > JSONTape.maximumDocumentBytes {
            throw SyntaxError(message: "The document is \(count) bytes, more than the \(JSONTape.maximumDocumentBytes) the parser reads",
                              offset: 0, line: 1, column: 1)
        }
    }

    @inline(__always)
    private func parse(buffer: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONValue {
        var reader = Reader(bytes: buffer, maximumDepth: maximumDepth, canonical: nil)
        return try parse(reader: &reader, buffer: buffer)
    }

    @inline(__always)
    private func parse(reader: inout Reader, buffer: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONValue {
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

extension JSONParser {
    /// ``parse(_:)`` of an object whose members are all numbers, `{"NAME": NUMBER, ...}`
    /// (a container's size: `{"width":320,"height":667}`), read without a reader, or
    /// `nil` for anything else: a name with a byte outside printable ASCII or an escape,
    /// a value that is not a number, a number ``parse(_:)`` would refuse, or an object
    /// past ``maximumDepth``. When it answers, ``parse(_:)`` answers the same value: the
    /// same members in the same order (a repeated name too), each number read as
    /// ``parse(_:)`` reads it (by the same function, `scanNumber(_:at:)`: at most 15
    /// integer digits without a fraction or exponent as an exact integer, any other
    /// text by `Double`'s parser),
    /// and surrounding whitespace skipped as it skips it
    /// (`JSONParserTests.flatNumberObjectsAreParsedAsTheParserParsesThem`).
    /// - Complexity: O(bytes), one allocation for the members.
    public func parseNumberObject(_ bytes: ArraySlice<UInt8>) -> [(String, JSONValue)]? {
        guard maximumDepth >= 1 else { return nil }
        return bytes.withUnsafeBufferPointer { bytes -> [(String, JSONValue)]? in
            var position = 0
            let count = bytes.count
            func skipWhitespace() {
                while position < count, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0A || bytes[position] == 0x0D {
                    position += 1
                }
            }
            skipWhitespace()
            guard position < count, bytes[position] == UInt8(ascii: "{") else { return nil }
            position += 1
            skipWhitespace()
            var members: [(String, JSONValue)] = []
            if position < count, bytes[position] == UInt8(ascii: "}") {
                position += 1
            } else {
                members.reserveCapacity(2)
                while true {
                    guard position < count, bytes[position] == UInt8(ascii: "\"") else { return nil }
                    position += 1
                    let nameStart = position
                    while position < count, bytes[position] != UInt8(ascii: "\"") {
                        let byte = bytes[position]
                        guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                        position += 1
                    }
                    guard position < count else { return nil }
                    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<position]), as: UTF8.self)
                    position += 1
                    skipWhitespace()
                    guard position < count, bytes[position] == UInt8(ascii: ":") else { return nil }
                    position += 1
                    skipWhitespace()
                    guard let value = try? scanNumber(bytes, at: &position) else { return nil }
                    members.append((name, .number(value)))
                    skipWhitespace()
                    guard position < count else { return nil }
                    if bytes[position] == UInt8(ascii: "}") {
                        position += 1
                        break
                    }
                    guard bytes[position] == UInt8(ascii: ",") else { return nil }
                    position += 1
                    skipWhitespace()
                }
            }
            skipWhitespace()
            return position == count ? members : nil
        }
    }
}

/// Why ``scanNumber(_:at:)`` refused a number; its position is then where
/// ``Reader/parseNumber()`` reports it (the number's start for ``outOfRange``).
private enum NumberFailure: Error {
    /// No digit after the sign (or at the start).
    case expectedDigit
    /// A digit after a leading `0`.
    case leadingZero
    /// No digit after `.`.
    case expectedFractionDigit
    /// No digit after `e`/`E` and its sign.
    case expectedExponentDigit
    /// A number too large for a finite `Double`.
    case outOfRange
}

/// Reads the JSON number (RFC 8259 §6) at `position` of `bytes` and moves `position`
/// past it; on a failure `position` is left where the failure lies (past the number
/// for ``NumberFailure/outOfRange``). The one number grammar of ``JSONParser``: both
/// ``Reader/parseNumber()`` and ``JSONParser/parseNumberObject(_:)`` read numbers here
/// (`JSONParserTests.flatNumberObjectsAreParsedAsTheParserParsesThem`).
/// An integer of at most 15 digits without a fraction or exponent is exact in a Double
/// and is read without text (the same value Double's parser gives; `-0` stays negative
/// zero); any other number by `Double`'s parser, which rounds correctly.
@inline(__always)
private func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) throws(NumberFailure) -> Double {
    let count = bytes.count
    @inline(__always) func isDigit(_ index: Int) -> Bool { index < count && bytes[index] &- UInt8(ascii: "0") < 10 }
    let start = position
    let isNegative = position < count && bytes[position] == UInt8(ascii: "-")
    if isNegative { position += 1 }
    guard isDigit(position) else { throw .expectedDigit }
    let integerStart = position
    var integer: Int64 = 0
    if bytes[position] == UInt8(ascii: "0") {
        position += 1
        if isDigit(position) { throw .leadingZero }
    } else {
        while isDigit(position) {
            integer = integer &* 10 &+ Int64(bytes[position] &- UInt8(ascii: "0"))
            position += 1
        }
    }
    if position - integerStart <= 15,
       position == count || (bytes[position] != UInt8(ascii: ".") && bytes[position] | 0x20 != UInt8(ascii: "e")) {
        let value = Double(integer)
        return isNegative ? -value : value
    }
    if position < count && bytes[position] == UInt8(ascii: ".") {
        position += 1
        guard isDigit(position) else { throw .expectedFractionDigit }
        while isDigit(position) { position += 1 }
    }
    if position < count && bytes[position] | 0x20 == UInt8(ascii: "e") {
        position += 1
        if position < count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
            position += 1
        }
        guard isDigit(position) else { throw .expectedExponentDigit }
        while isDigit(position) { position += 1 }
    }
    // The text is ASCII digits, sign, '.', 'e': Double's parser handles it exactly (correctly rounded).
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else { throw .outOfRange }
    return value
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0
    /// Members of the objects being parsed, innermost last: an object's members are
    /// collected here and copied out once, into an array of their exact count, instead
    /// of growing an array of their own member by member.
    let memberStack = ScratchStack<(String, JSONValue)>()
    /// With a tape, instead of ``memberStack``: the tape index of the name node of each
    /// member of the objects being parsed, innermost last.
    let memberNames = ScratchStack<Int>()
    /// The same for the elements of the arrays being parsed.
    let elementStack = ScratchStack<JSONValue>()
    /// The canonical form written so far (``JSONParser/parseCanonical(_:)``), or `nil`
    /// when only the value is asked for.
    let canonical: ByteBuffer?
    /// Two entries per member of the objects being parsed, innermost last: where its
    /// `"NAME":` starts in ``canonical``, and where that name's closing quote is when its
    /// bytes there are the name's own (no escape), else -1. Pushed before the member's
    /// entry in ``memberStack``, so with a base of its own.
    let memberSpans = ScratchStack<Int>()
    /// Scratch bytes for putting an object's members in order.
    let sortScratch: ByteBuffer?
    /// Whether the last string's canonical bytes are its own UTF-8 in quotes (it had no
    /// escape in the input, so it has no `"`, `\` or control character).
    var lastStringIsPlain = false
    /// The short ASCII strings of the document made so far, made once each; only for a
    /// whole body (``JSONParser/parseCanonical(_:)``), not for the small values read
    /// alone (a structure hit's sizes), which would not repay setting the table up.
    let smallStrings: SmallStringTable?
    /// The top-level object's members in canonical order (when the value is an object).
    var topMembers: [CanonicalScene.Member] = []
    /// For each top-level member (by document position) that is an object named
    /// `container`: its members in canonical order, offsets from its `{`.
    var containerMembers: [(position: Int, members: [CanonicalScene.Member])] = []
    /// The document position of the top-level member being parsed when it is named
    /// `container`, else -1.
    var containerPosition = -1
    /// The tape being written (``JSONParser/parseCanonicalTape(_:)``), or `nil` for a
    /// tree. With a tape, values are not built: ``parseValue(depth:)`` answers a
    /// placeholder (`.object([])` for an object, which ``noteCanonical`` asks about, else
    /// `.null`), and member names are still made (the canonical form's sort and split read them).
    let tape: TapeBuilder?

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, canonical: ByteBuffer?, tape: TapeBuilder? = nil) {
        self.bytes = bytes
        self.tape = tape
        self.maximumDepth = maximumDepth
        self.canonical = canonical
        sortScratch = canonical == nil ? nil : ByteBuffer(capacity: 256)
        smallStrings = canonical == nil ? nil : SmallStringTable()
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
        case UInt8(ascii: "\""):
            if tape != nil {
                try parseStringToTape()
                return .null
            }
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true"); canonical?.append("true")
            if tape != nil { tape!.scalar(.bool, 1); return .null }
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false"); canonical?.append("false")
            if tape != nil { tape!.scalar(.bool, 0); return .null }
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null"); canonical?.append("null")
            if tape != nil { tape!.scalar(.null) }
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try parseNumber()
            if let canonical {
                let end = canonical.reserve(JSONWriter.maxNumberBytes)
                canonical.commit(JSONWriter.formatNumber(number, into: end))
            }
            if tape != nil { tape!.scalar(.number, number); return .null }
            return .number(number)
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
        canonical?.append(UInt8(ascii: "{"))
        let tapeIndex = tape != nil ? tape!.open(.object) : -1
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            canonical?.append(UInt8(ascii: "}"))
            if canonical != nil {
                noteCanonical(depth: depth, open: canonical!.count - 2, base: tape != nil ? memberNames.count : memberStack.count, count: 0,
                              spansBase: memberSpans.count)
            }
            if tape != nil { tape!.close(tapeIndex, count: 0) }
            return .object([])
        }
        // With a tape, the members' name nodes are kept (in `memberNames`), not the members.
        let base = tape != nil ? memberNames.count : memberStack.count
        // The members read so far.
        var members = 0
        // The starts of this object's members: an enclosing member's start is on the
        // stack before its entry in `memberStack` is, so the two bases differ.
        let spansBase = memberSpans.count
        let open = (canonical?.count ?? 1) - 1
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("Expected a member name in double quotes but found \(describeCurrent())")
            }
            if let canonical {
                if members > 0 { canonical.append(UInt8(ascii: ",")) }
                memberSpans.append(canonical.count)
            }
            let nameStart = position
            // With a tape, a plain ASCII name is not made (`""`): its bytes are read instead.
            let name = try parseString(materialize: tape == nil)
            let nameEnd = position
            let nameIsBytes = tape != nil && lastStringIsPlain
            if tape != nil {
                memberNames.append(tape!.count)
                if lastStringIsPlain {
                    tape!.plainString(start: nameStart + 1, count: position - nameStart - 2)
                } else {
                    tape!.escapedString(name)
                }
            }
            if let canonical { memberSpans.append(lastStringIsPlain ? canonical.count - 1 : -1) }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                let text = nameIsBytes ? String(decoding: UnsafeBufferPointer(rebasing: bytes[(nameStart + 1)..<(nameEnd - 1)]), as: UTF8.self) : name
                throw error("Expected ':' after member name \"\(text)\" but found \(describeCurrent())")
            }
            position += 1
            skipWhitespace()
            canonical?.append(UInt8(ascii: ":"))
            if depth == 1 && canonical != nil {
                let isContainer = nameIsBytes
                    ? UnsafeBufferPointer(rebasing: bytes[(nameStart + 1)..<(nameEnd - 1)]).elementsEqual("container".utf8)
                    : utf8Equal(name, "container")
                containerPosition = isContainer ? members : -1
            }
            let value = try parseValue(depth: depth)
            if tape == nil { memberStack.append((name, value)) }
            members += 1
            skipWhitespace()
            guard position < bytes.count else { throw error("Expected ',' or '}' but found the end of input") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                if let canonical {
                    sortCanonicalMembers(from: base, count: members, spansBase: spansBase, in: canonical)
                    canonical.append(UInt8(ascii: "}"))
                    noteCanonical(depth: depth, open: open, base: base, count: members, spansBase: spansBase)
                    memberSpans.drop(from: spansBase)
                }
                if tape != nil {
                    tape!.close(tapeIndex, count: members)
                    memberNames.drop(from: base)
                    return .object([])
                }
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
        canonical?.append(UInt8(ascii: "["))
        let tapeIndex = tape != nil ? tape!.open(.array) : -1
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            canonical?.append(UInt8(ascii: "]"))
            if tape != nil { tape!.close(tapeIndex, count: 0) }
            return .array([])
        }
        let base = elementStack.count
        // The elements read so far (with a tape, they are not kept on the stack).
        var count = 0
        while true {
            skipWhitespace()
            if count > 0 { canonical?.append(UInt8(ascii: ",")) }
            let element = try parseValue(depth: depth)
            if tape == nil { elementStack.append(element) }
            count += 1
            skipWhitespace()
            guard position < bytes.count else { throw error("Expected ',' or ']' but found the end of input") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                canonical?.append(UInt8(ascii: "]"))
                if tape != nil {
                    tape!.close(tapeIndex, count: count)
                    return .null
                }
                let elements = elementStack.pop(from: base)
                return .array(elements)
            }
            throw error("Expected ',' or ']' but found \(describeCurrent())")
        }
    }

    /// A string value written to the tape: its bytes' place when it has no escape (no
    /// `String` made), else its decoded string.
    mutating func parseStringToTape() throws(JSONParser.SyntaxError) {
        let start = position
        let string = try parseString(materialize: false)
        if lastStringIsPlain {
            tape!.plainString(start: start + 1, count: position - start - 2)
        } else {
            tape!.escapedString(string)
        }
    }

    /// Reads a string (its bytes checked, its canonical form written). `materialize`:
    /// whether a string without escapes is made (else `""` is answered for it: its bytes
    /// are its value, ``lastStringIsPlain``).
    mutating func parseString(materialize: Bool = true) throws(JSONParser.SyntaxError) -> String {
        let start = position
        position += 1
        // Fast path: no escapes, ASCII or valid UTF-8 copied as is.
        var scalars = String.UnicodeScalarView()
        var runStart = position
        var hasEscapes = false
        var isASCII = true
        while true {
            skipPlainASCII()
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
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<end])
            // No `"`, `\` or control character (the loop stopped at or refused them):
            // the writer copies these bytes as they are.
            lastStringIsPlain = true
            if isASCII {
                canonical?.appendQuoted(plain: run)
                if !materialize { return "" }
                // Through the optional, not a binding of it (which retains and releases the table).
                return smallStrings?.string(ascii: run, readable: bytes.count - runStart) ?? String(decoding: run, as: UTF8.self)
            }
            guard let string = String(validating: run, as: UTF8.self) else {
                throw error("Invalid UTF-8 in a string", at: start)
            }
            canonical?.appendQuoted(plain: run)
            return string
        }
        try appendRun(from: runStart, to: end, into: &scalars)
        var string = String(scalars)
        lastStringIsPlain = false
        if let canonical { string.withUTF8 { canonical.appendQuoted(escaping: $0) } }
        return string
    }

    /// Moves ``position`` past the bytes that need no look of their own in a string, 8
    /// at a time: to the first `"`, `\`, control character or byte outside ASCII, or to
    /// within 8 bytes of the end; ``parseString()`` reads from there byte by byte.
    /// SWAR: in a word, a byte `b` below 0x80 is flagged when `b ^ c - 1` (for `c` = `"`,
    /// `\`) or `b - 0x20` borrows; a borrow out of a flagged byte may flag the bytes above
    /// it, never one below, so the lowest flag is the first such byte.
    @inline(__always)
    mutating func skipPlainASCII() {
        guard let base = bytes.baseAddress else { return }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while position &+ 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
            let flagged = word | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if flagged & highs != 0 {
                // The lowest flag is exact (a borrow only runs upwards): the first such byte.
                position &+= (flagged & highs).trailingZeroBitCount >> 3
                return
            }
            position &+= 8
        }
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
        do throws(NumberFailure) {
            return try scanNumber(bytes, at: &position)
        } catch {
            switch error {
            case .expectedDigit: throw self.error("Expected a digit in a number")
            case .leadingZero: throw self.error("Leading zeros are not allowed in a number")
            case .expectedFractionDigit: throw self.error("Expected a digit after '.' in a number")
            case .expectedExponentDigit: throw self.error("Expected a digit in a number's exponent")
            case .outOfRange:
                // A number is quoted whole up to 40 characters, else its first 24 and last 8
                // around "…" and its length, so a 1 MB number cannot make a 2 MB answer
                // (JSONParserTests.aLongNumberOutOfRangeIsQuotedShort).
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                let quoted = text.utf8.count <= 40 ? text
                    : "\(text.prefix(24))…\(text.suffix(8)) (\(text.utf8.count) characters)"
                throw self.error("Number \(quoted) is out of range", at: start)
            }
        }
    }

    // MARK: - The canonical form

    /// Puts the canonical members of the object whose `count` members start at index
    /// `base` of ``memberStack`` (with a tape, ``memberNames``) (their bytes in ``canonical``
    /// at ``memberSpans``' entries from `spansBase`,
    /// separated by commas, up to the end) in the writer's order: by their names' UTF-8
    /// bytes, then by position (`JSONWriter.value(_:sortingKeys:)`). Names are compared
    /// in the canonical bytes where those are their own, else as strings. Members already
    /// in order, as a canonical client sends them, cost one comparison each and move nothing.
    func sortCanonicalMembers(from base: Int, count: Int, spansBase: Int, in canonical: ByteBuffer) {
        guard count > 1 else { return }
        let spans = memberSpans.elements(from: spansBase)
        let bytes = canonical.start
        /// Whether member `a`'s name sorts strictly before member `b`'s.
        @inline(__always)
        func precedes(_ a: Int, _ b: Int) -> Bool {
            let endA = spans[2 * a + 1], endB = spans[2 * b + 1]
            guard endA >= 0 && endB >= 0 else { return utf8Precedes(memberName(base: base, a), memberName(base: base, b)) }
            let startA = spans[2 * a] + 1, startB = spans[2 * b] + 1
            let lengthA = endA - startA, lengthB = endB - startB
            for offset in 0..<min(lengthA, lengthB) where bytes[startA + offset] != bytes[startB + offset] {
                return bytes[startA + offset] < bytes[startB + offset]
            }
            return lengthA < lengthB
        }
        var sorted = true
        for index in 1..<count where precedes(index, index - 1) {
            sorted = false
            break
        }
        if sorted { return }
        let first = spans[0]
        let end = canonical.count
        if count == 2 {
            // Two members out of order (`{"width":…,"height":…}`): the second, a comma,
            // the first; as the general case below puts them.
            let second = spans[2]
            let copy = sortScratch!.reserve(end - first)
            copy.update(from: bytes + first, count: end - first)
            let firstLength = second - 1 - first, secondLength = end - second
            (bytes + first).update(from: copy + (second - first), count: secondLength)
            bytes[first + secondLength] = UInt8(ascii: ",")
            (bytes + first + secondLength + 1).update(from: copy, count: firstLength)
            spans[2] = first
            spans[0] = first + secondLength + 1
            return
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * count) { scratch in
            // The order the writer writes them in: an insertion sort by strict `precedes`
            // (stable), as the writer's for up to 32 members; the same order for more.
            var order = UnsafeMutableBufferPointer(rebasing: scratch[0..<count])
            if count <= 32 {
                for next in 0..<count {
                    var slot = next
                    while slot > 0 && precedes(next, order[slot - 1]) {
                        order[slot] = order[slot - 1]
                        slot -= 1
                    }
                    order[slot] = next
                }
            } else {
                for index in 0..<count { order[index] = index }
                order.sort { a, b in precedes(a, b) || (a < b && !precedes(b, a)) }
            }
            // Member i's bytes: its start ..< the next one's start - 1 (its comma left out),
            // the last up to `end`; their lengths taken before the starts are moved.
            let lengths = UnsafeMutableBufferPointer(rebasing: scratch[count..<(2 * count)])
            for index in 0..<count {
                lengths[index] = (index + 1 < count ? spans[2 * index + 2] - 1 : end) - spans[2 * index]
            }
            let copy = sortScratch!.reserve(end - first)
            copy.update(from: bytes + first, count: end - first)
            var write = first
            for slot in 0..<count {
                let index = order[slot]
                if slot > 0 { bytes[write] = UInt8(ascii: ","); write += 1 }
                (bytes + write).update(from: copy + (spans[2 * index] - first), count: lengths[index])
                // Its new place, for `noteCanonical` (names are compared no more).
                spans[2 * index] = write
                write += lengths[index]
            }
        }
    }

    /// Keeps what ``CanonicalScene`` needs of an object just written (members in
    /// canonical order at `open`'s `{`): the top-level object's members, and those of
    /// a top-level member named `container` whose value is this object.
    mutating func noteCanonical(depth: Int, open: Int, base: Int, count: Int, spansBase: Int) {
        guard depth <= 2, let canonical else { return }
        if depth == 2 && containerPosition < 0 { return }
        let spans = memberSpans.elements(from: spansBase)
        var members: [CanonicalScene.Member] = []
        members.reserveCapacity(count)
        for index in 0..<count {
            let name = memberName(base: base, index)
            let kind: CanonicalScene.Member.Kind
            if depth == 1 {
                kind = utf8Equal(name, "sizes") ? .size
                    : utf8Equal(name, "container") && memberIsObject(base: base, index) ? .container : .structure
            } else {
                kind = utf8Equal(name, "width") || utf8Equal(name, "height") ? .size : .structure
            }
            members.append(CanonicalScene.Member(position: index, kind: kind, start: spans[2 * index] - open, end: 0))
        }
        // In canonical order; each member ends one byte (its comma) before the next
        // starts, the last at the closing `}`.
        members.sort { $0.start < $1.start }
        for slot in members.indices {
            members[slot].end = slot + 1 < count ? members[slot + 1].start - 1 : canonical.count - 1 - open
        }
        if depth == 1 {
            topMembers = members
        } else {
            containerMembers.append((containerPosition, members))
            containerPosition = -1
        }
    }

    /// The name of member `index` of the object whose members start at `base` (of
    /// ``memberStack``, or with a tape of ``memberNames``).
    func memberName(base: Int, _ index: Int) -> String {
        if let tape { return tape.name(at: memberNames.elements(from: base)[index], in: bytes) }
        return memberStack.elements(from: base)[index].0
    }

    /// Whether the value of member `index` of the object whose members start at `base` is an object.
    func memberIsObject(base: Int, _ index: Int) -> Bool {
        if let tape { return tape.kind(at: memberNames.elements(from: base)[index] + 1) == .object }
        if case .object = memberStack.elements(from: base)[index].1 { return true }
        return false
    }

    /// The canonical form and its split, once the whole value is read.
    func canonicalScene() -> CanonicalScene {
        guard let canonical else { return CanonicalScene(bytes: [], topMembers: [], containers: []) }
        return CanonicalScene(bytes: canonical.array(), topMembers: topMembers, containers: containerMembers)
    }
}

/// The short (at most 15 bytes, Swift's small strings) ASCII strings of one document,
/// each made once: a scene repeats its member names (`width`, `parent`) and view names
/// (`"parent":"card"`), and finding one here (its bytes loaded as two words, hashed,
/// compared) costs a fraction of making it again. Open addressing over 128 slots; when
/// a probe finds no free slot within 8, the string is made without being kept.
/// Equal bytes give an equal `String`: which strings are kept changes no answer.
private final class SmallStringTable {
    private static let slotCount = 128
    /// Per slot: the string's byte count, 0 for a free slot (the only memory set up
    /// front: a slot's other fields are read only when its count is not 0).
    private let counts: UnsafeMutablePointer<UInt8>
    /// Per slot: the string's bytes as two little-endian words, zero past its count.
    private let words: UnsafeMutablePointer<UInt64>
    /// Per slot: the string.
    private let strings: UnsafeMutablePointer<String>
    /// The slots taken, in the order they were.
    private let taken: UnsafeMutablePointer<UInt8>
    private var takenCount = 0

    init() {
        counts = .allocate(capacity: Self.slotCount)
        counts.initialize(repeating: 0, count: Self.slotCount)
        words = .allocate(capacity: 2 * Self.slotCount)
        strings = .allocate(capacity: Self.slotCount)
        taken = .allocate(capacity: Self.slotCount)
    }

    deinit {
        for index in 0..<takenCount { (strings + Int(taken[index])).deinitialize(count: 1) }
        taken.deallocate()
        strings.deallocate()
        words.deallocate()
        counts.deallocate()
    }

    /// The string of `ascii`'s bytes (all below 0x80: the caller checked). `readable`
    /// is how many bytes from `ascii`'s start may be read (the rest of the input).
    @inline(__always)
    func string(ascii: UnsafeBufferPointer<UInt8>, readable: Int) -> String {
        let count = ascii.count
        guard count > 0 && count <= 15, let base = ascii.baseAddress else { return String(decoding: ascii, as: UTF8.self) }
        var low: UInt64 = 0, high: UInt64 = 0
        if readable >= 16 {
            let raw = UnsafeRawPointer(base)
            low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if count < 8 {
                low &= (1 &<< (8 &* UInt64(count))) &- 1
                high = 0
            } else {
                high &= (1 &<< (8 &* UInt64(count &- 8))) &- 1
            }
        } else {
            for index in 0..<min(count, 8) { low |= UInt64(base[index]) << (8 * UInt64(index)) }
            if count > 8 { for index in 8..<count { high |= UInt64(base[index]) << (8 * UInt64(index - 8)) } }
        }
        // Multiplicative hashing: the product's top 7 bits depend on every byte.
        let hash = (low ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
        var slot = Int(truncatingIfNeeded: hash >> 57)
        for _ in 0..<8 {
            let slotCount = Int(counts[slot])
            if slotCount == 0 {
                let string = String(decoding: ascii, as: UTF8.self)
                counts[slot] = UInt8(truncatingIfNeeded: count)
                words[2 * slot] = low
                words[2 * slot + 1] = high
                (strings + slot).initialize(to: string)
                taken[takenCount] = UInt8(truncatingIfNeeded: slot)
                takenCount += 1
                return string
            }
            if slotCount == count && words[2 * slot] == low && words[2 * slot + 1] == high { return strings[slot] }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        return String(decoding: ascii, as: UTF8.self)
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
    @inline(__always)
    func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Doubles the storage.
    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }

    /// The elements from index `base` to the top, in place (valid until the next push or pop).
    func elements(from base: Int) -> UnsafeMutableBufferPointer<Element> {
        UnsafeMutableBufferPointer(start: storage + base, count: count - base)
    }

    /// Removes the elements from index `base` to the top, one by one (each destroyed by
    /// code specialized for `Element`, not by the runtime's generic array destroy).
    func drop(from base: Int) {
        for index in base..<count { (storage + index).deinitialize(count: 1) }
        count = base
    }

    /// Moves the elements from index `base` to the top into a new array, in order, and
    /// removes them from the stack.
    func pop(from base: Int) -> [Element] {
        let moved = count - base
        // Through `Array.init(_:)` of a collection that moves its elements out: that
        // array is allocated by code specialized for `Element`, where one made
        // uninitialized is allocated by the standard library's generic code, which looks
        // the storage's type up at run time (≈ 500 instructions an array).
        let elements = Array(MovedElements(start: storage + base, count: moved))
        count = base
        return elements
    }
}

/// Elements in memory that are moved, not copied, into the array `Array.init(_:)` makes
/// of them (its `_copyContents(initializing:)`): after that the memory is uninitialized.
/// Used once, by ``ScratchStack/pop(from:)``; not to be iterated otherwise.
private struct MovedElements<Element>: Collection {
    let start: UnsafeMutablePointer<Element>
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    func index(after index: Int) -> Int { index + 1 }
    subscript(position: Int) -> Element { start[position] }

    struct Iterator: IteratorProtocol {
        let start: UnsafeMutablePointer<Element>
        var position: Int
        let end: Int
        mutating func next() -> Element? {
            guard position < end else { return nil }
            defer { position += 1 }
            return start[position]
        }
    }

    func makeIterator() -> Iterator { Iterator(start: start, position: 0, end: count) }

    /// Moves every element into `buffer` and returns an iterator past them all.
    func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Element>) -> (Iterator, Int) {
        let moved = Swift.min(count, buffer.count)
        if moved > 0 { buffer.baseAddress!.moveInitialize(from: start, count: moved) }
        return (Iterator(start: start, position: moved, end: moved), moved)
    }
}

/// The canonical form of a JSON value (``JSONParser/parseCanonical(_:)``: sorted member
/// names, no whitespace, the writer's numbers and escapes), split as a scene's cache
/// keys split it: the structure (everything but the top-level `sizes` and the `width`
/// and `height` of a top-level `container` object) and the sizes (those members, in an
/// object of their own). Each part's bytes are what `JSONWriter.value(_:sortingKeys:
/// true)` writes for that part of the value.
public struct CanonicalScene: Sendable {
    /// A member of the top-level object, or of a `container` object in it: its document
    /// position, what it is, and its canonical bytes (`"NAME":VALUE`) as offsets from
    /// its object's `{`.
    struct Member: Sendable {
        enum Kind: Sendable { case structure, size, container }
        var position: Int
        var kind: Kind
        var start: Int
        var end: Int
    }

    /// The canonical form of the whole value.
    public let bytes: [UInt8]
    /// The top-level object's members in canonical order; empty when the value is not an
    /// object or has none.
    let topMembers: [Member]
    /// The members of each top-level `container` object, by the container's document position.
    let containers: [(position: Int, members: [Member])]

    /// The canonical form of the structure: ``bytes`` without the members that go to
    /// ``sizeJSON``.
    public var structure: [UInt8] {
        if !topMembers.contains(where: { $0.kind != .structure }) { return bytes }
        return part(keeping: .structure)
    }

    /// The canonical form of `{"container": {"width", "height"}, "sizes"}` (the members
    /// the value has; `{}` when none, or when the value is not an object).
    public var sizeJSON: [UInt8] {
        if topMembers.isEmpty { return Array("{}".utf8) }
        return part(keeping: .size)
    }

    /// `{`, the top-level members of `kind` (with a `container` object's members of
    /// `kind` in `"container":{…}`), separated by commas, and `}`.
    private func part(keeping kind: Member.Kind) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(kind == .structure ? bytes.count : 64)
        bytes.withUnsafeBufferPointer { all in
            out.append(UInt8(ascii: "{"))
            var first = true
            for member in topMembers where member.kind == kind || member.kind == .container {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                guard member.kind == .container,
                      let inner = containers.first(where: { $0.position == member.position })?.members else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: all[member.start..<member.end]))
                    continue
                }
                // `"container":` and `{`, then its members of `kind`.
                let open = member.start + 12
                out.append(contentsOf: UnsafeBufferPointer(rebasing: all[member.start...open]))
                var firstInner = true
                for field in inner where field.kind == kind {
                    if !firstInner { out.append(UInt8(ascii: ",")) }
                    firstInner = false
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: all[(open + field.start)..<(open + field.end)]))
                }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "}"))
        }
        return out
    }
}

/// A growing buffer of bytes (the canonical form being written), with in-place reads
/// and writes for putting an object's members in order.
final class ByteBuffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The number of bytes written.
    private(set) var count = 0
    /// The first byte (valid until the buffer grows).
    var start: UnsafeMutablePointer<UInt8> { storage }

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// Room for `extra` more bytes at the end; returns where they go (``commit(_:)`` them).
    @inline(__always)
    func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity { grow(count + extra) }
        return storage + count
    }

    /// Counts `written` bytes put at ``reserve(_:)``'s address.
    @inline(__always)
    func commit(_ written: Int) { count += written }

    private func grow(_ needed: Int) {
        var larger = capacity * 2
        while larger < needed { larger *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    func append(_ literal: StaticString) {
        let length = literal.utf8CodeUnitCount
        reserve(length).update(from: literal.utf8Start, count: length)
        count += length
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// `"`, `bytes` as they are (the caller knows they need no escape) and `"`.
    func appendQuoted(plain bytes: UnsafeBufferPointer<UInt8>) {
        let target = reserve(bytes.count + 2)
        target.pointee = UInt8(ascii: "\"")
        if let base = bytes.baseAddress { (target + 1).update(from: base, count: bytes.count) }
        target[bytes.count + 1] = UInt8(ascii: "\"")
        count += bytes.count + 2
    }

    /// `utf8` in double quotes with `JSONWriter`'s escapes (RFC 8259 §7): `\"`, `\\`,
    /// `\n`, `\r`, `\t`, and `\u00XX` (lowercase) for the other control characters.
    func appendQuoted(escaping utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        let hex: StaticString = "0123456789abcdef"
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(UInt8(ascii: "\\")); append(byte)
            case 0x0A: append(UInt8(ascii: "\\")); append(UInt8(ascii: "n"))
            case 0x0D: append(UInt8(ascii: "\\")); append(UInt8(ascii: "r"))
            case 0x09: append(UInt8(ascii: "\\")); append(UInt8(ascii: "t"))
            case 0..<0x20:
                append("\\u00")
                append(hex.utf8Start[Int(byte >> 4)])
                append(hex.utf8Start[Int(byte & 0xF)])
            default: append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// Copies bytes `start ..< end` to `target`.
    func copy(from start: Int, to end: Int, into target: UnsafeMutablePointer<UInt8>) {
        target.update(from: storage + start, count: end - start)
    }

    /// Sets the byte at `index` (below ``count``).
    func set(_ index: Int, _ byte: UInt8) { storage[index] = byte }

    /// Overwrites `count` bytes from `index` (below ``count``) with `source`'s.
    func overwrite(at index: Int, from source: UnsafePointer<UInt8>, count length: Int) {
        (storage + index).update(from: source, count: length)
    }

    /// The bytes written, as an array.
    func array() -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }
}
