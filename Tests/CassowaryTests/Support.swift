@testable import Cassowary

/// `Expression(variable)` spelled short for the tests.
func e(_ variable: Variable) -> Expression { Expression(variable) }

/// `lhs == rhs` as a constraint `lhs - rhs == 0`.
func eq(_ lhs: Expression, _ rhs: Double, _ strength: Strength = .required) -> Constraint {
    Constraint(lhs - rhs, .equal, strength: strength)
}

func le(_ lhs: Expression, _ rhs: Double, _ strength: Strength = .required) -> Constraint {
    Constraint(lhs - rhs, .lessThanOrEqual, strength: strength)
}

func ge(_ lhs: Expression, _ rhs: Double, _ strength: Strength = .required) -> Constraint {
    Constraint(lhs - rhs, .greaterThanOrEqual, strength: strength)
}

let x = Variable(id: 0)
let y = Variable(id: 1)
let z = Variable(id: 2)

/// A flow layout like the benchmark's mixed family: `rows` rows of 8 views with
/// margins, gaps, compression resistance and hugging at distinct strengths (weights
/// distinct, so the optimum is unique), a vertical chain of rows, and each row's end
/// bounded by the root width — pinned (required, 716) or free (`>= 0`, its end only
/// wished for at strength 1, like the resize family). Variable 0 is the root width.
struct FlowLayout {
    static let pinnedWidth = 8 * 75.0 + 2 * 16 + 7 * 12
    var solver: Solver
    /// Every variable, in creation order.
    var variables: [Variable] = []
    /// Each row's views' x and width.
    var x: [[Variable]] = [], w: [[Variable]] = []
    /// Each view's intrinsic width (40...110, seeded).
    let intrinsic: [[Double]]

    /// Adds the constraints with `autoSolve` as given (after `configure`), then solves.
    init(rows: Int, pinnedWidth: Bool = true, autoSolve: Bool = false, seed: UInt64 = 7,
         configure: (inout Solver) -> Void = { _ in }) throws {
        var state = seed
        func next(_ range: ClosedRange<Int>) -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(range.lowerBound + Int(state >> 33) % range.count)
        }
        intrinsic = (0..<rows).map { _ in (0..<8).map { _ in next(40...110) } }
        solver = Solver()
        solver.autoSolve = autoSolve
        configure(&solver)
        let root = variable()
        if pinnedWidth {
            try solver.addConstraint(eq(e(root), Self.pinnedWidth))
        } else {
            try solver.addConstraint(ge(e(root), 0))
        }
        var previousRow: (y: Variable, h: Variable)? = nil
        for row in 0..<rows {
            let ry = variable(), rh = variable()
            if let (py, ph) = previousRow {
                try solver.addConstraint(Constraint(e(ry) - e(py) - e(ph) - 8, .greaterThanOrEqual))
                try solver.addConstraint(Constraint(e(ry) - e(py) - e(ph) - 8, .equal, strength: Strength(0.25)))
            } else {
                try solver.addConstraint(eq(e(ry), 8))
            }
            try solver.addConstraint(eq(e(rh), 0, Strength(0.5)))
            var rowX: [Variable] = [], rowW: [Variable] = []
            for column in 0..<8 {
                let x = variable(), y = variable(), w = variable(), h = variable()
                let j = Double(column)
                if let px = rowX.last, let pw = rowW.last {
                    try solver.addConstraint(Constraint(e(x) - e(px) - e(pw) - 8, .greaterThanOrEqual))
                    try solver.addConstraint(Constraint(e(x) - e(px) - e(pw) - 12, .equal,
                                                        strength: Strength(1000 * (1 + 0.0625 * j))))
                } else {
                    try solver.addConstraint(ge(e(x), 8))
                    try solver.addConstraint(eq(e(x), 16, Strength(1500)))
                }
                try solver.addConstraint(ge(e(w), 0))
                try solver.addConstraint(ge(e(w), intrinsic[row][column], Strength(1000 * (2 + 0.125 * j))))
                try solver.addConstraint(le(e(w), intrinsic[row][column], Strength(2 + 0.125 * j)))
                try solver.addConstraint(Constraint(e(y) - e(ry), .greaterThanOrEqual))
                try solver.addConstraint(Constraint(e(y) - e(ry), .equal, strength: Strength(1)))
                try solver.addConstraint(ge(e(h), 10))
                try solver.addConstraint(eq(e(h), 30, Strength(1e6)))
                try solver.addConstraint(Constraint(e(rh) - e(y) + e(ry) - e(h), .greaterThanOrEqual))
                rowX.append(x)
                rowW.append(w)
            }
            let end = e(rowX[7]) + e(rowW[7])
            try solver.addConstraint(Constraint(end + 8 - e(root), .lessThanOrEqual))
            try solver.addConstraint(Constraint(end + 16 - e(root), .equal, strength: Strength(1)))
            x.append(rowX)
            w.append(rowW)
            previousRow = (ry, rh)
        }
        try solver.solve()
    }

    private mutating func variable() -> Variable {
        let made = Variable(id: variables.count)
        variables.append(made)
        return made
    }
}
