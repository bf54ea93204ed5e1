import Cassowary
import LayoutSyntax

/// One solver constraint with the user's words for it.
public struct CompiledConstraint: Sendable {
    public var constraint: Constraint
    public var ref: ConstraintRef
    /// The source string of the entry, for diagnostics (`nil` for implicit constraints).
    public var source: String?
}

/// A scene parsed and translated into solver constraints, ready to be solved at any
/// container size (contract, "Conflicts": the order of addition is fixed here).
///
/// Compiling is the expensive, size-independent half of a solve: JSON is decoded,
/// every constraint string parsed, names resolved, attributes translated into
/// expressions over the view variables. ``solve(size:)`` does the rest.
public struct CompiledScene: Sendable {
    public let scene: Scene
    /// The limits it was compiled under (``SceneLimits/maxSolverWork`` applies when solving).
    public let limits: SceneLimits
    public let hierarchy: ViewHierarchy
    /// The intrinsic-size constraints (views sorted by name), then the scene's
    /// constraints in order, then the groups'. The container's size comes first at
    /// solve time.
    public let constraints: [CompiledConstraint]
    /// Size-independent diagnostics: syntax errors, unknown names, incompatible attributes.
    public let diagnostics: [LayoutDiagnostic]
    /// Which view/axis pairs any constraint mentions, for ambiguity hints.
    let mentioned: Set<Int>

    /// Whether a compile diagnostic is an error (the scene cannot be laid out as written).
    public var hasErrors: Bool { diagnostics.contains(where: \.isError) }
}

/// Compiles a ``Scene`` (and the groups it includes) into a ``CompiledScene``.
///
/// Coordinate spaces follow UIKit (contract, "Coordinate spaces"): each constraint is
/// evaluated in the space of the nearest common ancestor of the views it relates, a
/// parent's own attributes seen from its children being in its bounds; a constraint on
/// one view alone is measured in that view's parent. Under `rightToLeft`, a constraint
/// that uses leading/trailing is mirrored inside that space (`x ↦ width − x`), so a scene
/// written with leading/trailing lays out as the exact mirror of its left-to-right layout.
public struct SceneCompiler: Sendable {
    public let scene: Scene
    public let groups: [ResolvedGroup]
    public let limits: SceneLimits

    public init(scene: Scene, groups: [ResolvedGroup] = [], limits: SceneLimits = SceneLimits()) {
        self.scene = scene
        self.groups = groups
        self.limits = limits
    }

    /// Parses and translates every constraint.
    ///
    /// - Complexity: O(total length of the constraint strings + views × depth).
    public func compile() -> CompiledScene {
        let hierarchy = ViewHierarchy(views: scene.views)
        var state = CompileState(scene: scene, hierarchy: hierarchy)
        state.addIntrinsicSizeConstraints()
        let sceneOptions = ParseOptions(metrics: scene.metrics, siblingSpacing: scene.options.siblingSpacing,
                                        superviewSpacing: scene.options.superviewSpacing)
        for (index, entry) in scene.constraints.enumerated() {
            state.add(entry, key: .scene(index), parseOptions: sceneOptions)
        }
        for group in groups {
            var metrics = scene.metrics
            for (name, value) in group.metrics { metrics[name] = value }
            let groupOptions = ParseOptions(metrics: metrics, siblingSpacing: scene.options.siblingSpacing,
                                            superviewSpacing: scene.options.superviewSpacing)
            for (index, entry) in group.constraints.enumerated() {
                state.add(entry, key: .group(name: group.name, index: index), parseOptions: groupOptions)
            }
        }
        return CompiledScene(scene: scene, limits: limits, hierarchy: hierarchy, constraints: state.constraints,
                             diagnostics: state.diagnostics, mentioned: state.mentioned)
    }
}

/// Maps an Apple priority (1...1000) to a solver strength: 1000 is required; every
/// other value is its own strength level, and levels compare strictly (a higher one
/// always wins over any number of lower ones), as Apple documents and as the symbolic
/// weights of the Cassowary paper give. This is the only such mapping in layoutd.
public func strength(forPriority priority: Double) -> Strength {
    priority >= 1000 ? .required : Strength(priority)
}

private struct CompileState {
    let scene: Scene
    let hierarchy: ViewHierarchy
    var constraints: [CompiledConstraint] = []
    var diagnostics: [LayoutDiagnostic] = []
    /// `4 × view + axis` (0 horizontal, 1 vertical) for views some constraint mentions.
    var mentioned: Set<Int> = []
    let isRightToLeft: Bool

    init(scene: Scene, hierarchy: ViewHierarchy) {
        self.scene = scene
        self.hierarchy = hierarchy
        self.isRightToLeft = scene.options.layoutDirection == .rightToLeft
        constraints.reserveCapacity(scene.constraints.count * 3 + scene.views.count * 2)
    }

    // MARK: Intrinsic content size

    mutating func addIntrinsicSizeConstraints() {
        for (offset, view) in scene.views.enumerated() {
            let index = offset + 1
            if let width = view.intrinsicWidth {
                addIntrinsic(view: view.name, variable: hierarchy.widthVariable(index), attribute: "width", size: width,
                             compressionResistance: view.compressionResistance.horizontal, hugging: view.hugging.horizontal,
                             axisName: "horizontal")
                mentioned.insert(4 * index)
            }
            if let height = view.intrinsicHeight {
                addIntrinsic(view: view.name, variable: hierarchy.heightVariable(index), attribute: "height", size: height,
                             compressionResistance: view.compressionResistance.vertical, hugging: view.hugging.vertical,
                             axisName: "vertical")
                mentioned.insert(4 * index + 1)
            }
        }
    }

    /// `size >= intrinsic` at the compression-resistance priority and `size <= intrinsic`
    /// at the hugging priority (UIKit's `NSContentSizeLayoutConstraint` pair).
    mutating func addIntrinsic(view: String, variable: Variable, attribute: String, size: Double,
                               compressionResistance: Double, hugging: Double, axisName: String) {
        let expression = Expression(terms: [Term(variable, 1)], constant: -size)
        let sizeText = JSONWriter.format(size)
        constraints.append(CompiledConstraint(
            constraint: Constraint(expression, .greaterThanOrEqual, strength: strength(forPriority: compressionResistance)),
            ref: ConstraintRef(key: .implicit("\(view).compressionResistance.\(axisName)"),
                               text: "\(view).\(attribute) >= \(sizeText)" + priorityText(compressionResistance)),
            source: nil))
        constraints.append(CompiledConstraint(
            constraint: Constraint(expression, .lessThanOrEqual, strength: strength(forPriority: hugging)),
            ref: ConstraintRef(key: .implicit("\(view).hugging.\(axisName)"),
                               text: "\(view).\(attribute) <= \(sizeText)" + priorityText(hugging)),
            source: nil))
    }

    // MARK: Entries

    mutating func add(_ entry: ConstraintEntry, key: ConstraintKey, parseOptions: ParseOptions) {
        let result: ParseResult
        let isVisualFormat: Bool
        switch entry.kind {
        case .visualFormat(let options):
            result = VisualFormatParser(options: parseOptions).parse(entry.source, formatOptions: options)
            isVisualFormat = true
        case .equation:
            result = EquationParser(options: parseOptions).parse(entry.source)
            isVisualFormat = false
        }
        for diagnostic in result.diagnostics {
            diagnostics.append(LayoutDiagnostic(
                severity: diagnostic.severity, code: diagnostic.code, message: diagnostic.message,
                constraint: key, id: entry.id, column: diagnostic.column(in: entry.source), source: entry.source,
                notes: diagnostic.notes))
        }
        if result.diagnostics.contains(where: { $0.severity == .error }) { return }

        // Resolve the names of every part first: one unknown view is one diagnostic.
        var resolved: [[Int]] = []
        var failed = false
        var reportedUnknown: Set<String> = []
        for parsed in result.constraints {
            var indices: [Int] = []
            for term in parsed.lhs.terms + parsed.rhs.terms {
                switch term.item {
                case .view(let name):
                    if let index = hierarchy.index(of: name), index != 0 {
                        indices.append(index)
                    } else {
                        failed = true
                        if reportedUnknown.insert(name).inserted {
                            diagnostics.append(unknownView(name, span: term.span, entry: entry, key: key))
                        }
                    }
                case .container:
                    indices.append(0)
                case .superview:
                    indices.append(-1)  // resolved below, once the string's views are known
                }
            }
            resolved.append(indices)
        }
        if failed { return }

        // VFL: `|` is the parent of the views in the string, which must share it.
        var vflSuperview = 0
        if isVisualFormat {
            var parents: [Int] = []
            for index in resolved.joined() where index > 0 && !parents.contains(hierarchy.parents[index]) {
                parents.append(hierarchy.parents[index])
            }
            if parents.count > 1 {
                let names = Set(resolved.joined().filter { $0 > 0 }).sorted().map { hierarchy.names[$0] }
                diagnostics.append(LayoutDiagnostic(
                    code: .invalidScene,
                    message: "Views joined in one VFL string must share a parent: \(names.joined(separator: ", ")) have different parents",
                    constraint: key, id: entry.id, source: entry.source))
                return
            }
            vflSuperview = parents.first ?? 0
        }

        for (part, parsed) in result.constraints.enumerated() {
            if parsed.priority != nil && entry.priority != nil {
                diagnostics.append(LayoutDiagnostic(
                    code: .invalidScene,
                    message: "The constraint gives a priority both in its \"priority\" field and in its text; give one",
                    constraint: key, part: part, id: entry.id, column: column(of: parsed.span.lowerBound, in: entry.source),
                    source: entry.source))
                continue
            }
            let priority = parsed.priority ?? entry.priority ?? 1000
            let items = resolved[part].map { $0 < 0 ? vflSuperview : $0 }
            let expression = translate(parsed, items: items)
            guard isWithinRange(expression) else {
                diagnostics.append(LayoutDiagnostic(
                    code: .limitExceeded,
                    message: "The constraint has a number beyond ±\(JSONWriter.format(maximumMagnitude)) (limit maxMagnitude)",
                    constraint: key, part: part, id: entry.id, column: column(of: parsed.span.lowerBound, in: entry.source),
                    source: entry.source))
                continue
            }
            let relation: RelationalOperator
            switch parsed.relation {
            case .equal: relation = .equal
            case .lessThanOrEqual: relation = .lessThanOrEqual
            case .greaterThanOrEqual: relation = .greaterThanOrEqual
            }
            var text = parsed.text
            if parsed.priority == nil, let objectPriority = entry.priority, objectPriority < 1000 {
                text += priorityText(objectPriority)
            }
            constraints.append(CompiledConstraint(
                constraint: Constraint(expression, relation, strength: strength(forPriority: priority)),
                ref: ConstraintRef(key: key, part: part, id: entry.id,
                                   column: column(of: parsed.span.lowerBound, in: entry.source), text: text),
                source: entry.source))
        }
    }

    func unknownView(_ name: String, span: Range<Int>, entry: ConstraintEntry, key: ConstraintKey) -> LayoutDiagnostic {
        let known = hierarchy.names
        let suggestion = closestName(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
        return LayoutDiagnostic(
            code: .unknownView, message: "Unknown view '\(name)'\(suggestion)",
            constraint: key, id: entry.id, column: column(of: span.lowerBound, in: entry.source), source: entry.source)
    }

    // MARK: Translation

    /// `Σ lhs − Σ rhs` over the view variables, evaluated in the constraint's coordinate space.
    mutating func translate(_ parsed: ParsedConstraint, items: [Int]) -> Expression {
        let space = coordinateSpace(of: items)
        let usesDirection = (parsed.lhs.terms + parsed.rhs.terms).contains { $0.attribute.isDirectional }
        let mirrored = isRightToLeft && usesDirection
        var expression = Expression(constant: parsed.lhs.constant - parsed.rhs.constant)
        var itemIndex = 0
        for term in parsed.lhs.terms {
            expression = expression + attributeValue(term.attribute, of: items[itemIndex], in: space, mirrored: mirrored) * term.coefficient
            mentioned.insert(4 * items[itemIndex] + (term.attribute.axis == .horizontal ? 0 : 1))
            itemIndex += 1
        }
        for term in parsed.rhs.terms {
            expression = expression - attributeValue(term.attribute, of: items[itemIndex], in: space, mirrored: mirrored) * term.coefficient
            mentioned.insert(4 * items[itemIndex] + (term.attribute.axis == .horizontal ? 0 : 1))
            itemIndex += 1
        }
        return expression
    }

    /// The view whose coordinate space the constraint is evaluated in: the nearest common
    /// ancestor-or-self of its views, or the parent when it relates one view to itself or
    /// to constants (contract: "a position compared with a constant alone is measured in
    /// the view's parent").
    func coordinateSpace(of items: [Int]) -> Int {
        guard var space = items.first else { return 0 }
        var allSame = true
        for item in items.dropFirst() where item != space {
            allSame = false
            space = hierarchy.nearestCommonAncestorOrSelf(space, item)
        }
        if allSame {
            return space == 0 ? 0 : hierarchy.parents[space]
        }
        return space
    }

    /// The attribute of `view` in the coordinate space of `space` (an ancestor-or-self of `view`).
    func attributeValue(_ attribute: Attribute, of view: Int, in space: Int, mirrored: Bool) -> Expression {
        let originX = view == space ? Expression() : hierarchy.absoluteX(view) - hierarchy.absoluteX(space)
        let originY = view == space ? Expression() : hierarchy.absoluteY(view) - hierarchy.absoluteY(space)
        let width = Expression(terms: [Term(hierarchy.widthVariable(view), 1)])
        let height = Expression(terms: [Term(hierarchy.heightVariable(view), 1)])
        let spaceWidth = Expression(terms: [Term(hierarchy.widthVariable(space), 1)])
        let margins = view == 0 ? scene.container.margins : scene.views[view - 1].margins
        let spec: ViewSpec? = view == 0 ? nil : scene.views[view - 1]

        let left = originX
        let right = originX + width
        let leftMargin = originX + Expression(constant: margins.left)
        let rightMargin = right - Expression(constant: margins.right)
        func flip(_ value: Expression) -> Expression { mirrored ? spaceWidth - value : value }

        switch attribute {
        case .left: return left
        case .right: return right
        case .width: return width
        case .height: return height
        case .centerX: return flip(originX + width * 0.5)
        case .centerXWithinMargins: return flip((leftMargin + rightMargin) * 0.5)
        case .leading: return isRightToLeft ? spaceWidth - right : left
        case .trailing: return isRightToLeft ? spaceWidth - left : right
        case .leadingMargin: return isRightToLeft ? spaceWidth - rightMargin : leftMargin
        case .trailingMargin: return isRightToLeft ? spaceWidth - leftMargin : rightMargin
        case .leftMargin: return leftMargin
        case .rightMargin: return rightMargin
        case .top: return originY
        case .bottom: return originY + height
        case .centerY: return originY + height * 0.5
        case .topMargin: return originY + Expression(constant: margins.top)
        case .bottomMargin: return originY + height - Expression(constant: margins.bottom)
        case .centerYWithinMargins:
            return (originY + Expression(constant: margins.top) + originY + height - Expression(constant: margins.bottom)) * 0.5
        case .lastBaseline:
            if let offset = spec?.baseline { return originY + Expression(constant: offset) }
            return originY + height
        case .firstBaseline:
            if let offset = spec?.firstBaseline ?? spec?.baseline { return originY + Expression(constant: offset) }
            return originY + height
        }
    }
}

extension Attribute {
    /// Leading/trailing and their margins: the attributes that follow the layout direction.
    var isDirectional: Bool {
        switch self {
        case .leading, .trailing, .leadingMargin, .trailingMargin: return true
        default: return false
        }
    }
}

/// Whether every number of the expression is finite and within ±``maximumMagnitude``.
private func isWithinRange(_ expression: Expression) -> Bool {
    abs(expression.constant) <= maximumMagnitude && expression.terms.allSatisfy { abs($0.coefficient) <= maximumMagnitude }
}

/// ` @750` for optional priorities, nothing for required.
func priorityText(_ priority: Double) -> String {
    priority >= 1000 ? "" : " @\(JSONWriter.format(priority))"
}

/// The contract's column: 0-based, in Unicode scalars, of a UTF-8 offset into `source`.
func column(of utf8Offset: Int, in source: String) -> Int {
    var column = 0
    var offset = 0
    for scalar in source.unicodeScalars {
        if offset >= utf8Offset { break }
        offset += UTF8.width(scalar)
        column += 1
    }
    return column
}
