import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One backup in `<data>/okit/backup`.
public struct BackupInfo: Sendable, Equatable {
    /// The name it was created with (the file name without `.okbackup`).
    public let name: String
    /// When it was created (from its manifest or secure header, else the file's modification time).
    public let createdAt: Date
    /// True for a secure backup (sealed under a password).
    public let secure: Bool
    /// The file's size in bytes.
    public let size: Int64
    /// `<data>/okit/backup/<name>.okbackup`.
    public let url: URL
    /// Why the file cannot be restored, when `list` found it does not read as a backup (truncated, garbage, an
    /// archive whose entries do not match its manifest); nil for a backup that passed the checks a list makes.
    public var damaged: String?

    public init(name: String, createdAt: Date, secure: Bool, size: Int64, url: URL, damaged: String? = nil) {
        (self.name, self.createdAt, self.secure, self.size, self.url, self.damaged) = (name, createdAt, secure, size, url, damaged)
    }
}

/// The backups of a data folder (storage.md "Backups"): each one file `<data>/okit/backup/<name>.okbackup`, a
/// zip of `manifest.json` and every file under `<data>/okit/data` (never the keys, the lock or pending
/// changes). A secure backup holds every file in plain form inside a zip sealed under its password.
///
/// A `BackupStore` takes no lock: the caller holds the data folder's lock (the running app, or `okit-run
/// backup`), stores the state before `create`, and reloads the app after `restore`.
public struct BackupStore: Sendable {
    public static let fileExtension = "okbackup"
    /// `<data>`.
    public let dataFolder: URL
    /// The id of the app restoring (`okit.app { id }`): a backup whose manifest names another app is refused
    /// (naming both ids) unless `allowOtherApp`. Nil: not checked.
    public var appId: String?
    /// Restore a backup made by another app anyway (`okit-run backup restore --force`).
    public var allowOtherApp = false
    /// The forms besides `<model>.json` models may be kept in (`StorageRegistry.forms`): a backup holds a
    /// consistent copy of each such file (never its side files), and a restore checks that it reads.
    public var forms: [DataFolderForm] = []
    /// The limits of reading an archive (ratio, total size; `SessionOptions.archiveLimits`).
    public var limits = ArchiveLimits()
    /// Tests turn the atomic exchange off to exercise the two-rename fallback.
    var useRenameExchange = true
    /// Tests stop the two-rename fallback part-way to simulate a crash.
    var crashPoint: FolderSwap.CrashPoint?
    /// Whether the disk of a folder is full (tests pretend it is).
    var isDiskFull: @Sendable (String) -> Bool = { DiskSpace.isFull(at: $0) }

    /// The backups of the data folder `dataFolder` (`<data>`, the folder that holds `okit/`).
    public init(dataFolder: URL) {
        self.dataFolder = dataFolder
    }

    var okit: String { DataFolder(dataFolder).okit }
    /// `<data>/okit/backup`.
    public var backupFolder: URL { URL(fileURLWithPath: DataFolder(dataFolder).backups) }
    var modelsFolder: String { DataFolder(dataFolder).models }

    // MARK: Names

    /// The characters a backup name may not hold: the ones OKit's backups screen takes out of a name (its
    /// `fileName`), which a file name on some system cannot hold.
    public static let forbiddenInName = "/\\:?%*|\"<>"
    /// The most characters a backup name has; and at most `maxNameBytes` bytes of UTF-8 (a character can be
    /// several scalars), so the file name with `.okbackup` stays under the file system's 255.
    public static let maxNameLength = 60
    /// Unicode's explicit direction marks, embeddings, overrides and isolates (UAX #9).
    static let directionControls: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                                 0x2066, 0x2067, 0x2068, 0x2069]
    public static let maxNameBytes = 200

    /// The name a backup is created under: trimmed, without a trailing `.okbackup`; refused when empty, longer than
    /// `maxNameLength` characters, starting with `.` (hidden), or holding one of `forbiddenInName` or a control
    /// character — the rule `backupBadName` states.
    public static func sanitize(_ raw: String) throws(BackupError) -> String {
        let name = try stripped(raw)
        if let c = name.first(where: { forbiddenInName.contains($0) }) { throw .invalidName(raw, "it contains \(c)") }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw .invalidName(raw, "it contains a control character")
        }
        // A name shown reversed by a text direction control (`\u{202E}gpj.exe` reads as "exe.jpg") deceives.
        if name.unicodeScalars.contains(where: { BackupStore.directionControls.contains($0.value) }) {
            throw .invalidName(raw, "it contains a text direction control")
        }
        if name.count > maxNameLength || name.utf8.count > maxNameBytes {
            throw .invalidName(raw, "it is longer than \(maxNameLength) characters")
        }
        return name
    }

    func file(named name: String) -> URL {
        backupFolder.appendingPathComponent(name + "." + BackupStore.fileExtension)
    }

    /// A backup by name (in the backup folder), else a file by path. Returns the name used in messages.
    func resolve(_ nameOrFile: String) throws(BackupError) -> (display: String, url: URL) {
        if !nameOrFile.contains("/"), let name = try? BackupStore.existingName(nameOrFile),
           FolderSwap.exists(file(named: name).path) {
            return (name, file(named: name))
        }
        let trimmed = nameOrFile.trimmingCharacters(in: .whitespacesAndNewlines)
        var st = stat()
        if !trimmed.isEmpty, stat(trimmed, &st) == 0, st.st_mode & S_IFMT == S_IFREG {
            return (trimmed, URL(fileURLWithPath: trimmed))
        }
        throw .notFound(nameOrFile, folder: backupFolder.path)
    }

    // MARK: Create

    /// Creates `<data>/okit/backup/<name>.okbackup` from every file under `<data>/okit/data` (the caller stores the
    /// state first) and returns it. With a `password` the backup is secure: each sealed file is opened with the
    /// key `openSealed` gives for its key id, and the whole zip is sealed under a key derived from the password.
    /// The archive is written to a temporary file and renamed into place, so a failure leaves no backup behind.
    /// `progress` sees (bytes done, bytes in all) as files are read.
    @discardableResult
    public func create(name: String, appId: String, password: String? = nil,
                       openSealed: (_ keyId: [UInt8]) -> SymmetricKey? = { _ in nil },
                       now: Date = Date(), extraFiles: [(path: String, bytes: [UInt8])] = [],
                       progress: ((Int64, Int64) -> Void)? = nil) throws -> BackupInfo {
        let name = try BackupStore.sanitize(name)
        if let password, password.isEmpty {
            throw BackupError(.passwordNeeded, backup: name, "a secure backup needs a password that is not empty")
        }
        let folder = backupFolder.path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw BackupError.io(name, path: folder, "cannot create the backup folder (\(error.localizedDescription))")
        }
        let final = file(named: name)
        if FolderSwap.exists(final.path) { throw BackupError.exists(name, path: final.path) }
        let tmp = folder + "/." + name + "." + BackupStore.fileExtension + ".tmp"
        unlink(tmp)   // a temporary left by a crash
        do {
            let files = BackupStore.dataFiles(under: modelsFolder)
            if let password {
                let archive = try BackupArchive.createInMemory(backup: name)
                try fill(archive, files: files, extra: extraFiles, appId: appId, secure: true, openSealed: openSealed, now: now, progress: progress)
                let sealed = try SecureBackup.seal(archive.data, password: password, createdAt: now)
                try BackupStore.write(sealed, to: tmp, backup: name)
            } else {
                do {
                    let archive = try BackupArchive.create(at: URL(fileURLWithPath: tmp), backup: name)
                    try fill(archive, files: files, extra: extraFiles, appId: appId, secure: false, openSealed: openSealed, now: now, progress: progress)
                }   // the archive's file is closed here
                try BackupStore.syncFile(tmp, backup: name)
            }
            try BackupStore.publish(tmp, as: final.path, backup: name)
        } catch {
            unlink(tmp)
            // A full disk is said as such (the system's words name the hidden temporary).
            if (error as? BackupError)?.kind ?? .io == .io,
               "\(error)".contains(String(cString: strerror(ENOSPC))) || isDiskFull(folder) {
                throw BackupError.io(name, path: folder, "no space left on the disk for the backup; free some space and create it again (nothing was written)")
            }
            throw error
        }
        var st = stat()
        stat(final.path, &st)
        return BackupInfo(name: name, createdAt: now, secure: password != nil, size: Int64(st.st_size), url: final)
    }

    /// Adds every data file and then the manifest.
    private func fill(_ archive: BackupArchive, files: [(path: String, size: Int64)], extra: [(path: String, bytes: [UInt8])],
                      appId: String, secure: Bool,
                      openSealed: (_ keyId: [UInt8]) -> SymmetricKey?, now: Date,
                      progress: ((Int64, Int64) -> Void)?) throws {
        let total = files.reduce(Int64(0)) { $0 + $1.size }
        var done: Int64 = 0
        progress?(0, total)
        var entries: [BackupManifest.File] = []
        // Files made for the backup (a shared model's consistent snapshot) stand for any file of the same name.
        let extraPaths = Set(extra.map(\.path))
        for (path, bytes) in extra {
            try archive.add(BackupManifest.dataPrefix + path, bytes, compress: true, date: now)
            entries.append(.init(path: path, size: Int64(bytes.count), sha256: BackupArchive.sha256(bytes), keyId: nil))
        }
        for f in files where !extraPaths.contains(f.path) {
            let path = modelsFolder + "/" + f.path
            // A model in another form (a SQLite database) is copied consistently (its WAL's content included), never
            // file by file.
            if forms.contains(where: { $0.isSideFile(f.path) }) { continue }
            let stored: [UInt8]
            do {
                if let form = forms.first(where: { $0.model(ofFile: f.path) != nil }) {
                    stored = try form.snapshot(path)
                } else {
                    guard let bytes = try AtomicFile.read(path) else { continue }   // removed meanwhile
                    stored = bytes
                }
            } catch {
                throw BackupError.io(archive.backup, path: path, "cannot read (\(error))")
            }
            var bytes = stored
            let sealed = SealedFile.isSealed(stored) && stored.count >= SealedFile.overhead
            let keyId = sealed ? Array(stored[SealedFile.magic.count..<SealedFile.magic.count + SealedFile.idSize]) : nil
            if secure, let keyId {
                guard let key = openSealed(keyId) else {
                    throw BackupError(.keyNeeded, backup: archive.backup, "cannot make secure backup \(archive.backup): \(path) is sealed with key id \(BackupHex.encode(keyId)) and no key opens it",
                                      remedy: .passphraseOrKeyFile)
                }
                do { bytes = try SealedFile.open(stored, key: key) } catch {
                    throw BackupError(.keyNeeded, backup: archive.backup, "cannot make secure backup \(archive.backup): \(path): \(error)")
                }
            }
            let inArchiveSealed = sealed && !secure
            try archive.add(BackupManifest.dataPrefix + f.path, bytes, compress: !inArchiveSealed, date: now)
            entries.append(.init(path: f.path, size: Int64(bytes.count), sha256: BackupArchive.sha256(bytes),
                                 keyId: inArchiveSealed ? keyId.map { BackupHex.encode($0) } : nil))
            done += f.size
            progress?(min(done, total), total)
        }
        let manifest = BackupManifest(formatVersion: BackupManifest.currentVersion, appId: appId,
                                      createdAt: BackupManifest.timestamp(now), secure: secure, files: entries)
        try archive.add(BackupManifest.entryName, try manifest.encoded(), compress: true, date: now)
        progress?(total, total)
    }

    /// Every regular file under `root`, relative, sorted, and every symbolic link to a regular file (a model file
    /// kept elsewhere: the backup holds the file it leads to); other links (to a folder, to nothing) and other
    /// non-regular files are skipped, and so are names starting with "." (the temporaries of atomic writes) or
    /// otherwise unsafe.
    static func dataFiles(under root: String) -> [(path: String, size: Int64)] {
        var out: [(path: String, size: Int64)] = []
        func walk(_ rel: String) {
            let dir = rel.isEmpty ? root : root + "/" + rel
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() {
                let child = rel.isEmpty ? name : rel + "/" + name
                guard BackupManifest.unsafety(of: child) == nil else { continue }
                var st = stat()
                guard lstat(root + "/" + child, &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR: walk(child)
                case S_IFREG: out.append((child, Int64(st.st_size)))
                case S_IFLNK:
                    var target = stat()
                    if stat(root + "/" + child, &target) == 0, target.st_mode & S_IFMT == S_IFREG {
                        out.append((child, Int64(target.st_size)))
                    }
                default: continue   // sockets, fifos
                }
            }
        }
        walk("")
        return out
    }

    // MARK: List, delete, inspect

    /// Every backup in `<data>/okit/backup`, newest first.
    public func list() throws -> [BackupInfo] {
        let folder = backupFolder.path
        guard FolderSwap.exists(folder) else { return [] }
        removeStaleTemporariesIfFree()
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw BackupError.io("list", path: folder, "cannot list the backups (\(error.localizedDescription))")
        }
        var out: [BackupInfo] = []
        for file in names where !file.hasPrefix(".") && file.hasSuffix("." + BackupStore.fileExtension) {
            let url = backupFolder.appendingPathComponent(file)
            var st = stat()
            guard lstat(url.path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            let name = String(file.dropLast(BackupStore.fileExtension.count + 1))
            let prefix = BackupStore.prefix(url.path, count: SecureBackup.headerSize)
            let secure = SecureBackup.isSecure(prefix)
            let mtime = Date(timeIntervalSince1970: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
            let (created, damaged) = secure ? BackupStore.secureHeader(prefix, size: Int64(st.st_size)) : checkedManifest(url, name: name)
            out.append(BackupInfo(name: name, createdAt: created ?? mtime, secure: secure, size: Int64(st.st_size), url: url,
                                  damaged: damaged))
        }
        return out.sorted { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.name < $1.name }
    }

    /// A plain backup's creation date from its manifest, after the checks a restore makes before it reads a
    /// file (the archive's structure, its entries against the manifest; not the app it was made by); else why
    /// it is damaged.
    func checkedManifest(_ url: URL, name: String) -> (Date?, damaged: String?) {
        var store = self
        store.appId = nil
        do {
            let archive = try BackupArchive.open(at: url, backup: name, limits: limits)
            let (manifest, _) = try store.checkEntries(archive, secure: false, path: url.path)
            return (manifest.createdDate, nil)
        } catch let e as BackupError {
            if e.kind == .newerFormat { return (nil, nil) }   // not damaged: a newer okit restores it
            return (nil, e.reason ?? e.message.split(separator: "\n").first.map(String.init) ?? "it does not read")
        } catch {
            return (nil, "\(error)")
        }
    }

    /// A secure backup's creation date from its header (the rest needs the password); else why it is damaged.
    static func secureHeader(_ prefix: [UInt8], size: Int64) -> (Date?, damaged: String?) {
        guard let h = SecureBackup.header(prefix) else { return (nil, "the secure header is truncated") }
        if let refused = SecureBackup.refusedRounds(h.rounds) { return (nil, refused) }
        if size < Int64(SecureBackup.headerSize + SealedFile.overhead) { return (h.createdAt, "the sealed archive is truncated") }
        return (h.createdAt, nil)
    }

    /// Deletes the backup named `name`; an unknown name is an error.
    public func delete(name: String) throws {
        let name = try BackupStore.existingName(name)
        let path = file(named: name).path
        guard FolderSwap.exists(path) else { throw BackupError.notFound(name, folder: backupFolder.path) }
        if unlink(path) != 0 {
            throw BackupError.io(name, path: path, "cannot delete the backup (\(String(cString: strerror(errno))))")
        }
        try? AtomicFile.syncFolder(backupFolder.path)
    }

    /// True when the backup (by name, or a file by path) is secure and so needs its password to restore.
    public func isSecure(_ nameOrFile: String) throws -> Bool {
        let (_, url) = try resolve(nameOrFile)
        return SecureBackup.isSecure(BackupStore.prefix(url.path, count: SecureBackup.magic.count))
    }

    /// Finishes (or undoes) a restore that a crash interrupted, and deletes what earlier restores left behind.
    /// Call it at start, before the data folder is read.
    public static func completeInterruptedRestore(dataFolder: URL) throws {
        let okit = DataFolder(dataFolder).okit
        guard FolderSwap.exists(okit) else { return }
        try FolderSwap.complete(okit: okit)
    }

    // MARK: Files

    /// The first `count` bytes of a file (fewer when it is shorter; none when it does not open).
    static func prefix(_ path: String, count: Int) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var out = [UInt8](repeating: 0, count: count)
        let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
        return Array(out.prefix(max(0, n)))
    }

    /// Writes a new file and syncs it.
    static func write(_ bytes: [UInt8], to path: String, backup: String) throws(BackupError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 { throw .io(backup, path: path, "cannot create (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        do {
            try bytes.withUnsafeBytes { try AtomicFile.writeAll(fd, $0, path: path) }
        } catch {
            throw .io(backup, path: path, "cannot write (\(error))")
        }
        if fsync(fd) != 0 { throw .io(backup, path: path, "cannot sync (\(String(cString: strerror(errno))))") }
    }

    static func syncFile(_ path: String, backup: String) throws(BackupError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw .io(backup, path: path, "cannot open (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        if fsync(fd) != 0 { throw .io(backup, path: path, "cannot sync (\(String(cString: strerror(errno))))") }
    }

    /// Gives the finished temporary its name without ever replacing an existing backup (`link` fails when the
    /// name exists), then syncs the folder.
    static func publish(_ tmp: String, as final: String, backup: String) throws(BackupError) {
        if link(tmp, final) == 0 {
            unlink(tmp)
        } else if errno == EEXIST {
            throw .exists(backup, path: final)
        } else {
            // A file system without hard links: rename after checking the name is free.
            if FolderSwap.exists(final) { throw .exists(backup, path: final) }
            if rename(tmp, final) != 0 { throw .io(backup, path: final, "cannot name the backup (\(String(cString: strerror(errno))))") }
        }
        do { try AtomicFile.syncFolder((final as NSString).deletingLastPathComponent) } catch {
            throw .io(backup, path: final, "cannot sync the backup folder (\(error))")
        }
    }
}
