/// Where `--db` (or `LAYOUTD_DB`) says the groups live: a PostgreSQL database or a SQLite
/// file. Used by `serve` and `groups export|import`. Held by `StoreLocationTests`.
enum StoreLocation: Equatable, Sendable {
    /// PostgreSQL through libpq. `url` is a `postgres://` or `postgresql://` URI passed
    /// to libpq as given: whatever it leaves out (user, password, host, port, database) libpq
    /// takes from its `PG*` environment variables (`PGHOST`, `PGPORT`, `PGUSER`,
    /// `PGPASSWORD`, `PGDATABASE`, …) and then its defaults. `nil` (`--db postgres:` or
    /// `postgresql:`) leaves everything to those variables.
    /// (<https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING>,
    /// <https://www.postgresql.org/docs/15/libpq-envars.html>.)
    case postgreSQL(url: String?)
    /// A SQLite database file, or `:memory:`.
    case sqlite(path: String)

    /// The location `value` names: a value starting with `postgres://` or `postgresql://`
    /// (libpq's two URI schemes, matched case-sensitively as libpq does), or exactly
    /// `postgres:` or `postgresql:`, is PostgreSQL; anything else is a SQLite path.
    init(_ value: String) {
        if value == "postgres:" || value == "postgresql:" {
            self = .postgreSQL(url: nil)
        } else if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
            self = .postgreSQL(url: value)
        } else {
            self = .sqlite(path: value)
        }
    }

    /// What start-up and error lines call the location: the SQLite path, or the URL with
    /// its password replaced by `***` (a URL's `user:password@`), or `PostgreSQL (PG*
    /// environment variables)` for `postgres:`.
    var displayName: String {
        switch self {
        case .sqlite(let path):
            return path
        case .postgreSQL(nil):
            return "PostgreSQL (PG* environment variables)"
        case .postgreSQL(let url?):
            return Self.redactingPassword(url)
        }
    }

    /// `url` with the password of its `user:password@` part, if any, replaced by `***`;
    /// a `password=` query parameter's value too.
    static func redactingPassword(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        // The authority ends at the first '/', '?' or '#'; the userinfo at its last '@'.
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var result = String(url[..<schemeEnd.upperBound])
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            result += authority[..<colon] + ":***" + authority[at...]
        } else {
            result += authority
        }
        var tail = String(rest[authorityEnd...])
        if let query = tail.firstIndex(of: "?") {
            let parameters = tail[tail.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
                pair.hasPrefix("password=") ? "password=***" : String(pair)
            }
            tail = String(tail[...query]) + parameters.joined(separator: "&")
        }
        return result + tail
    }
}
