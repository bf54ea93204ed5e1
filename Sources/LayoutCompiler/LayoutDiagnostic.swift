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
    /// most ``maxTextLength`` Unicode scalars: a longer one is cut there and ends in `…`
    /// (the entry and part still say which constraint it is).
    public var text: String

    /// The longest ``text`` kept, in Unicode scalars. Diagnostics quote constraints, and
    /// a scene can make thousands of them quote one equation of thousands of terms: in
    /// full, a 150 KB request was answered with 1.3 GB.
    public static let maxTextLength = 200

    public init(key: ConstraintKey, part: Int? = nil, id: String? = nil, column: Int? = nil, text: String) {
        self.key = key
        self.part = part
        self.id = id
        self.column = column
        self.text = Self.shortened(text)
    }

    /// `text` cut to ``maxTextLength`` scalars, the last one `…`, when longer.
    static func shortened(_ text: String) -> String {
        guard text.utf8.count > maxTextLength, text.unicodeScalars.count > maxTextLength else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.prefix(maxTextLength - 1))
        scalars.append("…")
        return String(scalars)
    }
}

/// A diagnostic as the service reports it: the parser's or compiler's finding plus
/// where it is (contract, "Responses": fields that do not apply are absent).
public struct LayoutDiagnostic: Sendable, Hashable {
    public var severity: Diagnostic.Severity
    public var code: Diagnostic.Code
    public var message: String
    public var constraint: ConstraintKey?
    public var part: Int?
    public var id: String?
    /// 0-based, in Unicode scalars of ``source``.
    public var column: Int?
    /// The constraint string the column points into.
    public var source: String?
    /// A JSON path (`$.views.title.parent`) for `invalid_json` / `invalid_scene`.
    public var path: String?
    public var view: String?
    /// A frame field: `x`, `y`, `width` or `height`.
    public var attribute: String?
    public var broken: ConstraintRef?
    public var conflicting: [ConstraintRef]?
    /// Extra lines for people ("did you mean 'width'?" lives in the message; notes add context).
    public var notes: [String]

    public init(severity: Diagnostic.Severity = .error, code: Diagnostic.Code, message: String,
                constraint: ConstraintKey? = nil, part: Int? = nil, id: String? = nil, column: Int? = nil,
                source: String? = nil, path: String? = nil, view: String? = nil, attribute: String? = nil,
                broken: ConstraintRef? = nil, conflicting: [ConstraintRef]? = nil, notes: [String] = []) {
        self.severity = severity
        self.code = code
        self.message = message
        self.constraint = constraint
        self.part = part
        self.id = id
        self.column = column
        self.source = source
        self.path = path
        self.view = view
        self.attribute = attribute
        self.broken = broken
        self.conflicting = conflicting
        self.notes = notes
    }

    public var isError: Bool { severity == .error }
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
        if let path = diagnostic.path { key("path"); string(path) }
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

    /// Writes a JSON array of diagnostics.
    public mutating func diagnostics(_ list: [LayoutDiagnostic]) {
        beginArray()
        for item in list { diagnostic(item) }
        endArray()
    }
}

extension LayoutDiagnostic {
    /// A human-readable rendering for terminals: severity, code, where, message, the
    /// source line with a caret under the column, and the conflicting constraints one per line.
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
