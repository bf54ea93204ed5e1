#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// One `epoll` instance (Linux `epoll(7)`, level-triggered) and the thread that
/// waits on it, delivering the readiness of every connection's socket.
///
/// It replaces one Dispatch read source and one write source per connection:
/// with Dispatch, a readable socket woke Dispatch's manager thread (its
/// `epoll_wait`), which then woke a Dispatch worker thread to run the source's
/// event handler, two thread hand-offs before the first byte was read. Here the
/// thread that returns from `epoll_wait` reads the bytes itself. Measured (2
/// cores, 64 connections, uncached `POST /solve`, per-thread CPU time): the
/// Dispatch threads took about 43 µs per request (13% of the server's CPU), this
/// loop takes about 16 µs.
///
/// Registrations carry the connection's id, not its fd or address: an event
/// that was already returned for a connection closed meanwhile (its fd number
/// possibly reused) finds no connection under that id and is dropped. The loop
/// never blocks on anything but `epoll_wait` (sockets are non-blocking and
/// handlers run on the worker pools).
///
/// A class because it owns a thread and the epoll fd; `@unchecked Sendable`
/// because `scratch` is touched only by the loop's own thread, `lookup` is set
/// once before that thread starts, and the rest is immutable or atomic.
final class EventLoop: @unchecked Sendable {
    /// The readiness a connection waits for: a bit set of `EPOLLIN`/`EPOLLOUT`.
    struct Interest: OptionSet, Sendable {
        let rawValue: UInt32
        static let readable = Interest(rawValue: Epoll.readable)
        static let writable = Interest(rawValue: Epoll.writable)
    }

    /// The id under which the wake-up pipe is registered (connection ids start at 1).
    private static let wakeID: UInt64 = 0
    /// Events taken per `epoll_wait`.
    private static let batchSize = 64

    private let epollFD: Int32
    /// A pipe whose read end is in the epoll set: a byte written to it ends the loop.
    private let wakePipe: (read: Int32, write: Int32)
    private let isStopping = Atomic<Bool>(false)
    private let hasExited = Atomic<Bool>(false)
    /// The loop thread's receive buffer (64 KiB), reused for every read it does.
    let scratch: UnsafeMutableRawBufferPointer
    /// Finds the connection registered under an id, or `nil` once it is gone.
    private var lookup: @Sendable (UInt64) -> Connection? = { _ in nil }

    /// Creates the epoll set; ``start(name:lookup:)`` starts the thread.
    init() {
        epollFD = Epoll.create()
        precondition(epollFD >= 0, "epoll_create1 failed: errno \(errno)")
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "pipe failed: errno \(errno)")
        wakePipe = (fds[0], fds[1])
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        Epoll.control(epollFD, Epoll.add, wakePipe.read, events: Epoll.readable, id: Self.wakeID)
    }

    /// Starts the loop thread. Call once.
    ///
    /// - Parameters:
    ///   - name: The thread's name.
    ///   - lookup: Maps a registration id to its connection; called on the loop thread.
    func start(name: String, lookup: @escaping @Sendable (UInt64) -> Connection?) {
        self.lookup = lookup
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Changes what `fd` (registered as `id`) waits for, from `old` to `new`:
    /// adds it to the set, modifies it, or removes it when `new` is empty (an fd
    /// with nothing to wait for stays out of the set, so a hang-up cannot make a
    /// level-triggered loop spin on it). Safe from any thread; does nothing
    /// once ``stop()`` was called (the epoll fd is closed, its number may be
    /// reused).
    func update(fd: Int32, id: UInt64, from old: Interest, to new: Interest) {
        guard old != new, !isStopping.load(ordering: .relaxed) else { return }
        let operation = old.isEmpty ? Epoll.add : new.isEmpty ? Epoll.delete : Epoll.modify
        Epoll.control(epollFD, operation, fd, events: new.rawValue, id: id)
    }

    /// Ends the loop and waits (at most a second) for its thread to leave;
    /// the epoll fd and the pipe are closed by the thread. Call once.
    func stop() {
        isStopping.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
        let deadline = monotonicNow() + 1
        while !hasExited.load(ordering: .acquiring) && monotonicNow() < deadline { usleep(1_000) }
    }

    private func run() {
        let events = UnsafeMutableRawPointer.allocate(byteCount: Self.batchSize * Epoll.eventSize, alignment: 16)
        defer {
            events.deallocate()
            close(epollFD)
            close(wakePipe.read)
            close(wakePipe.write)
            scratch.deallocate()
            hasExited.store(true, ordering: .releasing)
        }
        while !isStopping.load(ordering: .relaxed) {
            let count = Epoll.wait(epollFD, events, Int32(Self.batchSize), -1)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            for index in 0..<Int(count) {
                let (flags, id) = Epoll.event(at: index, in: events)
                if id == Self.wakeID { continue }
                guard let connection = lookup(id) else { continue }
                // A hang-up or error is reported as readable too: the read sees
                // the EOF or the error and acts on it.
                if flags & (Epoll.readable | Epoll.hangUp | Epoll.error) != 0 {
                    connection.readable(scratch: scratch)
                }
                if flags & (Epoll.writable | Epoll.hangUp | Epoll.error) != 0 {
                    connection.writable()
                }
            }
        }
    }
}

/// The Linux `epoll` calls (`<sys/epoll.h>`, which the Glibc module does not
/// export, so the three functions are looked up by name like `malloc_trim` in
/// `main.swift`) and the constants and event layout of that header.
enum Epoll {
    static let readable: UInt32 = 0x001   // EPOLLIN
    static let writable: UInt32 = 0x004   // EPOLLOUT
    static let error: UInt32 = 0x008      // EPOLLERR
    static let hangUp: UInt32 = 0x010     // EPOLLHUP
    static let add: Int32 = 1             // EPOLL_CTL_ADD
    static let delete: Int32 = 2          // EPOLL_CTL_DEL
    static let modify: Int32 = 3          // EPOLL_CTL_MOD

    #if arch(x86_64)
    /// `struct epoll_event` is packed on x86-64: `events` at 0, `data` at 4.
    static let eventSize = 12
    static let dataOffset = 4
    #else
    static let eventSize = 16
    static let dataOffset = 8
    #endif

    private typealias Create1 = @convention(c) (Int32) -> Int32
    private typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
            fatalError("\(name) is missing from the C library")
        }
        return unsafeBitCast(address, to: type)
    }

    private static let create1 = symbol("epoll_create1", as: Create1.self)
    private static let ctl = symbol("epoll_ctl", as: Control.self)
    private static let wait_ = symbol("epoll_wait", as: Wait.self)

    /// `epoll_create1(EPOLL_CLOEXEC)`: a new epoll fd, or -1 with `errno`.
    static func create() -> Int32 { create1(Int32(O_CLOEXEC)) }

    /// `epoll_ctl` with an event of `events` carrying `id` as its data.
    @discardableResult
    static func control(_ epollFD: Int32, _ operation: Int32, _ fd: Int32, events: UInt32, id: UInt64) -> Int32 {
        withUnsafeTemporaryAllocation(byteCount: 16, alignment: 8) { event in
            event.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            event.storeBytes(of: id, toByteOffset: dataOffset, as: UInt64.self)
            return ctl(epollFD, operation, fd, event.baseAddress)
        }
    }

    /// `epoll_wait` into `events` (room for `capacity` events; `timeout` in ms, -1: none).
    static func wait(_ epollFD: Int32, _ events: UnsafeMutableRawPointer, _ capacity: Int32, _ timeout: Int32) -> Int32 {
        wait_(epollFD, events, capacity, timeout)
    }

    /// The flags and data of the event at `index` of a buffer filled by ``wait(_:_:_:_:)``.
    static func event(at index: Int, in events: UnsafeMutableRawPointer) -> (flags: UInt32, id: UInt64) {
        let base = events + index * eventSize
        return (base.loadUnaligned(as: UInt32.self), base.loadUnaligned(fromByteOffset: dataOffset, as: UInt64.self))
    }
}
