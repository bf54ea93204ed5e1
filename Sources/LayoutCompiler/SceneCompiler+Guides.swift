import Cassowary
import LayoutSyntax

/// Layout guides in the compiler (contract, "Layout guides and the safe area"): a guide
/// is an item of the ``ViewHierarchy`` with a view's variables and its owner as parent,
/// so coordinate spaces treat it as a child of its owner. It takes the position and
/// size attributes only, and equations only.
extension CompileState {
    /// Whether the term's guide `index` may be used here; if not, reports why: in VFL an
    /// `unknown_view` saying it is a guide (once per name, through `reported`), in an
    /// equation an `unknown_attribute` for a margin or baseline attribute. On success it
    /// records a use of the guide's width or height, or of `safeArea` (``prependSafeAreaDefinitions()``).
    mutating func acceptGuide(_ index: Int, term: AttributeTerm, isVisualFormat: Bool, entry: ConstraintEntry,
                              key: ConstraintKey, reported: inout Set<String>) -> Bool {
        let name = hierarchy.names[index]
        if isVisualFormat {
            if reported.insert(name).inserted { reportGuideInVisualFormat(name, span: term.span, entry: entry, key: key) }
            return false
        }
        guard term.attribute.isGuideAttribute else {
            let written = "\(name).\(attributeName(after: term.span, in: entry.source) ?? term.attribute.rawValue)"
            let missing = term.attribute == .firstBaseline || term.attribute == .lastBaseline ? "baseline" : "margins"
            report(.unknownAttribute, LayoutDiagnostic(
                code: .unknownAttribute,
                message: "Layout guide '\(name)' has no \(missing) ('\(written)'): a guide is an empty rectangle, with no text and no margins; use its edges, centre or size",
                constraint: key, id: entry.id, column: column(of: term.span.lowerBound, in: entry.source), source: entry.source,
                notes: ["a guide's attributes: left right top bottom leading trailing width height centerX centerY (and edges, size, center)"]))
            return false
        }
        if term.attribute == .width { guideSizesNamed[index - hierarchy.count] |= 1 }
        if term.attribute == .height { guideSizesNamed[index - hierarchy.count] |= 2 }
        if index == hierarchy.safeArea { usesSafeArea = true }
        return true
    }

    /// The attribute as the constraint spells it (`baseline`, `margins`): the letters after
    /// the `.` that follows the item name at `span` (UTF-8 offsets into `source`); nil when
    /// there are none.
    func attributeName(after span: Range<Int>, in source: String) -> String? {
        let bytes = Array(source.utf8)
        guard span.upperBound < bytes.count, bytes[span.upperBound] == UInt8(ascii: ".") else { return nil }
        let letters = bytes[(span.upperBound + 1)...].prefix { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
        return letters.isEmpty ? nil : String(decoding: letters, as: UTF8.self)
    }

    /// ``layoutGuideInVisualFormat(_:span:)`` for this entry.
    mutating func reportGuideInVisualFormat(_ name: String, span: Range<Int>, entry: ConstraintEntry, key: ConstraintKey) {
        let diagnostic = layoutGuideInVisualFormat(name, span: span)
        report(.unknownView, LayoutDiagnostic(
            code: .unknownView, message: diagnostic.message, constraint: key, id: entry.id,
            column: column(of: span.lowerBound, in: entry.source), source: entry.source, notes: diagnostic.notes))
    }

    /// The `safeArea` guide's frame, the container's bounds inset by `container.safeArea`
    /// (UIKit's `safeAreaLayoutGuide`): four required constraints on the container's size,
    /// so it follows fitted sizes and `sizes`. Keyed `container.safeArea.top`, `.left`,
    /// `.width`, `.height`; put first, right after the container's size (they are the
    /// container's), when a constraint uses `safeArea`. Call once, after every entry is added.
    /// - Complexity: O(constraints + mentions) (the indices after them move by 4).
    mutating func prependSafeAreaDefinitions() {
        let compiledEntries = constraints
        let entryMentions = mentions
        constraints.removeAll(keepingCapacity: true)
        mentions.removeAll(keepingCapacity: true)
        let guide = hierarchy.safeArea
        let insets = scene.container.safeArea
        func plus(_ value: Double) -> String {
            value == 0 ? "" : value < 0 ? " - \(JSONWriter.format(-value))" : " + \(JSONWriter.format(value))"
        }
        // Each `variable·1 + container·c − constant == 0`, in the container's space.
        let definitions: [(Variable, Variable?, Double, String, String)] = [
            (hierarchy.yVariable(guide), nil, insets.top, "top", "safeArea.top == superview.top" + plus(insets.top)),
            (hierarchy.xVariable(guide), nil, insets.left, "left", "safeArea.left == superview.left" + plus(insets.left)),
            (hierarchy.widthVariable(guide), hierarchy.widthVariable(0), -(insets.left + insets.right), "width",
             "safeArea.width == superview.width" + plus(-(insets.left + insets.right))),
            (hierarchy.heightVariable(guide), hierarchy.heightVariable(0), -(insets.top + insets.bottom), "height",
             "safeArea.height == superview.height" + plus(-(insets.top + insets.bottom))),
        ]
        for (variable, container, constant, name, text) in definitions {
            var terms = [Term(variable, 1)]
            if let container { terms.append(Term(container, -1)) }
            let isHorizontal = name == "left" || name == "width"
            mentions.append((FrameField.origin(of: guide, horizontal: isHorizontal).key, constraints.count))
            constraints.append(CompiledConstraint(
                constraint: Constraint(Expression(terms: terms, constant: -constant), .equal, strength: .required),
                key: .implicit("container.safeArea." + name), words: .literal(text)))
        }
        let shift = constraints.count
        constraints.append(contentsOf: compiledEntries)
        for mention in entryMentions { mentions.append((mention.key, mention.constraint + shift)) }
    }
}

extension Attribute {
    /// The attributes a layout guide has (UILayoutGuide's anchors): the edges, centres
    /// and sizes, no margins and no baselines.
    var isGuideAttribute: Bool {
        switch self {
        case .left, .right, .top, .bottom, .leading, .trailing, .width, .height, .centerX, .centerY: return true
        default: return false
        }
    }
}
