import CHarfBuzz
import Glibc
import Testing
@testable import TextLayout

/// The face cache's memory bound (docs/operations.md, "Fonts"): however many distinct faces
/// are loaded, at most `capacity` stay loaded, and the resident memory of their files is at
/// most `capacity` × the file's size.
///
/// Each face is a distinct path (a symbolic link) to one private copy of DejaVu Sans, the
/// largest built-in file, and every byte of its blob is read after loading, so each held
/// face is wholly resident as a stored font's bytes would be. The resident bytes of the
/// copy's mappings are summed from /proc/self/smaps (other tests' faces map other files,
/// so this figure is this test's alone); the process's resident memory (/proc/self/statm)
/// is checked against the documented bound with room for other suites running at once.
@Suite("Face cache memory", .serialized)
struct FaceCacheMemoryTests {
    static let source = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let capacity = 48
    /// Distinct faces loaded: four times what the cache holds.
    static let loads = 4 * capacity

    /// The process's resident bytes (/proc/self/statm, second field, in pages).
    static func residentBytes() throws -> Int {
        let file = try #require(fopen("/proc/self/statm", "r"))
        defer { fclose(file) }
        var size = 0, resident = 0
        try #require(withUnsafeMutablePointer(to: &size) { s in
            withUnsafeMutablePointer(to: &resident) { r in
                withVaList([s, r]) { vfscanf(file, "%ld %ld", $0) }
            }
        } == 2)
        return resident * sysconf(Int32(_SC_PAGESIZE))
    }

    /// (mappings, resident bytes) of the file at `path` in /proc/self/smaps.
    static func mapped(_ path: String) throws -> (mappings: Int, resident: Int) {
        let file = try #require(fopen("/proc/self/smaps", "r"))
        defer { fclose(file) }
        var mappings = 0, resident = 0
        var inside = false
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let first = text.first, first.isHexDigit, text.contains("-"), !text.hasPrefix("Rss") {
                // A mapping's header: "start-end perms offset dev inode   path".
                inside = text.hasSuffix(path + "\n")
                if inside { mappings += 1 }
            } else if inside, text.hasPrefix("Rss:") {
                let kilobytes = text.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } ?? 0
                resident += kilobytes * 1024
            }
        }
        return (mappings, resident)
    }

    /// Copies `source` to `target` with stdio.
    static func copy(_ source: String, to target: String) throws -> Int {
        let input = try #require(fopen(source, "rb"))
        defer { fclose(input) }
        let output = try #require(fopen(target, "wb"))
        defer { fclose(output) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        var total = 0
        while true {
            let count = fread(&chunk, 1, chunk.count, input)
            if count == 0 { break }
            try #require(fwrite(chunk, 1, count, output) == count)
            total += count
        }
        return total
    }

    /// Reads every byte of the face's blob (so all of its pages are resident) and returns their sum.
    static func touchAll(_ face: LoadedFace) -> Int {
        let blob = hb_face_reference_blob(hb_font_get_face(face.font))
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length) else { return 0 }
        var sum = 0
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        for index in stride(from: 0, to: bytes.count, by: 512) { sum &+= Int(bytes[index]) }
        return sum
    }

    @Test("Loading four times the capacity in distinct faces keeps capacity faces, and their files' resident bytes within capacity × file size")
    func residentMemoryStaysWithinTheBound() throws {
        let folder = "/tmp/layoutd-face-cache-\(getpid())"
        mkdir(folder, 0o700)
        let copy = folder + "/DejaVuSans-copy.ttf"
        let fileSize = try Self.copy(Self.source, to: copy)
        try #require(fileSize > 500_000, "DejaVu Sans is \(fileSize) bytes")
        var links: [String] = []
        for index in 0..<Self.loads {
            let link = folder + "/face-\(index).ttf"
            unlink(link)
            try #require(symlink(copy, link) == 0)
            links.append(link)
        }
        defer {
            for link in links { unlink(link) }
            unlink(copy)
            rmdir(folder)
        }

        let advanceOfW = Int32(try FontFile(Self.source).advance("W"))  // from the file's own hmtx
        let cache = FaceCache(capacity: Self.capacity)
        let before = try Self.residentBytes()
        var peakMapped = 0, peakMappings = 0, peakResident = 0
        for (index, link) in links.enumerated() {
            let face = try #require(cache.load(FontFace(family: "Copy \(index)", weight: 400, italic: false, path: link)))
            #expect(Self.touchAll(face) > 0)
            #expect(face.advance(of: "W") == advanceOfW)
            if index % 16 == 15 {
                let mapped = try Self.mapped(copy)
                peakMapped = max(peakMapped, mapped.resident)
                peakMappings = max(peakMappings, mapped.mappings)
                peakResident = max(peakResident, try Self.residentBytes())
            }
        }
        let counts = cache.counts
        #expect(counts.held == Self.capacity)
        #expect(counts.loads == Self.loads)
        // Every held face is wholly resident, and nothing more of the file is.
        let mapped = try Self.mapped(copy)
        #expect(mapped.mappings == Self.capacity)
        #expect(peakMappings <= Self.capacity)
        let pages = (fileSize + 4095) / 4096 * 4096
        #expect(mapped.resident == Self.capacity * pages)
        #expect(peakMapped <= Self.capacity * pages)
        // The documented bound of the process's growth: capacity × (file + 256 KiB of
        // HarfBuzz's tables and caches), with 32 MiB of room for suites running at the same time.
        let growth = peakResident - before
        let bound = Self.capacity * (fileSize + (256 << 10)) + (32 << 20)
        print("FaceCacheMemoryTests: \(Self.loads) faces of \(fileSize) bytes loaded, \(counts.held) held; their mappings resident \(mapped.resident / 1024) KiB (peak \(peakMapped / 1024) KiB); process resident growth peak \(growth / 1024) KiB, bound \(bound / 1024) KiB")
        #expect(growth <= bound)
    }
}
