import LayoutCompiler
import Synchronization
import Testing

/// `AnswerBytes` and the bounded `JSONWriter`: an answer of exactly the limit passes,
/// one byte more stops the writer, and what it held is freed.
struct AnswerBytesTests {
    /// A pool with a fixed room, counting what is held.
    final class Pool: AnswerBytePool {
        let room: Int
        let held = Atomic<Int>(0)
        init(room: Int) { self.room = room }
        func reserve(_ bytes: Int) -> Bool {
            guard held.load(ordering: .relaxed) + bytes <= room else { return false }
            held.add(bytes, ordering: .relaxed)
            return true
        }
        func release(_ bytes: Int) { held.subtract(bytes, ordering: .relaxed) }
    }

    /// A document of `strings` strings of `length` bytes each.
    static func write(_ writer: inout JSONWriter, strings: Int, length: Int) {
        writer.beginArray()
        for _ in 0..<strings { writer.string(String(repeating: "a", count: length)) }
        writer.endArray()
    }

    @Test func unboundedWriterWritesEverything() {
        var writer = JSONWriter()
        Self.write(&writer, strings: 3, length: 2)
        let writerFinished = writer.finish()
        #expect(writerFinished)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"["aa","aa","aa"]"#)
        #expect(writer.stop == nil)
    }

    /// `["aa","aa","aa"]` is 16 bytes: a limit of 16 passes it, 15 stops it.
    @Test func exactlyTheLimitPassesOneByteMoreStops() {
        var exact = JSONWriter(limit: 16)
        Self.write(&exact, strings: 3, length: 2)
        let exactFinished = exact.finish()
        #expect(exactFinished)
        #expect(exact.bytes.count == 16)
        #expect(exact.stop == nil)

        var over = JSONWriter(limit: 15)
        Self.write(&over, strings: 3, length: 2)
        let overFinished = over.finish()
        #expect(!overFinished)
        #expect(over.stop == .tooLarge(limit: 15))
        #expect(over.bytes.isEmpty)
    }

    /// The cut-off is exact for every kind of value, whatever its last byte is.
    @Test("exact cut-off", arguments: [
        #"{"a":[1,2.5,-3,true,false,null,"x\"y\n"]}"#,
        #"{"name":"\u0001\u001f tab\t","n":-0.000001}"#,
    ])
    func exactCutOff(_ text: String) throws {
        let value = try JSONParser().parse(Array(text.utf8))
        var free = JSONWriter()
        free.value(value)
        let length = free.bytes.count
        var exact = JSONWriter(limit: length)
        exact.value(value)
        let exactFinished = exact.finish()
        #expect(exactFinished)
        #expect(exact.bytes == free.bytes)
        var short = JSONWriter(limit: length - 1)
        short.value(value)
        let shortFinished = short.finish()
        #expect(!shortFinished)
        #expect(short.stop == .tooLarge(limit: length - 1))
    }

    /// A string that cannot fit is refused before it is copied: the writer never holds
    /// more than the limit plus one number's worth of bytes.
    @Test func aStringPastTheLimitIsNotCopied() {
        var writer = JSONWriter(limit: 1_000)
        writer.beginArray()
        writer.string(String(repeating: "b", count: 500))
        #expect(writer.bytes.count == 503)
        writer.string(String(repeating: "c", count: 10_000_000))
        #expect(writer.stop == .tooLarge(limit: 1_000))
        #expect(writer.bytes.isEmpty)
        writer.endArray()
        writer.number(1)
        #expect(writer.bytes.isEmpty)
        let writerFinished = writer.finish()
        #expect(!writerFinished)
    }

    /// The capacity never grows past the limit plus the slack: a 3 MiB limit with a
    /// 10 MiB document stops at 3 MiB of memory, not at a doubled 4 or 8 MiB array.
    @Test func capacityStaysWithinTheLimit() {
        var buffer = AnswerBytes(limit: 3 << 20)
        var largest = 0
        let chunk = [UInt8](repeating: 0x41, count: 1_000)
        while buffer.admits(chunk.count) {
            buffer.append(contentsOf: chunk)
            largest = max(largest, buffer.bytes.capacity)
        }
        #expect(buffer.stop == .tooLarge(limit: 3 << 20))
        #expect(largest <= (3 << 20) + AnswerBytes.slack + 4_096)   // malloc rounds up to a page
        #expect(largest >= 3 << 19)
    }

    /// Beyond its first MiB an answer reserves from the pool as it grows, and gives it
    /// all back when dropped; a full pool stops it (`overCommitted`).
    @Test func answersDrawOnThePoolBeyondTheFirstStep() {
        let pool = Pool(room: 8 << 20)
        do {
            var writer = JSONWriter(limit: 64 << 20, pool: pool)
            Self.write(&writer, strings: 3_000, length: 1_000)   // about 3 MB
            let writerFinished = writer.finish()
            #expect(writerFinished)
            #expect(writer.bytes.count == 3_000 * 1_002 + 3_000 - 1 + 2)
            let held = pool.held.load(ordering: .relaxed)
            #expect(held >= writer.bytes.count - AnswerBytes.step)
            #expect(held <= writer.bytes.count)
            #expect(writer.reservation?.bytes == held)
        }
        #expect(pool.held.load(ordering: .relaxed) == 0)

        var small = JSONWriter(limit: 64 << 20, pool: Pool(room: 0))
        Self.write(&small, strings: 100, length: 1_000)   // within the free first step
        let smallFinished = small.finish()
        #expect(smallFinished)
        #expect(small.reservation == nil)

        let tight = Pool(room: 1 << 20)
        var large = JSONWriter(limit: 64 << 20, pool: tight)
        Self.write(&large, strings: 5_000, length: 1_000)
        let largeFinished = large.finish()
        #expect(!largeFinished)
        #expect(large.stop == .overCommitted)
        #expect(large.bytes.isEmpty)
        #expect(tight.held.load(ordering: .relaxed) == 0)
    }
}
