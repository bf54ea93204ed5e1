import LayoutSyntax

/// Collects diagnostics while decoding.
struct DecodingContext {
    var typeErrors: [LayoutDiagnostic] = []
    var sceneErrors: [LayoutDiagnostic] = []
    /// Candidate names the decoder's did-you-mean searches may still compare
    /// (``maxSuggestionComparisons`` in all).
    private var suggestionComparisonsLeft = maxSuggestionComparisons

    /// Whether a did-you-mean search among `count` candidates may be made (at most
    /// ``maxSuggestionCandidates`` of them, within what is left); counts them when it may.
    mutating func admitsSuggestion(among count: Int) -> Bool {
        guard count <= min(maxSuggestionCandidates, suggestionComparisonsLeft) else { return false }
        suggestionComparisonsLeft -= count
        return true
    }

    /// `"; did you mean 'NAME'?"` naming the closest of `candidates` to `text`
    /// (``closestName(to:among:)``, as an unknown field's hint) as `spelled` writes it, or
    /// `""` when none is close or the hint would not be listed or searched (the same bounds
    /// as ``checkMembers(_:known:path:)``'s). Appended to the refusal of a value outside an
    /// enumeration (SceneDecoderTests.enumTyposSuggestTheValue).
    /// With `completing`, a `text` that is a prefix of one candidate only suggests it
    /// (``closestNameOrCompletion(to:among:)``).
    mutating func suggestion(for text: String, among candidates: [String], completing: Bool = false,
                             spelled: (String) -> String = { $0 }) -> String {
        guard typeErrors.count < LayoutDiagnostic.maxCount, admitsSuggestion(among: candidates.count) else { return "" }
        let closest = completing ? closestNameOrCompletion(to: text, among: candidates) : closestName(to: text, among: candidates)
        return closest.map { "; did you mean '\(spelled($0))'?" } ?? ""
    }

    /// The 400 `invalid_scene` diagnostic for a value of the wrong JSON type at `path`:
    /// "Expected \(expected) at \(path), found a string".
    func typeError(_ path: String, expected: String, found: JSONNode) -> LayoutDiagnostic {
        LayoutDiagnostic(code: .invalidScene, message: "Expected \(expected) at \(path), found \(found.typeDescription)", path: path)
    }

    /// Reports every member of a fixed-field object that is not in `known` (with the
    /// closest known name as a hint), and every known member given more than once. Both
    /// are errors: a misspelt field (`"contraints"`) would otherwise be silently ignored,
    /// and JSON leaves repeated names to the reader (RFC 8259 §4), so taking one of them
    /// would lay out something other than what was sent.
    ///
    /// A member is a known field only when its bytes are the field's (`known` is ASCII;
    /// U+212A KELVIN SIGN never spells `K`). The suggestion is searched for the
    /// diagnostics that are listed (``LayoutDiagnostic/maxCount``).
    ///
    /// A member's name is made into a `String` only for a diagnostic.
    ///
    /// - Returns: for each field of `known`, the tape index of the value of the last
    ///   member with its bytes (what ``JSONNode/subscript(_:)`` finds), or -1 when absent:
    ///   a caller reads every field from there instead of searching the members again.
    /// - Complexity: O(members × known).
    @discardableResult
    mutating func checkMembers(_ members: JSONMembers, known: [String], path: @autoclosure () -> String) -> MemberIndices {
        checkMembers(members, known: KnownFields(known), path: path())
    }

    /// ``checkMembers(_:known:path:)-(JSONMembers,[String],_)`` with the fields' bytes packed once
    /// (the decoder's fixed field lists are ``KnownFields`` constants).
    @discardableResult
    mutating func checkMembers(_ members: JSONMembers, known: KnownFields, path: @autoclosure () -> String) -> MemberIndices {
        var given = MemberIndices()
        let tape = members.tape
        var index = members.first
        for _ in 0..<members.count {
            let nameNode = JSONNode(tape: tape, index: index)
            if let field = Self.field(named: nameNode, in: known) {
                if given[field] >= 0 {
                    let name = nameNode.stringValue!
                    typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Field '\(Diagnostic.echo(name))' is given more than once at \(path()); give it once", path: path() + pathComponent(name)))
                }
                given[field] = index + 1
            } else {
                let name = nameNode.stringValue!
                var suggestion = ""
                if typeErrors.count < LayoutDiagnostic.maxCount && admitsSuggestion(among: known.names.count) {
                    suggestion = (closestName(to: name, among: known.names.sorted()) ?? Self.alias(of: name, known: known.names))
                        .map { "; did you mean '\($0)'?" } ?? ""
                }
                typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Unknown field '\(Diagnostic.echo(name))' at \(path())\(suggestion)", path: path() + pathComponent(name)))
            }
            index = tape.nodes[index + 1].next
        }
        return given
    }

    /// The index in `known` of the name with `name`'s bytes (a string node), or `nil`:
    /// a plain name's bytes are compared in the document (``KnownFields/index(of:)``),
    /// an escaped one's in its string.
    @inline(__always)
    static func field(named name: JSONNode, in known: KnownFields) -> Int? {
        let node = name.node
        if node.kind == .string {
            return known.index(of: UnsafeBufferPointer(start: name.tape.bytes + node.start, count: node.count))
        }
        var string = name.tape.strings[node.count]
        return string.withUTF8 { known.index(of: $0) }
    }

    /// `value`'s number of points, or `nil` when it is absent or after a diagnostic (not a
    /// number, beyond ±``maximumMagnitude``, or below 0 with `nonNegative`).
    mutating func optionalNumber(_ value: JSONNode?, path: @autoclosure () -> String, nonNegative: Bool = false) -> Double? {
        guard let value else { return nil }
        let node = value.node
        guard node.kind == .number else {
            typeErrors.append(typeError(path(), expected: "a number (points)", found: value))
            return nil
        }
        return checkedLength(node.number, path: path(), nonNegative: nonNegative)
    }

    /// `number`, or `nil` after a diagnostic when it is beyond the magnitude limit or,
    /// with `nonNegative`, below 0.
    private mutating func checkedLength(_ number: Double, path: @autoclosure () -> String, nonNegative: Bool) -> Double? {
        if abs(number) > maximumMagnitude {
            sceneErrors.append(LayoutDiagnostic(code: .limitExceeded, message: "\(path()) is \(JSONWriter.format(number)); lengths are limited to ±\(JSONWriter.format(maximumMagnitude)) points (limit maxMagnitude)", path: path()))
            return nil
        }
        if nonNegative && number < 0 {
            sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "\(path()) is \(JSONWriter.format(number)); it must be ≥ 0 points", path: path()))
            return nil
        }
        return number
    }

    /// `-1` or absent: no intrinsic size on that axis (`UIView.noIntrinsicMetric`).
    mutating func intrinsicMetric(_ value: JSONNode?, path: @autoclosure () -> String) -> Double? {
        guard let number = optionalNumber(value, path: path()) else { return nil }
        if number == -1 { return nil }
        if number < 0 {
            sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "\(path()) is \(JSONWriter.format(number)); an intrinsic size is ≥ 0 points, or -1 for none", path: path()))
            return nil
        }
        return number
    }

    /// A priority: a number in 1...1000, or `required`/`high`/`low`/`fittingSize`.
    mutating func priority(_ value: JSONNode?, path: @autoclosure () -> String) -> Double? {
        guard let value else { return nil }
        switch value.shape {
        case .number(let number):
            guard number >= 1 && number <= 1000 else {
                sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Priority \(JSONWriter.format(number)) at \(path()) is out of range: priorities run from 1 to 1000", path: path()))
                return nil
            }
            return number
        case .string(let name):
            // By bytes: an ASCII spelling only (`switch` compares with `String ==`).
            switch isASCII(name) ? name : "" {
            case "required": return 1000
            case "high", "defaultHigh": return 750
            case "low", "defaultLow": return 250
            case "fittingSize", "fittingSizeLevel": return 50
            default:
                let hint = suggestion(for: name, among: Self.priorityNames, completing: true)
                typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Unknown priority '\(Diagnostic.echo(name))' at \(path()): use a number from 1 to 1000, or required, high, low, fittingSize\(hint)", path: path()))
                return nil
            }
        default:
            typeErrors.append(typeError(path(), expected: "a priority (a number from 1 to 1000)", found: value))
            return nil
        }
    }

    mutating func axisPriorities(_ value: JSONNode?, path: @autoclosure () -> String, defaults: AxisPriorities) -> AxisPriorities {
        guard let value else { return defaults }
        guard let members = value.objectValue else {
            typeErrors.append(typeError(path(), expected: "an object {horizontal, vertical}", found: value))
            return defaults
        }
        let at = checkMembers(members, known: Self.axisMembers, path: path())
        return AxisPriorities(
            horizontal: priority(at.value(0, in: members), path: path() + ".horizontal") ?? defaults.horizontal,
            vertical: priority(at.value(1, in: members), path: path() + ".vertical") ?? defaults.vertical)
    }

    mutating func enumeration<Value: RawRepresentable & CaseIterableNames>(_ value: JSONNode?, path: @autoclosure () -> String, default defaultValue: Value) -> Value where Value.RawValue == String {
        guard let value else { return defaultValue }
        guard let text = value.stringValue else {
            typeErrors.append(typeError(path(), expected: "one of \(Value.allNames.joined(separator: ", "))", found: value))
            return defaultValue
        }
        // By bytes: an ASCII spelling only (`Value(rawValue:)` compares with `String ==`).
        guard isASCII(text), let parsed = Value(rawValue: text) else {
            var hint = suggestion(for: text, among: Value.allNames)
            if hint.isEmpty, typeErrors.count < LayoutDiagnostic.maxCount, isASCII(text), let value = Self.valueAliases.first(where: { $0.alias == text.lowercased() && Value.allNames.contains($0.value) }) {
                hint = "; did you mean '\(value.value)'?"
            }
            typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "'\(Diagnostic.echo(text))' is not a value of \(path()): use one of \(Value.allNames.joined(separator: ", "))\(hint)", path: path()))
            return defaultValue
        }
        return parsed
    }
}

extension DecodingContext {
    /// UIKit's and other common names of fields, for an unknown member's did-you-mean when
    /// no known name is close (``checkMembers(_:known:path:)``): the name, the field whose
    /// presence among the known ones says the object is the right one, and what to write.
    /// Searched in order (SceneDecoderTests.uikitNamesSuggestTheField).
    static let fieldAliases: [(name: String, field: String, suggestion: String)] = [
        ("intrinsicContentSize", "intrinsicSize", "intrinsicSize"),
        ("contentHuggingPriority", "hugging", "hugging"),
        ("contentCompressionResistancePriority", "compressionResistance", "compressionResistance"),
        ("numberOfLines", "text", "text.numberOfLines"),
        ("preferredMaxLayoutWidth", "text", "text.preferredMaxLayoutWidth"),
        ("font", "text", "text.font"),
        ("string", "text", "text.string"),
        ("width", "container", "container.width"),
        ("height", "container", "container.height"),
        ("name", "family", "family"),
        ("fontName", "family", "family"),
        ("pointSize", "size", "size"),
    ]

    /// What ``fieldAliases`` suggests for the unknown member `name` of an object whose
    /// fields are `known`, or `nil`.
    static func alias(of name: String, known: [String]) -> String? {
        fieldAliases.first { $0.name == name && known.contains($0.field) }?.suggestion
    }

    /// Common spellings of enumeration values (lowercased) and the value they mean, for a
    /// refused value's did-you-mean when no value is close: the hint is given only when
    /// the value is one of the field's.
    static let valueAliases: [(alias: String, value: String)] = [
        ("rtl", "rightToLeft"), ("ltr", "leftToRight"), ("right-to-left", "rightToLeft"), ("left-to-right", "leftToRight"),
    ]

    /// The members of an `{horizontal, vertical}` object.
    static let axisMembers: KnownFields = ["horizontal", "vertical"]
    /// The named priorities ``priority(_:path:)`` reads, the documented ones first (a tie
    /// of did-you-mean distances goes to the earlier).
    static let priorityNames = ["required", "high", "low", "fittingSize", "defaultHigh", "defaultLow", "fittingSizeLevel"]
}

/// Where each field of a fixed-field object was found among its members
/// (``DecodingContext/checkMembers(_:known:path:)``): the index of the last member with
/// the field's name, or -1, for up to ``capacity`` fields, held inline (no array per
/// object checked).
struct MemberIndices {
    /// The most fields an object may have: a view's 11 (``SceneDecoder/viewMembers``).
    static let capacity = 12
    private var storage: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)

    /// The value of `field`'s member among `members` (those the indices were found in),
    /// or `nil`: what `JSONValue.subscript` finds, without searching again.
    @inline(__always)
    func value(_ field: Int, in members: [(String, JSONValue)]) -> JSONValue? {
        let index = self[field]
        return index >= 0 ? members[index].1 : nil
    }

    /// The value of `field`'s member in the tape of `members` (found by
    /// ``DecodingContext/checkMembers(_:known:path:)-(JSONMembers,_,_)``, which keeps tape indices), or `nil`.
    @inline(__always)
    func value(_ field: Int, in members: JSONMembers) -> JSONNode? {
        let index = self[field]
        return index >= 0 ? JSONNode(tape: members.tape, index: index) : nil
    }

    /// The index of `field`'s member, or -1.
    subscript(field: Int) -> Int {
        get {
            precondition(field >= 0 && field < Self.capacity)
            return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: field * MemoryLayout<Int>.stride, as: Int.self) }
        }
        set {
            precondition(field >= 0 && field < Self.capacity)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: field * MemoryLayout<Int>.stride, as: Int.self) }
        }
    }
}

/// The spelled-out values of an option, for messages.
protocol CaseIterableNames {
    static var allNames: [String] { get }
}

extension Options.LayoutDirection: CaseIterableNames { static var allNames: [String] { ["leftToRight", "rightToLeft"] } }
extension Options.ConflictPolicy: CaseIterableNames { static var allNames: [String] { ["break", "error"] } }
extension Options.AmbiguityPolicy: CaseIterableNames { static var allNames: [String] { ["warn", "error", "ignore"] } }
extension Options.Coordinates: CaseIterableNames { static var allNames: [String] { ["parent", "root"] } }

/// The fields of a fixed-field object (a scene's, a view's, …) in their order, with
/// their UTF-8 packed back to back, so that a member's name is matched by comparing
/// lengths and then bytes, with no `String` touched per candidate
/// (``DecodingContext/checkMembers(_:known:path:)-(JSONMembers,KnownFields,_)``).
struct KnownFields: ExpressibleByArrayLiteral, Sendable {
    /// The field names, in order (for messages and suggestions).
    let names: [String]
    /// Every name's UTF-8, back to back: name `i`'s are `bytes[starts[i] ..< starts[i + 1]]`.
    private let bytes: [UInt8]
    private let starts: [Int]

    init(_ names: [String]) {
        self.names = names
        var bytes: [UInt8] = []
        var starts = [0]
        for name in names {
            bytes.append(contentsOf: name.utf8)
            starts.append(bytes.count)
        }
        self.bytes = bytes
        self.starts = starts
    }

    init(arrayLiteral names: String...) { self.init(names) }

    /// The index of the first name whose UTF-8 is `utf8`, or `nil`; names of another
    /// length are passed over without comparing bytes.
    /// - Complexity: O(names + `utf8.count`).
    @inline(__always)
    func index(of utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                let count = utf8.count
                var index = 0
                while index + 1 < starts.count {
                    let start = starts[index]
                    if starts[index + 1] - start == count {
                        var offset = 0
                        while offset < count && bytes[start + offset] == utf8[offset] { offset += 1 }
                        if offset == count { return index }
                    }
                    index += 1
                }
                return nil
            }
        }
    }
}
