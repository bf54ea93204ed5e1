import Synchronization

/// A pool of bytes shared by every answer being built and every answer waiting to be
/// read (the HTTP server's pending response bytes, `--max-pending-response-bytes`).
///
/// ``AnswerBytes`` draws on it as an answer grows, so that concurrent large answers
/// cannot together hold more than the pool allows.
public protocol AnswerBytePool: AnyObject, Sendable {
    /// Adds `bytes` to the pool's count if that keeps it within the pool's limit.
    /// - Returns: whether the bytes were reserved.
    func reserve(_ bytes: Int) -> Bool
    /// Takes back `bytes` reserved before.
    func release(_ bytes: Int)
}

/// Bytes of an ``AnswerBytePool`` held for one answer, released when the last reference
/// goes away (the answer's body was sent or dropped), so that no path can leak them.
public final class AnswerReservation: Sendable {
    let pool: any AnswerBytePool
    private let held = Atomic<Int>(0)

    init(pool: any AnswerBytePool) {
        self.pool = pool
    }

    /// Bytes held now.
    public var bytes: Int { held.load(ordering: .relaxed) }

    /// Reserves `bytes` more from the pool; false (and nothing held more) when it is full.
    func reserve(_ bytes: Int) -> Bool {
        guard pool.reserve(bytes) else { return false }
        held.add(bytes, ordering: .relaxed)
        return true
    }

    /// Gives everything back early (the answer was abandoned).
    func releaseAll() {
        let bytes = held.exchange(0, ordering: .relaxed)
        if bytes > 0 { pool.release(bytes) }
    }

    deinit {
        releaseAll()
    }
}

/// Why an ``AnswerBytes`` stopped taking bytes.
public enum AnswerStop: Sendable, Equatable {
    /// The answer would be longer than ``AnswerBytes/limit`` bytes.
    case tooLarge(limit: Int)
    /// The shared ``AnswerBytePool`` had no room left for it.
    case overCommitted
    /// The writer's own work budget ran out (the SVG renderer's, in its unit).
    case workExceeded(limit: Int)
}

/// The byte buffer of one answer, bounded: it holds at most ``limit`` bytes, and stops
/// (frees what it held and takes nothing more) as soon as an answer would pass the limit,
/// so an oversized answer is never built in full.
///
/// Writers (``JSONWriter``, the SVG wireframe's) call ``admits(_:)`` before each value
/// they write, then append without checks. The fast path is one comparison with a
/// checkpoint; the slow path runs once per ``step`` bytes (1 MiB) and then:
/// - stops with ``AnswerStop/tooLarge(limit:)`` once the count has passed ``limit`` (a
///   value may overshoot it by at most ``slack`` bytes before that is seen, and a string
///   that would pass it is refused before it is copied);
/// - reserves the next step from the ``AnswerBytePool``, if any (the first step of every
///   answer is free, so small answers never touch the shared count), or stops with
///   ``AnswerStop/overCommitted``;
/// - grows the capacity itself, to at most ``limit`` + ``slack``, so that the array never
///   doubles past the bound: an answer's memory stays within its limit plus one step.
///
/// Exact: the answer is accepted when its final length (``finish()``) is at most
/// ``limit``; one byte more is ``AnswerStop/tooLarge(limit:)`` (`AnswerBytesTests`).
public struct AnswerBytes: Sendable {
    /// Bytes that may be appended after one ``admits(_:)`` without another check: the
    /// longest single value a writer appends unchecked (a number is at most 25 bytes).
    public static let slack = 64
    /// Bytes between two slow-path checks, and the free part of every answer.
    public static let step = 1 << 20

    /// The bytes written so far (empty once stopped).
    public private(set) var bytes: [UInt8] = []
    /// The most bytes the answer may have; `Int.max` for none.
    public let limit: Int
    /// Why the buffer stopped, or `nil` while it takes bytes.
    public private(set) var stop: AnswerStop?
    /// Bytes held from the pool for this answer (kept alive with the answer's body).
    public private(set) var reservation: AnswerReservation?
    private let pool: (any AnswerBytePool)?
    /// The length up to which appends need no check (never above ``limit``; -1 once stopped).
    private var checkpoint: Int

    /// A buffer of at most `limit` bytes drawing on `pool` beyond its first ``step``;
    /// `capacity` is a hint (clamped to the limit and to one step).
    public init(limit: Int = .max, pool: (any AnswerBytePool)? = nil, reservingCapacity capacity: Int = 256) {
        self.limit = max(0, limit)
        self.pool = pool
        self.checkpoint = min(self.limit, Self.step)
        bytes.reserveCapacity(min(capacity, Self.step + Self.slack, Self.saturatingSum(self.limit, Self.slack)))
    }

    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        a > Int.max - b ? Int.max : a + b
    }

    /// Whether `extra` more bytes may be written now (then up to ``slack`` bytes beyond
    /// them may be appended unchecked); false once stopped, or when they would pass the
    /// limit or the pool (the buffer then stops).
    @inline(__always)
    public mutating func admits(_ extra: Int = 0) -> Bool {
        bytes.count + extra <= checkpoint || admitSlowly(extra)
    }

    private mutating func admitSlowly(_ extra: Int) -> Bool {
        guard stop == nil else { return false }
        let needed = bytes.count + extra
        if needed > limit {
            halt(.tooLarge(limit: limit))
            return false
        }
        let next = min(limit, Self.saturatingSum(needed, Self.step))
        if let pool, next > Self.step {
            let held = reservation?.bytes ?? 0
            let wanted = next - Self.step - held
            if wanted > 0 {
                if reservation == nil { reservation = AnswerReservation(pool: pool) }
                guard reservation!.reserve(wanted) else {
                    halt(.overCommitted)
                    return false
                }
            }
        }
        checkpoint = next
        let capacityNeeded = Self.saturatingSum(next, Self.slack)
        if bytes.capacity < capacityNeeded {
            let doubled = bytes.capacity > Int.max / 2 ? Int.max : 2 * bytes.capacity
            bytes.reserveCapacity(min(Self.saturatingSum(limit, Self.slack), max(doubled, capacityNeeded)))
        }
        return true
    }

    /// Stops for `reason`: frees the bytes and the reservation; nothing is taken after.
    public mutating func halt(_ reason: AnswerStop) {
        guard stop == nil else { return }
        stop = reason
        bytes = []
        checkpoint = -1
        reservation?.releaseAll()
        reservation = nil
    }

    /// Appends one byte (after ``admits(_:)``).
    @inline(__always)
    public mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes (after ``admits(_:)`` for their count, or within ``slack``).
    @inline(__always)
    public mutating func append(contentsOf other: some Sequence<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Appends a buffer's bytes (after ``admits(_:)`` for their count).
    @inline(__always)
    public mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }

    /// Checks the final length: false (stopped with ``AnswerStop/tooLarge(limit:)``) if
    /// the last values took it past ``limit``.
    @discardableResult
    public mutating func finish() -> Bool {
        if stop != nil { return false }
        if bytes.count > limit {
            halt(.tooLarge(limit: limit))
            return false
        }
        return true
    }
}
