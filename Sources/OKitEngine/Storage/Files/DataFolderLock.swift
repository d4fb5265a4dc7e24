import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock on a data folder: `flock` on `<data>/okit/lock`, so a second process fails at start and a
/// crashed process never leaves the folder locked. A process-wide registry refuses a second lock in the same
/// process first, with a message that says so (flock alone would refuse it as if another process held it).
final class DataFolderLock {
    private static let held = Mutex<Set<String>>([])
    let path: String
    private var fd: Int32

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
