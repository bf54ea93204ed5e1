import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import InterfaceBuilder

/// The XML reader's refusals: each hostile document stops with a message and a line, and
/// nothing outside the bytes is read.
struct SafeXMLTests {
    func parse(_ text: String, limits: XMLLimits = XMLLimits()) -> Result<XMLElement, XMLReadError> {
        do { return .success(try SafeXML.parse(Array(text.utf8), limits: limits)) } catch { return .failure(error) }
    }

    func failure(_ text: String, limits: XMLLimits = XMLLimits()) throws -> XMLReadError {
        guard case .failure(let error) = parse(text, limits: limits) else {
            Issue.record("expected a failure")
            throw XMLReadError(message: "parsed", line: 0)
        }
        return error
    }

    func failure(bytes: [UInt8]) throws -> XMLReadError {
        do {
            _ = try SafeXML.parse(bytes)
        } catch {
            return error
        }
        Issue.record("expected a failure")
        throw XMLReadError(message: "parsed", line: 0)
    }

    @Test func readsElementsAttributesTextAndLines() throws {
        let root = try SafeXML.parse(Array("<a x=\"1\" y=\"&lt;2\">\n  <b/>\n  <c k=\"v\">hi</c>\n</a>".utf8))
        #expect(root.name == "a")
        #expect(root["x"] == "1")
        #expect(root["y"] == "<2")
        #expect(root.children.map(\.name) == ["b", "c"])
        #expect(root.children.map(\.line) == [2, 3])
        #expect(root.child("c")?.text == "hi")
        #expect(root.child("c")?["k"] == "v")
    }

    static let ebcdic = "<?xml version=\"1.0\" encoding=\"EBCDIC-US\"?>\n<document type=\"x\"/>\n"
    /// Line 2 holds `é` (two bytes), then the bytes FF FE, which no UTF-8 text has.
    static let invalidUTF8: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<document a=\"é".utf8) + [0xFF, 0xFE] + Array("\"/>\n".utf8)

    /// A declared encoding whose conversion fails is named (libxml2's last error, "parsing
    /// XML declaration: '?>' expected", says nothing of it); bytes that are not UTF-8 are
    /// located, on one line (libxml2's own message has a line break); JSON is pointed to
    /// `/solve`.
    @Test func encodingProblemsAreToldOnOneLine() throws {
        let ebcdic = try failure(Self.ebcdic)
        #expect(ebcdic.message == "The document declares encoding \"EBCDIC-US\", which cannot be read here or does not match its bytes: Interface Builder documents are UTF-8; save it as UTF-8")
        #expect(ebcdic.line == 1)
        let invalid = try failure(bytes: Self.invalidUTF8)
        #expect(invalid.message == "The document is not valid UTF-8: bytes 0xFF 0xFE 0x22 0x2F at line 2, column 15; save it as UTF-8")
        #expect(invalid.line == 2)
        #expect(SafeXML.invalidUTF8(Array("a\nbé".utf8)) == nil)
        // An overlong form and a surrogate are not UTF-8 either (RFC 3629).
        #expect(SafeXML.invalidUTF8([0x61, 0xC0, 0xAF])?.column == 2)
        #expect(SafeXML.invalidUTF8([0x0A, 0xED, 0xA0, 0x80])?.line == 2)
        let json = try failure(" {\"views\": {}}")
        #expect(json.message == "No XML could be read: the document is JSON; a scene is laid out by POST /solve (layoutd solve), Interface Builder documents (.xib, .storyboard) by POST /import")
    }

    /// libxml2 says nothing on standard error (the server's log is one JSON object a line):
    /// its errors go to the parse's handler (``XMLErrorLog``). Standard error is sent to a
    /// file while the two documents that made libxml2 write ("encoding error : input
    /// conversion failed …") are read; only libxml2's words are looked for, so that another
    /// test writing there at the same time does not fail this one.
    @Test func libxml2WritesNothingToStandardError() throws {
        var template = Array("/tmp/safexml-stderr-XXXXXX".utf8CString)
        let file = mkstemp(&template)
        try #require(file >= 0)
        defer { close(file); unlink(template) }
        let saved = dup(2)
        dup2(file, 2)
        _ = parse(Self.ebcdic)
        _ = try? SafeXML.parse(Self.invalidUTF8)
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        lseek(file, 0, SEEK_SET)
        var written: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(file, &chunk, chunk.count)
            if count <= 0 { break }
            written += chunk[..<count]
        }
        let text = String(decoding: written, as: UTF8.self)
        #expect(!text.contains("encoding error"), "libxml2 wrote: \(text)")
        #expect(!text.contains("parser error"), "libxml2 wrote: \(text)")
        #expect(!text.contains("not proper UTF-8"), "libxml2 wrote: \(text)")
    }

    @Test func notXMLNamesTheLine() throws {
        let error = try failure("<a>\n<b>\n</a>")
        #expect(error.line == 3)
        #expect(error.message.contains("mismatch"))
        #expect(try failure("{\"json\": true}").line == 1)
        #expect(try failure("").message == "The document is empty")
        #expect(try failure("").line == 1)
    }

    @Test func aCutDocumentNamesItsOpenElement() throws {
        let cut = try failure("<document>\n  <objects>")
        #expect(cut.message == "The document ends before <objects> (line 2) is closed")
        #expect(cut.line == 2)
        // Cut inside a start tag: libxml2's own words name that tag.
        let cutInTag = try failure("<document>\n<objects><view")
        #expect(cutInTag.message == "Couldn't find end of Start Tag view")
        #expect(cutInTag.line == 2)
        // A UTF-16 byte-order mark before UTF-8 text: nothing decodes.
        var caught: XMLReadError?
        do { _ = try SafeXML.parse([0xFF, 0xFE] + Array("<doc".utf8)) } catch { caught = error }
        let error = try #require(caught)
        #expect(error.message == "No XML could be read: the document must be UTF-8 (or UTF-16 with a byte-order mark) and start with '<'")
        #expect(error.line == 1)
    }

    /// A NUL or another C0 control byte is named, at its line, not by what libxml2 was
    /// parsing when it met it; UTF-16 text (zero bytes in its units) and bytes that are not
    /// XML at all are left to libxml2.
    @Test func controlCharactersAreNamed() throws {
        let nul = "The document holds a NUL character (a zero byte), which XML does not allow"
        for text in ["<document>\n<objects>\n<view\0 id=\"a\"/>", "<document>\n<objects>\n<view id=\"a\0\"/>", "<document>\n<objects>\n\0<view/>"] {
            let error = try failure(text)
            #expect(error.message == nul)
            #expect(error.line == 3)
        }
        #expect(try failure("<a>\r\n<b id=\"\u{1}\"/></a>").message == "The document holds the control character U+0001, which XML does not allow")
        #expect((try? SafeXML.parse(Array("<a>\t<b/>\r\n</a>\n".utf8)))?.children.map(\.name) == ["b"])
        let utf16: [UInt8] = [0xFF, 0xFE] + "<a/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect((try? SafeXML.parse(utf16))?.name == "a")
        var caught: XMLReadError?
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]
        do { _ = try SafeXML.parse(png) } catch { caught = error }
        #expect(caught?.message.hasPrefix("The document holds") == false)
    }

    /// libxml2's refusal of a character reference XML does not allow names the character,
    /// not libxml2's function (`xmlParseCharRef: invalid xmlChar value 0`).
    @Test func characterReferencesAreNamed() throws {
        let zero = try failure("<document>\n<view userLabel=\"a&#0;b\"/></document>")
        #expect(zero.message == "The document holds a character reference to U+0000 (&#0;), a character XML does not allow")
        #expect(zero.line == 2)
        #expect(try failure("<a>&#xD800;</a>").message == "The document holds a character reference to U+D800 (&#55296;), a character XML does not allow")
        #expect(try failure("<a b=\"&#x110000;\"/>").message == "The document holds a character reference beyond U+10FFFF, the last character, which XML does not allow")
        #expect(SafeXML.characterReferenceMessage("Opening and ending tag mismatch: a line 1 and b") == nil)
    }

    @Test func billionLaughsIsRefusedAtTheDTD() throws {
        var text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            text += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        text += "]>\n<lolz>&lol9;</lolz>"
        let error = try failure(text)
        #expect(error.message.contains("DOCTYPE"))
        #expect(error.line == 2)
    }

    @Test func externalEntityIsNeverRead() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE d [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<document>&xxe;</document>"
        let error = try failure(text)
        #expect(!error.message.contains("root:"))
        #expect(error.message.contains("DOCTYPE"))
    }

    @Test func deepNestingStopsAtTheBound() throws {
        let depth = 100_000
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let error = try failure(text)
        #expect(error.message.contains("deep") || error.message.contains("depth"))
        var limits = XMLLimits()
        limits.maxDepth = 5
        let shallow = try failure("<a><a><a><a><a><a/></a></a></a></a></a>", limits: limits)
        #expect(shallow.message == "Elements nested more than 5 deep")
    }

    /// libxml2 stops its parser past 256 open elements on its own, reading ahead of the
    /// bound's check: the refusal is the bound's, with its advice.
    @Test func libxml2sDepthBoundIsToldAsOurs() throws {
        var limits = XMLLimits()
        limits.maxDepth = XMLLimits.readerMaxDepth
        limits.depthAdvice = "flatten it"
        let text = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        #expect(try failure(text, limits: limits).message == "Elements nested more than 256 deep: flatten it")
    }

    /// The depth bound of an Interface Builder import: two elements per view level of
    /// `--max-hierarchy-depth` plus 32, at most libxml2's 256; setting the hierarchy depth
    /// sets it.
    @Test func theImportsDepthBoundFollowsTheHierarchyDepth() {
        #expect(IBImportOptions.xmlDepth(forHierarchyDepth: 64) == 160)
        #expect(IBImportOptions.xmlDepth(forHierarchyDepth: 111) == 254)
        #expect(IBImportOptions.xmlDepth(forHierarchyDepth: 112) == 256)
        #expect(IBImportOptions.xmlDepth(forHierarchyDepth: Int.max) == 256)
        #expect(IBImportOptions.xmlDepth(forHierarchyDepth: -1) == 32)
        var options = IBImportOptions()
        #expect(options.limits.maxDepth == 160)
        options.maxHierarchyDepth = 10
        #expect(options.limits.maxDepth == 52)
        #expect(options.limits.depthAdvice?.contains("twice --max-hierarchy-depth (10) plus 32 elements") == true)
    }

    @Test func elementCountAndAttributeSizeAreBounded() throws {
        var limits = XMLLimits()
        limits.maxElements = 3
        #expect(try failure("<a><b/><c/><d/></a>", limits: limits).message == "More than 3 elements")
        limits = XMLLimits()
        limits.maxAttributeBytes = 4
        #expect(try failure("<a x=\"12345\"/>", limits: limits).message == "Attribute x of <a> longer than 4 bytes")
        limits = XMLLimits()
        limits.maxAttributesPerElement = 1
        #expect(try failure("<a x=\"1\" y=\"2\"/>", limits: limits).message == "More than 1 attributes on <a>")
    }
}
