import LayoutCompiler
@testable import LayoutService
@testable import LayoutStore
import Synchronization
import Testing

/// A stored group is read from the store with the request's solving turn given up, and its
/// contents are decoded after the turn is taken again (``LayoutService/resolveGroup(_:current:turn:)``),
/// so a store that stopped answering holds no turn, and at most `--workers` requests decode
/// group contents at once (docs/operations.md, `--workers`).
struct GroupTurnTests {
    @Test func aGroupIsReadWithTheTurnGivenUpAndTakesItBack() throws {
        let store = ObservedGroupStore(try SQLiteStore(path: ":memory:"))
        _ = try store.putGroup(name: "col", constraintsJSON: #"["red.height >= 12"]"#, metricsJSON: #"{"m":4}"#,
                               ifMatch: nil, ifNoneMatchAny: false)
        var configuration = ServiceConfiguration()
        configuration.maxConcurrentSolves = 1
        let service = LayoutService(store: try SQLiteStore(path: ":memory:"), groupStore: store, configuration: configuration)
        let turns = try #require(service.solveTurns)
        let heldAtRead = Mutex<[Int]>([])
        store.onGroupRead.withLock { $0 = { heldAtRead.withLock { $0.append(turns.heldCount) } } }
        let turn = HeldTurn(turns, isLarge: false)
        #expect(turns.heldCount == 1)
        let group = try #require(try service.resolveGroup(GroupReference(name: "col", version: nil), current: nil, turn: turn))
        #expect(heldAtRead.withLock { $0 } == [0])
        #expect(turns.heldCount == 1)
        #expect(group.name == "col")
        #expect(group.version == 1)
        #expect(group.constraints.count == 1)
        turn.finish()
        #expect(turns.heldCount == 0)
    }
}
