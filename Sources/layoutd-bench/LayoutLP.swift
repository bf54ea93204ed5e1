import Cassowary
import Foundation
import LayoutCompiler

/// A `layout-lp/1` system (../shared/bench/FORMAT.md), parsed.
struct LayoutLPSystem {
    /// One constraint as in the file: `Σ coef·var + constant OP 0`.
    struct Row {
        var terms: [(coefficient: Double, variable: Int)]
        var constant: Double
        var relation: RelationalOperator
        /// kiwi's numeric strength (`required` = 1001001000, values above are clipped).
        var kiwiStrength: Double
    }

    struct Edit {
        var variable: Int
        var kiwiStrength: Double
        var values: [Double]
    }

    static let kiwiRequired = 1_001_001_000.0
    static let named: [String: Double] = [
        "required": kiwiRequired, "strong": 1_000_000, "medium": 1000, "weak": 1,
    ]

    var name: String
    var variables: [String]
    var rows: [Row]
    var edits: [Edit]
    /// Extension used by scripts/kiwi_differential.py (`"x-remove"`): indices of
    /// constraints to remove, in this order, after all are added. Readers that do not
    /// know it ignore it; kiwi_bench.py does not use it.
    var removals: [Int]

    var steps: Int { edits.first?.values.count ?? 0 }

    struct FormatError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses the JSON file at `path`.
    /// - Throws: `FormatError` for anything that is not `layout-lp/1`.
    init(contentsOf path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let root = try JSONParser(maximumDepth: 64).parse([UInt8](data))
        guard root["format"]?.stringValue == "layout-lp/1" else {
            throw FormatError(description: "\(path): not a layout-lp/1 object")
        }
        name = root["meta"]?["name"]?.stringValue ?? URL(fileURLWithPath: path).lastPathComponent
        guard let names = root["variables"]?.arrayValue?.compactMap(\.stringValue) else { throw FormatError(description: "variables") }
        variables = names
        var index: [String: Int] = [:]
        for (position, variable) in names.enumerated() { index[variable] = position }

        func strength(_ value: JSONValue?) throws -> Double {
            if let text = value?.stringValue, let number = Self.named[text] { return number }
            if let number = value?.numberValue { return min(number, Self.kiwiRequired) }
            throw FormatError(description: "bad strength")
        }

        rows = []
        for item in root["constraints"]?.arrayValue ?? [] {
            var terms: [(Double, Int)] = []
            for pair in item["terms"]?.arrayValue ?? [] {
                guard let parts = pair.arrayValue, parts.count == 2, let coefficient = parts[0].numberValue,
                      let variable = parts[1].stringValue, let position = index[variable] else {
                    throw FormatError(description: "bad term")
                }
                terms.append((coefficient, position))
            }
            let relation: RelationalOperator
            switch item["op"]?.stringValue {
            case "==": relation = .equal
            case "<=": relation = .lessThanOrEqual
            case ">=": relation = .greaterThanOrEqual
            default: throw FormatError(description: "bad op")
            }
            rows.append(Row(terms: terms, constant: item["constant"]?.numberValue ?? 0,
                            relation: relation, kiwiStrength: try strength(item["strength"])))
        }
        removals = []
        for item in root["x-remove"]?.arrayValue ?? [] {
            guard let number = item.numberValue, number >= 0, number < Double(rows.count), number == number.rounded() else {
                throw FormatError(description: "bad x-remove index")
            }
            removals.append(Int(number))
        }
        edits = []
        for item in root["edits"]?.arrayValue ?? [] {
            guard let variable = item["variable"]?.stringValue, let position = index[variable],
                  let values = item["values"]?.arrayValue?.compactMap(\.numberValue) else {
                throw FormatError(description: "bad edit")
            }
            edits.append(Edit(variable: position, kiwiStrength: try strength(item["strength"]), values: values))
        }
        guard edits.allSatisfy({ $0.values.count == steps }) else {
            throw FormatError(description: "edit value lists differ in length")
        }
    }

    /// The solver strength of a kiwi number: each distinct number is its own strict
    /// level, ordered by value; `>= required` is required.
    static func strength(_ kiwi: Double) -> Strength {
        kiwi >= kiwiRequired ? .required : Strength(kiwi)
    }

    /// Creates the solver-side constraints (the timed `build_objects` phase).
    func makeConstraints() -> [Constraint] {
        rows.map { row in
            Constraint(Expression(terms: row.terms.map { Term(Variable(id: $0.variable), $0.coefficient) },
                                  constant: row.constant),
                       row.relation, strength: Self.strength(row.kiwiStrength))
        }
    }

    /// kiwi's weighted objective `Σ strength·violation` over non-required constraints,
    /// and the largest required violation, at `values` (indexed like `variables`).
    func evaluate(_ values: [Double]) -> (objective: Double, maxRequiredViolation: Double) {
        var objective = 0.0
        var maxRequired = 0.0
        for row in rows {
            var residual = row.constant
            for term in row.terms { residual += term.coefficient * values[term.variable] }
            let violation: Double
            switch row.relation {
            case .equal: violation = abs(residual)
            case .lessThanOrEqual: violation = max(0, residual)
            case .greaterThanOrEqual: violation = max(0, -residual)
            }
            if row.kiwiStrength >= Self.kiwiRequired {
                maxRequired = max(maxRequired, violation)
            } else {
                objective += row.kiwiStrength * violation
            }
        }
        return (objective, maxRequired)
    }
}

// MARK: - Output helpers

/// `round(Σ values, 3)` with compensated (Neumaier) summation, like Python's `fsum`.
func checksum(_ values: [Double]) -> Double {
    var sum = 0.0
    var compensation = 0.0
    for value in values {
        let total = sum + value
        if abs(sum) >= abs(value) {
            compensation += (sum - total) + value
        } else {
            compensation += (value - total) + sum
        }
        sum = total
    }
    return ((sum + compensation) * 1000).rounded() / 1000
}

/// A JSON number (finite) or `null`.
func json(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "null" }
    if value == value.rounded() && abs(value) < 1e15 { return String(format: "%.1f", value) }
    return "\(value)"
}

/// A JSON string literal.
func json(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
            if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out + "\""
}

func writeLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func fail(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data("layoutd-bench: \(message)\n".utf8))
    return 1
}
