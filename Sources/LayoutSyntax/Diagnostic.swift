/// A fault in the input, with a stable code, a message a person can act on, and where it is.
///
/// Spans are UTF-8 byte offsets into the constraint string, 0-based; the contract's
/// `column` is derived from them with ``column(in:)`` (Unicode scalars, 0-based).
public struct Diagnostic: Hashable, Sendable {
    /// How bad the fault is: an `error` makes a scene unlayoutable (422).
    public enum Severity: String, Sendable {
        case error, warning
    }

    /// The codes the parsers report. Each is one of the contract's codes ("Responses"),
    /// spelled as there; the contract's whole vocabulary, with the codes of the scene,
    /// the groups and the solve, is LayoutCompiler's `LayoutDiagnostic.Code`.
    public enum Code: String, Sendable, CaseIterable {
        case vflSyntax = "vfl_syntax", equationSyntax = "equation_syntax", unknownView = "unknown_view",
             unknownMetric = "unknown_metric", unknownAttribute = "unknown_attribute",
             incompatibleAttributes = "incompatible_attributes", nonlinear = "nonlinear",
             limitExceeded = "limit_exceeded"
    }

    /// `error` or `warning`.
    public var severity: Severity
    /// The stable code.
    public var code: Code
    /// What is wrong and what was expected, e.g. `Expected ']' to close view 'red'`.
    public var message: String
    /// UTF-8 byte offsets in the source string, when the fault has a place. The lower
    /// bound is the first byte that could not be consumed, or the first byte of an
    /// unknown name.
    public var span: Range<Int>?
    /// Extra lines: what was found, suggestions.
    public var notes: [String]

    /// Creates a diagnostic.
    public init(severity: Severity = .error, code: Code, message: String, span: Range<Int>? = nil, notes: [String] = []) {
        self.severity = severity
        self.code = code
        self.message = message
        self.span = span
        self.notes = notes
    }

    /// The most Unicode scalars of client input a diagnostic quotes in one piece: a
    /// name or snippet in a message (``echo(_:)``), a `source` or a constraint's text,
    /// so an answer grows with the number of diagnostics, not with their size times their
    /// number (`DiagnosticEchoTests.echoCutsLongInputAt256Scalars`).
    public static let maxEchoLength = 256

    /// `text` as a message quotes it: unchanged up to ``maxEchoLength`` scalars, else its
    /// first `maxEchoLength - 1` scalars and `…` (U+2026), so the result is
    /// `maxEchoLength` scalars long. Tested by `DiagnosticTests.echoCutsLongInputAt256Scalars`.
    /// Bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069),
    /// which would reorder the message around the quote when it is shown (the "Trojan
    /// Source" display, CVE-2021-42574), are then written as `\u{202E}`
    /// (`DiagnosticTests.echoEscapesBidiControls`).
    /// - Complexity: O(|text|) for the bidi scan, O(min(|text|, maxEchoLength)) beyond it.
    public static func echo(_ text: some StringProtocol) -> String {
        // Every bidi control's UTF-8 starts with 0xE2 (U+2xxx) or 0xD8 (U+061C): most text is
        // passed over by bytes.
        if text.utf8.contains(where: { $0 == 0xE2 || $0 == 0xD8 }), text.unicodeScalars.contains(where: isBidiControl) {
            var escaped = ""
            for scalar in cut(text).unicodeScalars {
                if isBidiControl(scalar) {
                    escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped
        }
        return cut(text)
    }

    /// Whether `scalar` is a bidirectional formatting character, Unicode's Bidi_Control
    /// property (PropList.txt): ALM (U+061C), LRM, RLM (U+200E, U+200F), the embeddings and
    /// overrides U+202A–U+202E, the isolates U+2066–U+2069 (Unicode Standard Annex #9, table 4).
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` cut to ``maxEchoLength`` scalars as ``echo(_:)`` cuts it.
    private static func cut(_ text: some StringProtocol) -> String {
        guard text.utf8.count > maxEchoLength else { return String(text) }
        var scalars = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == maxEchoLength {
                // One more than fits: cut, the last kept scalar giving way to `…`.
                scalars.removeLast()
                scalars.append("…")
                return String(scalars)
            }
            scalars.append(scalar)
            count += 1
        }
        return String(scalars)
    }

    /// A window of at most ``maxEchoLength`` Unicode scalars of `source` around scalar
    /// `column`, for a diagnostic's `source`; `nil` when `source` is that short already.
    ///
    /// The window is the scalars `start..<start + maxEchoLength` of `source`, its first
    /// replaced by `…` when `start > 0` and its last when it ends before `source` does,
    /// so every other scalar keeps its place: the caret column in the window is
    /// `column - start`, never on a `…`: `start` is `column - 128`, at least 0 and at most
    /// `count - 256`, so cut at the front the window holds `…` and 127 scalars of the source
    /// before the caret's character (`DiagnosticTests.windowStartsBeforeTheCaret`). A
    /// `column` past the end (the
    /// caret after the last scalar) puts the window at the end. `nil` `column`: the
    /// window starts at 0. Tested by `DiagnosticTests.windowKeepsTheCaretOnItsCharacter`.
    /// - Complexity: O(|source|) scalars.
    public static func window(_ source: String, column: Int?) -> (text: String, start: Int)? {
        guard source.utf8.count > maxEchoLength else { return nil }
        let length = source.unicodeScalars.count
        guard length > maxEchoLength else { return nil }
        let half = maxEchoLength / 2
        let start = max(0, min((column ?? 0) - half, length - maxEchoLength))
        let end = start + maxEchoLength
        var scalars = String.UnicodeScalarView()
        var index = 0
        for scalar in source.unicodeScalars {
            if index >= end { break }
            if index >= start {
                let isCut = (index == start && start > 0) || (index == end - 1 && end < length)
                scalars.append(isCut ? "…" : scalar)
            }
            index += 1
        }
        return (String(scalars), start)
    }

    /// The 0-based column, in Unicode scalars, of `span.lowerBound` in `source`
    /// (the contract's `column`); `nil` without a span.
    ///
    /// An offset past the end gives the scalar count of `source` (the caret after the
    /// last character). - Complexity: O(offset).
    public func column(in source: String) -> Int? {
        guard let span else { return nil }
        return Diagnostic.scalarColumn(ofByteOffset: span.lowerBound, in: source)
    }

    /// Counts the Unicode scalars that start before `offset` (UTF-8 lead bytes).
    static func scalarColumn(ofByteOffset offset: Int, in source: String) -> Int {
        var column = 0
        var index = 0
        for byte in source.utf8 {
            if index >= offset { break }
            if byte & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return column
    }

    /// Terminal rendering: the message, the source line, and a caret line under the
    /// column, then one `note:` line per note.
    ///
    /// ```
    /// Expected ']' to close view 'red'
    /// H:|-0-[red-0-|
    ///           ^
    /// ```
    /// Tabs in the source are copied into the caret line so the caret stays aligned.
    public func rendered(source: String) -> String {
        var lines = [message]
        if let span {
            let bytes = Array(source.utf8)
            let offset = min(max(0, span.lowerBound), bytes.count)
            var lineStart = offset
            while lineStart > 0 && bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
            var lineEnd = offset
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            lines.append(String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self))
            var caret = ""
            for index in lineStart..<offset where bytes[index] & 0xC0 != 0x80 {
                caret.append(bytes[index] == UInt8(ascii: "\t") ? "\t" : " ")
            }
            caret.append("^")
            lines.append(caret)
        }
        for note in notes { lines.append("note: \(note)") }
        return lines.joined(separator: "\n")
    }
}
