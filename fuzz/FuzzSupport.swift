// Shared by the libFuzzer targets: compiled together with Sources/LayoutSyntax/**/*.swift
// into one module (see scripts/fuzz-smoke.sh), so internal API is visible.

/// Metrics the fuzz targets parse with, so metric names are exercised too.
let fuzzOptions = ParseOptions(metrics: ["pad": 8, "gap": 12, "p": 750, "big": 1e308, "zero": 0])

/// Traps (so libFuzzer reports a crash) when a parse breaks an invariant the parsers promise.
func checkFuzzInvariants(_ result: ParseResult, source: String) {
    let length = source.utf8.count
    let scalars = source.unicodeScalars.count
    if result.hasErrors && !result.constraints.isEmpty { fatalError("constraints despite errors") }
    if result.diagnostics.count > ParseResult.maximumDiagnostics { fatalError("diagnostic cap exceeded") }
    for diagnostic in result.diagnostics {
        if diagnostic.message.isEmpty { fatalError("empty message") }
        if let span = diagnostic.span {
            if span.lowerBound < 0 || span.upperBound > length { fatalError("diagnostic span out of bounds") }
            guard let column = diagnostic.column(in: source), column <= scalars else { fatalError("column out of bounds") }
        }
        _ = diagnostic.rendered(source: source)
    }
    for constraint in result.constraints {
        if constraint.span.lowerBound < 0 || constraint.span.upperBound > length { fatalError("constraint span out of bounds") }
        for term in Array(constraint.lhs.terms) + Array(constraint.rhs.terms) {
            if !term.coefficient.isFinite { fatalError("non-finite coefficient") }
            if term.coefficient == 0 { fatalError("zero term kept") }
            if term.span.lowerBound < 0 || term.span.upperBound > length { fatalError("term span out of bounds") }
        }
        if !constraint.lhs.constant.isFinite || !constraint.rhs.constant.isFinite { fatalError("non-finite constant") }
        if let priority = constraint.priority, !(1...1000).contains(priority) { fatalError("priority out of range") }
        if constraint.lhs.terms.isEmpty && constraint.rhs.terms.isEmpty { fatalError("constraint without terms") }
        if constraint.text.isEmpty { fatalError("empty text") }
    }
}
