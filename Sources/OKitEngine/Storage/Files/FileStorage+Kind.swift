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

/// At exit a file model is stored like at any other store (storage.md "Writing"): nothing when it is unchanged
/// since it was read or last written, a journal append for a few changed entities, a full write only where any
/// store makes one. The journal stays on disk and is read with the model file at the next load; it is folded
/// into the file by the store that would grow it past its fraction, never by quitting.
extension FileStorage: ClosingStorage, FileBackedStorage {
    /// Stores what is still unstored — a model outside the app's state (`okit.state`) — as any store would.
    public func finish(_ model: Model, engine: any ModelHost) throws {
        guard model.isDirty, !unreadable.contains(model.name), !locked.contains(model.name) else { return }
        _ = try store(model, engine: engine)
    }
}
