import LayoutSyntax

/// A command-line option of a layoutd command: `--name VALUE` (or `--name=VALUE`), also
/// read from the environment variable `LAYOUTD_NAME` (upper snake case), as containers expect.
struct OptionSpec {
    var name: String
    var valueName: String
    var help: String
    var defaultDescription: String?
    /// Flags take no value (`--json`).
    var isFlag = false
    /// Whether ``environmentName`` is read. `solve` and `validate` do not read `LAYOUTD_DB`:
    /// it names `serve`'s database (the image sets it), which a `docker run … solve` need
    /// not have; their help says so.
    var readsEnvironment = true

    var environmentName: String {
        "LAYOUTD_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }
}

/// Parsed arguments: option values (command line over environment) and positionals.
struct ParsedArguments {
    var values: [String: String] = [:]
    var positionals: [String] = []

    func string(_ name: String) -> String? { values[name] }

    func int(_ name: String, default value: Int) throws(UsageError) -> Int {
        guard let text = values[name] else { return value }
        guard let number = Int(text), number >= 0 else { throw UsageError("--\(name) needs a whole number ≥ 0, got '\(text)'") }
        return number
    }

    func seconds(_ name: String, default value: Double) throws(UsageError) -> Double {
        guard let text = values[name] else { return value }
        guard let number = Double(text), number > 0, number.isFinite else { throw UsageError("--\(name) needs a number of seconds > 0, got '\(text)'") }
        return number
    }

    func flag(_ name: String) -> Bool {
        guard let value = values[name] else { return false }
        return value != "0" && value.lowercased() != "false"
    }
}

/// Bad usage: exit code 2 with the message and a pointer to `--help`.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

enum OptionParser {
    static func parse(_ arguments: [String], specs: [OptionSpec], environment: [String: String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        for spec in specs {
            guard spec.readsEnvironment, let value = environment[spec.environmentName] else { continue }
            // A flag's variable is on or off, spelled one of the usual ways; anything else is
            // bad usage, not "on" (LAYOUTD_QUIET=no once turned quiet mode on).
            if spec.isFlag {
                switch value.lowercased() {
                case "1", "true", "yes", "on": parsed.values[spec.name] = "1"
                case "0", "false", "no", "off", "": continue
                default:
                    throw UsageError("\(spec.environmentName)=\(value) is neither on (1, true, yes, on) nor off (0, false, no, off, empty)")
                }
            } else {
                parsed.values[spec.name] = value
            }
        }
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                let suggestion = closestName(to: name, among: specs.map(\.name)).map { " (did you mean --\($0)?)" } ?? ""
                throw UsageError("unknown option --\(name)\(suggestion)")
            }
            if spec.isFlag {
                parsed.values[name] = inlineValue ?? "1"
                continue
            }
            if let inlineValue {
                parsed.values[name] = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value (\(spec.valueName))") }
                parsed.values[name] = arguments[index]
                index += 1
            }
        }
        return parsed
    }

    static func help(usage: String, summary: String, specs: [OptionSpec]) -> String {
        var text = "USAGE: \(usage)\n\n\(summary)\n"
        if !specs.isEmpty {
            text += "\nOPTIONS (each also read from the environment variable shown):\n"
            for spec in specs {
                let left = spec.isFlag ? "--\(spec.name)" : "--\(spec.name) \(spec.valueName)"
                text += "  \(left)\n      \(spec.help)"
                if let defaultDescription = spec.defaultDescription { text += " (default: \(defaultDescription))" }
                text += spec.readsEnvironment ? " [\(spec.environmentName)]\n" : " [not read from \(spec.environmentName), which names serve's database]\n"
            }
        }
        text += "  --help\n      Show this help.\n"
        return text
    }
}
