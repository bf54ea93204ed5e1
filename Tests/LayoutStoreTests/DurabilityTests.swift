import Foundation
import Testing
@testable import LayoutStore

/// A group write that returned must survive `kill -9` of the process right after.
///
/// The parent test runs this same test binary again as a child process with
/// `LAYOUTSTORE_KILL_CHILD_DB` set; the child's test writes, then sends itself SIGKILL
/// without closing the store (no checkpoint, no cleanup). The parent then reopens the file.
@Suite struct DurabilityTests {
    static let childEnvironmentKey = "LAYOUTSTORE_KILL_CHILD_DB"

    @Test func committedWritesSurviveKill9() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["--testing-library", "swift-testing", "--filter", "childWritesThenKillsItself"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childEnvironmentKey] = path
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)
        // Nothing was checkpointed: the commits are only in the -wal file.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))

        let store = try openStore(path)
        #expect(try store.group(named: "card") == StoredGroup(
            name: "card", version: 2, constraintsJSON: "[\"after\"]", metricsJSON: "{\"m\":2}",
            updatedAt: "2026-11-30T14:05:09Z"))
        #expect(try store.versions(ofGroup: "card")?.map(\.version) == [1, 2])
        #expect(try store.cachedResult(forKey: "k") == bytes("cached body"))
    }

    /// The child half of ``committedWritesSurviveKill9()``; does nothing in a normal run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childEnvironmentKey] != nil,
                   "runs only as the child of committedWritesSurviveKill9"))
    func childWritesThenKillsItself() throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.childEnvironmentKey])
        let store = try openStore(path)
        _ = try store.putGroup(name: "card", constraintsJSON: "[\"before\"]", metricsJSON: "{}",
                               ifMatch: nil, ifNoneMatchAny: false)
        _ = try store.putGroup(name: "card", constraintsJSON: "[\"after\"]", metricsJSON: "{\"m\":2}",
                               ifMatch: 1, ifNoneMatchAny: false)
        try store.storeResult(bytes("cached body"), forKey: "k", groups: [GroupVersion(name: "card", version: 2)])
        kill(getpid(), SIGKILL)
        withExtendedLifetime(store) {}
    }
}
