import CLua
import OKitEngine

/// Pushes a `Snapshot` straight from the struct as Lua tables, with exactly the keys of its JSON
/// (`Snapshot.json`, screens.md): a JSON null is simply absent, arrays are sequences, and a control's value
/// and range keep their type (a double stays a float, `3.0`; a non-finite one, null in JSON, is absent).
///
/// The tables are fresh (no metatables), so `lua_setfield` is a raw set. Runs inside `hostPush`.
struct SnapshotToLua {
    let L: OpaquePointer

    /// Pushes the whole snapshot (`{app, screen, alert}`).
    func push(_ s: Snapshot) {
        okit_ensure_stack(L, 24)           // deepest path: snapshot › screen › sections › section › rows › row › control
        lua_createtable(L, 0, 3)
        app(s.app); lua_setfield(L, -2, "app")
        screen(s.screen); lua_setfield(L, -2, "screen")
        if let alert = s.alert { self.alert(alert); lua_setfield(L, -2, "alert") }
    }

    func string(_ s: String) {
        var s = s
        s.withUTF8 { buf in buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, buf.count) } }
    }

    func field(_ k: String, _ s: String?) {
        guard let s else { return }
        string(s); lua_setfield(L, -2, k)
    }

    func field(_ k: String, _ b: Bool?) {
        guard let b else { return }
        lua_pushboolean(L, b ? 1 : 0); lua_setfield(L, -2, k)
    }

    func field(_ k: String, _ i: Int?) {
        guard let i else { return }
        lua_pushinteger(L, lua_Integer(i)); lua_setfield(L, -2, k)
    }

    func field(_ k: String, _ v: SnapshotValue?) {
        switch v {
        case nil, .null?: return
        case .bool(let b)?: lua_pushboolean(L, b ? 1 : 0)
        case .int(let i)?: lua_pushinteger(L, lua_Integer(i))
        case .double(let d)?:
            guard d.isFinite else { return }
            lua_pushnumber(L, d)
        case .string(let s)?: string(s)
        }
        lua_setfield(L, -2, k)
    }

    func strings(_ k: String, _ list: [String]) {
        lua_createtable(L, Int32(clamping: list.count), 0)
        for (n, s) in list.enumerated() {
            string(s)
            lua_rawseti(L, -2, lua_Integer(n + 1))
        }
        lua_setfield(L, -2, k)
    }

    /// A sequence under `k`, one table per element.
    func array<T>(_ k: String, _ items: [T], _ element: (T) -> Void) {
        lua_createtable(L, Int32(clamping: items.count), 0)
        for (n, item) in items.enumerated() {
            element(item)
            lua_rawseti(L, -2, lua_Integer(n + 1))
        }
        lua_setfield(L, -2, k)
    }

    func app(_ a: AppSnapshot) {
        lua_createtable(L, 0, 10)
        field("tab", a.tab)
        strings("tabs", a.tabs)
        strings("tabTitles", a.tabTitles)
        field("menuOpen", a.menuOpen)
        field("covered", a.covered)
        field("cover", a.cover)
        field("theme", a.theme)
        lua_createtable(L, 0, Int32(clamping: a.themeValues.count))
        for (k, v) in a.themeValues { string(k); string(v); lua_rawset(L, -3) }
        lua_setfield(L, -2, "themeValues")
        field("depth", a.depth)
        field("presented", a.presented)
        if let offline = a.offline { field("offline", offline) }
    }

    func screen(_ s: ScreenSnapshot) {
        lua_createtable(L, 0, 14)
        field("id", s.id)
        field("kind", s.kind)
        field("context", s.context)
        field("title", s.title)
        field("subtitle", s.subtitle)
        field("prompt", s.prompt)
        field("editing", s.editing)
        array("buttons", s.buttons) { b in
            lua_createtable(L, 0, 3)
            field("id", b.id); field("title", b.title); field("enabled", b.enabled)
        }
        if let search = s.search {
            lua_createtable(L, 0, 4)
            field("visible", search.visible)
            field("text", search.text)
            strings("scopes", search.scopes)
            field("scope", search.scope)
            lua_setfield(L, -2, "search")
        }
        strings("index", s.index)
        array("sections", s.sections) { section in
            lua_createtable(L, 0, 4)
            field("header", section.header)
            field("subheader", section.subheader)
            field("footer", section.footer)
            array("rows", section.rows) { row($0) }
        }
        field("footer", s.footer)
        field("help", s.help)
        field("rowCount", s.rowCount)
    }

    func row(_ r: RowSnapshot) {
        lua_createtable(L, 0, 14)
        field("id", r.id)
        field("kind", r.kind)
        field("text", r.text)
        field("detail", r.detail)
        field("image", r.image)
        field("ribbon", r.ribbon)
        if let a = r.accessory {
            lua_createtable(L, 0, 3)
            field("kind", a.kind); field("text", a.text); field("enabled", a.enabled)
            lua_setfield(L, -2, "accessory")
        }
        if let q = r.quick {
            lua_createtable(L, 0, 2)
            field("title", q.title); field("enabled", q.enabled)
            lua_setfield(L, -2, "quick")
        }
        field("more", r.more)
        field("delete", r.delete)
        field("checked", r.checked)
        field("selected", r.selected)
        if let c = r.control { control(c); lua_setfield(L, -2, "control") }
        field("invalid", r.invalid)
    }

    /// A detail cell's control: value and enabled, then the kind's extras (only those the kind has).
    func control(_ c: ControlSnapshot) {
        lua_createtable(L, 0, 8)
        field("value", c.value)
        field("enabled", c.enabled)
        field("placeholder", c.placeholder)
        if c.secure { field("secure", true) }
        field("min", c.min)
        field("max", c.max)
        field("step", c.step)
        if let segments = c.segments {
            strings("segments", segments)
            field("index", c.index)
        }
        if let options = c.options {
            strings("options", options)
            field("selected", c.selected)
        }
    }

    func alert(_ a: AlertSnapshot) {
        lua_createtable(L, 0, 5)
        field("kind", a.kind)
        field("title", a.title)
        field("message", a.message)
        strings("actions", a.actions)
        array("fields", a.fields) { f in
            lua_createtable(L, 0, 3)
            field("placeholder", f.placeholder)
            field("value", f.secure ? nil : f.value)
            if f.secure { field("secure", true) }
        }
    }
}
