/// The members of a JSON text's top-level object as byte ranges, found without building
/// values: a tokenizer that only matches brackets and skips strings (RFC 8259 §7:
/// a string ends at the first `"` not escaped by `\`).
///
/// It does not validate: on valid JSON it finds exactly the members ``JSONParser`` would
/// read, and on other input it may find anything, or `nil`. The service uses it to find
/// a scene's `container` and `sizes` in a body whose other bytes equal those of a body
/// that parsed (see its structure cache), parsing only those two values anew.
public enum JSONSkim {
    /// One member: the bytes of its name between the quotes (escapes left as written),
    /// and the bytes of its value, without surrounding whitespace.
    public struct Member: Sendable, Equatable {
        public var name: Range<Int>
        public var value: Range<Int>
    }

    /// The members of the top-level object of `bytes`, in order; `nil` unless the text
    /// looks like one object (`{`, members, `}`, whitespace around).
    /// - Complexity: O(n) in the length of `bytes`, no allocation but the result.
    public static func topLevelMembers(_ bytes: [UInt8]) -> [Member]? {
        bytes.withUnsafeBufferPointer { buffer -> [Member]? in
            var scanner = Scanner(buffer: buffer)
            return scanner.members()
        }
    }

    /// The end of the value that starts at `start` in `bytes` (its first byte, no
    /// whitespace before it): the index after its last byte, or `nil` when it is cut off.
    /// Like ``topLevelMembers(_:)`` it does not validate: on a valid value it finds
    /// exactly its end.
    /// - Complexity: O(length of the value).
    public static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard start >= 0, start < bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            var scanner = Scanner(buffer: buffer)
            scanner.position = start
            return scanner.skipValue() ? scanner.position : nil
        }
    }

    /// The tokenizer's position in the text.
    private struct Scanner {
        let buffer: UnsafeBufferPointer<UInt8>
        var position = 0

        init(buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

        @inline(__always)
        static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

        mutating func skipWhitespace() {
            while position < buffer.count, Self.isWhitespace(buffer[position]) { position += 1 }
        }

        /// Skips a string starting at its opening quote; false if it does not end.
        mutating func skipString() -> Bool {
            position += 1
            while position < buffer.count {
                let byte = buffer[position]
                if byte == UInt8(ascii: "\"") { position += 1; return true }
                position += byte == UInt8(ascii: "\\") ? 2 : 1
            }
            return false
        }

        /// Skips one value; false if it is cut off.
        mutating func skipValue() -> Bool {
            guard position < buffer.count else { return false }
            switch buffer[position] {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while position < buffer.count {
                    switch buffer[position] {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { position += 1; return true }
                    default: break
                    }
                    position += 1
                }
                return false
            default:
                // A number or a literal: up to the next delimiter.
                let start = position
                while position < buffer.count {
                    let byte = buffer[position]
                    if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || Self.isWhitespace(byte) { break }
                    position += 1
                }
                return position > start
            }
        }

        mutating func members() -> [Member]? {
            skipWhitespace()
            guard position < buffer.count, buffer[position] == UInt8(ascii: "{") else { return nil }
            position += 1
            var members: [Member] = []
            skipWhitespace()
            if position < buffer.count, buffer[position] == UInt8(ascii: "}") {
                position += 1
            } else {
                while true {
                    skipWhitespace()
                    guard position < buffer.count, buffer[position] == UInt8(ascii: "\"") else { return nil }
                    let nameStart = position + 1
                    guard skipString() else { return nil }
                    let name = nameStart..<(position - 1)
                    skipWhitespace()
                    guard position < buffer.count, buffer[position] == UInt8(ascii: ":") else { return nil }
                    position += 1
                    skipWhitespace()
                    let valueStart = position
                    guard skipValue() else { return nil }
                    members.append(Member(name: name, value: valueStart..<position))
                    skipWhitespace()
                    guard position < buffer.count else { return nil }
                    if buffer[position] == UInt8(ascii: ",") { position += 1; continue }
                    guard buffer[position] == UInt8(ascii: "}") else { return nil }
                    position += 1
                    break
                }
            }
            skipWhitespace()
            return position == buffer.count ? members : nil
        }
    }
}
