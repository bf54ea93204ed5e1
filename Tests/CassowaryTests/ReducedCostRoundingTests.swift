import Testing
@testable import Cassowary

/// A system whose rounding once broke required constraints: 50 variables, 95
/// constraints (required equalities and inequalities satisfied by a hidden point;
/// optional ones at kiwi's strong, medium and weak with generic weights). Added one by
/// one with `autoSolve` on (kiwi's order), a reduced cost of −8.6e-18 (rounding) would
/// enter a symbol whose only blocking row holds −6e-17, and a pivot on it divides the
/// tableau by that and breaks required constraints by up to 32. The rule it holds:
/// reduced costs within 1e-12 of zero are zero (`Objective`). Kiwisolver and an exact
/// lexicographic LP (scipy/HiGHS) agree with the bulk load's answer.
/// Terms are (coefficient, variable id); strength nil means required.
let reducedCostRoundingSystem: [(terms: [(Double, Int)], constant: Double, relation: RelationalOperator, strength: Double?)] = [
    ([(3.0, 24), (3.0, 21)], 477.0835713623588, .equal, nil),
    ([(3.0, 37)], 267.02071737932357, .equal, nil),
    ([(-3.0, 46), (-2.0, 21), (3.0, 35)], -248.87839183913763, .greaterThanOrEqual, nil),
    ([(-2.0, 13), (-3.0, 1), (3.0, 5)], 214.1821204394703, .equal, nil),
    ([(2.0, 43), (1.0, 12), (1.0, 11)], -141.08906376714492, .lessThanOrEqual, nil),
    ([(-3.0, 5), (-2.0, 27), (-3.0, 23)], 40.79561152186798, .greaterThanOrEqual, nil),
    ([(1.0, 38), (-3.0, 34), (2.0, 23)], -167.13241768662604, .greaterThanOrEqual, nil),
    ([(3.0, 14), (-1.0, 16)], -93.06793079511974, .equal, nil),
    ([(3.0, 41), (-2.0, 28)], -214.32317577265997, .greaterThanOrEqual, nil),
    ([(-2.0, 8), (-1.0, 17), (1.0, 29)], 84.39445534048781, .lessThanOrEqual, nil),
    ([(0.8227679724889292, 0), (0.8227679724889292, 6), (-2.4683039174667876, 10)], -97.156069189265, .lessThanOrEqual, 1000000.0),
    ([(5.8956925843318455, 43), (-1.9652308614439484, 0), (1.9652308614439484, 2)], -172.83489133728648, .lessThanOrEqual, 1000000.0),
    ([(-5.025504647128453, 19), (5.025504647128453, 46)], 83.80104790215339, .equal, 1000000.0),
    ([(-0.9867704975084457, 4), (-0.9867704975084457, 0), (-1.9735409950168914, 7)], 3.526606754867932, .equal, 1000000.0),
    ([(-1.0492170106623848, 0), (-1.0492170106623848, 43), (1.0492170106623848, 10)], -40.86585961053986, .equal, 1000000.0),
    ([(-2.1073657927714873, 0), (2.1073657927714873, 32)], -89.79481376187366, .equal, 1000000.0),
    ([(-4.9289999971620935, 30), (4.9289999971620935, 13), (-4.9289999971620935, 42)], -82.95931353070382, .greaterThanOrEqual, 1000000.0),
    ([(4.807383974434824, 0), (4.807383974434824, 13), (-4.807383974434824, 10)], -75.21135413496485, .equal, 1.0),
    ([(3.739402869211208, 0)], -18.999838266885753, .equal, 1000000.0),
    ([(-0.6501845035628002, 0), (-1.9505535106884007, 33), (1.3003690071256004, 15)], -31.339870507781026, .equal, 1000000.0),
    ([(1.0728820928584957, 0), (-1.0728820928584957, 5)], -42.334048132016825, .greaterThanOrEqual, 1000000.0),
    ([(-0.9606764489246018, 6)], -3.598565869837434, .greaterThanOrEqual, 1000000.0),
    ([(1.856715219328956, 4), (-5.570145657986868, 0), (3.713430438657912, 35)], -24.285041822059192, .equal, 1000000.0),
    ([(3.870767842184581, 5), (-5.806151763276872, 18)], -76.56892643720293, .lessThanOrEqual, 1000000.0),
    ([(2.272555089817838, 0), (-2.272555089817838, 46), (-2.272555089817838, 16)], -12.196843069672797, .greaterThanOrEqual, 1000.0),
    ([(3.0410953309877877, 3)], -18.57383139911295, .equal, 1.0),
    ([(-1.3732922451067886, 0), (1.3732922451067886, 2)], -177.5331681537246, .equal, 1000000.0),
    ([(-5.032433099556922, 0)], -228.44945625225066, .greaterThanOrEqual, 1000000.0),
    ([(3.1705874364645195, 19), (4.755881154696779, 39), (-3.1705874364645195, 10)], 69.6014109007713, .equal, 1000000.0),
    ([(-2.3502029172735037, 19)], -130.48187042328573, .greaterThanOrEqual, 1000000.0),
    ([(4.825439137430418, 30), (-3.216959424953612, 22)], 144.9372677197985, .greaterThanOrEqual, 1000000.0),
    ([(-1.4030462780313506, 7), (2.104569417047026, 23), (1.4030462780313506, 11)], -76.18986086538438, .greaterThanOrEqual, 1000000.0),
    ([(-3.333774263507229, 4), (1.111258087835743, 26)], -4.082108439778641, .equal, 1000000.0),
    ([(3.8393278409167073, 4), (1.9196639204583537, 12), (-3.8393278409167073, 5)], 233.42682787591065, .lessThanOrEqual, 1000000.0),
    ([(3.929775481364197, 19), (2.619850320909465, 9), (-1.3099251604547324, 3)], -104.03782168869172, .equal, 1000000.0),
    ([(2.571929061143586, 4), (-3.857893591715379, 1), (2.571929061143586, 9)], -128.5114181128888, .lessThanOrEqual, 1000.0),
    ([(2.631837126971902, 5)], 134.93484158596024, .lessThanOrEqual, 1000000.0),
    ([(1.1072515229888806, 5), (-1.1072515229888806, 20)], -13.686489646390577, .equal, 1000000.0),
    ([(1.225997849811291, 48), (3.6779935494338725, 15), (-1.225997849811291, 46)], 71.0779770252936, .lessThanOrEqual, 1000000.0),
    ([(2.7731610278965984, 6), (-4.159741541844897, 15)], -58.03491896793743, .equal, 1000.0),
    ([(1.292754617607549, 14), (3.878263852822647, 21), (2.585509235215098, 39)], 176.25737739267169, .equal, 1.0),
    ([(-3.0655421252670307, 12), (3.0655421252670307, 7), (-2.0436947501780205, 2)], 108.29111992146397, .lessThanOrEqual, 1000000.0),
    ([(-1.830295702242517, 10)], -88.21281794295915, .equal, 1000000.0),
    ([(-2.0939362985258874, 6), (-3.140904447788831, 21), (-2.0939362985258874, 27)], 62.04623747001516, .equal, 1000000.0),
    ([(-0.8401891244546851, 48), (-2.520567373364055, 6), (-2.520567373364055, 3)], 2.2335808500594516, .lessThanOrEqual, 1000000.0),
    ([(1.8616167030803445, 14), (-3.723233406160689, 8), (-3.723233406160689, 29)], -263.8064960169193, .equal, 1.0),
    ([(-1.974534451317293, 12), (2.9618016769759397, 44)], 84.21360003766249, .lessThanOrEqual, 1000000.0),
    ([(1.3002272534817396, 31), (-1.3002272534817396, 15)], 90.77226591868512, .equal, 1000000.0),
    ([(-4.763529242900106, 14), (1.5878430809667021, 8), (4.763529242900106, 23)], -193.78890473833005, .lessThanOrEqual, 1000.0),
    ([(-1.869589792770617, 17)], -164.95661006156402, .greaterThanOrEqual, 1000.0),
    ([(-3.97408574203777, 38), (-5.961128613056655, 25), (-3.97408574203777, 10)], -204.24976974489604, .equal, 1000000.0),
    ([(-1.8553409870690158, 24), (-1.8553409870690158, 6)], 129.70804410648424, .equal, 1000000.0),
    ([(2.3953085052091065, 14), (2.3953085052091065, 6), (-3.59296275781366, 11)], 98.72021745521181, .equal, 1000000.0),
    ([(1.4381099594955675, 10), (2.876219918991135, 27)], 69.99160067398468, .lessThanOrEqual, 1.0),
    ([(-3.386443715899505, 6), (5.079665573849257, 8)], 125.97293501536832, .greaterThanOrEqual, 1000000.0),
    ([(-2.7212157536622943, 4), (-1.3606078768311471, 20)], 165.0472607083655, .lessThanOrEqual, 1000000.0),
    ([(1.652835488473992, 25), (-3.305670976947984, 6), (4.958506465421976, 23)], -147.7829279870465, .equal, 1000000.0),
    ([(-1.453265245600384, 8), (4.359795736801152, 23)], 111.30648385192787, .greaterThanOrEqual, 1000.0),
    ([(-0.5435779776508183, 24)], -49.92789559525962, .equal, 1000000.0),
    ([(-3.477113639051344, 18), (1.738556819525672, 27), (5.215670458577016, 23)], 109.62289289743592, .equal, 1000000.0),
    ([(-5.244751928260493, 15), (-3.4965012855069957, 32)], 260.1553804363656, .equal, 1000000.0),
    ([(3.1244030188576746, 32)], 220.04589373092207, .equal, 1000000.0),
    ([(-2.5053238687302026, 28), (2.5053238687302026, 22)], -56.15009305257151, .equal, 1000000.0),
    ([(-3.7700776566575107, 34)], -167.59600557300934, .equal, 1000000.0),
    ([(2.0823124106608764, 26)], 142.55576467030775, .greaterThanOrEqual, 1000000.0),
    ([(3.587141778057133, 8), (-5.3807126670856995, 3)], -151.8996364297581, .lessThanOrEqual, 1000.0),
    ([(-1.6087513832771019, 6), (3.2175027665542038, 33), (4.826254149831305, 8)], 192.10486611282408, .equal, 1000000.0),
    ([(-0.8933041039998639, 33), (-2.679912311999592, 31), (0.8933041039998639, 44)], -85.07195836162178, .lessThanOrEqual, 1000000.0),
    ([(2.9419919706461926, 30), (1.4709959853230963, 22)], -71.8927614995899, .greaterThanOrEqual, 1000000.0),
    ([(3.5802236893622976, 23)], 88.703977571228, .lessThanOrEqual, 1000000.0),
    ([(3.416496984573956, 44), (-1.708248492286978, 40)], 123.88423027361131, .equal, 1000000.0),
    ([(-1.9961074537099162, 8), (-5.9883223611297485, 37), (-5.9883223611297485, 47)], 200.6946817119767, .equal, 1000000.0),
    ([(-1.59821541850784, 46), (-1.59821541850784, 44)], 223.00571237134693, .equal, 1000000.0),
    ([(2.6257817362315237, 14), (3.9386726043472855, 41), (-1.3128908681157618, 36)], -110.30795096141932, .equal, 1000.0),
    ([(1.962059523936866, 26), (-3.924119047873732, 18)], -69.60825086360677, .equal, 1000000.0),
    ([(5.8939364291877165, 38)], -180.39876041736798, .lessThanOrEqual, 1000000.0),
    ([(-2.516847935802182, 44)], 81.42937201191872, .lessThanOrEqual, 1000000.0),
    ([(-1.709253070061072, 4)], 52.33533850230074, .greaterThanOrEqual, 1000000.0),
    ([(1.4895399202399207, 6), (-4.468619760719762, 47)], 40.26282647807073, .equal, 1000000.0),
    ([(1.1072515229888806, 5), (-1.1072515229888806, 20)], -13.686489646390577, .equal, 1000000.0),
    ([(-1.412404218401853, 40)], -12.38248369641766, .greaterThanOrEqual, 1000000.0),
    ([(0.252438166212431, 1)], -4.842618287220373, .equal, 1.0),
    ([(1.2282616242337556, 36), (-2.4565232484675112, 42)], 0.7624605307447566, .lessThanOrEqual, 1000000.0),
    ([(2.456281643282627, 44)], -94.58676415316329, .greaterThanOrEqual, 1000000.0),
    ([(4.38612692352669, 20), (-1.46204230784223, 9)], 125.34796378629002, .greaterThanOrEqual, 1000000.0),
    ([(-4.838358363226666, 45), (-1.6127861210755554, 8)], 68.39559938954649, .greaterThanOrEqual, 1000000.0),
    ([(2.0068997493153056, 46), (-2.0068997493153056, 42)], 49.93168722447836, .equal, 1000000.0),
    ([(2.4127264762581717, 43)], -90.29178784109803, .equal, 1000000.0),
    ([(-2.3392827275182775, 48)], -111.09306663166569, .equal, 1000000.0),
    ([(-4.239451639072114, 45)], 124.9505895686678, .equal, 1000000.0),
    ([(1.845889733079495, 4)], 250.21382284463868, .equal, 1000000.0),
    ([(-5.032433099556922, 0)], -228.44945625225066, .greaterThanOrEqual, 1000000.0),
    ([(2.3291464490053984, 49)], 78.61726544676351, .equal, 1000000.0),
    ([(2.4291781031922755, 1), (-0.8097260343974251, 49), (1.6194520687948502, 28)], -47.89844069753022, .equal, 1000000.0),
    ([(5.971906492673815, 8)], -156.589377001382, .greaterThanOrEqual, 1000000.0),
]

/// Rounded reduced costs never enter a symbol: required constraints hold after a bulk
/// load and after one-by-one adds, and both reach the same optimum.
struct ReducedCostRoundingTests {
    static func constraints() -> [Constraint] {
        reducedCostRoundingSystem.map { entry in
            let expression = Expression(terms: entry.terms.map { Term(Variable(id: $0.1), $0.0) },
                                        constant: entry.constant)
            return Constraint(expression, entry.relation, strength: entry.strength.map { Strength($0) } ?? .required)
        }
    }

    /// The largest violation of a required constraint by the solver's values.
    static func requiredViolation(_ solver: Solver) -> Double {
        constraints().filter(\.strength.isRequired).map { constraint in
            constraint.violation(residual: constraint.expression.evaluate { solver.value(of: $0) })
        }.max() ?? 0
    }

    @Test func bulkLoadKeepsRequiredConstraints() throws {
        var solver = Solver()
        solver.autoSolve = false
        for constraint in Self.constraints() { try solver.addConstraint(constraint) }
        solver.updateVariables()
        #expect(Self.requiredViolation(solver) < 1e-6)
    }

    @Test func incrementalAddsKeepRequiredConstraints() throws {
        var solver = Solver()
        for constraint in Self.constraints() { try solver.addConstraint(constraint) }
        #expect(Self.requiredViolation(solver) < 1e-6)
        // Both orders reach the same optimum (it is unique).
        var bulk = Solver()
        bulk.autoSolve = false
        for constraint in Self.constraints() { try bulk.addConstraint(constraint) }
        bulk.updateVariables()
        for id in 0..<50 {
            let a = solver.value(of: Variable(id: id)), b = bulk.value(of: Variable(id: id))
            #expect(abs(a - b) <= 1e-6 * max(1, abs(b)))
        }
    }
}

/// The dual simplex's ratio test on ties: a kiwi differential system (seed 11,
/// `diff-0250`) whose second suggestion left two entering candidates with ratios equal
/// at strong strength (4/3 each, differing in the last bit) and different at weak. The
/// one with the last-bit-smaller strong ratio but the larger weak ratio was entered,
/// another symbol's weak reduced cost went negative, and v0 stayed at its required
/// bound −105.25 (weak error 37.5) instead of its anchor −40.04 (weak error 16.9).
struct DualRatioTieTests {
    @Test func suggestionsAfterATieReachTheOptimum() throws {
        let v = (0..<4).map { Variable(id: $0) }
        func expression(_ terms: [(Double, Int)], _ constant: Double) -> Expression {
            Expression(terms: terms.map { Term(v[$0.1], $0.0) }, constant: constant)
        }
        var solver = Solver()
        solver.autoSolve = false
        let weak = Strength(1), medium = Strength(1000)
        try solver.addConstraint(Constraint(expression([(3, 2), (2, 0)], 350.3198325812559), .greaterThanOrEqual))
        try solver.addConstraint(Constraint(expression([(0.467894529244112, 1)], -18.174353391612915), .equal, strength: weak))
        let removed = try solver.addConstraint(Constraint(expression([(1.7675169982883414, 1)], -88.70352139070181), .equal, strength: medium))
        try solver.addConstraint(Constraint(expression([(3, 1), (-1, 2)], -283.8851780502002), .greaterThanOrEqual))
        try solver.addConstraint(Constraint(expression([(0.39701893496797275, 0)], 15.896749090755629), .equal, strength: weak))
        try solver.addConstraint(Constraint(expression([(0.12105554839133831, 3)], 7.635550968621053), .equal, strength: weak))
        try solver.addConstraint(Constraint(expression([(0.23402277949240763, 2)], -12.832424839468528), .equal, strength: weak))
        try solver.addConstraint(Constraint(expression([(1, 0), (1, 1), (3, 3)], -330.8223263585743), .lessThanOrEqual))
        try solver.addConstraint(Constraint(expression([(-2, 0), (3, 3), (3, 1)], -584.4290102871597), .equal))
        try solver.removeConstraint(removed)
        solver.updateVariables()
        try solver.addEditVariable(v[2], strength: Strength(1e6))
        try solver.addEditVariable(v[1], strength: Strength(1e6))
        for (v2, v1) in [(-118.262, -91.697), (-46.607, 91.402)] {
            try solver.suggestValue(v2, for: v[2])
            try solver.suggestValue(v1, for: v[1])
            solver.updateVariables()
        }
        // v2 and v1 as suggested; v0 at its weak anchor (inside its bounds −105.25 and
        // −23.6 once v3 is eliminated by the required equality); v3 from that equality.
        #expect(abs(solver.value(of: v[2]) + 46.607) <= 1e-9)
        #expect(abs(solver.value(of: v[1]) - 91.402) <= 1e-9)
        let anchor = -15.896749090755629 / 0.39701893496797275
        #expect(abs(solver.value(of: v[0]) - anchor) <= 1e-9)
        let v3 = (584.4290102871597 + 2 * anchor - 3 * 91.402) / 3
        #expect(abs(solver.value(of: v[3]) - v3) <= 1e-9)
    }
}
