#if canImport(Glibc)
import Glibc
#endif
import CLayoutdSystem
import Foundation
import Synchronization

/// One `epoll` instance (Linux `epoll(7)`, level-triggered) and the thread that
/// waits on it: one of the server's I/O threads (`--io-threads`), each serving its own
/// connections from accept to close.
///
/// The thread that returns from `epoll_wait` reads the bytes itself: no hand-off
/// to another thread stands between readiness and the first read, and a request the
/// application answers without solving (``ServerContext/loopHandler``) is answered
/// on this thread too.
///
/// Every loop also watches the one listening socket, registered with `EPOLLEXCLUSIVE`
/// (Linux 4.5): a connection waiting to be accepted wakes one loop waiting in
/// `epoll_wait`, not all of them, and a loop busy serving is not the one woken
/// (docs/decisions.md, "Per-core event loops").
///
/// Registrations carry the connection's id, not its fd or address: an event
/// that was already returned for a connection closed meanwhile (its fd number
/// possibly reused) finds no connection under that id in ``connections`` and is
/// dropped. The loop never blocks on anything but `epoll_wait` (sockets are
/// non-blocking; handlers that may block or solve run on the worker pools).
///
/// A class because it owns a thread and the epoll fd; `@unchecked Sendable`
/// because `scratch` is touched only by the loop's own thread, `acceptable` is set
/// once before that thread starts, and the rest is immutable, atomic or behind `Mutex`.
final class EventLoop: @unchecked Sendable {
    /// The readiness a connection waits for: a bit set of `EPOLLIN`/`EPOLLOUT`.
    struct Interest: OptionSet, Sendable {
        let rawValue: UInt32
        static let readable = Interest(rawValue: Epoll.readable)
        static let writable = Interest(rawValue: Epoll.writable)
    }

    /// The id under which the wake-up pipe is registered (connection ids start at 1).
    private static let wakeID: UInt64 = 0
    /// The id under which the listening socket is registered.
    private static let listenerID = UInt64.max
    /// Events taken per `epoll_wait`.
    private static let batchSize = 64

    private let epollFD: Int32
    /// A pipe whose read end is in the epoll set: a byte written to it ends the loop.
    private let wakePipe: (read: Int32, write: Int32)
    private let isStopping = Atomic<Bool>(false)
    private let hasExited = Atomic<Bool>(false)
    /// The loop thread's receive buffer (64 KiB), reused for every read it does.
    let scratch: UnsafeMutableRawBufferPointer
    /// Called on the loop thread when the listening socket has a connection to accept.
    private var acceptable: @Sendable (EventLoop) -> Void = { _ in }
    /// This loop's position among the server's loops (0-based), for thread names and metrics.
    let index: Int
    /// The open connections this loop serves, by id (lingering ones included: they
    /// still hold an fd). A connection is added before its fd is registered and removed
    /// when its fd is closed.
    let connections = Mutex<[UInt64: Connection]>([:])
    /// Requests answered on this loop's thread by the application's loop handler
    /// (front cache hits, health checks, 404s), never touching a worker.
    let answeredCount = Atomic<Int>(0)
    /// The loop thread's `pthread_self()`, as a number (0 until it runs): for tests that
    /// check which thread made an answer.
    let threadID = Atomic<UInt>(0)
    /// Connections accepted by this loop's thread (each served by the loop
    /// ``ServerContext/nextLoop()`` chose, possibly another one).
    let acceptedCount = Atomic<Int>(0)

    /// Creates the epoll set; ``start(name:acceptable:)`` starts the thread.
    init(index: Int) {
        self.index = index
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
    ///   - acceptable: Accepts what the listening socket holds (after
    ///     ``watchListener(_:)``); called on the loop thread with this loop.
    func start(name: String, acceptable: @escaping @Sendable (EventLoop) -> Void) {
        self.acceptable = acceptable
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

    /// Adds the listening socket `fd` to this loop's set with `EPOLLEXCLUSIVE`: of the
    /// loops waiting in `epoll_wait` when a connection arrives, one is woken.
    func watchListener(_ fd: Int32) {
        Epoll.control(epollFD, Epoll.add, fd, events: Epoll.readable | Epoll.exclusive, id: Self.listenerID)
    }

    /// Removes the listening socket `fd` from this loop's set (an event already
    /// returned for it may still be handled: accepting checks the server's state).
    func unwatchListener(_ fd: Int32) {
        Epoll.control(epollFD, Epoll.delete, fd, events: 0, id: Self.listenerID)
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
        threadID.store(UInt(pthread_self()), ordering: .releasing)
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
                if id == Self.listenerID {
                    acceptable(self)
                    continue
                }
                guard let connection = connections.withLock({ $0[id] }) else { continue }
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

/// The Linux `epoll` calls and constants (`<sys/epoll.h>`, through the
/// `CLayoutdSystem` shim: the Glibc module does not export that header, and the shim
/// builds and reads `struct epoll_event`, which is packed on x86-64).
enum Epoll {
    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let error = EPOLLERR.rawValue
    static let hangUp = EPOLLHUP.rawValue
    /// `EPOLLEXCLUSIVE` (Linux 4.5): wake one of the epoll sets watching the fd, not all.
    static let exclusive = EPOLLEXCLUSIVE.rawValue
    static let add = EPOLL_CTL_ADD
    static let delete = EPOLL_CTL_DEL
    static let modify = EPOLL_CTL_MOD
    /// Bytes per event in a buffer for ``wait(_:_:_:_:)`` (`sizeof(struct epoll_event)`).
    static let eventSize = Int(layoutd_epoll_event_size())

    /// `epoll_create1(EPOLL_CLOEXEC)`: a new epoll fd, or -1 with `errno`.
    static func create() -> Int32 { layoutd_epoll_create() }

    /// `epoll_ctl` with an event of `events` carrying `id` as its data; 0, or -1 with `errno`.
    @discardableResult
    static func control(_ epollFD: Int32, _ operation: Int32, _ fd: Int32, events: UInt32, id: UInt64) -> Int32 {
        layoutd_epoll_ctl(epollFD, operation, fd, events, id)
    }

    /// `epoll_wait` into `events` (room for `capacity` events of ``eventSize`` bytes;
    /// `timeout` in ms, -1: none). Returns the number of events, or -1 with `errno`.
    static func wait(_ epollFD: Int32, _ events: UnsafeMutableRawPointer, _ capacity: Int32, _ timeout: Int32) -> Int32 {
        layoutd_epoll_wait(epollFD, events, capacity, timeout)
    }

    /// The flags and data of the event at `index` of a buffer filled by ``wait(_:_:_:_:)``.
    static func event(at index: Int, in events: UnsafeMutableRawPointer) -> (flags: UInt32, id: UInt64) {
        (layoutd_epoll_event_flags(events, Int32(index)), layoutd_epoll_event_id(events, Int32(index)))
    }
}
