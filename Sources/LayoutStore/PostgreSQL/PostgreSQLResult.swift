/// The rows a statement returned, copied out of libpq's `PGresult` in text format.
///
/// A value: the `PGresult` is freed (`PQclear`) before ``PostgreSQLConnection/query(_:_:)``
/// returns. libpq holds a whole result in memory anyway, so the copy at most doubles it
/// for the moment of the copy. The size is the statement's to bound: the group store's
/// return one group (by key), the names of one scene, the group list (at most `maxGroups`
/// rows) or one group's version history.
struct PostgreSQLResult: Sendable, Equatable {
    /// The column names, in order (`PQfname`).
    let columnNames: [String]
    /// The rows, in the order the server sent them.
    let rows: [PostgreSQLRow]
    /// Rows affected by an `INSERT`, `UPDATE`, `DELETE`, `MERGE`, `SELECT`, `MOVE`,
    /// `FETCH` or `COPY` (`PQcmdTuples`); `nil` for other commands.
    let affectedRows: Int?

    /// The first row, or `nil` if there is none.
    var first: PostgreSQLRow? { rows.first }
}

/// One row of a ``PostgreSQLResult``: text values (`nil` for SQL `NULL`) with typed
/// getters that throw ``PostgreSQLError`` (category ``PostgreSQLError/Category/other``)
/// for a `NULL` where a value is required, a text that does not parse as the type, or a
/// column index out of range.
struct PostgreSQLRow: Sendable, Equatable {
    /// The column names of the result (shared by all its rows).
    let columnNames: [String]
    /// The values in text format, one per column; `nil` is SQL `NULL`.
    let values: [String?]

    /// Whether column `index` is SQL `NULL`.
    func isNull(_ index: Int) throws(PostgreSQLError) -> Bool {
        try value(index) == nil
    }

    /// Column `index` as text; `nil` for `NULL`.
    func optionalString(_ index: Int) throws(PostgreSQLError) -> String? {
        try value(index)
    }

    /// Column `index` as text.
    func string(_ index: Int) throws(PostgreSQLError) -> String {
        guard let text = try value(index) else { throw nullError(index) }
        return text
    }

    /// Column `index` as an integer (`smallint`, `integer`, `bigint`); `nil` for `NULL`.
    func optionalInt64(_ index: Int) throws(PostgreSQLError) -> Int64? {
        guard let text = try value(index) else { return nil }
        guard let number = Int64(text) else { throw typeError(index, text, "an integer") }
        return number
    }

    /// Column `index` as an integer (`smallint`, `integer`, `bigint`).
    func int64(_ index: Int) throws(PostgreSQLError) -> Int64 {
        guard let number = try optionalInt64(index) else { throw nullError(index) }
        return number
    }

    /// Column `index` as an `Int` (64 bits on every platform layoutd builds for).
    func int(_ index: Int) throws(PostgreSQLError) -> Int {
        Int(try int64(index))
    }

    /// Column `index` as an `Int`; `nil` for `NULL`.
    func optionalInt(_ index: Int) throws(PostgreSQLError) -> Int? {
        try optionalInt64(index).map { Int($0) }
    }

    /// Column `index` as a Boolean (`boolout` writes `t` or `f`).
    func bool(_ index: Int) throws(PostgreSQLError) -> Bool {
        let text = try string(index)
        switch text {
        case "t": return true
        case "f": return false
        default: throw typeError(index, text, "a boolean")
        }
    }

    /// Column `index` as a `Double` (`real`, `double precision`, `numeric`;
    /// `Infinity`, `-Infinity`, `NaN` included).
    func double(_ index: Int) throws(PostgreSQLError) -> Double {
        let text = try string(index)
        switch text {
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        case "NaN": return .nan
        default:
            guard let number = Double(text) else { throw typeError(index, text, "a number") }
            return number
        }
    }

    // MARK: - Errors

    private func value(_ index: Int) throws(PostgreSQLError) -> String? {
        guard values.indices.contains(index) else {
            throw PostgreSQLError(sqlState: nil, message: "column \(index) out of range: the row has \(values.count) columns",
                                  category: .other)
        }
        return values[index]
    }

    private func columnName(_ index: Int) -> String {
        columnNames.indices.contains(index) ? "\(index) (\(columnNames[index]))" : "\(index)"
    }

    private func nullError(_ index: Int) -> PostgreSQLError {
        PostgreSQLError(sqlState: nil, message: "column \(columnName(index)) is NULL", category: .other)
    }

    private func typeError(_ index: Int, _ text: String, _ expected: String) -> PostgreSQLError {
        // At most 40 characters of the value: a column may hold stored request data.
        PostgreSQLError(sqlState: nil, message: "column \(columnName(index)) is not \(expected): \"\(text.prefix(40))\"",
                        category: .other)
    }
}
