import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// `okit.app { id, version, authenticate, endpoint, database, autosave, … }`: keeps the declaration for the
    /// screens layer and takes what the session needs of it now.
    func declareApp(_ call: LuaCall) throws -> Int32 {
        try call.requireTable(1)
        try app.refuseUnknownOptions(1, known: app.appOptionKeys, what: "okit.app", function: "app", id: nil,
                                     site: LuaApp.callerPosition(call.L))
        app.appDeclaration = try app.takingOKitAppNames(call.value(1))
        if case .table(_, let hash)? = app.appDeclaration, case .string(let id)? = hash[.string("id")], !id.isEmpty { app.session.appId = id }
        app.screenSites[AppShell.appCheckName] = LuaApp.callerPosition(call.L)
        if lua.rawGet(1, "version") == LUA_TNUMBER {
            let v = Int(lua_tointegerx(lua.L, -1, nil))
            app.appVersion = v
            engine.schemaVersion = v
        }
        lua.pop()
        switch lua.rawGet(1, "authenticate") {
        case LUA_TFUNCTION: app.authenticateFn = lua.ref()
        case LUA_TNIL: lua.pop()
        default:
            lua.pop()
            throw LuaRaise("okit.app: authenticate must be a function that returns true to uncover the app")
        }
        for key in app.appStorageDefaultKeys {
            switch key {
            case "endpoint": try readStorageDefault(key, example: "http://127.0.0.1:8080/okit")
            case "database": try readStorageDefault(key, example: "postgres://okit@127.0.0.1:5432/shop")
            default: try readStorageDefault(key, what: "a string", example: nil)
            }
        }
        switch lua.rawGet(1, "autosave") {
        case LUA_TNUMBER:
            let s = lua_tonumberx(lua.L, -1, nil)
            lua.pop()
            guard s > 0, s.isFinite else { throw LuaRaise("okit.app: autosave must be a number of seconds > 0") }
            app.session.autosaveSeconds = s
        case LUA_TNIL: lua.pop()
        default:
            lua.pop()
            throw LuaRaise("okit.app: autosave must be a number of seconds > 0")
        }
        return 0
    }

    /// `okit.app { <key> = "URL" }` (`endpoint`, `database`): the default of the app's models that name none.
    private func readStorageDefault(_ key: String, what: String = "a URL string", example: String?) throws {
        switch lua.rawGet(1, key) {
        case LUA_TSTRING:
            app.session.appStorageDefaults[key] = lua.string(at: -1)
            lua.pop()
        case LUA_TNIL: lua.pop()
        default:
            lua.pop()
            throw LuaRaise("okit.app: \(key) must be \(what)" + (example.map { ", e.g. \"\($0)\"" } ?? ""))
        }
    }
}
