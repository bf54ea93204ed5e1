/// The solver's single numeric tolerance and the one helper through which it is used.
///
/// The test is relative: a value is negligible when it is within `epsilon` of the
/// magnitude of the quantities it was computed from. Cells of a row are tested against
/// the operands of the addition that produced them (so a genuine coefficient of 1e-9 is
/// kept while `1 - (1 - 1e-17)` is dropped), and a row constant is tested against the
/// magnitude of the constants combined into it (so `0.1 + 0.2 - 0.3` is zero, and so is
/// the rounding noise of constants near 1e9).
enum Tolerance {
    /// Relative tolerance.
    static let epsilon = 1.0e-9

    /// Whether `value` is zero up to rounding, given the magnitude `scale` (≥ 0) of the
    /// operands it came from.
    @inline(__always)
    static func isNearZero(_ value: Double, scale: Double) -> Bool {
        abs(value) <= epsilon * scale
    }
}
