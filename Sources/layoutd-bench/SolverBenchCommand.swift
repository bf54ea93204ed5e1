import Cassowary
import Foundation

/// `layoutd-bench solver FILE`: the kiwi_bench.py protocol (FORMAT.md) on the
/// Cassowary module, printing the same JSON line with solver "layoutd", plus
/// `ambiguity_ms` (``Solver/areDetermined(_:)`` over every variable after the build)
/// and `ambiguous_variables`. `--no-deferral` turns off ``Solver/defersImpliedFree``, for
/// comparing its effect.
enum SolverBenchCommand {
    /// The command line: FILE, `--repeats N` (7), `--min-repeats N` (3), `--budget-s S`
    /// (20: no new round after S seconds once `--min-repeats` are done),
    /// `--dump-solution PATH`, `--no-deferral`; `--solver NAME` is accepted and ignored.
    struct Options {
        var path: String?
        var repeats = 7
        var minRepeats = 3
        var budget = 20.0
        var dumpPath: String?
        var defers = true

        init(_ arguments: [String]) {
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
        }
    }

    /// What the rounds measured: each phase's times (ns, one per round), the first
    /// round's values and counts.
    struct Measurements {
        var times: [String: [Double]] = [:]
        var buildValues: [Double] = []
        var editValues: [Double]?
        var ambiguityNs = 0.0
        var ambiguous = 0
        var pivots = 0
        var editAddPivots = 0
        var cells = 0
        var rounds = 0

        func median(_ key: String) -> Double { SolverBenchCommand.median(times[key] ?? []) }
    }

    /// A failed solver call, with its message.
    struct Failure: Error {
        var message: String
    }

    static func run(_ arguments: [String]) -> Int32 {
        let options = Options(arguments)
        guard let path = options.path else { return fail("solver: missing FILE") }
        let system: LayoutLPSystem
        do { system = try LayoutLPSystem(contentsOf: path) } catch { return fail("\(error)") }
        let measured: Measurements
        do { measured = try measure(system, options: options) } catch { return fail(error.message) }
        writeLine(resultLine(system, measured))
        if let dumpPath = options.dumpPath {
            func object(_ values: [Double]) -> String {
                "{" + zip(system.variables, values).map { "\(json($0.0)): \(json($0.1))" }.joined(separator: ", ") + "}"
            }
            let text = "{\"build\": \(object(measured.buildValues)), \"edit\": \(measured.editValues.map(object) ?? "null")}\n"
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: dumpPath)) } catch { return fail("\(error)") }
        }
        return 0
    }

    static func ns(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    /// The kiwi_bench.py rounds: build the constraint objects, add them, update; the
    /// first round also checks ambiguity; then the edits when the system has any. At
    /// least `minRepeats` rounds, at most `repeats`, none started after `budget` seconds.
    static func measure(_ system: LayoutLPSystem, options: Options) throws(Failure) -> Measurements {
        let clock = ContinuousClock()
        var measured = Measurements()
        let start = clock.now
        let variables = system.variables.indices.map { Variable(id: $0) }
        while measured.rounds < options.repeats {
            measured.rounds += 1
            let round = measured.rounds
            let t0 = clock.now
            let constraints = system.makeConstraints()
            let t1 = clock.now
            var solver = Solver()
            solver.autoSolve = false   // optimise once, in updateVariables (update_ms)
            solver.defersImpliedFree = options.defers
            let t2 = clock.now
            // Counted in add_ms; the format gives the counts up front, as a scene does.
            solver.reserveCapacity(variables: system.variables.count, constraints: system.rows.count)
            do {
                for constraint in constraints { try solver.addConstraint(constraint) }
            } catch {
                throw Failure(message: "\(system.name): addConstraint failed: \(error)")
            }
            let t3 = clock.now
            solver.updateVariables()
            let t4 = clock.now
            if round == 1 { measured.pivots = solver.pivotCount; measured.cells = solver.cellOperations }
            measured.times["build_objects", default: []].append(ns(t1 - t0))
            measured.times["add", default: []].append(ns(t3 - t2))
            measured.times["update", default: []].append(ns(t4 - t3))
            if round == 1 {
                measured.buildValues = variables.map { solver.value(of: $0) }
                let expressions = variables.map { Expression($0) }
                let a0 = clock.now
                let determined = solver.areDetermined(expressions)
                measured.ambiguityNs = ns(clock.now - a0)
                measured.ambiguous = determined.filter { !$0 }.count
            }
            if !system.edits.isEmpty {
                try measureEdits(system, solver: &solver, round: round, into: &measured)
                if round == 1 { measured.editValues = variables.map { solver.value(of: $0) } }
            }
            if round >= options.minRepeats && ns(clock.now - start) / 1e9 > options.budget { break }
        }
        return measured
    }

    /// One round's edits: add the edit variables, then suggest each step's values and update.
    static func measureEdits(_ system: LayoutLPSystem, solver: inout Solver, round: Int,
                             into measured: inout Measurements) throws(Failure) {
        let clock = ContinuousClock()
        let t5 = clock.now
        do {
            for edit in system.edits {
                try solver.addEditVariable(Variable(id: edit.variable),
                                           strength: LayoutLPSystem.strength(edit.kiwiStrength))
            }
        } catch {
            throw Failure(message: "\(system.name): addEditVariable failed: \(error)")
        }
        let t6 = clock.now
        if round == 1 { measured.editAddPivots = solver.pivotCount - measured.pivots }
        var stepTimes: [Double] = []
        stepTimes.reserveCapacity(system.steps)
        do {
            for step in 0..<system.steps {
                let s0 = clock.now
                for edit in system.edits {
                    try solver.suggestValue(edit.values[step], for: Variable(id: edit.variable))
                }
                solver.updateVariables()
                stepTimes.append(ns(clock.now - s0))
            }
        } catch {
            throw Failure(message: "\(system.name): suggestValue failed: \(error)")
        }
        let t7 = clock.now
        measured.times["edit_add", default: []].append(ns(t6 - t5))
        measured.times["edit_loop", default: []].append(ns(t7 - t6))
        measured.times["step_median", default: []].append(median(stepTimes))
        measured.times["step_max", default: []].append(stepTimes.max() ?? 0)
    }

    /// The JSON line of kiwi_bench.py's FORMAT.md, with layoutd's own fields after it.
    static func resultLine(_ system: LayoutLPSystem, _ measured: Measurements) -> String {
        let steps = system.steps
        func med(_ key: String) -> Double { measured.median(key) }
        func ms(_ value: Double) -> Double { (value / 1e6 * 10000).rounded() / 10000 }
        let (objective, maxRequired) = system.evaluate(measured.buildValues)
        let fields: [(String, String)] = [
            ("system", json(system.name)),
            ("solver", json("layoutd")),
            ("variables", "\(system.variables.count)"),
            ("constraints", "\(system.rows.count)"),
            ("edit_steps", "\(steps)"),
            ("repeats", "\(measured.rounds)"),
            ("build_objects_ms", json(ms(med("build_objects")))),
            ("add_ms", json(ms(med("add")))),
            ("update_ms", json(ms(med("update")))),
            ("solve_ms", json(ms(med("add") + med("update")))),
            ("edit_add_ms", json(ms(med("edit_add")))),
            ("edit_loop_ms", json(ms(med("edit_loop")))),
            ("edit_step_us", json(steps > 0 ? (med("edit_loop") / Double(steps) / 1e3 * 1000).rounded() / 1000 : 0)),
            ("edit_step_median_us", json((med("step_median") / 1e3 * 1000).rounded() / 1000)),
            ("edit_step_max_us", json((med("step_max") / 1e3 * 1000).rounded() / 1000)),
            ("add_ms_min", json(ms(measured.times["add"]?.min() ?? 0))),
            ("edit_loop_ms_min", json(ms(measured.times["edit_loop"]?.min() ?? 0))),
            ("checksum", json(checksum(measured.buildValues))),
            ("checksum_edit", json(measured.editValues.map(checksum))),
            ("objective", json((objective * 1000).rounded() / 1000)),
            ("max_required_violation", json(maxRequired)),
            ("ambiguity_ms", json(ms(measured.ambiguityNs))),
            ("ambiguous_variables", "\(measured.ambiguous)"),
            ("pivots", "\(measured.pivots)"),
            ("edit_add_pivots", "\(measured.editAddPivots)"),
            ("cell_operations", "\(measured.cells)"),
        ]
        return "{" + fields.map { "\(json($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
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
