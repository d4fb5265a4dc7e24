import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Model files kept elsewhere through a symbolic link (storage.md "A link to a regular file is followed"): a backup
/// holds the file the link leads to, as a regular file; a restore writes the restored file back through the link
/// and puts the link back, so the file elsewhere is the current one again.
extension BackupStore {
    /// A file of `<data>/okit/data` that is a symbolic link to a regular file.
    struct LinkedFile: Equatable {
        /// Its path under `<data>/okit/data`.
        var path: String
        /// The link's text, as written (a relative link stays relative).
        var link: String
        /// The regular file it leads to.
        var target: String
    }

    /// Every file of `<data>/okit/data` that is a link to a regular file (the ones a backup holds through it).
    func linkedFiles() -> [LinkedFile] {
        BackupStore.dataFiles(under: modelsFolder).compactMap { f in
            let path = modelsFolder + "/" + f.path
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return nil }
            var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(path, &buf, buf.count - 1)
            guard n > 0, let real = realpath(path, nil) else { return nil }
            defer { free(real) }
            return LinkedFile(path: f.path, link: String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self),
                              target: String(cString: real))
        }
    }

    /// After the swap: each file that was a link before the restore and that the backup restored is written to
    /// the link's target (atomically, in the target's folder) and the link is put back in its place. Until then the
    /// restored file is a regular file in the data folder, so a crash or a failure here leaves the restored data
    /// complete; what could not be put back is returned, one line each (the file stays a regular file).
    func relink(_ links: [LinkedFile], backup: String) -> [String] {
        var notes: [String] = []
        for l in links {
            let path = modelsFolder + "/" + l.path
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }   // not in the backup
            do {
                guard let bytes = try AtomicFile.read(path) else { continue }
                try AtomicFile.replace(l.target, with: bytes)
                let dir = (path as NSString).deletingLastPathComponent
                let tmp = dir + "/." + (path as NSString).lastPathComponent + ".link"
                unlink(tmp)
                if symlink(l.link, tmp) != 0 { throw AtomicFile.error(tmp, "cannot create the link") }
                if rename(tmp, path) != 0 {
                    let e = AtomicFile.error(path, "cannot put the link back")
                    unlink(tmp)
                    throw e
                }
                try AtomicFile.syncFolder(dir)
            } catch {
                notes.append("backup \(backup): \(l.path) was a link to \(l.target); the restored file is in the data folder instead (\(error)): \(path)")
            }
        }
        return notes
    }
}
