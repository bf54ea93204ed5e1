import Foundation
@testable import LayoutStore

/// A fresh directory under the system temp directory, removed when this value is released.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "layoutstore-test-" + UUID().uuidString
        // A failure here is a broken test environment, not input.
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A clock for `updatedAt` that answers a fixed instant.
let fixedClock: @Sendable () -> String = { Timestamp.format(epochSeconds: 1_796_047_509) }

/// Opens a store at `path` with a fixed clock; by default without the cache's write-behind
/// buffer, so that every store is written (and can fail) at once.
func openStore(
    _ path: String, cacheCapacity: Int = 10_000, busyTimeout: Double = 5, maxGroups: Int = 10_000,
    readOnly: Bool = false, cacheWriteBehind: Int = 0, cacheWriteBehindBytes: Int = ResultCache.defaultWriteBehindBytes,
    maxResultBytes: Int = ResultCache.defaultMaxResultBytes, maxCacheBytes: Int = ResultCache.defaultMaxBytes,
    maxGroupVersions: Int = VersionedWritePolicy.defaultMaxVersions, maxDeletedNames: Int? = nil, diskReserveBytes: Int = 0,
    maxGroupBytes: Int = VersionedWritePolicy.defaultMaxBytes,
    report: @escaping (String) -> Void = ResultCache.reportOnStandardError
) throws(StoreError) -> SQLiteStore {
    try SQLiteStore(path: path, cacheCapacity: cacheCapacity, busyTimeout: busyTimeout, maxGroups: maxGroups,
                    readOnly: readOnly, cacheWriteBehind: cacheWriteBehind, cacheWriteBehindBytes: cacheWriteBehindBytes,
                    maxResultBytes: maxResultBytes, maxCacheBytes: maxCacheBytes, maxGroupVersions: maxGroupVersions,
                    maxDeletedNames: maxDeletedNames, maxGroupBytes: maxGroupBytes, diskReserveBytes: diskReserveBytes, now: fixedClock, report: report)
}

/// Lines reported by a store, collected for a test (the store calls it on its queue).
final class ReportedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    func append(_ line: String) { lock.lock(); collected.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return collected }
}

/// Bytes of a UTF-8 string.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
