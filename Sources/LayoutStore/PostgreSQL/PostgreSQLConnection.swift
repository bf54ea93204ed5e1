import CPostgreSQL
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to a PostgreSQL server through libpq (`PGconn*`).
///
/// A `final class` because it owns a C resource: ``close()`` (or `deinit`) calls `PQfinish`.
/// Not thread-safe: libpq allows one thread at a time per connection
/// (<https://www.postgresql.org/docs/15/libpq-threading.html>), so the type is not
/// `Sendable`; ``PostgreSQLConnectionPool`` moves a connection to one thread at a time.
/// Every call blocks the calling thread until the server answers, for at most
/// ``Configuration/timeout`` per round trip: statements are sent with libpq's asynchronous
/// calls (`PQsendQueryParams`, `PQsendPrepare`, `PQsendQueryPrepared`) on a non-blocking
/// connection and their results awaited with `poll` on `PQsocket` against a deadline. A
/// round trip past it asks the server to cancel the statement (`PQcancel`, off the calling
/// thread) and closes the connection, which is never used again in an unknown state
/// (``didTimeOut``); the error is ``PostgreSQLError/Category/unavailable``. Held by
/// `PostgreSQLTimeoutTests`.
///
/// Statements are parameterised only (``query(_:_:)``: `PQsendQueryParams`, text format): values
/// never become part of the SQL text. Every failure goes through one funnel that builds a
/// ``PostgreSQLError`` with the SQLSTATE, and marks it ``PostgreSQLError/Category/unavailable``
/// whenever `PQstatus` says the connection is lost, whatever the code.
final class PostgreSQLConnection {
    /// Where and how to connect.
    struct Configuration: Sendable, Equatable {
        /// A `postgres://` or `postgresql://` URI, or a `key=value` connection string
        /// (<https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING>);
        /// `nil`: libpq's `PG*` environment variables (`PGHOST`, `PGPORT`, `PGDATABASE`,
        /// `PGUSER`, `PGPASSWORD`…) and defaults. Anything the URL leaves out is taken from
        /// those too.
        var url: String?
        /// A database name that replaces the URL's; `nil` keeps it.
        var database: String?
        /// Seconds to wait for a connection to be made, per host address tried (libpq's
        /// `connect_timeout`, which counts 1 as 2; 0 waits forever). Default 5. Replaces
        /// any `connect_timeout` in the URL.
        var connectTimeout: Int
        /// Reported to the server as `application_name` (seen in `pg_stat_activity`),
        /// unless the URL names one. Default `layoutd`.
        var applicationName: String
        /// Seconds one round trip (a statement sent, its result read) may take before the
        /// connection is given up (`--db-timeout`). Default 5; at least 0.001.
        var timeout: Double

        /// Creates a configuration; see the properties for the meaning and defaults.
        init(url: String?, database: String? = nil, connectTimeout: Int = 5, applicationName: String = "layoutd",
             timeout: Double = 5) {
            self.url = url
            self.database = database
            self.connectTimeout = connectTimeout
            self.applicationName = applicationName
            self.timeout = timeout.isFinite ? max(0.001, timeout) : 5
        }

        /// A configuration whose connect and round-trip timeouts both follow `seconds`
        /// (`--db-timeout`): `connect_timeout` is whole seconds, so `seconds` rounded up.
        init(url: String?, timeout seconds: Double) {
            let timeout = seconds.isFinite ? max(0.001, seconds) : 5
            self.init(url: url, connectTimeout: Int(timeout.rounded(.up)), timeout: timeout)
        }

        /// The keyword/value pairs for `PQconnectdbParams`, in order. libpq reads them
        /// from first to last and a later value of a keyword replaces an earlier one; the
        /// first `dbname` is expanded when it is a URI or connection string
        /// (`expand_dbname`), and a second `dbname` is a plain name. So: defaults the URL
        /// may override first, then the URL, then what must hold whatever the URL says.
        ///
        /// TCP keepalives (first probe after 10 s idle, then every 5 s, 3 lost probes) and
        /// `tcp_user_timeout` (30 s of unacknowledged sends) make a silently vanished
        /// server an error instead of a worker blocked forever; a URL may change them.
        var keywordValues: [(String, String)] {
            var pairs: [(String, String)] = [
                ("application_name", applicationName),
                ("keepalives", "1"),
                ("keepalives_idle", "10"),
                ("keepalives_interval", "5"),
                ("keepalives_count", "3"),
                ("tcp_user_timeout", "30000"),
            ]
            if let url { pairs.append(("dbname", url)) }
            if let database { pairs.append(("dbname", database)) }
            pairs.append(("connect_timeout", String(max(0, connectTimeout))))
            // Every text we send and read is UTF-8 (Swift's String).
            pairs.append(("client_encoding", "UTF8"))
            return pairs
        }
    }

    /// The connection handle; `nil` after ``close()``.
    private var handle: OpaquePointer?
    /// The names of the statements ``queryPrepared(_:_:)`` has prepared in this session
    /// (membership only; emptied by ``reset()``).
    private var preparedStatements: Set<String> = []
    /// Seconds a round trip may take (``Configuration/timeout``).
    let timeout: Double
    /// Whether a round trip outlasted ``timeout``, which closed the connection.
    private(set) var didTimeOut = false

    /// Connects (`PQconnectdbParams`), blocking for at most the connect timeout per host
    /// address.
    ///
    /// - Throws: ``PostgreSQLError`` with category ``PostgreSQLError/Category/unavailable``
    ///   when the server cannot be reached or refuses the connection (libpq's message:
    ///   host, port and reason; never the password), or with the server's SQLSTATE
    ///   (28P01 bad password, 3D000 no such database: ``PostgreSQLError/Category/other``).
    init(_ configuration: Configuration) throws(PostgreSQLError) {
        timeout = configuration.timeout
        let pairs = configuration.keywordValues
        let connection = Self.withCStrings(pairs.map { Optional($0.0) }) { keywords in
            Self.withCStrings(pairs.map { Optional($0.1) }) { values in
                PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let connection else {
            throw PostgreSQLError(sqlState: nil, message: "libpq could not allocate a connection", category: .unavailable)
        }
        handle = connection
        guard PQstatus(connection) == CONNECTION_OK else {
            let error = Self.connectionError(connection)
            close()
            throw error
        }
        // Notices (e.g. "relation already exists, skipping") would go to standard error.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        // Sends never block either: a frozen server's full socket buffer is waited on by `poll`.
        PQsetnonblocking(connection, 1)
    }

    deinit {
        close()
    }

    /// Closes the connection (`PQfinish`). Idempotent; later calls throw
    /// ``PostgreSQLError/Category/unavailable``.
    func close() {
        if let handle {
            preparedStatements.removeAll()
            PQfinish(handle)
            self.handle = nil
        }
    }

    // MARK: - Status

    /// Whether the connection is usable as far as libpq knows (`PQstatus` is
    /// `CONNECTION_OK`). A server that closed the connection while it was idle is noticed
    /// only when libpq next reads: see ``checkAlive()``.
    var isConnected: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Reads whatever the server sent while the connection was idle, then answers
    /// ``isConnected``. Does not block.
    ///
    /// A backend that was terminated (`pg_terminate_backend`, a server shutdown or
    /// restart) sends a FATAL error and closes its end. libpq notices the close only on a
    /// read that returns end-of-file after the message was read, so this reads
    /// (`PQconsumeInput`) as long as `poll` says the socket is readable, at most 8 times;
    /// the end-of-file makes `PQstatus` `CONNECTION_BAD`. Without it the status stays
    /// `CONNECTION_OK` until the next statement fails. A healthy idle connection costs one
    /// `poll`. Held by `PostgreSQLConnectionTests.terminatedBackendIsDetected` and
    /// `PostgreSQLConnectionPoolTests.reconnectsATerminatedConnectionOnAcquire`.
    func checkAlive() -> Bool {
        guard let handle else { return false }
        for _ in 0..<8 {
            guard PQstatus(handle) == CONNECTION_OK else { return false }
            let socket = PQsocket(handle)
            guard socket >= 0 else { return false }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { break }
            if PQconsumeInput(handle) == 0 { break }
        }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Closes and reopens the connection with the same parameters (`PQreset`), blocking
    /// for at most the connect timeout.
    /// - Throws: ``PostgreSQLError`` (``PostgreSQLError/Category/unavailable`` when the
    ///   server is still unreachable) if the new connection is not usable.
    func reset() throws(PostgreSQLError) {
        let handle = try requireHandle()
        // Prepared statements belong to the server session, which the reset ends.
        preparedStatements.removeAll()
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw Self.connectionError(handle)
        }
        PQsetnonblocking(handle, 1)
    }

    /// Whether ``close()`` has run (or a round trip timed out, which closes): only a new
    /// connection can serve again.
    var isClosed: Bool { handle == nil }

    /// The server process serving this connection (`PQbackendPID`), e.g. for
    /// `pg_terminate_backend`; 0 when closed.
    var backendPID: Int32 {
        guard let handle else { return 0 }
        return PQbackendPID(handle)
    }

    /// Whether a transaction block is open (`PQtransactionStatus` is `PQTRANS_INTRANS` or
    /// `PQTRANS_INERROR`).
    var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Whether a statement of the open transaction failed, so that everything up to
    /// `ROLLBACK` is refused (`PQtransactionStatus` is `PQTRANS_INERROR`).
    var isInFailedTransaction: Bool {
        guard let handle else { return false }
        return PQtransactionStatus(handle) == PQTRANS_INERROR
    }

    // MARK: - Statements

    /// The most parameters one statement may have: the protocol counts them in 16 bits
    /// (<https://www.postgresql.org/docs/15/protocol-message-formats.html>, `Bind`).
    static let maxParameters = 65_535

    /// Runs one statement with parameters `$1`, `$2`… (`PQexecParams`, text format in
    /// and out) and returns its rows.
    ///
    /// - Parameters:
    ///   - sql: one SQL statement, our own text (never request data).
    ///   - parameters: the values of `$1`, `$2`…, in order; see ``PostgreSQLBindable``.
    /// - Throws: ``PostgreSQLError``: the server's error with its SQLSTATE; category
    ///   ``PostgreSQLError/Category/unavailable`` when the connection is lost (checked with
    ///   `PQstatus` after the call); ``PostgreSQLError/Category/other`` without a SQLSTATE
    ///   for more than ``maxParameters`` parameters, and with SQLSTATE 22021
    ///   (`character_not_in_repertoire`, what the server says of a NUL byte) for a
    ///   parameter containing a NUL byte, neither of which is sent.
    @discardableResult
    func query(_ sql: String, _ parameters: [any PostgreSQLBindable] = []) throws(PostgreSQLError) -> PostgreSQLResult {
        let handle = try requireHandle()
        guard parameters.count <= Self.maxParameters else {
            throw PostgreSQLError(sqlState: nil, message: "\(parameters.count) parameters; at most \(Self.maxParameters)",
                                  category: .other, sql: sql)
        }
        let texts = parameters.map(\.postgreSQLText)
        for (index, text) in texts.enumerated() where text?.utf8.contains(0) == true {
            throw PostgreSQLError(sqlState: "22021", message: "parameter $\(index + 1) contains a NUL byte, which PostgreSQL text cannot hold",
                                  category: .other, sql: sql)
        }
        let result = try roundTrip(handle, sql: sql) {
            Self.withCStrings(texts) { values in
                PQsendQueryParams(handle, sql, Int32(texts.count), nil, values, nil, nil, 0)
            }
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return Self.copy(result)
        default:
            throw Self.resultError(result, on: handle, sql: sql)
        }
    }

    /// Runs one statement as ``query(_:_:)`` does, prepared once per session: the first
    /// call on a connection sends it with `PQprepare` (parsed and planned once, under a
    /// name derived from the text), every call runs it with `PQexecPrepared`. For the
    /// statements run on every request (``PostgreSQLGroupStore/currentVersions(of:)``):
    /// an unnamed statement is parsed and planned by the server each time, about three
    /// times the server's CPU of a prepared one for a one-row lookup. A statement the
    /// server no longer knows (SQLSTATE 26000) is prepared again once.
    ///
    /// - Throws: as ``query(_:_:)``.
    @discardableResult
    func queryPrepared(_ sql: String, _ parameters: [any PostgreSQLBindable] = []) throws(PostgreSQLError) -> PostgreSQLResult {
        let handle = try requireHandle()
        guard parameters.count <= Self.maxParameters else {
            throw PostgreSQLError(sqlState: nil, message: "\(parameters.count) parameters; at most \(Self.maxParameters)",
                                  category: .other, sql: sql)
        }
        let texts = parameters.map(\.postgreSQLText)
        for (index, text) in texts.enumerated() where text?.utf8.contains(0) == true {
            throw PostgreSQLError(sqlState: "22021", message: "parameter $\(index + 1) contains a NUL byte, which PostgreSQL text cannot hold",
                                  category: .other, sql: sql)
        }
        let name = Self.statementName(sql)
        for attempt in 0..<2 {
            if !preparedStatements.contains(name) {
                let prepared = try roundTrip(handle, sql: sql) { PQsendPrepare(handle, name, sql, Int32(texts.count), nil) }
                defer { PQclear(prepared) }
                guard PQresultStatus(prepared) == PGRES_COMMAND_OK else {
                    throw Self.resultError(prepared, on: handle, sql: sql)
                }
                preparedStatements.insert(name)
            }
            let result = try roundTrip(handle, sql: sql) {
                Self.withCStrings(texts) { values in
                    PQsendQueryPrepared(handle, name, Int32(texts.count), values, nil, nil, 0)
                }
            }
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                return Self.copy(result)
            default:
                let error = Self.resultError(result, on: handle, sql: sql)
                guard error.sqlState == "26000", attempt == 0 else { throw error }
                preparedStatements.remove(name)
            }
        }
        preconditionFailure("the second attempt returns or throws")
    }

    /// The name a statement is prepared under: `layoutd_` and the FNV-1a 64-bit hash of
    /// its text in hex, the same in every session and process.
    static func statementName(_ sql: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "layoutd_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Runs one statement without parameters whose rows, if any, are not needed (DDL,
    /// `BEGIN`, `COMMIT`, `SET`).
    /// - Throws: as ``query(_:_:)``.
    func execute(_ sql: String) throws(PostgreSQLError) {
        try query(sql)
    }

    // MARK: - Transactions

    /// The isolation level of a transaction
    /// (<https://www.postgresql.org/docs/15/transaction-iso.html>).
    enum IsolationLevel: Sendable {
        /// Each statement sees what was committed before it started (the default).
        case readCommitted
        /// Every statement sees the snapshot taken at the first one.
        case repeatableRead
        /// As if the transactions ran one after another; may fail with 40001.
        case serializable

        var beginStatement: String {
            switch self {
            case .readCommitted: "BEGIN ISOLATION LEVEL READ COMMITTED"
            case .repeatableRead: "BEGIN ISOLATION LEVEL REPEATABLE READ"
            case .serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE"
            }
        }
    }

    /// How many times ``transaction(isolation:maxAttempts:_:)`` runs a transaction by
    /// default before giving up on conflicts: 5.
    static let defaultTransactionAttempts = 5

    /// Runs `body` inside `BEGIN … COMMIT`, and runs it again when it loses a race.
    ///
    /// Commits when `body` returns; rolls back when it throws, when `COMMIT` fails, or when
    /// a statement inside failed (a failed transaction cannot commit: PostgreSQL would
    /// answer `COMMIT` with a silent `ROLLBACK`), and rethrows the first error. When that
    /// error is ``PostgreSQLError/Category/conflict`` (40001 `serialization_failure`, 40P01
    /// `deadlock_detected`: PostgreSQL has rolled the transaction back, so nothing of it
    /// happened) and attempts remain, it runs `body` again from `BEGIN`. `body` must
    /// therefore have no effect outside the database that a second run would repeat.
    /// Not reentrant: don't nest.
    ///
    /// - Parameters:
    ///   - isolation: the isolation level; default ``IsolationLevel/readCommitted``.
    ///   - maxAttempts: the most runs, at least 1; default ``defaultTransactionAttempts``.
    /// - Throws: the error `body` threw or `BEGIN`/`COMMIT` failed with, after the last
    ///   attempt for a conflict. Held by `PostgreSQLConnectionTests.transactionRetriesSerializationFailure`.
    func transaction<T>(
        isolation: IsolationLevel = .readCommitted, maxAttempts: Int = defaultTransactionAttempts,
        _ body: () throws(PostgreSQLError) -> T
    ) throws(PostgreSQLError) -> T {
        var attempt = 1
        while true {
            do {
                return try transactionOnce(isolation: isolation, body)
            } catch {
                guard error.isRetryable, attempt < maxAttempts, isConnected else { throw error }
                attempt += 1
            }
        }
    }

    private func transactionOnce<T>(
        isolation: IsolationLevel, _ body: () throws(PostgreSQLError) -> T
    ) throws(PostgreSQLError) -> T {
        try execute(isolation.beginStatement)
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfActive()
            throw error
        }
        if isInFailedTransaction {
            rollbackIfActive()
            throw PostgreSQLError(sqlState: "25P02", message: "a statement of the transaction failed; it was rolled back")
        }
        do {
            try execute("COMMIT")
        } catch {
            rollbackIfActive()
            throw error
        }
        return result
    }

    /// Rolls back an open transaction, if any. A failing `ROLLBACK` leaves nothing better
    /// to do (the first error is what the caller hears), and a lost connection has
    /// rolled back on the server already.
    func rollbackIfActive() {
        guard isConnected, isInTransaction else { return }
        try? execute("ROLLBACK")
    }

    // MARK: - Bounded round trips

    /// Sends one command with `send` (a `PQsend…` call on `handle`) and returns its result,
    /// waiting at most ``timeout`` in all: the send is flushed (`PQflush`) and the answer
    /// read (`PQconsumeInput` until `PQisBusy` is false, then `PQgetResult` until `NULL`)
    /// while `poll` on `PQsocket` says the socket is ready before the deadline. Of several
    /// results (one statement has one) the first failed one, else the last, is returned,
    /// as `PQexec` does; the caller clears it.
    ///
    /// - Throws: ``PostgreSQLError/Category/unavailable`` when the deadline passes
    ///   (``abandon(sql:)``: the statement is cancelled and the connection closed), or as
    ///   ``connectionError(_:sql:)`` when libpq cannot send or read.
    private func roundTrip(_ handle: OpaquePointer, sql: String, _ send: () -> Int32) throws(PostgreSQLError) -> OpaquePointer {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(timeout * 1_000_000_000)
        guard send() == 1 else { throw Self.connectionError(handle, sql: sql) }
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            guard flushed == 1 else { throw Self.connectionError(handle, sql: sql) }
            // Read as well while writing: the server may answer before it has read everything.
            let ready = try wait(handle, for: Int16(POLLIN | POLLOUT), until: deadline, sql: sql)
            if ready & Int16(POLLIN) != 0, PQconsumeInput(handle) == 0 { throw Self.connectionError(handle, sql: sql) }
        }
        var kept: OpaquePointer?
        while true {
            while PQisBusy(handle) == 1 {
                do {
                    _ = try wait(handle, for: Int16(POLLIN), until: deadline, sql: sql)
                } catch {
                    PQclear(kept)
                    throw error
                }
                if PQconsumeInput(handle) == 0 {
                    PQclear(kept)
                    throw Self.connectionError(handle, sql: sql)
                }
            }
            guard let result = PQgetResult(handle) else { break }
            if let previous = kept, Self.isFailure(previous) {
                PQclear(result)
            } else {
                PQclear(kept)
                kept = result
            }
        }
        guard let kept else {
            // No result at all: libpq lost the connection or ran out of memory.
            throw Self.connectionError(handle, sql: sql)
        }
        return kept
    }

    private static func isFailure(_ result: OpaquePointer) -> Bool {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: false
        default: true
        }
    }

    /// Waits until `PQsocket` is ready for `events` or the deadline (monotonic nanoseconds)
    /// passes; returns the ready events.
    /// - Throws: the timeout (``abandon(sql:)``), or ``connectionError(_:sql:)`` without a socket.
    private func wait(_ handle: OpaquePointer, for events: Int16, until deadline: UInt64, sql: String) throws(PostgreSQLError) -> Int16 {
        while true {
            let socket = PQsocket(handle)
            guard socket >= 0 else { throw Self.connectionError(handle, sql: sql) }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw abandon(sql: sql) }
            // Rounded up, so a wait never ends before the deadline and spins.
            let milliseconds = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let count = poll(&descriptor, 1, milliseconds)
            if count > 0 { return descriptor.revents }
            if count < 0 && errno != EINTR { throw Self.connectionError(handle, sql: sql) }
        }
    }

    /// Gives the connection up after a round trip outlasted ``timeout``: asks the server to
    /// cancel the statement (``PostgreSQLCancelling``), closes the connection (its state
    /// is unknown: a result may still be coming) and returns the error to throw.
    private func abandon(sql: String) -> PostgreSQLError {
        if let handle, let cancel = PQgetCancel(handle) {
            PostgreSQLCancelling.send(cancel)
        }
        didTimeOut = true
        close()
        return PostgreSQLError(sqlState: nil, message: "PostgreSQL did not answer within \(Self.secondsText(timeout)) s; the connection was closed",
                               category: .unavailable, sql: sql)
    }

    /// `seconds` as the flags write it: `5`, `0.5`.
    static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    // MARK: - The funnel

    private func requireHandle() throws(PostgreSQLError) -> OpaquePointer {
        guard let handle else {
            throw PostgreSQLError(sqlState: nil, message: "the connection is closed", category: .unavailable)
        }
        return handle
    }

    /// The error of a failed result: its SQLSTATE and primary message; unavailable
    /// whenever the connection is now `CONNECTION_BAD`.
    private static func resultError(_ result: OpaquePointer, on handle: OpaquePointer, sql: String?) -> PostgreSQLError {
        let sqlState = field(result, layoutd_pg_diag_sqlstate())
        let message = field(result, layoutd_pg_diag_message_primary())
            ?? trimmed(PQresultErrorMessage(result))
            ?? "unknown error"
        let lost = PQstatus(handle) != CONNECTION_OK
        return PostgreSQLError(sqlState: sqlState, message: message, category: lost ? .unavailable : nil, sql: sql)
    }

    /// The error of a connection that failed or could not send a command
    /// (`PQerrorMessage`): unavailable when the connection is `CONNECTION_BAD`.
    private static func connectionError(_ handle: OpaquePointer, sql: String? = nil) -> PostgreSQLError {
        let message = trimmed(PQerrorMessage(handle)) ?? "connection failed"
        let lost = PQstatus(handle) != CONNECTION_OK
        return PostgreSQLError(sqlState: nil, message: message, category: lost ? .unavailable : .other, sql: sql)
    }

    private static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        guard let text = PQresultErrorField(result, code) else { return nil }
        return String(cString: text)
    }

    /// libpq's messages end in a newline (and may hold several lines); the lines, joined
    /// by "; ", or `nil` when empty.
    private static func trimmed(_ text: UnsafePointer<CChar>?) -> String? {
        guard let text else { return nil }
        let lines = String(cString: text).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters() }
        let joined = lines.filter { !$0.isEmpty }.joined(separator: "; ")
        return joined.isEmpty ? nil : joined
    }

    /// Copies every value of `result` out as text.
    /// - Complexity: O(rows × columns).
    private static func copy(_ result: OpaquePointer) -> PostgreSQLResult {
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        var names: [String] = []
        names.reserveCapacity(columnCount)
        for column in 0..<columnCount {
            names.append(PQfname(result, Int32(column)).map { String(cString: $0) } ?? "")
        }
        var rows: [PostgreSQLRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                    values.append(nil)
                } else {
                    // Text format: NUL-terminated, and PostgreSQL text holds no NUL byte.
                    values.append(String(cString: PQgetvalue(result, Int32(row), Int32(column))))
                }
            }
            rows.append(PostgreSQLRow(columnNames: names, values: values))
        }
        let tuples = PQcmdTuples(result).map { String(cString: $0) } ?? ""
        return PostgreSQLResult(columnNames: names, rows: rows, affectedRows: Int(tuples))
    }

    /// Runs `body` with a C array of C strings (`NULL` for `nil`) followed by a
    /// terminating `NULL` (`PQconnectdbParams` reads its arrays up to one), valid only
    /// during the call. The strings are copied, NUL-terminated, into one buffer.
    private static func withCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        var buffer: [CChar] = []
        buffer.reserveCapacity(strings.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 1 })
        var offsets: [Int?] = []
        offsets.reserveCapacity(strings.count)
        for string in strings {
            guard let string else {
                offsets.append(nil)
                continue
            }
            offsets.append(buffer.count)
            buffer.append(contentsOf: string.utf8.map { CChar(bitPattern: $0) })
            buffer.append(0)
        }
        return buffer.withUnsafeBufferPointer { bytes in
            // An offset exists only for a string, whose bytes (at least its NUL) are in
            // the buffer, so the base address is there whenever it is used.
            let pointers: [UnsafePointer<CChar>?] = offsets.map { $0.map { bytes.baseAddress! + $0 } } + [nil]
            return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }
}

private extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingCharacters() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}

@available(*, unavailable)
extension PostgreSQLConnection: Sendable {}

/// Cancel requests of timed-out round trips, sent off the thread that gave up.
///
/// `PQcancel` opens a connection of its own to the server and waits for the server to
/// close it, with no timeout of its own in libpq 15: against a frozen server it waits
/// until the server runs again. So each is sent on a Dispatch thread, and at most one at a
/// time: a timed-out round trip while one is pending sends none (its connection is closed
/// anyway, so the server ends that backend when it next reads or writes it).
enum PostgreSQLCancelling {
    /// A `PGcancel*`: `PQcancel` may use it from any thread, apart from its connection
    /// (<https://www.postgresql.org/docs/15/libpq-cancel.html>), and only the one
    /// Dispatch block below uses and frees it.
    private struct Request: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Whether a cancel request is being sent.
    private static let pending = Atomic<Bool>(false)

    /// Sends `cancel` (from `PQgetCancel`) on a Dispatch thread and frees it; frees it
    /// unsent while another is pending.
    static func send(_ cancel: OpaquePointer) {
        guard pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            PQfreeCancel(cancel)
            return
        }
        let request = Request(pointer: cancel)
        DispatchQueue.global(qos: .utility).async {
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(request.pointer, &message, Int32(message.count))
            PQfreeCancel(request.pointer)
            pending.store(false, ordering: .releasing)
        }
    }
}
