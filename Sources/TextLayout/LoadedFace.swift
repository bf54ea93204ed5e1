import CHarfBuzz
import Synchronization

/// A font file loaded into HarfBuzz: its face, a font scaled to its units per em, and the
/// numbers measuring needs. Immutable once made, so any thread may shape with it
/// (HarfBuzz fonts are thread-safe once immutable).
public final class LoadedFace: @unchecked Sendable {
    /// The file's face.
    public let face: FontFace
    /// `hb_font_t *`, scale = unitsPerEm on both axes: a sub-font of HarfBuzz's OpenType
    /// font whose horizontal advances are ``unsignedAdvanceFuncs``'.
    let font: OpaquePointer
    /// `head.unitsPerEm`.
    public let unitsPerEm: Int32
    /// HarfBuzz's horizontal font extents, in font units (OS/2 typo metrics when the font
    /// sets USE_TYPO_METRICS, else hhea).
    public let ascender: Int32
    public let descender: Int32
    public let lineGap: Int32
    /// The bytes of the file (mapped by HarfBuzz when it can), counted for the cache bound.
    public let byteCount: Int

    /// Loads `face.path`.
    /// - Returns: nil when HarfBuzz reads no glyphs from the file (absent, not a font).
    convenience init?(_ face: FontFace) {
        guard let blob = hb_blob_create_from_file_or_fail(face.path) else { return nil }
        defer { hb_blob_destroy(blob) }
        self.init(face, blob: blob)
    }

    /// Loads a font file's `bytes` (a stored face; HarfBuzz keeps its own copy) as `face`,
    /// whose `path` then only names it (``FaceCache``'s key).
    /// - Returns: nil when HarfBuzz reads no glyphs from the bytes.
    public convenience init?(_ face: FontFace, bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.count <= Int(UInt32.max) else { return nil }
        let made = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                hb_blob_create_or_fail(pointer, UInt32(buffer.count), HB_MEMORY_MODE_DUPLICATE, nil, nil)
            }
        }
        guard let blob = made else { return nil }
        defer { hb_blob_destroy(blob) }
        self.init(face, blob: blob)
    }

    private init?(_ face: FontFace, blob: OpaquePointer) {
        let length = Int(hb_blob_get_length(blob))
        guard let hbFace = hb_face_create(blob, 0) else { return nil }
        defer { hb_face_destroy(hbFace) }
        guard hb_face_get_glyph_count(hbFace) > 0 else { return nil }
        let upem = Int32(hb_face_get_upem(hbFace))
        guard upem > 0, let parent = hb_font_create(hbFace) else { return nil }
        hb_font_set_scale(parent, upem, upem)
        hb_font_make_immutable(parent)
        // The sub-font holds its own reference to the parent.
        defer { hb_font_destroy(parent) }
        guard let font = hb_font_create_sub_font(parent) else { return nil }
        hb_font_set_funcs(font, Self.unsignedAdvanceFuncs, nil, nil)
        hb_font_make_immutable(font)
        var extents = hb_font_extents_t()
        _ = hb_font_get_h_extents(font, &extents)
        self.face = face
        self.font = font
        self.unitsPerEm = upem
        self.ascender = extents.ascender
        self.descender = extents.descender
        self.lineGap = extents.line_gap
        self.byteCount = length
    }

    deinit { hb_font_destroy(font) }

    /// Font functions whose horizontal advance is the parent font's read as the `UFWORD`
    /// (unsigned 16-bit) that `hmtx` stores (OpenType spec, hmtx: `advanceWidth`); every
    /// other function falls through to the parent. HarfBuzz 6's OpenType functions scale an
    /// advance as a signed 16-bit value, so 32,768–65,535 units came back as −32,768…−1.
    /// At scale = unitsPerEm that scaling is exact, so the low 16 bits of the parent's
    /// answer are the table's value. `StoredFaceTests.advancesOf32768UnitsOrMoreAreUnsigned`
    /// holds it.
    nonisolated(unsafe) static let unsignedAdvanceFuncs: OpaquePointer = {
        let funcs = hb_font_funcs_create()!
        hb_font_funcs_set_glyph_h_advance_func(funcs, { font, _, glyph, _ in
            let advance = hb_font_get_glyph_h_advance(hb_font_get_parent(font), glyph)
            return hb_position_t(UInt16(truncatingIfNeeded: advance))
        }, nil, nil)
        hb_font_funcs_make_immutable(funcs)
        return funcs
    }()

    /// The hmtx advance of `scalar`'s nominal glyph, font units (nil without a glyph).
    public func advance(of scalar: Unicode.Scalar) -> Int32? {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 else { return nil }
        return hb_font_get_glyph_h_advance(font, glyph)
    }

    /// Whether the face maps `scalar` to a glyph of its own (cmap), not `.notdef`.
    public func hasGlyph(_ scalar: Unicode.Scalar) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 && glyph != 0
    }
}

/// Faces loaded once and kept in a least-recently-used cache bounded by count: a face
/// evicted while a measurement still holds it lives until that measurement ends
/// (reference counting), so eviction never frees a font in use.
/// Memory: at most `capacity` faces (the built-in files are 0.3–0.8 MB each, mapped; a
/// stored face is a copy of its file, at most `--max-font-file-bytes`).
public final class FaceCache: Sendable {
    private struct State {
        var faces: [String: LoadedFace] = [:]
        /// Paths, least recently used first.
        var order: [String] = []
        var loads = 0
    }
    private let state = Mutex(State())
    /// The most faces kept.
    public let capacity: Int

    public init(capacity: Int = 48) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// The loaded face for `face`, loading it on first use. O(capacity) per call.
    /// - Returns: nil when the file cannot be read as a font.
    public func load(_ face: FontFace) -> LoadedFace? {
        load(face) { LoadedFace(face) }
    }

    /// The loaded face for a stored face, keyed by `face.path` (`stored:FAMILY/FACE@VERSION`:
    /// a version's bytes never change, so a replaced face is never answered from here),
    /// its file asked of `bytes` only when it is not held. O(capacity) per call.
    /// - Returns: nil when the bytes cannot be read as a font.
    /// - Throws: what `bytes` throws (nothing is kept).
    public func load<Failure: Error>(_ face: FontFace, bytes: () throws(Failure) -> [UInt8]) throws(Failure) -> LoadedFace? {
        if let hit = lookup(face.path) { return hit }
        let file = try bytes()
        return load(face) { LoadedFace(face, bytes: file) }
    }

    /// The held face keyed `path`, made most recently used, or nil.
    private func lookup(_ path: String) -> LoadedFace? {
        state.withLock { state -> LoadedFace? in
            guard let hit = state.faces[path] else { return nil }
            if let index = state.order.firstIndex(of: path) { state.order.remove(at: index) }
            state.order.append(path)
            return hit
        }
    }

    private func load(_ face: FontFace, making make: () -> LoadedFace?) -> LoadedFace? {
        if let hit = lookup(face.path) { return hit }
        guard let loaded = make() else { return nil }
        return state.withLock { state in
            if let raced = state.faces[face.path] { return raced }
            state.faces[face.path] = loaded
            state.order.append(face.path)
            state.loads += 1
            while state.order.count > capacity {
                let evicted = state.order.removeFirst()
                state.faces[evicted] = nil
            }
            return loaded
        }
    }

    /// How many faces are held now, and how many loads happened in all (a reload after an
    /// eviction counts again). FaceCacheTests reads these.
    public var counts: (held: Int, loads: Int) {
        state.withLock { ($0.faces.count, $0.loads) }
    }
}
