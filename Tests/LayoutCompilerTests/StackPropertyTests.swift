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
        let horizontal = random.chance(50)
        let distributions: [StackSpec.Distribution] = [.fill, .fillEqually, .fillProportionally, .equalSpacing, .equalCentering]
        let distribution = distributions[random.int(0...4)]
        let alignments: [StackSpec.Alignment] = horizontal ? [.fill, .leading, .center, .trailing, .firstBaseline, .lastBaseline]
                                                           : [.fill, .leading, .center, .trailing]
        let alignment = alignments[random.int(0...(alignments.count - 1))]
        let equal = distribution == .equalSpacing || distribution == .equalCentering
        let spacing = equal ? random.int(0...12) : random.int(-4...12)
        let count = random.int(1...4)
        var views: [ArrangedView] = []
        for index in 0..<count {
            let cross = random.int(10...50)
            views.append(ArrangedView(name: "v\(index)", main: random.chance(85) ? random.int(10...80) : nil, cross: cross,
                                      hidden: random.chance(25), firstBaseline: random.int(0...cross), baseline: random.int(0...cross)))
        }
        var custom: [String: Int] = [:]
        if random.chance(30) { custom[views[random.int(0...(count - 1))].name] = random.int(0...20) }
        let marginsRelative = random.chance(30)
        let margins = (top: random.int(0...10), left: random.int(0...10), bottom: random.int(0...10), right: random.int(0...10))
        let baselineRelative = !horizontal && random.chance(30)
        let mainPinned = random.chance(60) ? random.int(150...400) : nil
        let crossPinned = random.chance(50) ? random.int(40...120) : nil

        // Attribute names along (main) and across (cross) the axis.
        let (mStart, mEnd, mMiddle, mLength) = horizontal ? ("leading", "trailing", "centerX", "width") : ("top", "bottom", "centerY", "height")
        let (cStart, cEnd, cMiddle, cLength) = horizontal ? ("top", "bottom", "centerY", "height") : ("leading", "trailing", "centerX", "width")
        func canvas(_ attribute: String) -> String {
            guard marginsRelative else { return "s." + attribute }
            return attribute.hasPrefix("center") ? "s.\(attribute)WithinMargins" : "s.\(attribute)Margin"
        }
        func spacingAfter(_ view: ArrangedView) -> Int { custom[view.name] ?? spacing }
        /// ` + 4`, ` - 2.5`: a constant added on the right side.
        func plus(_ value: Double) -> String { value < 0 ? " - \(-value)" : " + \(value)" }

        var hand: [String] = []
        let visible = views.filter { !$0.hidden }
        if let first = visible.first, let last = visible.last {
            hand.append("\(first.name).\(mStart) == \(canvas(mStart))")
            hand.append("\(last.name).\(mEnd) == \(canvas(mEnd))")
        }
        let relation = equal ? ">=" : "=="
        for (previous, next) in zip(visible, visible.dropFirst()) {
            if baselineRelative {
                hand.append("\(next.name).firstBaseline \(relation) \(previous.name).lastBaseline\(plus(Double(spacingAfter(previous))))")
            } else {
                hand.append("\(next.name).\(mStart) \(relation) \(previous.name).\(mEnd)\(plus(Double(spacingAfter(previous))))")
            }
        }
        switch distribution {
        case .fill:
            break
        case .fillEqually:
            for view in visible.dropFirst() { hand.append("\(view.name).\(mLength) == \(visible[0].name).\(mLength)") }
        case .fillProportionally:
            var total = Double(visible.reduce(0) { $0 + ($1.main ?? 0) })
            for previous in visible.dropLast() { total += Double(spacingAfter(previous)) }
            if total > 0 {
                for (order, view) in visible.enumerated() {
                    let share = Double(view.main ?? 0) / total
                    let right = share == 0 ? "0" : "\(share) * s.\(mLength)"
                    hand.append("\(view.name).\(mLength) == \(right) @\(999 - order)")
                }
            }
        case .equalSpacing, .equalCentering:
            let pairs = Array(zip(visible, visible.dropFirst()))
            func gap(_ pair: (ArrangedView, ArrangedView)) -> String {
                distribution == .equalSpacing ? "\(pair.1.name).\(mStart) - \(pair.0.name).\(mEnd)"
                    : "\(pair.1.name).\(mMiddle) - \(pair.0.name).\(mMiddle)"
            }
            for pair in pairs.dropFirst() {
                hand.append("\(gap(pair)) == \(gap(pairs[0]))" + (distribution == .equalCentering ? " @150" : ""))
            }
            hand.append("s.\(mLength) == 0 @49")
        }
        for (index, view) in views.enumerated() where view.hidden {
            hand.append("\(view.name).\(mLength) == 0")
            let previous = views[..<index].last { !$0.hidden }
            let next = views[(index + 1)...].first { !$0.hidden }
            switch (previous, next) {
            case let (previous?, next?):
                if equal {
                    hand.append("\(view.name).\(mStart) == 0.5 * \(previous.name).\(mEnd) + 0.5 * \(next.name).\(mStart)")
                } else {
                    // Halved as the visible spacing is measured (baseline to baseline on a
                    // baselineRelative stack).
                    let from = baselineRelative ? "lastBaseline" : mEnd
                    hand.append("\(view.name).\(mStart) == \(previous.name).\(from)\(plus(Double(spacingAfter(previous)) / 2))")
                }
            case (nil, _?):
                hand.append("\(view.name).\(mStart) == \(canvas(mStart))")
            case (_?, nil):
                hand.append("\(view.name).\(mEnd) == \(canvas(mEnd))")
            case (nil, nil):
                hand.append("\(view.name).\(mStart) == \(canvas(mStart))")
                hand.append("\(view.name).\(mEnd) == \(canvas(mEnd))")
            }
        }
        let first = views[0].name
        let fit = "\(canvas(cEnd)) - \(canvas(cStart)) == 0 @51"
        switch alignment {
        case .fill:
            hand.append("\(first).\(cStart) == \(canvas(cStart))")
            hand.append("\(first).\(cEnd) == \(canvas(cEnd))")
            for view in views.dropFirst() {
                hand.append("\(view.name).\(cStart) == \(first).\(cStart)")
                hand.append("\(view.name).\(cEnd) == \(first).\(cEnd)")
            }
        default:
            let edge: String
            switch alignment {
            case .leading: edge = cStart
            case .trailing: edge = cEnd
            case .center: edge = cMiddle
            default: edge = alignment.rawValue
            }
            if !alignment.isBaseline { hand.append("\(first).\(edge) == \(canvas(edge))") }
            for view in views.dropFirst() { hand.append("\(view.name).\(edge) == \(first).\(edge)") }
            for view in visible {
                if alignment.isBaseline { hand.append("\(canvas(cStart)) == \(view.name).\(cStart) @999.5") }
                if alignment != .leading { hand.append("\(canvas(cStart)) <= \(view.name).\(cStart)") }
                if alignment != .trailing { hand.append("\(canvas(cEnd)) >= \(view.name).\(cEnd)") }
            }
            if !visible.isEmpty || alignment == .center || alignment.isBaseline { hand.append(fit) }
            for view in views { hand.append("\(view.name).\(cLength) == 0 @25") }
        }

        // The two scenes.
        var position = ["s.left == 10", "s.top == 10"]
        if let mainPinned { position.append("s.\(mLength) == \(mainPinned)") }
        if let crossPinned { position.append("s.\(cLength) == \(crossPinned)") }
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
        let marginsJSON = "\"margins\":{\"top\":\(margins.top),\"left\":\(margins.left),\"bottom\":\(margins.bottom),\"right\":\(margins.right)}"
        let customJSON = custom.keys.sorted().map { "\"\($0)\":\(custom[$0]!)" }.joined(separator: ",")
        let stackJSON = "\"stack\":{\"axis\":\"\(horizontal ? "horizontal" : "vertical")\",\"distribution\":\"\(distribution.rawValue)\","
            + "\"alignment\":\"\(alignment.rawValue)\",\"spacing\":\(spacing),\"customSpacing\":{\(customJSON)},"
            + "\"layoutMarginsRelative\":\(marginsRelative),\"baselineRelative\":\(baselineRelative),"
            + "\"arranged\":[\(views.map { "\"\($0.name)\"" }.joined(separator: ","))]}"
        func scene(stackMember: Bool, constraints: [String]) -> String {
            let arranged = views.enumerated().map { viewJSON($1, index: $0, parent: !stackMember) }.joined(separator: ",")
            let quoted = constraints.map { "\"\($0)\"" }.joined(separator: ",")
            return "{\"container\":{\"width\":500,\"height\":500},\"views\":{\"s\":{\(marginsJSON)\(stackMember ? "," + stackJSON : "")},\(arranged)},"
                + "\"constraints\":[\(quoted)]}"
        }
        return (scene(stackMember: true, constraints: position), scene(stackMember: false, constraints: hand + position))
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
