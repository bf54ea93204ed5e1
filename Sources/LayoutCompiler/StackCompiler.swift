import Cassowary
import LayoutSyntax

/// How a stack constraint is written for people: the equation over the stack, its
/// arranged views and its internal guides, and what the constraint is for.
///
/// The internal guides are written by what they are, never by an internal name:
/// `span(row)` is the stack's spanning guide (UIKit's alignment spanner: the smallest
/// box around its visible arranged views across the axis), `gap(row, a, b)` its
/// distributing guide between the arranged views `a` and `b`. Rendered on demand.
struct StackWords: Sendable {
    /// What a term names.
    enum Item: Sendable {
        case view(String)
        case span
        case gap(after: String, before: String)
    }

    struct Term: Sendable {
        var coefficient: Double
        var item: Item
        var attribute: String
    }

    /// What the constraint does for the stack (UIKit's `UISV-…` identifiers in words).
    enum Role: String, Sendable {
        case canvas = "canvas"                             // UISV-canvas-connection
        case spacing = "spacing"                           // UISV-spacing
        case alignment = "alignment"                       // UISV-alignment
        case span = "span"                                 // UISV-spanning-boundary
        case spanFit = "span fit"                          // UISV-spanning-fit
        case ambiguitySuppression = "ambiguity suppression" // UISV-ambiguity-suppression
        case canvasFit = "canvas fit"                      // UISV-canvas-fit
        case fillEqually = "fillEqually"                   // UISV-fill-equally
        case fillProportionally = "fillProportionally"     // UISV-fill-proportionally
        case distributing = "distributing"                 // UISV-distributing(-edge)
        case hiding = "hiding"                             // UISV-hiding
    }

    /// The stack's name.
    var stack: String
    var lhs: [Term]
    var relation: RelationalOperator
    var rhs: [Term]
    /// Added to the right side, points.
    var constant: Double
    /// 1...1000 (fractional ones included).
    var priority: Double
    var role: Role

    /// `title.leading == icon.trailing + 8 (stack row spacing)`.
    var text: String {
        func render(_ terms: [Term]) -> String {
            var out = ""
            for (index, term) in terms.enumerated() {
                var coefficient = term.coefficient
                if index > 0 {
                    out += coefficient < 0 ? " - " : " + "
                    coefficient = abs(coefficient)
                } else if coefficient == -1 {
                    out += "-"
                    coefficient = 1
                }
                if coefficient != 1 { out += JSONWriter.format(coefficient) + " * " }
                switch term.item {
                case .view(let name): out += name
                case .span: out += "span(\(stack))"
                case .gap(let after, let before): out += "gap(\(stack), \(after), \(before))"
                }
                out += "." + term.attribute
            }
            return out
        }
        let relationText: String
        switch relation {
        case .equal: relationText = "=="
        case .greaterThanOrEqual: relationText = ">="
        case .lessThanOrEqual: relationText = "<="
        }
        var text = render(lhs) + " " + relationText + " "
        if rhs.isEmpty {
            text += JSONWriter.format(constant)
        } else {
            text += render(rhs)
            if constant > 0 { text += " + " + JSONWriter.format(constant) } else if constant < 0 { text += " - " + JSONWriter.format(-constant) }
        }
        return text + priorityText(priority) + " (stack \(stack) \(role.rawValue))"
    }
}

/// One term of a stack constraint before translation: `coefficient × item.edge`.
private struct StackTerm {
    /// What the term measures.
    enum Item {
        /// An arranged view (its index in the hierarchy).
        case view(Int)
        /// The stack's edges where its arranged views go: its margins when
        /// `layoutMarginsRelative`, else its bounds (UIKit's canvas).
        case canvas
        /// The stack view itself (its own length, whatever its margins).
        case stack
        /// The spanning guide.
        case span
        /// The `index`-th distributing guide, between the two arranged views named.
        case gap(index: Int, after: Int, before: Int)
    }

    /// An edge or length along one axis.
    enum Edge {
        /// Leading (top), trailing (bottom), center, width (height).
        case start, end, middle, length
        /// Vertical only.
        case firstBaseline, lastBaseline
    }

    var coefficient: Double
    var item: Item
    var edge: Edge
    var horizontal: Bool

    init(_ item: Item, _ edge: Edge, horizontal: Bool) {
        self.init(1, item, edge, horizontal: horizontal)
    }

    init(_ coefficient: Double, _ item: Item, _ edge: Edge, horizontal: Bool) {
        self.coefficient = coefficient
        self.item = item
        self.edge = edge
        self.horizontal = horizontal
    }
}

extension CompileState {
    /// Every stack's constraints, stacks in the order of their names (contract,
    /// "Conflicts"), each keyed `stack:NAME` with parts numbered from 0.
    ///
    /// The constraints are those UIKit's `UIStackView` adds (iOS 9 on; TZStackView's
    /// reimplementation and its test case against UIKit show them), in this order per
    /// stack, where `canvas` is the stack's bounds, or its margins when
    /// `layoutMarginsRelative`, `first` the first arranged view, and a hidden arranged
    /// view is left out of the arrangement along the axis:
    ///
    /// 1. canvas connections along the axis: the first visible view's leading (top) and
    ///    the last visible view's trailing (bottom) at the canvas's (required);
    /// 2. spacing between each two adjacent visible views: `==` the spacing after the
    ///    first of them for the fill distributions, `>=` for `equalSpacing` and
    ///    `equalCentering` (required); on a vertical `baselineRelative` stack from the
    ///    last baseline to the next view's first baseline;
    /// 3. the distribution: `fillEqually` equal lengths (required); `fillProportionally`
    ///    each visible view's length = the stack's length × its intrinsic length ÷ (the
    ///    visible views' intrinsic lengths + the spacing between them), at 999, 998, …;
    ///    `equalSpacing` a distributing guide from each view's trailing edge to the next
    ///    one's leading edge, all of equal length (required); `equalCentering` one from
    ///    each view's center to the next one's, of equal length at 150; for both, the
    ///    stack's length `== 0` at 49 (canvas fit: as short as its content allows);
    /// 4. hiding: each hidden arranged view's length `== 0` (required), its leading edge
    ///    halfway between its visible neighbours (the spacing halved on each side, from the
    ///    previous view's last baseline on a vertical `baselineRelative` stack; in the
    ///    middle of the gap for the equal distributions), or at the canvas's edge when it
    ///    has a visible neighbour on one side only;
    /// 5. alignment across the axis, over every arranged view, hidden ones included:
    ///    `fill` pins `first`'s two edges to the canvas and every other view's to
    ///    `first`'s; `leading`, `trailing`, `center` pin that edge of `first` to the
    ///    canvas and of the others to `first`; the baseline alignments (horizontal
    ///    stacks) align that baseline to `first`'s. All but `fill` add the spanning guide
    ///    around the visible views (its edges `<=`/`>=` theirs, required; `==` at 999.5
    ///    on the aligned edge for `leading`, `trailing` and the baseline alignments),
    ///    the canvas's free edges pinned to it, its width (height) `== 0` at 51, and each
    ///    arranged view's height (width) `== 0` at 25 (ambiguity suppression).
    ///
    /// The guides are solver variables with negative ids (``stackGuideVariable(_:_:)``),
    /// apart from the views', and appear in no answer.
    mutating func addStackConstraints() {
        var nextGuide = 0
        for offset in scene.views.indices where scene.views[offset].stack != nil {
            addStack(view: ViewHierarchy.index(ofSceneView: offset), guides: &nextGuide)
        }
    }

    /// One stack view's constraints as they are added: what every step reads, and the
    /// number of the next part (a stack's constraints are numbered in the order added).
    private struct StackBuild {
        /// The stack view's index in the hierarchy, its spec and name.
        let index: Int
        let spec: StackSpec
        let name: String
        /// The arranged views that are views of the scene (hierarchy indices), in order.
        let arranged: [Int]
        /// By position in `arranged`: whether the view is hidden.
        let hidden: [Bool]
        /// Positions in `arranged` of the visible views.
        let visible: [Int]
        let alignment: StackSpec.Alignment
        let horizontal: Bool
        /// `equalSpacing` or `equalCentering`: the spacing is a minimum, gaps are guides.
        let equalDistribution: Bool
        /// Spacing measured from baseline to baseline (a vertical `baselineRelative` stack).
        let baselineSpacing: Bool
        /// The spanning guide's number, or -1 (`fill` alignment has none).
        let spanGuide: Int
        var part = 0
    }

    /// - Complexity: O(arranged views) constraints and time.
    private mutating func addStack(view stackIndex: Int, guides nextGuide: inout Int) {
        let stackSpec = scene.spec(ofView: stackIndex)
        guard let spec = stackSpec.stack else { return }
        let arranged = spec.arranged.compactMap { hierarchy.index(of: $0) }.filter { $0 > 0 }
        guard !arranged.isEmpty else { return }
        let hidden = arranged.map { scene.spec(ofView: $0).isHidden }
        let alignment = spec.alignment.normalized
        let spanGuide = alignment == .fill ? -1 : nextGuide
        if spanGuide >= 0 { nextGuide += 1 }
        var stack = StackBuild(
            index: stackIndex, spec: spec, name: stackSpec.name, arranged: arranged, hidden: hidden,
            visible: arranged.indices.filter { !hidden[$0] }, alignment: alignment, horizontal: spec.axis == .horizontal,
            equalDistribution: spec.distribution == .equalSpacing || spec.distribution == .equalCentering,
            baselineSpacing: spec.axis != .horizontal && spec.baselineRelative, spanGuide: spanGuide)
        addStackAxis(&stack)
        addStackDistribution(&stack, guides: &nextGuide)
        addStackHiding(&stack)
        addStackAlignment(&stack)
    }

    /// Adds `lhs relation rhs + constant` at `priority` for `stack`, with its words and
    /// the view/axis keys it mentions.
    private mutating func addStackConstraint(_ stack: inout StackBuild, _ lhs: [StackTerm], _ relation: RelationalOperator,
                                             _ rhs: [StackTerm], constant: Double = 0, priority: Double = 1000,
                                             role: StackWords.Role) {
        var terms: [Term] = []
        var words = StackWords(stack: stack.name, lhs: [], relation: relation, rhs: [], constant: constant, priority: priority, role: role)
        var expressionConstant = -constant
        pendingMentions.removeAll(keepingCapacity: true)
        for (side, list) in [(1.0, lhs), (-1.0, rhs)] {
            for var term in list {
                if case .view(let view) = term.item, term.edge == .firstBaseline || term.edge == .lastBaseline {
                    term.item = .view(stackBaselineView(view, first: term.edge == .firstBaseline))
                }
                let form = stackTermForm(term, stack: stack.index, spec: stack.spec, spanGuide: stack.spanGuide)
                for (variable, coefficient) in form.terms { terms.append(Term(variable, side * term.coefficient * coefficient)) }
                expressionConstant += side * term.coefficient * form.constant
                let item: StackWords.Item
                switch term.item {
                case .view(let view): item = .view(hierarchy.names[view])
                case .canvas, .stack: item = .view(stack.name)
                case .span: item = .span
                case .gap(_, let after, let before): item = .gap(after: hierarchy.names[after], before: hierarchy.names[before])
                }
                let wordsTerm = StackWords.Term(coefficient: term.coefficient, item: item,
                                                attribute: stackAttributeName(term, marginsRelative: stack.spec.layoutMarginsRelative))
                if side > 0 { words.lhs.append(wordsTerm) } else { words.rhs.append(wordsTerm) }
                switch term.item {
                case .view(let view): noteMention(FrameField.origin(of: view, horizontal: term.horizontal))
                case .canvas, .stack: noteMention(FrameField.origin(of: stack.index, horizontal: term.horizontal))
                case .span, .gap: break
                }
            }
        }
        for mention in pendingMentions { mentions.append((mention, constraints.count)) }
        constraints.append(CompiledConstraint(
            constraint: Constraint(Expression(terms: terms, constant: expressionConstant), relation, strength: strength(forPriority: priority)),
            part: stack.part, words: .stack(words)))
        stack.part += 1
    }

    /// The spacing after the arranged view at `position` of `stack`.
    private func stackSpacing(_ stack: StackBuild, after position: Int) -> Double {
        stack.spec.spacing(after: hierarchy.names[stack.arranged[position]])
    }

    /// Steps 1 and 2: the first and last visible views to the canvas along the axis, and
    /// the spacing between adjacent visible views.
    private mutating func addStackAxis(_ stack: inout StackBuild) {
        let h = stack.horizontal
        let arranged = stack.arranged
        let visible = stack.visible
        if let first = visible.first, let last = visible.last {
            addStackConstraint(&stack, [StackTerm(.view(arranged[first]), .start, horizontal: h)], .equal,
                               [StackTerm(.canvas, .start, horizontal: h)], role: .canvas)
            addStackConstraint(&stack, [StackTerm(.view(arranged[last]), .end, horizontal: h)], .equal,
                               [StackTerm(.canvas, .end, horizontal: h)], role: .canvas)
        }
        let baselineSpacing = stack.baselineSpacing
        for (order, position) in visible.enumerated().dropFirst() {
            let previous = visible[order - 1]
            addStackConstraint(&stack, [StackTerm(.view(arranged[position]), baselineSpacing ? .firstBaseline : .start, horizontal: h)],
                               stack.equalDistribution ? .greaterThanOrEqual : .equal,
                               [StackTerm(.view(arranged[previous]), baselineSpacing ? .lastBaseline : .end, horizontal: h)],
                               constant: stackSpacing(stack, after: previous), role: .spacing)
        }
    }

    /// Step 3: the distribution along the axis (`nextGuide` numbers the distributing guides).
    private mutating func addStackDistribution(_ stack: inout StackBuild, guides nextGuide: inout Int) {
        let h = stack.horizontal
        let arranged = stack.arranged
        let visible = stack.visible
        switch stack.spec.distribution {
        case .fill:
            break
        case .fillEqually:
            if let first = visible.first {
                for position in visible.dropFirst() {
                    addStackConstraint(&stack, [StackTerm(.view(arranged[position]), .length, horizontal: h)], .equal,
                                       [StackTerm(.view(arranged[first]), .length, horizontal: h)], role: .fillEqually)
                }
            }
        case .fillProportionally:
            let intrinsic = visible.map { position -> Double in
                let view = scene.spec(ofView: arranged[position])
                return (h ? view.intrinsicWidth : view.intrinsicHeight) ?? 0
            }
            var total = intrinsic.reduce(0, +)
            for order in visible.indices.dropFirst() { total += stackSpacing(stack, after: visible[order - 1]) }
            if total > 0 {
                for (order, position) in visible.enumerated() {
                    addStackConstraint(&stack, [StackTerm(.view(arranged[position]), .length, horizontal: h)], .equal,
                                       [StackTerm(intrinsic[order] / total, .stack, .length, horizontal: h)],
                                       priority: max(1, 999 - Double(order)), role: .fillProportionally)
                }
            }
        case .equalSpacing, .equalCentering:
            let centering = stack.spec.distribution == .equalCentering
            let firstGap = nextGuide
            for (order, position) in visible.enumerated().dropFirst() {
                let previous = visible[order - 1]
                let gap = StackTerm.Item.gap(index: nextGuide, after: arranged[previous], before: arranged[position])
                nextGuide += 1
                addStackConstraint(&stack, [StackTerm(gap, .start, horizontal: h)], .equal,
                                   [StackTerm(.view(arranged[previous]), centering ? .middle : .end, horizontal: h)], role: .distributing)
                addStackConstraint(&stack, [StackTerm(gap, .end, horizontal: h)], .equal,
                                   [StackTerm(.view(arranged[position]), centering ? .middle : .start, horizontal: h)], role: .distributing)
                if order >= 2 {
                    let firstGapItem = StackTerm.Item.gap(index: firstGap, after: arranged[visible[0]], before: arranged[visible[1]])
                    addStackConstraint(&stack, [StackTerm(gap, .length, horizontal: h)], .equal,
                                       [StackTerm(firstGapItem, .length, horizontal: h)],
                                       priority: centering ? 150 : 1000, role: .fillEqually)
                }
            }
            addStackConstraint(&stack, [StackTerm(.stack, .length, horizontal: h)], .equal, [], priority: 49, role: .canvasFit)
        }
    }

    /// Step 4: each hidden arranged view collapsed between its visible neighbours, found
    /// in one pass each way.
    private mutating func addStackHiding(_ stack: inout StackBuild) {
        let h = stack.horizontal
        let arranged = stack.arranged
        let hidden = stack.hidden
        var previousVisible = [Int?](repeating: nil, count: arranged.count)
        var nextVisible = [Int?](repeating: nil, count: arranged.count)
        var lastSeen: Int?
        for position in arranged.indices {
            previousVisible[position] = lastSeen
            if !hidden[position] { lastSeen = position }
        }
        lastSeen = nil
        for position in arranged.indices.reversed() {
            nextVisible[position] = lastSeen
            if !hidden[position] { lastSeen = position }
        }
        for position in arranged.indices where hidden[position] {
            let view = arranged[position]
            addStackConstraint(&stack, [StackTerm(.view(view), .length, horizontal: h)], .equal, [], role: .hiding)
            switch (previousVisible[position], nextVisible[position]) {
            case let (previous?, next?):
                if stack.equalDistribution {
                    addStackConstraint(&stack, [StackTerm(.view(view), .start, horizontal: h)], .equal,
                                       [StackTerm(0.5, .view(arranged[previous]), .end, horizontal: h),
                                        StackTerm(0.5, .view(arranged[next]), .start, horizontal: h)],
                                       role: .hiding)
                } else {
                    // Halved as the visible spacing is measured: from the previous view's
                    // last baseline on a `baselineRelative` stack (test:
                    // `StackViewTests.hiddenInABaselineRelativeStackSitsBetweenTheBaselines`).
                    addStackConstraint(&stack, [StackTerm(.view(view), .start, horizontal: h)], .equal,
                                       [StackTerm(.view(arranged[previous]), stack.baselineSpacing ? .lastBaseline : .end, horizontal: h)],
                                       constant: stackSpacing(stack, after: previous) / 2, role: .hiding)
                }
            case (nil, _?):
                addStackConstraint(&stack, [StackTerm(.view(view), .start, horizontal: h)], .equal,
                                   [StackTerm(.canvas, .start, horizontal: h)], role: .hiding)
            case (_?, nil):
                addStackConstraint(&stack, [StackTerm(.view(view), .end, horizontal: h)], .equal,
                                   [StackTerm(.canvas, .end, horizontal: h)], role: .hiding)
            case (nil, nil):
                addStackConstraint(&stack, [StackTerm(.view(view), .start, horizontal: h)], .equal,
                                   [StackTerm(.canvas, .start, horizontal: h)], role: .hiding)
                addStackConstraint(&stack, [StackTerm(.view(view), .end, horizontal: h)], .equal,
                                   [StackTerm(.canvas, .end, horizontal: h)], role: .hiding)
            }
        }
    }

    /// Step 5: alignment across the axis, over every arranged view; all but `fill` with
    /// the spanning guide around the visible views.
    private mutating func addStackAlignment(_ stack: inout StackBuild) {
        let c = !stack.horizontal   // the cross axis is horizontal for a vertical stack
        let arranged = stack.arranged
        let alignment = stack.alignment
        let first = arranged[0]
        switch alignment {
        case .fill:
            addStackConstraint(&stack, [StackTerm(.view(first), .start, horizontal: c)], .equal,
                               [StackTerm(.canvas, .start, horizontal: c)], role: .canvas)
            addStackConstraint(&stack, [StackTerm(.view(first), .end, horizontal: c)], .equal,
                               [StackTerm(.canvas, .end, horizontal: c)], role: .canvas)
            for view in arranged.dropFirst() {
                addStackConstraint(&stack, [StackTerm(.view(view), .start, horizontal: c)], .equal,
                                   [StackTerm(.view(first), .start, horizontal: c)], role: .alignment)
                addStackConstraint(&stack, [StackTerm(.view(view), .end, horizontal: c)], .equal,
                                   [StackTerm(.view(first), .end, horizontal: c)], role: .alignment)
            }
        case .leading, .trailing, .center, .firstBaseline, .lastBaseline, .top, .bottom:
            let edge: StackTerm.Edge
            switch alignment {
            case .leading, .top: edge = .start
            case .trailing, .bottom: edge = .end
            case .center: edge = .middle
            case .firstBaseline: edge = .firstBaseline
            default: edge = .lastBaseline
            }
            if !alignment.isBaseline {
                addStackConstraint(&stack, [StackTerm(.view(first), edge, horizontal: c)], .equal,
                                   [StackTerm(.canvas, edge, horizontal: c)], role: .canvas)
            }
            for view in arranged.dropFirst() {
                addStackConstraint(&stack, [StackTerm(.view(view), edge, horizontal: c)], .equal,
                                   [StackTerm(.view(first), edge, horizontal: c)], role: .alignment)
            }
            addStackSpan(&stack)
        }
    }

    /// The spanning guide of a stack aligned other than `fill`: around the visible views
    /// (`==` at 999.5 on the aligned edge), pinned to the canvas's free edges, as short
    /// as it can be (51), and each arranged view as short as it can be across the axis (25).
    private mutating func addStackSpan(_ stack: inout StackBuild) {
        let c = !stack.horizontal
        let alignment = stack.alignment
        let packsStart = alignment == .leading || alignment.isBaseline
        let packsEnd = alignment == .trailing
        for position in stack.visible {
            let view = stack.arranged[position]
            addStackConstraint(&stack, [StackTerm(.span, .start, horizontal: c)], packsStart ? .equal : .lessThanOrEqual,
                               [StackTerm(.view(view), .start, horizontal: c)], priority: packsStart ? 999.5 : 1000, role: .span)
            if packsStart && alignment.isBaseline {
                addStackConstraint(&stack, [StackTerm(.span, .start, horizontal: c)], .lessThanOrEqual,
                                   [StackTerm(.view(view), .start, horizontal: c)], role: .span)
            }
            addStackConstraint(&stack, [StackTerm(.span, .end, horizontal: c)], packsEnd ? .equal : .greaterThanOrEqual,
                               [StackTerm(.view(view), .end, horizontal: c)], priority: packsEnd ? 999.5 : 1000, role: .span)
        }
        if alignment != .leading {
            addStackConstraint(&stack, [StackTerm(.span, .start, horizontal: c)], .equal,
                               [StackTerm(.canvas, .start, horizontal: c)], role: .canvas)
        }
        if alignment != .trailing {
            addStackConstraint(&stack, [StackTerm(.span, .end, horizontal: c)], .equal,
                               [StackTerm(.canvas, .end, horizontal: c)], role: .canvas)
        }
        addStackConstraint(&stack, [StackTerm(.span, .length, horizontal: c)], .equal, [], priority: 51, role: .spanFit)
        for view in stack.arranged {
            addStackConstraint(&stack, [StackTerm(.view(view), .length, horizontal: c)], .equal, [], priority: 25,
                               role: .ambiguitySuppression)
        }
    }

    /// The view whose baseline stands for `view`'s first (`first`) or last baseline in a
    /// stack constraint (baseline alignment, `baselineRelative` spacing): `view` itself
    /// unless it is a stack view without a baseline of its own (`firstBaseline`/`baseline`
    /// for the first, `baseline` for the last); such a stack forwards to its first
    /// (last) visible arranged view, recursively, as UIKit's `UIStackView` answers
    /// `forFirstBaselineLayout` (`forLastBaselineLayout`) with its first (last) arranged
    /// view's (vertical stacks). A horizontal stack forwards the same way: UIKit answers
    /// with its tallest arranged view, which depends on the solution and so cannot choose
    /// a linear constraint; with a baseline alignment the two agree. A stack with no visible arranged view
    /// forwards nowhere (its own bottom then). Tests: `StackViewTests.nestedStackForwardsItsFirstArrangedViewsFirstBaseline` and its neighbours.
    /// - Complexity: O(depth × arranged views); the decoder rejects arrangement cycles,
    ///   and the walk is bounded by the number of views besides.
    func stackBaselineView(_ view: Int, first: Bool) -> Int {
        var current = view
        for _ in 0..<scene.views.count {
            let spec = scene.spec(ofView: current)
            let own = first ? spec.firstBaseline ?? spec.baseline : spec.baseline
            guard own == nil, let stack = spec.stack else { return current }
            let candidates = first ? Array(stack.arranged) : stack.arranged.reversed()
            guard let next = candidates.lazy.compactMap({ self.hierarchy.index(of: $0) })
                .first(where: { $0 > 0 && !self.scene.spec(ofView: $0).isHidden }) else { return current }
            current = next
        }
        return current
    }

    /// `term`'s attribute as an equation writes it: `leading`, `topMargin`, `firstBaseline`.
    private func stackAttributeName(_ term: StackTerm, marginsRelative: Bool) -> String {
        let name: String
        switch term.edge {
        case .start: name = term.horizontal ? "leading" : "top"
        case .end: name = term.horizontal ? "trailing" : "bottom"
        case .middle: name = term.horizontal ? "centerX" : "centerY"
        case .length: name = term.horizontal ? "width" : "height"
        case .firstBaseline: return "firstBaseline"
        case .lastBaseline: return "lastBaseline"
        }
        guard case .canvas = term.item, marginsRelative else { return name }
        return term.edge == .middle ? name + "WithinMargins" : name + "Margin"
    }

    /// `term` (without its coefficient) as `Σ coefficient · variable + constant` over
    /// absolute positions. Along a horizontal axis under right-to-left the positions are
    /// negated (`leading` is `−right`), so every stack constraint mirrors; a difference
    /// of two such positions is the distance toward the trailing side.
    private func stackTermForm(_ term: StackTerm, stack: Int, spec: StackSpec, spanGuide: Int)
        -> (terms: [(Variable, Double)], constant: Double) {
        let horizontal = term.horizontal
        let origin: Variable
        let size: Variable
        switch term.item {
        case .view(let view):
            origin = horizontal ? hierarchy.xVariable(view) : hierarchy.yVariable(view)
            size = horizontal ? hierarchy.widthVariable(view) : hierarchy.heightVariable(view)
        case .canvas, .stack:
            origin = horizontal ? hierarchy.xVariable(stack) : hierarchy.yVariable(stack)
            size = horizontal ? hierarchy.widthVariable(stack) : hierarchy.heightVariable(stack)
        case .span:
            origin = FrameField.origin(of: spanGuide, horizontal: horizontal).stackGuideVariable
            size = FrameField.size(of: spanGuide, horizontal: horizontal).stackGuideVariable
        case .gap(let index, _, _):
            origin = FrameField.origin(of: index, horizontal: horizontal).stackGuideVariable
            size = FrameField.size(of: index, horizontal: horizontal).stackGuideVariable
        }
        let sign = horizontal && isRightToLeft ? -1.0 : 1.0
        var terms: [(Variable, Double)]
        var constant = 0.0
        switch term.edge {
        case .start: terms = sign > 0 ? [(origin, 1)] : [(origin, -1), (size, -1)]
        case .end: terms = sign > 0 ? [(origin, 1), (size, 1)] : [(origin, -1)]
        case .middle: terms = [(origin, sign), (size, sign * 0.5)]
        case .length: terms = [(size, 1)]
        case .firstBaseline, .lastBaseline:
            terms = [(origin, 1), (size, 1)]
            if case .view(let view) = term.item {
                let spec = scene.spec(ofView: view)
                let offset = term.edge == .firstBaseline ? spec.firstBaseline ?? spec.baseline : spec.baseline
                if let offset { terms = [(origin, 1)]; constant = offset }
            }
        }
        if case .canvas = term.item, spec.layoutMarginsRelative, term.edge != .length {
            let margins = scene.spec(ofView: stack).margins
            let marginStart = horizontal ? (isRightToLeft ? margins.right : margins.left) : margins.top
            let marginEnd = horizontal ? (isRightToLeft ? margins.left : margins.right) : margins.bottom
            // Margins are measured from the frame, the stack's alignment insets outside its variables.
            let inset = alignmentInsets(of: stack) ?? .zero
            let insetStart = horizontal ? (isRightToLeft ? inset.right : inset.left) : inset.top
            let insetEnd = horizontal ? (isRightToLeft ? inset.left : inset.right) : inset.bottom
            switch term.edge {
            case .start: constant += marginStart - insetStart
            case .end: constant -= marginEnd - insetEnd
            case .middle: constant += (marginStart - insetStart - marginEnd + insetEnd) / 2
            default: break
            }
        }
        return (terms, constant)
    }

    /// Records that the constraint being added mentions the view and axis of `origin`
    /// (once).
    private mutating func noteMention(_ origin: FrameField) {
        let key = origin.key
        if !pendingMentions.contains(key) { pendingMentions.append(key) }
    }
}

extension CompiledScene {
    /// Xcode's "content priority ambiguity", for a tie of only hugging (or only
    /// compression-resistance) constraints of one axis between arranged views of one
    /// stack: `Content priority ambiguity in stack 'row': 'a' and 'b' have the same
    /// horizontal hugging priority (250)`. `nil` for any other tie.
    ///
    /// This is the tie UIKit leaves to the arranged views' order when a `fill` stack
    /// stretches (hugging) or shrinks (compression resistance); contract, "Stack views".
    /// - Complexity: O(tied + arranged views of that stack).
    func contentPriorityAmbiguityNote(_ tied: [ConstraintRef]) -> String? {
        var views: [String] = []
        var kind = ""
        for ref in tied {
            guard case .implicit(let name) = ref.key else { return nil }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1] == "hugging" || parts[1] == "compressionResistance" else { return nil }
            let refKind = parts[1] + "." + parts[2]
            if kind.isEmpty { kind = String(refKind) } else if kind != refKind { return nil }
            let view = String(parts[0])
            if !views.contains(view) { views.append(view) }
        }
        guard views.count >= 2, let first = hierarchy.index(of: views[0]), first > 0 else { return nil }
        let stackIndex = hierarchy.parents[first]
        guard stackIndex > 0, let stack = scene.spec(ofView: stackIndex).stack, stack.distribution == .fill else { return nil }
        let arranged = Set(stack.arranged)   // membership only
        guard views.allSatisfy({ arranged.contains($0) && hierarchy.index(of: $0).map { hierarchy.parents[$0] == stackIndex } == true }) else { return nil }
        let axis = kind.hasSuffix("horizontal") ? "horizontal" : "vertical"
        let what = kind.hasPrefix("hugging") ? "hugging" : "compression resistance"
        let spec = scene.spec(ofView: first)
        let priority = kind.hasPrefix("hugging") ? (axis == "horizontal" ? spec.hugging.horizontal : spec.hugging.vertical)
            : (axis == "horizontal" ? spec.compressionResistance.horizontal : spec.compressionResistance.vertical)
        let named = views.prefix(4).map { "'\($0)'" }
        let list = named.count == 2 ? named.joined(separator: " and ")
            : named.dropLast().joined(separator: ", ") + " and " + named[named.count - 1] + (views.count > 4 ? " (and \(views.count - 4) more)" : "")
        return "Content priority ambiguity in stack '\(scene.spec(ofView: stackIndex).name)': \(list) have the same \(axis) \(what) priority (\(JSONWriter.format(priority))); UIKit leaves the tie to their order"
    }
}
