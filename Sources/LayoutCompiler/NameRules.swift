import LayoutSyntax

/// The largest magnitude of a length or constant layoutd accepts, points (1e12): far
/// beyond any screen, and small enough that sums of many of them stay exact to well
/// below a point in a `Double`.
public let maximumMagnitude = 1e12

/// Whether `name` is a valid view or metric name: `[A-Za-z_][A-Za-z0-9_]*`.
public func isValidName(_ name: String) -> Bool {
    guard let first = name.utf8.first, first == UInt8(ascii: "_") || isASCIILetter(first) else { return false }
    return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
}

/// The name rule for a message about an invalid `name`: `names match
/// [A-Za-z_][A-Za-z0-9_]*`, and the first character outside ASCII by its code point, as
/// it may look like an ASCII letter (U+212A KELVIN SIGN is `K`'s twin).
func nameRule(_ name: String) -> String {
    let rule = "names match [A-Za-z_][A-Za-z0-9_]*"
    guard let scalar = name.unicodeScalars.first(where: { !$0.isASCII }) else { return rule }
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return rule + " (U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + " is not ASCII)"
}

/// Whether `name` is a valid group name: `[A-Za-z0-9][A-Za-z0-9._-]{0,127}`.
public func isValidGroupName(_ name: String) -> Bool {
    let bytes = name.utf8
    guard let first = bytes.first, bytes.count <= 128, isASCIILetter(first) || (first >= 0x30 && first <= 0x39) else { return false }
    return bytes.allSatisfy { isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
}

private func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
}

/// The 422 for a valid `kind` name (`View`, `Metric`) over ``SceneLimits/maxNameLength``:
/// the message quotes the name cut (``Diagnostic/echo(_:)``), as does `path`.
func nameTooLong(_ kind: String, _ name: String, path: String) -> LayoutDiagnostic {
    LayoutDiagnostic(code: .invalidScene,
                     message: "\(kind) name '\(Diagnostic.echo(name))' is \(name.utf8.count) characters long; names are at most \(SceneLimits.maxNameLength) characters (limit maxNameLength)",
                     path: path)
}

/// `.name` for identifier-like names, `["na me"]` otherwise; a name longer than
/// ``Diagnostic/maxEchoLength`` is cut first (``Diagnostic/echo(_:)``: its path ends in `…`).
func pathComponent(_ name: String) -> String {
    let name = Diagnostic.echo(name)
    if isValidName(name) { return "." + name }
    var escaped = ""
    for scalar in name.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return "[\"\(escaped)\"]"
}
