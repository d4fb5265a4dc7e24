import Crypto
import Foundation

/// The current key of a passphrase change: from the passphrase or the key file, checked against the sealed files,
/// and the errors when it is missing or wrong (their way out a `Remedy` the front end words).
extension KeyChange {
    /// The key the current material gives (nil when it is missing and not `needed`).
    static func currentKey(_ f: Files, passphrase: String?, needed: Bool) throws -> SymmetricKey? {
        if let passphrase {
            if let salt = try secret(f.salt, count: saltSize) { return try derive(passphrase, salt: salt) }
            guard !needed else {
                throw KeyChangeError(.noKey, path: f.salt, "there is no \(f.salt): this data's key does not come from a passphrase but from the key file \(f.keyFile). Nothing was changed",
                                     remedy: .useKeyFile(keyFile: f.keyFile))
            }
            return nil
        }
        if let bytes = try secret(f.keyFile, count: keySize) { return SymmetricKey(data: bytes) }
        guard !needed else {
            throw KeyChangeError(.noKey, path: f.keyFile, "there is no key file \(f.keyFile). Nothing was changed", remedy: .giveCurrentPassphrase)
        }
        return nil
    }

    /// Checks that the old key opens at least one sealed file (its id and its tag).
    static func verify(_ key: SymmetricKey, _ sealed: [(path: String, id: [UInt8])], _ f: Files, passphrase: String?) throws {
        let id = SealedFile.keyId(key)
        for file in sealed where file.id == id {
            if let bytes = try AtomicFile.read(file.path), (try? SealedFile.open(bytes, key: key)) != nil { return }
        }
        throw wrongOld(f, passphrase: passphrase, interrupted: false)
    }

    static func wrongOld(_ f: Files, passphrase: String?, interrupted: Bool) -> KeyChangeError {
        let remedy = Remedy.currentKeyWrong(passphraseGiven: passphrase != nil, interrupted: interrupted)
        if passphrase != nil {
            return KeyChangeError(.wrongOld, path: f.salt, "the current passphrase is wrong: no file opens with it. Nothing was changed",
                                  remedy: interrupted ? remedy : nil)
        }
        return KeyChangeError(.wrongOld, path: f.keyFile, "the current key file \(f.keyFile) is wrong: no file opens with it. Nothing was changed",
                              remedy: remedy)
    }

    static func otherKey(_ file: (path: String, id: [UInt8]), changed: Bool) -> KeyChangeError {
        KeyChangeError(.otherKey, path: file.path, "\(file.path) is sealed with another key (id \(Hex.encode(file.id))) than the current or the new one; " +
            (changed ? "the change stopped at it (the files re-sealed before it stay readable)" : "nothing was changed") +
            ". Move it aside, or open it with its own key first")
    }
}
