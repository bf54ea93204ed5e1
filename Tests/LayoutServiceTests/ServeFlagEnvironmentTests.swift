import Testing
@testable import LayoutService

/// An on/off flag's environment variable (`LAYOUTD_QUIET`, `LAYOUTD_ALLOW_ANONYMOUS_WRITES`)
/// is on or off spelled the usual ways, and anything else is bad usage (docs/operations.md,
/// "Flags and limits"). `LAYOUTD_QUIET=no` once turned quiet mode on.
struct ServeFlagEnvironmentTests {
    static let base = ["--db", ":memory:"]

    func logsRequests(_ value: String) throws(UsageError) -> Bool {
        try ServeOptions(parsing: Self.base, environment: ["LAYOUTD_QUIET": value]).logsRequests
    }

    @Test func onAndOffSpellings() throws {
        for on in ["1", "true", "TRUE", "yes", "On"] { #expect(try logsRequests(on) == false, "LAYOUTD_QUIET=\(on)") }
        for off in ["0", "false", "no", "OFF", ""] { #expect(try logsRequests(off) == true, "LAYOUTD_QUIET=\(off)") }
        #expect(try ServeOptions(parsing: Self.base + ["--quiet"], environment: ["LAYOUTD_QUIET": "no"]).logsRequests == false)
    }

    @Test func anythingElseIsBadUsage() {
        for bad in ["maybe", "2", " yes"] {
            do {
                _ = try logsRequests(bad)
                Issue.record("LAYOUTD_QUIET=\(bad) was accepted")
            } catch {
                #expect(error.message == "LAYOUTD_QUIET=\(bad) is neither on (1, true, yes, on) nor off (0, false, no, off, empty)")
            }
        }
    }

    /// `--max-connections` above the open-file limit is lowered to what the limit allows,
    /// with the start-up line (an operator's 94 connections over `ulimit -n 128` waited
    /// with no answer).
    @Test func connectionsFitTheOpenFileLimit() {
        #expect(LayoutdCommand.connectionLimit(maxConnections: 4096, fileLimit: 1_048_576) == (4096, nil))
        #expect(LayoutdCommand.connectionLimit(maxConnections: 4096, fileLimit: nil) == (4096, nil))
        let (lowered, line) = LayoutdCommand.connectionLimit(maxConnections: 4096, fileLimit: 1024)
        #expect(lowered == 896)
        #expect(line == "the open-file limit (ulimit -n) is 1024, so at most 896 connections are served at once, not --max-connections 4096; raise the limit to serve more")
        #expect(LayoutdCommand.connectionLimit(maxConnections: 4096, fileLimit: 100).0 == 1)
    }
}
