/// Errors thrown by ``Solver``. Every failure except ``workLimitExceeded`` leaves the
/// solver as it was before the call; none of them traps.
public enum SolverError: Error, Equatable, Sendable {
    /// The handle was never returned by this solver, or the constraint was removed.
    case unknownConstraint(ConstraintHandle)
    /// A required constraint that the required constraints already added exclude.
    /// The solver state is unchanged; ``Solver/explainConflict(_:)`` names a minimal
    /// conflicting set.
    case unsatisfiableConstraint
    /// ``Solver/addEditVariable(_:strength:)`` for a variable that is already edited.
    case duplicateEditVariable(Variable)
    /// Suggesting or removing an edit for a variable that is not edited.
    case unknownEditVariable(Variable)
    /// An edit variable cannot be required (it would pin the variable).
    case badRequiredStrength
    /// A NaN or infinite coefficient, constant, strength or suggested value.
    case nonFiniteInput
    /// The work of this solver exceeded ``Solver/workLimit`` (cell operations). The
    /// solver is then left mid-optimisation: its values satisfy the required
    /// constraints added so far but may not be optimal; discard it.
    case workLimitExceeded
    /// An invariant of the tableau broke (a bug in the solver, not bad input).
    case internalError(String)
}
