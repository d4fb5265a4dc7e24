import Foundation
import OKitEngine

/// Models' storage (storage.md "Storage kinds"): the kind named in `okit.model` is asked of the registry
/// (`LuaAppOptions.storageKinds`) by the session; this side words its refusals.
extension LuaApp {
    /// The storage for a model of the given kind: `file` and `encrypted` models share the data folder's file
    /// storage; an encrypted one is sealed with the data folder's key (`OKIT_PASSPHRASE` or `okit/keys/data.key`).
    func storage(for kind: StorageKind, model name: String, endpoint: String? = nil, database: String? = nil) throws -> ModelStorage {
        do {
            return try session.makeStorage(kind: kind, model: name, endpoint: endpoint, database: database)
        } catch SessionError.noDataFolder {
            throw LuaRaise("no data folder: run the app with --data DIR (or okit-run picks $XDG_DATA_HOME/okit/<app id>)")
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
            case .noDatabase:
                storageFailed = true
                throw LuaRaise("\(what): no database: set OKIT_DATABASE_URL=postgres://user@host:port/database, or give database = \"postgres://…\" in okit.model or okit.app")
            case .badDatabaseURL(let text):
                storageFailed = true
                throw LuaRaise("\(what): \(text); write it as postgres://user@host:port/database")
            case .unknownKind(let s):
                throw LuaRaise("okit.model(…, { name = \"\(name)\" }): unknown storage \"\(s)\" (\(storageKindNames))")
            }
        }
    }

    /// The registered kinds, as an unknown kind's message lists them.
    var storageKindNames: String { options.storageKinds.kinds.map(\.rawValue).joined(separator: ", ") }
}
