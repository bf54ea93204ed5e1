import Foundation
import HTTP1

/// Turns to solve: at most ``count`` requests hold one at once, plus one small request
/// while every one of those turns is held by a large one, the rule the HTTP server's
/// workers follow for threads (`HTTP1.RunningJobs`, as `HTTP1.WorkerPool`). A request is large when its body is
/// longer than ``ServiceConfiguration/largeBodyBytes``. So a burst of large scenes, each
/// of which may take seconds of one core, never makes a small scene wait for more than the
/// small ones ahead of it. Waiters are woken in no particular order. Tested by
/// `LayoutServiceTests.SolveTurnsTests`.
final class SolveTurns: @unchecked Sendable {
    // @unchecked: `running` is only touched while `condition` is locked.
    /// A turn held: one of the ``count`` (large or small), or the spare (small only).
    enum Turn: Equatable {
        case turn(isLarge: Bool)
        case spare

        var isLarge: Bool { self == .turn(isLarge: true) }
    }

    /// The turns large and small requests share (at least 1).
    let count: Int
    private let condition = NSCondition()
    /// The turns held, by the rule `HTTP1.RunningJobs` states.
    private var running: RunningJobs

    init(count: Int) {
        self.count = max(1, count)
        running = RunningJobs(limit: self.count)
    }

    /// Waits for a turn and takes it: one of ``count`` when one is free, else, for a small
    /// request while all are held by large ones, the spare.
    func take(isLarge: Bool) -> Turn {
        condition.lock()
        defer { condition.unlock() }
        while !running.mayStart(large: isLarge) { condition.wait() }
        return running.started(large: isLarge) ? .spare : .turn(isLarge: isLarge)
    }

    /// Gives `turn` back.
    func give(_ turn: Turn) {
        condition.lock()
        running.finished(large: turn.isLarge)
        // A freed turn may let a large and a small waiter on (a large one taking the last
        // turn opens the spare): wake them all to look.
        condition.broadcast()
        condition.unlock()
    }

    /// Turns held now (the spare counted): for tests.
    var heldCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return running.running
    }
}
