import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a key change was refused or stopped. Each message names the file and says what was changed.
public struct KeyChangeError: RemedyCarrying {
    public enum Kind: Sendable, Equatable {
        /// `<data>/okit` does not exist.
        case noData
        /// The current passphrase (or key file) opens no sealed file; nothing was changed.
        case wrongOld
        /// The current key material is missing or has the wrong size; nothing was changed.
        case noKey
        /// A file is sealed with a key that is neither the current one nor the new one; nothing was changed.
        case otherKey
        /// A file's seal does not verify (or it is truncated): the change stopped at it.
        case damaged
    }

    public let kind: Kind
    /// The file concerned (a sealed file, or the key material).
    public let path: String
    public let message: String
    /// The way out the front end words (after `message`).
    public let remedy: Remedy?

    public init(_ kind: Kind, path: String, _ message: String, remedy: Remedy? = nil) {
        self.kind = kind
        self.path = path
        self.message = message
        self.remedy = remedy
    }

    public var description: String { message }
    public var neutralDescription: String { message }
}

/// Changing the key of a data folder's encrypted models (storage.md "Keys": `okit-run keys passphrase`): from a
/// passphrase or the key file `keys/data.key` to a new passphrase (with a fresh salt) or a fresh key file,
/// re-sealing every sealed file under `okit/data` (and `okit/pending`), crash-safely:
///
/// 1. the old key is checked against the sealed files before anything changes;
/// 2. the new key material is written beside the old (`keys/salt.new` or `keys/data.key.new`, mode 0600), then
///    the marker `keys/change-in-progress`, which holds each key of the change sealed under each other one (so
///    either passphrase gives both keys while the change is unfinished);
/// 3. each sealed file is re-sealed with the new key (atomically; a file already sealed with it is skipped);
/// 4. the new material is renamed into place (the other kind is removed), `keys/` is synced, the marker removed.
///
/// A crash at any point leaves every file readable (with the old or the new key, both found through the
/// marker by `keys(dataFolder:passphrase:)`); running the change again with the same passphrases finishes it.
public enum KeyChange {
    /// What startup says while a change is unfinished (a front end adds how to finish it:
    /// `Remedy.finishInterruptedKeyChange(noKey: false)`).
    public static let interruptedMessage = "a passphrase change was interrupted"

    /// True while a passphrase change is unfinished (its marker exists).
    public static func interruptedChange(dataFolder: URL) -> Bool {
        FileManager.default.fileExists(atPath: Files(dataFolder).marker)
    }

    /// The keys that open the data folder's sealed files: the current key first and, while a change is
    /// unfinished, the new one (and any key of an earlier interrupted attempt), found with either passphrase.
    /// Without a change in progress this is `DataKeys.key` (which creates the key material on first use).
    public static func keys(dataFolder: URL, passphrase: String?) throws -> [SymmetricKey] {
        let f = Files(dataFolder)
        guard let marker = try Marker.read(f.marker) else {
            let current = try DataKeys.key(dataFolder: dataFolder, passphrase: passphrase)
            return [current] + (try retiredKeys(f, openedWith: [current]))
        }
        var candidates: [SymmetricKey] = []
        if let p = nonEmpty(passphrase) {
            for path in [f.salt, f.saltNew] {
                if let salt = try secret(path, count: saltSize) { candidates.append(try derive(p, salt: salt)) }
            }
        }
        for path in [f.keyFile, f.keyFileNew] {
            if let bytes = try secret(path, count: keySize) { candidates.append(SymmetricKey(data: bytes)) }
        }
        let known = marker.closure(candidates)
        if !known.isEmpty {
            let retired = try retiredKeys(f, openedWith: known).filter { r in !known.contains { SealedFile.keyId($0) == SealedFile.keyId(r) } }
            return known + retired
        }
        guard let first = candidates.first else {
            throw KeyChangeError(.noKey, path: f.keys, interruptedMessage, remedy: .finishInterruptedKeyChange(noKey: true))
        }
        return [first]
    }

    /// The key among `keys` whose id is the one in the sealed bytes' header; nil when none is (or the bytes are
    /// not sealed).
    public static func key(opening sealed: [UInt8], among keys: [SymmetricKey]) -> SymmetricKey? {
        guard let id = sealedKeyId(sealed) else { return nil }
        return keys.first { SealedFile.keyId($0) == id }
    }

    /// Changes the data folder's key and re-seals every sealed file under `okit/data` and `okit/pending` with it
    /// (plain files stay plain); returns how many
    /// files were re-sealed. `old`: the current passphrase (nil or empty: the key file `keys/data.key`); `new`:
    /// the new passphrase (nil or empty: a fresh random key file). Takes the data folder's lock (a running app
    /// on the folder makes it fail). `progress(done, total)` is called after each re-sealed file.
    @discardableResult
    public static func changePassphrase(dataFolder: URL, old: String?, new: String?,
                                        progress: ((Int, Int) -> Void)? = nil) throws -> Int {
        try change(dataFolder: dataFolder, old: old, new: new, progress: progress, crash: nil)
    }

    // MARK: The change

    /// Where a test stops a change as a crash would.
    enum CrashPoint {
        /// After re-sealing this many files.
        case afterFiles(Int)
        /// After the new key material was renamed into place, before the marker is removed.
        case beforeMarkerRemoval
    }

    static func change(dataFolder: URL, old: String?, new: String?, progress: ((Int, Int) -> Void)?,
                       crash: CrashPoint?) throws -> Int {
        let f = Files(dataFolder)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: f.okit, isDirectory: &isDir), isDir.boolValue else {
            throw KeyChangeError(.noData, path: f.okit, "there is no okit data at \(dataFolder.path)", remedy: .checkDataFolder)
        }
        let folder = DataFolder(dataFolder)
        let lock = try DataFolderLock(folder)
        defer { lock.release() }
        try BackupStore.completeInterruptedRestore(dataFolder: dataFolder)
        try FileManager.default.createDirectory(atPath: f.keys, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])

        // The models' files, and the bodies waiting for a server (`okit/pending`, sealed for `encryptedHttp`).
        let sealed = try scan(folder.models) + scan(f.okit + "/pending")
        let oldPassphrase = nonEmpty(old), newPassphrase = nonEmpty(new)
        let marker = try Marker.read(f.marker)

        // 1. The keys the files are sealed with, checked before anything changes.
        let oldKey = try currentKey(f, passphrase: oldPassphrase, needed: !sealed.isEmpty && marker == nil)
        let (known, resumed) = try knownKeys(f, sealed: sealed, marker: marker, oldKey: oldKey,
                                             oldPassphrase: oldPassphrase, newPassphrase: newPassphrase)
        // Files sealed with a key an earlier change retired (e.g. restored from an old backup) are re-sealed too.
        let opening = known + (try retiredKeys(f, openedWith: known))
        let knownIds = Set(opening.map(SealedFile.keyId))
        if let other = sealed.first(where: { !knownIds.contains($0.id) }) { throw otherKey(other, changed: false) }

        // 2. The new key material beside the old, then the marker.
        var target = resumed
        if target == nil {
            let made = try newKeyMaterial(f, passphrase: newPassphrase)
            target = made
            let currentId = marker?.currentId ?? oldKey.map(SealedFile.keyId) ?? Marker.noId
            try writeSecret(f.marker, try Marker.bytes(currentId: currentId, newId: SealedFile.keyId(made.key), keys: known + [made.key]))
        }
        guard let target else { return 0 }

        // 3. Every sealed file, re-sealed with the new key (those already sealed with it are done).
        let (done, stopped) = try reseal(sealed, opening: opening, with: target.key, progress: progress, crash: crash)
        if stopped { return done }

        // 4. The keys replaced kept under the new key, the new material in place, the other kind removed, the
        //    marker last.
        try putInPlace(f, target: target, known: known, passphrase: newPassphrase)
        if case .beforeMarkerRemoval? = crash { return done }
        try AtomicFile.remove(f.marker)
        return done
    }

    /// The keys the files are sealed with now, and the new key of an unfinished change to go on with (nil: new
    /// key material is made). With a marker (an unfinished change), either passphrase finds every key of it
    /// through the marker; else the old key is verified against the sealed files.
    static func knownKeys(_ f: Files, sealed: [(path: String, id: [UInt8])], marker: Marker?, oldKey: SymmetricKey?,
                          oldPassphrase: String?, newPassphrase: String?) throws -> (known: [SymmetricKey], resumed: (key: SymmetricKey, pending: String?)?) {
        guard let marker else {
            guard let oldKey else { return ([], nil) }
            if !sealed.isEmpty { try verify(oldKey, sealed, f, passphrase: oldPassphrase) }
            return ([oldKey], nil)
        }
        var newCandidates: [(key: SymmetricKey, pending: String?)] = []
        if let p = newPassphrase {
            if let salt = try secret(f.saltNew, count: saltSize) { newCandidates.append((try derive(p, salt: salt), f.saltNew)) }
            if let salt = try secret(f.salt, count: saltSize) { newCandidates.append((try derive(p, salt: salt), nil)) }
        } else {
            if let bytes = try secret(f.keyFileNew, count: keySize) { newCandidates.append((SymmetricKey(data: bytes), f.keyFileNew)) }
            if let bytes = try secret(f.keyFile, count: keySize) { newCandidates.append((SymmetricKey(data: bytes), nil)) }
        }
        let known = marker.closure([oldKey].compactMap { $0 } + newCandidates.map(\.key))
        guard !known.isEmpty else { throw wrongOld(f, passphrase: oldPassphrase, interrupted: true) }
        // The same new passphrase as the interrupted attempt: go on with its key; else start afresh (the files
        // already sealed with the attempt's key are still opened through the marker).
        return (known, newCandidates.first { SealedFile.keyId($0.key) == marker.newId })
    }

    /// New key material written beside the current one: a salt for a passphrase, else a random key file.
    static func newKeyMaterial(_ f: Files, passphrase: String?) throws -> (key: SymmetricKey, pending: String?) {
        if let p = passphrase {
            let salt = random(saltSize)
            try writeSecret(f.saltNew, salt)
            return (try derive(p, salt: salt), f.saltNew)
        }
        let bytes = random(keySize)
        try writeSecret(f.keyFileNew, bytes)
        return (SymmetricKey(data: bytes), f.keyFileNew)
    }

    /// Re-seals every sealed file with `key` (those already sealed with it are skipped); returns how many, and
    /// whether a test's crash point stopped it.
    static func reseal(_ sealed: [(path: String, id: [UInt8])], opening: [SymmetricKey], with target: SymmetricKey,
                       progress: ((Int, Int) -> Void)?, crash: CrashPoint?) throws -> (done: Int, stopped: Bool) {
        let targetId = SealedFile.keyId(target)
        let work = sealed.filter { $0.id != targetId }
        var done = 0
        for file in work {
            if case .afterFiles(let n)? = crash, done >= n { return (done, true) }
            guard let bytes = try AtomicFile.read(file.path) else { continue }
            guard let id = sealedKeyId(bytes), id != targetId else { continue }
            guard let key = opening.first(where: { SealedFile.keyId($0) == id }) else { throw otherKey((file.path, id), changed: done > 0) }
            let plain: [UInt8]
            do { plain = try SealedFile.open(bytes, key: key) } catch {
                throw KeyChangeError(.damaged, path: file.path, "\(file.path): \(error). The passphrase change stopped at this file; " +
                    (done > 0 ? "the \(files(done)) re-sealed before it stay\(done == 1 ? "s" : "") readable. " : "no file was re-sealed yet. ") +
                    "Move it aside or restore it from a backup", remedy: .finishKeyChange)
            }
            try AtomicFile.replace(file.path, with: try SealedFile.seal(plain, key: target))
            done += 1
            progress?(done, work.count)
        }
        return (done, false)
    }

    /// The keys replaced kept under the new key (newest first), the new material renamed into place, the other
    /// kind's files removed, the keys folder synced.
    static func putInPlace(_ f: Files, target: (key: SymmetricKey, pending: String?), known: [SymmetricKey],
                           passphrase: String?) throws {
        let retired = try retiredKeys(f, openedWith: known + [target.key])
        try writeRetired(f, known + retired, current: target.key)
        let final = passphrase != nil ? f.salt : f.keyFile
        if let pending = target.pending, rename(pending, final) != 0 {
            throw AtomicFile.error(final, "cannot rename \(pending) into place")
        }
        let leftovers = passphrase != nil ? [f.keyFile, f.keyFileNew, f.saltNew] : [f.salt, f.saltNew, f.keyFileNew]
        for path in leftovers where unlink(path) != 0 && errno != ENOENT {
            throw AtomicFile.error(path, "cannot remove")
        }
        try AtomicFile.syncFolder(f.keys)
    }

    // MARK: Files

    static let saltSize = 16, keySize = 32

    /// `<data>/okit/keys` and the files of a change.
    struct Files {
        let okit: String
        let keys: String
        init(_ dataFolder: URL) {
            let folder = DataFolder(dataFolder)
            okit = folder.okit
            keys = folder.keys
        }
        var salt: String { keys + "/" + DataFolder.saltName }
        var saltNew: String { salt + ".new" }
        var keyFile: String { keys + "/" + DataFolder.keyFileName }
        var keyFileNew: String { keyFile + ".new" }
        var marker: String { keys + "/change-in-progress" }
        var retired: String { keys + "/retired" }
    }

    /// Every sealed file under `root` (recursively; links and names starting with `.` are skipped), sorted, with
    /// its key id. Plain files are not listed.
    static func scan(_ root: String) throws -> [(path: String, id: [UInt8])] {
        var out: [(path: String, id: [UInt8])] = []
        func walk(_ dir: String) throws {
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: dir) } catch {
                if dir == root, !FileManager.default.fileExists(atPath: root) { return }
                throw StorageError(kind: .io, path: dir, message: "cannot list the folder: \(error.localizedDescription)")
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = dir + "/" + name
                var st = stat()
                guard lstat(path, &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR: try walk(path)
                case S_IFREG:
                    let head = try prefix(path, count: SealedFile.magic.count + SealedFile.idSize)
                    guard SealedFile.isSealed(head) else { continue }
                    guard head.count == SealedFile.magic.count + SealedFile.idSize, Int(st.st_size) >= SealedFile.overhead else {
                        throw KeyChangeError(.damaged, path: path, "\(path): \(SealedFile.OpenError.truncated); nothing was changed. Move it aside or restore it from a backup, then run the change again")
                    }
                    out.append((path, Array(head[SealedFile.magic.count...])))
                default: continue
                }
            }
        }
        try walk(root)
        return out
    }

    /// The first `count` bytes of a file (fewer when it is shorter).
    static func prefix(_ path: String, count: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 { throw AtomicFile.error(path, "cannot open") }
        defer { close(fd) }
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, count - got) }
            if n < 0 { if errno == EINTR { continue }; throw AtomicFile.error(path, "cannot read") }
            if n == 0 { break }
            got += n
        }
        return Array(out.prefix(got))
    }

    /// The key id in a sealed file's header; nil when the bytes are not sealed.
    static func sealedKeyId(_ bytes: [UInt8]) -> [UInt8]? {
        let start = SealedFile.magic.count
        guard SealedFile.isSealed(bytes), bytes.count >= start + SealedFile.idSize else { return nil }
        return Array(bytes[start..<start + SealedFile.idSize])
    }

    /// A key file or salt of exactly `count` bytes; nil when it does not exist.
    static func secret(_ path: String, count: Int) throws -> [UInt8]? {
        guard let bytes = try AtomicFile.read(path) else { return nil }
        guard bytes.count == count else {
            throw KeyChangeError(.noKey, path: path, "\(path) has \(bytes.count) bytes instead of \(count); restore it from a copy. Nothing was changed")
        }
        return bytes
    }

    /// Writes a secret file with mode 0600 from its creation, atomically and durably.
    static func writeSecret(_ path: String, _ bytes: [UInt8]) throws {
        try AtomicFile.replace(path, with: bytes, secret: true)
    }

    static func random(_ count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    static func files(_ n: Int) -> String { n == 1 ? "1 file" : "\(n) files" }

    static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }
}
