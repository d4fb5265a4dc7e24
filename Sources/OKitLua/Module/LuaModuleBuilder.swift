import CLua
import OKitEngine

/// Builds the `okit` module of a `LuaApp`: the metatables of what Lua holds (entities, collections, dates,
/// bindings, watches, timers) and the `okit` table, one group of functions per part (declarations, state,
/// entities, localization, events, screens, the submodules), then the global `okit` and `require "okit"`.
/// Its functions act on the app they were built for, which outlives them (the Lua state is the app's).
struct LuaModuleBuilder {
    unowned let app: LuaApp

    var lua: LuaState { app.lua }
    var engine: Engine { app.engine }

    /// Defines the metatables of entity proxies, collections, dates, bindings and timers.
    func defineTypes() {
        defineEntityType()
        defineCollectionType()
        app.defineDateType()
        defineBindingType()
        defineWatchType()
        defineTimerType()
    }

    /// Builds the `okit` table, sets the global `okit` and preloads `require "okit"`.
    func installModule() {
        lua.newTable(hash: 40)
        let functions = declarationFunctions() + stateFunctions() + entityFunctions() + localizationFunctions()
            + eventFunctions()
        for (name, fn) in functions + app.screenFunctions() {
            lua.push(function: "okit." + name, fn)
            lua.rawSet(-2, name)
        }
        installSubmodules()
        publishModule()
    }

    /// `okit.date`, `okit.cell`, `okit.Settings`, `okit.data` and `okit.version`, into the table on top.
    private func installSubmodules() {
        app.pushDateModule()
        lua.rawSet(-2, "date")
        app.pushCellModule()
        lua.rawSet(-2, "cell")
        lua.push(LuaApp.settingsType)
        lua.rawSet(-2, "Settings")
        pushDataModule()
        lua.rawSet(-2, "data")
        lua.push("okit 0.1.0")
        lua.rawSet(-2, "version")
    }

    /// `okit.data`: `read` (also named `bytes`) and `write` of a data field's bytes.
    private func pushDataModule() {
        lua.newTable(hash: 2)
        lua.push(function: "okit.data.read") { call in
            if call.isNil(1) { lua.pushNil(); return 1 }
            let meta = try app.entity(call, 1)
            if let bytes = try app.engine(of: meta).readBytes(meta) { lua.push(bytes: bytes) } else { lua.pushNil() }
            return 1
        }
        lua.hostPush { lua_pushvalue(lua.L, -1) }
        lua.rawSet(-3, "bytes")   // storage.md's name for the same function
        lua.rawSet(-2, "read")
        lua.push(function: "okit.data.write") { call in
            let e = try app.entity(call, 1)
            let field = try call.string(2)
            guard let bytes = lua.bytes(at: 3) else { throw LuaRaise("bad argument #3 to 'okit.data.write' (string of bytes expected, got \(call.typeName(3)))") }
            let format = try call.string(4)
            try app.engine(of: e).writeBytes(e, field, bytes, format: format, label: call.stringOrNil(5))
            return 0
        }
        lua.rawSet(-2, "write")
    }

    /// The module on top of the stack becomes the global `okit` and what `require "okit"` returns; it is popped.
    private func publishModule() {
        lua.hostPush { lua_pushvalue(lua.L, -1) }
        lua.setGlobal("okit")
        lua.pushGlobal("package")
        lua.rawGet(-1, "loaded")
        lua.hostPush { lua_pushvalue(lua.L, -3) }
        lua.rawSet(-2, "okit")
        lua.pop(3)
    }
}
