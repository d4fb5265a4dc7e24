import Crypto
import CryptoExtras
import Foundation

/// The key of a data folder's encrypted models (storage.md "Keys"): derived from a passphrase
/// (`OKIT_PASSPHRASE`; PBKDF2-SHA256, 600,000 rounds, with a random salt kept in `okit/keys/salt`), else a random
/// 256-bit key kept in `okit/keys/data.key` (mode 0600), created on first use.
public enum DataKeys {
    public static let rounds = 600_000

    /// The key for a data folder.
    public static func key(dataFolder: URL, passphrase: String?) throws -> SymmetricKey {
        let keys = dataFolder.appendingPathComponent("okit/keys")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        if let passphrase, !passphrase.isEmpty {
            let salt = try secret(keys.appendingPathComponent("salt"), bytes: 16)
            return try KDF.Insecure.PBKDF2.deriveKey(from: Array(passphrase.utf8), salt: salt, using: .sha256,
                                                     outputByteCount: 32, rounds: rounds)
        }
        return SymmetricKey(data: try secret(keys.appendingPathComponent("data.key"), bytes: 32))
    }

    /// Reads a secret file, or creates it with random bytes and mode 0600 (atomically: a crash never leaves a short one).
    static func secret(_ url: URL, bytes count: Int) throws -> [UInt8] {
        if let data = FileManager.default.contents(atPath: url.path) {
            guard data.count == count else {
                throw StorageError(kind: .io, path: url.path, message: "the key file has \(data.count) bytes instead of \(count); restore it from a backup")
            }
            return [UInt8](data)
        }
        let random = SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
        try AtomicFile.replace(url.path, with: random)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return random
    }
}
