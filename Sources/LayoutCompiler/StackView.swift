import LayoutSyntax

/// A view's `stack` member: the view is a stack view, as UIKit's `UIStackView`
/// (contract, "Stack views"). ``StackCompiler`` turns it into UIKit's constraints.
public struct StackSpec: Sendable, Hashable {
    /// `axis` (UIKit's `NSLayoutConstraint.Axis`).
    public enum Axis: String, Sendable, CaseIterable { case horizontal, vertical }
    /// `distribution` (UIKit's `UIStackView.Distribution`).
    public enum Distribution: String, Sendable, CaseIterable {
        case fill, fillEqually, fillProportionally, equalSpacing, equalCentering
    }
    /// `alignment` (UIKit's `UIStackView.Alignment`); `top` is `leading` and `bottom` is
    /// `trailing`, as in UIKit (``normalized``).
    public enum Alignment: String, Sendable, CaseIterable {
        case fill, leading, top, center, trailing, bottom, firstBaseline, lastBaseline

        /// `top` as `leading`, `bottom` as `trailing` (UIKit gives them the same raw values).
        public var normalized: Alignment {
            switch self {
            case .top: return .leading
            case .bottom: return .trailing
            default: return self
            }
        }

        /// Whether it aligns baselines (horizontal stacks only).
        public var isBaseline: Bool { self == .firstBaseline || self == .lastBaseline }
    }

    public var axis: Axis = .horizontal
    public var distribution: Distribution = .fill
    public var alignment: Alignment = .fill
    /// Points between adjacent arranged views (default 0; negative only for the fill
    /// distributions).
    public var spacing: Double = 0
    /// The arranged views' names, in order (each becomes the stack's subview).
    public var arranged: [String] = []
    /// Arranged view name → the spacing after it, points (`setCustomSpacing(_:after:)`).
    /// Lookups only.
    public var customSpacing: [String: Double] = [:]
    /// Arrange inside the stack's `margins` (`isLayoutMarginsRelativeArrangement`).
    public var layoutMarginsRelative = false
    /// On a vertical stack, spacing runs from one view's last baseline to the next
    /// one's first baseline (`isBaselineRelativeArrangement`).
    public var baselineRelative = false

    public init(axis: Axis = .horizontal, distribution: Distribution = .fill, alignment: Alignment = .fill,
                spacing: Double = 0, arranged: [String] = [], customSpacing: [String: Double] = [:],
                layoutMarginsRelative: Bool = false, baselineRelative: Bool = false) {
        self.axis = axis
        self.distribution = distribution
        self.alignment = alignment
        self.spacing = spacing
        self.arranged = arranged
        self.customSpacing = customSpacing
        self.layoutMarginsRelative = layoutMarginsRelative
        self.baselineRelative = baselineRelative
    }

    /// The spacing after the arranged view `name`: its custom spacing, else ``spacing``.
    public func spacing(after name: String) -> Double { customSpacing[name] ?? spacing }

    /// The members of a `stack` object.
    static let members = ["axis", "distribution", "alignment", "spacing", "arranged", "customSpacing",
                          "layoutMarginsRelative", "baselineRelative"]
}

extension StackSpec.Axis: CaseIterableNames { static var allNames: [String] { allCases.map(\.rawValue) } }
extension StackSpec.Distribution: CaseIterableNames { static var allNames: [String] { allCases.map(\.rawValue) } }
extension StackSpec.Alignment: CaseIterableNames { static var allNames: [String] { allCases.map(\.rawValue) } }

extension SceneDecoder {
    /// Decodes a view's `stack` object; wrong shapes and types are 400 `invalid_scene`
    /// diagnostics naming the JSON path (in `context.typeErrors`).
    func decodeStack(_ value: JSONNode, path: String, _ context: inout DecodingContext) -> StackSpec? {
        guard case .object(let members) = value.shape else {
            context.typeErrors.append(context.typeError(path, expected: "an object (a stack view)", found: value))
            return nil
        }
        context.checkMembers(members, known: StackSpec.members, path: path)
        var stack = StackSpec()
        stack.axis = context.enumeration(value["axis"], path: path + ".axis", default: .horizontal)
        stack.distribution = context.enumeration(value["distribution"], path: path + ".distribution", default: .fill)
        stack.alignment = context.enumeration(value["alignment"], path: path + ".alignment", default: .fill)
        stack.spacing = context.optionalNumber(value["spacing"], path: path + ".spacing") ?? 0
        if let arranged = value["arranged"] {
            if case .array(let elements) = arranged.shape {
                for (index, element) in elements.enumerated() {
                    if case .string(let name) = element.shape { stack.arranged.append(name) } else {
                        context.typeErrors.append(context.typeError("\(path).arranged[\(index)]", expected: "a view name (a string)", found: element))
                    }
                }
            } else {
                context.typeErrors.append(context.typeError(path + ".arranged", expected: "an array of view names", found: arranged))
            }
        } else {
            context.typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "A stack needs an \"arranged\" array (it may be empty) at \(path)", path: path + ".arranged"))
        }
        if let custom = value["customSpacing"] {
            if case .object(let entries) = custom.shape {
                for (name, number) in entries {
                    let entryPath = path + ".customSpacing" + pathComponent(name)
                    // A key is a view name: validated by its bytes before it is compared or
                    // hashed (U+212A KELVIN SIGN is not `K`); then the dictionary's `String`
                    // hashing is by bytes.
                    guard isValidName(name) else {
                        context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "customSpacing names '\(Diagnostic.echo(name))', which is not a view name: \(nameRule(name))", path: entryPath))
                        continue
                    }
                    if stack.customSpacing[name] != nil {
                        context.typeErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Field '\(Diagnostic.echo(name))' is given more than once at \(path).customSpacing; give it once", path: entryPath))
                    } else if case .number = number.shape {
                        // `nil` beyond the magnitude limit, which is reported.
                        if let points = context.optionalNumber(number, path: entryPath) { stack.customSpacing[name] = points }
                    } else {
                        context.typeErrors.append(context.typeError(entryPath, expected: "a number (points)", found: number))
                    }
                }
            } else {
                context.typeErrors.append(context.typeError(path + ".customSpacing", expected: "an object of arranged view name → points", found: custom))
            }
        }
        stack.layoutMarginsRelative = context.flag(value["layoutMarginsRelative"], path: path + ".layoutMarginsRelative")
        stack.baselineRelative = context.flag(value["baselineRelative"], path: path + ".baselineRelative")
        return stack
    }

    /// The stack rules of the contract that are 422 `invalid_scene`: an arranged name
    /// that is not a view, the stack itself or one of its ancestors, a view arranged
    /// twice (in one stack or in two), a `parent` other than the stack, baseline
    /// alignment on a vertical stack, negative spacing with `equalSpacing` or
    /// `equalCentering`, and a `customSpacing` name the stack does not arrange. Then
    /// each arranged view's parent becomes the stack (it is implied).
    ///
    /// Runs before ``checkNamesAndHierarchy``, which then checks the hierarchy with the
    /// implied parents (cycles, depth) and reports invalid view names. Stacks are checked
    /// in the byte order of their names. Every name is validated by its bytes before it is
    /// looked up (an arranged name or `parent` that is not a valid name is no view), so
    /// the lookups' `String` hashing is of ASCII names, byte-exact.
    /// - Complexity: O(views + arranged views × hierarchy depth).
    func checkStacks(_ scene: inout Scene, _ context: inout DecodingContext) {
        guard scene.views.contains(where: { $0.stack != nil }) else { return }
        // The first view of each valid name (a repeated or invalid name is reported by the
        // hierarchy check).
        var indexByName: [String: Int] = [:]   // lookups only
        for (index, view) in scene.views.enumerated() where isValidName(view.name) && indexByName[view.name] == nil {
            indexByName[view.name] = index
        }
        func lookUp(_ name: String) -> Int? { isValidName(name) ? indexByName[name] : nil }
        let stacks = scene.views.indices.filter { scene.views[$0].stack != nil }.sorted {
            let order = utf8Compare(scene.views[$0].name, scene.views[$1].name)
            return order < 0 || (order == 0 && $0 < $1)
        }
        // Arranged view index → the stack (index) that arranges it and where.
        var arrangedBy: [Int: (stack: Int, path: String)] = [:]   // lookups only
        var implied: [(view: Int, stack: Int)] = []
        var sortedNames: [String] = []   // the view names, sorted once when a suggestion needs them
        var guideNames: Set<String>?   // membership only; built at the first unknown name
        for stackIndex in stacks {
            let stackView = scene.views[stackIndex]
            guard let stack = stackView.stack else { continue }
            let base = (stackView.jsonPath ?? "$.views" + pathComponent(stackView.name)) + ".stack"
            func fail(_ message: String, _ path: String, view: String? = nil) {
                context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: message, path: path, view: view))
            }
            if stack.axis == .vertical && stack.alignment.isBaseline {
                fail("Stack '\(Diagnostic.echo(stackView.name))' is vertical: the \(stack.alignment.rawValue) alignment is for horizontal stacks only (as UIKit's)", base + ".alignment", view: stackView.name)
            }
            if stack.spacing < 0 && (stack.distribution == .equalSpacing || stack.distribution == .equalCentering) {
                fail("Stack '\(Diagnostic.echo(stackView.name))' has spacing \(JSONWriter.format(stack.spacing)): with \(stack.distribution.rawValue) the spacing is the least gap and must be ≥ 0", base + ".spacing", view: stackView.name)
            }
            let arrangedNames = Set(stack.arranged.filter(isValidName))   // membership only; ASCII names
            for name in stack.customSpacing.keys.sorted(by: utf8Precedes) where !arrangedNames.contains(name) {
                fail("customSpacing of stack '\(Diagnostic.echo(stackView.name))' names '\(Diagnostic.echo(name))', which it does not arrange", base + ".customSpacing" + pathComponent(name), view: stackView.name)
            }
            for (position, name) in stack.arranged.enumerated() {
                let path = "\(base).arranged[\(position)]"
                guard isValidName(name) else {
                    fail("Stack '\(Diagnostic.echo(stackView.name))' arranges an unknown view '\(Diagnostic.echo(name))': \(nameRule(name))", path, view: stackView.name)
                    continue
                }
                guard let viewIndex = lookUp(name) else {
                    // Valid (ASCII) guide names only, so the set's hashing is byte-exact.
                    if guideNames == nil { guideNames = Set(scene.guides.map(\.name).filter(isValidName)) }
                    if guideNames?.contains(name) == true {
                        fail("Stack '\(Diagnostic.echo(stackView.name))' arranges '\(Diagnostic.echo(name))', which is a layout guide: a stack arranges views, not layout guides", path, view: stackView.name)
                        continue
                    }
                    // The suggestion compares the name with every view's: only for diagnostics
                    // that are listed (a stack can arrange thousands of unknown names), among
                    // at most ``maxSuggestionCandidates`` views, within the decoder's
                    // ``maxSuggestionComparisons``.
                    var suggestion = ""
                    if context.sceneErrors.count < LayoutDiagnostic.maxCount && context.admitsSuggestion(among: indexByName.count) {
                        if sortedNames.isEmpty { sortedNames = indexByName.keys.sorted(by: utf8Precedes) }
                        suggestion = closestName(to: name, among: sortedNames).map { "; did you mean '\($0)'?" } ?? ""
                    }
                    fail("Stack '\(Diagnostic.echo(stackView.name))' arranges an unknown view '\(Diagnostic.echo(name))'\(suggestion)", path, view: stackView.name)
                    continue
                }
                if viewIndex == stackIndex {
                    fail("Stack '\(Diagnostic.echo(name))' cannot arrange itself", path, view: name)
                    continue
                }
                if let first = arrangedBy[viewIndex] {
                    let other = scene.views[first.stack].name
                    let placement = first.stack == stackIndex ? "twice in stack '\(Diagnostic.echo(other))'" : "in stack '\(Diagnostic.echo(other))' (\(first.path)) and in stack '\(Diagnostic.echo(stackView.name))'"
                    fail("View '\(Diagnostic.echo(name))' is arranged \(placement): a view is arranged in one stack, once, as it becomes that stack's subview", path, view: name)
                    continue
                }
                // An ancestor of the stack cannot be its subview: by the parents given and by
                // the arrangements accepted so far (a cycle of arrangements alone is reported
                // here, at the arrangement that closes it; test:
                // `StackViewTests.stacksArrangingEachOtherAreACycle`).
                func parentOf(_ index: Int) -> Int? {
                    if let parentName = scene.views[index].parent { return lookUp(parentName) }
                    return arrangedBy[index]?.stack
                }
                var ancestor = parentOf(stackIndex)
                var steps = 0
                var isAncestor = false
                while let parentIndex = ancestor, steps <= limits.maxHierarchyDepth {
                    if parentIndex == viewIndex { isAncestor = true; break }
                    ancestor = parentOf(parentIndex)
                    steps += 1
                }
                if isAncestor {
                    fail("Stack '\(Diagnostic.echo(stackView.name))' cannot arrange '\(Diagnostic.echo(name))', which is an ancestor of it", path, view: name)
                    continue
                }
                if let parent = scene.views[viewIndex].parent, !utf8Equal(parent, stackView.name) {
                    let viewPath = (scene.views[viewIndex].jsonPath ?? "$.views" + pathComponent(name)) + ".parent"
                    fail("View '\(Diagnostic.echo(name))' is arranged in stack '\(Diagnostic.echo(stackView.name))' but its parent is '\(Diagnostic.echo(parent))': an arranged view's parent is its stack (leave \"parent\" out)", viewPath, view: name)
                    continue
                }
                arrangedBy[viewIndex] = (stackIndex, path)
                implied.append((viewIndex, stackIndex))
            }
        }
        for (view, stack) in implied { scene.views[view].parent = scene.views[stack].name }
    }
}

extension DecodingContext {
    /// `true` or `false`; absent is `false`.
    mutating func flag(_ value: JSONNode?, path: @autoclosure () -> String) -> Bool {
        guard let value else { return false }
        guard case .bool(let flag) = value.shape else {
            typeErrors.append(typeError(path(), expected: "true or false", found: value))
            return false
        }
        return flag
    }
}
