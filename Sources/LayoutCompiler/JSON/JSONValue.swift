/// A JSON value (RFC 8259) that keeps the order of object members as written.
///
/// layoutd parses request bodies with its own parser (``JSONParser``) rather than
/// Foundation's `JSONSerialization` because the scene compiler needs three things the
/// latter does not give on Linux: booleans that are never confused with the numbers
/// 0 and 1, the byte offset of a syntax error for the `invalid_json` diagnostic, and a
/// nesting limit that is an error rather than a deep recursion.
///
/// Equality is by bytes: strings and member names are equal when their UTF-8 is
/// (``utf8Equal(_:_:)``), not when Swift's `String ==` finds them canonically equivalent.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// Every JSON number, as a `Double` (RFC 8259 §6 leaves precision to the implementation).
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order. A name may repeat (RFC 8259 §4 leaves duplicates
    /// undefined; the scene decoder refuses them); ``subscript(_:)`` finds the last one.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return utf8Equal(a, b)
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { utf8Equal($0.0, $1.0) && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value of the last member whose name has `key`'s bytes (``utf8Equal(_:_:)``:
    /// a canonically equivalent spelling is another name), or `nil` when this is not an
    /// object or has no such member.
    ///
    /// - Complexity: O(n) in the number of members.
    public subscript(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { utf8Equal($0.0, key) })?.1
    }

    /// The string, when this is one.
    public var stringValue: String? { if case .string(let text) = self { return text } else { return nil } }
    /// The number, when this is one.
    public var numberValue: Double? { if case .number(let value) = self { return value } else { return nil } }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let items) = self { return items } else { return nil } }

    /// A short English name of the value's JSON type, for messages ("a string", "an object").
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
