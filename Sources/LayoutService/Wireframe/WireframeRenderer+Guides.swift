import LayoutCompiler

/// Layout guides in the wireframe (contract: "the SVG draws them dashed"): after a
/// panel's views, each guide of `guides` (by name; not `safeArea`) as
///
/// ```
/// <g class="guide" data-guide="gap" data-owner="card">
///   <rect data-x="10" data-y="0" data-width="320" data-height="50" x="30" y="40" …/>
///   <text class="label" …>gap  10,0 320×50</text>
/// </g>
/// ```
///
/// with the frame as `/solve` answers it in `data-…` (relative to the owner, or to the
/// container under `coordinates: root`) and drawn relative to the container, dashed and
/// unfilled (the stylesheet's `.guide` rules); class `warning` and a `<title>` when a
/// diagnostic names it, as for views.
extension WireframeRenderer {
    /// Each guide's frame relative to the container: its answered frame plus its owner's
    /// origin (already so under `coordinates: root`). Empty for a rejected layout.
    /// - Complexity: O(guides).
    static func guideFrames(_ layout: Layout, absolute: [Box], hierarchy: ViewHierarchy, relativeToRoot: Bool) -> [Box] {
        guard layout.guides.count == hierarchy.guides.count else { return [] }
        return zip(hierarchy.guides, layout.guides).map { index, entry in
            var box = finite(entry.frame)
            let owner = hierarchy.parents[index]
            if !relativeToRoot && owner < absolute.count {
                box.x += absolute[owner].x
                box.y += absolute[owner].y
            }
            return box
        }
    }

    static func writeGuides(panel: Panel, layout: Layout, hierarchy: ViewHierarchy, into out: inout SVGWriter) {
        for (offset, index) in hierarchy.guides.enumerated() where offset < panel.guides.count && offset < layout.guides.count {
            guard out.isWriting else { return }
            let name = hierarchy.names[index]
            let frame = finite(layout.guides[offset].frame)
            let drawn = normalized(panel.guides[offset])
            let messages = index < panel.messages.count ? panel.messages[index] : []
            out.raw("<g")
            out.attribute("class", messages.isEmpty ? "guide" : "guide warning")
            out.attribute("data-guide", name)
            out.attribute("data-owner", hierarchy.names[hierarchy.parents[index]])
            out.raw(">\n<rect")
            out.attribute("data-x", number(frame.x))
            out.attribute("data-y", number(frame.y))
            out.attribute("data-width", number(frame.width))
            out.attribute("data-height", number(frame.height))
            out.attribute("x", number(drawn.x))
            out.attribute("y", number(drawn.y))
            out.attribute("width", number(drawn.width))
            out.attribute("height", number(drawn.height))
            if messages.isEmpty {
                out.raw("/>\n")
            } else {
                out.raw("><title>")
                out.text(messages.joined(separator: "\n"))
                out.raw("</title></rect>\n")
            }
            out.raw("<text class=\"label\"")
            out.attribute("x", number(drawn.x + 3))
            out.attribute("y", number(drawn.y + drawn.height - 3))
            out.raw(">")
            out.text("\(name)  \(number(frame.x)),\(number(frame.y)) \(number(frame.width))×\(number(frame.height))")
            out.raw("</text>\n</g>\n")
        }
    }
}
