import CLua
import OKitEngine

/// Menu screens from Lua: `okit.menu(id, properties)` — a list's properties plus `identifier`, `rowIdentifier`,
/// `hideMenu` and `items = { { title = "…", identifier = "screen", tap = … } }`.
extension LuaApp {
    /// `okit.menu(id, properties)`.
    func readMenu(_ call: LuaCall, id: String) throws -> MenuDeclaration {
        try call.requireTable(2)
        var identifier: String?, rowIdentifier: String?, hideMenu: String?
        var items: [MenuItem] = []
        let list = try listDeclaration(id, at: 2, function: "okit.menu") { key, v in
            switch key {
            case "identifier": identifier = lua.string(at: v)
            case "rowIdentifier": rowIdentifier = lua.string(at: v)
            case "hideMenu":
                guard let t = lua.string(at: v) else {
                    throw notABinding("okit.menu(\"\(id)\")", key, at: v, path: [.name(key)], expected: "a binding string")
                }
                do { _ = try engine.compile(t) } catch { throw bindingRefusal("okit.menu(\"\(id)\"), property hideMenu", error) }
                hideMenu = t
            case "items": items = try menuItems(at: v, screen: id)
            default: return false
            }
            return true
        }
        var d = MenuDeclaration(list: list)
        d.identifier = identifier
        d.rowIdentifier = rowIdentifier
        if let hideMenu { d.hideMenu = hideMenu }
        d.items = items
        return d
    }

    /// The keys a menu item takes.
    static let menuItemKeys: Set<String> = ["id", "title", "titlePath", "icon", "identifier", "segue", "present", "home", "tap", "tapPath"]

    func menuItems(at v: Int32, screen: String) throws -> [MenuItem] {
        guard lua_type(lua.L, v) == LUA_TTABLE else { throw LuaRaise("okit.menu(\"\(screen)\"), property items: expected a list of { title = …, identifier = … }") }
        var out: [MenuItem] = []
        for i in 0..<(try listLength(v, what: "okit.menu(\"\(screen)\"), property items")) {
            lua_rawgeti(lua.L, v, lua_Integer(i + 1))
            defer { lua.pop() }
            let t = lua_absindex(lua.L, -1)
            guard lua_type(lua.L, t) == LUA_TTABLE else { throw LuaRaise("okit.menu(\"\(screen)\"), items[\(i + 1)]: expected a table") }
            let what = "okit.menu(\"\(screen)\"), items[\(i + 1)]"
            try forEachEntry(t, what: what) { key, _ in
                if !LuaApp.menuItemKeys.contains(key) {
                    unknownProperty(key, known: LuaApp.menuItemKeys, what: what, screen: screen, in: ["items", .index(i + 1)],
                                    property: "items[\(i + 1)].\(key)")
                }
            }
            func text(_ key: String) -> String? {
                defer { lua.pop() }
                return lua.rawGet(t, key) == LUA_TSTRING ? lua.string(at: -1) : nil
            }
            guard let title = text("title") ?? text("titlePath") ?? text("icon") else {
                throw LuaRaise("\(what): needs a title (or an icon)")
            }
            var item = MenuItem(title: title)
            item.id = text("id")
            // `segue` (as on buttons) names the content screen too.
            item.identifier = text("identifier") ?? text("segue")
            if lua.rawGet(t, "present") == LUA_TSTRING { item.present = lua.string(at: -1) }
            lua.pop()
            if lua.rawGet(t, "home") == LUA_TBOOLEAN { item.home = lua_toboolean(lua.L, -1) != 0 }
            lua.pop()
            for key in ["tap", "tapPath"] where item.tap == nil {
                if lua.rawGet(t, key) != LUA_TNIL { item.tap = try action(at: lua_absindex(lua.L, -1)) }
                lua.pop()
            }
            out.append(item)
        }
        return out
    }
}
