import Foundation

/// What the backups screen asks of the app (storage.md "Backups"): the host owns the data folder, its lock and
/// its keys, stores the state before a backup and reloads everything after a restore.
public protocol BackupService: AnyObject {
    /// The app's backups, newest first.
    func listBackups() throws -> [BackupInfo]
    /// Stores the state, then writes `<name>.okbackup` (secure when a password is given).
    func createBackup(name: String, password: String?) throws
    /// Verifies the backup completely, swaps the data folder and reloads the app; on any failure the data is
    /// left exactly as it was.
    func restoreBackup(name: String, password: String?) throws
    /// Deletes a backup.
    func deleteBackup(name: String) throws
    /// Whether a backup is sealed with a password.
    func isSecureBackup(name: String) throws -> Bool
}
