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
                // The rest writes at least a byte each; a replacement is at most 6 (the slack).
                guard out.admits(utf8.count - index) else { return }
                replacement.withUTF8Buffer { out.append($0) }
                index += length
                runStart = index
            }
            if runStart < utf8.count { out.append(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
    }

    /// `&` `<` `>` `"` `'` as entity or character references; characters outside XML
    /// 1.0's `Char` production (C0 controls except tab, LF, CR; U+FFFE; U+FFFF) → U+FFFD.
    /// Line feeds and tabs are kept in text but written as references so that they
    /// survive attribute-value normalisation too.
    static func escaped(_ value: String) -> String {
        var writer = SVGWriter()
        writer.text(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
