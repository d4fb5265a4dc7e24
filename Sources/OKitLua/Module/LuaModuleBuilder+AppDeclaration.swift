import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// `okit.app { id, version, authenticate, endpoint, database, autosave, … }`: keeps the declaration for the
    /// screens layer and takes what the session needs of it now.
    func declareApp(_ call: LuaCall) throws -> Int32 {
        try call.requireTable(1)
        try app.refuseUnknownOptions(1, known: app.appOptionKeys, what: "okit.app", function: "app", id: nil,
                                     site: LuaApp.callerPosition(call.L), advice: localeAdvice)
        app.appDeclaration = try app.takingOKitAppNames(call.value(1))
        if case .table(_, let hash)? = app.appDeclaration, case .string(let id)? = hash[.string("id")], !id.isEmpty { app.session.appId = id }
        app.screenSites[AppShell.appCheckName] = LuaApp.callerPosition(call.L)
        engine.schemaVersionPending = false
        if lua.rawGet(1, "version") != LUA_TNIL {
            let v = try LuaModuleBuilder.schemaVersion(at: -1, L: lua.L, what: "okit.app: version")
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
        let autosave = app.valueError("okit.app: autosave must be a number of seconds > 0, like autosave = 30", at: [["autosave"]],
                                      function: "app", id: nil, site: LuaApp.callerPosition(call.L))
        switch lua.rawGet(1, "autosave") {
        case LUA_TNUMBER:
            let s = lua_tonumberx(lua.L, -1, nil)
            lua.pop()
            guard s > 0, s.isFinite else { throw autosave }
            app.session.autosaveSeconds = s
        case LUA_TNIL: lua.pop()
        default:
            lua.pop()
            throw autosave
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

    /// The schema version at `index` (`okit.app { version }`, `okit.migrate(version, …)`): a whole number from 1
    /// to `maxSchemaVersion`, else an error saying so (lua-api.md "Schema versions").
    static func schemaVersion(at index: Int32, L: OpaquePointer, what: String) throws -> Int {
        var ok: Int32 = 0
        let v = lua_type(L, index) == LUA_TNUMBER ? lua_tointegerx(L, index, &ok) : 0
        guard ok != 0, v >= 1, v <= Int64(maxSchemaVersion) else {
            let got: String
            switch lua_type(L, index) {
            case LUA_TNUMBER:
                let d = lua_tonumberx(L, index, nil)
                got = d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
            case LUA_TSTRING: got = "the string \"\((lua_tolstring(L, index, nil).map { String(cString: $0) } ?? "").prefix(40))\""
            default: got = "a \(lua_typename(L, lua_type(L, index)).map { String(cString: $0) } ?? "value")"
            }
            throw LuaRaise("\(what) must be a whole number from 1 to \(maxSchemaVersion), not \(got)")
        }
        return Int(v)
    }

    /// The largest schema version: far above any app's history, well within what every storage keeps.
    static let maxSchemaVersion = 1_000_000

    /// Where the app's language goes when `okit.app` is given one (`lang = "de"`): `okit.locale`, or `--lang` for
    /// one run (lua-api.md "Strings").
    func localeAdvice(_ option: String) -> String? {
        let lower = option.lowercased()
        let key = ["lang", "language", "languages", "locale", "lng"].contains(lower) ? "language"
            : lower == "region" || lower == "country" ? "region" : lower == "timezone" || lower == "zone" ? "timeZone" : nil
        guard let key else { return nil }
        var written = key == "language" ? "de" : key == "region" ? "DE" : "Europe/Berlin"
        if lua.rawGet(1, option) == LUA_TSTRING, let s = lua.string(at: -1), !s.isEmpty, s.count <= 40, !s.contains("\"") { written = s }
        lua.pop()
        let run = key == "language" ? " (or okit-run --lang \(written) for one run)" : ""
        return "the app's \(key == "timeZone" ? "time zone" : key) is okit.locale { \(key) = \"\(written)\" }\(run)"
    }
}
