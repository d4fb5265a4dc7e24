import CLua
import OKitEngine

extension LuaApp {
    /// List properties that take bindings (screens.md); the rest of OKit's list properties join with the screens issue.
    static var listProperties: [String: WritableKeyPath<ListDeclaration, String>] { [
        "contextPath": \.contextPath, "dataPath": \.dataPath, "titlePath": \.titlePath, "subTitlePath": \.subTitlePath,
        "titleCount": \.titleCount, "subTitleObject": \.subTitleObject, "subTitleObjectPlural": \.subTitleObjectPlural,
        "rowSort": \.rowSort, "rowSortAsc": \.rowSortAsc, "group": \.group, "groupName": \.groupName,
        "groupSortAsc": \.groupSortAsc, "search": \.search, "searchPath": \.searchPath, "index": \.index,
        "add": \.add, "addAppend": \.addAppend, "delete": \.delete, "deletePrompt": \.deletePrompt,
    ] }

    /// `okit.list(id, properties)`.
    func declareList(_ call: LuaCall) throws -> Int32 {
        let id = try call.string(1)
        try call.requireTable(2)
        var d = ListDeclaration(id: id)
        try forEachEntry(2, what: "okit.list(\"\(id)\")") { key, v in
            if key == "type" { d.type = lua.string(at: v); return }
            if key == "segue" { d.segue = lua.string(at: v); return }
            if key == "addName" { d.addName = lua.string(at: v); return }
            if let actionKey = LuaApp.rowActionKeys[key] {
                try readRowAction(actionKey, at: v, into: &d.actions, screen: id)
                return
            }
            if key == "typeName" { d.typeName = lua.string(at: v); return }
            if key == "cell" {
                guard lua_type(lua.L, v) == LUA_TTABLE else { throw LuaRaise("okit.list(\"\(id)\"): cell must be a table of cell properties") }
                if lua.rawGet(v, "path") == LUA_TSTRING { d.cellPath = lua.string(at: -1) ?? "" }
                lua.pop()
                if lua.rawGet(v, "detailPath") == LUA_TSTRING { d.cellDetailPath = lua.string(at: -1) ?? "" }
                lua.pop()
                for key in ["accyText", "accyIcon", "accyShow", "accyEnabled", "accyTap"] {
                    if lua.rawGet(v, key) != LUA_TNIL { try readRowAction(key, at: lua_absindex(lua.L, -1), into: &d.actions, screen: id) }
                    lua.pop()
                }
                return
            }
            guard let path = LuaApp.listProperties[key] else {
                engine.warn("screen \(id): property \"\(key)\" is not supported yet (it arrives with the screens issue)")
                return
            }
            guard let text = lua.string(at: v) else {
                throw LuaRaise("okit.list(\"\(id)\"), property \(key): expected a binding string, got \(lua.typeName(at: v))")
            }
            do { _ = try engine.compile(text) } catch {
                throw LuaRaise("okit.list(\"\(id)\"), property \(key): \(error)")
            }
            d[keyPath: path] = text
        }
        do { try shell.declare(d) } catch { throw LuaRaise("okit.list: \(error)") }
        screenSites[id] = LuaApp.callerPosition(call.L)
        return 0
    }

    static let rowActionKeys: [String: String] = [
        "tap": "tap", "quickName": "quickName", "quickEnabled": "quickEnabled", "quickTap": "quickTap", "more": "more",
        "moreActions": "moreActions", "moreActionsEnabled": "moreActionsEnabled", "moreActionsTap": "moreActionsTap",
    ]

    /// An action property: a binding string, or a Lua function `function(ctx, app)`.
    func action(at v: Int32) throws -> Action? {
        switch lua_type(lua.L, v) {
        case LUA_TSTRING:
            let text = lua.string(at: v) ?? ""
            _ = try engine.compile(text)
            return text.isEmpty ? nil : .binding(text)
        case LUA_TFUNCTION:
            lua.hostPush { lua_pushvalue(lua.L, v) }
            let ref = lua.ref()
            return .function { [unowned self] ctx in _ = try callLua(ref, [ctx.map { .entity($0) } ?? .null]) }
        default:
            return nil
        }
    }

    func readRowAction(_ key: String, at v: Int32, into a: inout RowActions, screen: String) throws {
        func text() throws -> String {
            guard let t = lua.string(at: v) else { throw LuaRaise("okit.list(\"\(screen)\"), property \(key): expected a binding string") }
            do { _ = try engine.compile(t) } catch { throw LuaRaise("okit.list(\"\(screen)\"), property \(key): \(error)") }
            return t
        }
        switch key {
        case "tap": a.tap = try action(at: v)
        case "quickTap": a.quickTap = try action(at: v)
        case "accyTap": a.accyTap = try action(at: v)
        case "moreActionsTap":
            if lua_type(lua.L, v) == LUA_TTABLE {
                let n = lua_rawlen(lua.L, v)
                for i in 0..<Int(n) {
                    lua_rawgeti(lua.L, v, lua_Integer(i + 1))
                    defer { lua.pop() }
                    a.moreActionsTap.append(try action(at: lua_absindex(lua.L, -1)) ?? .binding(""))
                }
            } else {
                a.moreActionsTap = try BindingParser.partTexts(try text()).map { .binding($0) }
            }
        case "quickName": a.quickName = try text()
        case "quickEnabled": a.quickEnabled = try text()
        case "more": a.more = try text()
        case "moreActions": a.moreActions = try text()
        case "moreActionsEnabled": a.moreActionsEnabled = try text()
        case "accyText": a.accyText = try text()
        case "accyIcon": a.accyIcon = try text()
        case "accyShow": a.accyShow = try text()
        case "accyEnabled": a.accyEnabled = try text()
        default: break
        }
    }

    /// `okit.alert { title, message, actions, onAction }` and `okit.prompt { …, fields = { { placeholder } } }`.
    func presentAlert(_ call: LuaCall, kind: String) throws -> Int32 {
        try call.requireTable(1)
        func text(_ key: String) throws -> String? {
            defer { lua.pop() }
            guard lua.rawGet(1, key) == LUA_TSTRING, let t = lua.string(at: -1) else { return nil }
            return try engine.text(nil, t)
        }
        let title = try text("title")
        let message = try text("message")
        var actions: [String] = []
        if lua.rawGet(1, "actions") == LUA_TTABLE {
            let n = lua_rawlen(lua.L, -1)
            for i in 0..<Int(n) {
                lua_rawgeti(lua.L, -1, lua_Integer(i + 1))
                if let a = lua.string(at: -1) { actions.append(try engine.text(nil, a) ?? a) }
                lua.pop()
            }
        }
        lua.pop()
        if actions.isEmpty { actions = ["OK"] }
        var fields: [AlertFieldSnapshot] = []
        if kind == "prompt", lua.rawGet(1, "fields") == LUA_TTABLE {
            let n = lua_rawlen(lua.L, -1)
            for i in 0..<Int(n) {
                lua_rawgeti(lua.L, -1, lua_Integer(i + 1))
                let f = lua_absindex(lua.L, -1)
                var field = AlertFieldSnapshot()
                if lua.rawGet(f, "placeholder") == LUA_TSTRING { field.placeholder = try engine.text(nil, lua.string(at: -1) ?? "") }
                lua.pop()
                if lua.rawGet(f, "value") == LUA_TSTRING { field.value = lua.string(at: -1) }
                lua.pop()
                if lua.rawGet(f, "secure") == LUA_TBOOLEAN { field.secure = lua_toboolean(lua.L, -1) != 0 }
                lua.pop()
                fields.append(field)
                lua.pop()
            }
            lua.pop()
        } else if kind == "prompt" {
            lua.pop()
        }
        var handler: LuaRef?
        if lua.rawGet(1, "onAction") == LUA_TFUNCTION { handler = lua.ref() } else { lua.pop() }
        shell.present(PendingAlert(kind: kind, title: title, message: message, actions: actions, fields: fields) { [unowned self] choice, values in
            if let handler { _ = try callLua(handler, [.int(choice), .list(values.map { .string($0) })]) }
        })
        return 0
    }

    /// `okit-run check`: one line per problem, `FILE:LINE:COL: screen S, property P: message` (the line of the
    /// screen's declaration, the column in the binding).
    public func checkScreens() -> [String] {
        shell.check().map { i in
            let site = (screenSites[i.screen] ?? nil) ?? (appFile?.lastPathComponent ?? "app") + ":1"
            return "\(site):\(i.column): screen \(i.screen), property \(i.property): \(i.message)"
        }
    }

    /// Starts the shell on `okit.app { home = … }` when the app declared one.
    func startShell() throws {
        guard case .table(_, let hash)? = appDeclaration, let home = hash[.string("home")] else { return }
        var ids: [String] = []
        switch home {
        case .string(let s): ids = [s]
        case .table(let array, _): ids = array.compactMap { if case .string(let s) = $0 { return s }; return nil }
        default: break
        }
        var menu: String?
        if case .string(let m)? = hash[.string("menu")] { menu = m }
        do { try shell.start(home: ids, menu: menu) } catch { throw LuaRaise("okit.app: \(error)", withPosition: false) }
    }
}
