// The structured mode of the scene libFuzzer targets (fuzz/scene/SceneMutator.swift calls
// it from LLVMFuzzerCustomMutator; scripts/fuzz-scene-smoke.sh builds it with them) and of
// SceneInvariantTests, which replays it over the seeds. Byte-level mutation seldom
// turns a name into another spelling of the same text; these mutations do it on purpose.

/// Mutations of a JSON body aimed at names: a combining mark after a letter (`e` → `e` +
/// U+0301), a compatibility or canonically equivalent character for a letter (`K` → U+212A
/// KELVIN SIGN, a fullwidth letter, `e` → U+00E9), an object member repeated (its key and
/// value written again after it), and one string's content copied over another's (two
/// views of one name, a parent naming an equivalent spelling).
///
/// Each works on the body's JSON string literals (found by scanning quotes and escapes; a
/// body that is not JSON still has some) and is deterministic for its arguments.
enum SceneNameMutator {
    /// SplitMix64 (Steele, Lea & Flood 2014): the choices of one mutation from a seed.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// A number in `0..<bound` (`bound` > 0).
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Combining marks inserted after a letter: acute, diaeresis, cedilla, ring above.
    static let combiningMarks: [Unicode.Scalar] = ["\u{301}", "\u{308}", "\u{327}", "\u{30A}"]

    /// The content ranges (between the quotes) of `body`'s string literals, in order, and
    /// for each whether it is an object key (followed by `:`).
    static func literals(in body: [UInt8]) -> [(content: Range<Int>, isKey: Bool)] {
        var result: [(Range<Int>, Bool)] = []
        var index = 0
        while index < body.count {
            guard body[index] == UInt8(ascii: "\"") else { index += 1; continue }
            let start = index + 1
            var end = start
            while end < body.count && body[end] != UInt8(ascii: "\"") {
                end += body[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end < body.count else { break }
            var after = end + 1
            while after < body.count && [0x20, 0x09, 0x0A, 0x0D].contains(body[after]) { after += 1 }
            result.append((start..<end, after < body.count && body[after] == UInt8(ascii: ":")))
            index = end + 1
        }
        return result
    }

    /// The end (exclusive) of the JSON value starting at or after `start` (whitespace
    /// skipped): a string, an array or object (nesting and strings followed), or a
    /// scalar up to the next `,` `}` `]` or whitespace. `nil` when the body ends first.
    static func valueEnd(in body: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < body.count && [0x20, 0x09, 0x0A, 0x0D].contains(body[index]) { index += 1 }
        guard index < body.count else { return nil }
        var depth = 0
        while index < body.count {
            switch body[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < body.count && body[index] != UInt8(ascii: "\"") {
                    index += body[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < body.count else { return nil }
                index += 1
                if depth == 0 { return index }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return index }
                depth -= 1
                index += 1
                if depth == 0 { return index }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { return index }
                index += 1
            default:
                index += 1
            }
        }
        return depth == 0 ? index : nil
    }

    /// `body` with `mark` (UTF-8) inserted after the byte at `offset` of the literal.
    static func insertingMark(_ body: [UInt8], literal: Range<Int>, offset: Int, mark: Unicode.Scalar) -> [UInt8] {
        let at = literal.lowerBound + min(offset + 1, literal.count)
        return Array(body[..<at]) + Array(String(mark).utf8) + Array(body[at...])
    }

    /// The compatibility or canonically equivalent spelling used for an ASCII letter:
    /// U+212A KELVIN SIGN for `K` and `k`, U+00E9 for `e`, U+212B ANGSTROM SIGN for `A`,
    /// else the fullwidth letter (U+FF21… and U+FF41…). `nil` for any other byte.
    static func compatibilityScalar(for byte: UInt8, variant: Int) -> Unicode.Scalar? {
        if variant % 2 == 0 {
            switch byte {
            case UInt8(ascii: "K"), UInt8(ascii: "k"): return "\u{212A}"
            case UInt8(ascii: "e"): return "\u{E9}"
            case UInt8(ascii: "A"): return "\u{212B}"
            default: break
            }
        }
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Unicode.Scalar(0xFF21 + UInt32(byte - UInt8(ascii: "A")))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Unicode.Scalar(0xFF41 + UInt32(byte - UInt8(ascii: "a")))
        default: return nil
        }
    }

    /// `body` with the ASCII letter at `offset` of the literal (or the first letter after
    /// it) replaced by ``compatibilityScalar(for:variant:)``; `nil` without a letter.
    static func replacingLetter(_ body: [UInt8], literal: Range<Int>, offset: Int, variant: Int) -> [UInt8]? {
        for position in (literal.lowerBound + offset)..<literal.upperBound {
            if let scalar = compatibilityScalar(for: body[position], variant: variant) {
                return Array(body[..<position]) + Array(String(scalar).utf8) + Array(body[(position + 1)...])
            }
        }
        return nil
    }

    /// `body` with the member whose key is `key` written again right after its value:
    /// `{"a":1}` → `{"a":1,"a":1}`. `nil` when its value does not end.
    static func repeatingMember(_ body: [UInt8], key: Range<Int>) -> [UInt8]? {
        var colon = key.upperBound + 1
        while colon < body.count && body[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < body.count, let end = valueEnd(in: body, from: colon + 1) else { return nil }
        let member = Array(body[(key.lowerBound - 1)..<end])
        return Array(body[..<end]) + [UInt8(ascii: ",")] + member + Array(body[end...])
    }

    /// `body` with the content of literal `target` replaced by that of `source`.
    static func copyingName(_ body: [UInt8], from source: Range<Int>, to target: Range<Int>) -> [UInt8] {
        Array(body[..<target.lowerBound]) + Array(body[source]) + Array(body[target.upperBound...])
    }

    /// One structured mutation of `body` chosen by `seed`, at most `maxSize` bytes; `nil`
    /// when the chosen one does not apply (no string literal, no letter, too long).
    static func mutate(_ body: [UInt8], seed: UInt32, maxSize: Int) -> [UInt8]? {
        var random = Generator(state: UInt64(seed))
        let found = literals(in: body)
        guard !found.isEmpty else { return nil }
        let chosen = found[random.below(found.count)]
        let offset = chosen.content.isEmpty ? 0 : random.below(chosen.content.count)
        let result: [UInt8]?
        switch random.below(4) {
        case 0:
            result = insertingMark(body, literal: chosen.content, offset: offset,
                                   mark: combiningMarks[random.below(combiningMarks.count)])
        case 1:
            result = replacingLetter(body, literal: chosen.content, offset: offset, variant: random.below(2))
        case 2:
            let keys = found.filter(\.isKey)
            result = keys.isEmpty ? nil : repeatingMember(body, key: keys[random.below(keys.count)].content)
        default:
            result = copyingName(body, from: found[random.below(found.count)].content, to: chosen.content)
        }
        guard let result, result.count <= maxSize else { return nil }
        return result
    }
}
