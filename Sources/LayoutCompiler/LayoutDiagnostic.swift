import LayoutSyntax

/// Which constraint a diagnostic or a constraint ref speaks of (contract, "Conflicts").
public enum ConstraintKey: Sendable, Hashable {
    /// The 0-based index into the scene's `constraints`.
    case scene(Int)
    /// The `index`-th constraint of an included group: `"group:NAME/INDEX"`.
    case group(name: String, index: Int)
    /// An implicit constraint: `container.width`, `VIEW.hugging.horizontal`, …
    case implicit(String)
}

/// A constraint as the user wrote it: the entry, the part, the `id`, the column of
/// the connection or predicate, and the constraint as an equation.
public struct ConstraintRef: Sendable, Hashable {
    /// Which entry (or implicit constraint) it is.
    public var key: ConstraintKey
    /// 0-based index among the constraints that the entry produced.
    public var part: Int?
    public var id: String?
    /// 0-based, in Unicode scalars of the entry's source string.
    public var column: Int?
    /// The constraint written as an equation (`green.leading == red.trailing + 8`), at
    /// most ``maxTextLength`` Unicode scalars: a longer one keeps its start, is cut
    /// there and ends in `…` (the entry and part still say which constraint it is).
    public var text: String

    /// The longest ``text`` kept, in Unicode scalars (``Diagnostic/maxEchoLength``, 256).
    /// Diagnostics quote constraints, and a scene can make thousands of them quote one
    /// equation of thousands of terms (`DiagnosticsTests.longConstraintTextsAreCutInDiagnostics`).
    public static let maxTextLength = Diagnostic.maxEchoLength

    public init(key: ConstraintKey, part: Int? = nil, id: String? = nil, column: Int? = nil, text: String) {
        self.key = key
        self.part = part
        self.id = id
        self.column = column
        self.text = Self.shortened(text)
    }

    /// `text` cut to ``maxTextLength`` scalars, the last one `…`, when longer.
    static func shortened(_ text: String) -> String {
        Diagnostic.echo(text)
    }
}

/// A diagnostic as the service reports it: the parser's or compiler's finding plus
/// where it is (contract, "Responses": fields that do not apply are absent).
public struct LayoutDiagnostic: Sendable, Hashable {
    /// The contract's diagnostic codes ("Responses"), the one list of them: the parsers'
    /// own (``LayoutSyntax/Diagnostic/Code``, mapped by ``init(_:)``) and those of the
    /// request, the scene, the groups and the solve. Held by
    /// `SceneDecoderTests.contractCodesAreSpelledAsTheContract`.
    public enum Code: String, Sendable, CaseIterable {
        /// The body is not JSON (a 400).
        case invalidJSON = "invalid_json"
        /// A member has the wrong type (400) or breaks a scene rule (422).
        case invalidScene = "invalid_scene"
        case vflSyntax = "vfl_syntax", equationSyntax = "equation_syntax", unknownView = "unknown_view",
             unknownMetric = "unknown_metric", unknownAttribute = "unknown_attribute"
        /// An included group is not stored (at that version), or was pruned.
        case unknownGroup = "unknown_group"
        case incompatibleAttributes = "incompatible_attributes", nonlinear = "nonlinear",
             limitExceeded = "limit_exceeded"
        /// Required constraints conflict (contract, "Conflicts").
        case unsatisfiableConstraints = "unsatisfiable_constraints"
        /// A frame field is not determined by the constraints.
        case ambiguousLayout = "ambiguous_layout"
        /// A solved width or height is negative.
        case negativeSize = "negative_size"
        /// A label names a font family that is neither built in nor stored (a 422).
        case unknownFont = "unknown_font"
        /// An uploaded font file is not one TrueType or OpenType face with glyphs (a 422).
        case invalidFont = "invalid_font"
        /// A label's text has characters no face has: measured as `.notdef` (a warning).
        case missingGlyphs = "missing_glyphs"
        /// Labels' sizes still changed after the last text pass (a warning).
        case textLayoutUnstable = "text_layout_unstable"
        /// An Interface Builder document that cannot be read (`POST /import`, a 422 naming
        /// the line).
        case invalidDocument = "invalid_document"

        /// The code's place in ``allCases`` (0 to 18), for ``CodeCounts``.
        var ordinal: Int {
            switch self {
            case .invalidJSON: 0
            case .invalidScene: 1
            case .vflSyntax: 2
            case .equationSyntax: 3
            case .unknownView: 4
            case .unknownMetric: 5
            case .unknownAttribute: 6
            case .unknownGroup: 7
            case .incompatibleAttributes: 8
            case .nonlinear: 9
            case .limitExceeded: 10
            case .unsatisfiableConstraints: 11
            case .ambiguousLayout: 12
            case .negativeSize: 13
            case .unknownFont: 14
            case .invalidFont: 15
            case .missingGlyphs: 16
            case .textLayoutUnstable: 17
            case .invalidDocument: 18
            }
        }

        /// The contract's code of a parser's code (the same spelling).
        public init(_ code: Diagnostic.Code) {
            switch code {
            case .vflSyntax: self = .vflSyntax
            case .equationSyntax: self = .equationSyntax
            case .unknownView: self = .unknownView
            case .unknownMetric: self = .unknownMetric
            case .unknownAttribute: self = .unknownAttribute
            case .incompatibleAttributes: self = .incompatibleAttributes
            case .nonlinear: self = .nonlinear
            case .limitExceeded: self = .limitExceeded
            }
        }
    }

    public var severity: Diagnostic.Severity
    public var code: Code
    public var message: String
    public var constraint: ConstraintKey?
    public var part: Int?
    public var id: String?
    /// 0-based, in Unicode scalars of ``source``.
    public var column: Int?
    /// The constraint string the column points into: at most ``Diagnostic/maxEchoLength``
    /// (256) Unicode scalars, a window of a longer one (``Diagnostic/window(_:column:)``,
    /// applied by the initialiser) with ``column`` counted in the window.
    public var source: String?
    /// When ``source`` is a window: how many Unicode scalars of the whole constraint
    /// string come before it (its `…` standing for the last of them), so the column in
    /// the whole string is `sourceOffset + column`. `nil` when ``source`` is whole.
    public var sourceOffset: Int?
    /// A JSON path (`$.views.title.parent`) for `invalid_json` / `invalid_scene`.
    public var path: String?
    /// The 1-based line of an imported document an `invalid_document` (or a hierarchy's
    /// diagnostic about the document) concerns.
    public var line: Int?
    public var view: String?
    /// A frame field: `x`, `y`, `width` or `height`.
    public var attribute: String?
    public var broken: ConstraintRef?
    public var conflicting: [ConstraintRef]?
    /// Extra lines for people ("did you mean 'width'?" lives in the message; notes add context).
    public var notes: [String]
    /// Set only on the `limit_exceeded` warning that stands for diagnostics left out
    /// (``omission(_:)``): how many. Not written; ``bounded(_:)`` sums them.
    public var omitted: Int?
    /// Set only on the `limit_exceeded` error of a solve that ran out of
    /// ``SceneLimits/maxSolverWork`` (``CompiledScene/workLimitLayout(_:size:reason:)``):
    /// `true`. Not written; callers that treat the work budget apart (the Interface Builder
    /// importer) read it instead of the message.
    public var isWorkBudget = false

    public init(severity: Diagnostic.Severity = .error, code: Code, message: String,
                constraint: ConstraintKey? = nil, part: Int? = nil, id: String? = nil, column: Int? = nil,
                source: String? = nil, path: String? = nil, view: String? = nil, attribute: String? = nil,
                broken: ConstraintRef? = nil, conflicting: [ConstraintRef]? = nil, notes: [String] = []) {
        self.severity = severity
        self.code = code
        self.message = message
        self.constraint = constraint
        self.part = part
        self.id = id
        if let source, let window = Diagnostic.window(source, column: column) {
            self.source = window.text
            self.sourceOffset = window.start
            self.column = column.map { $0 - window.start }
        } else {
            self.column = column
            self.source = source
        }
        self.path = path
        self.view = view
        self.attribute = attribute
        self.broken = broken
        self.conflicting = conflicting
        self.notes = notes
    }

    public var isError: Bool { severity == .error }

    /// The most diagnostics one `diagnostics` list holds (``bounded(_:)``), not counting
    /// the one warning that says how many more there were, so a request's answer does not
    /// grow with the number of conflicts it makes (`DiagnosticsTests.aHundredConflictsAndOneWarning`).
    public static let maxCount = 100

    /// How many diagnostics of each code a full list still keeps (``bounded(_:)``), so that
    /// thousands of one kind (`ambiguous_layout` of a long chain) never hide another kind
    /// (a `negative_size` in the same scene). Producers that stop building diagnostics at
    /// ``maxCount`` still build the first this many of each code (``CodeCounts``). With the
    /// contract's 19 codes, 19 × 5 = 95 places: every code present always fits.
    public static let keptPerCode = 5

    /// The `limit_exceeded` warning that stands for `count` diagnostics left out.
    public static func omission(_ count: Int) -> LayoutDiagnostic {
        var warning = LayoutDiagnostic(
            severity: .warning, code: .limitExceeded,
            message: "\(count) more diagnostic\(count == 1 ? " was" : "s were") found and left out: a list holds at most \(maxCount) (limit maxDiagnostics)")
        warning.omitted = count
        return warning
    }

    /// `list` as answered: at most ``maxCount`` of its diagnostics (`room`, for
    /// ``appending(_:to:)``), in their order, then, when any were left out (here, or by a
    /// producer that stopped early and said so with an ``omission(_:)`` warning in the list),
    /// one ``omission(_:)`` warning with their total. When the list holds more than fit, the
    /// kept ones are chosen, in this order of precedence: the first ``keptPerCode`` of each
    /// code (fewer when `room` cannot hold that many of every code present), then the other
    /// errors in order, then the other warnings in order (docs/scene-format.md, "Answers").
    /// Applying it twice gives the same list. Tested by
    /// `DiagnosticsTests.aHundredConflictsAndOneWarning`, `everyCodeKeepsItsFirstDiagnostics`.
    /// - Complexity: O(|list|).
    public static func bounded(_ list: [LayoutDiagnostic], room: Int = maxCount) -> [LayoutDiagnostic] {
        guard list.count > room || list.contains(where: { $0.omitted != nil }) else { return list }
        var left = 0
        var listed = 0
        var counts = CodeCounts()
        for diagnostic in list {
            if let omitted = diagnostic.omitted {
                left += omitted
            } else {
                listed += 1
                counts.add(diagnostic.code)
            }
        }
        guard listed > room else {
            var kept = list.filter { $0.omitted == nil }
            if left > 0 { kept.append(omission(left)) }
            return kept
        }
        // Chosen by position (never by a set's order): the floors, then errors, then warnings.
        var keep = [Bool](repeating: false, count: list.count)
        var taken = 0
        let floor = max(1, min(keptPerCode, room / max(1, counts.distinct)))
        var perCode = CodeCounts()
        for (index, diagnostic) in list.enumerated() where taken < room && diagnostic.omitted == nil && perCode[diagnostic.code] < floor {
            keep[index] = true
            perCode.add(diagnostic.code)
            taken += 1
        }
        for errors in [true, false] {
            for (index, diagnostic) in list.enumerated() where taken < room && !keep[index] && diagnostic.omitted == nil && diagnostic.isError == errors {
                keep[index] = true
                taken += 1
            }
        }
        var kept: [LayoutDiagnostic] = []
        kept.reserveCapacity(room + 1)
        for (index, diagnostic) in list.enumerated() where keep[index] { kept.append(diagnostic) }
        left += listed - taken
        kept.append(omission(left))
        return kept
    }

    /// `list` bounded (``bounded(_:room:)``) with `decisive` after it, kept whatever the
    /// bound: when the list is full, it is bounded to one place fewer. For an error that
    /// decides the answer (a limit that rejects the layout) found after a full list.
    public static func appending(_ decisive: LayoutDiagnostic, to list: [LayoutDiagnostic]) -> [LayoutDiagnostic] {
        var kept = bounded(list, room: maxCount - 1)
        let left = kept.last?.omitted ?? 0
        if left > 0 { kept.removeLast() }
        kept.append(decisive)
        if left > 0 { kept.append(omission(left)) }
        return kept
    }

    /// How many diagnostics `list` stands for: its own, omission warnings counted as
    /// the diagnostics they replace.
    public static func total(_ list: [LayoutDiagnostic]) -> Int {
        list.reduce(0) { $0 + ($1.omitted ?? 1) }
    }
}

extension ConstraintKey {
    /// The contract's JSON spelling: an index, `"group:NAME/INDEX"`, or the implicit name.
    public var jsonValue: JSONValue {
        switch self {
        case .scene(let index): return .number(Double(index))
        case .group(let name, let index): return .string("group:\(name)/\(index)")
        case .implicit(let name): return .string(name)
        }
    }

    /// For people: `constraint 2`, `group:cards/0`, `container.width`.
    public var displayName: String {
        switch self {
        case .scene(let index): return "constraint \(index)"
        case .group(let name, let index): return "group:\(name)/\(index)"
        case .implicit(let name): return name
        }
    }

    /// The key opening a sentence: `Constraint 3`, `The constraint group:cards/0` (a group
    /// reference keeps its spelling; `DiagnosticsTests.productBeyondTheLimitIsAtTheStart`).
    public var sentenceStart: String {
        if case .scene(let index) = self { return "Constraint \(index)" }
        return "The constraint \(displayName)"
    }
}

extension JSONWriter {
    /// Writes a ``ConstraintKey`` in the contract's spelling.
    mutating func constraintKey(_ key: ConstraintKey) {
        switch key {
        case .scene(let index): integer(index)
        case .group(let name, let index): string("group:\(name)/\(index)")
        case .implicit(let name): string(name)
        }
    }

    /// Writes a constraint ref object; absent fields are left out.
    public mutating func constraintRef(_ ref: ConstraintRef) {
        beginObject()
        key("constraint"); constraintKey(ref.key)
        if let part = ref.part { key("part"); integer(part) }
        if let id = ref.id { key("id"); string(id) }
        if let column = ref.column { key("column"); integer(column) }
        key("text"); string(ref.text)
        endObject()
    }

    /// Writes a diagnostic object in the contract's shape; absent fields are left out.
    public mutating func diagnostic(_ diagnostic: LayoutDiagnostic) {
        beginObject()
        key("severity"); string(diagnostic.severity.rawValue)
        key("code"); string(diagnostic.code.rawValue)
        key("message"); string(diagnostic.message)
        if let constraint = diagnostic.constraint { key("constraint"); constraintKey(constraint) }
        if let part = diagnostic.part { key("part"); integer(part) }
        if let id = diagnostic.id { key("id"); string(id) }
        if let column = diagnostic.column { key("column"); integer(column) }
        if let source = diagnostic.source { key("source"); string(source) }
        if let sourceOffset = diagnostic.sourceOffset { key("sourceOffset"); integer(sourceOffset) }
        if let path = diagnostic.path { key("path"); string(path) }
        if let line = diagnostic.line { key("line"); integer(line) }
        if let view = diagnostic.view { key("view"); string(view) }
        if let attribute = diagnostic.attribute { key("attribute"); string(attribute) }
        if let broken = diagnostic.broken { key("broken"); constraintRef(broken) }
        if let conflicting = diagnostic.conflicting {
            key("conflicting")
            beginArray()
            for ref in conflicting { constraintRef(ref) }
            endArray()
        }
        if !diagnostic.notes.isEmpty {
            key("notes")
            beginArray()
            for note in diagnostic.notes { string(note) }
            endArray()
        }
        endObject()
    }

    /// Writes a JSON array of diagnostics, bounded: at most ``LayoutDiagnostic/maxCount``
    /// and one warning for the rest (``LayoutDiagnostic/bounded(_:)``).
    public mutating func diagnostics(_ list: [LayoutDiagnostic]) {
        beginArray()
        for item in LayoutDiagnostic.bounded(list) { diagnostic(item) }
        endArray()
    }
}

extension LayoutDiagnostic {
    /// A human-readable rendering for terminals: severity, code, where, message, the
    /// source line with a caret under the column (for a window, a line giving the column
    /// in the whole string), and the conflicting constraints one per line.
    public func rendered() -> String {
        var lines: [String] = []
        var head = "\(severity.rawValue)[\(code.rawValue)]"
        if let constraint { head += " \(constraint.displayName)" }
        if let part { head += " part \(part)" }
        if let id { head += " (id \(id))" }
        if let path { head += " at \(path)" }
        if let view { head += " view \(view)" + (attribute.map { ".\($0)" } ?? "") }
        lines.append("\(head): \(message)")
        if let source {
            lines.append("    \(source)")
            if let column {
                // Tabs before the column stay tabs, so the caret lines up in a terminal.
                let padding = source.unicodeScalars.prefix(max(0, column)).map { $0 == "\t" ? "\t" : " " }.joined()
                lines.append("    " + padding + "^")
            }
            if let sourceOffset, let column {
                lines.append("    (a window of a longer string: the caret is at its column \(sourceOffset + column))")
            }
        }
        if let broken {
            lines.append("  broken: \(broken.text)  [\(broken.key.displayName)\(broken.part.map { " part \($0)" } ?? "")]")
        }
        if let conflicting {
            lines.append("  conflicting (drop any one to resolve):")
            for ref in conflicting {
                lines.append("    - \(ref.text)  [\(ref.key.displayName)\(ref.part.map { " part \($0)" } ?? "")\(ref.id.map { ", id \($0)" } ?? "")]")
            }
        }
        for note in notes { lines.append("  note: \(note)") }
        return lines.joined(separator: "\n")
    }
}

/// Saturating counts (0 to 15) of diagnostics by ``LayoutDiagnostic/Code``, held inline
/// (no allocation): what ``LayoutDiagnostic/bounded(_:room:)`` and the producers that stop
/// building diagnostics at ``LayoutDiagnostic/maxCount`` consult to keep the first
/// ``LayoutDiagnostic/keptPerCode`` of each code.
public struct CodeCounts: Sendable {
    /// Four bits per code, by ``LayoutDiagnostic/Code/ordinal``: 16 codes a word.
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    public init() {}

    /// The counts of the diagnostics of `list` (omission warnings left out).
    public init(_ list: [LayoutDiagnostic]) {
        for diagnostic in list where diagnostic.omitted == nil { add(diagnostic.code) }
    }

    /// How many of `code` were added, at most 15.
    public subscript(code: LayoutDiagnostic.Code) -> Int {
        let ordinal = code.ordinal
        let word = ordinal < 16 ? low : high
        return Int((word >> UInt64(4 * (ordinal % 16))) & 0xF)
    }

    /// Counts one diagnostic of `code` (no further past 15).
    public mutating func add(_ code: LayoutDiagnostic.Code) {
        guard self[code] < 15 else { return }
        let ordinal = code.ordinal
        let one = UInt64(1) << UInt64(4 * (ordinal % 16))
        if ordinal < 16 { low += one } else { high += one }
    }

    /// How many codes were counted at least once.
    public var distinct: Int {
        LayoutDiagnostic.Code.allCases.reduce(0) { $0 + (self[$1] > 0 ? 1 : 0) }
    }

    /// Whether a producer whose list is full still builds a diagnostic of `code`: fewer
    /// than ``LayoutDiagnostic/keptPerCode`` of it are listed.
    public func admits(_ code: LayoutDiagnostic.Code) -> Bool { self[code] < LayoutDiagnostic.keptPerCode }
}
