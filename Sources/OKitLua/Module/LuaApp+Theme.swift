import CLua
import OKitEngine

/// Themes from Lua: `okit.theme(name, values)` (storage.md "Theming").
extension LuaApp {
    /// `okit.theme(name, { tintColor = "#FF9500", backgroundColor = "#000000", … })`: adds or replaces a theme;
    /// values are strings (colours as `#RRGGBB`), listed in snapshots sorted by key.
    func declareTheme(_ call: LuaCall) throws -> Int32 {
        let name = try call.string(1)
        try call.requireTable(2)
        var values: [(key: String, value: String)] = []
        try forEachEntry(2, what: "okit.theme(\"\(name)\")") { key, v in
            guard lua_type(lua.L, v) == LUA_TSTRING, let text = lua.string(at: v) else {
                throw LuaRaise("okit.theme(\"\(name)\"), \(key): expected a string such as \"#FF9500\", got \(lua.typeName(at: v))")
            }
            values.append((key, text))
        }
        shell.themes[name] = values.sorted { $0.key < $1.key }
        return 0
    }
}
