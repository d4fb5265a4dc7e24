import Foundation
import OKitEngine

/// Models' storage (storage.md "Storage kinds"): the kind named in `okit.model` is asked of the registry
/// (`LuaAppOptions.storageKinds`); this side gives it the data folder and the settings, and words its refusals.
extension LuaApp {
    /// The storage for a model of the given kind: `file` and `encrypted` models share the data folder's file
    /// storage; an encrypted one is sealed with the data folder's key (`OKIT_PASSPHRASE` or `okit/keys/data.key`).
    func storage(for kind: StorageKind, model name: String, endpoint: String? = nil) throws -> ModelStorage {
        let request = StorageRequest(model: name, kind: kind, endpoint: endpoint, host: LuaStorageHost(self))
        do {
            return try options.storageKinds.makeStorage(request)
        } catch let e as StorageOptionError {
            let what = "okit.model(…, { name = \"\(name)\", storage = \"\(kind)\" })"
            switch e {
            case .noEndpoint:
                throw LuaRaise("\(what): no endpoint: give endpoint = \"http://host:port/path\" in okit.model, declare okit.app { endpoint = … } before the model, or set OKIT_ENDPOINT")
            case .notAnHTTPURL(let text):
                throw LuaRaise("\(what): endpoint \"\(text)\" is not an http:// or https:// URL with a host")
            case .key(let error, sealing: true):
                storageFailed = true   // no key for the data: a storage problem (exit 4), not the app's code
                throw LuaRaise("okit.model(\"\(name)\"): the data folder's key: \(CommandLineAdvice.message(for: error))")
            case .key(let error, sealing: false):
                throw LuaRaise("\(what): the data folder's key: \(CommandLineAdvice.message(for: error))")
            case .unknownKind(let s):
                throw LuaRaise("okit.model(…, { name = \"\(name)\" }): unknown storage \"\(s)\" (\(storageKindNames))")
            }
        }
    }

    /// The registered kinds, as an unknown kind's message lists them.
    var storageKindNames: String { options.storageKinds.kinds.map(\.rawValue).joined(separator: ", ") }

    /// The data folder's file storage, opened (and its lock taken) on first use. Every app with stored models
    /// opens it — HTTP models too keep their pending changes in the data folder.
    func dataFolderStorage() throws -> FileStorage {
        if let existing = fileStorage { return existing }
        guard let folder = options.dataFolder else {
            throw LuaRaise("no data folder: run the app with --data DIR (or okit-run picks $XDG_DATA_HOME/okit/<app id>)")
        }
        let s = try FileStorage(dataFolder: folder)
        s.remedyWording = CommandLineAdvice.words(for:)
        fileStorage = s
        if KeyChange.interruptedChange(dataFolder: folder) { engine.warn(CommandLineAdvice.interruptedKeyChange) }
        return s
    }
}

/// What a storage kind gets from the app: its data folder, its settings, its shared storages.
final class LuaStorageHost: StorageHost {
    unowned let app: LuaApp
    init(_ app: LuaApp) { self.app = app }

    var dataFolderLayout: DataFolder? { app.options.dataFolder.map(DataFolder.init) }
    func dataFolderStorage() throws -> FileStorage { try app.dataFolderStorage() }
    var passphrase: String? { app.options.passphrase }
    var endpointOverride: String? { app.options.endpoint }
    var appEndpoint: String? { app.appEndpoint }
    var endpointToken: String? { app.options.endpointToken }
    var httpTimeout: TimeInterval { app.options.httpTimeout }
    var remedyWording: (@Sendable (Remedy) -> String)? { CommandLineAdvice.words(for:) }

    func sharedStorage(_ id: String, make: () throws -> ModelStorage) throws -> ModelStorage {
        if let existing = app.sharedStorages[id] { return existing }
        let s = try make()
        app.sharedStorages[id] = s
        return s
    }
}
