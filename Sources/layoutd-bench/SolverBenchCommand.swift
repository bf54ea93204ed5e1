import Cassowary
import Foundation

/// `layoutd-bench solver FILE`: the kiwi_bench.py protocol (FORMAT.md) on the
/// Cassowary module, printing the same JSON line with solver "layoutd", plus
/// `ambiguity_ms` (``Solver/areDetermined(_:)`` over every variable after the build)
/// and `ambiguous_variables`. `--no-deferral` turns off ``Solver/defersImpliedFree``, for
/// comparing its effect.
enum SolverBenchCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var repeats = 7
        var minRepeats = 3
        var budget = 20.0
        var dumpPath: String?
        var defers = true
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let value = index + 1 < arguments.count ? arguments[index + 1] : nil
            switch argument {
            case "--repeats": repeats = Int(value ?? "") ?? repeats; index += 1
            case "--min-repeats": minRepeats = Int(value ?? "") ?? minRepeats; index += 1
            case "--budget-s": budget = Double(value ?? "") ?? budget; index += 1
            case "--dump-solution": dumpPath = value; index += 1
            case "--no-deferral": defers = false   // install every required constraint at once (for comparison)
            case "--solver": index += 1   // accepted for run_all.py compatibility
            default: path = argument
            }
            index += 1
        }
        guard let path else { return fail("solver: missing FILE") }
        let system: LayoutLPSystem
        do { system = try LayoutLPSystem(contentsOf: path) } catch { return fail("\(error)") }

        let clock = ContinuousClock()
        func ns(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
        }
        var times: [String: [Double]] = [:]
        var buildValues: [Double] = []
        var editValues: [Double]?
        var ambiguityNs = 0.0
        var ambiguous = 0
        var pivots = 0
        var editAddPivots = 0
        var cells = 0
        let start = clock.now
        var round = 0
        let variables = system.variables.indices.map { Variable(id: $0) }
        let steps = system.steps
        while round < repeats {
            round += 1
            let t0 = clock.now
            let constraints = system.makeConstraints()
            let t1 = clock.now
            var solver = Solver()
            solver.autoSolve = false   // optimise once, in updateVariables (update_ms)
            solver.defersImpliedFree = defers
            let t2 = clock.now
            // Counted in add_ms; the format gives the counts up front, as a scene does.
            solver.reserveCapacity(variables: system.variables.count, constraints: system.rows.count)
            do {
                for constraint in constraints { try solver.addConstraint(constraint) }
            } catch {
                return fail("\(system.name): addConstraint failed: \(error)")
            }
            let t3 = clock.now
            solver.updateVariables()
            let t4 = clock.now
            if round == 1 { pivots = solver.pivotCount; cells = solver.cellOperations }
            times["build_objects", default: []].append(ns(t1 - t0))
            times["add", default: []].append(ns(t3 - t2))
            times["update", default: []].append(ns(t4 - t3))
            if round == 1 {
                buildValues = variables.map { solver.value(of: $0) }
                let expressions = variables.map { Expression($0) }
                let a0 = clock.now
                let determined = solver.areDetermined(expressions)
                ambiguityNs = ns(clock.now - a0)
                ambiguous = determined.filter { !$0 }.count
            }
            if !system.edits.isEmpty {
                let t5 = clock.now
                do {
                    for edit in system.edits {
                        try solver.addEditVariable(Variable(id: edit.variable),
                                                   strength: LayoutLPSystem.strength(edit.kiwiStrength))
                    }
                } catch {
                    return fail("\(system.name): addEditVariable failed: \(error)")
                }
                let t6 = clock.now
                if round == 1 { editAddPivots = solver.pivotCount - pivots }
                var stepTimes: [Double] = []
                stepTimes.reserveCapacity(steps)
                do {
                    for step in 0..<steps {
                        let s0 = clock.now
                        for edit in system.edits {
                            try solver.suggestValue(edit.values[step], for: Variable(id: edit.variable))
                        }
                        solver.updateVariables()
                        stepTimes.append(ns(clock.now - s0))
                    }
                } catch {
                    return fail("\(system.name): suggestValue failed: \(error)")
                }
                let t7 = clock.now
                times["edit_add", default: []].append(ns(t6 - t5))
                times["edit_loop", default: []].append(ns(t7 - t6))
                times["step_median", default: []].append(median(stepTimes))
                times["step_max", default: []].append(stepTimes.max() ?? 0)
                if round == 1 { editValues = variables.map { solver.value(of: $0) } }
            }
            if round >= minRepeats && ns(clock.now - start) / 1e9 > budget { break }
        }
        func med(_ key: String) -> Double { median(times[key] ?? []) }
        func ms(_ value: Double) -> Double { (value / 1e6 * 10000).rounded() / 10000 }
        let (objective, maxRequired) = system.evaluate(buildValues)
        let fields: [(String, String)] = [
            ("system", json(system.name)),
            ("solver", json("layoutd")),
            ("variables", "\(system.variables.count)"),
            ("constraints", "\(system.rows.count)"),
            ("edit_steps", "\(steps)"),
            ("repeats", "\(round)"),
            ("build_objects_ms", json(ms(med("build_objects")))),
            ("add_ms", json(ms(med("add")))),
            ("update_ms", json(ms(med("update")))),
            ("solve_ms", json(ms(med("add") + med("update")))),
            ("edit_add_ms", json(ms(med("edit_add")))),
            ("edit_loop_ms", json(ms(med("edit_loop")))),
            ("edit_step_us", json(steps > 0 ? (med("edit_loop") / Double(steps) / 1e3 * 1000).rounded() / 1000 : 0)),
            ("edit_step_median_us", json((med("step_median") / 1e3 * 1000).rounded() / 1000)),
            ("edit_step_max_us", json((med("step_max") / 1e3 * 1000).rounded() / 1000)),
            ("add_ms_min", json(ms(times["add"]?.min() ?? 0))),
            ("edit_loop_ms_min", json(ms(times["edit_loop"]?.min() ?? 0))),
            ("checksum", json(checksum(buildValues))),
            ("checksum_edit", json(editValues.map(checksum))),
            ("objective", json((objective * 1000).rounded() / 1000)),
            ("max_required_violation", json(maxRequired)),
            ("ambiguity_ms", json(ms(ambiguityNs))),
            ("ambiguous_variables", "\(ambiguous)"),
            ("pivots", "\(pivots)"),
            ("edit_add_pivots", "\(editAddPivots)"),
            ("cell_operations", "\(cells)"),
        ]
        writeLine("{" + fields.map { "\(json($0.0)): \($0.1)" }.joined(separator: ", ") + "}")
        if let dumpPath {
            func object(_ values: [Double]) -> String {
                "{" + zip(system.variables, values).map { "\(json($0.0)): \(json($0.1))" }.joined(separator: ", ") + "}"
            }
            let text = "{\"build\": \(object(buildValues)), \"edit\": \(editValues.map(object) ?? "null")}\n"
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: dumpPath)) } catch { return fail("\(error)") }
        }
        return 0
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// `layoutd-bench solver-batch DIR`: solves every `*.json` system in DIR (sorted by
/// name) once, with the FORMAT.md protocol, and prints one JSON line per system:
/// `{"file": NAME, "build": [values in variable order], "edit": [...] | null}`, or
/// `{"file": NAME, "error": MESSAGE}`. Constraints listed in the `"x-remove"`
/// extension are removed after all adds. Used by scripts/kiwi_differential.py.
enum SolverBatchCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard let directory = arguments.first else { return fail("solver-batch: missing DIR") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            return fail("\(error)")
        }
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            writeLine(solve(path: path, name: name))
        }
        return 0
    }

    static func solve(path: String, name: String) -> String {
        let system: LayoutLPSystem
        do { system = try LayoutLPSystem(contentsOf: path) } catch {
            return "{\"file\": \(json(name)), \"error\": \(json("\(error)"))}"
        }
        var solver = Solver()
        solver.autoSolve = false
        let variables = system.variables.indices.map { Variable(id: $0) }
        func list(_ values: [Double]) -> String { "[" + values.map { json($0) }.joined(separator: ", ") + "]" }
        do {
            for (position, constraint) in system.makeConstraints().enumerated() {
                do { try solver.addConstraint(constraint) } catch {
                    return "{\"file\": \(json(name)), \"error\": \(json("constraint \(position): \(error)"))}"
                }
            }
            for index in system.removals { try solver.removeConstraint(ConstraintHandle(rawValue: index)) }
            try solver.solve()
            let build = variables.map { solver.value(of: $0) }
            var edit: [Double]?
            if !system.edits.isEmpty {
                for item in system.edits {
                    try solver.addEditVariable(Variable(id: item.variable), strength: LayoutLPSystem.strength(item.kiwiStrength))
                }
                for step in 0..<system.steps {
                    for item in system.edits { try solver.suggestValue(item.values[step], for: Variable(id: item.variable)) }
                }
                solver.updateVariables()
                edit = variables.map { solver.value(of: $0) }
            }
            return "{\"file\": \(json(name)), \"build\": \(list(build)), \"edit\": \(edit.map(list) ?? "null")}"
        } catch {
            return "{\"file\": \(json(name)), \"error\": \(json("\(error)"))}"
        }
    }
}
