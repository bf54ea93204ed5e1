import Testing
@testable import Cassowary

/// `Symbol` is the id it wraps: the same size (so a row's cell stays 16 bytes), ordered
/// by id (the solver's tie-break), and ``Symbol/invalid`` is no symbol.
struct SymbolTests {
    @Test func aSymbolIsItsId() {
        #expect(MemoryLayout<Symbol>.size == MemoryLayout<Int>.size)
        #expect(MemoryLayout<Cell>.size == 16)
        #expect(MemoryLayout<Cell>.stride == 16)
        #expect(Symbol(3) < Symbol(7) && !(Symbol(7) < Symbol(3)))
        #expect([Symbol(9), Symbol(0), Symbol(4)].sorted().map(\.id) == [0, 4, 9])
        #expect(Symbol(0).isValid)
        #expect(!Symbol.invalid.isValid)
        #expect(Symbol.invalid.id == -1)
    }

    /// A constraint with one marker has `other` invalid; a required equality without a
    /// dummy (the default) has neither;
    /// every marker it has is owned by it.
    @Test func tagsHoldInvalidForAMissingMarker() throws {
        var solver = Solver()
        solver.tracksMarkers = true
        let x = Variable(id: 0), y = Variable(id: 1)
        let inequality = try solver.addConstraint(Constraint(Expression(terms: [Term(x)], constant: -5), .greaterThanOrEqual))
        let wish = try solver.addConstraint(Constraint(Expression(terms: [Term(y)], constant: -3), .equal, strength: Strength(1)))
        let inequalityTag = solver.tags[inequality.rawValue]
        #expect(inequalityTag.marker.isValid && !inequalityTag.other.isValid)
        #expect(solver.kinds[inequalityTag.marker.id] == .slack)
        #expect(solver.owners[inequalityTag.marker.id] == inequality.rawValue)
        let wishTag = solver.tags[wish.rawValue]
        #expect(wishTag.marker.isValid && wishTag.other.isValid)
        #expect(solver.kinds[wishTag.marker.id] == .error && solver.kinds[wishTag.other.id] == .error)
        #expect(solver.owners[wishTag.other.id] == wish.rawValue)
        #expect(solver.value(of: x) == 5 && solver.value(of: y) == 3)
        var plain = Solver()   // required equalities get no dummy marker by default
        let pin = try plain.addConstraint(Constraint(Expression(terms: [Term(x)], constant: -2), .equal))
        #expect(!plain.tags[pin.rawValue].marker.isValid && !plain.tags[pin.rawValue].other.isValid)
        #expect(plain.value(of: x) == 2)
    }
}
