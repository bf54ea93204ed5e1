import LayoutCompiler

/// One layout measured for drawing: its frames relative to the container, its bounds,
/// its guides, and what its diagnostics say about each view.
extension WireframeRenderer {
    /// What the diagnostics say about one view: the messages of its tooltip, whether a
    /// conflict names it, its ambiguous fields (`x`, `y`, `width`, `height`, in that
    /// order), and whether a size is negative.
    struct Mark {
        var messages: [String] = []
        var conflict = false
        var ambiguous: [String] = []
        var negative = false
    }

    /// One layout measured for drawing: reported and absolute frames, bounds, the marks
    /// of each view (indices as in ``ViewHierarchy``) and the guides.
    struct Panel {
        var reported: [Box]
        var absolute: [Box]
        var marks: [Mark]
        var guides: [Guide]
        /// The guides' rectangles relative to the container's origin.
        var guideBoxes: [Box]
        var bounds: Bounds
        var isRejected: Bool
        /// The first error's message of a rejected layout.
        var rejection: String
        /// Whether each view is a stack view (drawn dashed, class `stack`).
        var isStack: [Bool]
        /// The labels' text drawn in this panel (``writeTexts(_:into:)``), name order.
        var texts: [PanelText] = []

        init(layout: Layout, compiled: CompiledScene, hierarchy: ViewHierarchy, marks: [Mark], guides: [Guide],
             texts drawn: [DrawnLabel] = []) {
            let count = hierarchy.count
            reported = (0..<count).map { index in
                index < layout.frames.count ? WireframeRenderer.finite(layout.frames[index].frame) : Box(x: 0, y: 0, width: 0, height: 0)
            }
            let relativeToRoot = compiled.scene.options.coordinates == .root
            absolute = WireframeRenderer.absoluteFrames(reported, hierarchy: hierarchy, relativeToRoot: relativeToRoot)
            self.marks = marks
            isRejected = layout.isRejected
            rejection = layout.diagnostics.first(where: \.isError)?.message ?? "rejected"
            self.guides = isRejected ? [] : guides
            let owners = absolute
            guideBoxes = self.guides.map { guide in
                var box = Box(x: finiteOrZero(guide.x), y: finiteOrZero(guide.y),
                              width: finiteOrZero(guide.width), height: finiteOrZero(guide.height))
                if !relativeToRoot && owners.indices.contains(guide.owner) {
                    box.x += owners[guide.owner].x
                    box.y += owners[guide.owner].y
                }
                return box
            }
            isStack = [false] + compiled.scene.views.map { $0.stack != nil }
            if !isRejected {
                let absolute = self.absolute
                let rightToLeft = compiled.scene.options.layoutDirection == .rightToLeft
                // A hidden label (or one in a hidden view) is laid out but not drawn, as UIKit.
                func isShown(_ view: Int) -> Bool {
                    var current = view, steps = 0
                    while current > 0 && current <= compiled.scene.views.count && steps <= count {
                        if compiled.scene.views[current - 1].isHidden { return false }
                        current = hierarchy.parents[current]
                        steps += 1
                    }
                    return true
                }
                texts = drawn.compactMap { label in
                    guard let view = hierarchy.index(of: label.name), view < count, isShown(view) else { return nil }
                    return PanelText(frame: normalized(absolute[view]), label: label, rightToLeft: rightToLeft)
                }
            }
            var bounds = Bounds(minX: 0, minY: 0, maxX: finiteOrZero(layout.containerWidth), maxY: finiteOrZero(layout.containerHeight))
            if !layout.isRejected {
                for frame in absolute + guideBoxes {
                    let drawn = WireframeRenderer.normalized(frame)
                    bounds.minX = min(bounds.minX, drawn.x)
                    bounds.minY = min(bounds.minY, drawn.y)
                    bounds.maxX = max(bounds.maxX, drawn.x + drawn.width)
                    bounds.maxY = max(bounds.maxY, drawn.y + drawn.height)
                }
            }
            self.bounds = bounds
        }
    }

    /// A label's text as drawn in a panel: its frame relative to the container's origin
    /// (points, sizes ≥ 0), its lines, and its alignment: UILabel's default, natural
    /// (`NSTextAlignment.natural`: left in a left-to-right layout, right under
    /// `layoutDirection: rightToLeft`).
    struct PanelText {
        var frame: Box
        var label: DrawnLabel
        var rightToLeft = false

        /// Where a line of `width` points starts, points from the container's origin.
        func lineX(_ width: Double) -> Double {
            rightToLeft ? frame.x + frame.width - finiteOrZero(width) : frame.x
        }

        /// The width of the ellipsis of a truncated label, points (0 when not truncated).
        var ellipsis: Double {
            label.truncated ? WireframeRenderer.ellipsisWidth * finiteOrZero(label.size) : 0
        }

        /// The room a line has: the frame's width, less the ellipsis after the last line of a
        /// truncated label (never below 0).
        func room(endsTruncated: Bool) -> Double { max(0, frame.width - (endsTruncated ? ellipsis : 0)) }

        /// The part of a line of `width` points that is drawn: at most its room.
        func shownWidth(_ width: Double, endsTruncated: Bool = false) -> Double {
            min(finiteOrZero(width), room(endsTruncated: endsTruncated))
        }

        /// The viewport a line of `width` points is cut to when it is wider than its room by
        /// more than the 10⁻⁶ points lines are fitted to (numbers are written to 6 places):
        /// the room's width at the line's start side (the left; under right-to-left, the
        /// frame's right), from the frame's top down as far as the frame or the drawn lines
        /// reach; `nil` when the line fits.
        func clipBox(_ width: Double, endsTruncated: Bool) -> Box? {
            let room = room(endsTruncated: endsTruncated)
            guard finiteOrZero(width) > room + 1e-6 else { return nil }
            return Box(x: rightToLeft ? frame.x + frame.width - room : frame.x, y: frame.y, width: room,
                       height: max(frame.height, Double(label.lines.count) * finiteOrZero(label.lineHeight)))
        }

        /// The box the drawn lines cover, points: from the frame's top, as wide as the drawn
        /// lines and the ellipsis reach (within the frame's width, or the ellipsis's when the frame is narrower), as tall as the drawn
        /// lines' line heights; `nil` without a drawn line.
        var inkBox: Box? {
            guard !label.lines.isEmpty else { return nil }
            let widest = min(label.lines.reduce(0) { max($0, shownWidth($1.width)) } + ellipsis, max(frame.width, ellipsis))
            let x = rightToLeft ? frame.x + frame.width - widest : frame.x
            return Box(x: x, y: frame.y, width: widest, height: Double(label.lines.count) * finiteOrZero(label.lineHeight))
        }
    }

    /// A rectangle in points, y down (``Frame`` has no public initializer outside its module).
    struct Box: Equatable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
    }

    struct Bounds {
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double
        var width: Double { maxX - minX }
        var height: Double { maxY - minY }
    }

    /// Each view's frame relative to the container: a view's reported frame plus its
    /// ancestors' offsets (under `coordinates: root` the reported frame already is).
    ///
    /// - Complexity: O(views); each view is resolved once, walking up to a resolved ancestor.
    static func absoluteFrames(_ reported: [Box], hierarchy: ViewHierarchy, relativeToRoot: Bool) -> [Box] {
        if relativeToRoot { return reported }
        var absolute = reported
        var isResolved = Array(repeating: false, count: reported.count)
        guard !reported.isEmpty else { return absolute }
        isResolved[0] = true
        for start in reported.indices where !isResolved[start] {
            var chain: [Int] = []
            var current = start
            // Parents form a tree rooted at 0 (validated by the decoder); the count
            // bound keeps a malformed hierarchy from looping.
            while !isResolved[current] && chain.count <= reported.count {
                chain.append(current)
                current = hierarchy.parents[current]
            }
            for view in chain.reversed() {
                let parent = absolute[hierarchy.parents[view]]
                absolute[view].x = reported[view].x + parent.x
                absolute[view].y = reported[view].y + parent.y
                isResolved[view] = true
            }
        }
        return absolute
    }

    /// What to show on each view: the messages of diagnostics naming it by `view`, and
    /// of conflicts whose broken or conflicting constraints mention `NAME.` in their
    /// text (in diagnostic order, each message once), with the conflict, ambiguity and
    /// negative-size marks.
    static func marks(_ diagnostics: [LayoutDiagnostic], hierarchy: ViewHierarchy) -> [Mark] {
        var marks = Array(repeating: Mark(), count: hierarchy.itemCount)
        // Membership only (never iterated): keeps a view in thousands of conflicts linear.
        var shown = Array(repeating: Set<String>(), count: hierarchy.itemCount)
        func add(_ message: String, to view: Int) {
            if shown[view].insert(message).inserted { marks[view].messages.append(message) }
        }
        for diagnostic in diagnostics {
            switch diagnostic.code {
            case .ambiguousLayout, .negativeSize:
                if let name = diagnostic.view, let view = hierarchy.index(of: name) {
                    add(diagnostic.message, to: view)
                    if diagnostic.code == .negativeSize {
                        marks[view].negative = true
                    } else if let field = diagnostic.attribute, !marks[view].ambiguous.contains(field) {
                        marks[view].ambiguous.append(field)
                        marks[view].ambiguous.sort { fieldOrder($0) < fieldOrder($1) }
                    }
                }
            case .unsatisfiableConstraints:
                var texts: [String] = []
                if let broken = diagnostic.broken { texts.append(broken.text) }
                texts += (diagnostic.conflicting ?? []).map(\.text)
                var seen = Set<Int>()
                for text in texts {
                    for name in referencedNames(in: text) {
                        if let view = hierarchy.index(of: name) { seen.insert(view) }
                    }
                }
                // Sorted: the order of a Set must not reach the output.
                for view in seen.sorted() {
                    add(diagnostic.message, to: view)
                    marks[view].conflict = true
                }
            default:
                if let name = diagnostic.view, let view = hierarchy.index(of: name) {
                    add(diagnostic.message, to: view)
                }
            }
        }
        return marks
    }

    private static func fieldOrder(_ field: String) -> Int {
        ["x", "y", "width", "height"].firstIndex(of: field) ?? 4
    }

    /// Identifiers followed by `.` in a constraint's text (`red` and `superview` in
    /// `red.leading == superview.leading + 20`), in order of appearance.
    static func referencedNames(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        var names: [String] = []
        var index = 0
        while index < scalars.count {
            guard isIdentifierScalar(scalars[index]) else { index += 1; continue }
            let start = index
            while index < scalars.count && isIdentifierScalar(scalars[index]) { index += 1 }
            let followsDot = start > 0 && scalars[start - 1] == "."
            let precedesDot = index < scalars.count && scalars[index] == "."
            if !followsDot && precedesDot && !("0"..."9").contains(scalars[start]) {
                var name = ""
                name.unicodeScalars.append(contentsOf: scalars[start..<index])
                names.append(name)
            }
        }
        return names
    }

    static func uniqueMessages(_ diagnostics: [LayoutDiagnostic]) -> [String] {
        var messages: [String] = []
        var seen = Set<String>()
        for diagnostic in diagnostics where seen.insert(diagnostic.message).inserted {
            messages.append(diagnostic.message)
        }
        return messages
    }

    /// Children of each view, by name (the hierarchy's order after the container).
    static func childLists(_ hierarchy: ViewHierarchy) -> [[Int]] {
        var children = Array(repeating: [Int](), count: hierarchy.count)
        for view in 1..<max(1, hierarchy.count) {
            let parent = hierarchy.parents[view]
            if parent != view { children[parent].append(view) }
        }
        return children
    }

    /// A frame with a negative width or height turned into the same rectangle drawn
    /// from its other edge, so that `width` and `height` are ≥ 0 (SVG 1.1 §9.2 makes a
    /// negative rect size an error).
    static func normalized(_ frame: Box) -> Box {
        var frame = frame
        if frame.width < 0 { frame.x += frame.width; frame.width = -frame.width }
        if frame.height < 0 { frame.y += frame.height; frame.height = -frame.height }
        return frame
    }

    static func finite(_ frame: Frame) -> Box {
        Box(x: finiteOrZero(frame.x), y: finiteOrZero(frame.y),
              width: finiteOrZero(frame.width), height: finiteOrZero(frame.height))
    }

    /// The bytes of text ``marks(_:hierarchy:)`` examines in `diagnostics`.
    static func diagnosticBytes(_ diagnostics: [LayoutDiagnostic]) -> Int {
        var total = 0
        for diagnostic in diagnostics {
            total += diagnostic.message.utf8.count + (diagnostic.broken?.text.utf8.count ?? 0)
            for ref in diagnostic.conflicting ?? [] { total += ref.text.utf8.count }
        }
        return total
    }
}

/// `value`, or 0 when it is infinite or NaN (a frame the drawing cannot place).
func finiteOrZero(_ value: Double) -> Double { value.isFinite ? value : 0 }
