import Crypto
import Foundation
import ZIPFoundation
#if canImport(Glibc)
import Glibc
#endif

extension BackupStore {
    /// Replaces everything under `<data>/okit/data` with the backup's files — or nothing.
    ///
    /// `nameOrFile` is a backup's name, else the path of a `.okbackup` file anywhere. Everything is verified
    /// before the data is touched: the archive opens; a secure one opens with `password`; every entry's path
    /// stays inside the data folder (no `..`, absolute paths, links, or entries the manifest does not list);
    /// every entry's size and SHA-256 match the manifest and every manifest file is present; every sealed file
    /// opens with the key `key` gives for its key id; every `.json` file parses, and `validate` (the app's
    /// schema) accepts every file's plain bytes. The files are written to a staging folder inside `<data>/okit`,
    /// synced, and swapped with `<data>/okit/data` atomically; the old data is then deleted. A failure at any
    /// step leaves the current data byte for byte as it was. The caller reloads the app afterwards.
    /// `progress` sees (bytes done, bytes in all) as files are verified and written.
    /// A file that was a symbolic link to a regular file gets the restored file through the link, and the link
    /// back (`relink`); what could not be put back is returned, one line each (the restore itself succeeded).
    /// `validateFiles` sees every path the backup holds first (what the app needs of them as a whole). The files
    /// okit did not write as a model's data are carried into the restored folder (`carryOwnFiles`); with `keepOld`
    /// the old data is kept whole (`keepOldData`), and a line saying where is returned.
    @discardableResult
    public func restore(_ nameOrFile: String, password: String? = nil,
                        key: (_ keyId: [UInt8]) -> SymmetricKey? = { _ in nil },
                        validate: ((_ relativePath: String, _ plainBytes: [UInt8]) throws -> Void)? = nil,
                        validateFiles: ((_ relativePaths: Set<String>) throws -> Void)? = nil,
                        keepOld: Bool = false, now: Date = Date(),
                        progress: ((Int64, Int64) -> Void)? = nil) throws -> [String] {
        try restoreSwapped(nameOrFile, password: password, key: key, validate: validate, validateFiles: validateFiles,
                           keepOld: keepOld, now: now, progress: progress).finish()
    }

    /// `restore` up to the swap: the backup is verified, staged and swapped in, and the old data is kept beside it
    /// until the caller has loaded the restored data — `finish()` then deletes it (and puts links back), or `undo()`
    /// puts it back when the restored data does not load (a migration refuses it), so a restore stays all or nothing.
    public func restoreSwapped(_ nameOrFile: String, password: String? = nil,
                               key: (_ keyId: [UInt8]) -> SymmetricKey? = { _ in nil },
                               validate: ((_ relativePath: String, _ plainBytes: [UInt8]) throws -> Void)? = nil,
                               validateFiles: ((_ relativePaths: Set<String>) throws -> Void)? = nil,
                               keepOld: Bool = false, now: Date = Date(),
                               progress: ((Int64, Int64) -> Void)? = nil) throws -> SwappedRestore {
        let (backup, url) = try resolve(nameOrFile)
        let (archive, secure) = try openArchive(backup: backup, url: url, password: password)
        let (manifest, entries) = try checkEntries(archive, secure: secure, path: url.path)
        if let validateFiles {
            do { try validateFiles(Set(manifest.files.map(\.path))) } catch let e as BackupError { throw e } catch {
                throw BackupError(.invalidFile, backup: backup, "backup \(backup): \(error)\n  nothing was changed")
            }
        }

        do { try FileManager.default.createDirectory(atPath: okit, withIntermediateDirectories: true) } catch {
            throw BackupError.io(backup, path: okit, "cannot create the folder (\(error.localizedDescription))")
        }
        try FolderSwap.complete(okit: okit)   // an earlier restore a crash interrupted comes first
        let staging = FolderSwap.stagingPrefix + UUID().uuidString
        let stagingPath = okit + "/" + staging
        if mkdir(stagingPath, 0o755) != 0 {
            throw BackupError.io(backup, path: stagingPath, "cannot create the staging folder (\(String(cString: strerror(errno))))")
        }
        do {
            try extract(archive, manifest: manifest, entries: entries, into: stagingPath, key: key, validate: validate,
                        progress: progress)
            try carryOwnFiles(into: stagingPath, backup: backup)
            try FolderSwap.sync(stagingPath)
            try FolderSwap.sync(okit)
        } catch {
            FolderSwap.removeTree(stagingPath)
            throw stagingNamed(error, staging: stagingPath)
        }
        var kept: String?
        if keepOld, FolderSwap.exists(modelsFolder) {
            do { kept = try keepOldData(now: now, backup: backup) } catch {
                FolderSwap.removeTree(stagingPath)
                throw error
            }
        }
        let links = linkedFiles()
        let replaced: String?
        do {
            replaced = try FolderSwap.swapIn(staging: staging, okit: okit, useExchange: useRenameExchange, crash: crashPoint)
        } catch {
            // The data is the old data; unless a marker asks the next start to finish, the staging folder goes.
            if !FolderSwap.exists(okit + "/" + FolderSwap.markerName) {
                FolderSwap.removeTree(stagingPath)
                if let kept { FolderSwap.removeTree(kept) }
            }
            throw error
        }
        return SwappedRestore(store: self, backup: backup, replaced: keptUntilLoaded(replaced), links: links, kept: kept,
                              undoable: crashPoint == nil)
    }

    /// The replaced data renamed to `okit/data-before-restore-pending-…`, a name the next start's clean-up
    /// (`FolderSwap.complete`) never deletes: a process that dies while the restored data is read and migrated
    /// leaves it there for a person to put back, instead of the next start deleting it. `SwappedRestore.finish`
    /// deletes it once the restored data loads; `undo` swaps it back. Kept under its old name when it cannot be renamed.
    func keptUntilLoaded(_ replaced: String?) -> String? {
        guard let replaced, crashPoint == nil else { return replaced }
        let pending = okit + "/" + BackupStore.keptPrefix + "pending-" + UUID().uuidString
        guard rename(replaced, pending) == 0 else { return replaced }
        try? FolderSwap.sync(okit)
        return pending
    }

    /// The zip of a plain backup, or the zip inside a secure one.
    func openArchive(backup: String, url: URL, password: String?) throws(BackupError) -> (BackupArchive, Bool) {
        guard SecureBackup.isSecure(BackupStore.prefix(url.path, count: SecureBackup.magic.count)) else {
            return (try BackupArchive.open(at: url, backup: backup, limits: limits), false)
        }
        guard let password, !password.isEmpty else { throw .passwordNeeded(backup) }
        // A secure backup is opened in memory: no larger than the most a restore reads.
        var st = stat()
        if stat(url.path, &st) == 0, Int64(st.st_size) > limits.maxTotal {
            throw .refused(backup, path: url.path, "it is \(Int64(st.st_size) >> 20) MiB, more than the \(limits.maxTotal >> 20) MiB a restore reads",
                           remedy: .raiseLimit("backupMaxSize"))
        }
        let bytes: [UInt8]
        do {
            guard let read = try AtomicFile.read(url.path) else { throw BackupError.notFound(backup, folder: backupFolder.path) }
            bytes = read
        } catch let e as BackupError {
            throw e
        } catch {
            throw .io(backup, path: url.path, "cannot read (\(error))")
        }
        let zip = try SecureBackup.open(bytes, password: password, backup: backup, path: url.path)
        return (try BackupArchive.open(data: zip, backup: backup, path: url.path, limits: limits), true)
    }

    /// Reads the manifest and checks every entry against it (zip-slip, links, duplicates, missing files).
    func checkEntries(_ archive: BackupArchive, secure: Bool, path: String) throws(BackupError) -> (BackupManifest, [String: Entry]) {
        let backup = archive.backup
        var manifestEntry: Entry?
        var byPath: [String: Entry] = [:]
        for entry in archive.entries {
            let name = entry.path
            if entry.type == .symlink { throw .unsafeEntry(backup, entry: name, "is a link") }
            if name == BackupManifest.entryName {
                if manifestEntry != nil { throw .unsafeEntry(backup, entry: name, "appears twice") }
                manifestEntry = entry
                continue
            }
            if let why = BackupManifest.unsafety(of: name) { throw .unsafeEntry(backup, entry: name, why) }
            guard name.hasPrefix(BackupManifest.dataPrefix) else {
                throw .unsafeEntry(backup, entry: name, "is not under data/")
            }
            let rel = String(name.dropFirst(BackupManifest.dataPrefix.count))
            if let why = BackupManifest.unsafety(of: rel) { throw .unsafeEntry(backup, entry: name, why) }
            if entry.type != .file { throw .unsafeEntry(backup, entry: name, "is not a regular file") }
            if byPath.updateValue(entry, forKey: rel) != nil { throw .unsafeEntry(backup, entry: name, "appears twice") }
        }
        guard let manifestEntry else { throw .damaged(backup, path: path, "it has no manifest.json") }
        let bytes = try archive.read(manifestEntry, limit: Int64(BackupManifest.maxSize))
        let manifest: BackupManifest
        do { manifest = try BackupManifest.decode(bytes) } catch {
            throw .damaged(backup, path: path, "its manifest.json does not read (\(error))")
        }
        try manifest.check(backup: backup, path: path)
        if manifest.secure != secure {
            throw .damaged(backup, path: path, "the manifest says \(manifest.secure ? "secure" : "plain"), the file is \(secure ? "secure" : "plain")")
        }
        let listed = Set(manifest.files.map(\.path))
        for rel in byPath.keys.sorted() where !listed.contains(rel) {
            throw .unsafeEntry(backup, entry: BackupManifest.dataPrefix + rel, "is not in the manifest")
        }
        for f in manifest.files {
            guard let entry = byPath[f.path] else {
                throw .mismatch(backup, file: f.path, "is in the manifest but missing from the archive")
            }
            // Before anything is decompressed: every entry is exactly the size the manifest gives.
            if entry.uncompressedSize != UInt64(max(0, f.size)) {
                throw .mismatch(backup, file: f.path, "is \(entry.uncompressedSize) bytes, the manifest says \(f.size)")
            }
        }
        if let appId, manifest.appId != appId, !allowOtherApp {
            throw .otherApp(backup, made: manifest.appId, this: appId)
        }
        return (manifest, byPath)
    }

    /// Verifies each file and writes it (as stored: sealed files stay sealed) under `root`, synced.
    func extract(_ archive: BackupArchive, manifest: BackupManifest, entries: [String: Entry], into root: String,
                 key: (_ keyId: [UInt8]) -> SymmetricKey?, validate: ((String, [UInt8]) throws -> Void)?,
                 progress: ((Int64, Int64) -> Void)?) throws {
        let backup = archive.backup
        // Sizes come from the archive: add them without trapping (a sum past Int64 is a hostile manifest).
        var total: Int64 = 0
        for f in manifest.files {
            let (sum, overflow) = total.addingReportingOverflow(max(0, f.size))
            if overflow { throw BackupError.mismatch(backup, file: f.path, "has a size that does not add up (\(f.size) bytes)") }
            total = sum
        }
        var done: Int64 = 0
        progress?(0, total)
        var folders: Set<String> = []
        for f in manifest.files {
            guard let entry = entries[f.path] else { throw BackupError.mismatch(backup, file: f.path, "is missing from the archive") }
            // Streamed to its staging file in chunks and hashed on the way; only files that must be checked
            // (model JSON, SQLite models, sealed files) are read back, one at a time.
            let path = try makeFile(rel: f.path, root: root, folders: &folders, backup: backup)
            let (count, sha) = try writeEntry(archive, entry, size: f.size, path: path) { n in
                done += Int64(n)
                progress?(min(done, total), total)
            }
            if count != f.size {
                throw BackupError.mismatch(backup, file: f.path, "is \(count) bytes, the manifest says \(f.size)")
            }
            if sha != f.sha256 {
                throw BackupError.mismatch(backup, file: f.path, "does not match its SHA-256 in the manifest")
            }
            guard f.path.hasSuffix(".json") || forms.contains(where: { $0.model(ofFile: f.path) != nil }) || f.keyId != nil || SealedFile.isSealed(BackupStore.prefix(path, count: SealedFile.magic.count)) else { continue }
            let bytes: [UInt8]
            do { bytes = try AtomicFile.read(path) ?? [] } catch {
                throw BackupError.io(backup, path: path, "cannot read back (\(error))")
            }
            let plain = try opened(bytes, file: f, backup: backup, key: key)
            if f.path.hasSuffix(".json"), let why = BackupStore.jsonProblem(plain) {
                throw BackupError.invalidFile(backup, file: f.path, why)
            }
            if let validate {
                do { try validate(f.path, plain) } catch let e as NewerAppData {
                    throw BackupError.newerApp(backup, e)
                } catch {
                    throw BackupError.invalidFile(backup, file: f.path, "\(error)")
                }
            }
        }
        // Deepest folders first, then the staging folder itself.
        for folder in folders.sorted(by: { $0.count > $1.count }) { try FolderSwap.sync(root + "/" + folder) }
        try FolderSwap.sync(root)
        progress?(total, total)
    }

    /// The plain bytes of a file: opened with its key when the manifest says it is sealed.
    func opened(_ bytes: [UInt8], file f: BackupManifest.File, backup: String,
                key: (_ keyId: [UInt8]) -> SymmetricKey?) throws(BackupError) -> [UInt8] {
        let sealed = SealedFile.isSealed(bytes) && bytes.count >= SealedFile.overhead
        guard let keyHex = f.keyId else {
            if sealed { throw .mismatch(backup, file: f.path, "is sealed but the manifest does not say so") }
            return bytes
        }
        let keyId = BackupHex.decode(keyHex) ?? []
        let idStart = SealedFile.magic.count
        guard sealed, Array(bytes[idStart..<idStart + SealedFile.idSize]) == keyId else {
            throw .mismatch(backup, file: f.path, "is not sealed with the key id the manifest gives")
        }
        guard let k = key(keyId) else { throw .keyNeeded(backup, file: f.path, keyId: keyHex) }
        do { return try SealedFile.open(bytes, key: k) } catch SealedFile.OpenError.otherKey {
            throw .keyNeeded(backup, file: f.path, keyId: keyHex)
        } catch {
            throw .invalidFile(backup, file: f.path, "\(error)")
        }
    }

    /// Creates a new file under the staging folder (never through a link: the folder is fresh and every name in
    /// it was checked), creating its folders; returns its path.
    func makeFile(rel: String, root: String, folders: inout Set<String>, backup: String) throws(BackupError) -> String {
        let parts = rel.split(separator: "/").map(String.init)
        var dir = ""
        for part in parts.dropLast() {
            dir = dir.isEmpty ? part : dir + "/" + part
            if folders.contains(dir) { continue }
            if mkdir(root + "/" + dir, 0o755) != 0 && errno != EEXIST {
                throw .io(backup, path: root + "/" + dir, "cannot create a folder (\(String(cString: strerror(errno))))")
            }
            folders.insert(dir)
        }
        return root + "/" + rel
    }

    /// Streams an entry into a new file at `path` and syncs it; the byte count and SHA-256.
    func writeEntry(_ archive: BackupArchive, _ entry: Entry, size: Int64, path: String,
                    chunk: @escaping (Int) -> Void) throws(BackupError) -> (Int64, String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd < 0 { throw .io(archive.backup, path: path, "cannot create (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        let result = try archive.extract(entry, limit: size, to: fd, path: path, chunk: chunk)
        if fsync(fd) != 0 { throw .io(archive.backup, path: path, "cannot sync (\(String(cString: strerror(errno))))") }
        return result
    }

    /// Why a `.json` file of a backup would not load, or nil: not JSON (with the parser's reason), or nested
    /// deeper than a load reads (`JSONReader.maxDepth`).
    static func jsonProblem(_ bytes: [UInt8]) -> String? {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for c in bytes {
            if inString {
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                continue
            }
            switch c {
            case 0x22: inString = true
            case 0x5B, 0x7B: depth += 1; deepest = max(deepest, depth)
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
        if deepest > JSONReader.maxDepth {
            return "it nests \(deepest) levels deep, deeper than a model file may (\(JSONReader.maxDepth) levels)"
        }
        do { _ = try JSONTree.read(bytes, nonFiniteWords: false) } catch {
            return "it is not valid JSON (\(String(error.description.prefix(160))))"
        }
        return nil
    }
}
