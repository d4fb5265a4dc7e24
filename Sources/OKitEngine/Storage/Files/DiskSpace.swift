import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How much room is left on the disk of a path: a failure that the system reports only as an I/O error (SQLite's
/// "disk I/O error" when it cannot make its `-shm`) is named as a full disk when there is next to none.
public enum DiskSpace {
    /// Less than this many bytes free counts as a full disk (SQLite alone needs 32 KiB for a `-shm`, more for a
    /// `-wal`).
    public static let nearlyFull: Int64 = 1 << 20

    /// The bytes an unprivileged writer may still use on the file system holding `path` (or, when `path` does
    /// not exist, its nearest existing folder); nil when that cannot be told.
    public static func available(at path: String) -> Int64? {
        var p = path
        var s = statvfs()
        while statvfs(p, &s) != 0 {
            let up = (p as NSString).deletingLastPathComponent
            if up == p || up.isEmpty { return nil }
            p = up
        }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }

    /// True when the disk of `path` has (next to) no room left.
    public static func isFull(at path: String) -> Bool {
        guard let free = available(at: path) else { return false }
        return free < nearlyFull
    }
}
