import LayoutCompiler

/// Appends SVG markup to a bounded byte buffer (``AnswerBytes``), escaping text and
/// attribute values, and counts the rendering's work (``WireframeRenderer/workUnitDescription``):
/// the bytes written plus those ``charge(_:)`` adds. Once the buffer or the work budget
/// stops it, every call does nothing.
struct SVGWriter {
    private var out: AnswerBytes
    /// Work units examined so far (bytes written are counted by the buffer).
    private var examined = 0
    /// The most work units the rendering may spend.
    let maxWork: Int

    init(limit: Int = .max, pool: (any AnswerBytePool)? = nil, maxWork: Int = .max) {
        out = AnswerBytes(limit: limit, pool: pool, reservingCapacity: 4096)
        self.maxWork = maxWork
    }

    var bytes: [UInt8] { out.bytes }
    var stop: AnswerStop? { out.stop }
    var reservation: AnswerReservation? { out.reservation }
    /// Whether the writer still takes markup (neither bound was reached).
    var isWriting: Bool { out.stop == nil }

    /// Adds `units` of work (bytes examined); false, and stopped, when the bytes written
    /// and examined together pass ``maxWork``.
    mutating func charge(_ units: Int) -> Bool {
        guard isWriting else { return false }
        examined = examined > Int.max - units ? Int.max : examined + units
        return withinWork()
    }

    private mutating func withinWork() -> Bool {
        if out.bytes.count > maxWork - min(examined, maxWork) {
            out.halt(.workExceeded(limit: maxWork))
            return false
        }
        return true
    }

    /// Stops the writer now when the document is known to need at least `bytes` bytes
    /// that the byte limit or the work budget cannot take (so that no label is placed for
    /// a document that cannot be sent); false when stopped.
    mutating func expect(atLeast bytes: Int) -> Bool {
        guard isWriting else { return false }
        if bytes > out.limit {
            out.halt(.tooLarge(limit: out.limit))
            return false
        }
        if bytes > maxWork - min(examined, maxWork) {
            out.halt(.workExceeded(limit: maxWork))
            return false
        }
        return true
    }

    /// Checks the final length against the byte limit and the work against its budget.
    mutating func finish() {
        if withinWork() { out.finish() }
    }

    /// Markup written as is: only for literal strings of this file.
    mutating func raw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { utf8 in
            guard out.admits(utf8.count), withinWork() else { return }
            out.append(utf8)
        }
    }

    /// ` name="value"` with the value escaped.
    mutating func attribute(_ name: StaticString, _ value: String) {
        guard out.admits(name.utf8CodeUnitCount + 4) else { return }
        out.append(UInt8(ascii: " "))
        name.withUTF8Buffer { out.append($0) }
        out.append(UInt8(ascii: "="))
        out.append(UInt8(ascii: "\""))
        text(value)
        out.append(UInt8(ascii: "\""))
    }

    /// Character data or an attribute value, escaped (XML 1.0 §2.4, §2.2): see
    /// ``escaped(_:)``. Runs without a character to escape are copied in one call.
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            // Every byte writes at least one: a value that cannot fit is not copied.
            guard out.admits(utf8.count) else { return }
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                var length = 1
                let replacement: StaticString
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                case 0x0A: replacement = "&#10;"
                case 0x09: replacement = "&#9;"
                case 0x0D: replacement = "&#13;"
                case 0xE2 where index + 2 < utf8.count && Self.isDirectionalControl(utf8[index + 1], utf8[index + 2]):
                    // U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: kept, as references,
                    // so that the document's bytes never reorder what a reader sees.
                    replacement = Self.directionalReferences[Int(utf8[index + 1] & 1) * 64 + Int(utf8[index + 2] & 0x3F)]
                    length = 3
                case 0xD8 where index + 1 < utf8.count && utf8[index + 1] == 0x9C:
                    replacement = "&#x61C;"    // U+061C ARABIC LETTER MARK
                    length = 2
                case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBF && utf8[index + 2] >= 0xBE:
                    // U+FFFE or U+FFFF (EF BF BE, EF BF BF): not XML characters.
                    replacement = "\u{FFFD}"
                    length = 3
                default:
                    if byte < 0x20 {
                        replacement = "\u{FFFD}"
                    } else {
                        index += 1
                        continue
                    }
                }
                if runStart < index { out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                // The rest writes at least a byte each; a replacement is at most 8 (within the slack).
                guard out.admits(utf8.count - index) else { return }
                replacement.withUTF8Buffer { out.append($0) }
                index += length
                runStart = index
            }
            if runStart < utf8.count { out.append(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
    }

    /// Whether the UTF-8 sequence E2 `second` `third` is a directional formatting
    /// character (Unicode's `Bidi_Control` property less U+061C): U+200E, U+200F
    /// (E2 80 8E/8F), U+202A–U+202E (E2 80 AA–AE), U+2066–U+2069 (E2 81 A6–A9).
    static func isDirectionalControl(_ second: UInt8, _ third: UInt8) -> Bool {
        switch (second, third) {
        case (0x80, 0x8E...0x8F), (0x80, 0xAA...0xAE), (0x81, 0xA6...0xA9): true
        default: false
        }
    }

    /// The character reference of each directional control, by (second byte & 1) × 64 +
    /// (third byte & 0x3F); other slots are unused.
    static let directionalReferences: [StaticString] = {
        var table = [StaticString](repeating: "", count: 128)
        table[0x0E] = "&#x200E;"
        table[0x0F] = "&#x200F;"
        table[0x2A] = "&#x202A;"
        table[0x2B] = "&#x202B;"
        table[0x2C] = "&#x202C;"
        table[0x2D] = "&#x202D;"
        table[0x2E] = "&#x202E;"
        table[64 + 0x26] = "&#x2066;"
        table[64 + 0x27] = "&#x2067;"
        table[64 + 0x28] = "&#x2068;"
        table[64 + 0x29] = "&#x2069;"
        return table
    }()

    /// `&` `<` `>` `"` `'` as entity or character references; characters outside XML
    /// 1.0's `Char` production (C0 controls except tab, LF, CR; U+FFFE; U+FFFF) → U+FFFD;
    /// directional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069) as hexadecimal character references (the same text once parsed).
    /// Line feeds and tabs are kept in text but written as references so that they
    /// survive attribute-value normalisation too.
    static func escaped(_ value: String) -> String {
        var writer = SVGWriter()
        writer.text(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
