/// Writes JSON (RFC 8259) into a UTF-8 byte buffer, with the number format layoutd
/// promises: integral values without a fraction (`20`, not `20.0`), other values in
/// the shortest form that reads back to the same `Double`, and `-0` as `0`.
///
/// The writer does not check that calls nest properly; callers build well-formed
/// documents (objects: ``key(_:)`` before each value; commas are inserted for you).
///
/// Bounded: a writer made with a `limit` (an answer's `--max-response-bytes`) writes into
/// an ``AnswerBytes``, which stops as soon as the document would pass it; every call
/// after that does nothing, ``stop`` says why, and ``bytes`` is empty. Callers check
/// ``finish()`` before using the bytes. Without a limit it never stops.
public struct JSONWriter: Sendable {
    private var out: AnswerBytes
    private var needsComma = false

    /// The bytes written so far (empty once the writer stopped).
    public var bytes: [UInt8] { out.bytes }
    /// Why the writer stopped (the answer passed its limit or its pool), or `nil`.
    public var stop: AnswerStop? { out.stop }
    /// Pool bytes held for this answer; keep it with the bytes until they are sent.
    public var reservation: AnswerReservation? { out.reservation }

    /// An empty writer without a limit; `capacity` is a hint in bytes.
    public init(reservingCapacity capacity: Int = 256) {
        out = AnswerBytes(reservingCapacity: capacity)
    }

    /// An empty writer of at most `limit` bytes (``AnswerBytes``), drawing on `pool`
    /// beyond its first MiB; `capacity` is a hint in bytes.
    public init(limit: Int, pool: (any AnswerBytePool)? = nil, reservingCapacity capacity: Int = 256) {
        out = AnswerBytes(limit: limit, pool: pool, reservingCapacity: capacity)
    }

    /// Whether the document is complete within its limit: false when the writer stopped
    /// or the last values took it past the limit (``stop`` then says why).
    @discardableResult
    public mutating func finish() -> Bool { out.finish() }

    private mutating func separate() {
        if needsComma { out.append(UInt8(ascii: ",")) }
    }

    /// Opens an object (`{`); follow with ``key(_:)`` and a value per member.
    public mutating func beginObject() { guard out.admits() else { return }; separate(); out.append(UInt8(ascii: "{")); needsComma = false }
    /// Closes the innermost object (`}`).
    public mutating func endObject() { guard out.admits() else { return }; out.append(UInt8(ascii: "}")); needsComma = true }
    /// Opens an array (`[`).
    public mutating func beginArray() { guard out.admits() else { return }; separate(); out.append(UInt8(ascii: "[")); needsComma = false }
    /// Closes the innermost array (`]`).
    public mutating func endArray() { guard out.admits() else { return }; out.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes a member name and the colon; the next value call writes its value.
    public mutating func key(_ name: String) {
        guard out.admits() else { return }
        separate()
        appendQuoted(name)
        out.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name that needs no escaping (no `"`, `\\` or control
    /// characters: the caller's constant), without scanning it: the frames' `x`, `y`,
    /// `width` and `height`, written for every view of every answer.
    public mutating func key(plain name: StaticString) {
        guard out.admits(name.utf8CodeUnitCount) else { return }
        separate()
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append($0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string, escaped per RFC 8259 §7 (UTF-8 passes through).
    public mutating func string(_ value: String) { guard out.admits() else { return }; separate(); appendQuoted(value); needsComma = true }
    /// Writes a number in ``format(_:)``'s form.
    public mutating func number(_ value: Double) {
        guard out.admits() else { return }
        separate()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxNumberBytes) { buffer in
            let count = Self.formatNumber(value, into: buffer.baseAddress!)
            out.append(UnsafeBufferPointer(start: buffer.baseAddress, count: count))
        }
        needsComma = true
    }

    /// Writes a frame, `{"x":X,"y":Y,"width":W,"height":H}` (numbers in ``format(_:)``'s
    /// form): the bytes of ``beginObject()``, ``key(plain:)`` and ``number(_:)`` for each
    /// field and ``endObject()``, formatted on the stack and appended at once (an answer
    /// writes one per view).
    public mutating func frame(x: Double, y: Double, width: Double, height: Double) {
        writeFrame(plainName: nil, x: x, y: y, width: width, height: height)
    }

    /// Writes the member `"NAME":` and its frame (``frame(x:y:width:height:)``): the bytes
    /// of ``key(_:)`` and that call, in one append when the name needs no escape and has
    /// at most ``maxPlainNameBytes`` bytes.
    public mutating func frame(named name: String, x: Double, y: Double, width: Double, height: Double) {
        // The name is checked as it is copied; one that needs an escape is written by `key`.
        if name.utf8.count <= Self.maxPlainNameBytes && writeFrame(plainName: name, x: x, y: y, width: width, height: height) { return }
        key(name)
        writeFrame(plainName: nil, x: x, y: y, width: width, height: height)
    }

    /// The longest member name ``frame(named:x:y:width:height:)`` writes in one append.
    static let maxPlainNameBytes = 64

    /// ``frame(named:x:y:width:height:)`` with a name of at most ``maxPlainNameBytes``
    /// bytes, or none.
    /// - Returns: false, having written nothing, when the name needs an escape (a byte
    ///   below 0x20, `"` or `\`) or its bytes are not contiguous.
    @discardableResult
    private mutating func writeFrame(plainName name: String?, x: Double, y: Double, width: Double, height: Double) -> Bool {
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * Self.maxNumberBytes + Self.maxPlainNameBytes + 40) { buffer -> Bool in
            let start = buffer.baseAddress!
            var end = start
            if needsComma { end.initialize(to: UInt8(ascii: ",")); end += 1 }
            if let name {
                end.initialize(to: UInt8(ascii: "\"")); end += 1
                let plain = name.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                    for byte in bytes {
                        if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
                        end.initialize(to: byte); end += 1
                    }
                    return true
                }
                guard plain == true else { return false }
                end.initialize(to: UInt8(ascii: "\"")); end += 1
                end.initialize(to: UInt8(ascii: ":")); end += 1
            }
            @inline(__always) func put(_ literal: StaticString) {
                literal.withUTF8Buffer { bytes in
                    for byte in bytes { end.initialize(to: byte); end += 1 }
                }
            }
            put("{\"x\":")
            end += Self.formatNumber(x, into: end)
            put(",\"y\":")
            end += Self.formatNumber(y, into: end)
            put(",\"width\":")
            end += Self.formatNumber(width, into: end)
            put(",\"height\":")
            end += Self.formatNumber(height, into: end)
            put("}")
            let written = UnsafeBufferPointer(start: start, count: end - start)
            // Checked as the bytes are: a frame past the limit stops the writer here, and
            // the answer is the same stop as if written field by field.
            guard out.admits(written.count) else { return true }
            out.append(written)
            return true
        }
        guard written else { return false }
        needsComma = true
        return true
    }

    /// The most bytes ``formatNumber(_:into:)`` writes: `description`'s longest form,
    /// `-2.2250738585072014e-308`, is 24.
    static let maxNumberBytes = 32

    /// Writes `value` in ``format(_:)``'s form at `buffer` (room for ``maxNumberBytes``)
    /// and returns the byte count: values of ``writeShortBinary(_:into:)`` (whole points
    /// and pixel grids of display scales 2, 4 and 8 below 2³¹: nearly every answered
    /// coordinate), other integral values and those of ``writeMicroDecimal(_:into:)``
    /// without a String, others from `description`.
    ///
    /// ``writeMicros(_:into:)`` first: every value ``roundedForResponse(_:)`` returns
    /// below 10⁹ (every answered coordinate), whole or not, in one pass.
    @inline(__always)
    static func formatNumber(_ value: Double, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let micros = writeMicros(value, into: buffer)
        if micros > 0 { return micros }
        let short = writeShortBinary(value, into: buffer)
        if short > 0 { return short }
        return formatOtherNumber(value, into: buffer)
    }

    /// Writes `value` when |value| < 10⁹ and it is ±0, or the double nearest a decimal
    /// `n / 10⁶` with n ≥ 100 (what ``roundedForResponse(_:)`` returns: whole numbers,
    /// and fractions of 10⁻⁴ and more), in the bytes ``format(_:)`` writes for it: `0` for
    /// ±0, `-` for another negative value, the integer part, and for a fraction `.` and its
    /// digits without trailing zeros. Returns the byte count, or 0 for any other value
    /// (NaN and infinities included), having written nothing the caller reads.
    ///
    /// Why the bytes are ``format(_:)``'s: a whole value (its truncation equals it) is
    /// written as ``format(_:)`` writes integers. Any other is the argument of ``writeMicroDecimal(_:into:)``: `n / 10⁶` has at most 15
    /// significant digits, so it is the shortest decimal that reads back to the value, and
    /// from 10⁻⁴ on `description` writes it positionally. n is found by rounding the
    /// scaled value (within a quarter of n, as there), and the division checks it.
    /// Held byte for byte against ``format(_:)`` by
    /// `JSONWriterTests.microDecimalsAreWrittenAsDescriptionWritesThem`.
    ///
    /// Complexity: O(digits), two digits at a time; no allocation.
    @inline(__always)
    static func writeMicros(_ value: Double, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = abs(value)
        guard magnitude < 1e9 else { return 0 }   // false for NaN too
        // A whole number (most coordinates and every integer of a body's canonical form):
        // its digits, without scaling.
        let integral = Int64(magnitude)
        if Double(integral) == magnitude {
            if integral == 0 { buffer[0] = UInt8(ascii: "0"); return 1 }   // ±0
            var count = 0
            if value < 0 { buffer[0] = UInt8(ascii: "-"); count = 1 }
            return count &+ writeWhole(UInt32(truncatingIfNeeded: integral), into: buffer + count)
        }
        // Below 10¹⁵: its truncation is exact, and signed conversions both ways are single
        // instructions (unsigned ones are not).
        let scaled = magnitude * 1_000_000
        let truncated = Int64(scaled)
        let micros = scaled - Double(truncated) >= 0.5 ? truncated &+ 1 : truncated
        guard Double(micros) / 1_000_000 == magnitude else { return 0 }
        // Not whole, so the fraction is not 0; below 10⁻⁴ `description` writes an exponent.
        guard micros >= 100 else { return 0 }
        let wholeMicros = micros / 1_000_000
        let whole = UInt32(truncatingIfNeeded: wholeMicros)
        var fraction = UInt32(truncatingIfNeeded: micros &- wholeMicros &* 1_000_000)
        var count = 0
        if value < 0 { buffer[0] = UInt8(ascii: "-"); count = 1 }
        count &+= writeWhole(whole, into: buffer + count)
        buffer[count] = UInt8(ascii: ".")
        // The six fraction digits as three pairs, then the trailing zeros dropped (the
        // fraction is not 0: a digit other than 0 stays).
        let end = count &+ 7
        digitPairs.withUTF8Buffer { pairs in
            var place = end
            for _ in 0..<3 {
                let pair = Int(fraction % 100) &* 2
                fraction /= 100
                place &-= 2
                buffer[place] = pairs[pair]
                buffer[place &+ 1] = pairs[pair &+ 1]
            }
        }
        var last = end
        while buffer[last &- 1] == UInt8(ascii: "0") { last &-= 1 }
        return last
    }

    /// ``formatNumber(_:into:)`` for a value ``writeShortBinary(_:into:)`` does not write;
    /// kept out of line so that the common path is inlined without this one's frame.
    @inline(never)
    static func formatOtherNumber(_ value: Double, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        if value.isFinite, value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 {
            return writeDigits(Int64(value), into: buffer)   // integral, at or past 2³¹
        }
        let count = writeMicroDecimal(value, into: buffer)
        if count > 0 { return count }
        var text = format(value)
        return text.withUTF8 { bytes in
            let count = min(bytes.count, maxNumberBytes)
            for index in 0..<count { buffer[index] = bytes[index] }
            return count
        }
    }

    /// Writes `value` when |value| < 2³¹ and it is a whole number or a multiple of 1/32
    /// (`12`, `-0.5`, `7.25`, `0.03125`) in the bytes ``format(_:)`` writes for it, digit
    /// by digit without a String: `-` for a negative value other than `-0`, the integer
    /// part, and for a fraction `.` and its digits without trailing zeros. Returns the byte
    /// count, or 0, writing nothing, for any other value (NaN and infinities included).
    ///
    /// Why the bytes are `description`'s: a multiple of 1/32 below 2³¹ is exactly a decimal
    /// of at most 10 integer and 5 fraction digits, 15 significant digits or fewer, and
    /// at least 1/32 > 10⁻⁴, where `description` is positional. `description` writes the
    /// shortest decimal that reads back to the value; two different decimals of at most 15
    /// significant digits never read back to the same double (`DBL_DIG` is 15), so the
    /// shortest is that exact decimal without its trailing zeros. Whole numbers are
    /// ``format(_:)``'s integers, `-0` written `0`. Held byte for byte against
    /// ``format(_:)`` by `JSONWriterTests.microDecimalsAreWrittenAsDescriptionWritesThem`
    /// (every k/32 for |k| ≤ 2¹⁸, both sides of 2³¹, values one ulp off each fraction).
    ///
    /// Complexity: O(digits), no allocation.
    @inline(__always)
    static func writeShortBinary(_ value: Double, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = abs(value)
        guard magnitude < 2_147_483_648 else { return 0 }   // false for NaN too
        let whole = UInt32(magnitude)   // toward zero
        // Exact: a double below 2³¹ less its integer part loses no bit.
        let scaled = (magnitude - Double(whole)) * 32   // exact: a power of two
        let steps = UInt32(scaled)   // the fraction in 32nds
        guard Double(steps) == scaled else { return 0 }
        if steps == 0 {
            // Whole: `-0` is `0` (format(_:) writes integers through Int64).
            if whole == 0 { buffer[0] = UInt8(ascii: "0"); return 1 }
            var count = 0
            if value < 0 { buffer[0] = UInt8(ascii: "-"); count = 1 }
            return count + writeWhole(whole, into: buffer + count)
        }
        // k/32 = (k · 3125) / 10⁵: five fraction digits.
        return writeDecimal(negative: value < 0, whole: whole, fraction: steps &* 3125, digits: 5, into: buffer)
    }

    /// Writes `-` when `negative`, `whole`, `.` and the `digits`-digit `fraction` (non-zero,
    /// leading zeros kept: 5 of 6 digits is `000005`) without its trailing zeros; returns
    /// the byte count. The shared tail of ``writeShortBinary(_:into:)`` and
    /// ``writeMicroDecimal(_:into:)``.
    @inline(__always)
    static func writeDecimal(negative: Bool, whole: UInt32, fraction: UInt32, digits: Int,
                             into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        if negative { buffer[0] = UInt8(ascii: "-"); count = 1 }
        count += writeWhole(whole, into: buffer + count)
        buffer[count] = UInt8(ascii: ".")
        count += 1
        var fraction = fraction
        var digits = digits
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        for place in stride(from: digits - 1, through: 0, by: -1) {
            buffer[count + place] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
            fraction /= 10
        }
        return count + digits
    }

    /// The two-digit decimal forms of 0 to 99, `00` to `99`, back to back.
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes the decimal digits of `value` (no sign; `0` is `0`) at `buffer` (room for 10
    /// bytes), two at a time, and returns their count.
    @inline(__always)
    static func writeWhole(_ value: UInt32, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var power: UInt32 = 10
        while digits < 10 && value >= power {
            digits += 1
            power &*= 10
        }
        return digitPairs.withUTF8Buffer { pairs in
            var rest = value
            var place = digits
            while rest >= 100 {
                let pair = Int(rest % 100) &* 2
                rest /= 100
                place -= 2
                buffer[place] = pairs[pair]
                buffer[place + 1] = pairs[pair + 1]
            }
            if rest >= 10 {
                let pair = Int(rest) &* 2
                buffer[place - 2] = pairs[pair]
                buffer[place - 1] = pairs[pair + 1]
            } else {
                buffer[place - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
            }
            return digits
        }
    }

    /// Writes a non-integral `value` with 10⁻⁴ ≤ |value| < 10⁹ that is the double
    /// nearest a decimal `n / 10⁶` (what ``roundedForResponse(_:)`` returns: every
    /// answered coordinate) in the bytes Swift's `description` writes for it, without a
    /// String: `-`, the integer part, `.`, the fraction without trailing zeros. Returns
    /// the byte count, or 0, writing nothing, for any other value.
    ///
    /// Why the bytes are `description`'s: `description` writes the shortest decimal that
    /// reads back to the value (the closest of those on a tie), in positional form for
    /// magnitudes from 10⁻⁴ to 2⁵³. `n / 10⁶` reads back to the value and has at most
    /// 15 significant digits (n < 10¹⁵); two different decimals of at most 15 significant
    /// digits never read back to the same double (`DBL_DIG` is 15), so no other decimal of
    /// that length or shorter does, and the shortest form is `n / 10⁶` without its
    /// trailing zeros. Held byte for byte against `description` by
    /// `JSONWriterTests.microDecimalsAreWrittenAsDescriptionWritesThem`.
    @inline(__always)
    static func writeMicroDecimal(_ value: Double, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = abs(value)
        guard magnitude >= 1e-4, magnitude < 1e9 else { return 0 }
        // Within a quarter of an integer n when the value is the double nearest n / 10⁶
        // (relative error 2⁻⁵³ of a product below 10¹⁵), so rounding finds n; the
        // division (correctly rounded) checks that the value is that double.
        let scaled = (magnitude * 1_000_000).rounded()
        guard scaled / 1_000_000 == magnitude else { return 0 }
        let micros = UInt64(scaled)
        let whole = UInt32(truncatingIfNeeded: micros / 1_000_000)   // < 10⁹
        let fraction = UInt32(truncatingIfNeeded: micros - UInt64(whole) * 1_000_000)
        guard fraction != 0 else { return 0 }   // integral: written as an integer
        return writeDecimal(negative: value < 0, whole: whole, fraction: fraction, digits: 6, into: buffer)
    }

    /// Writes an integer.
    public mutating func integer(_ value: Int) {
        guard out.admits() else { return }
        separate()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxNumberBytes) { buffer in
            let count = Self.writeDigits(Int64(value), into: buffer.baseAddress!)
            out.append(UnsafeBufferPointer(start: buffer.baseAddress, count: count))
        }
        needsComma = true
    }

    /// Writes the decimal digits of `value` (`-0` is `0`) at `buffer` (room for 20
    /// bytes) and returns their count.
    @inline(__always)
    static func writeDigits(_ value: Int64, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        if value == 0 { buffer[0] = UInt8(ascii: "0"); return 1 }
        var magnitude = value.magnitude
        var count = 0
        if value < 0 { buffer[0] = UInt8(ascii: "-"); count = 1 }
        var digits = 0
        var rest = magnitude
        while rest > 0 { rest /= 10; digits += 1 }
        for place in stride(from: count + digits - 1, through: count, by: -1) {
            buffer[place] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
        return count + digits
    }
    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) { guard out.admits() else { return }; separate(); out.append(contentsOf: (value ? "true" : "false").utf8); needsComma = true }
    /// Writes `null`.
    public mutating func null() { guard out.admits() else { return }; separate(); out.append(contentsOf: "null".utf8); needsComma = true }

    /// Writes a whole value; object members in document order, or sorted by name (by
    /// their UTF-8 bytes, then by position) when `sortingKeys` is true — the canonical
    /// form for cache keys.
    ///
    /// The canonical form keeps every member: a name given twice is written twice, in
    /// the order given, so two objects have the same canonical form only if they have the
    /// same members up to the order of distinct names. Names are compared by their bytes
    /// alone (never by Swift's `String ==`, which equates canonically equivalent
    /// spellings such as `K` and U+212A KELVIN SIGN): the order is a strict total order on
    /// (bytes, position). Held by `JSONTests.canonicalFormKeepsEveryMemberInByteOrder`.
    public mutating func value(_ value: JSONValue, sortingKeys: Bool = false) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element, sortingKeys: sortingKeys) }
            endArray()
        case .object(let members):
            beginObject()
            if sortingKeys {
                if members.count <= 32 {
                    // Small objects: an insertion sort in scratch memory, no array per
                    // object; names already in order, as canonical clients send them,
                    // cost one comparison each. Strict `precedes`: equal names keep
                    // their positions' order (the sort is stable).
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: members.count) { order in
                        for next in 0..<members.count {
                            var slot = next
                            while slot > 0 && utf8Precedes(members[next].0, members[order[slot - 1]].0) {
                                order[slot] = order[slot - 1]
                                slot -= 1
                            }
                            order[slot] = next
                        }
                        writeMembers(members, in: UnsafeBufferPointer(order))
                    }
                } else {
                    // Large objects (a 10,000-view scene's `views`): O(n log n).
                    let order = members.indices.sorted { a, b in
                        let order = utf8Compare(members[a].0, members[b].0)
                        return order < 0 || (order == 0 && a < b)
                    }
                    order.withUnsafeBufferPointer { writeMembers(members, in: $0) }
                }
            } else {
                for (name, member) in members {
                    key(name)
                    self.value(member, sortingKeys: false)
                }
            }
            endObject()
        }
    }

    /// Writes `members` in `order`, sorting nested objects too.
    private mutating func writeMembers(_ members: [(String, JSONValue)], in order: UnsafeBufferPointer<Int>) {
        for index in order {
            key(members[index].0)
            self.value(members[index].1, sortingKeys: true)
        }
    }

    /// Appends raw, already-serialized JSON as the next value.
    public mutating func raw(_ json: some Collection<UInt8>) {
        guard out.admits(json.count) else { return }
        separate()
        out.append(contentsOf: json)
        needsComma = true
    }

    /// Formats a finite number: integral values in ±2^53 as integers, others in Swift's
    /// shortest round-trip form (`0.5`, `1e-07`); `-0` → `0`; a non-finite value → `0`
    /// (callers never pass one: solver output is checked first).
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == 0 { return "0" }
        if value == value.rounded(.towardZero) && abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }

    /// Appends `text` in double quotes, escaping `"`, `\\` and control characters
    /// (RFC 8259 §7); runs without any of them are copied in one call.
    private mutating func appendQuoted(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            // The escaped form is at least this long: a string that cannot fit is not copied.
            guard out.admits(utf8.count + 2) else { return }
            out.append(UInt8(ascii: "\""))
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                // The rest is at least its raw bytes, one more for this escape, and the
                // closing quote (an escape's other up to 4 bytes are within the slack).
                guard out.admits(utf8.count - index + 2) else { return }
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hex.utf8Start[Int(byte >> 4)])
                    out.append(hex.utf8Start[Int(byte & 0xF)])
                }
            }
            if runStart < utf8.count { out.append(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
            out.append(UInt8(ascii: "\""))
        }
    }
}

/// Whether every byte of `text`'s UTF-8 is ASCII.
/// - Complexity: O(bytes), a word at a time where the bytes are contiguous (every
///   compiled constraint's caret column asks it of its source).
public func isASCII(_ text: String) -> Bool {
    let fast = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        while index + 8 <= bytes.count {
            if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if base[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
    return fast ?? text.utf8.allSatisfy { $0 < 0x80 }
}

/// Whether `a` and `b` have the same UTF-8 bytes: how client names are compared before
/// they are validated (Swift's `String ==` equates canonically equivalent spellings,
/// `K` and U+212A KELVIN SIGN, `é` and `e` + U+0301, and normalizes to find out).
/// - Complexity: O(min(|a|, |b|)) bytes, O(1) for different lengths.
///   Read in place (`withContiguousStorageIfAvailable`: no copy, no retain, a word at
///   a time); the generic `utf8.elementsEqual` walked both views' indices byte by byte,
///   and every decoded member name and object lookup comes here.
public func utf8Equal(_ a: String, _ b: String) -> Bool {
    if sameRepresentation(a, b) { return true }
    let count = a.utf8.count
    guard count == b.utf8.count else { return false }
    let fast = a.utf8.withContiguousStorageIfAvailable { left in
        b.utf8.withContiguousStorageIfAvailable { right in bytesEqual(left, right, count: count) }
    }
    if let fast, let answer = fast { return answer }
    return a.utf8.elementsEqual(b.utf8)
}

/// Whether `a` and `b` are the same two words: the same small string (its bytes are in
/// the words, as a decoded member name and the field name it is looked up by are), or
/// the same storage with the same count and flags. Equal bytes then, though equal bytes
/// may be held otherwise (`false` says nothing). A 64-bit `String` is two words.
@inline(__always)
private func sameRepresentation(_ a: String, _ b: String) -> Bool {
    guard MemoryLayout<String>.size == 16 else { return false }
    let left = unsafeBitCast(a, to: (UInt64, UInt64).self), right = unsafeBitCast(b, to: (UInt64, UInt64).self)
    return left.0 == right.0 && left.1 == right.1
}

/// Whether the first `count` bytes of `left` and `right` are equal, 8 at a time.
@inline(__always)
private func bytesEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, count: Int) -> Bool {
    guard count > 0, let l = left.baseAddress, let r = right.baseAddress else { return true }
    var index = 0
    while index + 8 <= count {
        if UnsafeRawPointer(l + index).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(r + index).loadUnaligned(as: UInt64.self) {
            return false
        }
        index += 8
    }
    while index < count {
        if l[index] != r[index] { return false }
        index += 1
    }
    return true
}

/// Whether `a`'s UTF-8 bytes sort before `b`'s (byte-wise, a prefix first): the order
/// of member names in canonical JSON and of names in a scene. A strict total order on
/// byte strings, unlike Swift's `String <`, which orders canonically equivalent
/// spellings as equal.
public func utf8Precedes(_ a: String, _ b: String) -> Bool {
    utf8Compare(a, b) < 0
}

/// -1, 0 or 1 as `a`'s UTF-8 bytes sort before, equal or after `b`'s (byte-wise, a
/// prefix first).
func utf8Compare(_ a: String, _ b: String) -> Int {
    // In place where both are contiguous (native strings: no copy, no retain), as `utf8Equal`.
    let fast = a.utf8.withContiguousStorageIfAvailable { left in
        b.utf8.withContiguousStorageIfAvailable { right -> Int in
            for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                return left[index] < right[index] ? -1 : 1
            }
            return left.count < right.count ? -1 : left.count == right.count ? 0 : 1
        }
    }
    if let fast, let order = fast { return order }
    var a = a
    var b = b
    return a.withUTF8 { left in
        b.withUTF8 { right in
            for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                return left[index] < right[index] ? -1 : 1
            }
            return left.count < right.count ? -1 : left.count == right.count ? 0 : 1
        }
    }
}

/// Rounds a coordinate to at most 6 decimal places, as responses promise (contract,
/// "Coordinates and units"); `-0` becomes `0`.
public func roundedForResponse(_ value: Double) -> Double {
    // Beyond 1e9 points a double has no 6 decimals left to round (its spacing there is
    // about 1e-7), and scaling by 1e6 could overflow: such values are returned as they are.
    guard value.isFinite, abs(value) < 1e9 else { return value }
    // `scaled.rounded()` (to nearest, halves away from zero) without a call into libm:
    // below 10¹⁵ in magnitude the truncation through Int64 is exact, and so is the
    // fraction `scaled - truncated` (`JSONWriterTests.roundingForTheResponseMatchesRounded`).
    let scaled = value * 1_000_000
    let truncated = Double(Int64(scaled))
    let fraction = scaled - truncated
    let nearest = fraction >= 0.5 ? truncated + 1 : fraction <= -0.5 ? truncated - 1 : truncated
    let rounded = nearest / 1_000_000
    return rounded == 0 ? 0 : rounded
}
