import Foundation
import GRDB
import OKitEngine

/// A database that SQLite cannot read as one (not a database, a damaged header or page) is a damaged model file,
/// as a model file that does not decode: `StorageError` kind `.corrupt`, whose remedy is to fix it or to move it
/// aside with `--recover`. Other failures (permissions, a full disk) stay `.io`: moving the file aside would not help.
enum SQLiteDamage {
    static let magic = Array("SQLite format 3\0".utf8)

    /// Checks the database's header before SQLite opens it: SQLite, given a file that is not a database beside a
    /// `-wal`, deletes the `-wal` and `-shm` when it closes, and those must go aside with the file untouched.
    static func checkHeader(_ path: String) throws {
        guard let h = FileHandle(forReadingAtPath: path) else { return }   // opening says why
        defer { try? h.close() }
        let head = [UInt8]((try? h.read(upToCount: 100)) ?? Data())
        if head.isEmpty { return }   // an empty database (its -wal may hold everything)
        guard head.count == 100, Array(head.prefix(16)) == magic else {
            throw StorageError(kind: .corrupt, path: path, message: "not a SQLite database (its first bytes are not the \"SQLite format 3\" header)")
        }
        let pageSize = Int(head[16]) << 8 | Int(head[17])
        guard pageSize == 1 || (pageSize >= 512 && pageSize & (pageSize - 1) == 0) else {
            throw StorageError(kind: .corrupt, path: path, message: "not a readable SQLite database (its header has a page size of \(pageSize))")
        }
    }

    /// Whether SQLite said the file is not a database or is damaged.
    static func isDamage(_ error: Error) -> Bool {
        guard let e = error as? DatabaseError else { return false }
        return e.resultCode == .SQLITE_NOTADB || e.resultCode == .SQLITE_CORRUPT
    }

    /// The error of reading (`doing`: "read", "open") the database at `path`.
    static func error(_ error: Error, doing: String, path: String, isFull: (String) -> Bool = DiskSpace.isFull(at:)) -> StorageError {
        if isDamage(error), let e = error as? DatabaseError {
            return StorageError(kind: .corrupt, path: path, message: "not a readable SQLite database (\(e.message ?? "SQLite \(e.resultCode.rawValue)"))")
        }
        return StorageError(kind: .io, path: path, message: "cannot \(doing) the database: \(reason(error, path: path, isFull: isFull))" + (doing == "read" ? "; it is left as it is" : ""))
    }

    /// Whether another connection's lock outlasted the busy timeout (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    static func isBusy(_ error: Error) -> Bool {
        guard let e = error as? DatabaseError else { return false }
        return e.resultCode == .SQLITE_BUSY || e.resultCode == .SQLITE_LOCKED
    }

    /// A store that met another program's write lock for longer than it waits: nothing was written, and the
    /// changes stay in memory for the next store (the model stays changed).
    static func busy(waited: TimeInterval) -> String {
        let seconds = waited == waited.rounded() ? String(Int(waited)) : String(waited)
        return "the database is busy: another program has held a write lock on it for over \(seconds) second\(waited == 1 ? "" : "s"); nothing was written and nothing is lost: the changes are stored at the next store (end the other program's transaction)"
    }

    /// The words for a full disk: SQLite says only "disk I/O error" when it cannot make its `-shm` or `-wal`.
    static let fullDisk = "no space left on the disk (SQLite needs room for its -wal and -shm files); free some space"

    /// Why SQLite failed, in SQLite's words — or, for `SQLITE_FULL` and for an I/O error on a disk with (next to) no
    /// room left (`DiskSpace.isFull`), as a full disk.
    static func reason(_ error: Error, path: String, isFull: (String) -> Bool = DiskSpace.isFull(at:)) -> String {
        if let e = error as? DatabaseError,
           e.resultCode == .SQLITE_FULL || (e.resultCode == .SQLITE_IOERR && isFull((path as NSString).deletingLastPathComponent)) {
            return "\(fullDisk) (SQLite \(e.extendedResultCode.rawValue))"
        }
        return SQLiteStorage.text(error)
    }
}
