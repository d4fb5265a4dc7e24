import Foundation

/// The `file` and `encrypted` storage kinds: both share the data folder's file storage.
extension FileStorage {
    /// An `encrypted` model: the data folder's file storage, the model sealed with the data folder's key
    /// (the passphrase or `okit/keys/data.key`).
    static func sealedFactory(_ r: StorageRequest) throws -> ModelStorage {
        let s = try r.host.dataFolderStorage()
        do { try s.seal(model: r.model, passphrase: r.host.passphrase) } catch {
            throw StorageOptionError(kind: r.kind, reason: .key(sealing: true), underlying: error, isStorage: true)
        }
        return s
    }
}

/// At exit every model's journal is written into its model file (`compact`), so each `<model>.json` is whole.
extension FileStorage: ClosingStorage, FileBackedStorage {
    public func finish(_ model: Model, engine: any ModelHost) throws { try compact(model, engine: engine) }
}
