import Foundation

/// A restore swapped in, its old data kept beside it (`BackupStore.restoreSwapped`) until the caller has loaded
/// the restored data: `finish()` when it loads, `undo()` when it does not (the app's migrations refuse it, a model
/// does not read). Either way a restore is all or nothing (backups.md "Restoring").
public struct SwappedRestore {
    let store: BackupStore
    let backup: String
    /// The folder holding the data the restore replaced (nil: there was none).
    let replaced: String?
    let links: [BackupStore.LinkedFile]
    /// `okit/data-before-restore-…` (`keepOld`).
    let kept: String?
    /// False after a simulated crash (tests): the swap stopped part-way, nothing is to be undone.
    let undoable: Bool

    /// Deletes the replaced data and puts back the links the restored files replaced; returns the notes (a link
    /// not put back, where the replaced data is kept), one line each.
    public func finish() -> [String] {
        if undoable, let replaced { FolderSwap.removeTree(replaced) }
        return store.relink(links, backup: backup) + (kept.map { ["the data the restore replaced is kept in \($0)"] } ?? [])
    }

    /// Puts the replaced data back as `okit/data` (in one step, as the swap) and deletes the restored data. When
    /// that fails, the replaced data is kept as `okit/data-before-restore-…` (never deleted) and the error says where.
    public func undo() throws {
        guard undoable else { return }
        try FolderSwap.swapBack(old: replaced, okit: store.okit, useExchange: store.useRenameExchange,
                                keptAs: BackupStore.keptPrefix + "undone-" + UUID().uuidString)
        if let kept { FolderSwap.removeTree(kept) }
    }
}

extension BackupStore {
    /// A failure while staging names the file a person knows (`…/okit/data/default.json`), never okit's staging
    /// folder; on a full disk it says what to do.
    func stagingNamed(_ error: Error, staging: String) -> Error {
        guard let e = error as? BackupError, e.message.contains(staging) else { return error }
        var message = e.message.replacingOccurrences(of: staging + "/", with: "the restored copy of " + modelsFolder + "/")
            .replacingOccurrences(of: staging, with: "the restored copy of " + modelsFolder)
        if e.kind == .io, !message.contains("nothing was changed") {
            message += isDiskFull(okit) ? "\n  nothing was changed; free some space, then restore again" : "\n  nothing was changed"
        }
        var named = BackupError(e.kind, backup: e.backup, message, remedy: e.remedy)
        named.reason = e.reason
        return named
    }
}
