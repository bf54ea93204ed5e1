import LayoutCompiler

/// Labels that never overprint: each view's and guide's label placed where it has room
/// (``LabelPlacer``), from its full text down to a number explained in the legend.
extension WireframeRenderer {
    /// A label's kind, written as its `class`.
    enum LabelKind {
        case inside, outside, number, caption, problem

        var className: String {
            switch self {
            case .inside: "label"
            case .outside: "label outside"
            case .number: "label number"
            case .caption: "caption"
            case .problem: "label problem"
            }
        }
    }

    /// One placed text: its box in display pixels (the text starts at `box.minX`, its
    /// baseline is `box.minY + ascent × fontSize`).
    struct PlacedLabel {
        var text: String
        var kind: LabelKind
        var view: String?
        var panel: Int
        var fontSize: Double
        var box: Rect
    }

    /// The labels of a document, the number given to each view that has no room for a
    /// label (`numbers[panel][view]`, 0 for none; guides after the views), and the legend entries.
    struct LabelSet {
        var labels: [PlacedLabel] = []
        var numbers: [[Int]] = []
        var legend: [String] = []
        /// Views with no label, no number and no legend entry (beyond ``maxNumberedViews``).
        var unlisted = 0
    }

    /// The estimated width of `text` at `fontSize`, pixels: ``characterWidth`` em per
    /// character of the monospace font, two for an East Asian wide character, none for a
    /// combining mark.
    public static func labelWidth(_ text: String, fontSize: Double) -> Double {
        var columns = 0
        for scalar in text.unicodeScalars { columns += Self.columns(scalar) }
        return Double(columns) * characterWidth * fontSize
    }

    /// Character cells of one scalar in a monospace font: 2 East Asian wide, 0 combining, else 1.
    static func columns(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x300 { return 1 }
        return switch scalar.value {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: 0
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD: 2
        default: 1
        }
    }

    /// The box of a text of `fontSize` starting at `x` with its box's top at `top`.
    static func labelBox(_ text: String, fontSize: Double, x: Double, top: Double) -> Rect {
        Rect(x: x, y: top, width: labelWidth(text, fontSize: fontSize), height: (ascent + descent) * fontSize)
    }

    /// At most this many views and guides (all panels together) get the first pass that
    /// keeps labels off other views' edges (``ObstacleGrid``); beyond it labels are only
    /// kept apart from each other.
    static let maxViewsAvoided = 3_000

    /// Positions inside `rect` for a box of `width` × `height` (2 px from the top or bottom
    /// edge, 3 px from the left or right): top left, bottom left, top right, bottom right.
    static func insidePositions(_ rect: Rect, width: Double, height: Double) -> [(x: Double, y: Double)] {
        guard width + 6 <= rect.width, height + 4 <= rect.height else { return [] }
        return [(rect.minX + 3, rect.minY + 2), (rect.minX + 3, rect.maxY - 2 - height),
                (rect.maxX - 3 - width, rect.minY + 2), (rect.maxX - 3 - width, rect.maxY - 2 - height)]
    }

    /// Positions just outside `rect`: above and below (left-aligned, then right-aligned),
    /// right of it, left of it.
    static func outsidePositions(_ rect: Rect, width: Double, height: Double) -> [(x: Double, y: Double)] {
        [(rect.minX, rect.minY - 2 - height), (rect.minX, rect.maxY + 2),
         (rect.maxX - width, rect.minY - 2 - height), (rect.maxX - width, rect.maxY + 2),
         (rect.maxX + 3, rect.minY), (rect.minX - 3 - width, rect.minY),
         (rect.maxX + 3, rect.maxY - height), (rect.minX - 3 - width, rect.maxY - height)]
    }

    /// What to label in one panel: a view or a guide, its rect in display pixels, its name
    /// and the label texts from most to least informative.
    private struct Subject {
        var view: Int            // index in the panel's views, then guides after them
        var name: String
        var rect: Rect
        var full: String
        var short: String
    }

    /// Places every label of the document (``LabelPlacer``), smallest view first in each
    /// panel so that small views get the places next to them; `nil` when the work budget ran out.
    static func placeLabels(panels: [Panel], arrangement: Arrangement, captions: [String]?,
                            hierarchy: ViewHierarchy, into out: inout SVGWriter) -> LabelSet? {
        let scale = arrangement.scale
        var placement = LabelPlacement(area: Rect(minX: 0, minY: 0, maxX: arrangement.widthPx, maxY: arrangement.heightPx))
        placement.set.numbers = panels.map { Array(repeating: 0, count: hierarchy.count + $0.guides.count) }

        // Captions first, cut to their panel's width and gap.
        if let captions {
            guard placement.placeCaptions(captions, panels: panels, arrangement: arrangement, into: &out) else { return nil }
        }
        for (index, panel) in panels.enumerated() {
            let origin = arrangement.originsPx[index]
            if panel.isRejected {
                let rect = pixels(Box(x: 0, y: 0, width: panel.bounds.width, height: panel.bounds.height), origin: origin, scale: scale)
                guard placement.placeRejection(panel.rejection, in: rect, panel: index, into: &out) else { return nil }
                continue
            }
            // The labels' drawn lines first: a view's label never covers text drawn in it.
            guard placement.reserve(panel.texts.compactMap(\.inkBox).map { pixels($0, origin: origin, scale: scale) },
                                    into: &out) else { return nil }
            let subjects = Self.subjects(of: panel, origin: origin, scale: scale, hierarchy: hierarchy)
            let avoidEdges = panels.count * subjects.count <= maxViewsAvoided
            placement.obstacles = ObstacleGrid()
            if avoidEdges {
                guard out.charge(32 * subjects.count) else { return nil }
                for subject in subjects { placement.obstacles.insert(subject.rect, owner: subject.view) }
            }
            // Smallest first: the large views (the container last) have room elsewhere.
            let order = subjects.indices.sorted { left, right in
                let a = subjects[left].rect.width * subjects[left].rect.height
                let b = subjects[right].rect.width * subjects[right].rect.height
                return a != b ? a < b : left < right
            }
            let prefix = captions.map { "[\($0[index])] " } ?? ""
            for position in order {
                guard placement.label(subjects[position], panel: index, legendPrefix: prefix, avoidEdges: avoidEdges,
                                      into: &out) else { return nil }
            }
        }
        return placement.set
    }

    /// `box` (points, relative to its panel's origin) in display pixels.
    static func pixels(_ box: Box, origin: (x: Double, y: Double), scale: Double) -> Rect {
        let drawn = normalized(box)
        return Rect(x: origin.x + drawn.x * scale, y: origin.y + drawn.y * scale,
                    width: drawn.width * scale, height: drawn.height * scale)
    }

    /// What to label in one laid-out panel: its views in hierarchy order, then its guides.
    private static func subjects(of panel: Panel, origin: (x: Double, y: Double), scale: Double,
                                 hierarchy: ViewHierarchy) -> [Subject] {
        var subjects: [Subject] = []
        subjects.reserveCapacity(hierarchy.count + panel.guides.count)
        for view in 0..<hierarchy.count {
            let frame = panel.reported[view]
            let fields = panel.marks[view].ambiguous
            func field(_ value: Double, _ name: String) -> String { number(value) + (fields.contains(name) ? "?" : "") }
            let size = "\(field(frame.width, "width"))×\(field(frame.height, "height"))"
            let name = hierarchy.names[view]
            subjects.append(Subject(view: view, name: name, rect: pixels(panel.absolute[view], origin: origin, scale: scale),
                                    full: "\(name)  \(field(frame.x, "x")),\(field(frame.y, "y")) \(size)",
                                    short: "\(name) \(size)"))
        }
        for (offset, guide) in panel.guides.enumerated() {
            // A guide's fields are judged for ambiguity like a view's (the contract's
            // "Layout guides and the safe area"): same `?` marks (GuideAnswerTests.aGuidesLabelMarksAmbiguousFieldsLikeAView).
            let fields = hierarchy.index(of: guide.name).map { $0 < panel.marks.count ? panel.marks[$0].ambiguous : [] } ?? []
            func field(_ value: Double, _ name: String) -> String { number(value) + (fields.contains(name) ? "?" : "") }
            let size = "\(field(guide.width, "width"))×\(field(guide.height, "height"))"
            subjects.append(Subject(view: hierarchy.count + offset, name: guide.name,
                                    rect: pixels(panel.guideBoxes[offset], origin: origin, scale: scale),
                                    full: "\(guide.name)  \(field(guide.x, "x")),\(field(guide.y, "y")) \(size)",
                                    short: "\(guide.name) \(size)"))
        }
        return subjects
    }

    /// The labels placed so far in one document, the grids that keep them apart and off
    /// other views' edges, and the count of views and guides labelled
    /// (at most ``maxLabelledViews``). Every method answers false (`nil` for
    /// ``place(_:kind:view:panel:fontSize:at:withinArea:cleanFor:_:)``) when the work
    /// budget ran out.
    private struct LabelPlacement {
        var placer: LabelPlacer
        /// The current panel's views and guides (empty when it has too many to avoid).
        var obstacles = ObstacleGrid()
        var set = LabelSet()
        var labelled = 0
        /// A label's box height at ``labelFont``, pixels.
        let height = (ascent + descent) * labelFont

        init(area: Rect) {
            placer = LabelPlacer(area: area)
        }

        /// Tries `text` at each position; true when it was placed. With `owner`, only a box
        /// clean of every other view's edges (``ObstacleGrid``) is taken.
        mutating func place(_ text: String, kind: LabelKind, view: String?, panel: Int, fontSize: Double,
                            at positions: [(x: Double, y: Double)], withinArea: Bool, cleanFor owner: Int? = nil,
                            _ out: inout SVGWriter) -> Bool? {
            let width = labelWidth(text, fontSize: fontSize)
            for position in positions {
                let box = Rect(x: position.x, y: position.y, width: width, height: (ascent + descent) * fontSize)
                if withinArea && !placer.area.contains(box) { continue }
                let (free, compared) = placer.isFree(box)
                guard out.charge(text.utf8.count + 16 * compared) else { return nil }
                if free, let owner {
                    let (clean, crossed) = obstacles.isClean(box, owner: owner)
                    guard out.charge(16 * crossed) else { return nil }
                    if !clean { continue }
                }
                if free {
                    placer.insert(box)
                    set.labels.append(PlacedLabel(text: text, kind: kind, view: view, panel: panel, fontSize: fontSize, box: box))
                    return true
                }
            }
            return false
        }

        /// Keeps labels off `boxes` (a panel's drawn text, ``WireframeRenderer/writeTexts(_:into:)``):
        /// each box, cut to the placer's area, is taken as placed, charged 16 units of work
        /// per grid cell it covers (a box runs far past the drawing when a line is much
        /// wider than its label: only the drawing's part is kept).
        mutating func reserve(_ boxes: [Rect], into out: inout SVGWriter) -> Bool {
            let area = placer.area
            for box in boxes {
                let cut = Rect(minX: max(box.minX, area.minX), minY: max(box.minY, area.minY),
                               maxX: min(box.maxX, area.maxX), maxY: min(box.maxY, area.maxY))
                guard cut.width > 0, cut.height > 0 else { continue }
                let cells = LabelPlacer.cellRange(cut.minX, cut.maxX).count * LabelPlacer.cellRange(cut.minY, cut.maxY).count
                guard out.charge(16 * cells) else { return false }
                placer.insert(cut)
            }
            return true
        }

        /// Each panel's caption above it, cut to the panel's width and gap.
        mutating func placeCaptions(_ captions: [String], panels: [Panel], arrangement: Arrangement,
                                    into out: inout SVGWriter) -> Bool {
            let scale = arrangement.scale
            for (index, panel) in panels.enumerated() {
                let x = arrangement.originsPx[index].x + panel.bounds.minX * scale
                let top = arrangement.originsPx[index].y + panel.bounds.minY * scale - 8 - ascent * captionFont
                let room = panel.bounds.width * scale + panelGap - 4
                let text = abbreviated(captions[index], toFit: room, fontSize: captionFont) ?? String(captions[index].prefix(1))
                guard place(text, kind: .caption, view: nil, panel: index, fontSize: captionFont,
                            at: [(x, top)], withinArea: false, &out) != nil else { return false }
            }
            return true
        }

        /// A rejected panel's one label, `not laid out: REASON`, in or next to its container.
        mutating func placeRejection(_ rejection: String, in rect: Rect, panel: Int, into out: inout SVGWriter) -> Bool {
            let text = "not laid out: \(rejection)"
            let fitting = abbreviated(text, toFit: max(rect.width - 6, 60), fontSize: labelFont) ?? "not laid out"
            return place(fitting, kind: .problem, view: "superview", panel: panel, fontSize: labelFont,
                         at: insidePositions(rect, width: labelWidth(fitting, fontSize: labelFont), height: height)
                            + outsidePositions(rect, width: labelWidth(fitting, fontSize: labelFont), height: height),
                         withinArea: true, &out) != nil
        }

        /// Labels one view or guide with the most informative text that has room (see
        /// ``WireframeRenderer``'s order of preference), first off every other view's
        /// edges (`avoidEdges`), then anywhere free; else numbers it and adds its legend
        /// entry (up to ``maxNumberedViews``); beyond ``maxLabelledViews``, counts it.
        mutating func label(_ subject: Subject, panel: Int, legendPrefix prefix: String, avoidEdges: Bool,
                            into out: inout SVGWriter) -> Bool {
            guard labelled < maxLabelledViews else {
                set.unlisted += 1
                return true
            }
            labelled += 1
            let rect = subject.rect
            var attempts: [(text: String, kind: LabelKind, positions: [(x: Double, y: Double)])] = []
            func inside(_ text: String) {
                let positions = insidePositions(rect, width: labelWidth(text, fontSize: labelFont), height: height)
                if !positions.isEmpty { attempts.append((text, .inside, positions)) }
            }
            func outside(_ text: String) {
                attempts.append((text, .outside, outsidePositions(rect, width: labelWidth(text, fontSize: labelFont), height: height)))
            }
            inside(subject.full)
            inside(subject.short)
            outside(subject.full)
            outside(subject.short)
            inside(subject.name)
            outside(subject.name)
            guard out.charge(2 * subject.name.utf8.count) else { return false }
            if let cut = abbreviated(subject.name, toFit: rect.width - 6, fontSize: labelFont), cut != subject.name {
                inside(cut)
            }
            if let cut = abbreviated(subject.name, toFit: 12 * characterWidth * labelFont, fontSize: labelFont), cut != subject.name {
                outside(cut)
            }
            // First off every other view's edges, then anywhere free.
            for clean in avoidEdges ? [true, false] : [false] {
                for attempt in attempts {
                    guard let done = place(attempt.text, kind: attempt.kind, view: subject.name, panel: panel, fontSize: labelFont,
                                           at: attempt.positions, withinArea: attempt.kind == .outside,
                                           cleanFor: clean ? subject.view : nil, &out) else { return false }
                    if done { return true }
                }
            }
            guard set.legend.count < maxNumberedViews else {
                set.unlisted += 1
                return true
            }
            let numberText = String(set.legend.count + 1)
            set.numbers[panel][subject.view] = set.legend.count + 1
            set.legend.append("\(numberText)  \(prefix)\(subject.full)")
            let width = labelWidth(numberText, fontSize: numberFont)
            let tall = (ascent + descent) * numberFont
            return place(numberText, kind: .number, view: subject.name, panel: panel, fontSize: numberFont,
                         at: insidePositions(rect, width: width, height: tall) + outsidePositions(rect, width: width, height: tall),
                         withinArea: true, &out) != nil
        }
    }

    /// `text`, or its longest prefix followed by `…`, whose label is at most `width`
    /// pixels wide at `fontSize`; `nil` when not even one character and `…` fit.
    ///
    /// - Complexity: O(length of `text`).
    static func abbreviated(_ text: String, toFit width: Double, fontSize: Double) -> String? {
        if labelWidth(text, fontSize: fontSize) <= width { return text }
        let cell = characterWidth * fontSize
        // The ellipsis takes one cell.
        var used = 1
        var end = text.startIndex
        var fits = false
        for index in text.indices {
            let character = text[index]
            let cells = character.unicodeScalars.reduce(0) { $0 + columns($1) }
            if Double(used + cells) * cell > width { break }
            used += cells
            end = text.index(after: index)
            fits = true
        }
        return fits ? String(text[..<end]) + "…" : nil
    }
}
