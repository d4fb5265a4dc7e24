import CLua
import OKitEngine

/// Detail and settings screens from Lua: `okit.detail(id, properties)`, `okit.settings(id, properties)` (the same
/// with kind `settings`) and the cells `okit.cell.text { … }`, `okit.cell.switch { … }`, … (screens.md "Detail").
extension LuaApp {
    static let cellKinds = CellDeclaration.kinds

    /// The detail properties that take bindings.
    static var detailProperties: [String: WritableKeyPath<DetailDeclaration, String>] { [
        "contextPath": \.contextPath, "titlePath": \.titlePath, "subTitlePath": \.subTitlePath, "promptPath": \.promptPath,
        "titleCount": \.titleCount, "subTitleObject": \.subTitleObject, "subTitleObjectPlural": \.subTitleObjectPlural,
        "subTitleSwap": \.subTitleSwap, "edit": \.edit, "editAlways": \.editAlways, "editInherit": \.editInherit, "sectionHeaders": \.sectionHeaders,
        "sectionFooters": \.sectionFooters, "sectionsShowDisplay": \.sectionsShowDisplay, "sectionsShowEdit": \.sectionsShowEdit,
    ] }

    /// `okit.cell.text { … }` and friends: a table tagged with the cell kind.
    func pushCellModule() {
        lua.newTable(hash: Int32(LuaApp.cellKinds.count))
        for kind in LuaApp.cellKinds {
            lua.push(function: "okit.cell." + kind) { [unowned self] call in
                try call.requireTable(1)
                lua.hostPush { lua_pushvalue(call.L, 1) }
                lua.push(kind)
                lua.rawSet(-2, "__okit_cell")
                // Where the cell is written: an error in it names this line, not the screen's first.
                if let site = LuaApp.callerPosition(call.L) {
                    lua.push(site)
                    lua.rawSet(-2, "__okit_site")
                }
                // And the calls that led there (a helper function's caller), for the check's places.
                lua.push(LuaApp.callerTrace(call.L))
                lua.rawSet(-2, "__okit_trace")
                return 1
            }
            lua.rawSet(-2, kind)
        }
    }

    /// A cell table at `v` (made by `okit.cell.*`): binding properties, `segue`/`present` (screen ids), `id`, and
    /// the actions `tap`, `tapEdit`, `accyTap`, `accyEditTap` (a binding or a Lua function `function(ctx)`).
    /// A plain table (no `okit.cell.*` tag) is a cell of `untagged` kind when given (a list's `cell = { path = … }`).
    /// `site`: where the cell's table is in the screen's declaration (`cell`; `sections`, 2, 1), for the check.
    func cellDeclaration(_ v: Int32, screen: String, function: String, untagged: String? = nil,
                         site: [DeclarationKey] = []) throws -> CellDeclaration {
        let v = lua_absindex(lua.L, v)
        var kind: String
        if let k = cellKind(v) {
            kind = k
        } else {
            guard lua_type(lua.L, v) == LUA_TTABLE, let untagged else {
                throw DeclarationValueError(message: untagged == nil
                    ? "\(function)(\"\(screen)\"): sections hold cells made with okit.cell.text{…}, okit.cell.switch{…}, …"
                    : "\(function)(\"\(screen)\"): cell must be a table of cell properties ({ path = … }) or okit.cell.date{…}, …",
                    path: site)
            }
            kind = untagged
        }
        keepCellTrace(v, screen: screen, site: site)
        do {
            let cell = try cellProperties(v, kind: kind, screen: screen, function: function, untagged: untagged, site: site)
            keepCellTexts(cell, screen: screen, site: site)
            return cell
        } catch let e as LuaRaise where e.withPosition {
            guard let written = cellSite(v) else { throw e }
            throw LuaRaise("\(written): \(e.message)", withPosition: false)
        } catch var e as DeclarationValueError {
            e.written = e.written ?? cellSite(v)
            throw e
        }
    }

    /// The kind of the cell `okit.cell.*` made at `v` (nil: not a table, or a plain one).
    func cellKind(_ v: Int32) -> String? {
        guard lua_type(lua.L, v) == LUA_TTABLE else { return nil }
        defer { lua.pop() }
        return lua.rawGet(v, "__okit_cell") == LUA_TSTRING ? lua.string(at: -1) : nil
    }

    /// `chunk:line` where `okit.cell.*` made the cell table at `v` (nil: a plain table).
    private func cellSite(_ v: Int32) -> String? {
        guard lua_type(lua.L, v) == LUA_TTABLE else { return nil }
        defer { lua.pop() }
        return lua.rawGet(v, "__okit_site") == LUA_TSTRING ? lua.string(at: -1) : nil
    }

    /// The properties of a cell table of `kind` (see `cellDeclaration`).
    private func cellProperties(_ v: Int32, kind: String, screen: String, function: String, untagged: String?,
                                site: [DeclarationKey]) throws -> CellDeclaration {
        var cell = CellDeclaration(kind: kind)
        let known = CellDeclaration.knownProperties(kind)
        let what = untagged != nil && kind == untagged ? "\(function)(\"\(screen)\"), cell" : "\(function)(\"\(screen)\"), okit.cell.\(kind)"
        var unknown: [String] = []
        try forEachEntry(v, what: what) { key, value in
            if key.hasPrefix("__okit_") { return }   // okit's own marks
            if CellDeclaration.actionProperties.contains(key) {
                cell.actions[key] = try actionProperty(key, at: value, what: what, path: site + [.name(key)])
                return
            }
            if key == "id" || CellDeclaration.literalProperties.contains(key) {
                guard lua_type(lua.L, value) == LUA_TSTRING, let text = lua.string(at: value) else {
                    throw LuaRaise("\(what), property \(key): expected a string, got \(lua.typeName(at: value))")
                }
                if key == "id" { cell.id = text; return }
            }
            // An unknown name is said as one, whatever its value (`optoins = 3` is a misspelled `options`).
            if !known.contains(key) { unknown.append(key); return }
            guard let text = bindingText(at: value) else { throw notABinding(what, key, at: value, path: site + [.name(key)]) }
            if !CellDeclaration.isLiteral(key, text) {
                do { _ = try engine.compile(text) } catch { throw bindingRefusal("\(what), property \(key)", error) }
            }
            cell.properties[key] = text
        }
        // Named as the check names the cell's bindings (`cell.path`, `cell Marked.onPath`).
        let name = untagged != nil && kind == untagged ? "cell" : "cell \(cell.defaultId)"
        for key in unknown {
            unknownProperty(key, known: known, what: what, screen: screen, in: site, property: "\(name).\(key)")
        }
        return cell
    }

    /// An action property of a cell or a detail screen: a binding string or a Lua function.
    func actionProperty(_ key: String, at value: Int32, what: String, path: [DeclarationKey]) throws -> Action? {
        guard lua_type(lua.L, value) == LUA_TSTRING || lua_type(lua.L, value) == LUA_TFUNCTION else {
            throw notABinding(what, key, at: value, path: path)
        }
        do { return try action(at: value) } catch let e as LuaRaise { throw e } catch {
            throw bindingRefusal("\(what), property \(key)", error)
        }
    }

    /// `okit.detail(id, properties)`, and `okit.settings(id, properties)`: a detail screen with kind `settings`.
    func readDetail(_ call: LuaCall, id: String, kind: String) throws -> DetailDeclaration {
        let function = "okit.\(kind)"
        try call.requireTable(2)
        let what = "\(function)(\"\(id)\")"
        var d = DetailDeclaration(id: id, kind: kind)
        try forEachEntry(2, what: what) { key, v in
            switch key {
            case "type": d.type = lua.string(at: v)
            case "help": d.help = lua.string(at: v)
            case "titleTap": d.titleTap = try action(at: v)
            case "buttons": d.buttons = try readButtons(at: v, screen: id)
            case "sections": d.sections = try sections(at: v, screen: id, function: function)
            case _ where DetailDeclaration.actionProperties.contains(key):
                // OKit's controller-level actions: the default of every cell without its own.
                d.actions[key] = try actionProperty(key, at: v, what: what, path: [.name(key)])
            default:
                if LuaApp.hookKeys.contains(key) { try readHook(key, at: v, into: &d.hooks); return }
                if try takeInert(key, at: v, what: what) { return }
                guard let path = LuaApp.detailProperties[key] else {
                    let known = Array(LuaApp.detailProperties.keys) + Array(LuaApp.hookKeys)
                        + Array(DetailDeclaration.actionProperties) + ["type", "help", "titleTap", "buttons", "sections"]
                    unknownProperty(key, known: known, what: what, screen: id)
                    return
                }
                guard let text = bindingText(at: v) else { throw notABinding(what, key, at: v, path: [.name(key)]) }
                do { _ = try engine.compile(text) } catch { throw bindingRefusal("\(what), property \(key)", error) }
                d[keyPath: path] = text
            }
        }
        return d
    }

    static let sectionKeys = ["header", "footer", "showDisplay", "showEdit"]

    /// `sections = { { header = "…", footer = "…", showDisplay = "…", showEdit = "…", okit.cell.text{…}, … }, … }`.
    func sections(at v: Int32, screen id: String, function: String) throws -> [SectionDeclaration] {
        guard lua_type(lua.L, v) == LUA_TTABLE else { throw LuaRaise("\(function)(\"\(id)\"): sections must be a list of sections") }
        var out: [SectionDeclaration] = []
        for i in 0..<(try listLength(v, what: "\(function)(\"\(id)\"), sections")) {
            lua_rawgeti(lua.L, v, lua_Integer(i + 1))
            defer { lua.pop() }
            let s = lua_absindex(lua.L, -1)
            guard lua_type(lua.L, s) == LUA_TTABLE else {
                throw LuaRaise("\(function)(\"\(id)\"): sections[\(i + 1)] must be a table { header = …, okit.cell.text{…}, … }")
            }
            // One pair of braces too few (`sections = { okit.cell.text {…} }`): a cell where a section belongs.
            if let kind = cellKind(s) {
                throw DeclarationValueError(message: "\(function)(\"\(id)\"): sections[\(i + 1)] is a cell; a section is a table of cells: "
                    + "write sections = { { okit.cell.\(kind) {…} } }", path: ["sections", .index(i + 1)])
            }
            var section = SectionDeclaration()
            for key in unknownNames(s, known: LuaApp.sectionKeys) {
                unknownProperty(key, known: LuaApp.sectionKeys, what: "\(function)(\"\(id)\"), sections[\(i + 1)]", screen: id,
                                in: ["sections", .index(i + 1)], property: "sections[\(i + 1)].\(key)")
            }
            for (k, path) in [("header", \SectionDeclaration.header), ("footer", \.footer), ("showDisplay", \.showDisplay), ("showEdit", \.showEdit)] {
                defer { lua.pop() }
                switch lua.rawGet(s, k) {
                case LUA_TNIL: continue
                case LUA_TSTRING:
                    let text = lua.string(at: -1) ?? ""
                    do { _ = try engine.compile(text) } catch { throw bindingRefusal("\(function)(\"\(id)\"), sections[\(i + 1)].\(k)", error) }
                    section[keyPath: path] = text
                default:
                    throw DeclarationValueError(message: "\(function)(\"\(id)\"), sections[\(i + 1)].\(k): expected a binding string, got "
                        + lua.typeName(at: -1) + booleanAdvice(at: -1), path: ["sections", .index(i + 1), .name(k)])
                }
            }
            for j in 0..<(try listLength(s, what: "\(function)(\"\(id)\"), sections[\(i + 1)]")) {
                lua_rawgeti(lua.L, s, lua_Integer(j + 1))
                defer { lua.pop() }
                section.cells.append(try cellDeclaration(lua_absindex(lua.L, -1), screen: id, function: function,
                                                         site: ["sections", .index(i + 1), .index(j + 1)]))
            }
            out.append(section)
        }
        return out
    }
}

extension LuaApp {
    /// A property given a value that is no binding: what it got and, for a Lua boolean (`add = false`), the flag's
    /// constant (`write "#false"`), for a list of texts (`optionValues = {"Book","Journal"}`), the one text a
    /// multipart property is (`write "Book,Journal"`). With `path` (from the declaring call's table to the value),
    /// placed at the value in the file.
    func notABinding(_ what: String, _ key: String, at index: Int32, path: [DeclarationKey]? = nil,
                     expected: String = "a binding string or a function") -> Error {
        var advice = booleanAdvice(at: index)
        if lua_type(lua.L, index) == LUA_TTABLE, let n = try? listLength(index, what: what), n > 0, n <= 50 {
            var texts: [String] = []
            for i in 1...n {
                lua_rawgeti(lua.L, index, lua_Integer(i))
                if lua_type(lua.L, -1) == LUA_TSTRING, let t = lua.string(at: -1), !t.contains(",") { texts.append(t) }
                lua.pop()
            }
            if texts.count == n {
                advice = "; a property of several parts is one text, its parts separated by commas: write \""
                    + texts.joined(separator: ",") + "\""
            }
        }
        let message = "\(what), property \(key): expected \(expected), got \(lua.typeName(at: index))\(advice)"
        guard let path else { return LuaRaise(message) }
        return DeclarationValueError(message: message, path: path)
    }

    /// `; write "#false"` for a Lua boolean where a binding belongs (a flag's constant is a binding text), and
    /// `; write "#2000"` for a number.
    func booleanAdvice(at index: Int32) -> String {
        if lua_type(lua.L, index) == LUA_TNUMBER {
            let n = lua_isinteger(lua.L, index) != 0 ? String(lua_tointegerx(lua.L, index, nil)) : String(lua_tonumberx(lua.L, index, nil))
            return "; write \"#\(n)\" (a constant is a binding text)"
        }
        guard lua_type(lua.L, index) == LUA_TBOOLEAN else { return "" }
        return "; write \"#\(lua_toboolean(lua.L, index) != 0 ? "true" : "false")\" (a flag's constant is a binding text)"
    }
}
