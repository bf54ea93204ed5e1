import Foundation
import LayoutCompiler

/// The document, start to finish: the panels measured, the drawing arranged and labelled
/// to fit (``arrange(_:captionSpace:display:fitHeight:)``, ``placeLabels(panels:arrangement:captions:hierarchy:into:)``),
/// then the SVG written in one pass: the root element, the panels with their views and
/// guides, the labels, the problems and legend lists.
extension WireframeRenderer {
    static func render(compiled: CompiledScene, layouts: [Layout], sizes: [ContainerSize]?,
                       display: WireframeDisplay, guides: [[Guide]], texts: [[DrawnLabel]], into out: inout SVGWriter) {
        let hierarchy = compiled.hierarchy
        guard let panels = measurePanels(compiled: compiled, layouts: layouts, guides: guides, texts: texts, into: &out) else { return }
        // Every view of a laid-out panel writes its group and rect, at least 90 bytes and
        // its name: a document that cannot be sent is refused before labels are placed.
        let nameBytes = hierarchy.names.reduce(0) { $0 + $1.utf8.count }
        let laidOut = panels.count { !$0.isRejected }
        let (perPanel, overflow) = (90 * hierarchy.count).addingReportingOverflow(nameBytes)
        let (least, overflow2) = perPanel.multipliedReportingOverflow(by: laidOut)
        guard out.expect(atLeast: overflow || overflow2 ? .max : least) else { return }
        let captions = sizes == nil ? nil : panels.indices.map { caption(layouts[$0], size: sizeAt(sizes, $0)) }
        let problems = problemList(compiled: compiled, layouts: layouts, captions: captions)
        guard out.charge(problems.reduce(0) { $0 + $1.utf8.count }) else { return }
        guard let drawing = fit(panels: panels, captions: captions, problems: problems, display: display,
                                hierarchy: hierarchy, into: &out) else { return }

        writeRoot(drawing, panelCount: panels.count, display: display, into: &out)
        let children = childLists(hierarchy)
        for (index, panel) in panels.enumerated() {
            guard out.isWriting else { return }
            writePanel(panel, index: index, layout: layouts[index], origin: drawing.arrangement.origins[index],
                       children: children, hierarchy: hierarchy, numbers: drawing.labels.numbers[index], into: &out)
        }
        writeLabels(drawing.labels, scale: drawing.arrangement.scale, into: &out)
        writeLists(drawing, into: &out)
        out.raw("</svg>\n")
    }

    /// Every panel measured before anything is written (the viewBox must fit them all).
    /// The size-independent diagnostics are matched to views once; a panel's own, per
    /// panel. `nil` when the work budget ran out.
    static func measurePanels(compiled: CompiledScene, layouts: [Layout], guides: [[Guide]], texts: [[DrawnLabel]] = [],
                              into out: inout SVGWriter) -> [Panel]? {
        let hierarchy = compiled.hierarchy
        guard out.charge(diagnosticBytes(compiled.diagnostics)) else { return nil }
        let sceneMarks = marks(compiled.diagnostics, hierarchy: hierarchy)
        var panels: [Panel] = []
        panels.reserveCapacity(layouts.count)
        for (index, layout) in layouts.enumerated() {
            let panelGuides = index < guides.count ? guides[index] : []
            let panelTexts = index < texts.count ? texts[index] : []
            guard out.charge(32 * (hierarchy.count + panelGuides.count + panelTexts.count) + diagnosticBytes(layout.diagnostics)) else { return nil }
            let viewMarks = layout.diagnostics.isEmpty ? sceneMarks
                : marks(compiled.diagnostics + layout.diagnostics, hierarchy: hierarchy)
            panels.append(Panel(layout: layout, compiled: compiled, hierarchy: hierarchy, marks: viewMarks, guides: panelGuides,
                                texts: panelTexts))
        }
        return panels
    }

    /// The drawing as it will be written: where the panels go, the labels, and the lines
    /// of the lists below the drawing.
    struct Drawing {
        var arrangement: Arrangement
        var labels: LabelSet
        var problemLines: [String]
        var legend: [String]
        /// The document's display width, pixels (the drawing's, or the lists' when wider).
        var widthPx: Double
        /// The document's display height, pixels: the drawing and the lists below it.
        var heightPx: Double { arrangement.heightPx + WireframeRenderer.listsHeight(problemLines: problemLines.count, legendLines: legend.count) }
    }

    /// Arranges and labels the panels; when the lists below the drawing push the default
    /// display past its height, arranges again in the height that is left (a smaller
    /// drawing can number more views, so up to ``fitAttempts`` times, the height only
    /// shrinking). Lists that need half the height or more keep the drawing's own fit: the
    /// drawing fits, the lists add height below it (WireframeReadabilityTests.theDefaultFitCountsTheListsBelowTheDrawing,
    /// aLegendTallerThanHalfTheFitKeepsTheDrawingsFit). `nil` when the work budget ran out.
    static func fit(panels: [Panel], captions: [String]?, problems: [String], display: WireframeDisplay,
                    hierarchy: ViewHierarchy, into out: inout SVGWriter) -> Drawing? {
        let captionSpace = captions == nil ? 0 : captionHeight
        var available = WireframeDisplay.fitHeight
        guard out.charge(arrangeWork(panels: panels.count)) else { return nil }
        var arrangement = arrange(panels.map(\.bounds), captionSpace: captionSpace, display: display, fitHeight: available)
        var drawing = Drawing(arrangement: arrangement, labels: LabelSet(), problemLines: [], legend: [], widthPx: 0)
        for attempt in 0..<fitAttempts {
            guard let labels = placeLabels(panels: panels, arrangement: arrangement, captions: captions,
                                           hierarchy: hierarchy, into: &out) else { return nil }
            var listWidth = max(arrangement.widthPx, problems.isEmpty && labels.legend.isEmpty ? 0 : minListWidth)
            // A long legend gets the default display's full width for its columns, unless
            // `?width=` chose the width (WireframeSizingTests.askedWidthsAreHonoured).
            if labels.legend.count > 8, !display.isWidth { listWidth = max(listWidth, WireframeDisplay.fitWidth) }
            drawing = Drawing(arrangement: arrangement, labels: labels, problemLines: wrapProblems(problems, width: listWidth),
                              legend: legendLines(labels, width: listWidth), widthPx: listWidth)
            let extra = listsHeight(problemLines: drawing.problemLines.count, legendLines: drawing.legend.count)
            guard attempt < fitAttempts - 1, display.sizing == .fit, !arrangement.grows, arrangement.heightPx + extra > WireframeDisplay.fitHeight,
                  extra < WireframeDisplay.fitHeight / 2 else { break }
            available = min(available, WireframeDisplay.fitHeight - extra)
            guard out.charge(arrangeWork(panels: panels.count)) else { return nil }
            arrangement = arrange(panels.map(\.bounds), captionSpace: captionSpace, display: display, fitHeight: available)
        }
        return drawing
    }

    /// The XML declaration, the `<svg>` start tag and the stylesheet. A `?width=` or
    /// `?scale=` that the picture does not honour exactly is named with the reasons
    /// (``clamping(_:display:)``): `data-requested-width="16" data-clamped="margins lists"`.
    static func writeRoot(_ drawing: Drawing, panelCount: Int, display: WireframeDisplay,
                          into out: inout SVGWriter) {
        let scale = drawing.arrangement.scale
        out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"layoutd-wireframe\"")
        out.attribute("data-panels", String(panelCount))
        out.attribute("viewBox", "0 0 \(number(drawing.widthPx / scale)) \(number(drawing.heightPx / scale))")
        out.attribute("width", number(drawing.widthPx))
        out.attribute("height", number(drawing.heightPx))
        out.attribute("data-scale", scaleText(scale))
        if let clamping = clamping(drawing, display: display) {
            out.attribute(clamping.attribute, clamping.requested)
            out.attribute("data-clamped", clamping.reasons.joined(separator: " "))
        }
        out.raw(" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\"")
        out.attribute("font-size", number(labelFont / scale))
        out.raw(">\n<style>")
        out.raw(Self.stylesheet)
        out.raw("</style>\n")
    }

    /// One panel's group: its views (or the rejected container) and its guides.
    static func writePanel(_ panel: Panel, index: Int, layout: Layout, origin: (x: Double, y: Double), children: [[Int]],
                           hierarchy: ViewHierarchy, numbers: [Int], into out: inout SVGWriter) {
        out.raw("<g class=\"panel\"")
        out.attribute("data-index", String(index))
        out.attribute("data-container-width", number(layout.containerWidth))
        out.attribute("data-container-height", number(layout.containerHeight))
        out.attribute("transform", "translate(\(number(origin.x)) \(number(origin.y)))")
        out.raw(">\n")
        if layout.isRejected {
            writeRejected(panel: panel, layout: layout, into: &out)
        } else {
            writeViews(panel: panel, children: children, hierarchy: hierarchy, numbers: numbers, into: &out)
            writeGuides(panel: panel, hierarchy: hierarchy, into: &out)
            writeTexts(panel, into: &out)
        }
        out.raw("</g>\n")
    }

    /// The placed labels, one `<text>` each, in placement order.
    static func writeLabels(_ labels: LabelSet, scale: Double, into out: inout SVGWriter) {
        out.raw("<g class=\"labels\">\n")
        for label in labels.labels {
            guard out.isWriting else { return }
            out.raw("<text")
            out.attribute("class", label.kind.className)
            if let view = label.view { out.attribute("data-for", view) }
            out.attribute("data-panel", String(label.panel))
            out.attribute("x", number(label.box.minX / scale))
            out.attribute("y", number((label.box.minY + ascent * label.fontSize) / scale))
            if label.fontSize != labelFont { out.attribute("font-size", number(label.fontSize / scale)) }
            out.raw(">")
            out.text(label.text)
            out.raw("</text>\n")
        }
        out.raw("</g>\n")
    }

    /// The problems, then the legend, below the drawing: one `<g>` each, a heading line first.
    static func writeLists(_ drawing: Drawing, into out: inout SVGWriter) {
        let scale = drawing.arrangement.scale
        var y = drawing.arrangement.heightPx
        for (group, lines, entry) in [("problems", drawing.problemLines, "<text class=\"problem\""),
                                      ("legend", drawing.legend, "<text class=\"entry\" xml:space=\"preserve\"")] where !lines.isEmpty {
            if group == "legend" && !drawing.problemLines.isEmpty { y += listLineHeight / 2 }
            out.raw("<g class=\"\(group)\"")
            out.attribute("font-size", number(listFont / scale))
            out.raw(">\n")
            for (line, text) in lines.enumerated() {
                guard out.isWriting else { return }
                y += listLineHeight
                out.raw(line == 0 ? "<text class=\"heading\"" : entry)
                out.attribute("x", number(margin / scale))
                out.attribute("y", number(y / scale))
                out.raw(">")
                out.text(text)
                out.raw("</text>\n")
            }
            out.raw("</g>\n")
        }
    }

    // MARK: - Views, guides, rejected panels

    /// The views of one panel, parents before children, without recursion (the depth
    /// of a scene is bounded by a limit, but the drawing must not rely on it).
    private static func writeViews(panel: Panel, children: [[Int]], hierarchy: ViewHierarchy, numbers: [Int], into out: inout SVGWriter) {
        // A stack of (view, isClosing): opening a view writes its rect and pushes its
        // closing marker, then its children in reverse (so they come out by name).
        var stack: [(view: Int, isClosing: Bool)] = [(0, false)]
        while let (view, isClosing) = stack.popLast() {
            guard out.isWriting else { return }
            if isClosing {
                out.raw("</g>\n")
                continue
            }
            writeViewOpening(view, panel: panel, hierarchy: hierarchy, number: numbers[view], into: &out)
            stack.append((view, true))
            for child in children[view].reversed() {
                stack.append((child, false))
            }
        }
    }

    private static func writeViewOpening(_ view: Int, panel: Panel, hierarchy: ViewHierarchy, number labelNumber: Int, into out: inout SVGWriter) {
        let frame = panel.reported[view]
        let mark = panel.marks[view]
        var classes = view == 0 ? "view container" : "view"
        if view != 0 && hierarchy.depths[view] % 2 == 0 { classes += " alternate" }
        if panel.isStack[view] { classes += " stack" }
        if !mark.messages.isEmpty { classes += " warning" }
        if mark.conflict { classes += " conflict" }
        if !mark.ambiguous.isEmpty { classes += " ambiguous" }
        if mark.negative { classes += " negative" }
        out.raw("<g")
        out.attribute("class", classes)
        out.attribute("data-view", hierarchy.names[view])
        if labelNumber > 0 { out.attribute("data-label", String(labelNumber)) }
        out.raw(">\n<rect")
        out.attribute("data-x", number(frame.x))
        out.attribute("data-y", number(frame.y))
        out.attribute("data-width", number(frame.width))
        out.attribute("data-height", number(frame.height))
        let drawn = normalized(panel.absolute[view])
        out.attribute("x", number(drawn.x))
        out.attribute("y", number(drawn.y))
        out.attribute("width", number(drawn.width))
        out.attribute("height", number(drawn.height))
        if mark.messages.isEmpty {
            out.raw("/>\n")
        } else {
            out.raw("><title>")
            out.text(mark.messages.joined(separator: "\n"))
            out.raw("</title></rect>\n")
        }
        if mark.negative {
            // A cross over the rect: the size is negative.
            out.raw("<path class=\"flag\"")
            let right = drawn.x + drawn.width, bottom = drawn.y + drawn.height
            out.attribute("d", "M\(number(drawn.x)) \(number(drawn.y))L\(number(right)) \(number(bottom))M\(number(right)) \(number(drawn.y))L\(number(drawn.x)) \(number(bottom))")
            out.raw("/>\n")
        }
    }

    /// The panel's layout guides, dashed, after its views.
    private static func writeGuides(panel: Panel, hierarchy: ViewHierarchy, into out: inout SVGWriter) {
        for (index, guide) in panel.guides.enumerated() {
            guard out.isWriting else { return }
            let drawn = normalized(panel.guideBoxes[index])
            let messages = hierarchy.index(of: guide.name).map { $0 < panel.marks.count ? panel.marks[$0].messages : [] } ?? []
            out.raw("<g")
            out.attribute("class", messages.isEmpty ? "guide" : "guide warning")
            out.attribute("data-guide", guide.name)
            if hierarchy.names.indices.contains(guide.owner) { out.attribute("data-owner", hierarchy.names[guide.owner]) }
            out.raw("><rect")
            out.attribute("data-x", number(guide.x))
            out.attribute("data-y", number(guide.y))
            out.attribute("data-width", number(guide.width))
            out.attribute("data-height", number(guide.height))
            out.attribute("x", number(drawn.x))
            out.attribute("y", number(drawn.y))
            out.attribute("width", number(drawn.width))
            out.attribute("height", number(drawn.height))
            if messages.isEmpty {
                out.raw("/></g>\n")
            } else {
                out.raw("><title>")
                out.text(messages.joined(separator: "\n"))
                out.raw("</title></rect></g>\n")
            }
        }
    }

    private static func writeRejected(panel: Panel, layout: Layout, into out: inout SVGWriter) {
        let messages = uniqueMessages(layout.diagnostics.filter(\.isError))
        out.raw("<g class=\"view container warning rejected\" data-view=\"superview\">\n<rect")
        let drawn = normalized(Box(x: 0, y: 0, width: layout.containerWidth, height: layout.containerHeight))
        out.attribute("x", "0")
        out.attribute("y", "0")
        out.attribute("width", number(drawn.width))
        out.attribute("height", number(drawn.height))
        out.raw("><title>")
        out.text(messages.joined(separator: "\n"))
        out.raw("</title></rect>\n</g>\n")
    }

    /// Why the document is not the size `?width=` or `?scale=` asked for, or `nil` when it
    /// is (the default fit asks for none). Reasons, in this order:
    /// - `margins`: the margins and gaps of the arrangement alone are wider than the width;
    /// - `lists`: the problems and legend lists are at least ``minListWidth`` pixels wide;
    /// - `max-scale`: the width would need more than ``WireframeDisplay/maxScale`` pixels per point;
    /// - `max-dimension`: the drawing would be more than ``WireframeDisplay/maxDimension``
    ///   pixels wide or tall.
    static func clamping(_ drawing: Drawing, display: WireframeDisplay)
        -> (attribute: StaticString, requested: String, reasons: [String])? {
        let scale = drawing.arrangement.scale
        switch display.sizing {
        case .fit:
            return nil
        case .scale(let asked):
            guard scaleText(scale) != scaleText(asked) else { return nil }
            return ("data-requested-scale", scaleText(asked), ["max-dimension"])
        case .width(let asked):
            let width = Double(asked)
            guard abs(drawing.widthPx - width) > 0.001 else { return nil }
            var reasons: [String] = []
            if drawing.arrangement.widthPx > width + 0.001 { reasons.append("margins") }
            if drawing.widthPx > drawing.arrangement.widthPx + 0.001 { reasons.append("lists") }
            if drawing.arrangement.widthPx < width - 0.001 {
                reasons.append(scale >= WireframeDisplay.maxScale ? "max-scale" : "max-dimension")
            }
            return ("data-requested-width", String(asked), reasons)
        }
    }

    // MARK: - Numbers

    /// `data-scale`: pixels per point rounded to 6 significant digits (`%.6g`: `0.728223`,
    /// `8.192`, `16`, `2.83809e-05` below 10⁻⁴), so a small scale keeps its precision
    /// without printing 17 digits.
    static func scaleText(_ scale: Double) -> String {
        String(format: "%.6g", finiteOrZero(scale))
    }

    /// A number as `/solve` writes it (rounded to 6 places, integral without a fraction).
    static func number(_ value: Double) -> String {
        JSONWriter.format(roundedForResponse(finiteOrZero(value)))
    }
}
