import Foundation
import Synchronization
import Testing
@testable import LayoutStore

/// Storage faults: corrupt files, read-only databases, locks held by others,
/// a full disk.
@Suite struct FaultTests {
    // MARK: - A file deleted or renamed under the process

    /// Writes to a database file deleted (or renamed) while the store is open would be
    /// acknowledged and lost when the process ends: they are refused, `isReachable` (for
    /// `/readyz`) is false, and reads still answer. A fresh user's server took a PUT after
    /// `rm layoutd.db*` and had no group after the restart.
    @Test(arguments: [false, true])
    func aDeletedDatabaseFileRefusesWritesAndIsNotReady(renamed: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let reports = Mutex<[String]>([])
        let store = try openStore(path, report: { line in reports.withLock { $0.append(line) } })
        defer { store.close() }
        _ = try store.putGroup(name: "kept", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(!store.databaseFileHasMoved)
        #expect(store.isReachable())
        if renamed {
            try FileManager.default.moveItem(atPath: path, toPath: directory.file("elsewhere.sqlite"))
        } else {
            try FileManager.default.removeItem(atPath: path)
        }
        #expect(store.databaseFileHasMoved)
        #expect(!store.isReachable())
        #expect(throws: StoreError.fileMoved) {
            _ = try store.putGroup(name: "lost", constraintsJSON: "[]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        }
        #expect(throws: StoreError.fileMoved) {
            _ = try store.deleteGroup(named: "kept", ifMatch: nil, ifNoneMatchAny: false)
        }
        // Said once on stderr, whatever the writes refused.
        #expect(reports.withLock { $0 } == ["layoutd: " + SQLiteStore.movedFileMessage + "; group and font writes are refused with 503"])
        #expect(try store.group(named: "kept")?.version == 1)
        #expect(try store.group(named: "lost") == nil)
    }

    // MARK: - Corruption

    @Test func garbageFileIsCorruptAndLeftUnchanged() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.corrupt("\(path): file is not a database")) {
            _ = try openStore(path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func damagedPageFailsQuickCheckAndFileIsLeftUnchanged() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        do {
            let store = try openStore(path)
            for index in 0..<50 {
                _ = try store.putGroup(name: "g\(index)", constraintsJSON: String(repeating: "x", count: 500),
                                       metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
            }
            store.close()  // the last connection checkpoints the WAL into the file
        }
        var contents = try Data(contentsOf: URL(fileURLWithPath: path))
        let pageSize = 4096
        #expect(contents.count >= 4 * pageSize)
        // Keep page 1 (header and schema); overwrite every other page with garbage.
        for offset in pageSize..<contents.count {
            contents[offset] = UInt8(truncatingIfNeeded: offset &* 131 &+ 7)
        }
        try contents.write(to: URL(fileURLWithPath: path))
        var thrown: StoreError?
        do {
            _ = try openStore(path)
        } catch {
            thrown = error
        }
        guard case .corrupt(let message) = thrown else {
            Issue.record("expected .corrupt, got \(String(describing: thrown))")
            return
        }
        #expect(message.hasPrefix("\(path): "))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
    }

    // MARK: - Read-only

    /// As root, file permissions don't stop writes, so this opens with
    /// `SQLITE_OPEN_READONLY` explicitly (`readOnly: true`): the same state SQLite falls back
    /// to for a write-protected file.
    @Test func readOnlyDatabaseServesReadsAndRefusesWrites() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let stored: StoredGroup
        do {
            let store = try openStore(path)
            stored = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}",
                                        ifMatch: nil, ifNoneMatchAny: false).group
            try store.storeResult(bytes("body"), forKey: "k", groups: [GroupVersion(name: "card", version: 1)])
            store.close()
        }
        let store = try openStore(path, readOnly: true)
        #expect(store.isReadOnly)
        #expect(store.isReachable())
        #expect(try store.group(named: "card") == stored)
        #expect(try store.groups().map(\.name) == ["card"])
        #expect(try store.cachedResult(forKey: "k") == bytes("body"))
        #expect(throws: StoreError.readOnly) {
            _ = try store.putGroup(name: "card", constraintsJSON: "[2]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        }
        #expect(throws: StoreError.readOnly) { _ = try store.deleteGroup(named: "card") }
        #expect(throws: StoreError.readOnly) { try store.storeResult(bytes("x"), forKey: "k2", groups: []) }
        #expect(throws: StoreError.readOnly) { try store.clearCache() }
        // SQLite's own answer maps to the same error.
        #expect(throws: StoreError.readOnly) {
            try store.withConnection { (connection) throws(StoreError) in
                try mapped { () throws(SQLiteError) in try connection.execute("DELETE FROM group_versions") }
            }
        }
        #expect(try store.group(named: "card") == stored)
    }

    @Test func readOnlyOpenOfMissingFileCannotOpen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("missing.sqlite")
        var thrown: StoreError?
        do { _ = try openStore(path, readOnly: true) } catch { thrown = error }
        guard case .cannotOpen(let message) = thrown else {
            Issue.record("expected .cannotOpen, got \(String(describing: thrown))")
            return
        }
        #expect(message.hasPrefix("\(path): "))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The real permission path; only meaningful when not running as root.
    @Test(.enabled(if: geteuid() != 0, "root ignores file permissions"), arguments: [true, false])
    func writeProtectedFileOpensReadOnly(directoryIsWritable: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        do {
            let store = try openStore(path)
            _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
            store.close()
        }
        #expect(chmod(path, 0o444) == 0)
        #expect(chmod(directory.path, directoryIsWritable ? 0o755 : 0o555) == 0)
        defer { _ = chmod(directory.path, 0o755) }
        let store = try openStore(path)
        #expect(store.isReadOnly)
        #expect(try store.group(named: "card")?.constraintsJSON == "[1]")
        #expect(throws: StoreError.readOnly) {
            _ = try store.putGroup(name: "card", constraintsJSON: "[2]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        }
    }

    // MARK: - Locked

    @Test func writeLockHeldElsewhereIsBusyAndReadsStillWork() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let store = try openStore(path, busyTimeout: 0.05)
        _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        try store.storeResult(bytes("body"), forKey: "k", groups: [])

        let other = try SQLiteConnection(path: path, readOnly: false, busyTimeout: 0)
        try other.execute("BEGIN EXCLUSIVE")
        try other.execute("INSERT INTO group_names (name, last_version, current_version) VALUES ('x', 1, NULL)")

        #expect(throws: StoreError.busy) {
            _ = try store.putGroup(name: "card", constraintsJSON: "[2]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        }
        #expect(throws: StoreError.busy) { try store.storeResult(bytes("b2"), forKey: "k2", groups: []) }
        #expect(throws: StoreError.busy) { _ = try store.deleteGroup(named: "card") }
        // WAL: readers are not blocked by the writer, and see only committed data.
        #expect(try store.group(named: "card")?.constraintsJSON == "[1]")
        #expect(try store.cachedResult(forKey: "k") == bytes("body"))

        try other.execute("ROLLBACK")
        other.close()
        // The failed attempt consumed no version.
        let put = try store.putGroup(name: "card", constraintsJSON: "[2]", metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false)
        #expect(put.group.version == 2)
        #expect(try store.storeResult(bytes("b2"), forKey: "k2", groups: []))
        #expect(try store.cacheCount() == 2)
    }

    // MARK: - Full

    /// `PRAGMA max_page_count` caps the database size, so writes past it fail with
    /// `SQLITE_FULL` exactly as a full disk does. The cache is emptied to make room, which
    /// is not enough here: the group write answers `.full` after its one retry.
    @Test func fullDatabaseRefusesWritesAndKeepsOldData() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let reported = ReportedLines()
        let store = try openStore(path, cacheCapacity: 10, report: reported.append)
        _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        try store.storeResult(bytes("body"), forKey: "k", groups: [GroupVersion(name: "card", version: 1)])
        try capPages(store)
        let big = String(repeating: "y", count: 64 * 1024)
        #expect(throws: StoreError.full) {
            _ = try store.putGroup(name: "card", constraintsJSON: big, metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        }
        // Both attempts met the full disk; the cache was emptied between them.
        #expect(store.diskFullCount == 2)
        #expect(try store.cachedResult(forKey: "k") == nil)
        // A cache write on the full disk is dropped, not thrown.
        #expect(try store.storeResult(Array(big.utf8), forKey: "k2", groups: []) == false)
        #expect(store.diskFullCount == 3)
        #expect(try store.cachedResult(forKey: "k2") == nil)
        // Reported once for the whole run of full-disk writes.
        #expect(reported.lines.count == 1)
        #expect(reported.lines.first?.contains("SQLITE_FULL") == true)
        // Old data intact: the group and its history.
        #expect(try store.group(named: "card")?.constraintsJSON == "[1]")
        #expect(try store.versions(ofGroup: "card")?.map(\.version) == [1])

        try store.withConnection { (connection) throws(StoreError) in
            try mapped { () throws(SQLiteError) in _ = try connection.scalarInt("PRAGMA max_page_count = 1000000") }
        }
        let put = try store.putGroup(name: "card", constraintsJSON: big, metricsJSON: "{}", ifMatch: 1, ifNoneMatchAny: false)
        #expect(put.group.version == 2)
        store.close()
        let reopened = try openStore(path)
        #expect(try reopened.group(named: "card")?.constraintsJSON == big)
    }

    /// A full disk shrinks the cache instead of blocking group writes: the write that met
    /// it frees the cached results' pages and succeeds on its retry.
    @Test func groupWriteOnFullDiskFreesTheCacheAndSucceeds() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("db.sqlite")
        let reported = ReportedLines()
        let store = try openStore(path, diskReserveBytes: 65_536, report: reported.append)
        let reserve = DiskReserve(path: path + "-reserve", bytes: 65_536)
        #expect(reserve.isHeld)
        #expect(try FileManager.default.attributesOfItem(atPath: reserve.path)[.size] as? Int == 65_536)
        _ = try store.putGroup(name: "card", constraintsJSON: "[1]", metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        for index in 0..<8 {
            try store.storeResult([UInt8](repeating: UInt8(index), count: 32 * 1024), forKey: "k\(index)", groups: [])
        }
        #expect(try store.cacheBytes() == 8 * 32 * 1024)
        try capPages(store)
        let big = String(repeating: "y", count: 64 * 1024)
        let put = try store.putGroup(name: "card", constraintsJSON: big, metricsJSON: "{}", ifMatch: nil, ifNoneMatchAny: false)
        #expect(put.group.version == 2)
        #expect(try store.group(named: "card")?.constraintsJSON == big)
        #expect(store.diskFullCount == 1)
        #expect(try store.cacheCount() == 0)
        #expect(try store.cacheBytes() == 0)
        #expect(reported.lines.count == 1)
        // Given back for the retry, allocated again after it.
        #expect(reserve.isHeld)
        // The write succeeded, so a later full disk is reported again.
        try capPages(store)
        #expect(try store.storeResult([UInt8](repeating: 9, count: 256 * 1024), forKey: "huge", groups: []) == false)
        #expect(store.diskFullCount == 2)
        #expect(reported.lines.count == 2)
    }

    /// Caps the database at its current page count (`PRAGMA max_page_count`).
    private func capPages(_ store: SQLiteStore) throws {
        try store.withConnection { (connection) throws(StoreError) in
            try mapped { () throws(SQLiteError) in
                let pages = try connection.scalarInt("PRAGMA page_count")
                _ = try connection.scalarInt("PRAGMA max_page_count = \(pages)")
            }
        }
    }
}
