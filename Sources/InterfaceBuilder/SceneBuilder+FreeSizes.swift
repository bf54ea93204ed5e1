import LayoutCompiler

/// Sizes the constraints leave free: how a view Interface Builder does not mark ambiguous
/// gets the size it has at design time (SceneBuilder.swift holds the reading).
extension SceneBuilder {
    /// Interface Builder marks a view `ambiguous="YES"` when its constraints leave its frame
    /// free, unless the view has a size of its own at design time (an `@IBDesignable` or a
    /// custom class's intrinsic content size, which the file does not record). So a view
    /// without that mark whose width or height the scene leaves ambiguous is sized by its
    /// content: its recorded size (less its alignment insets) becomes its intrinsic size on
    /// that axis. Found by compiling and solving `scene` once; noted per view. Returns
    /// whether any size was taken (the scene must then be built again).
    /// - Complexity: one compile and solve of the hierarchy's scene.
    /// - Throws: ``IBImportError`` with `isLimit` when that solve takes more than
    ///   ``maxSolverWork`` cell operations.
    mutating func sizeFreeSizes(of scene: JSONValue) throws(IBImportError) -> Bool {
        guard let layout = try solvedOnce(scene) else { return false }
        var found: [String: (width: Bool, height: Bool)] = [:]
        freePositionCandidates = freePositions(in: layout)
        for (index, bits) in layout.ambiguousFields.enumerated() where bits & 3 != 0 && index < layout.frames.count {
            let name = layout.frames[index].name
            guard name != "superview" else { continue }
            found[name] = (bits & 1 != 0, bits & 2 != 0)
        }
        // UIStackView settles an arranged view's size across its axis, when its alignment
        // does not fill and nothing else sizes it, with a weak constraint to 0 (ambiguity
        // suppression): a view of no content size solved so (to 0, or to the lower bound of
        // a `>=` constraint) while the recorded frame shows it larger is sized by its
        // content on that axis, as above. The suppression only ever pulls shorter, so a
        // solved length below the recorded one is its doing.
        let solved = Dictionary(layout.frames.map { ($0.name, $0.frame) }, uniquingKeysWith: { first, _ in first })
        for view in views.dropFirst() where view.isArranged && !Self.isMarked(view) {
            guard let stackName = view.parent, let stack = self.view(named: stackName),
                  (stack.element["alignment"] ?? "fill") != "fill", let frame = solved[view.name] else { continue }
            let vertical = stack.element["axis"] == "vertical"
            let content = intrinsicSize(view)
            if vertical, frame.width < view.frame.width - 1e-3, content?["width"] == nil {
                found[view.name, default: (false, false)].width = true
            } else if !vertical, frame.height < view.frame.height - 1e-3, content?["height"] == nil {
                found[view.name, default: (false, false)].height = true
            }
        }
        var taken = false
        // Hidden arranged views whose hiding conflicts with their own constraints.
        for diagnostic in layout.diagnostics where diagnostic.code == .unsatisfiableConstraints {
            for reference in (diagnostic.conflicting ?? []) + (diagnostic.broken.map { [$0] } ?? []) {
                guard reference.text.hasSuffix(" hiding)"), let dot = reference.text.firstIndex(of: ".") else { continue }
                let name = String(reference.text[..<dot])
                let rest = reference.text[reference.text.index(after: dot)...]
                guard rest.hasPrefix("width == 0 (stack ") || rest.hasPrefix("height == 0 (stack "),
                      !uncollapsible.contains(name), let view = self.view(named: name), isUncollapsibleCandidate(view) else { continue }
                uncollapsible.insert(name)
                taken = true
                notes.append("Hidden arranged view \(name) cannot collapse (its own required constraints give it a length): it keeps that length where its stack hides it, as Interface Builder lays it out, instead of the stack's hiding")
            }
        }
        for view in views.dropFirst() where !Self.isMarked(view) {
            guard let axes = found[view.name] else { continue }
            freeSizes[view.name] = axes
            taken = true
            let what = axes.width && axes.height ? "width and height" : axes.width ? "width" : "height"
            notes.append("The constraints leave the \(what) of \(view.name) free and Interface Builder did not mark it ambiguous: its recorded \(what) is taken as its intrinsic size (a size of its own at design time)")
        }
        return taken
    }

    /// `scene` compiled and solved once with this hierarchy's work limit; `nil` when it does
    /// not decode or compile (the import then answers it as it is).
    /// - Throws: ``IBImportError`` with `isLimit` when the solve takes more than
    ///   ``maxSolverWork`` cell operations. The solver's work limit, not the diagnostics
    ///   list's bound (`omitted`): free fields are read from `ambiguousFields`, which holds
    ///   them all (IBMappingTests.freeSizesPastTheDiagnosticsBoundAreAllTaken).
    ///   Another limit (the magnitude bound: a multiplier of `1e10` pushes lengths past
    ///   ±10¹²) is no work refusal: nothing is inferred from the solve and a note names the
    ///   limit (``noteLimit(of:)``); `IBMappingTests.aMagnitudeLimitIsNotBlamedOnWork`.
    /// `purpose` names what the solve infers in the refusal ("free sizes"); `pixelAligned`
    /// false solves without the scene's display scale (the frames before pixel alignment).
    mutating func solvedOnce(_ scene: JSONValue, purpose: String = "free sizes", pixelAligned: Bool = true) throws(IBImportError) -> Layout? {
        guard var decoded = try? SceneDecoder().decode(scene) else { return nil }
        if !pixelAligned { decoded.options.displayScale = nil }
        var limits = SceneLimits()
        limits.maxSolverWork = maxSolverWork
        let compiled = SceneCompiler(scene: decoded, limits: limits).compile()
        guard !compiled.hasErrors else { return nil }
        let layout = compiled.solve(size: decoded.container.size)
        if layout.diagnostics.contains(where: Self.isWorkLimit) {
            throw IBImportError(message: "Importing this document takes more work than allowed (limit maxSolverWork, \(maxSolverWork) cell operations for this hierarchy's \(purpose), the request's budget shared by the document's hierarchies): split it, or raise --max-solver-work", line: 0, isLimit: true)
        }
        if noteLimit(of: layout) { return nil }
        return layout
    }

    /// Whether `diagnostic` is the solver's work refusal (limit maxSolverWork), the one
    /// limit that makes the import a work refusal; not the diagnostics list's own bound
    /// (`omitted`): ``LayoutDiagnostic/isWorkBudget``.
    static func isWorkLimit(_ diagnostic: LayoutDiagnostic) -> Bool {
        diagnostic.code == .limitExceeded && diagnostic.isWorkBudget
    }

    /// When a solve the import makes stops at a limit other than the work budget (a
    /// rejected layout with a `limit_exceeded` error), notes it once, naming the limit as
    /// the engine says it; returns whether it did (the solve then tells nothing).
    mutating func noteLimit(of layout: Layout) -> Bool {
        guard let diagnostic = layout.diagnostics.first(where: { $0.code == .limitExceeded && $0.omitted == nil && $0.isError }) else { return false }
        let note = "Solving this hierarchy to infer what the document does not record stopped at a limit: \(diagnostic.message); nothing was inferred from that solve, and /solve of this scene answers the same limit"
        if !notes.contains(note) { notes.append(note) }
        return true
    }

    /// The unmarked views of `layout` whose x or y (relative to the parent) it leaves
    /// ambiguous, in the document's order.
    func freePositions(in layout: Layout) -> [(name: String, x: Bool, y: Bool)] {
        var bitsByName: [String: UInt8] = [:]
        for (index, bits) in layout.ambiguousFields.enumerated() where bits & 12 != 0 && index < layout.frames.count {
            bitsByName[layout.frames[index].name] = bits
        }
        guard !bitsByName.isEmpty else { return [] }
        return views.dropFirst().compactMap { view in
            guard let bits = bitsByName[view.name], !Self.isMarked(view) else { return nil }
            return (view.name, bits & 4 != 0, bits & 8 != 0)
        }
    }

    /// Interface Builder marks a view `ambiguous="YES"` when its constraints leave its
    /// position free at design time. A view without that mark whose x or y the scene leaves
    /// free was placed at design time by something the running app does not have: a
    /// constraint marked "remove at build time" (`placeholder="YES"`, which stands for one
    /// the app makes in code and which UIKit never sees, so the import leaves it out), else
    /// a fact the file does not record. Nothing at run time says where such a view goes, so
    /// it stays where the document placed it: its alignment rectangle's recorded x or y
    /// relative to its parent, at priority 1 (below every constraint the document and
    /// UIKit's stacks add, so it only chooses among the positions they leave equally good).
    /// Found after the free sizes are taken (a free size can leave a position free with
    /// it): from the free-size solve when it took nothing, else by one more solve, only
    /// when that solve found a free position. Noted per view. Returns whether any position
    /// was taken (the scene must then be built again).
    /// `IBMappingTests.freePositionsKeepTheirRecordedPlace` holds it.
    /// - Complexity: at most one compile and solve of the hierarchy's scene.
    /// - Throws: ``IBImportError`` with `isLimit` when that solve takes more than
    ///   ``maxSolverWork`` cell operations.
    mutating func placeFreePositions(of scene: JSONValue, sceneChanged: Bool) throws(IBImportError) -> Bool {
        guard !freePositionCandidates.isEmpty else { return false }
        var free = freePositionCandidates
        if sceneChanged {
            guard let layout = try solvedOnce(scene) else { return false }
            free = freePositions(in: layout)
        }
        var taken = false
        for (name, x, y) in free where x || y {
            guard let view = self.view(named: name), let parentName = view.parent, let parent = self.view(named: parentName) else { continue }
            let frame = alignmentFrame(view)
            var equations: [String] = []
            if x { equations.append("\(name).left == \(parentName).left + \(JSONWriter.format(frame.x - parent.absolute.x))") }
            if y { equations.append("\(name).top == \(parentName).top + \(JSONWriter.format(frame.y - parent.absolute.y))") }
            positionConstraints += equations.map {
                .object([("equation", .string($0)), ("priority", .number(1)), ("id", .string("position:\(name)"))])
            }
            taken = true
            let what = x && y ? "x and y" : x ? "x" : "y"
            let cause = placeholderItems.contains(name)
                ? "a constraint on it is removed at build time (placeholder)"
                : "Interface Builder did not mark it ambiguous"
            notes.append("The constraints leave the \(what) of \(name) free and \(cause): its recorded \(what) is kept, at priority 1 (nothing at run time places it elsewhere)")
        }
        return taken
    }

    /// Whether `view` is a hidden arranged view, unmarked, that the recorded frames show
    /// with a length along its stack's axis though not laid out shown (``recordedShown(_:)``),
    /// in a stack whose alignment ``uncollapsibleConstraints()`` can place it by.
    func isUncollapsibleCandidate(_ view: IBView) -> Bool {
        guard view.isArranged, view.element["hidden"] == "YES", !Self.isMarked(view), !recordedShown(view),
              let stackName = view.parent, let stack = self.view(named: stackName) else { return false }
        let vertical = stack.element["axis"] == "vertical"
        let alignment = stack.element["alignment"] ?? "fill"
        guard ["fill", "leading", "top", "trailing", "bottom", "center"].contains(alignment) else { return false }
        return (vertical ? view.frame.height : view.frame.width) > 0
    }

    /// A hidden arranged view whose own required constraints give it a length along its
    /// stack's axis cannot take the stack's hiding length 0: UIKit's engine, as Interface
    /// Builder's recorded frames show it (no such view is marked misplaced), keeps the
    /// view's constraints and breaks the hiding. The view keeps its length, out of the
    /// arrangement, where the stack hides it: its start at the end of the visible arranged
    /// view before it (plus half the spacing when a visible one follows), else its end at
    /// the start of the visible one after it, else at the stack's start (always at the
    /// stack's start in `equalSpacing` and `equalCentering` stacks, which do not place
    /// hidden views between their neighbours); across the axis
    /// as the stack's alignment places arranged views (within the margins when the stack
    /// arranges within them). `IBMappingTests.hiddenArrangedViewsThatCannotCollapseKeepTheirLength`
    /// holds it.
    func uncollapsibleConstraints() -> [JSONValue] {
        var result: [JSONValue] = []
        for view in views where uncollapsible.contains(view.name) {
            guard let stackName = view.parent, let stack = self.view(named: stackName) else { continue }
            let vertical = stack.element["axis"] == "vertical"
            let marginal = stack.element["layoutMarginsRelativeArrangement"] == "YES"
                || Self.arrangesWithinMargins(stack, arranged: views.filter { $0.parent == stackName && $0.isArranged })
            func edge(_ attribute: String) -> String { marginal ? attribute + "Margin" : attribute }
            let (start, end) = vertical ? ("top", "bottom") : ("leading", "trailing")
            let arranged = views.filter { $0.parent == stackName && $0.isArranged }
            guard let index = arranged.firstIndex(where: { $0.name == view.name }) else { continue }
            func visible(_ item: IBView) -> Bool { item.element["hidden"] != "YES" || recordedShown(item) }
            let previous = arranged[..<index].last(where: visible)
            let next = arranged[(index + 1)...].first(where: visible)
            let spacing = stack.element["spacing"].flatMap(Double.init) ?? (stack.element["spacingType"] == "standard" ? Self.systemSpacing : 0)
            var equations: [String] = []
            let distribution = stack.element["distribution"] ?? "fill"
            if distribution == "equalSpacing" || distribution == "equalCentering" {
                equations.append("\(view.name).\(start) == \(stackName).\(edge(start))")
            } else if let previous {
                let constant = next != nil ? spacing / 2 : 0
                equations.append("\(view.name).\(start) == \(previous.name).\(end)" + (constant == 0 ? "" : " + \(JSONWriter.format(constant))"))
            } else if let next {
                equations.append("\(view.name).\(end) == \(next.name).\(start)")
            } else {
                equations.append("\(view.name).\(start) == \(stackName).\(edge(start))")
            }
            let (crossStart, crossEnd, crossCenter) = vertical ? ("leading", "trailing", "centerX") : ("top", "bottom", "centerY")
            switch stack.element["alignment"] ?? "fill" {
            case "fill":
                equations.append("\(view.name).\(crossStart) == \(stackName).\(edge(crossStart))")
                equations.append("\(view.name).\(crossEnd) == \(stackName).\(edge(crossEnd))")
            case "leading", "top": equations.append("\(view.name).\(crossStart) == \(stackName).\(edge(crossStart))")
            case "trailing", "bottom": equations.append("\(view.name).\(crossEnd) == \(stackName).\(edge(crossEnd))")
            default: equations.append("\(view.name).\(crossCenter) == \(stackName).\(crossCenter)")
            }
            result += equations.map { .object([("equation", .string($0)), ("id", .string("hidden:\(view.name)"))]) }
        }
        return result
    }
}
