import CHarfBuzz

/// What ``FontFileCheck/check(_:)`` found in a font file it accepts.
public struct FontFileInfo: Sendable, Equatable {
    /// HarfBuzz's glyph count of the face (`maxp.numGlyphs`), at least 1.
    public let glyphCount: Int
    /// `head.unitsPerEm`, 16–16,384.
    public let unitsPerEm: Int
}

/// Why a font file was refused: a sentence a client can act on (the `detail` of a 422
/// `invalid_font`).
public struct FontFileError: Error, Sendable, Equatable {
    public let message: String
}

/// Checks that bytes are one TrueType or OpenType face that HarfBuzz reads with glyphs,
/// before a stored font is kept (contract, "Text", stored fonts).
///
/// Rules, in order, each a refusal:
/// - an sfnt header (OpenType spec, "Organization of an OpenType Font": the version tag
///   `0x00010000`, `OTTO` or `true`) and a table directory of 1–1,024 records that fits the
///   file; a collection (`ttcf`) is refused, since a stored face is one face, and a WOFF
///   or WOFF2 web font (`wOFF`, `wOF2`) with a way to convert it;
/// - every table record's range inside the file (a truncated file loses its last tables;
///   HarfBuzz would read those as empty and measure with missing metrics);
/// - the tables measuring reads: `cmap`, `head`, `hhea`, `hmtx`, `maxp`, each long
///   enough for what measuring reads of it (OpenType spec, each table's chapter):
///   `head` 54 bytes, `hhea` 36, `maxp` 6, `cmap` its 4-byte header and `numTables`
///   8-byte encoding records, and `hmtx` `hhea.numberOfHMetrics` (at least 1)
///   4-byte long metrics (an empty `hmtx` would measure every glyph 0 wide);
/// - HarfBuzz's face has at least one glyph and a `unitsPerEm` in 16–16,384 (the `head`
///   table's valid range).
///
/// - Complexity: O(number of tables) besides HarfBuzz's lazy table sanitizing.
public enum FontFileCheck {
    /// The tables a face must have to be measured.
    public static let requiredTables = ["cmap", "head", "hhea", "hmtx", "maxp"]

    /// Checks `bytes`; see the type's rules.
    /// - Throws: ``FontFileError`` naming the first rule broken.
    public static func check(_ bytes: [UInt8]) throws(FontFileError) -> FontFileInfo {
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        guard bytes.count >= 12 else {
            throw FontFileError(message: "The file is \(bytes.count) bytes: too short for a TrueType or OpenType header (12 bytes)")
        }
        let tag = u32(0)
        if tag == 0x7474_6366 {
            throw FontFileError(message: "The file is a font collection (ttcf): store one face per file")
        }
        // `wOFF` and `wOF2` start a WOFF or WOFF2 web font (W3C WOFF 1.0 §3, WOFF 2.0 §3):
        // compressed tables HarfBuzz does not read.
        if tag == 0x774F_4646 || tag == 0x774F_4632 {
            let woff2 = tag == 0x774F_4632
            throw FontFileError(message: "The file is a \(woff2 ? "WOFF2" : "WOFF") web font, not a TrueType or OpenType font: convert it to .ttf or .otf first"
                + " (e.g. with fonttools: fonttools ttLib.woff2 decompress FILE.\(woff2 ? "woff2" : "woff"))")
        }
        guard tag == 0x0001_0000 || tag == 0x4F54_544F || tag == 0x7472_7565 else {
            throw FontFileError(message: "The file is not a TrueType or OpenType font (its first 4 bytes are not 00010000, 'OTTO' or 'true')")
        }
        let tableCount = Int(UInt16(bytes[4]) << 8 | UInt16(bytes[5]))
        guard tableCount >= 1, tableCount <= 1_024 else {
            throw FontFileError(message: "The font's table directory lists \(tableCount) tables (1 to 1,024 expected)")
        }
        guard 12 + 16 * tableCount <= bytes.count else {
            throw FontFileError(message: "The font is truncated: its table directory needs \(12 + 16 * tableCount) bytes and the file has \(bytes.count)")
        }
        func u16(_ at: Int) -> Int { Int(UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])) }
        var tags: [String] = []
        var ranges: [String: (offset: Int, length: Int)] = [:]
        var headUnitsPerEm: Int?
        for index in 0..<tableCount {
            let record = 12 + 16 * index
            let tagBytes = bytes[record..<record + 4]
            let name = String(decoding: tagBytes, as: UTF8.self)
            let (offset, length) = (Int(u32(record + 8)), Int(u32(record + 12)))
            guard offset + length <= bytes.count else {
                throw FontFileError(message: "The font is truncated: its '\(name)' table ends at byte \(offset + length) and the file has \(bytes.count)")
            }
            tags.append(name)
            if ranges[name] == nil { ranges[name] = (offset, length) }
            // head.unitsPerEm (offset 18) as the file has it: HarfBuzz answers 1,000 for a
            // value outside 16–16,384 (FontFileCheckTests.unitsPerEmIsReadFromTheFile).
            if name == "head", length >= 20 { headUnitsPerEm = Int(UInt16(bytes[offset + 18]) << 8 | UInt16(bytes[offset + 19])) }
        }
        for required in requiredTables where !tags.contains(required) {
            throw FontFileError(message: "The font has no '\(required)' table, which measuring text needs")
        }
        // Every required table is present, and its range is inside the file (checked above).
        func table(_ name: String, atLeast minimum: Int, _ what: String) throws(FontFileError) -> (offset: Int, length: Int) {
            let range = ranges[name]!
            guard range.length >= minimum else {
                throw FontFileError(message: "The font's '\(name)' table is \(range.length) bytes, fewer than the \(minimum) that \(what) take")
            }
            return range
        }
        _ = try table("head", atLeast: 54, "its fixed fields")
        _ = try table("maxp", atLeast: 6, "its version and numGlyphs")
        let hhea = try table("hhea", atLeast: 36, "its fixed fields")
        let metricCount = u16(hhea.offset + 34)
        guard metricCount >= 1 else {
            throw FontFileError(message: "The font's 'hhea' numberOfHMetrics is 0 (at least 1 expected)")
        }
        _ = try table("hmtx", atLeast: metricCount * 4, "hhea.numberOfHMetrics (\(metricCount)) long metrics of 4 bytes")
        let cmap = try table("cmap", atLeast: 4, "its version and numTables")
        let encodingCount = u16(cmap.offset + 2)
        _ = try table("cmap", atLeast: 4 + 8 * encodingCount, "its header and \(encodingCount) encoding records")
        let info: (glyphs: Int, upem: Int)? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            let blob = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                hb_blob_create(chars, UInt32(buffer.count), HB_MEMORY_MODE_READONLY, nil, nil)
            }
            defer { hb_blob_destroy(blob) }
            guard hb_face_count(blob) == 1, let face = hb_face_create(blob, 0) else { return nil }
            defer { hb_face_destroy(face) }
            return (Int(hb_face_get_glyph_count(face)), Int(hb_face_get_upem(face)))
        }
        guard let info, info.glyphs > 0 else {
            throw FontFileError(message: "HarfBuzz reads no glyphs from the font")
        }
        let unitsPerEm = headUnitsPerEm ?? info.upem
        guard (16...16_384).contains(unitsPerEm), unitsPerEm == info.upem else {
            throw FontFileError(message: "The font's unitsPerEm is \(unitsPerEm) (16 to 16,384 expected)")
        }
        return FontFileInfo(glyphCount: info.glyphs, unitsPerEm: info.upem)
    }
}
