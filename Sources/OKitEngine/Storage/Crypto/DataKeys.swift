import Crypto
import CryptoExtras
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The key of a data folder's encrypted models (storage.md "Keys"): derived from a passphrase
/// (`OKIT_PASSPHRASE`; PBKDF2-SHA256, 600,000 rounds, with a random salt kept in `okit/keys/salt`), else a random
/// 256-bit key kept in `okit/keys/data.key` (mode 0600), created on first use. `keys/` is kept at mode 0700 and
/// its files at 0600; derived keys are cached per (passphrase, salt) within the process.
public enum DataKeys {
    public static let rounds = 600_000

    /// The key for a data folder.
    public static func key(dataFolder: URL, passphrase: String?) throws -> SymmetricKey {
        let layout = DataFolder(dataFolder)
        let keys = URL(fileURLWithPath: layout.keys, isDirectory: true)
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        tighten(keys.path, to: 0o700)
        let saltFile = URL(fileURLWithPath: layout.salt), keyFile = URL(fileURLWithPath: layout.keyFile)
        if let passphrase, !passphrase.isEmpty {
            if !FileManager.default.fileExists(atPath: saltFile.path), FileManager.default.fileExists(atPath: keyFile.path) {
                throw StorageError(kind: .io, path: keyFile.path, message: "this data's key is the key file \(keyFile.path), not a passphrase",
                                   remedy: .unsetPassphrase)
            }
            try refuseFreshMaterial(saltFile.path, layout)
            return try KeyChange.derive(passphrase, salt: try secret(saltFile, bytes: 16))
        }
        if !FileManager.default.fileExists(atPath: keyFile.path), FileManager.default.fileExists(atPath: saltFile.path) {
            throw StorageError(kind: .io, path: saltFile.path, message: "this data's key comes from a passphrase", remedy: .givePassphrase)
        }
        try refuseFreshMaterial(keyFile.path, layout)
        return SymmetricKey(data: try secret(keyFile, bytes: 32))
    }

    /// Before the key material `path` is made: refuses when it is missing but the data folder holds sealed
    /// files (a fresh key would open none of them, and the folder would look sealed with "another key"; storage.md
    /// "Encrypted models"). Nothing is written. Only a model file (`okit/data/<model>.json`) or a pending body is
    /// looked at — a file moved aside by `--recover` does not count — so this costs a listing only when key
    /// material is made.
    static func refuseFreshMaterial(_ path: String, _ layout: DataFolder) throws {
        guard access(path, F_OK) != 0, errno == ENOENT, let sealed = firstSealedFile(layout) else { return }
        let name = path.hasSuffix("/" + DataFolder.saltName) ? "the salt file okit/keys/\(DataFolder.saltName)"
            : "the key file okit/keys/\(DataFolder.keyFileName)"
        throw StorageError(kind: .io, path: path,
                           message: "\(name) is missing, but \(sealed) is sealed: a new key would not open it, so none was made (nothing was written)",
                           remedy: .restoreKeys)
    }

    /// The first sealed model file or pending body of the data folder (its path), if any.
    static func firstSealedFile(_ layout: DataFolder) -> String? {
        for dir in [layout.models, layout.pending] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
            for name in names where !name.hasPrefix(".") && name.hasSuffix(".json") {
                let file = dir + "/" + name
                if let head = try? KeyChange.prefix(file, count: SealedFile.magic.count), SealedFile.isSealed(head) { return file }
            }
        }
        return nil
    }

    /// Reads a secret file, or creates it with random bytes and mode 0600 from the start (atomically: a crash
    /// never leaves a short one, nor one others can read). One found readable by others is made 0600.
    static func secret(_ url: URL, bytes count: Int) throws -> [UInt8] {
        if let data = FileManager.default.contents(atPath: url.path) {
            guard data.count == count else {
                throw StorageError(kind: .io, path: url.path, message: "the key file has \(data.count) bytes instead of \(count); restore it from a backup")
            }
            tighten(url.path, to: 0o600)
            return [UInt8](data)
        }
        let random = SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
        try KeyChange.writeSecret(url.path, random)
        return random
    }

    /// Takes group and other permissions away from a path that has them.
    static func tighten(_ path: String, to mode: mode_t) {
        var st = stat()
        if stat(path, &st) == 0, st.st_mode & 0o077 != 0 { chmod(path, mode) }
    }
}
