import Cassowary

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
