import Testing
@testable import Cassowary

/// Part order makes the plain level order's pivots, also on small systems full of ties
/// (small integer data, copies of one system, repeated wishes), which tell apart
/// install orders that real layouts do not: copies of a
/// small system sharing a deferred hub `W` (variable 0), sometimes a second hub `H`
/// pushed down (variable 1), wishes at four levels, some added twice.
struct PartOrderPivotTests {
    /// Part order against the plain level order, with deferral off (so one phase): the
    /// same pivots and values, bit for bit. Both orders start their first install from
    /// an optimal tableau: from one not known to be optimal, `insertRow` picks a
    /// degenerate row's subject by another rule, and the orders' pivots part (seed 135
    /// makes 6 against 7 that way).
    @Test func partOrderMakesTheLevelOrdersPivotsOnTiedSystems() throws {
        var compared = 0
        for seed in UInt64(0)..<300 {
            let (system, count) = Self.tiedSystem(seed: seed)
            guard let byLevel = try? PartOrderTests.solve(system, variables: count, configure: {
                $0.bulkLoad.installsByPart = false
                $0.defersImpliedFree = false
            }) else { continue }
            let byPart = try PartOrderTests.solve(system, variables: count) { $0.defersImpliedFree = false }
            #expect(byPart.pivots == byLevel.pivots, "seed \(seed)")
            #expect(byPart.values == byLevel.values, "seed \(seed)")
            compared += 1
        }
        #expect(compared > 250)
    }
}

struct TiedGenerator {
    var state: UInt64
    mutating func unit() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    mutating func pick(_ n: Int) -> Int { min(n - 1, Int(unit() * Double(n))) }
    mutating func coin(_ p: Double = 0.5) -> Bool { unit() < p }
}

extension PartOrderPivotTests {
    /// Copies of small tied systems sharing a deferred hub W (var 0), optionally a second
    /// hub H (var 1). Small integer data for ties.
    static func tiedSystem(seed: UInt64) -> (system: [PartOrderTests.RandomConstraint], count: Int) {
        var g = TiedGenerator(state: seed &* 0x9E37_79B9_7F4A_7C15 &+ 7)
        let copies = 2 + g.pick(4)
        let n = 3 + g.pick(4)
        let same = g.coin(0.6)
        let interleave = g.coin()
        let secondHub = g.coin(0.4)
        let hubLevelChoice = g.pick(4)  // 0: W wished at 1, 1: none (-inf), 2: at 10, 3: ends wished at 1
        let W = 0, H = 1
        let base = 2
        var system: [PartOrderTests.RandomConstraint] = []
        // Hub pushes first.
        let firstRowsPush = g.coin()
        if !firstRowsPush {
            for k in 1...16 { system.append(([(1, W)], Double(k), .greaterThanOrEqual, nil)) }
        }
        if secondHub { for k in 1...16 { system.append(([(1, H)], -Double(k + 200), .lessThanOrEqual, nil)) } }
        let levels: [Double] = [1000, 100, 10, 5]
        let constants: [Double] = [0, 10, 20, 10, -10]
        var perCopy: [[PartOrderTests.RandomConstraint]] = []
        var copyGen = g
        for copy in 0..<copies {
            if !same || copy == 0 { copyGen = TiedGenerator(state: g.state &+ UInt64(copy) &* 977) }
            var local = copyGen
            let off = base + copy * n
            var cs: [PartOrderTests.RandomConstraint] = []
            func v(_ i: Int) -> Int { off + i }
            for i in 0..<n where local.coin(0.5) { cs.append(([(1, v(i))], 0, .greaterThanOrEqual, nil)) }
            for _ in 0..<(2 + local.pick(3)) {
                let i = local.pick(n), j = local.pick(n)
                if i != j { cs.append(([(1, v(i)), (-1, v(j))], -constants[local.pick(5)], .greaterThanOrEqual, nil)) }
            }
            for _ in 0..<(14 + local.pick(10)) {
                let i = local.pick(n)
                var terms: [(Double, Int)] = [([1.0, -1, 2][local.pick(3)], v(i))]
                if local.coin(0.6) { let j = local.pick(n); if j != i { terms.append(([1.0, -1][local.pick(2)], v(j))) } }
                let rel: RelationalOperator = [.equal, .lessThanOrEqual, .greaterThanOrEqual][local.pick(3)]
                let c: PartOrderTests.RandomConstraint = (terms, -constants[local.pick(5)] * 2, rel, levels[local.pick(4)])
                cs.append(c)
                if local.coin(0.15) { cs.append(c) }  // duplicate
            }
            // Deferred ends: v + c <= W
            let ends = 1 + local.pick(2)
            for _ in 0..<ends {
                let i = local.pick(n)
                cs.append(([(1, v(i)), (-1, W)], constants[local.pick(3)], .lessThanOrEqual, nil))
                if hubLevelChoice == 3 { cs.append(([(1, v(i)), (-1, W)], 16, .equal, 1)) }
            }
            if secondHub {
                let i = local.pick(n)
                cs.append(([(1, v(i)), (-1, H)], -5, .greaterThanOrEqual, nil))
            }
            // lower wishes
            for _ in 0..<local.pick(3) {
                let i = local.pick(n)
                cs.append(([(1, v(i))], -constants[local.pick(5)], [.equal, .lessThanOrEqual, .greaterThanOrEqual][local.pick(3)], [1, 0.5][local.pick(2)]))
            }
            perCopy.append(cs)
        }
        if firstRowsPush {
            // first pushes from extra "rows" tied to copy variables of copy 0.. (installed at once)
            for k in 0..<16 {
                let c = k % copies
                system.append(([(1, base + c * n + (k % n)), (-1, W)], Double(k % 3) * 5, .lessThanOrEqual, nil))
            }
        }
        if interleave {
            let longest = perCopy.map(\.count).max()!
            for i in 0..<longest { for c in perCopy where i < c.count { system.append(c[i]) } }
        } else {
            for c in perCopy { system += c }
        }
        // cross-copy lower wishes and hub wishes
        switch hubLevelChoice {
        case 0: system.append(([(1, W)], 0, .equal, 1))
        case 2: system.append(([(1, W)], 0, .equal, 10))
        default: break
        }
        if secondHub && g.coin() { system.append(([(1, H)], -400, .equal, [1, 0.5, 10][g.pick(3)])) }
        for _ in 0..<g.pick(3) {
            let a = base + g.pick(copies * n), b = base + g.pick(copies * n)
            if a != b { system.append(([(1, a), (-1, b)], 0, .equal, [1, 0.5][g.pick(2)])) }
        }
        return (system, base + copies * n)
    }
}
