import Dispatch
import Foundation
import Synchronization
import Testing
@testable import LayoutService

/// ``SolveTurns``: `count` turns, plus a spare for one small request while large ones
/// hold them all.
struct SolveTurnsTests {
    /// Takes a turn on another thread; `turn` is set once it is taken.
    final class Waiter: Sendable {
        let turn = Mutex<SolveTurns.Turn?>(nil)
        private let taken = DispatchSemaphore(value: 0)

        init(_ turns: SolveTurns, isLarge: Bool) {
            Thread { [self] in
                let held = turns.take(isLarge: isLarge)
                turn.withLock { $0 = held }
                taken.signal()
            }.start()
        }

        /// The turn taken within 10 s, or nil.
        func awaitTurn() -> SolveTurns.Turn? {
            _ = taken.wait(timeout: .now() + 10)
            return turn.withLock { $0 }
        }

        /// Whether a turn was taken within a short while (a waiter that must still wait).
        func tookWithin(milliseconds: Int) -> Bool {
            taken.wait(timeout: .now() + .milliseconds(milliseconds)) == .success
        }
    }

    @Test func aSmallRequestTakesTheSpareWhenLargeOnesHoldEveryTurn() {
        let turns = SolveTurns(count: 2)
        #expect(turns.take(isLarge: true) == .turn(isLarge: true))
        #expect(turns.take(isLarge: true) == .turn(isLarge: true))
        #expect(turns.take(isLarge: false) == .spare)
        #expect(turns.heldCount == 3)
        // The spare is one: a second small request waits until it is given back.
        let small = Waiter(turns, isLarge: false)
        #expect(!small.tookWithin(milliseconds: 100))
        turns.give(.spare)
        #expect(small.awaitTurn() == .spare)
    }

    @Test func aLargeRequestNeverTakesTheSpare() {
        let turns = SolveTurns(count: 1)
        #expect(turns.take(isLarge: true) == .turn(isLarge: true))
        let large = Waiter(turns, isLarge: true)
        #expect(!large.tookWithin(milliseconds: 100))
        #expect(turns.take(isLarge: false) == .spare)
        turns.give(.spare)
        #expect(!large.tookWithin(milliseconds: 100))
        turns.give(.turn(isLarge: true))
        #expect(large.awaitTurn() == .turn(isLarge: true))
        #expect(turns.heldCount == 1)
    }

    @Test func theSpareIsClosedWhileASmallRequestHoldsATurn() {
        let turns = SolveTurns(count: 2)
        #expect(turns.take(isLarge: false) == .turn(isLarge: false))
        #expect(turns.take(isLarge: true) == .turn(isLarge: true))
        let small = Waiter(turns, isLarge: false)
        #expect(!small.tookWithin(milliseconds: 100))
        turns.give(.turn(isLarge: false))
        #expect(small.awaitTurn() == .turn(isLarge: false))
        #expect(turns.heldCount == 2)
    }

    /// A large request giving its turn back while the spare is held frees no turn: the
    /// small request on the spare holds one of the `count` now, so a small or a large
    /// request waits until another turn is given back, then takes it (`HTTP1.RunningJobs`).
    @Test func aTurnGivenBackBesideTheSpareFreesNone() {
        for waiterIsLarge in [false, true] {
            let turns = SolveTurns(count: 2)
            #expect(turns.take(isLarge: true) == .turn(isLarge: true))
            #expect(turns.take(isLarge: true) == .turn(isLarge: true))
            #expect(turns.take(isLarge: false) == .spare)
            turns.give(.turn(isLarge: true))
            #expect(turns.heldCount == 2)
            let waiter = Waiter(turns, isLarge: waiterIsLarge)
            #expect(!waiter.tookWithin(milliseconds: 100), "large: \(waiterIsLarge)")
            turns.give(.spare)
            #expect(waiter.awaitTurn() == .turn(isLarge: waiterIsLarge))
            #expect(turns.heldCount == 2)
        }
    }
}
