#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file of allocated bytes kept next to the database (`<db>-reserve`), deleted when the
/// disk is full so that SQLite has room to free space: on a full disk even a `DELETE`
/// needs room, for its frames in the `-wal` file, and so does the write retried after it.
///
/// The bytes are allocated with `posix_fallocate(3)` (not a sparse file), so they are
/// really taken from the file system while the reserve is held. An allocation that fails
/// (the disk has not that much room) is undone: no partial reserve is kept. The store
/// deletes the file when it closes, so it exists only while the database is open.
///
/// Not thread-safe: owned by ``SQLiteStore``'s state and used only on its queue.
public final class DiskReserve {
    /// The reserve file's path.
    let path: String
    /// The bytes the reserve holds when held.
    let bytes: Int

    /// - Parameters:
    ///   - path: where the reserve file lives (`<db>-reserve`).
    ///   - bytes: its size; 0 keeps no reserve.
    init(path: String, bytes: Int) {
        self.path = path
        self.bytes = max(0, bytes)
    }

    /// The default size: 8 MiB (8,388,608): room to checkpoint a `-wal` file at SQLite's
    /// automatic checkpoint size (1,000 pages of 4 KiB, 4 MiB, which may still have to be
    /// copied into the database), then for the frames of the cache's eviction and of one
    /// retried group write of the largest request body (`--max-body-bytes`, 1 MiB).
    public static let defaultBytes = 8 << 20

    /// Whether the file exists with all its bytes allocated.
    var isHeld: Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return Int(info.st_size) >= bytes && Int(info.st_blocks) * 512 >= bytes
    }

    /// Allocates the reserve if it is not held. Best effort: returns whether it is held.
    @discardableResult
    func acquire() -> Bool {
        guard bytes > 0 else { return false }
        if isHeld { return true }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let allocated = posix_fallocate(fd, 0, off_t(bytes)) == 0
        close(fd)
        if !allocated { unlink(path) }
        return allocated
    }

    /// Deletes the reserve file, giving its bytes back to the file system.
    func release() {
        unlink(path)
    }
}

@available(*, unavailable)
extension DiskReserve: Sendable {}
