import InterfaceBuilder
import LayoutCompiler
import Wireframe

extension SceneEngine {
    /// `POST /import?format=svg`: every hierarchy drawn by ``WireframeRenderer`` (as
    /// `/solve?format=svg` draws a scene), one below the other in one SVG document, each
    /// titled with its name, with its labels' lines when they are measured
    /// (`?intrinsic=measured`); a misplaced view is outlined twice over its panel, dashed
    /// where Interface Builder recorded it (`class="misplaced recorded"`) and solid where
    /// it belongs (`class="misplaced solved"`), each with its view's `data-view`. A
    /// hierarchy that does not compile is drawn as its title and first diagnostic.
    ///
    /// - Returns: 200 `image/svg+xml` (not cached), or the 422 of
    ///   ``responseTooLarge(limit:)`` / ``renderingTooLong(limit:)`` when the drawings
    ///   together would pass ``maxResponseBytes`` or `limits.maxSolverWork` units of work.
    public func importWireframe(_ outcome: ImportOutcome) -> EngineAnswer {
        var body: [UInt8] = []
        var work = 0
        var top = 0.0, width = 320.0
        let titleHeight = 24.0
        var parts: [[UInt8]] = []
        var textBudget = WireframeRenderer.maxDrawnTextBytes
        for (index, hierarchy) in outcome.imported.hierarchies.enumerated() {
            var part = Array("<text class=\"hierarchy-title\" x=\"4\" y=\"\(JSONWriter.format(top + 16))\" font-size=\"14\">".utf8)
            part += Self.escaped(hierarchy.name) + Array("</text>\n".utf8)
            top += titleHeight
            let solved = index < outcome.solved.count ? outcome.solved[index] : nil
            guard let solved, let compiled = solved.compiled, let layout = solved.layout else {
                let message = solved?.diagnostics.first(where: \.isError)?.message ?? "not laid out"
                part += Array("<text class=\"problem\" x=\"4\" y=\"\(JSONWriter.format(top + 12))\" font-size=\"11\">".utf8)
                    + Self.escaped(message) + Array("</text>\n".utf8)
                top += 24
                parts.append(part)
                continue
            }
            let remaining = maxResponseBytes - work
            // The labels' lines, as `/solve?format=svg` draws them: at most
            // ``WireframeRenderer/maxDrawnTextBytes`` for the whole document.
            let texts = solved.text.map { [$0.drawnLabels(in: layout, budget: &textBudget)] } ?? []
            let output = WireframeRenderer.svg(compiled: compiled, layouts: [layout], sizes: nil, texts: texts,
                                               maxBytes: max(0, remaining), pool: nil, maxWork: max(0, limits.maxSolverWork - work))
            if let stop = output.stop { return stopped(stop) }
            work += output.bytes.count
            var document = output.bytes
            // Drop the XML declaration: the drawing is nested as an <svg> element.
            if let start = Self.find(Array("<svg".utf8), in: document) { document.removeFirst(start) }
            let drawnWidth = Self.attribute("width", in: document) ?? 0
            let drawnHeight = Self.attribute("height", in: document) ?? 0
            document.replaceSubrange(0..<4, with: Array("<svg x=\"0\" y=\"\(JSONWriter.format(top))\"".utf8))
            if !solved.misplaced.isEmpty, let end = Self.find(Array("</svg>".utf8), in: document, fromEnd: true) {
                document.insert(contentsOf: Self.misplacedOverlay(solved, hierarchy: hierarchy, compiled: compiled, layout: layout,
                                                                  panelOrigin: Self.panelOrigin(document)), at: end)
            }
            part += document + [0x0A]
            top += drawnHeight + 8
            width = max(width, drawnWidth)
            parts.append(part)
        }
        body += Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"layoutd-import\" width=\"\(JSONWriter.format(width))\" height=\"\(JSONWriter.format(top))\" viewBox=\"0 0 \(JSONWriter.format(width)) \(JSONWriter.format(top))\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n".utf8)
        for part in parts { body += part }
        body += Array("</svg>\n".utf8)
        if body.count > maxResponseBytes { return responseTooLarge(limit: maxResponseBytes) }
        return EngineAnswer(status: .ok, contentType: Self.svgContentType, body: body, isCacheable: false)
    }

    /// The rectangles of the misplaced views, in the panel's coordinates (points from the
    /// container's origin): each view's recorded and solved frames made absolute through
    /// its parents.
    static func misplacedOverlay(_ solved: SolvedHierarchy, hierarchy: IBHierarchy, compiled: CompiledScene, layout: Layout,
                                 panelOrigin: (x: Double, y: Double)) -> [UInt8] {
        let names = compiled.hierarchy.names, parents = compiled.hierarchy.parents
        let solvedFrames = Dictionary(layout.frames.map { ($0.name, $0.frame) }, uniquingKeysWith: { first, _ in first })
        let recordedFrames = Dictionary(hierarchy.recordedFrames.map { ($0.name, $0.frame) }, uniquingKeysWith: { first, _ in first })
        let indices = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func absolute(_ name: String, _ frames: [String: Frame]) -> Frame? {
            guard var index = indices[name], let own = frames[name] else { return nil }
            var x = own.x, y = own.y
            var steps = 0
            while index != 0 && steps < names.count {
                index = parents[index]
                if index == 0 { break }
                guard let parent = frames[names[index]] else { return nil }
                x += parent.x
                y += parent.y
                steps += 1
            }
            return Frame(x: x, y: y, width: own.width, height: own.height)
        }
        var out = Array("<g class=\"misplaced-views\" transform=\"translate(\(JSONWriter.format(panelOrigin.x)) \(JSONWriter.format(panelOrigin.y)))\">\n".utf8)
        for view in solved.misplaced {
            for (kind, frames) in [("recorded", recordedFrames), ("solved", solvedFrames)] {
                guard let frame = absolute(view.view, frames) else { continue }
                // Presentation attributes, not a stylesheet: the drawing may be inlined in a
                // page whose Content-Security-Policy admits only known styles (the playground).
                let stroke = kind == "recorded" ? "fill=\"none\" stroke=\"#e80\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\""
                    : "fill=\"none\" stroke=\"#d00\" stroke-width=\"1.5\""
                out += Array("<rect class=\"misplaced \(kind)\" \(stroke) data-view=\"".utf8) + escaped(view.view)
                out += Array("\" x=\"\(JSONWriter.format(frame.x))\" y=\"\(JSONWriter.format(frame.y))\" width=\"\(JSONWriter.format(abs(frame.width)))\" height=\"\(JSONWriter.format(abs(frame.height)))\"/>\n".utf8)
            }
        }
        out += Array("</g>\n".utf8)
        return out
    }

    /// The translation of the drawing's first panel (`<g class="panel" … transform="translate(X Y)">`).
    static func panelOrigin(_ document: [UInt8]) -> (x: Double, y: Double) {
        guard let panel = find(Array("<g class=\"panel\"".utf8), in: document),
              let start = find(Array("translate(".utf8), in: Array(document[panel...])) else { return (0, 0) }
        let rest = document[(panel + start + 10)...].prefix { $0 != UInt8(ascii: ")") }
        let numbers = String(decoding: rest, as: UTF8.self).split(separator: " ").compactMap { Double($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : (0, 0)
    }

    /// The number value of the first `name="…"` in the root tag of `document`.
    static func attribute(_ name: String, in document: [UInt8]) -> Double? {
        let tagEnd = document.firstIndex(of: UInt8(ascii: ">")) ?? document.count
        guard let start = find(Array(" \(name)=\"".utf8), in: Array(document[..<tagEnd])) else { return nil }
        let value = document[(start + name.utf8.count + 3)...].prefix { $0 != UInt8(ascii: "\"") }
        return Double(String(decoding: value, as: UTF8.self))
    }

    /// The first (or last) offset of `needle` in `haystack`, without allocating.
    /// - Complexity: O(`haystack.count` × `needle.count`) at worst; the needles are short tags.
    static func find(_ needle: [UInt8], in haystack: [UInt8], fromEnd: Bool = false) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        let last = haystack.count - needle.count
        var start = fromEnd ? last : 0
        while start >= 0 && start <= last {
            if haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
            start += fromEnd ? -1 : 1
        }
        return nil
    }

    /// `text` escaped for XML character data and attribute values.
    static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            default: out.append(byte)
            }
        }
        return out
    }
}
