import Foundation
import Testing
import LayoutCompiler
@testable import InterfaceBuilder

/// The Interface Builder fuzz target's invariants (``IBFuzz/checkDocument(_:)``) on every
/// input that ever failed them (`fuzz/regressions/ib/`), on the corpus's smallest
/// documents, and on hostile copies of one made as scripts/fuzz_upload_seeds.py makes
/// them: each refused with a line, or imported without reading a file.
struct IBFuzzTests {
    static let regressionFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/regressions/ib")

    @Test func regressionsHold() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.regressionFolder.path)
            .filter { $0 != "README.md" }.sorted()
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: Self.regressionFolder.appendingPathComponent(name)))
            #expect(IBFuzz.checkDocument(bytes) == nil, "\(name)")
        }
    }

    /// The corpus's `count` smallest documents.
    static func smallest(_ count: Int) throws -> [(name: String, bytes: [UInt8])] {
        let documents = try IBCorpusTests.files().map { name in
            (name: name, bytes: [UInt8](try Data(contentsOf: IBCorpusTests.directory.appendingPathComponent(name))))
        }
        try #require(!documents.isEmpty, "no documents at \(IBCorpusTests.directory.path)")
        return Array(documents.sorted { $0.bytes.count < $1.bytes.count }.prefix(count))
    }

    @Test func smallestCorpusDocumentsKeepTheInvariants() throws {
        for document in try Self.smallest(8) {
            #expect(IBFuzz.checkDocument(document.bytes) == nil, "\(document.name)")
        }
    }

    /// `text` inserted after the document's XML declaration.
    static func afterDeclaration(_ document: String, _ text: String) throws -> String {
        let end = try #require(document.range(of: "?>"))
        return String(document[..<end.upperBound]) + "\n" + text + String(document[end.upperBound...])
    }

    @Test func hostileCopiesAreRefusedWithALineOrImportWithoutReadingFiles() throws {
        let document = try #require(try Self.smallest(1).first)
        let text = String(decoding: document.bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count

        // Cut in half: not well-formed, refused at a line inside the document.
        let half = Array(document.bytes.prefix(document.bytes.count / 2))
        #expect(IBFuzz.checkDocument(half) == nil)
        #expect(throws: IBImportError.self) { try InterfaceBuilderImporter.importDocument(half) }

        // 400 views deep, past the XML depth bound (IBImportOptions.xmlDepth, 160).
        let subviews = try #require(text.range(of: "<subviews>"))
        let deep = String(repeating: "<view id=\"d\"><subviews>", count: 400) + String(repeating: "</subviews></view>", count: 400)
        let deepened = Array((text[..<subviews.upperBound] + deep + text[subviews.upperBound...]).utf8)
        #expect(IBFuzz.checkDocument(deepened) == nil)
        do {
            _ = try InterfaceBuilderImporter.importDocument(deepened)
            Issue.record("a document 400 views deeper imported")
        } catch {
            #expect(error.line > 0 && error.line <= lines + 1)
        }

        // Entities: nine levels of ten references each (10⁹ characters if expanded), and an
        // external entity naming /etc/passwd.
        var laughs = "<!DOCTYPE document [\n<!ENTITY a \"aaaaaaaaaa\">\n"
        for level in 1...8 {
            let name = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(level)))
            let previous = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(level - 1)))
            laughs += "<!ENTITY \(name) \"\(String(repeating: "&\(previous);", count: 10))\">\n"
        }
        laughs += "]>"
        let external = "<!DOCTYPE document [\n<!ENTITY secret SYSTEM \"file:///etc/passwd\">\n]>"
        for (declaration, reference) in [(laughs, "&i;"), (external, "&secret;")] {
            let hostile = try Self.afterDeclaration(text, declaration)
                .replacingOccurrences(of: "<document ", with: "<document userLabel=\"\(reference)\" ")
            let bytes = Array(hostile.utf8)
            #expect(IBFuzz.checkDocument(bytes) == nil)
            if let imported = try? InterfaceBuilderImporter.importDocument(bytes) {
                var writer = JSONWriter()
                writer.value(imported.answer)
                let answer = String(decoding: writer.bytes, as: UTF8.self)
                #expect(!answer.contains("root:"), "the answer quotes /etc/passwd")
                #expect(!answer.contains("aaaaaaaaaaaaaaaaaaaa"), "the answer expands entities")
            }
        }
    }
}
