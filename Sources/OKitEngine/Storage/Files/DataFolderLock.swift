import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock on a data folder: `flock` on `<data>/okit/lock`, so a second process fails at start and a
/// crashed process never leaves the folder locked. A process-wide registry refuses a second lock in the same
/// process first, with a message that says so (flock alone would refuse it as if another process held it).
/// A lock held on a file that another program removed holds nothing: `verify` finds that out before a store.
final class DataFolderLock {
    private static let held = Mutex<Set<String>>([])
    let path: String
    private var fd: Int32
    /// The device and inode of the file `fd` locks.
    private var identity: (dev: UInt64, ino: UInt64) = (0, 0)

    init(_ dataFolder: DataFolder) throws {
        let folder = dataFolder.root
        path = dataFolder.lockFile
        let key = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
        let inserted = DataFolderLock.held.withLock { $0.insert(key).inserted }
        guard inserted else {
            throw StorageError(kind: .locked, path: folder, message: "this data folder is already open in this process (one app per data folder)")
        }
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 {
            DataFolderLock.held.withLock { _ = $0.remove(key) }
            throw AtomicFile.error(path, "cannot open the lock file")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let busy = errno == EWOULDBLOCK
            let failure = busy
                ? StorageError(kind: .locked, path: folder,
                               message: "the data folder is in use by another okit process", remedy: .anotherDataFolder)
                : AtomicFile.error(path, "cannot lock the data folder")
            close(fd)
            DataFolderLock.held.withLock { _ = $0.remove(key) }
            throw failure
        }
        lockKey = key
        identity = Self.identity(of: fd)
    }

    private static func identity(of fd: Int32) -> (dev: UInt64, ino: UInt64) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return (0, 0) }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// Checks (one `stat`) that the lock file at `path` is still the file this process locked. When another
    /// program removed it, it is made and locked again (true: the caller warns). When another file is there, an
    /// okit process opened the data folder after the removal and may have stored since: this process must not
    /// write over that, so this throws — at every store from then on.
    func verify() throws -> Bool {
        guard fd >= 0 else { return false }
        var st = stat()
        let found = stat(path, &st) == 0
        if found, UInt64(st.st_dev) == identity.dev, UInt64(st.st_ino) == identity.ino { return false }
        // A path that cannot be looked at (not there for another reason than its removal) tells nothing.
        if !found, errno != ENOENT { return false }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent().path
        let taken = StorageError(kind: .locked, path: folder,
                                 message: "the lock file okit/lock was removed while this app ran and another okit process has opened this data folder since: nothing was stored, so as not to overwrite what it stored; the changes since this app's last store are not kept — quit it and start it again")
        guard !found else { throw taken }
        let fresh = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fresh < 0 {
            if errno == EEXIST { throw taken }
            throw AtomicFile.error(path, "the lock file was removed while the app ran and cannot be made again")
        }
        guard flock(fresh, LOCK_EX | LOCK_NB) == 0 else {
            close(fresh)
            throw taken
        }
        flock(fd, LOCK_UN)
        close(fd)
        fd = fresh
        identity = Self.identity(of: fd)
        return true
    }

    private let lockKey: String

    /// Releases the lock (once; later calls do nothing).
    func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
        DataFolderLock.held.withLock { _ = $0.remove(lockKey) }
    }

    deinit { release() }
}
