/// Serializes responses into wire bytes (RFC 9112 §4, §6).
enum ResponseEncoder {
    /// Appends the status line, fields and body of `response` to `buffer`.
    ///
    /// - Parameters:
    ///   - keepAlive: Whether the connection stays open after this response;
    ///     `false` writes `Connection: close`.
    ///   - requestVersion: An HTTP/1.0 request kept alive gets `Connection: keep-alive`.
    ///   - isHeadRequest: Writes the `Content-Length` of `body` but not the body
    ///     (RFC 9110 §9.3.2).
    ///   - date: The IMF-fixdate for the `Date` field (RFC 9110 §6.6.1).
    ///   - defaultFields: Fields written after the response's own unless it has a field
    ///     of the same name (``ServerLimits/responseFields``).
    /// - Complexity: O(size of the response); one buffer, appended in place.
    static func encode(
        _ response: HTTPResponse,
        keepAlive: Bool,
        requestVersion: HTTPVersion,
        isHeadRequest: Bool,
        date: String,
        defaultFields: HTTPFields = HTTPFields(),
        into buffer: inout [UInt8]
    ) {
        let status = (100...999).contains(response.status.code) ? response.status : .internalServerError
        // The status line, the fields as written, Date, Content-Length and Connection:
        // one allocation for the whole response.
        var fieldBytes = 160 + date.utf8.count
        for field in response.headers { fieldBytes += field.name.utf8.count + field.value.utf8.count + 4 }
        for field in defaultFields { fieldBytes += field.name.utf8.count + field.value.utf8.count + 4 }
        buffer.reserveCapacity(buffer.count + fieldBytes + response.body.count)
        appendLiteral("HTTP/1.1 ", to: &buffer)
        appendDecimal(status.code, to: &buffer)
        buffer.append(0x20)
        appendString(status.reasonPhrase, to: &buffer)
        appendLiteral("\r\n", to: &buffer)
        var hasDate = false
        for field in response.headers {
            switch field.canonicalName {
            case "content-length", "transfer-encoding", "connection":
                continue
            case "date":
                hasDate = true
            default:
                break
            }
            appendField(name: field.name, value: field.value, to: &buffer)
        }
        for field in defaultFields where !response.headers.contains(field.name) {
            appendField(name: field.name, value: field.value, to: &buffer)
        }
        if !hasDate {
            appendLiteral("Date: ", to: &buffer)
            appendString(date, to: &buffer)
            appendLiteral("\r\n", to: &buffer)
        }
        let bodiless = status.isBodiless
        if !bodiless {
            appendLiteral("Content-Length: ", to: &buffer)
            appendDecimal(response.body.count, to: &buffer)
            appendLiteral("\r\n", to: &buffer)
        }
        if !keepAlive {
            appendLiteral("Connection: close\r\n", to: &buffer)
        } else if requestVersion == .http1_0 {
            appendLiteral("Connection: keep-alive\r\n", to: &buffer)
        }
        appendLiteral("\r\n", to: &buffer)
        if !bodiless && !isHeadRequest {
            buffer.append(contentsOf: response.body)
        }
    }

    /// Writes `name: value\r\n`, replacing CR, LF and NUL in either by a space so
    /// a handler can never split the response (RFC 9110 §5.5).
    private static func appendField(name: String, value: String, to buffer: inout [UInt8]) {
        appendSafe(name, to: &buffer)
        appendLiteral(": ", to: &buffer)
        appendSafe(value, to: &buffer)
        appendLiteral("\r\n", to: &buffer)
    }

    /// Appends `text`'s UTF-8 with CR, LF and NUL replaced by a space: one bulk
    /// copy when none occurs (the usual case), byte by byte otherwise.
    private static func appendSafe(_ text: String, to buffer: inout [UInt8]) {
        let utf8 = text.utf8
        // Native strings: scan and copy the contiguous bytes.
        let copied = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where isUnsafeInField(byte) { return false }
            buffer.append(contentsOf: bytes)
            return true
        }
        if copied == true { return }
        if !utf8.contains(where: isUnsafeInField) {
            buffer.append(contentsOf: utf8)
            return
        }
        for byte in utf8 { buffer.append(isUnsafeInField(byte) ? 0x20 : byte) }
    }

    private static func isUnsafeInField(_ byte: UInt8) -> Bool {
        byte == 0x0D || byte == 0x0A || byte == 0x00
    }

    /// Appends `text`'s UTF-8 bytes, in one copy for a native string.
    @inline(__always)
    private static func appendString(_ text: String, to buffer: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ buffer.append(contentsOf: $0) }) == nil {
            buffer.append(contentsOf: text.utf8)
        }
    }

    /// Appends a literal's UTF-8 bytes in one copy.
    @inline(__always)
    private static func appendLiteral(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Appends the decimal digits of a non-negative `value`.
    static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        var value = max(value, 0)
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[count] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                value /= 10
                count += 1
            } while value > 0
            for index in stride(from: count - 1, through: 0, by: -1) {
                buffer.append(raw[index])
            }
        }
    }

    /// `HTTP/1.1 100 Continue` (RFC 9110 §15.2.1).
    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
