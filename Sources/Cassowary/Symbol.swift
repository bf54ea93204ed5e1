/// The kind of a tableau symbol (Cassowary paper §3; kiwi `symbol.h`).
enum SymbolKind: UInt8, Sendable {
    /// A user variable: unrestricted in sign.
    case external
    /// The slack of an inequality (≥ 0); also the artificial variable.
    case slack
    /// An error variable of a non-required constraint (≥ 0), weighted in the objective.
    case error
    /// The marker of a required equality: fixed at 0, never enters the basis.
    case dummy

    /// Whether the symbol is restricted to be ≥ 0 (slack or error).
    @inline(__always) var isRestricted: Bool { self == .slack || self == .error }
}

/// The marker symbols a constraint owns in the tableau (kiwi `Tag`).
///
/// `marker` is the slack (inequality), dummy (required equality) or positive error
/// variable (optional equality); `other` is the error variable of an optional
/// inequality or the negative error of an optional equality, or -1.
struct Tag: Sendable {
    var marker: Int
    var other: Int
    /// A required equality whose row reduced to `0 = 0`: implied by earlier ones.
    var isRedundant = false
}
