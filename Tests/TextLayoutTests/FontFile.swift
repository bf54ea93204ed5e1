import CHarfBuzz
import Testing
@testable import TextLayout

/// A font file's own numbers, read from its raw tables (`head`, `hhea`, `OS/2`, `hmtx`)
/// through `hb_face_reference_table`, parsed here as the OpenType specification lays them
/// out, so that tests derive expected measurements from the file and not from the engine.
/// Glyph ids come from the file's cmap through `hb_font_get_nominal_glyph`.
final class FontFile {
    let path: String
    let face: OpaquePointer
    let font: OpaquePointer
    let unitsPerEm: Int
    let ascender: Int
    let descender: Int
    let lineGap: Int
    private let hmtx: [UInt8]
    private let numberOfHMetrics: Int

    init(_ path: String) throws {
        self.path = path
        let blob = try #require(hb_blob_create_from_file_or_fail(path))
        defer { hb_blob_destroy(blob) }
        let face = try #require(hb_face_create(blob, 0))
        self.face = face
        font = try #require(hb_font_create(face))
        func table(_ tag: String) -> [UInt8] {
            let chars = Array(tag.utf8)
            let value = UInt32(chars[0]) << 24 | UInt32(chars[1]) << 16 | UInt32(chars[2]) << 8 | UInt32(chars[3])
            let tableBlob = hb_face_reference_table(face, value)
            defer { hb_blob_destroy(tableBlob) }
            var length: UInt32 = 0
            guard let data = hb_blob_get_data(tableBlob, &length), length > 0 else { return [] }
            return Array(UnsafeRawBufferPointer(start: data, count: Int(length)))
        }
        let head = table("head"), hhea = table("hhea"), os2 = table("OS/2")
        func u16(_ bytes: [UInt8], _ offset: Int) -> Int { Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) }
        func i16(_ bytes: [UInt8], _ offset: Int) -> Int { Int(Int16(bitPattern: UInt16(u16(bytes, offset)))) }
        unitsPerEm = u16(head, 18)
        // HarfBuzz's horizontal extents: OS/2 typo metrics when fsSelection's
        // USE_TYPO_METRICS bit (7) is set, else hhea's.
        let useTypo = os2.count >= 74 && (u16(os2, 62) & 0x80) != 0
        ascender = useTypo ? i16(os2, 68) : i16(hhea, 4)
        descender = useTypo ? i16(os2, 70) : i16(hhea, 6)
        lineGap = useTypo ? i16(os2, 72) : i16(hhea, 8)
        numberOfHMetrics = u16(hhea, 34)
        hmtx = table("hmtx")
    }

    deinit {
        hb_font_destroy(font)
        hb_face_destroy(face)
    }

    func glyph(_ scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 ? glyph : nil
    }

    /// The hmtx advance of `scalar`'s glyph, font units.
    func advance(_ scalar: Unicode.Scalar) throws -> Int {
        let glyph = Int(try #require(self.glyph(scalar), "no glyph for \(scalar)"))
        let index = min(glyph, numberOfHMetrics - 1)
        return Int(hmtx[4 * index]) << 8 | Int(hmtx[4 * index + 1])
    }

    /// Points: the hmtx advances of `text`'s characters summed, at `size`.
    func advances(_ text: String, size: Double) throws -> Double {
        try text.unicodeScalars.reduce(0) { $0 + Double(try advance($1)) } * size / Double(unitsPerEm)
    }

    func lineHeight(size: Double) -> Double { Double(ascender - descender + lineGap) * size / Double(unitsPerEm) }

    /// Points: `text` shaped here, independently of the engine (hb_shape, default
    /// features, a font whose scale is units per em), x advances summed.
    func shapedWidth(_ text: String, size: Double) -> Double {
        hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let units = Array(text.utf16)
        hb_buffer_add_utf16(buffer, units, Int32(units.count), 0, Int32(units.count))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        return (0..<Int(count)).reduce(0) { $0 + Double(positions[$1].x_advance) } * size / Double(unitsPerEm)
    }
}

enum Fonts {
    static let root = "/usr/share/fonts"
    static let mono = root + "/truetype/dejavu/DejaVuSansMono.ttf"
    static let dejaVuSans = root + "/truetype/dejavu/DejaVuSans.ttf"
    static let interRegular = root + "/opentype/inter/Inter-Regular.otf"
    static let liberationSans = root + "/truetype/liberation2/LiberationSans-Regular.ttf"
    static let measurer = TextMeasurer()
}
