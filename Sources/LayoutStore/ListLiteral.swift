/// A list of strings written as one text parameter, so that a statement looks up any
/// number of names with one bound value: a JSON array for SQLite's `json_each`, an array
/// literal for PostgreSQL's `$1::text[]`. Both quote every element with `"` and escape
/// by their own rules.
enum ListLiteral {
    /// `values` as a JSON array of strings (RFC 8259 §7: `"`, `\` and control characters
    /// escaped).
    static func json(_ values: [String]) -> String {
        quoted(values, open: "[", close: "]") { scalar, text in
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
    }

    /// `values` as a PostgreSQL array literal of text (`{"a","b"}`): every element quoted,
    /// `"` and `\` escaped with a backslash
    /// (<https://www.postgresql.org/docs/15/arrays.html#ARRAYS-IO>).
    static func postgreSQLArray(_ values: [String]) -> String {
        quoted(values, open: "{", close: "}") { scalar, text in
            if scalar == "\"" || scalar == "\\" { text += "\\" }
            text.unicodeScalars.append(scalar)
        }
    }

    /// `open`, each value in `"` with its scalars written by `escape`, separated by `,`, `close`.
    private static func quoted(
        _ values: [String], open: String, close: String, escape: (Unicode.Scalar, inout String) -> Void
    ) -> String {
        var text = open
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for scalar in value.unicodeScalars { escape(scalar, &text) }
            text += "\""
        }
        return text + close
    }
}
