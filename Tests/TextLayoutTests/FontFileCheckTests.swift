import Glibc
import Testing
@testable import TextLayout

@Suite("Font file check")
struct FontFileCheckTests {
    static let files = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSerif-Italic.ttf",
        "/usr/share/fonts/opentype/inter/Inter-Bold.otf",
    ]

    /// The file's bytes, read with stdio: this suite imports TextLayout with `@testable`, which
    /// loads its ICU module, and Foundation's own ICU module would clash with it here.
    static func bytes(_ path: String) throws -> [UInt8] {
        let file = try #require(fopen(path, "rb"), "cannot open \(path)")
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// maxp.numGlyphs (offset 4) and head.unitsPerEm (offset 18), read from the file's own tables.
    static func tableNumbers(_ bytes: [UInt8]) throws -> (glyphs: Int, upem: Int) {
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        var offsets: [String: Int] = [:]
        for index in 0..<u16(4) {
            let record = 12 + 16 * index
            offsets[String(decoding: bytes[record..<record + 4], as: UTF8.self)] = u32(record + 8)
        }
        return (u16(try #require(offsets["maxp"]) + 4), u16(try #require(offsets["head"]) + 18))
    }

    @Test("Debian's fonts pass with the glyph count and unitsPerEm of their own tables", arguments: files)
    func realFontsPass(_ path: String) throws {
        let bytes = try Self.bytes(path)
        let info = try FontFileCheck.check(bytes)
        let expected = try Self.tableNumbers(bytes)
        #expect(info.glyphCount == expected.glyphs)
        #expect(info.unitsPerEm == expected.upem)
    }

    @Test("a file cut anywhere before its last table ends is refused as truncated", arguments: files)
    func truncatedFontsFail(_ path: String) throws {
        let bytes = try Self.bytes(path)
        for cut in [12, 100, 5_000, bytes.count / 2, bytes.count - 1_000] {
            #expect(throws: FontFileError.self) { _ = try FontFileCheck.check(Array(bytes.prefix(cut))) }
        }
        #expect(throws: FontFileError(message: "The font is truncated: its table directory needs \(12 + 16 * (Int(bytes[4]) << 8 | Int(bytes[5]))) bytes and the file has 100")) {
            _ = try FontFileCheck.check(Array(bytes.prefix(100)))
        }
    }

    @Test("not a font, a collection, a missing table and a zero unitsPerEm are refused with their reasons")
    func notFonts() throws {
        #expect(throws: FontFileError(message: "The file is 5 bytes: too short for a TrueType or OpenType header (12 bytes)")) {
            _ = try FontFileCheck.check(Array("hello".utf8))
        }
        #expect(throws: FontFileError(message: "The file is not a TrueType or OpenType font (its first 4 bytes are not 00010000, 'OTTO' or 'true')")) {
            _ = try FontFileCheck.check(Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8))
        }
        #expect(throws: FontFileError(message: "The file is a WOFF2 web font, not a TrueType or OpenType font: convert it to .ttf or .otf first (e.g. with fonttools: fonttools ttLib.woff2 decompress FILE.woff2)")) {
            _ = try FontFileCheck.check(Array("wOF2".utf8) + [0, 1, 0, 0] + [UInt8](repeating: 0, count: 40))
        }
        #expect(throws: FontFileError(message: "The file is a WOFF web font, not a TrueType or OpenType font: convert it to .ttf or .otf first (e.g. with fonttools: fonttools ttLib.woff2 decompress FILE.woff)")) {
            _ = try FontFileCheck.check(Array("wOFF".utf8) + [0, 1, 0, 0] + [UInt8](repeating: 0, count: 40))
        }
        #expect(throws: FontFileError(message: "The file is a font collection (ttcf): store one face per file")) {
            _ = try FontFileCheck.check(Array("ttcf".utf8) + [UInt8](repeating: 0, count: 20))
        }
        var bytes = try Self.bytes(Self.files[0])
        // Rename the 'cmap' record's tag: the font then has no cmap.
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        let cmap = try #require((0..<tables).first { String(decoding: bytes[12 + 16 * $0..<16 + 16 * $0], as: UTF8.self) == "cmap" })
        bytes.replaceSubrange(12 + 16 * cmap..<16 + 16 * cmap, with: Array("xmap".utf8))
        #expect(throws: FontFileError(message: "The font has no 'cmap' table, which measuring text needs")) {
            _ = try FontFileCheck.check(bytes)
        }
    }

    /// The tables measuring reads are long enough for it: an empty `hmtx` (every advance
    /// 0) or a `hhea` too short for numberOfHMetrics is refused, not stored.
    @Test("a table too short for what measuring reads of it is refused")
    func shortTablesAreRefused() throws {
        let original = try Self.bytes(Self.files[0])
        func u16(_ at: Int) -> Int { Int(original[at]) << 8 | Int(original[at + 1]) }
        let tables = u16(4)
        func record(_ tag: String) throws -> Int {
            12 + 16 * (try #require((0..<tables).first { String(decoding: original[12 + 16 * $0..<16 + 16 * $0], as: UTF8.self) == tag }))
        }
        func withLength(_ tag: String, _ length: Int) throws -> [UInt8] {
            var bytes = original
            let at = try record(tag) + 12
            bytes.replaceSubrange(at..<at + 4, with: [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)])
            return bytes
        }
        let hhea = try record("hhea")
        let hheaOffset = u16(hhea + 8) << 16 | u16(hhea + 10)
        let metrics = u16(hheaOffset + 34)
        #expect(metrics > 1)
        for length in [0, metrics * 4 - 1] {
            #expect(throws: FontFileError(message: "The font's 'hmtx' table is \(length) bytes, fewer than the \(metrics * 4) that hhea.numberOfHMetrics (\(metrics)) long metrics of 4 bytes take")) {
                _ = try FontFileCheck.check(try withLength("hmtx", length))
            }
        }
        _ = try FontFileCheck.check(try withLength("hmtx", metrics * 4))
        #expect(throws: FontFileError(message: "The font's 'hhea' table is 34 bytes, fewer than the 36 that its fixed fields take")) {
            _ = try FontFileCheck.check(try withLength("hhea", 34))
        }
        #expect(throws: FontFileError(message: "The font's 'head' table is 0 bytes, fewer than the 54 that its fixed fields take")) {
            _ = try FontFileCheck.check(try withLength("head", 0))
        }
        #expect(throws: FontFileError(message: "The font's 'maxp' table is 4 bytes, fewer than the 6 that its version and numGlyphs take")) {
            _ = try FontFileCheck.check(try withLength("maxp", 4))
        }
        #expect(throws: FontFileError(message: "The font's 'cmap' table is 0 bytes, fewer than the 4 that its version and numTables take")) {
            _ = try FontFileCheck.check(try withLength("cmap", 0))
        }
        var noMetrics = original
        noMetrics[hheaOffset + 34] = 0
        noMetrics[hheaOffset + 35] = 0
        #expect(throws: FontFileError(message: "The font's 'hhea' numberOfHMetrics is 0 (at least 1 expected)")) {
            _ = try FontFileCheck.check(noMetrics)
        }
    }

    /// head.unitsPerEm is read from the file: HarfBuzz answers 1,000 for 0 or 65,535, so
    /// its answer alone would store such a file.
    @Test("a unitsPerEm outside 16–16,384 in the head table is refused")
    func unitsPerEmIsReadFromTheFile() throws {
        let original = try Self.bytes(Self.files[0])
        let tables = Int(original[4]) << 8 | Int(original[5])
        let head = try #require((0..<tables).first { String(decoding: original[12 + 16 * $0..<16 + 16 * $0], as: UTF8.self) == "head" })
        let record = 12 + 16 * head
        let offset = Int(original[record + 8]) << 24 | Int(original[record + 9]) << 16 | Int(original[record + 10]) << 8 | Int(original[record + 11])
        for value in [0, 15, 16_385, 65_535] {
            var bytes = original
            bytes[offset + 18] = UInt8(value >> 8)
            bytes[offset + 19] = UInt8(value & 0xFF)
            #expect(throws: FontFileError(message: "The font's unitsPerEm is \(value) (16 to 16,384 expected)")) {
                _ = try FontFileCheck.check(bytes)
            }
        }
    }
}
