import CLua
import Foundation
import OKitEngine

/// Models' storage (storage.md "Storage kinds"): the kind named in `okit.model` is asked of the registry
/// (`LuaAppOptions.storageKinds`) by the session, with the model's options; this side words its refusals.
extension LuaApp {
    /// The storage for a model of the given kind: `file` and `encrypted` models share the data folder's file
    /// storage; an encrypted one is sealed with the data folder's key (`OKIT_PASSPHRASE` or `okit/keys/data.key`).
    func storage(for kind: StorageKind, model name: String, type: String, options modelOptions: [String: Value]) throws -> ModelStorage {
        do {
            return try session.makeStorage(kind: kind, model: name, options: modelOptions, rootType: engine.schema.type(named: type))
        } catch SessionError.noDataFolder {
            throw LuaRaise("no data folder: run the app with --data DIR (or okit-run picks $XDG_DATA_HOME/okit/<app id>)")
        } catch let e as StorageOptionError {
            if e.isStorage { storageFailed = true }
            throw LuaRaise(words(for: e, model: name, type: type))
        }
    }

    /// The environment variable that overrides a model option of every model (okit-run's words for a setting).
    static let optionVariables = ["endpoint": "OKIT_ENDPOINT", "database": "OKIT_DATABASE_URL"]

    /// A kind's refusal in okit-run's words.
    func words(for e: StorageOptionError, model name: String, type: String) -> String {
        let what = "okit.model(…, { name = \"\(name)\", storage = \"\(e.kind)\" })"
        let option = e.option ?? ""
        switch e.reason {
        case .missing(let example) where option == "database":
            return "\(what): no database: set \(Self.optionVariables[option] ?? "")=\(example), or give database = \"postgres://…\" in okit.model or okit.app"
        case .missing(let example):
            let variable = Self.optionVariables[option].map { ", or set \($0)" } ?? ""
            return "\(what): no \(option): give \(option) = \"\(example)\" in okit.model, declare okit.app { \(option) = … } before the model\(variable)"
        case .invalid(let value, let problem, let example):
            if option == "database" {   // the URL as PostgresSettings shows it (without a password)
                return "\(what): the database URL \"\(value)\" \(problem)" + (example.map { "; write it as \($0)" } ?? "")
            }
            return "\(what): \(option) \"\(value)\" \(problem)" + (example.map { "; write it as \($0)" } ?? "")
        case .wrongType(let expected, let example):
            return "okit.model(\"\(type)\"): \(option) must be \(expected), e.g. \"\(example)\""
        case .notSupported(let why, let instead):
            return "okit.model(\"\(type)\"): storage = \"\(e.kind)\" cannot be \(option) (\(why)): remove \(option) = true"
                + (instead.map { ", or \($0)" } ?? "")
        case .schema(let problem):
            return "okit.model(\"\(type)\"): \(problem)"
        case .key(sealing: true):
            return "okit.model(\"\(name)\"): the data folder's key: \(e.underlying.map { wordedMessage($0) } ?? "")"
        case .key(sealing: false):
            return "\(what): the data folder's key: \(e.underlying.map { wordedMessage($0) } ?? "")"
        case .unknownKind:
            return "okit.model(…, { name = \"\(name)\" }): unknown storage \"\(e.kind)\" (\(storageKindNames))"
        }
    }

    /// An `okit.model` option as a storage kind reads it (nil: not given); a table or a function is a list, which
    /// no kind takes for a text or a flag.
    func storageOption(_ luaType: Int32) -> Value? {
        switch luaType {
        case LUA_TNIL: return nil
        case LUA_TSTRING: return lua.string(at: -1).map(Value.string) ?? .null
        case LUA_TBOOLEAN: return .bool(lua_toboolean(lua.L, -1) != 0)
        case LUA_TNUMBER: return .double(lua_tonumberx(lua.L, -1, nil))
        default: return .list([])
        }
    }

    /// The registered kinds, as an unknown kind's message lists them.
    var storageKindNames: String { options.storageKinds.kinds.map(\.rawValue).joined(separator: ", ") }
}
