/// The bytes one stored version counts against a byte bound (`maxGroupBytes`), from its
/// payload: the UTF-8 bytes of its columns as stored. Defined once here, in Swift
/// (``count(payload:)``) and, from the same constants, as SQL for each database
/// (``sumSQL(_:table:textColumns:timestampColumn:where:)``);
/// `StoredBytesTests.sqlAndSwiftCountTheSameRows` holds the two equal on sample rows in
/// SQLite and in PostgreSQL.
///
/// The rule estimates SQLite's storage of the row (4 KiB pages; the table is an index
/// B-tree, `WITHOUT ROWID`, <https://www.sqlite.org/fileformat2.html#b_tree_pages>), so
/// that the bound covers the file, not just the text. An index B-tree cell keeps at most
/// 1,002 bytes of its record in the leaf page; with the record header and the version
/// integer (under 100 bytes), a row of p ≤ 900 bytes stays in the leaf and counts p + 128
/// (those, the cell pointer, and part of the page's free space); a longer one may spill
/// to overflow pages and counts whole pages, 4,096 × ⌈p / 4,096⌉ + 4,096 (the part kept in
/// the leaf and a last, partly filled overflow page). So the table's pages stay within a
/// small factor of the count (under 1.5, leaf pages being partly free) for any mix of
/// payload sizes; `hostile/store-group-bytes` holds the file under the bound plus the
/// `-wal` file's. PostgreSQL counts the same bytes, so a version costs the same in both
/// stores and an export fits an import.
public enum StoredBytes {
    /// The largest payload counted as kept in its leaf page: 900 bytes.
    static let leafPayload = 900
    /// What a payload kept in its leaf page counts besides itself: 128 bytes.
    static let leafOverhead = 128
    /// SQLite's page size as layoutd creates files: 4,096 bytes.
    static let page = 4_096
    /// The bytes of an `updatedAt` the database's clock writes: RFC 3339 UTC to the second,
    /// `2026-11-30T14:05:09Z`, 20.
    static let timestamp = 20

    /// The bytes a version of payload `p` counts: p + 128 for p ≤ 900, else
    /// 4,096 × ⌈p / 4,096⌉ + 4,096. O(1).
    public static func count(payload p: Int) -> Int {
        p <= leafPayload ? p + leafOverhead : (p + page - 1) / page * page + page
    }

    /// ``count(payload:)`` as an SQL expression of the integer expression `p` (integer
    /// division is the same in SQLite and PostgreSQL for non-negative integers).
    static func countSQL(payload p: String) -> String {
        "CASE WHEN \(p) <= \(leafPayload) THEN \(p) + \(leafOverhead) "
            + "ELSE ((\(p) + \(page - 1)) / \(page)) * \(page) + \(page) END"
    }

    /// The SQL dialects layoutd writes.
    enum Dialect {
        case sqlite
        case postgreSQL

        /// The UTF-8 length of the text column `column`: SQLite's `length` of it as a BLOB
        /// (its bytes in the database's encoding, UTF-8 for layoutd's files); PostgreSQL's
        /// `octet_length` of it converted to UTF-8 whatever the server's encoding.
        func utf8Length(_ column: String) -> String {
            switch self {
            case .sqlite: "length(CAST(\(column) AS BLOB))"
            case .postgreSQL: "octet_length(convert_to(\(column), 'UTF8'))"
            }
        }

        /// The length in bytes of the binary column `column` (SQLite BLOB, PostgreSQL `bytea`).
        func byteLength(_ column: String) -> String {
            switch self {
            case .sqlite: "length(\(column))"
            case .postgreSQL: "octet_length(\(column))"
            }
        }

        /// The bytes of the timestamp column `column` as ``StoredGroup/updatedAt`` shows it:
        /// SQLite stores that text (its length); PostgreSQL a `timestamptz`, shown as
        /// ``StoredBytes/timestamp`` bytes.
        func timestampLength(_ column: String) -> String {
            switch self {
            case .sqlite: utf8Length(column)
            case .postgreSQL: "\(StoredBytes.timestamp)"
            }
        }
    }

    /// A query of one row and column: the sum of ``count(payload:)`` over the rows of
    /// `table` matching `condition` (0 for none), each row's payload being the UTF-8
    /// bytes of `textColumns`, the bytes of `binaryColumns` and of `timestampColumn` as shown.
    static func sumSQL(
        _ dialect: Dialect, table: String, textColumns: [String], binaryColumns: [String] = [], timestampColumn: String,
        where condition: String
    ) -> String {
        let payload = (textColumns.map(dialect.utf8Length) + binaryColumns.map(dialect.byteLength)
            + [dialect.timestampLength(timestampColumn)])
            .joined(separator: " + ")
        let sum = "coalesce(sum(\(countSQL(payload: "p"))), 0)"
        return "SELECT \(dialect == .postgreSQL ? sum + "::bigint" : sum) "
            + "FROM (SELECT \(payload) AS p FROM \(table) WHERE \(condition)) AS counted"
    }
}
