import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The temporaries an interrupted `backup create` (`.<name>.okbackup.tmp`) or backup upload (`.upload-…`) leaves in
/// `<data>/okit/backup` (backups.md: "an interrupted backup leaves no half-written `.okbackup`"): each create uses
/// its own name, so none is ever written over; they are deleted when no process can be writing one — whoever holds
/// the data folder's lock is the only one that creates backups in it.
extension BackupStore {
    /// Whether `name` (in the backup folder) is such a temporary.
    static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && (name.hasSuffix("." + fileExtension + ".tmp") || name.hasPrefix(".upload-"))
    }

    /// Deletes the temporaries in `<data>/okit/backup`. The caller holds the data folder's lock and is writing none.
    public static func removeStaleTemporaries(dataFolder: URL) {
        let folder = DataFolder(dataFolder).backups
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where isTemporary(name) {
            unlink(folder + "/" + name)
        }
    }

    /// `removeStaleTemporaries` when the data folder's lock is free (no app, create or restore is running on it);
    /// otherwise nothing (the process holding it cleans at its start).
    func removeStaleTemporariesIfFree() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: backupFolder.path)) ?? []
        guard names.contains(where: BackupStore.isTemporary), let lock = try? DataFolderLock(DataFolder(dataFolder)) else { return }
        defer { lock.release() }
        BackupStore.removeStaleTemporaries(dataFolder: dataFolder)
    }
}
