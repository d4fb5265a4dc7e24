import CLua
import OKitEngine

/// Detail and settings screens from Lua: `okit.detail`, `okit.settings` and the cells (`okit.cell.*`).
extension LuaApp {
    static let cellKinds = ["table", "text", "multiline", "switch", "date", "segment", "picker", "slider", "stepper",
                            "progress", "image", "web"]

    /// `okit.cell.text { … }` and friends: a table tagged with the cell kind.
    func pushCellModule() {
        lua.newTable(hash: Int32(LuaApp.cellKinds.count))
        for kind in LuaApp.cellKinds {
            lua.push(function: "okit.cell." + kind) { [unowned self] call in
                try call.requireTable(1)
                lua.hostPush { lua_pushvalue(call.L, 1) }
                lua.push(kind)
                lua.rawSet(-2, "__okit_cell")
                return 1
            }
            lua.rawSet(-2, kind)
        }
    }

    /// A cell table at `v` (made by `okit.cell.*`).
    func cellDeclaration(_ v: Int32, screen: String) throws -> CellDeclaration {
        guard lua.rawGet(v, "__okit_cell") == LUA_TSTRING, let kind = lua.string(at: -1) else {
            lua.pop()
            throw LuaRaise("okit.detail(\"\(screen)\"): sections hold cells made with okit.cell.text{…}, okit.cell.switch{…}, …")
        }
        lua.pop()
        var cell = CellDeclaration(kind: kind)
        try forEachEntry(v, what: "okit.cell.\(kind)") { key, value in
            if key == "__okit_cell" { return }
            guard let text = lua.string(at: value) else {
                throw LuaRaise("okit.cell.\(kind), property \(key): expected a binding string, got \(lua.typeName(at: value))")
            }
            if key == "id" { cell.id = text; return }
            if key != "segue", key != "present" {
                do { _ = try engine.compile(text) } catch { throw LuaRaise("okit.detail(\"\(screen)\"), cell \(kind), property \(key): \(error)") }
            }
            cell.properties[key] = text
        }
        return cell
    }

    /// `okit.detail(id, properties)`.
    func declareDetail(_ call: LuaCall) throws -> Int32 {
        let id = try call.string(1)
        try call.requireTable(2)
        var d = DetailDeclaration(id: id)
        try forEachEntry(2, what: "okit.detail(\"\(id)\")") { key, v in
            switch key {
            case "type": d.type = lua.string(at: v)
            case "contextPath": d.contextPath = lua.string(at: v) ?? ""
            case "titlePath": d.titlePath = lua.string(at: v) ?? ""
            case "subTitlePath": d.subTitlePath = lua.string(at: v) ?? ""
            case "editAlways": d.editAlways = lua.string(at: v) ?? ""
            case "sections":
                guard lua_type(lua.L, v) == LUA_TTABLE else { throw LuaRaise("okit.detail(\"\(id)\"): sections must be a list") }
                let n = lua_rawlen(lua.L, v)
                for i in 0..<Int(n) {
                    lua_rawgeti(lua.L, v, lua_Integer(i + 1))
                    defer { lua.pop() }
                    let s = lua_absindex(lua.L, -1)
                    var section = SectionDeclaration()
                    for (k, path) in [("header", \SectionDeclaration.header), ("footer", \.footer), ("showDisplay", \.showDisplay), ("showEdit", \.showEdit)] {
                        if lua.rawGet(s, k) == LUA_TSTRING { section[keyPath: path] = lua.string(at: -1) ?? "" }
                        lua.pop()
                    }
                    let cells = lua_rawlen(lua.L, s)
                    for j in 0..<Int(cells) {
                        lua_rawgeti(lua.L, s, lua_Integer(j + 1))
                        defer { lua.pop() }
                        section.cells.append(try cellDeclaration(lua_absindex(lua.L, -1), screen: id))
                    }
                    d.sections.append(section)
                }
            default:
                engine.warn("screen \(id): property \"\(key)\" is not supported yet (it arrives with the screens issue)")
            }
        }
        do { try shell.declare(d) } catch { throw LuaRaise("okit.detail: \(error)") }
        screenSites[id] = LuaApp.callerPosition(call.L)
        return 0
    }

}
