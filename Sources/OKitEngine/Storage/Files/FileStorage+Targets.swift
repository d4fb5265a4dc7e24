import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The device and inode of a file: whether the file at a path is still the one okit read or wrote.
struct FileIdentity: Equatable {
    let dev: UInt64
    let ino: UInt64

    /// The identity of the file at `path` (links followed); nil when there is none.
    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        dev = UInt64(st.st_dev)
        ino = UInt64(st.st_ino)
    }
}

/// What a store checks about the files it writes to when other programs change the data folder under a running
/// app (storage.md "Files other programs remove"): the lock file, the model file a journal is appended to, and
/// a journal left without its model file.
extension FileStorage {
    /// Checks the data folder's lock file before a store (`DataFolderLock.verify`); warns when it was removed and
    /// is taken again, throws when another okit process may have stored since.
    func verifyLock(engine: any ModelHost) throws {
        if try lock.verify() {
            engine.warn("\(lock.path) was removed while the app ran; okit made it again and holds the data folder's lock")
        }
    }

    /// Whether model `name`'s file is still the one last read or written (one `stat`): a journal appended beside a
    /// file another program removed or replaced would be dropped, or replayed onto another file, by the next
    /// start — the store writes the whole model instead (and says so).
    func modelFileIsOurs(_ name: String, engine: any ModelHost) -> Bool {
        guard let known = modelFileIds[name], let path = try? folder.modelFile(name) else { return true }
        let now = FileIdentity(path: path)
        if now == known { return true }
        engine.warn("\(path) was " + (now == nil ? "removed" : "replaced") + " by another program while the app ran; okit wrote the whole model again")
        return false
    }

    /// Refuses to start model `name` fresh while its journal is there without its model file (another program
    /// removed the file): the journal holds acknowledged changes, and a fresh start would drop it at its first
    /// full write. The journal is left as it is.
    func refuseOrphanJournal(_ name: String) throws {
        let journal = try folder.journal(name)
        var st = stat()
        guard stat(journal, &st) == 0, st.st_size > 0 else { return }
        unreadable.insert(name)
        throw StorageError(kind: .io, path: journal,
                           message: "a journal of changes without its model file \(name).json (another program removed it?): the journal is left as it is, and nothing is written",
                           remedy: .restoreModelFile(model: name))
    }
}
