import LayoutCompiler
import LayoutSyntax
import Testing

/// A stack compiled to constraints lays out as the same constraints
/// written out by hand as equations, for random small stacks (seeded, so every run
/// draws the same ones).
///
/// The hand-written scene has the same views with the stack as their `parent` and no
/// `stack` member. The internal guides cannot be written in an equation, so each guide
/// constraint is written as what it amounts to once the guide is eliminated: a
/// distributing guide is the gap between its two views (`c.leading - b.trailing ==
/// b.leading - a.trailing`); the spanning guide is the canvas across the axis wherever
/// the canvas is pinned to it (its edges `<=`/`>=` the views' become the canvas's, its
/// fit at 51 the canvas's length), and its `== @999.5` edge is free to meet the views
/// (they all share that edge), so it holds and is left out.
struct StackPropertyTests {
    /// SplitMix64 (Steele, Lea & Flood 2014): a small deterministic generator.
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    }

    struct ArrangedView {
        var name: String
        var main: Int?
        var cross: Int
        var hidden: Bool
        var firstBaseline: Int
        var baseline: Int
    }

    /// A random stack scene: the `stack` form and the hand-written form.
    static func scenes(seed: UInt64) -> (stack: String, hand: String) {
        var random = SplitMix64(state: seed)
        let stack = RandomStack(&random)
        return (stack.sceneJSON(stackMember: true, constraints: stack.position),
                stack.sceneJSON(stackMember: false, constraints: stack.handWritten() + stack.position))
    }

    /// One random stack: every choice drawn from the generator in a fixed order, so a
    /// seed always gives the same stack.
    struct RandomStack {
        let horizontal: Bool
        let distribution: StackSpec.Distribution
        let alignment: StackSpec.Alignment
        /// `equalSpacing` or `equalCentering`.
        let equal: Bool
        let spacing: Int
        let views: [ArrangedView]
        /// Custom spacing after a view, by name.
        let custom: [String: Int]
        let marginsRelative: Bool
        let margins: (top: Int, left: Int, bottom: Int, right: Int)
        let baselineRelative: Bool
        /// The stack's length along (main) and across (cross) the axis when pinned.
        let mainPinned: Int?
        let crossPinned: Int?
        /// Attribute names along (main) and across (cross) the axis.
        let main: (start: String, end: String, middle: String, length: String)
        let cross: (start: String, end: String, middle: String, length: String)

        init(_ random: inout SplitMix64) {
            horizontal = random.chance(50)
            let distributions: [StackSpec.Distribution] = [.fill, .fillEqually, .fillProportionally, .equalSpacing, .equalCentering]
            distribution = distributions[random.int(0...4)]
            let alignments: [StackSpec.Alignment] = horizontal ? [.fill, .leading, .center, .trailing, .firstBaseline, .lastBaseline]
                                                               : [.fill, .leading, .center, .trailing]
            alignment = alignments[random.int(0...(alignments.count - 1))]
            equal = distribution == .equalSpacing || distribution == .equalCentering
            spacing = equal ? random.int(0...12) : random.int(-4...12)
            let count = random.int(1...4)
            var views: [ArrangedView] = []
            for index in 0..<count {
                let cross = random.int(10...50)
                views.append(ArrangedView(name: "v\(index)", main: random.chance(85) ? random.int(10...80) : nil, cross: cross,
                                          hidden: random.chance(25), firstBaseline: random.int(0...cross), baseline: random.int(0...cross)))
            }
            self.views = views
            var custom: [String: Int] = [:]
            if random.chance(30) { custom[views[random.int(0...(count - 1))].name] = random.int(0...20) }
            self.custom = custom
            marginsRelative = random.chance(30)
            margins = (top: random.int(0...10), left: random.int(0...10), bottom: random.int(0...10), right: random.int(0...10))
            baselineRelative = !horizontal && random.chance(30)
            mainPinned = random.chance(60) ? random.int(150...400) : nil
            crossPinned = random.chance(50) ? random.int(40...120) : nil
            main = horizontal ? ("leading", "trailing", "centerX", "width") : ("top", "bottom", "centerY", "height")
            cross = horizontal ? ("top", "bottom", "centerY", "height") : ("leading", "trailing", "centerX", "width")
        }

        var visible: [ArrangedView] { views.filter { !$0.hidden } }

        /// The stack's edge (or margin, when `layoutMarginsRelative`) as an equation term.
        func canvas(_ attribute: String) -> String {
            guard marginsRelative else { return "s." + attribute }
            return attribute.hasPrefix("center") ? "s.\(attribute)WithinMargins" : "s.\(attribute)Margin"
        }

        func spacingAfter(_ view: ArrangedView) -> Int { custom[view.name] ?? spacing }

        /// ` + 4`, ` - 2.5`: a constant added on the right side.
        func plus(_ value: Double) -> String { value < 0 ? " - \(-value)" : " + \(value)" }

        /// The stack's constraints written by hand, in the compiler's order: along the
        /// axis, the distribution, hidden views, alignment.
        func handWritten() -> [String] {
            axis() + distributionConstraints() + hiding() + alignmentConstraints()
        }

        /// The canvas connections and the spacing between visible views.
        func axis() -> [String] {
            var hand: [String] = []
            let visible = visible
            if let first = visible.first, let last = visible.last {
                hand.append("\(first.name).\(main.start) == \(canvas(main.start))")
                hand.append("\(last.name).\(main.end) == \(canvas(main.end))")
            }
            let relation = equal ? ">=" : "=="
            for (previous, next) in zip(visible, visible.dropFirst()) {
                if baselineRelative {
                    hand.append("\(next.name).firstBaseline \(relation) \(previous.name).lastBaseline\(plus(Double(spacingAfter(previous))))")
                } else {
                    hand.append("\(next.name).\(main.start) \(relation) \(previous.name).\(main.end)\(plus(Double(spacingAfter(previous))))")
                }
            }
            return hand
        }

        func distributionConstraints() -> [String] {
            var hand: [String] = []
            let visible = visible
            switch distribution {
            case .fill:
                break
            case .fillEqually:
                for view in visible.dropFirst() { hand.append("\(view.name).\(main.length) == \(visible[0].name).\(main.length)") }
            case .fillProportionally:
                var total = Double(visible.reduce(0) { $0 + ($1.main ?? 0) })
                for previous in visible.dropLast() { total += Double(spacingAfter(previous)) }
                if total > 0 {
                    for (order, view) in visible.enumerated() {
                        let share = Double(view.main ?? 0) / total
                        let right = share == 0 ? "0" : "\(share) * s.\(main.length)"
                        hand.append("\(view.name).\(main.length) == \(right) @\(999 - order)")
                    }
                }
            case .equalSpacing, .equalCentering:
                let pairs = Array(zip(visible, visible.dropFirst()))
                func gap(_ pair: (ArrangedView, ArrangedView)) -> String {
                    distribution == .equalSpacing ? "\(pair.1.name).\(main.start) - \(pair.0.name).\(main.end)"
                        : "\(pair.1.name).\(main.middle) - \(pair.0.name).\(main.middle)"
                }
                for pair in pairs.dropFirst() {
                    hand.append("\(gap(pair)) == \(gap(pairs[0]))" + (distribution == .equalCentering ? " @150" : ""))
                }
                hand.append("s.\(main.length) == 0 @49")
            }
            return hand
        }

        func hiding() -> [String] {
            var hand: [String] = []
            for (index, view) in views.enumerated() where view.hidden {
                hand.append("\(view.name).\(main.length) == 0")
                let previous = views[..<index].last { !$0.hidden }
                let next = views[(index + 1)...].first { !$0.hidden }
                switch (previous, next) {
                case let (previous?, next?):
                    if equal {
                        hand.append("\(view.name).\(main.start) == 0.5 * \(previous.name).\(main.end) + 0.5 * \(next.name).\(main.start)")
                    } else {
                        // Halved as the visible spacing is measured (baseline to baseline on a
                        // baselineRelative stack).
                        let from = baselineRelative ? "lastBaseline" : main.end
                        hand.append("\(view.name).\(main.start) == \(previous.name).\(from)\(plus(Double(spacingAfter(previous)) / 2))")
                    }
                case (nil, _?):
                    hand.append("\(view.name).\(main.start) == \(canvas(main.start))")
                case (_?, nil):
                    hand.append("\(view.name).\(main.end) == \(canvas(main.end))")
                case (nil, nil):
                    hand.append("\(view.name).\(main.start) == \(canvas(main.start))")
                    hand.append("\(view.name).\(main.end) == \(canvas(main.end))")
                }
            }
            return hand
        }

        func alignmentConstraints() -> [String] {
            var hand: [String] = []
            let first = views[0].name
            let fit = "\(canvas(cross.end)) - \(canvas(cross.start)) == 0 @51"
            switch alignment {
            case .fill:
                hand.append("\(first).\(cross.start) == \(canvas(cross.start))")
                hand.append("\(first).\(cross.end) == \(canvas(cross.end))")
                for view in views.dropFirst() {
                    hand.append("\(view.name).\(cross.start) == \(first).\(cross.start)")
                    hand.append("\(view.name).\(cross.end) == \(first).\(cross.end)")
                }
            default:
                let edge: String
                switch alignment {
                case .leading: edge = cross.start
                case .trailing: edge = cross.end
                case .center: edge = cross.middle
                default: edge = alignment.rawValue
                }
                if !alignment.isBaseline { hand.append("\(first).\(edge) == \(canvas(edge))") }
                for view in views.dropFirst() { hand.append("\(view.name).\(edge) == \(first).\(edge)") }
                let visible = visible
                for view in visible {
                    if alignment.isBaseline { hand.append("\(canvas(cross.start)) == \(view.name).\(cross.start) @999.5") }
                    if alignment != .leading { hand.append("\(canvas(cross.start)) <= \(view.name).\(cross.start)") }
                    if alignment != .trailing { hand.append("\(canvas(cross.end)) >= \(view.name).\(cross.end)") }
                }
                if !visible.isEmpty || alignment == .center || alignment.isBaseline { hand.append(fit) }
                for view in views { hand.append("\(view.name).\(cross.length) == 0 @25") }
            }
            return hand
        }

        /// The stack placed in the container, with its pinned lengths.
        var position: [String] {
            var position = ["s.left == 10", "s.top == 10"]
            if let mainPinned { position.append("s.\(main.length) == \(mainPinned)") }
            if let crossPinned { position.append("s.\(cross.length) == \(crossPinned)") }
            return position
        }

        func viewJSON(_ view: ArrangedView, index: Int, parent: Bool) -> String {
            let (mainName, crossName) = horizontal ? ("width", "height") : ("height", "width")
            var size = "\"\(crossName)\":\(view.cross)"
            if let main = view.main { size += ",\"\(mainName)\":\(main)" }
            let axisName = horizontal ? "horizontal" : "vertical"
            let crossAxisName = horizontal ? "vertical" : "horizontal"
            return "\"\(view.name)\":{\"intrinsicSize\":{\(size)},\"hidden\":\(view.hidden)"
                + ",\"hugging\":{\"\(axisName)\":\(240 + 3 * index),\"\(crossAxisName)\":\(245 + 3 * index)}"
                + ",\"compressionResistance\":{\"\(axisName)\":\(740 + 3 * index),\"\(crossAxisName)\":\(745 + 3 * index)}"
                + ",\"firstBaseline\":\(view.firstBaseline),\"baseline\":\(view.baseline)"
                + (parent ? ",\"parent\":\"s\"" : "") + "}"
        }

        /// The scene: the stack view `s` (with its `stack` member when `stackMember`, else
        /// as the arranged views' parent) and `constraints`.
        func sceneJSON(stackMember: Bool, constraints: [String]) -> String {
            let marginsJSON = "\"margins\":{\"top\":\(margins.top),\"left\":\(margins.left),\"bottom\":\(margins.bottom),\"right\":\(margins.right)}"
            let customJSON = custom.keys.sorted().map { "\"\($0)\":\(custom[$0]!)" }.joined(separator: ",")
            let stackJSON = "\"stack\":{\"axis\":\"\(horizontal ? "horizontal" : "vertical")\",\"distribution\":\"\(distribution.rawValue)\","
                + "\"alignment\":\"\(alignment.rawValue)\",\"spacing\":\(spacing),\"customSpacing\":{\(customJSON)},"
                + "\"layoutMarginsRelative\":\(marginsRelative),\"baselineRelative\":\(baselineRelative),"
                + "\"arranged\":[\(views.map { "\"\($0.name)\"" }.joined(separator: ","))]}"
            let arranged = views.enumerated().map { viewJSON($1, index: $0, parent: !stackMember) }.joined(separator: ",")
            let quoted = constraints.map { "\"\($0)\"" }.joined(separator: ",")
            return "{\"container\":{\"width\":500,\"height\":500},\"views\":{\"s\":{\(marginsJSON)\(stackMember ? "," + stackJSON : "")},\(arranged)},"
                + "\"constraints\":[\(quoted)]}"
        }
    }

    static let seeds: [UInt64] = Array(1...120)

    @Test("a stack lays out as its constraints written by hand", arguments: seeds)
    func stackEqualsHandWrittenConstraints(_ seed: UInt64) throws {
        let (stackJSON, handJSON) = Self.scenes(seed: seed)
        let (_, stacked) = try layout(stackJSON)
        let (_, hand) = try layout(handJSON)
        func ambiguousFields(_ layout: Layout) -> [String] {
            layout.diagnostics.filter { $0.code == .ambiguousLayout }.map { "\($0.view ?? "").\($0.attribute ?? "")" }.sorted()
        }
        let ambiguous = ambiguousFields(stacked)
        #expect(ambiguous == ambiguousFields(hand), "seed \(seed): \(stackJSON)\n\(handJSON)")
        let stackedCodes: [String] = stacked.diagnostics.map(\.code.rawValue).sorted()
        let handCodes: [String] = hand.diagnostics.map(\.code.rawValue).sorted()
        #expect(stackedCodes == handCodes, "seed \(seed): \(stacked.diagnostics.map(\.message)) vs \(hand.diagnostics.map(\.message))")
        // Ambiguous fields are one solution of many, which may differ: the others must agree.
        for ((name, a), (_, b)) in zip(stacked.frames, hand.frames) {
            for (field, x, y) in [("x", a.x, b.x), ("y", a.y, b.y), ("width", a.width, b.width), ("height", a.height, b.height)]
            where !ambiguous.contains("\(name).\(field)") {
                #expect(abs(x - y) < 1e-6, "seed \(seed): \(name).\(field) \(x) vs \(y)\n\(stackJSON)\n\(handJSON)")
            }
        }
    }
}
