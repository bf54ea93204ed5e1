/// An ordered list of header (or trailer) fields (RFC 9110 §5).
///
/// Order and duplicates are kept as received. Lookup by name is ASCII
/// case-insensitive, as field names are (RFC 9110 §5.1). Values are stored
/// without leading or trailing whitespace (RFC 9112 §5.1).
///
/// - Complexity: lookups are O(n) in the number of fields; requests carry few.
public struct HTTPFields: Sendable, Sequence, Equatable, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    /// One field line: its name as sent and its value.
    public struct Field: Sendable, Equatable {
        /// The field name as sent (or as the handler wrote it).
        public var name: String
        /// The field value, without leading or trailing whitespace.
        public var value: String
        /// `name` in ASCII lowercase, for comparisons.
        var canonicalName: String

        /// A field line; `name` is also kept ASCII-lowercased for lookups.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
            self.canonicalName = asciiLowercased(name)
        }

        /// A field line whose lowercase name is already known (the parser's).
        init(name: String, value: String, canonicalName: String) {
            self.name = name
            self.value = value
            self.canonicalName = canonicalName
        }

        /// Names compare case-insensitively, values exactly.
        public static func == (lhs: Field, rhs: Field) -> Bool {
            lhs.canonicalName == rhs.canonicalName && lhs.value == rhs.value
        }
    }

    private var fields: [Field] = []

    /// An empty list.
    public init() {}

    /// An empty list with room for `count` fields.
    init(reservingCapacity count: Int) {
        fields.reserveCapacity(count)
    }

    /// Fields in the order written, e.g. `["Content-Type": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields.reserveCapacity(elements.count)
        for (name, value) in elements {
            fields.append(Field(name: name, value: value))
        }
    }

    /// Fields in the order written, e.g. `[("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")]`; `[]` is empty.
    public init(arrayLiteral elements: (String, String)...) {
        fields.reserveCapacity(elements.count)
        for (name, value) in elements {
            fields.append(Field(name: name, value: value))
        }
    }

    /// The number of field lines.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field named `name` (case-insensitive), or `nil`.
    public subscript(_ name: String) -> String? {
        for field in fields where asciiCaseInsensitiveEqual(canonical: field.canonicalName, name) {
            return field.value
        }
        return nil
    }

    /// The values of every field named `name` (case-insensitive), in order.
    public func values(_ name: String) -> [String] {
        var values: [String] = []
        for field in fields where asciiCaseInsensitiveEqual(canonical: field.canonicalName, name) {
            values.append(field.value)
        }
        return values
    }

    /// Whether a field named `name` (case-insensitive) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { asciiCaseInsensitiveEqual(canonical: $0.canonicalName, name) }
    }

    /// Adds a field line at the end, keeping any existing ones of the same name.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Appends a field whose canonical name is already known (parser fast path).
    mutating func append(_ field: Field) {
        fields.append(field)
    }

    /// Replaces every field named `name` with one line `name: value`.
    public mutating func set(_ name: String, _ value: String) {
        removeAll(name)
        append(name, value)
    }

    /// Removes every field named `name` (case-insensitive).
    public mutating func removeAll(_ name: String) {
        let key = asciiLowercased(name)
        fields.removeAll { $0.canonicalName == key }
    }

    /// Whether the comma-separated list in the fields named `name` contains
    /// `token`, compared ASCII case-insensitively (RFC 9110 §5.6.1), e.g.
    /// `Connection: keep-alive, Upgrade` contains `"close"`? No.
    public func containsToken(_ token: String, in name: String) -> Bool {
        guard fields.contains(where: { asciiCaseInsensitiveEqual(canonical: $0.canonicalName, name) }) else { return false }
        let key = asciiLowercased(name)
        let wanted = asciiLowercased(token)
        for field in fields where field.canonicalName == key {
            for item in field.value.split(separator: ",") {
                if asciiLowercased(trimmingOWS(item)) == wanted { return true }
            }
        }
        return false
    }

    /// The fields in order, duplicates included.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

/// ASCII-only lowercase (field names and tokens are ASCII; RFC 9110 §5.1).
/// Whether `name` equals `canonical` (already ASCII-lowercase) ignoring ASCII
/// case (RFC 9110 §5.1), without building a lowercased copy of `name`.
///
/// - Complexity: O(length); no allocation.
func asciiCaseInsensitiveEqual(canonical: String, _ name: String) -> Bool {
    let left = canonical.utf8, right = name.utf8
    guard left.count == right.count else { return false }
    // Native strings (all but bridged ones): compare the contiguous bytes.
    if let equal = left.withContiguousStorageIfAvailable({ l in
        right.withContiguousStorageIfAvailable { r -> Bool in
            for index in 0..<l.count {
                let byte = l[index], other = r[index]
                if byte != other && byte != (other >= 0x41 && other <= 0x5A ? other | 0x20 : other) { return false }
            }
            return true
        }
    }), let equal { return equal }
    var rightIndex = right.startIndex
    for byte in left {
        let other = right[rightIndex]
        if byte != other && byte != (other >= 0x41 && other <= 0x5A ? other | 0x20 : other) { return false }
        rightIndex = right.index(after: rightIndex)
    }
    return true
}

func asciiLowercased<S: StringProtocol>(_ string: S) -> String {
    let needsChange = string.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.contains { $0 >= 0x41 && $0 <= 0x5A }
    } ?? string.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
    if !needsChange { return String(string) }
    let utf8 = string.utf8
    // Written in place: no intermediate array (short names stay inline in the String).
    return String(unsafeUninitializedCapacity: utf8.count) { buffer in
        var index = 0
        for byte in utf8 {
            buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            index += 1
        }
        return index
    }
}

/// Removes leading and trailing optional whitespace (SP / HTAB; RFC 9110 §5.6.3).
func trimmingOWS<S: StringProtocol>(_ string: S) -> String {
    let utf8 = Array(string.utf8)
    var start = 0
    var end = utf8.count
    while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start += 1 }
    while end > start, utf8[end - 1] == 0x20 || utf8[end - 1] == 0x09 { end -= 1 }
    return String(decoding: utf8[start..<end], as: UTF8.self)
}
