import Foundation
import LayoutCompiler

/// The lists below the drawing: the layouts' problems (every diagnostic, visible as text
/// and not only in tooltips) and the legend of the views numbered for want of room.
extension WireframeRenderer {
    /// The layouts' problems as one message each, in order of first appearance, each
    /// once (with the captions of the panels it occurs in when there are several panels
    /// and it is not in all of them): `Conflict (views a, b): …`, `Ambiguous: …`,
    /// `Negative size: …`, otherwise the diagnostic's code.
    static func problemList(compiled: CompiledScene, layouts: [Layout], captions: [String]?) -> [String] {
        var order: [String] = []
        // Looked up only; the output follows `order`.
        var panelsOf: [String: [Int]] = [:]
        func add(_ diagnostic: LayoutDiagnostic, panel: Int?) {
            let kind: String
            switch diagnostic.code {
            case .unsatisfiableConstraints:
                var names: [String] = []
                var texts: [String] = []
                if let broken = diagnostic.broken { texts.append(broken.text) }
                texts += (diagnostic.conflicting ?? []).map(\.text)
                for text in texts {
                    for name in referencedNames(in: text) where !names.contains(name) && names.count < 12 { names.append(name) }
                }
                kind = names.isEmpty ? "Conflict" : "Conflict (views \(names.joined(separator: ", ")))"
            case .ambiguousLayout: kind = "Ambiguous"
            case .negativeSize: kind = "Negative size"
            default: kind = diagnostic.code.rawValue
            }
            let message = "\(kind): \(diagnostic.message)"
            if panelsOf[message] == nil { order.append(message) }
            if let panel { panelsOf[message, default: []].append(panel) }
        }
        for diagnostic in compiled.diagnostics { add(diagnostic, panel: nil) }
        for (index, layout) in layouts.enumerated() {
            for diagnostic in layout.diagnostics { add(diagnostic, panel: index) }
        }
        var result: [String] = []
        for message in order.prefix(maxProblemMessages) {
            if let captions, layouts.count > 1, let panels = panelsOf[message], Set(panels).count < layouts.count {
                var seen = Set<Int>()
                let named = panels.filter { seen.insert($0).inserted }.prefix(6).map { $0 < captions.count ? captions[$0] : "" }
                let more = seen.count > 6 ? ", …" : ""
                result.append("[\(named.joined(separator: ", "))\(more)] \(message)")
            } else {
                result.append(message)
            }
        }
        if order.count > maxProblemMessages {
            result.append("… and \(order.count - maxProblemMessages) more problems: the JSON answer lists every diagnostic")
        }
        return result
    }

    /// The problems list's lines: a heading, then each message wrapped to `width` pixels
    /// at ``listFont`` (at most ``maxProblemLines`` lines, the last ending in `…`).
    static func wrapProblems(_ problems: [String], width: Double) -> [String] {
        guard !problems.isEmpty else { return [] }
        let columns = max(20, Int((width - 2 * margin) / (characterWidth * listFont)))
        var lines = ["⚠ \(problems.count) problem\(problems.count == 1 ? "" : "s") in this layout:"]
        for problem in problems {
            var wrapped = wrap(problem.replacingOccurrences(of: "\n", with: " "), columns: columns - 2)
            if wrapped.count > maxProblemLines {
                wrapped = Array(wrapped.prefix(maxProblemLines))
                wrapped[maxProblemLines - 1] = String(wrapped[maxProblemLines - 1].prefix(columns - 3)) + "…"
            }
            for (index, line) in wrapped.enumerated() { lines.append((index == 0 ? "• " : "  ") + line) }
        }
        return lines
    }

    /// `text` in lines of at most `columns` characters, broken at spaces where possible.
    static func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(text)
        while rest.count > columns {
            let window = rest.prefix(columns + 1)
            if let space = window.lastIndex(of: " "), space > rest.startIndex {
                lines.append(String(rest[..<space]))
                rest = rest[rest.index(after: space)...]
            } else {
                let end = rest.index(rest.startIndex, offsetBy: columns)
                lines.append(String(rest[..<end]))
                rest = rest[end...]
            }
        }
        if !rest.isEmpty || lines.isEmpty { lines.append(String(rest)) }
        return lines
    }

    /// The legend's lines: a heading, then the numbered views in columns (each entry cut
    /// to 60 characters), and a count of the views beyond ``maxNumberedViews``.
    static func legendLines(_ labels: LabelSet, width: Double) -> [String] {
        guard !labels.legend.isEmpty || labels.unlisted > 0 else { return [] }
        let entries = labels.legend.map { $0.count > 60 ? String($0.prefix(59)) + "…" : $0 }
        let entryWidth = (entries.map(\.count).max() ?? 0) + 3
        let available = max(20, Int((width - 2 * margin) / (characterWidth * listFont)))
        let columns = max(1, available / max(1, entryWidth))
        let rows = (entries.count + columns - 1) / columns
        var lines = ["Numbered views (no room for their label):"]
        for row in 0..<rows {
            var line = ""
            for column in 0..<columns {
                let index = column * rows + row
                guard index < entries.count else { break }
                if column > 0 { line += String(repeating: " ", count: max(0, entryWidth * column - line.count)) }
                line += entries[index]
            }
            lines.append(line)
        }
        if labels.unlisted > 0 {
            lines.append("… and \(labels.unlisted) more views and guides without a label: the JSON answer lists every frame")
        }
        return lines
    }

    /// Height of the problems and legend lists, pixels (0 when both are empty).
    static func listsHeight(problemLines: Int, legendLines: Int) -> Double {
        var height = 0.0
        if problemLines > 0 { height += Double(problemLines) * listLineHeight + listLineHeight / 2 }
        if legendLines > 0 { height += Double(legendLines) * listLineHeight + listLineHeight / 2 }
        return height
    }
}
