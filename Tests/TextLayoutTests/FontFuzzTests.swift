import Glibc
import Testing
@testable import TextLayout

/// The font fuzz target's invariants (``FontFuzz/checkFont(_:)``) on every input that ever
/// failed them (`fuzz/regressions/font/`, copied unchanged from libFuzzer's artifacts) and
/// on Debian's fonts whole, cut and corrupted as scripts/fuzz_upload_seeds.py seeds the
/// target, with what the upload check answers for each.
@Suite("Font fuzz invariants")
struct FontFuzzTests {
    static let fonts = FontFileCheckTests.files

    /// The files of `fuzz/regressions/font/` (README.md aside), found from this file's path.
    static func regressions() throws -> [String] {
        let folder = String(#filePath.dropLast("Tests/TextLayoutTests/FontFuzzTests.swift".count)) + "fuzz/regressions/font"
        let directory = try #require(opendir(folder), "no \(folder)")
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != ".", name != "..", name != "README.md" { names.append(folder + "/" + name) }
        }
        return names.sorted()
    }

    @Test("Every regression input keeps the invariants")
    func regressionsHold() throws {
        for path in try Self.regressions() {
            #expect(FontFuzz.checkFont(try FontFileCheckTests.bytes(path)) == nil, "\(path)")
        }
    }

    /// `value` written big-endian at `offset` of a copy of `bytes`.
    static func patched(_ bytes: [UInt8], at offset: Int, _ value: UInt16) -> [UInt8] {
        var copy = bytes
        copy[offset] = UInt8(value >> 8)
        copy[offset + 1] = UInt8(value & 0xFF)
        return copy
    }

    /// The offset of table `tag` in the file's own directory.
    static func tableOffset(_ bytes: [UInt8], _ tag: String) throws -> Int {
        let count = Int(bytes[4]) << 8 | Int(bytes[5])
        for index in 0..<count {
            let record = 12 + 16 * index
            if String(decoding: bytes[record..<record + 4], as: UTF8.self) == tag {
                return bytes[record + 8..<record + 12].reduce(0) { $0 << 8 | Int($1) }
            }
        }
        Issue.record("no '\(tag)' table")
        throw FontFileError(message: "no \(tag)")
    }

    @Test("A whole font is accepted, loads and measures every string within the invariants", arguments: fonts)
    func wholeFont(path: String) throws {
        let bytes = try FontFileCheckTests.bytes(path)
        #expect((try? FontFileCheck.check(bytes)) != nil)
        #expect(FontFuzz.checkFont(bytes) == nil)
    }

    @Test("A font cut anywhere before its last table ends is refused as truncated", arguments: fonts)
    func cutFont(path: String) throws {
        let bytes = try FontFileCheckTests.bytes(path)
        let tableCount = Int(bytes[4]) << 8 | Int(bytes[5])
        let directoryEnd = 12 + 16 * tableCount
        // The end of the table that ends last (a file may carry padding after it).
        let tablesEnd = (0..<tableCount).map { index -> Int in
            let record = 12 + 16 * index
            func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return u32(record + 8) + u32(record + 12)
        }.max() ?? 0
        for cut in [0, 11, 12, 100, directoryEnd - 1, directoryEnd + 1, bytes.count / 2, tablesEnd - 1] {
            let piece = Array(bytes[0..<cut])
            #expect(throws: FontFileError.self, "cut at \(cut)") { try FontFileCheck.check(piece) }
            #expect(FontFuzz.checkFont(piece) == nil)
        }
    }

    @Test("A font with unitsPerEm out of 16–16,384, no glyphs, or a table past its end is refused", arguments: fonts)
    func corruptedFont(path: String) throws {
        let bytes = try FontFileCheckTests.bytes(path)
        let head = try Self.tableOffset(bytes, "head"), maxp = try Self.tableOffset(bytes, "maxp")
        var refused: [(String, [UInt8])] = [
            ("unitsPerEm 0", Self.patched(bytes, at: head + 18, 0)),
            ("unitsPerEm 16,385", Self.patched(bytes, at: head + 18, 16_385)),
            ("unitsPerEm 65,535", Self.patched(bytes, at: head + 18, 0xFFFF)),
            ("numGlyphs 0", Self.patched(bytes, at: maxp + 4, 0)),
            ("numTables 0", Self.patched(bytes, at: 4, 0)),
            ("numTables 65,535", Self.patched(bytes, at: 4, 0xFFFF)),
        ]
        var pastTheEnd = bytes
        pastTheEnd[12 + 8] = 0xFF  // the first table's offset, now near 4 GB
        refused.append(("the first table's offset past the end", pastTheEnd))
        for (what, variant) in refused {
            #expect(throws: FontFileError.self, "\(what)") { try FontFileCheck.check(variant) }
            #expect(FontFuzz.checkFont(variant) == nil, "\(what)")
        }
        // hhea.numberOfHMetrics 1: every glyph takes the first advance; still a font.
        let hhea = try Self.tableOffset(bytes, "hhea")
        #expect(FontFuzz.checkFont(Self.patched(bytes, at: hhea + 34, 1)) == nil)
    }
}
