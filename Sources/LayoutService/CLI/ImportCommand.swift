import Foundation
import InterfaceBuilder
import LayoutCompiler

/// One problem `layoutd lint` reports: where (the document's line, the hierarchy, the
/// view), how bad, and what. A document that cannot be imported has one problem with no
/// hierarchy and no view.
struct LintProblem: Equatable {
    var line: Int
    var severity: String
    var hierarchy: String?
    var view: String?
    var message: String

    /// Xcode's issue form, `FILE:LINE: warning: HIERARCHY: VIEW: MESSAGE`: the
    /// `file:line: severity: message` that Xcode reads from a build phase's output and
    /// lists in its issue navigator (as it lists clang's), the message starting with the
    /// scene and the view as the navigator groups them (`FILE:LINE: error: MESSAGE` for a
    /// document that cannot be imported).
    func rendered(file: String) -> String {
        guard let hierarchy, let view else { return "\(file):\(line): \(severity): \(message)" }
        return "\(file):\(line): \(severity): \(hierarchy): \(view): \(message)"
    }

    /// `{file, line, severity, hierarchy, view, message}` (`hierarchy` and `view` null for
    /// a document that cannot be imported), as `layoutd lint --json` lists problems.
    func json(file: String) -> JSONValue {
        .object([("file", .string(file)), ("line", .number(Double(line))), ("severity", .string(severity)),
                 ("hierarchy", hierarchy.map(JSONValue.string) ?? .null), ("view", view.map(JSONValue.string) ?? .null),
                 ("message", .string(message))])
    }

    /// `message` without the `Line N: ` that a diagnostic's message starts with when it
    /// names its line (the line is already the issue's `FILE:LINE`).
    static func withoutLine(_ message: String, line: Int) -> String {
        let prefix = "Line \(line): "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
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
    /// per fault of the document, misplaced view, conflict and ambiguity,
    /// ``LintProblem/rendered(file:)``, or with `--json` one object each; exit 1 when there
    /// is any or the document cannot be imported, 0 when clean). FILE `-` is standard
    /// input; each option is also read from its `LAYOUTD_` variable in `environment`.
    /// - Throws: ``UsageError`` (exit 2) for a bad option or value, or a FILE that cannot be
    ///   read (saying why).
    static func importOrLint(_ arguments: [String], linting: Bool, environment: [String: String]) throws(UsageError) -> Int32 {
        let name = linting ? "lint" : "import"
        if arguments.contains("--help") || arguments.contains("-h") {
            let summary = linting
                ? "Lays out an Interface Builder document (- for standard input) and prints one line per fault of the document, misplaced view, conflict and ambiguity, as Xcode's issue navigator lists them (FILE:LINE: warning: SCENE: VIEW: MESSAGE). Exit 0 clean, 1 problems found (or the document cannot be imported), 2 usage errors (or a FILE that cannot be read)."
                : "Imports an Interface Builder document (.xib, .storyboard; - for standard input) and prints what POST /import answers. Exit 0 imported, 1 not an importable document, 2 usage errors."
            print(OptionParser.help(usage: "layoutd \(name) FILE|- [options]", summary: summary, specs: importOptions))
            return 0
        }
        // The environment gives each option's value (as for `serve` and `solve`), save the
        // one that is not the command's: `LAYOUTD_SOLVE` (lint always solves) and
        // `LAYOUTD_JSON` (import always prints JSON) are left to the other.
        let foreign = linting ? "LAYOUTD_SOLVE" : "LAYOUTD_JSON"
        let options = try OptionParser.parse(arguments, specs: importOptions, environment: environment.filter { $0.key != foreign })
        guard options.positionals.count == 1 else { throw UsageError("\(name) takes one FILE (or - for standard input)") }
        if linting, options.values["solve"] != nil { throw UsageError("--solve is for import: lint always solves") }
        if !linting, options.values["json"] != nil { throw UsageError("--json is for lint: import always prints JSON") }
        let path = options.positionals[0]
        let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try readDocument(path)
        // gcc's name for standard input in its `FILE:LINE:` issues.
        let file = path == "-" ? "<stdin>" : path
        // Each value percent-encoded, so none can add a parameter of its own (`&`, `=`).
        var query: [String] = []
        var safe = CharacterSet.alphanumerics
        safe.insert(charactersIn: "_-.")
        for parameter in ["device", "orientation", "intrinsic"] {
            if let value = options.string(parameter) {
                query.append("\(parameter)=\(value.addingPercentEncoding(withAllowedCharacters: safe) ?? "")")
            }
        }
        if linting || options.flag("solve") { query.append("solve=true") }
        let request: ImportRequest
        do {
            request = try ImportRequest.parse(query: query.joined(separator: "&"))
        } catch {
            let fromCommandLine = arguments.contains { $0 == "--\(error.parameter)" || $0.hasPrefix("--\(error.parameter)=") }
            let option = fromCommandLine ? "--\(error.parameter)" : OptionSpec(name: error.parameter, valueName: "", help: "").environmentName
            throw UsageError("\(option) '\(options.string(error.parameter) ?? error.value)' is not allowed: use one of \(error.allowed.joined(separator: ", "))")
        }
        var limits = SceneLimits()
        limits.maxSolverWork = try options.int("max-solver-work", default: limits.maxSolverWork)
        let engine = SceneEngine(limits: limits)
        let problems: [LintProblem]
        do {
            let outcome = try engine.importDocument([UInt8](data), request: request)
            if !linting {
                FileHandle.standardOutput.write(Data(engine.importAnswer(outcome).body + [0x0A]))
                return 0
            }
            problems = lintProblems(outcome, limits: limits)
        } catch {
            if !linting {
                FileHandle.standardOutput.write(Data(engine.problem(status: error.status, diagnostics: error.diagnostics, subject: .document).body + [0x0A]))
                return 1
            }
            problems = lintProblems(failure: error.diagnostics)
        }
        if options.flag("json") {
            var writer = JSONWriter()
            writer.value(.object([("problems", .array(problems.map { $0.json(file: file) }))]))
            FileHandle.standardOutput.write(Data(writer.bytes + [0x0A]))
        } else {
            for problem in problems { print(problem.rendered(file: file)) }
        }
        return problems.isEmpty ? 0 : 1
    }

    /// The bytes of the document (or scene) at `path`; `layoutd import`, `lint`, `solve`
    /// and `validate` read their FILE with it.
    /// - Throws: ``UsageError`` saying why it cannot be read: no such file, a directory, or
    ///   not readable.
    static func readDocument(_ path: String) throws(UsageError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UsageError("cannot read '\(path)': no such file")
        }
        if isDirectory.boolValue { throw UsageError("cannot read '\(path)': it is a directory") }
        // A device or a pipe (`/dev/null`, `<(…)`) is read as standard input is: to its end.
        guard let data = FileManager.default.contents(atPath: path)
                ?? FileHandle(forReadingAtPath: path).map({ $0.readDataToEndOfFile() }) else {
            throw UsageError("cannot read '\(path)': \(FileManager.default.isReadableFile(atPath: path) ? "reading failed" : "permission denied")")
        }
        return data
    }

    /// The problems of a document that cannot be imported: one error per diagnostic at its
    /// line (line 1 when it names none), with no hierarchy or view.
    static func lintProblems(failure diagnostics: [LayoutDiagnostic]) -> [LintProblem] {
        diagnostics.map { diagnostic in
            let line = max(1, diagnostic.line ?? 1)
            return LintProblem(line: line, severity: "error", hierarchy: nil, view: nil,
                               message: LintProblem.withoutLine(diagnostic.message, line: line))
        }
    }

    /// The problems of a solved import: each view not imported for want of a recorded frame
    /// (``IBImport/skippedRoots``, a warning without hierarchy and view), then hierarchy by
    /// hierarchy in document order: each
    /// fault of the document (an `invalid_document` warning, at its line, on the view it
    /// concerns), each misplaced view (a warning, Xcode's "Frame for "VIEW" will be
    /// different at run time"), with `--intrinsic measured` each label that keeps its
    /// recorded size (``IBHierarchy/keptLabels``, a warning on the label) and each label
    /// whose text is truncated in its solved frame, that is not hidden and that does not
    /// shrink its text to fit it (``shrunkToFit(_:text:layout:)``) (a warning), each conflict (an error at the broken constraint's line,
    /// naming the conflicting constraints), each view with ambiguous fields (an error,
    /// "Need constraints for: X position, width", Xcode's wording), and any other error
    /// diagnostic (at its constraint's element and on the view the constraint names first,
    /// else at the hierarchy's root). As Xcode, ambiguity is not reported for a view whose
    /// `verifyAmbiguity` is `off` (nor for the guides it owns), nor the width and height of
    /// one whose `verifyAmbiguity` is `ignoreSizes` (``IBImport/ambiguityChecks``), whose
    /// position is ambiguous only when it is so with its size held
    /// (``positionAmbiguity(of:solved:holding:limits:)``). `limits` are the import's. Lines are the document's lines of the view's or
    /// constraint's element (``IBImport/lines``).
    static func lintProblems(_ outcome: ImportOutcome, limits: SceneLimits = SceneLimits()) -> [LintProblem] {
        let imported = outcome.imported
        // Each hierarchy's share of the work, as the import's solve had it.
        var limits = limits
        limits.maxSolverWork = max(1, limits.maxSolverWork / max(1, imported.hierarchies.count))
        // Views not imported for want of a frame come first: they belong to no hierarchy.
        var problems = imported.skippedRoots.map { LintProblem(line: $0.line, severity: "warning", hierarchy: nil, view: nil, message: $0.message) }
        let lines = imported.lines
        for (hierarchy, solved) in zip(outcome.imported.hierarchies, outcome.solved) {
            let ids = Dictionary(hierarchy.ids.map { ($0.name, $0.ibId) }, uniquingKeysWith: { first, _ in first })
            let rootLine = lines[hierarchy.ibId] ?? 0
            func line(ofView view: String) -> Int { ids[view].flatMap { lines[$0] } ?? rootLine }
            // IB id → scene name (the first name, in document order, when an id has two).
            var names: [String: String] = [:]
            for (name, ibId) in hierarchy.ids where names[ibId] == nil { names[ibId] = name }
            let sceneConstraints: [JSONValue]
            if case .array(let list)? = hierarchy.scene["constraints"] { sceneConstraints = list } else { sceneConstraints = [] }
            // The IB id and equation of the scene constraint a diagnostic is about.
            func constraint(of diagnostic: LayoutDiagnostic) -> (id: String?, equation: String?) {
                var entry: JSONValue?
                if case .scene(let index)? = diagnostic.constraint, index < sceneConstraints.count { entry = sceneConstraints[index] }
                var id = diagnostic.id, equation = diagnostic.source
                if case .string(let text)? = entry?["id"] { id = id ?? text }
                if case .string(let text)? = entry?["equation"] { equation = text }
                return (id, equation)
            }
            let faults = imported.problems.filter { names[$0.viewID] != nil }
            for diagnostic in solved.diagnostics where diagnostic.code == .invalidDocument && !diagnostic.isError {
                let at = diagnostic.line ?? rootLine
                let message = LintProblem.withoutLine(diagnostic.message, line: at)
                let fault = faults.first { $0.line == at && $0.message == message }
                problems.append(LintProblem(line: at, severity: "warning", hierarchy: hierarchy.name,
                                            view: fault.flatMap { names[$0.viewID] } ?? "superview", message: message))
            }
            // Labels that `--intrinsic measured` could not measure (a value the scene format
            // refuses): they keep their recorded size (ImportServiceTests.outOfRangeLabelValuesKeepTheRecordedSize).
            for (label, why) in hierarchy.keptLabels {
                problems.append(LintProblem(line: line(ofView: label), severity: "warning", hierarchy: hierarchy.name, view: label,
                                            message: "Label \"\(label)\" keeps its recorded size: \(why)"))
            }
            for view in solved.misplaced {
                let recorded = describe(view.recorded), atRunTime = describe(view.solved)
                problems.append(LintProblem(line: line(ofView: view.view), severity: "warning", hierarchy: hierarchy.name, view: view.view,
                                            message: "Frame for \"\(view.view)\" will be different at run time: recorded \(recorded), at run time \(atRunTime)"))
            }
            // Measured labels (`--intrinsic measured`) whose text does not fit the frame they
            // get on this device; a hidden one is not drawn (ImportCommandTests.truncatedLabelsAreLinted).
            if let text = solved.text, let layout = solved.layout, !layout.isRejected {
                let fits = shrunkToFit(hierarchy, text: text, layout: layout)
                for label in layout.text where label.truncated && hierarchy.scene["views"]?[label.name]?["hidden"] != .bool(true)
                    && !fits.contains(label.name) {
                    let shown = label.lines == 1 ? "1 line" : "\(label.lines) lines"
                    problems.append(LintProblem(line: line(ofView: label.name), severity: "warning", hierarchy: hierarchy.name, view: label.name,
                                                message: "Text of \"\(label.name)\" will be truncated at run time: its frame shows \(shown)"))
                }
            }
            func check(_ view: String) -> IBAmbiguityCheck? { ids[view].flatMap { imported.ambiguityChecks[$0] } }
            // Membership only.
            let unusedGuides = Set(hierarchy.guidesNoDocumentConstraintNames)
            // `ignoreSizes` takes a view's size as given: its position is ambiguous when it is
            // so with that size held (Xcode's "Verify Position Only").
            let unsized = solved.diagnostics.filter { diagnostic in
                diagnostic.code == .ambiguousLayout && (diagnostic.attribute == "width" || diagnostic.attribute == "height")
                    && check(diagnostic.view ?? "superview") == .ignoreSizes
            }
            let positions = unsized.isEmpty ? nil : positionAmbiguity(of: hierarchy.scene, solved: solved, holding: unsized, limits: limits)
            var ambiguous: [(view: String, fields: [String])] = []
            for diagnostic in solved.diagnostics where diagnostic.isError || diagnostic.code == .ambiguousLayout {
                switch diagnostic.code {
                case .ambiguousLayout:
                    let view = diagnostic.view ?? "superview"
                    // A scroll view's content layout guide that no constraint of the document
                    // names is not in its layout: Xcode lists nothing for it.
                    if unusedGuides.contains(view) { continue }
                    // Xcode's `verifyAmbiguity` of the view (or of the view owning the guide).
                    switch check(view) {
                    case .off?: continue
                    case .ignoreSizes? where diagnostic.attribute == "width" || diagnostic.attribute == "height": continue
                    case .ignoreSizes? where positions?.contains(PositionField(view: view, attribute: diagnostic.attribute ?? "")) == false: continue
                    default: break
                    }
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
                    let (id, equation) = constraint(of: diagnostic)
                    // A scene error at `$.views.NAME…` is that view's.
                    let named = diagnostic.view ?? diagnostic.path.flatMap(viewName(inPath:))
                    let at = diagnostic.line ?? id.flatMap { lines[$0] } ?? named.map(line(ofView:)) ?? rootLine
                    let view = equation.flatMap { firstItem(of: $0) } ?? named ?? "superview"
                    problems.append(LintProblem(line: at, severity: "error", hierarchy: hierarchy.name, view: view,
                                                message: LintProblem.withoutLine(diagnostic.message, line: at)))
                }
            }
            for (view, fields) in ambiguous {
                problems.append(LintProblem(line: line(ofView: view), severity: "error", hierarchy: hierarchy.name, view: view,
                                            message: "Need constraints for: \(fields.joined(separator: ", "))"))
            }
        }
        return problems
    }

    /// The one-line labels of `hierarchy` that shrink their text to fit
    /// (``IBHierarchy/shrinkingLabels``) and whose text, at its full size as wide as its
    /// intrinsic width, fits their solved frame's width at their minimum scale: UIKit
    /// shrinks the font rather than truncate (Apple's UILabel documentation,
    /// `adjustsFontSizeToFitWidth`). A line's width is taken to scale with the font size.
    /// Held by `ImportServiceTests.shrinkingLabelsAreNotedAndNotLintedAsTruncated`.
    static func shrunkToFit(_ hierarchy: IBHierarchy, text: SceneText, layout: Layout) -> Set<String> {
        let oneLine = hierarchy.shrinkingLabels.filter { hierarchy.scene["views"]?[$0.name]?["text"]?["numberOfLines"] == .number(1) }
        guard !oneLine.isEmpty, let scene = try? SceneDecoder().decode(hierarchy.scene) else { return [] }
        let measured = text.firstPassScene(scene)
        let frames = Dictionary(layout.frames.map { ($0.name, $0.frame) }, uniquingKeysWith: { first, _ in first })
        var fits: Set<String> = []   // membership only
        for (name, scale) in oneLine {
            guard let width = measured.views.first(where: { $0.name == name })?.intrinsicWidth, let frame = frames[name] else { continue }
            if width * scale <= frame.width + 1e-6 { fits.insert(name) }
        }
        return fits
    }

    /// The view a scene path names (`$.views.NAME.text.font.size` → `NAME`), or `nil`.
    static func viewName(inPath path: String) -> String? {
        let prefix = "$.views."
        guard path.hasPrefix(prefix) else { return nil }
        let name = path.dropFirst(prefix.count).prefix { $0 != "." && $0 != "[" }
        return name.isEmpty ? nil : String(name)
    }

    /// A view's (or guide's) position field: `x` or `y`.
    struct PositionField: Hashable {
        var view: String
        var attribute: String
    }

    /// The position fields the solver finds ambiguous in `scene` once each field of `held`
    /// (a width or height) is held at its value in `solved`: a required `VIEW.width == W`
    /// added for each. `nil` when that scene is not solved (the ambiguity is then as
    /// `solved` found it). The work is bounded by `limits` as the import's own solve is.
    static func positionAmbiguity(of scene: JSONValue, solved: SolvedHierarchy, holding held: [LayoutDiagnostic],
                                  limits: SceneLimits) -> Set<PositionField>? {
        guard let layout = solved.layout, !layout.isRejected, case .object(var members) = scene else { return nil }
        // Looked up only.
        let frames = Dictionary((layout.frames + layout.guides).map { ($0.name, $0.frame) }, uniquingKeysWith: { first, _ in first })
        var holds: [JSONValue] = []
        for diagnostic in held {
            guard let view = diagnostic.view, let frame = frames[view] else { return nil }
            let value = diagnostic.attribute == "width" ? frame.width : frame.height
            guard value.isFinite else { return nil }
            holds.append(.string("\(view).\(diagnostic.attribute ?? "") == \(JSONWriter.format(value))"))
        }
        if let index = members.firstIndex(where: { $0.0 == "constraints" }) {
            guard case .array(let list) = members[index].1 else { return nil }
            members[index].1 = .array(list + holds)
        } else {
            members.append(("constraints", .array(holds)))
        }
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.value(.object(members))
        let engine = SceneEngine(limits: limits)
        guard case .success(let prepared) = engine.prepare(body: writer.bytes, resolveGroup: { _ in nil }) else { return nil }
        let (compiled, layouts) = engine.compileAndSolve(prepared)
        guard !compiled.hasErrors, let resolved = layouts.first, !resolved.isRejected else { return nil }
        return Set(resolved.diagnostics.compactMap { diagnostic in
            guard diagnostic.code == .ambiguousLayout, let attribute = diagnostic.attribute, attribute == "x" || attribute == "y" else { return nil }
            return PositionField(view: diagnostic.view ?? "superview", attribute: attribute)
        })
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
