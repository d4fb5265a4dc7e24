import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The data folder's key material kept while the app runs (storage.md "Encrypted models"): when another program
/// (a cleanup, a sync tool) removes `okit/keys/data.key` or `okit/keys/salt`, the next store that seals — and the
/// exit — writes it again from memory, so the files sealed with it stay openable after the app quits.
extension FileStorage {
    /// The bytes of the key material the data folder's key now comes from: the salt with a passphrase, else the
    /// key file. Nil while a passphrase change is unfinished (its keys come from several files).
    func readKeyMaterial(passphrase: String?) -> (path: String, bytes: [UInt8])? {
        guard !KeyChange.interruptedChange(dataFolder: dataFolder) else { return nil }
        let path = KeyChange.nonEmpty(passphrase) == nil ? folder.keyFile : folder.salt
        guard let bytes = try? AtomicFile.read(path) else { return nil }
        return (path, bytes)
    }

    /// Writes the key material again (atomically, mode 0600) when it is gone, with a warning naming it; one
    /// `access` when it is there. Throws, so that nothing more is sealed under a key no file holds, when it cannot
    /// be written.
    func keepKeyMaterial(engine: any ModelHost) throws {
        guard let material = keyMaterial, access(material.path, F_OK) != 0, errno == ENOENT,
              !KeyChange.interruptedChange(dataFolder: dataFolder) else { return }
        let name = "okit/keys/" + URL(fileURLWithPath: material.path).lastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder.keys, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try KeyChange.writeSecret(material.path, material.bytes)
        } catch {
            throw StorageError(kind: .io, path: material.path,
                               message: "\(name) was removed while the app ran and cannot be written again (\(error)); nothing more is sealed until it is there")
        }
        engine.warn("\(material.path) was removed while the app ran; okit wrote it again from memory (the sealed data needs it: keep a copy of okit/keys/)")
    }
}
