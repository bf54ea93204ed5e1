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

/// One request's hold on a solving turn (``SolveTurns``): taken when made, given up while
/// the request waits on the database (``whileWaiting(_:)``), given back by ``finish()``.
/// A request waiting on a store that stopped answering (up to `--db-timeout`) thus holds
/// no turn, and a scene that needs no store is solved meanwhile
/// (`PostgreSQLTimeoutTests.aWaitOnTheDatabaseHoldsNoSolvingTurn`).
final class HeldTurn: @unchecked Sendable {
    // @unchecked: used by one request on its own thread only (the store closures it is
    // captured by run synchronously inside that request's `SceneEngine.prepare`).
    private let turns: SolveTurns?
    private let isLarge: Bool
    /// The turn held now; `nil` while given up (or without turns).
    private(set) var turn: SolveTurns.Turn?

    /// Takes a turn of `turns` (waiting for one) for a request large or not; holds
    /// nothing when `turns` is `nil` (no `--max-concurrent-solves`).
    init(_ turns: SolveTurns?, isLarge: Bool) {
        self.turns = turns
        self.isLarge = isLarge
        turn = turns?.take(isLarge: isLarge)
    }

    /// Runs `body` (a wait on the store) with the turn given up, and takes one again
    /// after it, whatever it returns or throws. Nested calls give up nothing more.
    func whileWaiting<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        guard let turns, let held = turn else { return try body() }
        turns.give(held)
        turn = nil
        defer { turn = turns.take(isLarge: isLarge) }
        return try body()
    }

    /// Gives the turn back for good (when the request is answered).
    func finish() {
        if let turns, let held = turn { turns.give(held) }
        turn = nil
    }
}
