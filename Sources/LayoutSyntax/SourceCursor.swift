/// A position in the UTF-8 bytes of a constraint string, with the small lexical
/// helpers both parsers share. Offsets are UTF-8 byte offsets (the unit of spans).
///
/// The cursor reads the string's own UTF-8 storage (no copy): it lives only inside
/// ``withSourceCursor(_:_:)``'s closure.
struct SourceCursor {
    /// The source bytes (the string's storage, valid during ``withSourceCursor(_:_:)``).
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next unconsumed byte.
    var offset: Int = 0
    /// Whether the name ``readWord()`` read last is ASCII (so the parsers need not scan it).
    private(set) var lastWordIsASCII = true

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether every byte was consumed.
    var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or `nil` at the end.
    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// The byte after the next one, or `nil`.
    var next: UInt8? { offset + 1 < bytes.count ? bytes[offset + 1] : nil }

    /// Skips spaces and tabs (allowed between tokens).
    mutating func skipWhitespace() {
        while offset < bytes.count, bytes[offset] == 0x20 || bytes[offset] == 0x09 { offset += 1 }
    }

    /// Consumes `byte` when it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        offset += 1
        return true
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    static func isIdentifierContinuation(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Whether an identifier (`[A-Za-z_][A-Za-z0-9_]*`) starts here.
    var isAtIdentifier: Bool { current.map(SourceCursor.isIdentifierStart) ?? false }

    /// Whether a number (`12`, `1.5`, `.5`) starts here.
    var isAtNumber: Bool {
        guard let byte = current else { return false }
        if SourceCursor.isDigit(byte) { return true }
        return byte == UInt8(ascii: ".") && (next.map(SourceCursor.isDigit) ?? false)
    }

    /// Reads an identifier; call only when ``isAtIdentifier``.
    mutating func readIdentifier() -> (name: String, span: Range<Int>) {
        let start = offset
        offset += 1
        while offset < bytes.count, SourceCursor.isIdentifierContinuation(bytes[offset]) { offset += 1 }
        // ASCII by construction: decoded from the buffer directly (no generic slice path).
        return (text(start..<offset), start..<offset)
    }

    /// Reads an identifier together with any non-ASCII letters (and combining marks)
    /// that continue it (`wídth`, `réd`), for a name that is only looked up: names are
    /// ASCII, so such a name is one unknown name (with a suggestion), not an unknown
    /// prefix followed by a syntax error at the letter. Call only when ``isAtIdentifier``.
    mutating func readWord() -> (name: String, span: Range<Int>) {
        let span = readWordSpan()
        return (text(span), span)
    }

    /// ``readWord()`` without making the name: its span only (``text(_:)`` makes it).
    /// Call only when ``isAtIdentifier``.
    mutating func readWordSpan() -> Range<Int> {
        let start = offset
        offset += 1
        lastWordIsASCII = true
        while offset < bytes.count {
            if SourceCursor.isIdentifierContinuation(bytes[offset]) {
                offset += 1
            } else if bytes[offset] >= 0x80, let length = letterLength(at: offset) {
                offset += length
                lastWordIsASCII = false
            } else {
                break
            }
        }
        return start..<offset
    }

    /// The UTF-8 length of the non-ASCII letter (Unicode `Alphabetic`) or combining mark
    /// (a decomposed accent, U+0301) at `index`, or nil. Format characters (U+200B,
    /// U+FEFF) are not: invisible inside a name, they are reported where they are.
    func letterLength(at index: Int) -> Int? {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0, index + length <= bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(rebasing: bytes[index..<index + length]).makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return length
        default: return scalar.properties.isAlphabetic ? length : nil
        }
    }

    /// The message for a view name read whole with a non-ASCII letter (`réd`; see
    /// ``lastWordIsASCII``). View names are ASCII (`[A-Za-z_][A-Za-z0-9_]*`), so such a
    /// name is reported by the parser, at its start, as one unknown view.
    static func nonASCIIViewNameMessage(_ name: String) -> String {
        "Unknown view '\(Diagnostic.echo(name))': view names are ASCII letters, digits and '_'"
    }

    /// The message for a relation that is not `==`, `<=` or `>=`: `first` (`=`, `<` or
    /// `>`) followed by `next`. Both parsers report it at `next`, the first character
    /// they cannot consume (the contract's column).
    static func unknownRelationMessage(_ first: UInt8, next: UInt8?) -> String {
        let (written, hint) = unknownRelationHint(first, next: next)
        return "Unknown relation '\(written)'; \(hint)"
    }

    /// What was written for a relation that is not `==`, `<=` or `>=` (`first` followed by
    /// `next`), and what to write instead: `("=>", "did you mean '>='?")`.
    static func unknownRelationHint(_ first: UInt8, next: UInt8?) -> (written: String, hint: String) {
        switch (first, next) {
        case (UInt8(ascii: "="), UInt8(ascii: ">")?): return ("=>", "did you mean '>='?")
        case (UInt8(ascii: "="), UInt8(ascii: "<")?): return ("=<", "did you mean '<='?")
        case (UInt8(ascii: "="), _): return ("=", "equality is written '=='")
        case (UInt8(ascii: "<"), _): return ("<", "there are no strict inequalities: use '<='")
        default: return (">", "there are no strict inequalities: use '>='")
        }
    }

    /// The source text of `span` (UTF-8 offsets within the buffer).
    func text(_ span: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self)
    }

    /// Reads an unsigned decimal number (`12`, `1.5`, `.5`, `2e3`); call only when
    /// ``isAtNumber``. The value may be infinite for huge literals (callers check).
    mutating func readNumber() -> (value: Double, span: Range<Int>) {
        let start = offset
        // Integer value of a short digit run, exact in a Double (below 10^15 < 2^53).
        var integer = 0
        while let byte = current, SourceCursor.isDigit(byte) {
            integer = integer &* 10 &+ Int(byte &- 0x30)
            offset += 1
        }
        let digitsEnd = offset
        if current == UInt8(ascii: "."), next.map(SourceCursor.isDigit) ?? false {
            offset += 1
            while let byte = current, SourceCursor.isDigit(byte) { offset += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            var probe = offset + 1
            if probe < bytes.count, bytes[probe] == UInt8(ascii: "+") || bytes[probe] == UInt8(ascii: "-") { probe += 1 }
            if probe < bytes.count, SourceCursor.isDigit(bytes[probe]) {
                offset = probe
                while let byte = current, SourceCursor.isDigit(byte) { offset += 1 }
            }
        }
        if offset == digitsEnd && offset > start && offset - start <= 15 {
            // Digits only: the same value `Double(text)` reads, without the text.
            return (Double(integer), start..<offset)
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        return (Double(text) ?? .infinity, start..<offset)
    }

    /// Describes what is at `offset` for a message: `'-'`, `the end of the string`, or
    /// for a character that would not show between quotes (whitespace, a control or
    /// format character, a combining mark alone…) its code point: `U+00A0`.
    func describeFound(at position: Int? = nil) -> String {
        let at = position ?? offset
        guard at < bytes.count else { return "the end of the string" }
        var end = at + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let text = String(decoding: bytes[at..<end], as: UTF8.self)
        if let scalar = text.unicodeScalars.first, isInvisible(scalar) { return codePoint(scalar) }
        return "'" + text + "'"
    }

    /// The span of the character at `offset` (empty at the end).
    func characterSpan(at position: Int? = nil) -> Range<Int> {
        let at = position ?? offset
        guard at < bytes.count else { return bytes.count..<bytes.count }
        var end = at + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return at..<end
    }
}

/// Runs `body` with a cursor at the start of `source`'s UTF-8 bytes (the string's
/// contiguous storage; a bridged or non-contiguous string is made contiguous first).
func withSourceCursor<Result>(_ source: String, _ body: (SourceCursor) -> Result) -> Result {
    var source = source
    return source.withUTF8 { body(SourceCursor(bytes: $0)) }
}

/// A fault that ends parsing of one string (its first syntax error).
struct SyntaxFault: Error {
    var diagnostic: Diagnostic
}

/// Collects the diagnostics of one string, up to ``ParseResult/maximumDiagnostics``.
struct DiagnosticCollector {
    private(set) var diagnostics: [Diagnostic] = []
    /// Candidate names compared by did-you-mean searches so far, and the most allowed.
    private(set) var suggestionComparisons = 0
    var suggestionBudget = Int.max

    /// Whether a search among `count` candidates may be made; counts them when it may.
    mutating func admitsSuggestion(among count: Int) -> Bool {
        guard count <= maxSuggestionCandidates, count <= suggestionBudget - suggestionComparisons else { return false }
        suggestionComparisons += count
        return true
    }

    /// The result of a parse that collected these diagnostics (built in place by the
    /// memberwise initializer).
    func result(_ constraints: [ParsedConstraint], numberBeyondLimit: NumberBeyondLimit? = nil,
                unconstrainedViews: [(name: String, span: Range<Int>)] = []) -> ParseResult {
        ParseResult(constraints: constraints, diagnostics: diagnostics, unconstrainedViews: unconstrainedViews,
                    numberBeyondLimit: numberBeyondLimit, suggestionComparisons: suggestionComparisons)
    }

    mutating func append(_ diagnostic: Diagnostic) {
        guard diagnostics.count < ParseResult.maximumDiagnostics else { return }
        diagnostics.append(diagnostic)
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// The most candidates ``closestName(to:among:)`` compares a name with (1,000): with
/// more it suggests nothing, as the parsers' metric suggestions always did.
public let maxSuggestionCandidates = 1_000

/// The most candidate names all the did-you-mean searches of one stage of a request
/// (decoding the scene; compiling its constraints) compare a name with (20,000: 20
/// searches among 1,000 names, or 100 among 200). A search that would pass it is not
/// made: about 0.15 s of one core at most per stage, whatever the request.
public let maxSuggestionComparisons = 20_000

/// Suggests the closest of `candidates` to `name` (optimal-string-alignment distance ≤ 2,
/// case-insensitive: a swap of two neighbours counts 1; ties go to the earliest candidate),
/// for "did you mean" hints. A candidate that differs in every character of `name` is no
/// suggestion ("zz" does not suggest "a"). The one such helper in layoutd: attributes,
/// metrics, views, JSON fields and command-line options all use it.
///
/// Only distances up to 2 matter, so a candidate whose length differs by more than 2 is
/// skipped, and only the band of cells within 2 of the diagonal is computed (a cell off
/// it is at least its distance from the diagonal): a suggestion among 14,000 views of 64
/// characters, asked for by each of 100 unknown names, took minutes in full.
/// `SuggestionTests.theBandedDistanceSuggestsWhatTheFullOneDoes` holds it to the full
/// table's answers.
///
/// Bounded: more than ``maxSuggestionCandidates`` candidates, or a name longer than 64
/// bytes, get no suggestion, so one search costs at most about 1,000 × 64 × 5 cells
/// (the band), whatever the request. Callers that may ask for many suggestions ask only
/// for the diagnostics they list (``LayoutDiagnostic``'s bound).
///
/// - Complexity: O(candidates + Σ over the candidates within 2 in length of |name|),
///   candidates ≤ ``maxSuggestionCandidates``.
public func closestName(to name: String, among candidates: [String]) -> String? {
    guard candidates.count <= maxSuggestionCandidates else { return nil }
    let source = Array(name.lowercased().utf8)
    let n = source.count
    guard n <= 64, n > 0 else { return nil }
    // Cells hold min(distance, cap): 3 is "more than 2". Three rows (i, i-1, i-2) in turn.
    let cap = 3
    let width = n + 3
    var rows = [Int](repeating: cap, count: 3 * width)
    var best: (String, Int)?
    var target: [UInt8] = []
    target.reserveCapacity(n + 2)
    for candidate in candidates {
        let bytes = candidate.utf8
        if bytes.allSatisfy({ $0 < 0x80 }) {
            // Lower-casing keeps an ASCII name's length: compared only within 2 of it.
            if abs(bytes.count - n) > 2 { continue }
            target.removeAll(keepingCapacity: true)
            for byte in bytes { target.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) }
        } else {
            target = Array(candidate.lowercased().utf8)
        }
        let m = target.count
        guard abs(m - n) <= 2 else { continue }
        let distance: Int
        if m == 0 {
            distance = n
        } else {
            // Every cell read below was written for this candidate: row 0 here, and in
            // each row its band and the cell on either side of it (3: off the band).
            for j in 0...m { rows[j] = min(j, cap) }
            for i in 1...n {
                let current = (i % 3) * width, previous = ((i + 2) % 3) * width, beforePrevious = ((i + 1) % 3) * width
                rows[current] = min(i, cap)
                let low = max(1, i - 2), high = min(m, i + 2)
                if low > 1 { rows[current + low - 1] = cap }
                if low <= high {
                    for j in low...high {
                        let cost = source[i - 1] == target[j - 1] ? 0 : 1
                        var cell = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                        if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
                            cell = min(cell, rows[beforePrevious + j - 2] + 1)
                        }
                        rows[current + j] = min(cell, cap)
                    }
                }
                if high < m { rows[current + high + 1] = cap }
            }
            distance = rows[(n % 3) * width + m]
        }
        if distance <= 2, distance < n, best.map({ distance < $0.1 }) ?? true { best = (candidate, distance) }
    }
    return best?.0
}

/// ``closestName(to:among:)``, or else the one candidate that `name` is a shorter prefix
/// of, compared case-insensitively (`hi` suggests `high`; `fitting` suggests nothing
/// when `fittingSize` and `fittingSizeLevel` both begin with it). For the named
/// priorities, whose short names a prefix can spell before any is within 2 of it
/// (SuggestionTests.aPrefixOfOneNameSuggestsIt). Bounded as ``closestName(to:among:)``.
public func closestNameOrCompletion(to name: String, among candidates: [String]) -> String? {
    if let closest = closestName(to: name, among: candidates) { return closest }
    guard candidates.count <= maxSuggestionCandidates, !name.isEmpty, name.utf8.count <= 64 else { return nil }
    let prefix = Array(name.lowercased().utf8)
    var found: String?
    for candidate in candidates {
        let lowered = candidate.lowercased().utf8
        guard lowered.count > prefix.count, lowered.starts(with: prefix) else { continue }
        if found != nil { return nil }
        found = candidate
    }
    return found
}

/// Whether `scalar` would be invisible or unreadable quoted alone in a message:
/// whitespace (a space included), control, format and separator characters, default
/// ignorable code points, combining marks, private-use and unassigned code points.
func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    if properties.isWhitespace || properties.isDefaultIgnorableCodePoint { return true }
    switch properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .nonspacingMark, .enclosingMark,
         .privateUse, .surrogate, .unassigned:
        return true
    default:
        return false
    }
}

/// `U+00A0`: the code point in upper-case hex, at least four digits.
public func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
