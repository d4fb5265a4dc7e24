import CLua
import OKitEngine

/// The backups screen from Lua: `okit.backups(id, { secure = "#true", titlePath = "…", help = "…" })`.
extension LuaApp {
    func readBackups(_ call: LuaCall, id: String) throws -> BackupsDeclaration {
        var d = BackupsDeclaration(id: id)
        if lua_type(call.L, 2) == LUA_TTABLE {
            try forEachEntry(2, what: "okit.backups(\"\(id)\")") { key, v in
                switch key {
                case "secure":
                    if lua_type(lua.L, v) == LUA_TBOOLEAN { d.secure = lua_toboolean(lua.L, v) != 0 ? "#true" : "#false"; return }
                    d.secure = lua.string(at: v) ?? ""
                case "titlePath": d.titlePath = lua.string(at: v) ?? d.titlePath
                case "help": d.help = lua.string(at: v)
                default: unknownProperty(key, known: ["secure", "titlePath", "help"], what: "okit.backups(\"\(id)\")", screen: id)
                }
            }
        }
        for (p, t) in [("secure", d.secure), ("titlePath", d.titlePath)] where !t.isEmpty {
            do { _ = try engine.compile(t) } catch { throw bindingRefusal("okit.backups(\"\(id)\"), property \(p)", error) }
        }
        return d
    }
}
