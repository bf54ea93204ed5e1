import Foundation
import InterfaceBuilder
import LayoutCompiler

/// One problem `layoutd lint` reports: where (the document's line, the hierarchy, the
/// view), how bad, and what.
struct LintProblem: Equatable {
    var line: Int
    var severity: String
    var hierarchy: String
    var view: String
    var message: String

    /// Xcode's issue form, `FILE:LINE: warning: HIERARCHY: VIEW: MESSAGE`: the
    /// `file:line: severity: message` that Xcode reads from a build phase's output and
    /// lists in its issue navigator (as it lists clang's), the message starting with the
    /// scene and the view as the navigator groups them.
    func rendered(file: String) -> String {
        "\(file):\(line): \(severity): \(hierarchy): \(view): \(message)"
    }
}

extension LayoutdCommand {
    static let importOptions: [OptionSpec] = [
        OptionSpec(name: "device", valueName: "ID", help: "Lay the document out on this device of the table (retina6_1, ipad12_9, …) instead of its own.", defaultDescription: "the document's device"),
        OptionSpec(name: "orientation", valueName: "portrait|landscape", help: "The device's orientation.", defaultDescription: "the document's"),
        OptionSpec(name: "intrinsic", valueName: "recorded|measured", help: "Labels' intrinsic sizes: as recorded, or measured from their text in a mapped font (as ?intrinsic=).", defaultDescription: "recorded"),
        OptionSpec(name: "solve", valueName: "", help: "(import only) Solve each hierarchy: frames, diagnostics and misplaced views, as POST /import?solve=true.", isFlag: true),
        OptionSpec(name: "json", valueName: "", help: "(lint only) Print the problems as JSON, {\"problems\": [{file, line, severity, hierarchy, view, message}]}.", isFlag: true),
        OptionSpec(name: "max-solver-work", valueName: "N", help: "Solver work for the whole document, in simplex cell operations, shared by its hierarchies (as serve's flag).", defaultDescription: "100000000"),
    ]

    /// `layoutd import FILE` (prints what `POST /import` answers; exit 0, 1 when the
    /// document cannot be imported, 2 on usage errors) and `layoutd lint FILE` (one line
    /// per misplaced view, conflict and ambiguity, ``LintProblem/rendered(file:)``; exit
    /// 1 when there is any or the document cannot be imported, 0 when clean).
    static func importOrLint(_ arguments: [String], linting: Bool, environment: [String: String]) throws(UsageError) -> Int32 {
        let name = linting ? "lint" : "import"
        if arguments.contains("--help") || arguments.contains("-h") {
            let summary = linting
                ? "Lays out an Interface Builder document and prints one line per misplaced view, conflict and ambiguity, as Xcode's issue navigator lists them (FILE:LINE: warning: SCENE: VIEW: MESSAGE). Exit 0 clean, 1 problems found (or the document cannot be read), 2 usage errors."
                : "Imports an Interface Builder document (.xib, .storyboard) and prints what POST /import answers. Exit 0 imported, 1 not an importable document, 2 usage errors."
            print(OptionParser.help(usage: "layoutd \(name) FILE [options]", summary: summary, specs: importOptions))
            return 0
        }
        let options = try OptionParser.parse(arguments, specs: importOptions, environment: [:])
        guard options.positionals.count == 1 else { throw UsageError("\(name) takes one FILE") }
        if linting, options.values["solve"] != nil { throw UsageError("--solve is for import: lint always solves") }
        if !linting, options.values["json"] != nil { throw UsageError("--json is for lint: import always prints JSON") }
        let file = options.positionals[0]
        guard let data = FileManager.default.contents(atPath: file) else { throw UsageError("cannot read '\(file)'") }
        var query: [String] = []
        if let device = options.string("device") { query.append("device=\(device)") }
        if let orientation = options.string("orientation") { query.append("orientation=\(orientation)") }
        if let intrinsic = options.string("intrinsic") { query.append("intrinsic=\(intrinsic)") }
        if linting || options.flag("solve") { query.append("solve=true") }
        let request: ImportRequest
        do {
            request = try ImportRequest.parse(query: query.joined(separator: "&"))
        } catch {
            throw UsageError("--\(error.parameter) '\(error.value)' is not allowed: use one of \(error.allowed.joined(separator: ", "))")
        }
        var limits = SceneLimits()
        limits.maxSolverWork = try options.int("max-solver-work", default: limits.maxSolverWork)
        let engine = SceneEngine(limits: limits)
        let outcome: ImportOutcome
        do {
            outcome = try engine.importDocument([UInt8](data), request: request)
        } catch {
            if linting {
                for diagnostic in error.diagnostics {
                    print("\(file):\(diagnostic.line ?? 0): error: \(diagnostic.message)")
                }
            } else {
                FileHandle.standardOutput.write(Data(engine.problem(status: error.status, diagnostics: error.diagnostics, subject: .document).body + [0x0A]))
            }
            return 1
        }
        if !linting {
            FileHandle.standardOutput.write(Data(engine.importAnswer(outcome).body + [0x0A]))
            return 0
        }
        let problems = lintProblems(outcome)
        if options.flag("json") {
            let list = problems.map { problem -> JSONValue in
                .object([("file", .string(file)), ("line", .number(Double(problem.line))), ("severity", .string(problem.severity)),
                         ("hierarchy", .string(problem.hierarchy)), ("view", .string(problem.view)), ("message", .string(problem.message))])
            }
            var writer = JSONWriter()
            writer.value(.object([("problems", .array(list))]))
            FileHandle.standardOutput.write(Data(writer.bytes + [0x0A]))
        } else {
            for problem in problems { print(problem.rendered(file: file)) }
        }
        return problems.isEmpty ? 0 : 1
    }

    /// The problems of a solved import, hierarchy by hierarchy in document order: each
    /// misplaced view (a warning, Xcode's "Frame for "VIEW" will be different at run
    /// time"), each conflict (an error at the broken constraint's line, naming the
    /// conflicting constraints), each view with ambiguous fields (an error, "Need
    /// constraints for: X position, width", Xcode's wording), and any other error
    /// diagnostic (at the hierarchy's root). Lines are the document's lines of the view's
    /// or constraint's element (``IBImport/lines``).
    static func lintProblems(_ outcome: ImportOutcome) -> [LintProblem] {
        var problems: [LintProblem] = []
        let lines = outcome.imported.lines
        for (hierarchy, solved) in zip(outcome.imported.hierarchies, outcome.solved) {
            let ids = Dictionary(hierarchy.ids.map { ($0.name, $0.ibId) }, uniquingKeysWith: { first, _ in first })
            let rootLine = lines[hierarchy.ibId] ?? 0
            func line(ofView view: String) -> Int { ids[view].flatMap { lines[$0] } ?? rootLine }
            for view in solved.misplaced {
                let recorded = describe(view.recorded), atRunTime = describe(view.solved)
                problems.append(LintProblem(line: line(ofView: view.view), severity: "warning", hierarchy: hierarchy.name, view: view.view,
                                            message: "Frame for \"\(view.view)\" will be different at run time: recorded \(recorded), at run time \(atRunTime)"))
            }
            var ambiguous: [(view: String, fields: [String])] = []
            for diagnostic in solved.diagnostics where diagnostic.isError || diagnostic.code == .ambiguousLayout {
                switch diagnostic.code {
                case .ambiguousLayout:
                    let view = diagnostic.view ?? "superview"
                    let field = ["x": "X position", "y": "Y position"][diagnostic.attribute ?? ""] ?? (diagnostic.attribute ?? "")
                    if let index = ambiguous.firstIndex(where: { $0.view == view }) {
                        ambiguous[index].fields.append(field)
                    } else {
                        ambiguous.append((view, [field]))
                    }
                case .unsatisfiableConstraints:
                    let broken = diagnostic.broken
                    let constraintLine = broken?.id.flatMap { lines[$0] } ?? rootLine
                    let view = broken.flatMap { firstItem(of: $0.text) } ?? "superview"
                    let others = (diagnostic.conflicting ?? []).filter { $0 != broken }.map { "\"\($0.text)\"" }
                    problems.append(LintProblem(line: constraintLine, severity: "error", hierarchy: hierarchy.name, view: view,
                                                message: "Conflicting constraints: \"\(broken?.text ?? "?")\" cannot be satisfied with \(others.joined(separator: ", "))"))
                default:
                    problems.append(LintProblem(line: rootLine, severity: "error", hierarchy: hierarchy.name, view: diagnostic.view ?? "superview",
                                                message: diagnostic.message))
                }
            }
            for (view, fields) in ambiguous {
                problems.append(LintProblem(line: line(ofView: view), severity: "error", hierarchy: hierarchy.name, view: view,
                                            message: "Need constraints for: \(fields.joined(separator: ", "))"))
            }
        }
        return problems
    }

    /// `x,y w×h` in points, as the wireframe's labels write frames.
    static func describe(_ frame: Frame) -> String {
        "\(JSONWriter.format(roundedForResponse(frame.x))),\(JSONWriter.format(roundedForResponse(frame.y))) \(JSONWriter.format(roundedForResponse(frame.width)))×\(JSONWriter.format(roundedForResponse(frame.height)))"
    }

    /// The view named first in an equation's text (`a.top == b.top + 8` → `a`).
    static func firstItem(of text: String) -> String? {
        let name = text.prefix { $0 != "." && $0 != " " }
        return name.isEmpty ? nil : String(name)
    }
}
