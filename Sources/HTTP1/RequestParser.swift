/// An incremental HTTP/1.1 request parser: a state machine over bytes (RFC 9112).
///
/// Feed bytes with ``append(_:)`` as they arrive, then call ``next()`` until it
/// returns ``Step/needMoreBytes``; each call yields at most one request, so
/// pipelined requests come out one by one, in order. The parser never touches a
/// socket, and every byte is examined exactly once by one switch, so the result
/// is the same whether the bytes arrive whole, one at a time, or split anywhere
/// (errors are reported at the first byte that proves them).
///
/// Framing follows RFC 9112 §6.3 strictly, so that no request can be smuggled:
/// `Content-Length` together with `Transfer-Encoding`, differing or malformed
/// lengths, and a final coding other than `chunked` are errors; a request with
/// neither has an empty body. Head lines may end in CRLF or a bare LF (RFC 9112
/// §2.2); chunked framing lines must end in CRLF.
///
/// After a ``Step/failure(_:)`` the parser stays failed: the connection must be
/// closed, since what follows cannot be framed.
///
/// - Complexity: O(n) in the bytes appended; consumed bytes are discarded
///   between messages and while a body is copied out, so a buffer is never
///   copied more than a constant number of times.
public struct RequestParser: Sendable {
    /// What ``next()`` found.
    public enum Step: Equatable, Sendable {
        /// No complete request yet: append more bytes.
        case needMoreBytes
        /// The head of a request with `Expect: 100-continue` and a body is
        /// complete (RFC 9110 §10.1.1): send `100 Continue`, then keep calling
        /// ``next()``. A too-large `Content-Length` fails first, with 413.
        case expectContinue
        /// A complete request.
        case request(HTTPRequest)
        /// The bytes are not a valid request; answer ``HTTPParseError/status`` and close.
        case failure(HTTPParseError)
    }

    private enum State: Sendable {
        case requestStart, requestStartCR
        case method, target, version, requestLineCR
        case fieldStart, fieldName, fieldValue, fieldLineCR, sectionEndCR
        case fixedBody
        case chunkSize, chunkExtension, chunkSizeLF, chunkData, chunkDataCR, chunkDataLF
    }

    private struct FieldRange: Sendable {
        var nameStart: Int, nameEnd: Int, valueStart: Int, valueEnd: Int
    }

    /// The limits applied; see ``ServerLimits``.
    public let limits: ServerLimits

    private var buffer: [UInt8] = []
    private var position = 0
    private var state = State.requestStart
    private var failure: HTTPParseError?
    private var pendingContinue = false

    // Head under construction; indices are absolute in `buffer` (never
    // compacted while a head or trailer section is being parsed).
    private var messageStart = 0
    private var methodEnd = 0
    private var targetStart = 0
    private var targetEnd = 0
    private var versionStart = 0
    private var sectionStart = 0
    private var lineStart = 0
    private var nameEnd = 0
    private var valueStart = -1
    private var valueEnd = 0
    private var fieldRanges: [FieldRange] = []
    private var inTrailers = false

    // Request under construction.
    private var method = HTTPMethod.GET
    private var target = ""
    private var version = HTTPVersion.http1_1
    private var headers = HTTPFields()
    private var body: [UInt8] = []
    private var remaining = 0
    private var chunkSize = 0
    private var chunkDigits = 0

    /// A parser with the given limits.
    public init(limits: ServerLimits = ServerLimits()) {
        self.limits = limits
    }

    /// Bytes received but not yet consumed by ``next()``.
    public var bufferedByteCount: Int { buffer.count - position }

    /// Bytes of memory the parser holds for requests: the receive buffer's capacity
    /// while it holds any byte, plus the capacity of the body being copied out (at most
    /// 64 KiB before its bytes arrive, then growing with them). A buffer left empty between
    /// requests (kept for reuse only when at most 64 KiB) counts 0.
    /// ``ServerLimits/maxPendingRequestBytes`` bounds the sum over all connections
    /// (`HTTP1Tests.PendingRequestBytesTests`).
    public var heldByteCount: Int {
        (buffer.isEmpty ? 0 : buffer.capacity) + body.capacity
    }

    /// Whether some bytes of a request that is not complete yet have arrived
    /// (consumed or buffered). `false` between requests.
    public var hasPartialRequest: Bool {
        if case .requestStart = state { return position < buffer.count }
        return true
    }

    /// Whether the head of the current request is complete and its body is
    /// being read (the body timeout applies rather than the head timeout).
    public var isReadingBody: Bool {
        switch state {
        case .fixedBody, .chunkSize, .chunkExtension, .chunkSizeLF, .chunkData, .chunkDataCR, .chunkDataLF:
            return true
        case .fieldStart, .fieldName, .fieldValue, .fieldLineCR, .sectionEndCR:
            return inTrailers
        case .requestStart, .requestStartCR, .method, .target, .version, .requestLineCR:
            return false
        }
    }

    /// The request whose body is being read, without its body: its method, target,
    /// version and header fields, as they will be handed out. Meaningful once ``next()``
    /// returned ``Step/expectContinue`` and until the request is complete.
    public var head: HTTPRequest {
        HTTPRequest(method: method, target: target, version: version, headers: headers)
    }

    /// Adds received bytes. Cheap: parsing happens in ``next()``.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Parses as far as the buffered bytes allow and reports the first event.
    public mutating func next() -> Step {
        if let failure { return .failure(failure) }
        if pendingContinue {
            pendingContinue = false
            return .expectContinue
        }
        compactIfUseful()
        let step: Step
        do {
            let bytes = buffer
            step = bytes.withUnsafeBufferPointer { run($0) }
        }
        // A request handed out leaves its bytes dead in the buffer: drop them now rather
        // than while its handler runs, so ``heldByteCount`` falls when it is handed over.
        if case .request = step { compactIfUseful() }
        return step
    }

    /// Drops consumed bytes when no index into them is alive: between messages
    /// and inside a body. Only when at least half the buffer is dead, so each
    /// byte is moved O(1) times on average.
    private mutating func compactIfUseful() {
        let dead: Int
        switch state {
        case .requestStart, .fixedBody, .chunkSize, .chunkExtension, .chunkSizeLF, .chunkData, .chunkDataCR, .chunkDataLF:
            dead = (state == .requestStart && messageStart < position) ? messageStart : position
        default:
            dead = 0
        }
        guard dead > 0 else { return }
        if dead == buffer.count {
            // Between requests the buffer is given back whatever its size: an idle
            // keep-alive connection holds no receive buffer (as nginx frees its
            // client header buffer), and the next request's first read allocates one
            // of that read's size. Inside a body, a small buffer is kept for the next
            // bytes; a large one is given back.
            if state == .requestStart || buffer.capacity > 65_536 {
                buffer = []
            } else {
                buffer.removeAll(keepingCapacity: true)
            }
        } else if dead >= 4096 && dead * 2 >= buffer.count {
            buffer.removeSubrange(0..<dead)
        } else {
            return
        }
        position -= dead
        messageStart = max(0, messageStart - dead)
        lineStart -= dead   // a chunk-size line may be in progress; its length stays right

    }

    // MARK: - The byte loop

    private mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Step {
        let end = bytes.count
        var i = position
        while i < end {
            let byte = bytes[i]
            switch state {
            case .requestStart:
                // RFC 9112 §2.2: ignore empty lines before the request line.
                if byte == .lf {
                    i += 1
                    messageStart = i
                } else if byte == .cr {
                    state = .requestStartCR
                    i += 1
                } else {
                    messageStart = i
                    state = .method
                    continue
                }
            case .requestStartCR:
                guard byte == .lf else { return fail(.bareCarriageReturn, at: i) }
                i += 1
                messageStart = i
                state = .requestStart
            case .method:
                if isTokenByte(byte) {
                    i += 1
                    if i - messageStart > 32 {
                        return fail(.unknownMethod(String(decoding: bytes[messageStart..<i], as: UTF8.self)), at: i)
                    }
                } else if byte == .space && i > messageStart {
                    let name = UnsafeBufferPointer(rebasing: bytes[messageStart..<i])
                    guard let known = HTTPMethod.known(name) else {
                        return fail(.unknownMethod(String(decoding: name, as: UTF8.self)), at: i)
                    }
                    method = known
                    methodEnd = i
                    i += 1
                    targetStart = i
                    state = .target
                } else {
                    return fail(.invalidRequestLine, at: i)
                }
            case .target:
                if byte > 0x20 && byte < 0x7F {
                    i += 1
                    if i - targetStart > limits.maxTargetBytes { return fail(.targetTooLong, at: i) }
                } else if byte == .space && i > targetStart {
                    targetEnd = i
                    i += 1
                    versionStart = i
                    state = .version
                } else if byte == .space || byte == .cr || byte == .lf {
                    return fail(.invalidRequestLine, at: i)
                } else {
                    return fail(.invalidTarget, at: i)
                }
            case .version:
                if byte == .cr || byte == .lf {
                    if let failure = checkVersion(bytes, versionStart..<i) { return fail(failure, at: i) }
                    i += 1
                    state = byte == .cr ? .requestLineCR : .fieldStart
                    sectionStart = i
                    lineStart = i
                } else {
                    i += 1
                    if i - versionStart > 8 { return fail(.invalidRequestLine, at: i) }
                }
            case .requestLineCR:
                guard byte == .lf else { return fail(.bareCarriageReturn, at: i) }
                i += 1
                sectionStart = i
                lineStart = i
                state = .fieldStart
            case .fieldStart:
                lineStart = i
                if byte == .cr {
                    i += 1
                    state = .sectionEndCR
                    if let failure = checkSectionSize(at: i) { return fail(failure, at: i) }
                } else if byte == .lf {
                    i += 1
                    if let step = finishSection(bytes, at: i) { return step }
                } else if byte == .space || byte == .tab {
                    return fail(.obsoleteLineFolding, at: i)
                } else if isTokenByte(byte) {
                    i += 1
                    state = .fieldName
                    if let failure = checkLineSize(at: i) { return fail(failure, at: i) }
                } else {
                    return fail(.invalidFieldName, at: i)
                }
            case .fieldName:
                if isTokenByte(byte) {
                    i += 1
                } else if byte == .colon {
                    nameEnd = i
                    i += 1
                    valueStart = -1
                    valueEnd = i
                    state = .fieldValue
                } else if byte == .space || byte == .tab {
                    return fail(.whitespaceBeforeColon, at: i)
                } else {
                    return fail(.invalidFieldName, at: i)
                }
                if let failure = checkLineSize(at: i) { return fail(failure, at: i) }
            case .fieldValue:
                if byte == .cr || byte == .lf {
                    recordField()
                    i += 1
                    state = byte == .cr ? .fieldLineCR : .fieldStart
                    if let failure = checkSectionSize(at: i) { return fail(failure, at: i) }
                    break
                }
                if byte == .space || byte == .tab {
                    i += 1
                } else if byte > 0x20 && byte != 0x7F {
                    if valueStart < 0 { valueStart = i }
                    i += 1
                    valueEnd = i
                } else {
                    return fail(.invalidFieldValue, at: i)
                }
                if let failure = checkLineSize(at: i) { return fail(failure, at: i) }
            case .fieldLineCR:
                guard byte == .lf else { return fail(.bareCarriageReturn, at: i) }
                i += 1
                state = .fieldStart
                if let failure = checkSectionSize(at: i) { return fail(failure, at: i) }
            case .sectionEndCR:
                guard byte == .lf else { return fail(.bareCarriageReturn, at: i) }
                i += 1
                if let step = finishSection(bytes, at: i) { return step }
            case .fixedBody:
                let count = min(remaining, end - i)
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<(i + count)]))
                i += count
                remaining -= count
                if remaining == 0 { return complete(at: i) }
            case .chunkSize:
                if let digit = hexValue(byte) {
                    chunkDigits += 1
                    // 15 hex digits hold any size below 2^60: no overflow possible.
                    guard chunkDigits <= 15 else { return fail(.invalidChunkSize, at: i) }
                    chunkSize = chunkSize << 4 | digit
                    i += 1
                } else if chunkDigits > 0 && (byte == .semicolon || byte == .space || byte == .tab || byte == .cr) {
                    if chunkSize > limits.maxBodyBytes - body.count { return fail(.contentTooLarge, at: i) }
                    state = byte == .cr ? .chunkSizeLF : .chunkExtension
                    i += 1
                } else {
                    return fail(.invalidChunkSize, at: i)
                }
                if i - lineStart > limits.maxHeaderLineBytes { return fail(.invalidChunkSize, at: i) }
            case .chunkExtension:
                // chunk-ext = *( BWS ";" BWS name [ BWS "=" BWS value ] ) (RFC 9112 §7.1.1):
                // accepted and ignored; only printable bytes and whitespace allowed.
                if byte == .cr {
                    state = .chunkSizeLF
                } else if byte < 0x20 && byte != .tab || byte == 0x7F {
                    return fail(.invalidChunkSize, at: i)
                }
                i += 1
                if i - lineStart > limits.maxHeaderLineBytes { return fail(.invalidChunkSize, at: i) }
            case .chunkSizeLF:
                guard byte == .lf else { return fail(.invalidChunkSize, at: i) }
                i += 1
                if chunkSize == 0 {
                    inTrailers = true
                    fieldRanges.removeAll(keepingCapacity: true)
                    sectionStart = i
                    lineStart = i
                    state = .fieldStart
                } else {
                    remaining = chunkSize
                    state = .chunkData
                }
            case .chunkData:
                let count = min(remaining, end - i)
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<(i + count)]))
                i += count
                remaining -= count
                if remaining == 0 { state = .chunkDataCR }
            case .chunkDataCR:
                guard byte == .cr else { return fail(.invalidChunkFraming, at: i) }
                i += 1
                state = .chunkDataLF
            case .chunkDataLF:
                guard byte == .lf else { return fail(.invalidChunkFraming, at: i) }
                i += 1
                startChunkSizeLine(at: i)
            }
        }
        position = i
        return .needMoreBytes
    }

    // MARK: - Steps

    private mutating func fail(_ error: HTTPParseError, at index: Int) -> Step {
        failure = error
        position = index
        return .failure(error)
    }

    private mutating func startChunkSizeLine(at index: Int) {
        lineStart = index
        chunkSize = 0
        chunkDigits = 0
        state = .chunkSize
    }

    private mutating func recordField() {
        let start = valueStart < 0 ? valueEnd : valueStart
        fieldRanges.append(FieldRange(nameStart: lineStart, nameEnd: nameEnd, valueStart: start, valueEnd: valueEnd))
    }

    private func checkLineSize(at index: Int) -> HTTPParseError? {
        if index - lineStart > limits.maxHeaderLineBytes { return .headerLineTooLong }
        if index - sectionStart > limits.maxHeaderBytes { return .headerSectionTooLarge }
        return nil
    }

    private func checkSectionSize(at index: Int) -> HTTPParseError? {
        index - sectionStart > limits.maxHeaderBytes ? .headerSectionTooLarge : nil
    }

    /// `HTTP/` DIGIT `.` DIGIT (RFC 9112 §2.3); 1.x is served as 1.1, other
    /// majors get 505.
    private mutating func checkVersion(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> HTTPParseError? {
        guard range.count == 8,
              bytes[range.lowerBound..<(range.lowerBound + 5)].elementsEqual("HTTP/".utf8),
              let major = decimalValue(bytes[range.lowerBound + 5]),
              bytes[range.lowerBound + 6] == .period,
              let minor = decimalValue(bytes[range.lowerBound + 7])
        else { return .invalidRequestLine }
        guard major == 1 else {
            return .unsupportedVersion(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        }
        version = HTTPVersion(major: major, minor: minor)
        return nil
    }

    private func makeFields(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPFields {
        var fields = HTTPFields(reservingCapacity: fieldRanges.count)
        for range in fieldRanges {
            // A field name is a token (ASCII): its lowercase form is made from the bytes,
            // and is the name itself when it has no uppercase letter.
            let nameBytes = UnsafeBufferPointer(rebasing: bytes[range.nameStart..<range.nameEnd])
            let name = String(decoding: nameBytes, as: UTF8.self)
            let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[range.valueStart..<range.valueEnd]), as: UTF8.self)
            let canonical = nameBytes.contains(where: { $0 >= 0x41 && $0 <= 0x5A })
                ? String(unsafeUninitializedCapacity: nameBytes.count) { out in
                    for index in 0..<nameBytes.count {
                        let byte = nameBytes[index]
                        out[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    }
                    return nameBytes.count
                }
                : name
            fields.append(HTTPFields.Field(name: name, value: value, canonicalName: canonical))
        }
        return fields
    }

    /// The empty line after a header or trailer section was read.
    private mutating func finishSection(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Step? {
        if inTrailers {
            return complete(at: index, trailers: makeFields(bytes))
        }
        target = String(decoding: UnsafeBufferPointer(rebasing: bytes[targetStart..<targetEnd]), as: UTF8.self)
        headers = makeFields(bytes)
        fieldRanges.removeAll(keepingCapacity: true)
        if let failure = checkTarget() ?? checkHead() { return fail(failure, at: index) }
        return startBody(at: index)
    }

    /// RFC 9112 §3.2: origin-form, absolute-form (`http`/`https` with an
    /// authority), or `*` with OPTIONS. None of them has a fragment: a `#` is refused
    /// (RFC 3986 §3.5: a fragment is the client's own, never sent).
    private func checkTarget() -> HTTPParseError? {
        let utf8 = target.utf8
        if utf8.contains(UInt8(ascii: "#")) { return .invalidTarget }
        if utf8.first == .slash { return nil }
        if target == "*" { return method == .OPTIONS ? nil : .asteriskFormWithoutOptions }
        let lowered = asciiLowercased(target)
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let rest = lowered.utf8.dropFirst(scheme.utf8.count)
            let authorityEnd = rest.firstIndex { $0 == .slash || $0 == .question } ?? rest.endIndex
            let authority = rest[rest.startIndex..<authorityEnd]
            // RFC 9110 §4.2.4: userinfo (`user:pass@`) in an http(s) URI is an error.
            return authority.isEmpty || authority.contains(UInt8(ascii: "@")) ? .invalidTarget : nil
        }
        return .invalidTarget
    }

    /// Whether `value` is a `Host` field value RFC 9112 §3.2 accepts: empty, or
    /// `uri-host [ ":" port ]` (RFC 9110 §7.2) with RFC 3986 §3.2.2's host — an IP literal
    /// in brackets (hex digits, `:`, `.`, or `v`-prefixed IPvFuture characters) or a
    /// reg-name / IPv4 address of unreserved characters, sub-delims and `%XX` — and
    /// §3.2.3's port (`*DIGIT`). `RequestParserTests.hostValuesAreChecked`.
    /// - Complexity: O(length of `value`).
    static func isValidHost(_ value: String.UTF8View) -> Bool {
        let bytes = Array(value)
        var index = 0
        func isUnreservedOrSubDelim(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                return true
            default:
                return false
            }
        }
        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return false }
            guard bytes[1..<close].allSatisfy({ isUnreservedOrSubDelim($0) || $0 == UInt8(ascii: ":") }) else { return false }
            index = close + 1
        } else {
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                if bytes[index] == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                    index += 3
                } else {
                    guard isUnreservedOrSubDelim(bytes[index]) else { return false }
                    index += 1
                }
            }
        }
        guard index < bytes.count else { return true }
        guard bytes[index] == UInt8(ascii: ":") else { return false }
        return bytes[(index + 1)...].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Host, message body length (RFC 9112 §6.3) and Expect (RFC 9110 §10.1.1).
    private mutating func checkHead() -> HTTPParseError? {
        let isHTTP11 = version.minor >= 1
        // One pass over the fields (their names are already lowercase).
        var host: String?
        var hostCount = 0
        var lengths: [String] = []
        var codings: [String] = []
        var expectation: String?
        for field in headers {
            switch field.canonicalName {
            case "host":
                hostCount += 1
                if host == nil { host = field.value }
            case "content-length": lengths.append(field.value)
            case "transfer-encoding": codings.append(field.value)
            case "expect": if expectation == nil { expectation = field.value }
            default: break
            }
        }
        if hostCount > 1 { return .duplicateHost }
        if hostCount == 0 && isHTTP11 { return .missingHost }
        if let host, !Self.isValidHost(host.utf8) { return .invalidHost }

        if !codings.isEmpty {
            if !lengths.isEmpty { return .contentLengthWithTransferEncoding }
            if !isHTTP11 { return .invalidTransferEncoding }
            let list = codings.flatMap { $0.split(separator: ",") }.map { asciiLowercased(trimmingOWS($0)) }.filter { !$0.isEmpty }
            guard list.last == "chunked", list.filter({ $0 == "chunked" }).count == 1 else {
                return .invalidTransferEncoding
            }
            if list.count > 1 { return .unsupportedTransferCoding(list[0]) }
            remaining = -1
        } else if !lengths.isEmpty {
            // The usual case, one field of digits alone, needs no splitting.
            var length: Int? = lengths.count == 1 ? parseContentLength(lengths[0]) : nil
            let items = length != nil ? [] : lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) })
            for item in items {
                guard let value = parseContentLength(trimmingOWS(item)) else { return .invalidContentLength }
                if let length, length != value { return .invalidContentLength }
                length = value
            }
            guard let length else { return .invalidContentLength }
            if length > limits.maxBodyBytes { return .contentTooLarge }
            remaining = length
        } else {
            remaining = 0
        }

        if isHTTP11, let expectation {
            guard asciiLowercased(expectation) == "100-continue" else { return .unsupportedExpectation }
            pendingContinue = remaining != 0
        }
        return nil
    }

    /// 1*DIGIT without sign, at most 18 digits (so it fits an `Int`).
    private func parseContentLength(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 18 else { return nil }
        var value = 0
        for byte in utf8 {
            guard let digit = decimalValue(byte) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private mutating func startBody(at index: Int) -> Step? {
        body = []
        if remaining < 0 {
            startChunkSizeLine(at: index)
        } else if remaining > 0 {
            // At most 64 KiB ahead of the bytes: a head that announces a large body must
            // not make every connection allocate it (``heldByteCount``).
            body.reserveCapacity(min(remaining, 65_536))
            state = .fixedBody
        } else {
            pendingContinue = false
            return complete(at: index)
        }
        if pendingContinue {
            pendingContinue = false
            position = index
            return .expectContinue
        }
        return nil
    }

    private mutating func complete(at index: Int, trailers: HTTPFields = HTTPFields()) -> Step {
        let request = HTTPRequest(
            method: method, target: target, version: version,
            headers: headers, body: body, trailers: trailers
        )
        headers = HTTPFields()
        body = []
        fieldRanges.removeAll(keepingCapacity: true)
        inTrailers = false
        state = .requestStart
        position = index
        messageStart = index
        return .request(request)
    }
}

// MARK: - Byte classes

extension UInt8 {
    static let tab: UInt8 = 0x09
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let question: UInt8 = 0x3F
}

/// tchar (RFC 9110 §5.6.2): ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``.
@inline(__always)
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
    default: false
    }
}

@inline(__always)
func decimalValue(_ byte: UInt8) -> Int? {
    byte >= 0x30 && byte <= 0x39 ? Int(byte &- 0x30) : nil
}

@inline(__always)
func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 0x30...0x39: Int(byte &- 0x30)
    case 0x41...0x46: Int(byte &- 0x41 &+ 10)
    case 0x61...0x66: Int(byte &- 0x61 &+ 10)
    default: nil
    }
}
