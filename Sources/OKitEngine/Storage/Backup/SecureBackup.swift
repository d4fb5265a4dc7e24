import Crypto
import CryptoExtras
import Foundation
import Synchronization

/// The envelope of a secure backup: the whole zip sealed under a key derived from its password, so it restores
/// anywhere with the password alone.
///
/// Layout: `OKITSBK1` (8 bytes), a random salt (16), the PBKDF2-SHA256 round count (4, big-endian), the
/// creation time (8, big-endian milliseconds since 1970, for listing without the password), then
/// `SealedFile.seal(zip, key: PBKDF2(password, salt, rounds))`. The sealed part carries the key's id, so a
/// wrong password is told apart from a damaged file; its GCM tag detects any change to the archive.
enum SecureBackup {
    static let magic = Array("OKITSBK1".utf8)
    static let saltSize = 16
    static let headerSize = 8 + 16 + 4 + 8
    /// The rounds new backups use (the same floor as the data folder's keys).
    static let rounds = DataKeys.rounds
    /// The round counts a restore derives a key with: only those okit writes (600,000, backups.md). Any other is
    /// refused as damage before anything is derived, so a file's header cannot choose what checking it costs (a
    /// 20,000,000-round upload held the engine's thread for seconds).
    static let acceptedRounds: Set<Int> = [rounds]

    /// Why a header's round count is refused (nil: accepted).
    static func refusedRounds(_ rounds: Int) -> String? {
        acceptedRounds.contains(rounds) ? nil
            : "the secure header gives \(rounds) key derivation rounds (okit writes \(SecureBackup.rounds))"
    }

    /// True when the bytes start with the secure header's magic.
    static func isSecure(_ prefix: [UInt8]) -> Bool {
        prefix.count >= magic.count && prefix.prefix(magic.count).elementsEqual(magic)
    }

    struct Header {
        var salt: [UInt8]
        var rounds: Int
        var createdAt: Date
    }

    /// Reads the header; nil when the bytes are too short or not a secure backup.
    static func header(_ bytes: [UInt8]) -> Header? {
        guard bytes.count >= headerSize, isSecure(bytes) else { return nil }
        let salt = Array(bytes[8..<24])
        var rounds = 0
        for b in bytes[24..<28] { rounds = rounds << 8 | Int(b) }
        var ms: UInt64 = 0
        for b in bytes[28..<36] { ms = ms << 8 | UInt64(b) }
        return Header(salt: salt, rounds: rounds, createdAt: Date(timeIntervalSince1970: Double(Int64(bitPattern: ms)) / 1000))
    }

    /// Seals a zip with a key derived from `password` and a random salt. The salt is drawn once per password
    /// in a process and reused by its later backups, so creating several costs one key derivation (each seal
    /// still has its own random nonce, and each password its own salt).
    static func seal(_ zip: [UInt8], password: String, createdAt: Date) throws -> [UInt8] {
        let salt = creationSalt(password)
        let key = try derive(password: password, salt: salt, rounds: rounds)
        var out = magic + salt
        let r = UInt32(rounds)
        out += [UInt8(r >> 24 & 0xFF), UInt8(r >> 16 & 0xFF), UInt8(r >> 8 & 0xFF), UInt8(r & 0xFF)]
        let seconds = createdAt.timeIntervalSince1970
        let ms = UInt64(bitPattern: seconds.isFinite && abs(seconds) < 9e12 ? Int64((seconds * 1000).rounded()) : 0)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(ms >> UInt64(shift) & 0xFF)) }
        out += try SealedFile.seal(zip, key: key)
        return out
    }

    /// Opens a secure backup: the zip inside, or `wrongPassword` / `damaged`.
    static func open(_ bytes: [UInt8], password: String, backup: String, path: String) throws(BackupError) -> [UInt8] {
        guard let h = header(bytes) else { throw .damaged(backup, path: path, "the secure header is truncated") }
        if let refused = refusedRounds(h.rounds) { throw .damaged(backup, path: path, refused) }
        let key: SymmetricKey
        do { key = try derive(password: password, salt: h.salt, rounds: h.rounds) } catch {
            throw .io(backup, path: path, "cannot derive the key: \(error)")
        }
        do {
            return try SealedFile.open(Array(bytes[headerSize...]), key: key)
        } catch SealedFile.OpenError.otherKey {
            throw .wrongPassword(backup)
        } catch SealedFile.OpenError.truncated {
            throw .damaged(backup, path: path, "the sealed archive is truncated")
        } catch {
            // The key id matched, so the password is right: the archive's bytes changed.
            throw .damaged(backup, path: path, "the seal does not verify (the file was changed or truncated)")
        }
    }

    // MARK: Derived keys, cached per (password, salt, rounds) within the process

    private struct CacheKey: Hashable, Sendable {
        /// SHA-256 of the password (the cache never holds the password itself).
        let password: [UInt8]
        let salt: [UInt8]
        let rounds: Int
    }

    private static let cache = Mutex<[CacheKey: SymmetricKey]>([:])
    private static let salts = Mutex<[[UInt8]: [UInt8]]>([:])

    private static func creationSalt(_ password: String) -> [UInt8] {
        let id = Array(Crypto.SHA256.hash(data: Array(password.utf8)))
        return salts.withLock { s in
            if let salt = s[id] { return salt }
            if s.count >= maxCached { s.removeAll() }
            let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
            s[id] = salt
            return salt
        }
    }
    private static let maxCached = 32

    /// PBKDF2-SHA256 of the password; derived once per (password, salt, rounds) in a process.
    static func derive(password: String, salt: [UInt8], rounds: Int) throws -> SymmetricKey {
        let id = CacheKey(password: Array(Crypto.SHA256.hash(data: Array(password.utf8))), salt: salt, rounds: rounds)
        if let key = cache.withLock({ $0[id] }) { return key }
        let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(password.utf8), salt: salt, using: .sha256,
                                                    outputByteCount: 32, rounds: rounds)
        cache.withLock { c in
            if c.count >= maxCached { c.removeAll() }
            c[id] = key
        }
        return key
    }
}
