import Foundation

/// The `file` and `encrypted` storage kinds: both share the data folder's file storage.
extension FileStorage {
    /// An `encrypted` model: the data folder's file storage, the model sealed with the data folder's key
    /// (`OKIT_PASSPHRASE` or `okit/keys/data.key`).
    static func sealedFactory(_ r: StorageRequest) throws -> ModelStorage {
        let s = try r.host.dataFolderStorage()
        do { try s.seal(model: r.model, passphrase: r.host.passphrase) } catch {
            throw StorageOptionError.key(error, sealing: true)
        }
        return s
    }
}
