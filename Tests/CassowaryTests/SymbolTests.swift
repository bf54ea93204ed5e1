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

    /// `ConstraintHandle` is the index it wraps, the same way: an `Int`'s size (tables of
    /// owners cost what tables of integers cost), ordered by addition, and
    /// ``ConstraintHandle/invalid`` names no constraint.
    @Test func aConstraintHandleIsItsIndex() {
        #expect(MemoryLayout<ConstraintHandle>.size == MemoryLayout<Int>.size)
        #expect(MemoryLayout<ConstraintHandle>.stride == MemoryLayout<Int>.stride)
        #expect(ConstraintHandle(rawValue: 2) < ConstraintHandle(rawValue: 5))
        #expect(ConstraintHandle(rawValue: 5).index == 5)
        #expect(ConstraintHandle(rawValue: 0).isValid)
        #expect(!ConstraintHandle.invalid.isValid)
        #expect(ConstraintHandle.invalid.rawValue == -1)
    }

    /// One `append` grows every per-symbol table by one entry at its initial value, so
    /// the tables stay the same length.
    @Test func aSymbolTableAppendGrowsEveryTable() {
        var table = SymbolTable()
        table.reserveCapacity(4)
        let first = table.append(.external)
        let second = table.append(.slack)
        #expect(first == Symbol(0) && second == Symbol(1))
        #expect(table.count == 2)
        #expect(table.kinds == [.external, .slack])
        #expect(table.rows.count == 2 && table.rows.allSatisfy(\.cells.isEmpty))
        #expect(table.isBasic == [false, false])
        #expect(table.columns.count == 2 && table.columns.allSatisfy(\.isEmpty))
        #expect(table.links.count == 2)
        #expect(table.isPinned == [false, false])
        #expect(table.owners == [.invalid, .invalid])
        #expect(table.definition == [DefinitionMark(), DefinitionMark()])
        #expect(table.definition.allSatisfy { $0.rank == -1 && !$0.isAlias })
        #expect(table.definitionValues == [0, 0])
        #expect(table.deferral == [DeferralMark(), DeferralMark()])
        #expect(table.deferral.allSatisfy { $0.pushes == 0 && $0.hubDirection == 0 })
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
        #expect(solver.table.kinds[inequalityTag.marker.id] == .slack)
        #expect(solver.table.owners[inequalityTag.marker.id] == inequality)
        let wishTag = solver.tags[wish.rawValue]
        #expect(wishTag.marker.isValid && wishTag.other.isValid)
        #expect(solver.table.kinds[wishTag.marker.id] == .error && solver.table.kinds[wishTag.other.id] == .error)
        #expect(solver.table.owners[wishTag.other.id] == wish)
        #expect(solver.value(of: x) == 5 && solver.value(of: y) == 3)
        var plain = Solver()   // required equalities get no dummy marker by default
        let pin = try plain.addConstraint(Constraint(Expression(terms: [Term(x)], constant: -2), .equal))
        #expect(!plain.tags[pin.rawValue].marker.isValid && !plain.tags[pin.rawValue].other.isValid)
        #expect(plain.value(of: x) == 2)
    }
}
