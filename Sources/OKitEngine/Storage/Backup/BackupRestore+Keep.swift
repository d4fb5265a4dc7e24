import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a restore keeps of the data it replaces (backups.md "What a restore keeps"): the files okit did not write
/// as a model's data — models moved aside (`*.corrupt-*`), old forms of converted models (`*.converted-*`), a
/// person's own files — are carried into the restored data folder; and when asked (`keepOld`: the data was stored
/// by a newer app version), the whole old data folder is kept as `okit/data-before-restore-<UTC timestamp>`.
/// Both are hard links made before the swap (copies where the file system has none), so a failed restore removes
/// them and leaves the data as it was, and a crash leaves nothing half-kept that the data depends on.
extension BackupStore {
    static let keptPrefix = "data-before-restore-"

    /// Whether a file directly under `okit/data` is a model's data as okit writes it: `<model>.json`, its journal
    /// (`.journal`), exit patch (`.patch`) and sealing record (`.form`), a form's file (`<model>.sqlite`) with its
    /// side files; temporaries (names starting with `.`) count as okit's too (they are never carried).
    static func isModelData(_ name: String, forms: [DataFolderForm]) -> Bool {
        if name.hasPrefix(".") { return true }
        if name.contains(".corrupt-") || name.contains(".converted-") { return false }
        var endings = [".json", ".journal", ".patch", ".form"]
        for form in forms {
            endings.append("." + form.fileExtension)
            endings += form.sideSuffixes.map { "." + form.fileExtension + $0 }
        }
        return endings.contains { name.hasSuffix($0) && name.count > $0.count }
    }

    /// Links every regular file directly under `okit/data` that is not model data (`isModelData`) into the staging
    /// folder `root`, under its own name or, when the backup holds that name, the name with `-2`, `-3`, ….
    func carryOwnFiles(into root: String, backup: String) throws(BackupError) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: modelsFolder)) ?? []
        for name in names.sorted() where !BackupStore.isModelData(name, forms: forms) {
            let from = modelsFolder + "/" + name
            var st = stat()
            guard lstat(from, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            var to = root + "/" + name, n = 2
            while FolderSwap.exists(to) {
                // The backup holds this very file (a model moved aside before it was made): it is there already.
                if FileManager.default.contentsEqual(atPath: from, andPath: to) { break }
                to = root + "/" + name + "-\(n)"
                n += 1
            }
            if FolderSwap.exists(to) { continue }
            try BackupStore.linkOrCopy(from, to, backup: backup)
        }
    }

    /// A copy of `okit/data` as `okit/data-before-restore-<stamp>` (hard links, folders made anew; a link to a
    /// file is kept as a copy of that file's content, since the restore writes through it). Returns its path.
    func keepOldData(now: Date, backup: String) throws(BackupError) -> String {
        var stamp = ISODate.format(now, fractional: false)
        stamp.removeAll { $0 == "-" || $0 == ":" }
        var kept = okit + "/" + BackupStore.keptPrefix + stamp, n = 2
        while FolderSwap.exists(kept) { kept = okit + "/" + BackupStore.keptPrefix + stamp + "-\(n)"; n += 1 }
        do { try BackupStore.copyTree(modelsFolder, kept, backup: backup) } catch {
            FolderSwap.removeTree(kept)
            throw error
        }
        try FolderSwap.sync(okit)
        return kept
    }

    static func copyTree(_ from: String, _ to: String, backup: String) throws(BackupError) {
        if mkdir(to, 0o755) != 0 { throw .io(backup, path: to, "cannot create the folder for the old data (\(String(cString: strerror(errno))))") }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: from)) ?? [] {
            let a = from + "/" + name, b = to + "/" + name
            var st = stat()
            guard lstat(a, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFDIR: try copyTree(a, b, backup: backup)
            case S_IFREG: try linkOrCopy(a, b, backup: backup)
            case S_IFLNK:
                guard let bytes = try? AtomicFile.read(a) else { continue }   // a link to nothing: nothing to keep
                do { try AtomicFile.replace(b, with: bytes) } catch {
                    throw .io(backup, path: b, "cannot keep a copy of the old data (\(error))")
                }
            default: continue
            }
        }
        try FolderSwap.sync(to)
    }

    /// A hard link `to` of `from`, or a copy where the file system has no hard links.
    static func linkOrCopy(_ from: String, _ to: String, backup: String) throws(BackupError) {
        if link(from, to) == 0 { return }
        do { try FileManager.default.copyItem(atPath: from, toPath: to) } catch {
            throw .io(backup, path: from, "cannot keep the file across the restore (\(error.localizedDescription))")
        }
    }
}
