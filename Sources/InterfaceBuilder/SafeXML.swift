import CLibXML2
#if canImport(Glibc)
import Glibc
#endif

/// Bounds on an XML document read by ``SafeXML``. Every one is checked while reading, so a
/// hostile document stops at the first element past a bound, in time and memory linear in
/// the bytes read up to there.
public struct XMLLimits: Sendable, Hashable {
    /// Elements open at once (the root is depth 1), at most ``readerMaxDepth``. Interface
    /// Builder documents nest about 30 deep; ``IBImportOptions/maxHierarchyDepth`` sets it
    /// for an import.
    public var maxDepth = 128
    /// Said after the refusal of an element past ``maxDepth`` (what the bound is and what
    /// to do), or nil.
    public var depthAdvice: String?
    /// libxml2's own bound on open elements (`xmlParserMaxDepth` without `XML_PARSE_HUGE`,
    /// which is never set): a ``maxDepth`` above it is never reached.
    public static let readerMaxDepth = 256
    /// Elements in the whole document (the corpus's largest storyboard has about 4,000).
    public var maxElements = 200_000
    /// Attributes on one element.
    public var maxAttributesPerElement = 128
    /// UTF-8 bytes of one attribute value (a long label text is a few kilobytes).
    public var maxAttributeBytes = 65_536
    /// UTF-8 bytes of the character data kept for one element.
    public var maxTextBytes = 65_536

    public init() {}
}

/// One element of a parsed document: its name, attributes in document order, child
/// elements, character data and the line of its start tag (1-based).
public struct XMLElement: Sendable {
    public var name: String
    public var attributes: [(name: String, value: String)]
    public var children: [XMLElement]
    public var text: String
    public var line: Int

    public init(name: String, attributes: [(name: String, value: String)] = [], children: [XMLElement] = [],
                text: String = "", line: Int = 0) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
    }

    /// The value of the attribute `name`, or `nil`. O(attributes).
    public subscript(_ name: String) -> String? {
        attributes.first(where: { $0.name == name })?.value
    }

    /// The first child element named `name`, optionally with `key="…"` equal to `key`.
    public func child(_ name: String, key: String? = nil) -> XMLElement? {
        children.first { $0.name == name && (key == nil || $0["key"] == key) }
    }
}

/// Why a document could not be read: a message and the 1-based line where reading stopped
/// (an empty body is reported at line 1, where its first line would be; 0 when reading
/// did not reach a line, such as a body too large to start).
public struct XMLReadError: Error, Sendable, Equatable {
    public var message: String
    public var line: Int

    public init(message: String, line: Int) {
        self.message = message
        self.line = line
    }
}

/// Reads XML into an ``XMLElement`` tree with libxml2's streaming reader (`xmlTextReader`),
/// configured so that nothing outside the given bytes is ever read:
///
/// - `XML_PARSE_NONET`, and a process-wide external entity loader that refuses every
///   request (no file or URL is opened, whatever the document names);
/// - no `XML_PARSE_NOENT` (entities are never substituted), no `XML_PARSE_DTDLOAD`,
///   `XML_PARSE_DTDATTR` or `XML_PARSE_XINCLUDE`;
/// - a document type declaration (`<!DOCTYPE`) or an entity reference is rejected where it
///   stands: Interface Builder never writes either, and refusing them ends "billion laughs"
///   and external entities before any expansion;
/// - ``XMLLimits`` on depth, element count, attribute count and sizes, and text.
///
/// The tests in `SafeXMLTests` hold each of these on a hostile document.
public enum SafeXML {
    /// Installs the refusing external entity loader once per process (libxml2's loader is
    /// global). Every parse goes through this first.
    private static let hardened: Bool = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return true
    }()

    static let doctypeMessage = "A document type declaration (<!DOCTYPE …>) is not allowed: Interface Builder documents have none, and DTDs and entities are never read"

    /// The line of a `<!DOCTYPE` in the prolog (after the XML declaration, processing
    /// instructions, comments and white space), found before libxml2 sees the bytes, so
    /// that no DTD is ever parsed. A prolog that does not scan is left to libxml2.
    static func doctypeLine(_ bytes: [UInt8]) -> Int? {
        var index = 0, line = 1
        func hasPrefix(_ text: String) -> Bool {
            let prefix = Array(text.utf8)
            return bytes.count - index >= prefix.count && Array(bytes[index..<index + prefix.count]) == prefix
        }
        func skip(past terminator: String) -> Bool {
            let end = Array(terminator.utf8)
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                if bytes.count - index >= end.count && Array(bytes[index..<index + end.count]) == end {
                    index += end.count
                    return true
                }
                index += 1
            }
            return false
        }
        if hasPrefix("\u{FEFF}") { index += 3 }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\n"): line += 1; index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            default:
                if hasPrefix("<?") { guard skip(past: "?>") else { return nil }; continue }
                if hasPrefix("<!--") { guard skip(past: "-->") else { return nil }; continue }
                return hasPrefix("<!DOCTYPE") ? line : nil
            }
        }
        return nil
    }

    /// The first byte of an 8-bit encoded document (UTF-8, ASCII, Latin-1) that is a C0
    /// control character XML 1.0 does not allow (every one but tab, line feed and carriage
    /// return; production `Char`), with its line; nil when there is none, for a document
    /// in UTF-16 or UTF-32 (a byte-order mark or a zero among its first four bytes), whose
    /// units hold zero bytes, and for bytes that do not start as XML does (with `<` after
    /// white space and a UTF-8 byte-order mark): those are not read as text at all. libxml2 names such a byte by what it was parsing ("Couldn't
    /// find end of Start Tag view"). SafeXMLTests.controlCharactersAreNamed.
    static func controlCharacter(_ bytes: [UInt8]) -> (byte: UInt8, line: Int)? {
        let head = bytes.prefix(4)
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.contains(0) { return nil }
        let start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard bytes[start...].first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") else { return nil }
        var line = 1
        for byte in bytes where byte < 0x20 {
            switch byte {
            case UInt8(ascii: "\n"): line += 1
            case UInt8(ascii: "\t"), UInt8(ascii: "\r"): continue
            default: return (byte, line)
            }
        }
        return nil
    }

    static func controlMessage(_ byte: UInt8) -> String {
        byte == 0
            ? "The document holds a NUL character (a zero byte), which XML does not allow"
            : "The document holds the control character \(codePoint(UInt32(byte))), which XML does not allow"
    }

    /// `U+` and at least four hexadecimal digits.
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// libxml2's refusal of a character reference (`&#0;`, `&#xD800;`, `&#x110000;`) named
    /// by what it refuses, not by libxml2's function (`xmlParseCharRef: invalid xmlChar
    /// value 0`); nil for any other message. SafeXMLTests.characterReferencesAreNamed.
    static func characterReferenceMessage(_ libxml2: String) -> String? {
        for function in ["xmlParseCharRef: ", "xmlParseStringCharRef: "] where libxml2.hasPrefix(function) {
            let rest = libxml2.dropFirst(function.count)
            if rest.hasPrefix("invalid xmlChar value "), let value = UInt32(rest.dropFirst("invalid xmlChar value ".count)) {
                return "The document holds a character reference to \(codePoint(value)) (&#\(value);), a character XML does not allow"
            }
            if rest == "character reference out of bounds" {
                return "The document holds a character reference beyond U+10FFFF, the last character, which XML does not allow"
            }
        }
        return nil
    }

    /// Parses `bytes` as one XML document and returns its root element.
    ///
    /// - Throws: ``XMLReadError`` naming the line: not well-formed XML, a DTD or entity
    ///   reference, or a bound of `limits` passed.
    /// - Complexity: O(bytes); memory O(elements kept).
    public static func parse(_ bytes: [UInt8], limits: XMLLimits = XMLLimits()) throws(XMLReadError) -> XMLElement {
        _ = hardened
        guard !bytes.isEmpty else { throw XMLReadError(message: "The document is empty", line: 1) }
        guard bytes.count <= Int(Int32.max) else { throw XMLReadError(message: "The document is too large", line: 0) }
        if let line = doctypeLine(bytes) {
            throw XMLReadError(message: doctypeMessage, line: line)
        }
        if let (byte, line) = controlCharacter(bytes) {
            throw XMLReadError(message: controlMessage(byte), line: line)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOERROR.rawValue
                            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue | XML_PARSE_BIG_LINES.rawValue)
        let log = XMLErrorLog()
        let result: Result<XMLElement, XMLReadError> = log.capturing {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    guard let reader = xmlReaderForMemory(chars.baseAddress, Int32(chars.count), nil, nil, options) else {
                        return .failure(XMLReadError(message: "The XML reader could not start", line: 0))
                    }
                    defer { xmlFreeTextReader(reader) }
                    var builder = TreeBuilder(reader: reader, limits: limits)
                    return builder.run()
                }
            }
        }
        switch result {
        case .success(let root): return root
        case .failure(let error): throw XMLReadError(message: readableMessage(error.message, first: log.first, bytes: bytes), line: error.line)
        }
    }

    /// The one-line message of a parse that failed with `message`: a declared encoding
    /// that libxml2 cannot read or whose conversion failed (its first error, from the
    /// I18N module, says so where the last one, "parsing XML declaration: '?>' expected",
    /// does not) is named as such; bytes that are not UTF-8 are located at their line and
    /// column (``invalidUTF8(_:)``); any other message of libxml2 is put on one line
    /// (`SafeXMLTests.encodingProblemsAreToldOnOneLine`).
    static func readableMessage(_ message: String, first: XMLErrorLog.Entry?, bytes: [UInt8]) -> String {
        let declared = declaredEncoding(bytes)
        if let first, first.domain == Int(XML_FROM_I18N.rawValue) || first.code == Int(XML_ERR_UNSUPPORTED_ENCODING.rawValue)
            || first.code == Int(XML_ERR_INVALID_ENCODING.rawValue) && declared != nil && declared?.uppercased() != "UTF-8" {
            let name = declared.map { "\"\($0)\"" } ?? "its encoding"
            return "The document declares encoding \(name), which cannot be read here or does not match its bytes: "
                + "Interface Builder documents are UTF-8; save it as UTF-8"
        }
        if message.hasPrefix("Input is not proper UTF-8"), let (line, column, found) = invalidUTF8(bytes) {
            let shown = found.map { byte in
                let hex = String(byte, radix: 16, uppercase: true)
                return "0x" + (hex.count < 2 ? "0" : "") + hex
            }.joined(separator: " ")
            return "The document is not valid UTF-8: bytes \(shown) at line \(line), column \(column); save it as UTF-8"
        }
        // JSON sent to the import (a scene): the way to /solve, as XML sent to /solve is
        // pointed to /import (SafeXMLTests.jsonIsPointedToSolve).
        if message.hasPrefix("No XML could be read"),
           let lead = bytes.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }), lead == UInt8(ascii: "{") || lead == UInt8(ascii: "[") {
            return "No XML could be read: the document is JSON; a scene is laid out by POST /solve (layoutd solve), "
                + "Interface Builder documents (.xib, .storyboard) by POST /import"
        }
        return message.split(whereSeparator: \.isNewline).map { $0.trimmingSuffix(" ") }.joined(separator: "; ")
    }

    /// The `encoding` of the document's XML declaration (`<?xml version="1.0"
    /// encoding="…"?>` at its very start), or `nil`; an encoding name is letters, digits
    /// and `._-` (XML 1.0, `EncName`), at most 40 of them here, so that the name is safe to
    /// quote. Reads at most the first 200 bytes.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let head = bytes.prefix(200)
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: head[..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        guard !value.isEmpty, value.count <= 40,
              value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else { return nil }
        return String(value)
    }

    /// Where `bytes` first stop being UTF-8 (after a UTF-8 byte-order mark, if any): the
    /// 1-based line and column (in characters) and up to four bytes from there; `nil` when
    /// they are all UTF-8. O(bytes).
    static func invalidUTF8(_ bytes: [UInt8]) -> (line: Int, column: Int, bytes: [UInt8])? {
        var line = 1, column = 1, index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0
            var valid = length > 0 && index + length <= bytes.count
            if valid && length > 1 {
                for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { valid = false }
                // Overlong forms, surrogates and code points past U+10FFFF (RFC 3629, section 4).
                let second = bytes[index + 1]
                if (lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F)
                    || (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F) { valid = false }
            }
            guard valid else { return (line, column, Array(bytes[index..<min(bytes.count, index + 4)])) }
            if lead == 0x0A { line += 1; column = 1 } else { column += 1 }
            index += length
        }
        return nil
    }
}

/// libxml2's errors during one parse, kept instead of written to standard error: while
/// ``capturing(_:)`` runs, its structured error handler (and a generic handler that drops
/// what it is given) are this thread's (libxml2 keeps its handlers per thread), so that
/// nothing libxml2 says reaches the server's log, which is one JSON object a line
/// (`SafeXMLTests.libxml2WritesNothingToStandardError`).
final class XMLErrorLog {
    /// One error: libxml2's message (one line, trimmed), its `xmlErrorDomain` and
    /// `xmlParserErrors` code, and its line.
    struct Entry: Equatable {
        var message: String
        var domain: Int
        var code: Int
        var line: Int
    }

    /// The first error of the parse (an encoding failure comes first, the syntax errors it
    /// causes after), and how many there were.
    private(set) var first: Entry?
    private(set) var count = 0

    func record(_ error: xmlError) {
        count += 1
        guard first == nil else { return }
        let text = error.message.map { String(cString: $0) } ?? ""
        first = Entry(message: text.trimmingSuffix("\n"), domain: Int(error.domain),
                      code: Int(error.code), line: Int(error.line))
    }

    /// Runs `body` with this log as the thread's libxml2 error handler, then restores
    /// libxml2's defaults (no other code of the process sets them).
    func capturing<T>(_ body: () -> T) -> T {
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(self).toOpaque()) { context, error in
            guard let context, let error else { return }
            Unmanaged<XMLErrorLog>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }
        // libxml2's generic handler is variadic (`void (*)(void *, const char *, ...)`),
        // which Swift imports as an opaque pointer: a function reading only its two fixed
        // arguments may be called as one (the C calling conventions pass fixed arguments
        // alike), and this one reads none.
        let silent: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { _, _ in }
        xmlSetGenericErrorFunc(nil, unsafeBitCast(silent, to: OpaquePointer.self))
        defer {
            xmlSetStructuredErrorFunc(nil, nil)
            xmlSetGenericErrorFunc(nil, nil)
        }
        return withExtendedLifetime(self) { body() }
    }
}

/// The reading loop: one ``XMLElement`` per start tag, attached to its parent at its end tag.
private struct TreeBuilder {
    let reader: xmlTextReaderPtr
    let limits: XMLLimits
    var open: [XMLElement] = []
    var elementCount = 0
    var root: XMLElement?

    init(reader: xmlTextReaderPtr, limits: XMLLimits) {
        self.reader = reader
        self.limits = limits
    }

    /// The line of the current node (with `XML_PARSE_BIG_LINES`, exact past 65,535), else
    /// the parser's line.
    var line: Int {
        if let node = xmlTextReaderCurrentNode(reader) {
            let number = xmlGetLineNo(node)
            if number > 0 { return Int(number) }
        }
        return Int(xmlTextReaderGetParserLineNumber(reader))
    }

    func failure(_ message: String) -> Result<XMLElement, XMLReadError> {
        .failure(XMLReadError(message: message, line: line))
    }

    mutating func run() -> Result<XMLElement, XMLReadError> {
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { break }
            if status < 0 {
                let error = Self.lastError()
                let errorLine = error.map(\.line).flatMap { $0 > 0 ? $0 : nil } ?? line
                // libxml2's words for a cut document name the end, not the open tag:
                // `<document><objects>` is "Extra content at the end of the document"
                // (XML_ERR_DOCUMENT_END, 5) or "Premature end of data" (XML_ERR_TAG_NOT_FINISHED,
                // 77). SafeXMLTests.aCutDocumentNamesItsOpenElement.
                if let unclosed = open.last, error?.code == 5 || error?.code == 77 {
                    return .failure(XMLReadError(
                        message: "The document ends before <\(unclosed.name)> (line \(unclosed.line)) is closed",
                        line: errorLine))
                }
                // libxml2's own depth bound (readerMaxDepth, XML_ERR_INTERNAL_ERROR, 1) can
                // stop its parser, which reads ahead of this loop, before this loop meets the
                // element past maxDepth (at most readerMaxDepth): the refusal is ours.
                // SafeXMLTests.libxml2sDepthBoundIsToldAsOurs.
                if error?.code == 1, error?.message.hasPrefix("Excessive depth in document") == true {
                    return .failure(XMLReadError(message: depthMessage, line: errorLine))
                }
                if let message = error.flatMap({ SafeXML.characterReferenceMessage($0.message) }) {
                    return .failure(XMLReadError(message: message, line: errorLine))
                }
                // XML_ERR_DOCUMENT_EMPTY (4) for bytes that are there: they did not decode.
                if error?.code == 4 {
                    return .failure(XMLReadError(
                        message: "No XML could be read: the document must be UTF-8 (or UTF-16 with a byte-order mark) and start with '<'",
                        line: errorLine))
                }
                return .failure(XMLReadError(message: error?.message ?? "The document is not well-formed XML",
                                             line: errorLine))
            }
            switch Int(xmlTextReaderNodeType(reader)) {
            case Int(XML_READER_TYPE_ELEMENT.rawValue):
                if let problem = openElement() { return failure(problem) }
            case Int(XML_READER_TYPE_END_ELEMENT.rawValue):
                closeElement()
            case Int(XML_READER_TYPE_TEXT.rawValue), Int(XML_READER_TYPE_CDATA.rawValue):
                if var top = open.popLast() {
                    if let value = xmlTextReaderConstValue(reader) {
                        let text = String(cString: value)
                        if top.text.utf8.count + text.utf8.count > limits.maxTextBytes {
                            return failure("Text longer than \(limits.maxTextBytes) bytes in <\(top.name)>")
                        }
                        top.text += text
                    }
                    open.append(top)
                }
            case Int(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
                return failure(SafeXML.doctypeMessage)
            case Int(XML_READER_TYPE_ENTITY_REFERENCE.rawValue), Int(XML_READER_TYPE_ENTITY.rawValue):
                return failure("An entity reference is not allowed: entities are never expanded")
            default:
                break
            }
        }
        guard let root, open.isEmpty else { return failure("The document has no root element") }
        return .success(root)
    }

    /// The refusal of an element nested deeper than `limits.maxDepth` (or than libxml2's
    /// own bound, which is not below it), with the limits' advice.
    var depthMessage: String {
        "Elements nested more than \(min(limits.maxDepth, XMLLimits.readerMaxDepth)) deep" + (limits.depthAdvice.map { ": " + $0 } ?? "")
    }

    /// Reads the current start tag; returns a problem message when a bound is passed.
    mutating func openElement() -> String? {
        elementCount += 1
        if elementCount > limits.maxElements { return "More than \(limits.maxElements) elements" }
        if open.count + 1 > limits.maxDepth { return depthMessage }
        let name = xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
        var element = XMLElement(name: name, line: line)
        let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            if element.attributes.count >= limits.maxAttributesPerElement {
                return "More than \(limits.maxAttributesPerElement) attributes on <\(name)>"
            }
            let attributeName = xmlTextReaderConstName(reader).map { String(cString: $0) } ?? ""
            guard let raw = xmlTextReaderConstValue(reader) else { continue }
            if strlen(raw) > limits.maxAttributeBytes {
                return "Attribute \(attributeName) of <\(name)> longer than \(limits.maxAttributeBytes) bytes"
            }
            element.attributes.append((attributeName, String(cString: raw)))
        }
        xmlTextReaderMoveToElement(reader)
        open.append(element)
        if isEmpty { closeElement() }
        return nil
    }

    mutating func closeElement() {
        guard let element = open.popLast() else { return }
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(element)
        }
    }

    /// libxml2's last error on this thread (its error state is per thread): the message,
    /// trimmed, its line and its `xmlParserErrors` code.
    static func lastError() -> (message: String, line: Int, code: Int)? {
        guard let error = xmlGetLastError(), let message = error.pointee.message else { return nil }
        let text = String(cString: message).trimmingSuffix("\n")
        return text.isEmpty ? nil : (text, Int(error.pointee.line), Int(error.pointee.code))
    }
}

private extension StringProtocol {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = String(self)
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
