import Foundation
import Testing
@testable import TextLayout

/// Stored faces in the text engine: loaded from their bytes, matched within a stored family
/// by CSS Fonts Level 4's rules, and kept in the face cache by version.
struct StoredFaceTests {
    static let mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
    static let liberationMono = "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf"

    static func face(_ weight: Int, italic: Bool = false) -> FontFace {
        FontFace(family: "Acme", weight: weight, italic: italic, path: "stored:Acme/\(weight)\(italic ? "-italic" : "")@1")
    }

    /// A face loaded from a file's bytes measures by that file's own numbers: DejaVu Sans
    /// Mono's hmtx advance per character and its extents (FontFile reads the raw tables).
    @Test func aFaceFromBytesMeasuresByTheFilesNumbers() throws {
        let file = try FontFile(Self.mono)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.mono)))
        let loaded = try #require(LoadedFace(Self.face(400), bytes: bytes))
        #expect(Int(loaded.unitsPerEm) == file.unitsPerEm)
        let measured = TextMeasurer().prepare("mmmm", font: FontRequest(family: "Acme", size: 10), primary: loaded).layout(width: nil, numberOfLines: 1)
        let advance = try file.advance("m")
        #expect(measured.lines.count == 1)
        #expect(abs(measured.lines[0].width - Double(4 * advance) * 10 / Double(file.unitsPerEm)) < 1e-9)
        #expect(abs(measured.lineHeight - Double(file.ascender - file.descender + file.lineGap) * 10 / Double(file.unitsPerEm)) < 1e-9)
        #expect(LoadedFace(Self.face(400), bytes: Array("not a font".utf8)) == nil)
        #expect(LoadedFace(Self.face(400), bytes: []) == nil)
    }

    /// `bytes` with every `hmtx` long metric's advanceWidth set to `advance` (the table
    /// directory, `hhea.numberOfHMetrics` and `hmtx` as the OpenType spec lays them out).
    static func withEveryAdvance(_ advance: UInt16, in bytes: [UInt8]) throws -> [UInt8] {
        var bytes = bytes
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        var offsets: [String: Int] = [:]
        for index in 0..<u16(4) {
            let record = 12 + 16 * index
            offsets[String(decoding: bytes[record..<record + 4], as: UTF8.self)] = u32(record + 8)
        }
        let hhea = try #require(offsets["hhea"]), hmtx = try #require(offsets["hmtx"])
        for metric in 0..<u16(hhea + 34) {
            bytes[hmtx + 4 * metric] = UInt8(advance >> 8)
            bytes[hmtx + 4 * metric + 1] = UInt8(advance & 0xFF)
        }
        return bytes
    }

    /// hmtx advanceWidth is a UFWORD (unsigned 16-bit): a face whose advances are 32,768
    /// units or more measures sum of advances × size / unitsPerEm, not a negative (then
    /// zero) width. DejaVu Sans has unitsPerEm 2,048 and no kerning between two W's.
    @Test(arguments: [1 as UInt16, 1234, 32_767, 32_768, 40_000, 65_535])
    func advancesOf32768UnitsOrMoreAreUnsigned(_ advance: UInt16) throws {
        let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let bytes = try Self.withEveryAdvance(advance, in: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let loaded = try #require(LoadedFace(Self.face(400), bytes: bytes))
        #expect(loaded.unitsPerEm == 2048)
        #expect(loaded.advance(of: "W") == Int32(advance))
        let measured = TextMeasurer().prepare("WW", font: FontRequest(family: "Acme", size: 17), primary: loaded).layout(width: nil, numberOfLines: 1)
        #expect(measured.lines.count == 1)
        #expect(abs(measured.lines[0].width - 2 * Double(advance) * 17 / 2048) < 1e-9)
        // The vertical extents stay the file's (hhea ascender and descender are signed FWORDs).
        let file = try FontFile(path)
        #expect(abs(measured.lineHeight - Double(file.ascender - file.descender + file.lineGap) * 17 / 2048) < 1e-9)
    }

    /// CSS Fonts 4 §5.2 among a stored family's faces: style first, then weight.
    @Test(arguments: [
        // desired, italic, faces (weight, italic), chosen (weight, italic)
        (400, false, [(300, false), (700, false)], (300, false)),  // 400: up to 500, then lighter
        (500, false, [(400, false), (700, false)], (400, false)),
        (450, false, [(500, false), (300, false)], (500, false)),
        (600, false, [(400, false), (700, false)], (700, false)),  // above 500: heavier first
        (800, false, [(400, false), (700, false)], (700, false)),  // then lighter
        (200, false, [(300, false), (100, false)], (100, false)),  // below 400: lighter first
        (200, false, [(300, false), (700, false)], (300, false)),  // then heavier ascending
        (400, true, [(400, false), (700, true)], (700, true)),     // italic asked: italic faces first
        (700, true, [(400, false), (700, false)], (700, false)),   // no italic: the others
        (400, false, [(400, true)], (400, true)),
    ] as [(Int, Bool, [(Int, Bool)], (Int, Bool))])
    func storedWeightMatching(_ desired: Int, _ italic: Bool, _ faces: [(Int, Bool)], _ chosen: (Int, Bool)) throws {
        let match = try #require(FontCatalog.match(weight: desired, italic: italic, in: faces.map { Self.face($0.0, italic: $0.1) }))
        #expect(match.weight == chosen.0)
        #expect(match.italic == chosen.1)
    }

    @Test func noFacesMatchNothing() {
        #expect(FontCatalog.match(weight: 400, italic: false, in: []) == nil)
    }

    /// The face cache keys a stored face by its path, `stored:FAMILY/FACE@VERSION`: a new
    /// version is loaded from its own bytes, never answered with the old version's face, and
    /// a held version's bytes are not asked for again.
    @Test func theFaceCacheKeepsVersionsApart() throws {
        let cache = FaceCache(capacity: 4)
        let mono = Array(try Data(contentsOf: URL(fileURLWithPath: Self.mono)))
        let liberation = Array(try Data(contentsOf: URL(fileURLWithPath: Self.liberationMono)))
        var asked = 0
        let first = try #require(cache.load(FontFace(family: "Acme", weight: 400, italic: false, path: "stored:Acme/400@1")) { () -> [UInt8] in
            asked += 1
            return mono
        })
        let again = try #require(cache.load(FontFace(family: "Acme", weight: 400, italic: false, path: "stored:Acme/400@1")) { () -> [UInt8] in
            asked += 1
            return liberation
        })
        #expect(first === again)
        #expect(asked == 1)
        let second = try #require(cache.load(FontFace(family: "Acme", weight: 400, italic: false, path: "stored:Acme/400@2")) { () -> [UInt8] in
            asked += 1
            return liberation
        })
        #expect(asked == 2)
        #expect(second !== first)
        #expect(second.advance(of: "m") != first.advance(of: "m"))
        #expect(second.byteCount == liberation.count)
        #expect(cache.counts == (held: 2, loads: 2))
    }
}
