import CLua
import OKitEngine

extension LuaApp {
    /// List properties that take bindings (screens.md); the rest of OKit's list properties join with the screens issue.
    static var listProperties: [String: WritableKeyPath<ListDeclaration, String>] { [
        "contextPath": \.contextPath, "dataPath": \.dataPath, "titlePath": \.titlePath, "subTitlePath": \.subTitlePath,
        "titleCount": \.titleCount, "subTitleObject": \.subTitleObject, "subTitleObjectPlural": \.subTitleObjectPlural,
        "rowSort": \.rowSort, "rowSortAsc": \.rowSortAsc, "group": \.group, "groupName": \.groupName,
        "groupSortAsc": \.groupSortAsc, "search": \.search, "searchPath": \.searchPath, "index": \.index,
    ] }

    /// `okit.list(id, properties)`.
    func declareList(_ call: LuaCall) throws -> Int32 {
        let id = try call.string(1)
        try call.requireTable(2)
        var d = ListDeclaration(id: id)
        try forEachEntry(2, what: "okit.list(\"\(id)\")") { key, v in
            if key == "type" { d.type = lua.string(at: v); return }
            if key == "cell" {
                guard lua_type(lua.L, v) == LUA_TTABLE else { throw LuaRaise("okit.list(\"\(id)\"): cell must be a table of cell properties") }
                if lua.rawGet(v, "path") == LUA_TSTRING { d.cellPath = lua.string(at: -1) ?? "" }
                lua.pop()
                if lua.rawGet(v, "detailPath") == LUA_TSTRING { d.cellDetailPath = lua.string(at: -1) ?? "" }
                lua.pop()
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
        return 0
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
        do { try shell.start(home: ids) } catch { throw LuaRaise("okit.app: \(error)", withPosition: false) }
    }
}
