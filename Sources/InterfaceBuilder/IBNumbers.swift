/// The numeric attributes the importer reads, checked once before any is used: each must be
/// a finite decimal number (an integer for `numberOfLines`), or the document is refused
/// (contract "Interface Builder documents": 422 `invalid_document` naming the line), so no
/// `NaN`, `1e309` or `abc` ever becomes a 0 or a default silently.
enum IBNumbers {
    /// Element name → the attributes of it read as numbers. Constraints' `constant`,
    /// `priority` and `multiplier` are checked where they are read
    /// (``SceneBuilder/number(_:default:what:line:)``, ``SceneBuilder/multiplier(_:line:)``).
    static let geometry: [String: [String]] = [
        "rect": ["x", "y", "width", "height"],
        "size": ["width", "height"],
        "point": ["x", "y"],
        "edgeInsets": ["top", "left", "bottom", "right"],
        "directionalEdgeInsets": ["top", "leading", "bottom", "trailing"],
        "fontDescription": ["pointSize"],
    ]

    /// Attributes of any element read as numbers (views, stack views, labels).
    static let viewAttributes = [
        "spacing", "preferredMaxLayoutWidth",
        "horizontalHuggingPriority", "verticalHuggingPriority",
        "horizontalCompressionResistancePriority", "verticalCompressionResistancePriority",
    ]

    /// Checks every numeric attribute of `element` and its descendants.
    ///
    /// - Throws: ``IBImportError`` "Malformed <element> attribute "text"" with the element's line.
    /// - Complexity: O(elements × attributes); recursion depth is bounded by ``XMLLimits/maxDepth``.
    static func validate(_ element: XMLElement) throws(IBImportError) {
        for name in geometry[element.name] ?? [] {
            _ = try SceneBuilder.number(element[name], default: 0, what: "<\(element.name)> \(name)", line: element.line)
        }
        for name in viewAttributes {
            _ = try SceneBuilder.number(element[name], default: 0, what: "<\(element.name)> \(name)", line: element.line)
        }
        for name in ["placeholderIntrinsicWidth", "placeholderIntrinsicHeight"] where element[name] != "infinite" {
            _ = try SceneBuilder.number(element[name], default: 0, what: "<\(element.name)> \(name)", line: element.line)
        }
        if let lines = element["numberOfLines"], Int(lines) == nil {
            throw IBImportError(message: "Malformed <\(element.name)> numberOfLines \"\(lines)\"", line: element.line)
        }
        for child in element.children { try validate(child) }
    }
}
