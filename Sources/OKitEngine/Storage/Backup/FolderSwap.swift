import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Replaces `<data>/okit/data` with a fully written staging folder beside it, all or nothing.
///
/// `rename` cannot replace a non-empty folder. Where the kernel has it, `renameat2(RENAME_EXCHANGE)` swaps the
/// two folders in one step (looked up with `dlsym`, so the engine needs no C). Elsewhere two renames are used,
/// bracketed by a marker file `okit/restore-in-progress` naming both folders: a crash between them leaves the
/// marker, and `complete(okit:)` (at the next start) finishes the swap — the staging folder was complete and
/// synced before the marker was written, so rolling forward is always possible; when the staging folder is
/// gone, the old data is put back.
enum FolderSwap {
    static let markerName = "restore-in-progress"
    static let stagingPrefix = "restore-staging-"
    static let oldPrefix = "restore-old-"

    /// Where the two-rename fallback stops, for tests that simulate a crash.
    enum CrashPoint { case afterMarker, afterMovingOldAside, afterMovingStagingIn }

    struct Marker: Codable, Equatable {
        /// Folder names inside `okit/`.
        var staging: String
        var old: String

        var isValid: Bool {
            staging.hasPrefix(FolderSwap.stagingPrefix) && old.hasPrefix(FolderSwap.oldPrefix)
                && Names.isSafe(staging) && Names.isSafe(old)
        }
    }

    static func error(_ path: String, _ what: String) -> BackupError {
        BackupError(.io, backup: path, "\(what): \(path): \(String(cString: strerror(errno)))\n  the data is as it was; a restore left half-done is finished at the next start")
    }

    // MARK: The swap

    /// Swaps `okit/<staging>` into `okit/data`; afterwards `okit/<staging>` no longer exists. Returns the folder
    /// that now holds the old data (nil: there was none, or a simulated crash stopped the swap), which the caller
    /// deletes once the restored data loads (`swapBack` puts it back when it does not); a crash before then leaves
    /// it to `complete`, which deletes it (the restored data stands). Throws only when the data is still the old
    /// data (or, after a simulated crash, the marker says what to finish).
    @discardableResult
    static func swapIn(staging: String, okit: String, useExchange: Bool = true, crash: CrashPoint? = nil) throws(BackupError) -> String? {
        let data = okit + "/data", stagingPath = okit + "/" + staging
        var st = stat()
        guard lstat(data, &st) == 0 else {
            // No data yet: a plain rename puts the staging folder in place.
            if rename(stagingPath, data) != 0 { throw error(stagingPath, "cannot move the restored data into place") }
            try? sync(okit)   // the restore is done: a failed sync is no reason to report a failure
            return nil
        }
        if useExchange, let exchanged = exchange(stagingPath, data) {
            if !exchanged { throw error(data, "cannot swap in the restored data") }
            try? sync(okit)
            return stagingPath   // now the old data
        }
        return try twoRenames(staging: staging, okit: okit, crash: crash)
    }

    /// Undoes `swapIn`: the old data (`old`, as `swapIn` returned it; nil: there was none) is put back as
    /// `okit/data`, all at once as the swap was, and the restored data is deleted. When that fails, the old data
    /// is kept as `okit/<keptAs>` (a name `complete` never deletes) and the error says so.
    static func swapBack(old: String?, okit: String, useExchange: Bool = true, keptAs: String) throws(BackupError) {
        let data = okit + "/data"
        guard let old else {
            let aside = okit + "/" + stagingPrefix + UUID().uuidString
            if rename(data, aside) != 0 { throw error(data, "cannot move the restored data aside") }
            removeTree(aside)
            return
        }
        var name = (old as NSString).lastPathComponent
        if !name.hasPrefix(stagingPrefix) {
            name = stagingPrefix + UUID().uuidString
            if rename(old, okit + "/" + name) != 0 { name = (old as NSString).lastPathComponent }
        }
        do {
            if let restored = try swapIn(staging: name, okit: okit, useExchange: useExchange) { removeTree(restored) }
        } catch {
            let keep = okit + "/" + keptAs
            guard !exists(okit + "/" + markerName), exists(okit + "/" + name), rename(okit + "/" + name, keep) == 0 else { throw error }
            throw BackupError(.io, backup: error.backup, "\(error.message)\n  the data the restore replaced is kept in \(keep): move it to \(data)")
        }
    }

    /// `renameat2(a, b, RENAME_EXCHANGE)`: true when swapped, false on an error that left both in place, nil
    /// when the system cannot exchange (no `renameat2`, or a file system without `RENAME_EXCHANGE`).
    static func exchange(_ a: String, _ b: String) -> Bool? {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
        guard let renameat2 = RuntimeSymbol.lookup("renameat2", as: RenameAt2.self) else { return nil }
        let atCwd: Int32 = -100, renameExchange: UInt32 = 1 << 1
        if renameat2(atCwd, a, atCwd, b, renameExchange) == 0 { return true }
        switch errno {
        case ENOSYS, EINVAL, ENOTSUP: return nil
        default: return false
        }
    }

    /// The fallback: marker, old data aside, staging in, marker removed; returns the old data's folder.
    static func twoRenames(staging: String, okit: String, crash: CrashPoint?) throws(BackupError) -> String? {
        let marker = Marker(staging: staging, old: oldPrefix + UUID().uuidString)
        try writeMarker(marker, okit: okit)
        if crash == .afterMarker { return nil }
        let data = okit + "/data"
        if rename(data, okit + "/" + marker.old) != 0 {
            let e = error(data, "cannot move the old data aside")
            try? removeMarker(okit: okit)
            throw e
        }
        if crash == .afterMovingOldAside { return nil }
        if rename(okit + "/" + staging, data) != 0 {
            let e = error(data, "cannot move the restored data into place")
            if rename(okit + "/" + marker.old, data) == 0 { try? removeMarker(okit: okit) }
            throw e
        }
        try? sync(okit)
        if crash == .afterMovingStagingIn { return nil }
        try? removeMarker(okit: okit)   // if it stays, the next start finds the swap done and removes it
        return okit + "/" + marker.old
    }

    static func writeMarker(_ marker: Marker, okit: String) throws(BackupError) {
        let path = okit + "/" + markerName
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try AtomicFile.replace(path, with: Array(try encoder.encode(marker)))
        } catch {
            throw BackupError(.io, backup: path, "cannot write the restore marker: \(error)\n  the data is as it was")
        }
    }

    static func removeMarker(okit: String) throws(BackupError) {
        do { try AtomicFile.remove(okit + "/" + markerName) } catch {
            throw BackupError(.io, backup: okit, "cannot remove the restore marker: \(error)")
        }
    }

    // MARK: After a crash

    /// Finishes (or undoes) a two-rename swap that a crash interrupted, then deletes what earlier restores left
    /// behind (staging folders never swapped in, old data never deleted).
    static func complete(okit: String) throws(BackupError) {
        let markerPath = okit + "/" + markerName
        if let bytes = try? AtomicFile.read(markerPath) {
            guard let marker = try? JSONDecoder().decode(Marker.self, from: Data(bytes)), marker.isValid else {
                throw BackupError(.io, backup: markerPath, "the restore marker \(markerPath) is damaged\n  check \(okit)/data and the restore-* folders beside it, then delete the marker")
            }
            let data = okit + "/data", staging = okit + "/" + marker.staging, old = okit + "/" + marker.old
            switch (exists(data), exists(staging), exists(old)) {
            case (true, true, false):
                // Crashed before the old data moved: the staging folder is complete, so finish the restore.
                if rename(data, old) != 0 { throw error(data, "cannot move the old data aside") }
                if rename(staging, data) != 0 {
                    let e = error(staging, "cannot move the restored data into place")
                    _ = rename(old, data)
                    throw e
                }
            case (false, true, _):
                // Crashed between the renames.
                if rename(staging, data) != 0 { throw error(staging, "cannot move the restored data into place") }
            case (false, false, true):
                // The restored data is gone: put the old data back.
                if rename(old, data) != 0 { throw error(old, "cannot put the old data back") }
            case (true, false, _), (false, false, false):
                break   // the swap was done (or there was never data): only the clean-up is left
            case (true, true, true):
                throw BackupError(.io, backup: markerPath, "an interrupted restore left \(data), \(staging) and \(old)\n  check which holds your data, keep it as \(data), then delete the marker \(markerPath)")
            }
            try sync(okit)
            try removeMarker(okit: okit)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: okit)) ?? []
        where (name.hasPrefix(stagingPrefix) || name.hasPrefix(oldPrefix)) {
            removeTree(okit + "/" + name)
        }
    }

    // MARK: Helpers

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    static func sync(_ dir: String) throws(BackupError) {
        do { try AtomicFile.syncFolder(dir) } catch {
            throw BackupError(.io, backup: dir, "cannot sync the folder: \(error)")
        }
    }

    /// Deletes a folder tree without following links (best effort: what is left is deleted by the next
    /// `complete`).
    static func removeTree(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if st.st_mode & S_IFMT == S_IFDIR {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                removeTree(path + "/" + name)
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
