/// A value that can be sent as a statement parameter (`$1`, `$2`…) in PostgreSQL's text
/// format, the form the type's input function reads
/// (<https://www.postgresql.org/docs/15/libpq-exec.html#LIBPQ-PQEXECPARAMS>).
///
/// Parameters are always sent apart from the SQL text, so no value is ever parsed as SQL.
/// The server infers each parameter's type from the statement (no type OIDs are sent);
/// cast in the SQL (`$1::bigint`) where the context does not say.
protocol PostgreSQLBindable: Sendable {
    /// The text form, or `nil` for SQL `NULL`.
    var postgreSQLText: String? { get }
}

extension String: PostgreSQLBindable {
    /// The string itself. It must not contain a NUL byte (PostgreSQL's text types cannot
    /// hold one; ``PostgreSQLConnection/query(_:_:)`` refuses it).
    var postgreSQLText: String? { self }
}

extension Int: PostgreSQLBindable {
    /// Decimal digits, as `int8in` reads them.
    var postgreSQLText: String? { String(self) }
}

extension Int64: PostgreSQLBindable {
    /// Decimal digits, as `int8in` reads them.
    var postgreSQLText: String? { String(self) }
}

extension Int32: PostgreSQLBindable {
    /// Decimal digits, as `int4in` reads them.
    var postgreSQLText: String? { String(self) }
}

extension Bool: PostgreSQLBindable {
    /// `t` or `f`, as `boolin` reads them.
    var postgreSQLText: String? { self ? "t" : "f" }
}

extension Double: PostgreSQLBindable {
    /// The shortest decimal that reads back as the same `Double` (Swift's `description`,
    /// which `float8in` reads exactly); `Infinity`, `-Infinity` and `NaN` spelled as
    /// `float8in` expects.
    var postgreSQLText: String? {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return description
    }
}

extension Optional: PostgreSQLBindable where Wrapped: PostgreSQLBindable {
    /// `nil` is SQL `NULL`.
    var postgreSQLText: String? {
        switch self {
        case .none: nil
        case .some(let value): value.postgreSQLText
        }
    }
}
