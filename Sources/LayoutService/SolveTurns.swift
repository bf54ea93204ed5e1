import Foundation

/// Turns to solve: at most ``count`` requests hold one at once, plus one small request
/// while every one of those turns is held by a large one, the rule the HTTP server's
/// workers follow for threads (`HTTP1.WorkerPool`). A request is large when its body is
/// longer than ``ServiceConfiguration/largeBodyBytes``. So a burst of large scenes, each
/// of which may take seconds of one core, never makes a small scene wait for more than the
/// small ones ahead of it. Waiters are woken in no particular order. Tested by
/// `LayoutServiceTests.SolveTurnsTests`.
final class SolveTurns: @unchecked Sendable {
    // @unchecked: `held`, `heldLarge` and `spareHeld` are only touched while `condition`
    // is locked.
    /// A turn held: one of the ``count`` (large or small), or the spare (small only).
    enum Turn: Equatable {
        case turn(isLarge: Bool)
        case spare

        var isLarge: Bool { self == .turn(isLarge: true) }
    }

    /// The turns large and small requests share (at least 1).
    let count: Int
    private let condition = NSCondition()
    private var held = 0
    private var heldLarge = 0
    private var spareHeld = false

    init(count: Int) { self.count = max(1, count) }

    /// Waits for a turn and takes it: one of ``count`` when one is free, else, for a small
    /// request while all are held by large ones, the spare.
    func take(isLarge: Bool) -> Turn {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if held < count {
                held += 1
                if isLarge { heldLarge += 1 }
                return .turn(isLarge: isLarge)
            }
            if !isLarge && heldLarge == count && !spareHeld {
                spareHeld = true
                return .spare
            }
            condition.wait()
        }
    }

    /// Gives `turn` back.
    func give(_ turn: Turn) {
        condition.lock()
        switch turn {
        case .spare: spareHeld = false
        case .turn(let isLarge):
            held -= 1
            if isLarge { heldLarge -= 1 }
        }
        // A freed turn may let a large and a small waiter on (a large one taking the last
        // turn opens the spare): wake them all to look.
        condition.broadcast()
        condition.unlock()
    }

    /// Turns held now (the spare counted): for tests.
    var heldCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return held + (spareHeld ? 1 : 0)
    }
}
