import CLua
import OKitEngine

extension LuaApp {
    /// List properties that take bindings (screens.md "List screens"); literal ones (type, segue, addName, …) are read apart.
    static var listProperties: [String: WritableKeyPath<ListDeclaration, String>] { [
        "contextPath": \.contextPath, "dataPath": \.dataPath, "titlePath": \.titlePath, "subTitlePath": \.subTitlePath,
        "titleCount": \.titleCount, "subTitleObject": \.subTitleObject, "subTitleObjectPlural": \.subTitleObjectPlural,
        "rowSort": \.rowSort, "rowSortAsc": \.rowSortAsc, "group": \.group, "groupName": \.groupName,
        "groupSortAsc": \.groupSortAsc, "search": \.search, "searchPath": \.searchPath, "index": \.index,
        "add": \.add, "addAppend": \.addAppend, "delete": \.delete, "deletePrompt": \.deletePrompt,
        "deleteEnabled": \.deleteEnabled, "addNav": \.addNav, "reorder": \.reorder, "reorderEnabled": \.reorderEnabled,
        "selectPath": \.selectPath, "navEnabled": \.navEnabled, "edit": \.edit, "editAlways": \.editAlways,
        "editInherit": \.editInherit, "promptPath": \.promptPath, "subTitleSwap": \.subTitleSwap,
        "searchFilters": \.searchFilters, "searchFilterPath": \.searchFilterPath, "groupSort": \.groupSort,
        "refresh": \.refresh, "editEnabled": \.editEnabled, "groupHeader": \.groupHeader, "groupFooter": \.groupFooter,
        "footerPath": \.footerPath,
    ] }

    static let hookKeys: Set<String> = ["onAppear", "onDisappear", "onAdd", "onDelete", "onEdit", "onSelect"]

    /// OKit properties with no headless meaning (okit updates exactly what changed, has no spinner, no storyboard):
    /// a port that sets them loads without a warning; binding texts are still compiled.
    static let inertProperties: Set<String> = ["autoDeselect", "forceUpdate", "forceListUpdate", "activity", "activityTop",
                                                "storyboardName", "refTypeName", "popGesture"]

    /// Takes an inert property (true when `key` is one): its binding text must compile.
    func takeInert(_ key: String, at v: Int32, what: String) throws -> Bool {
        guard LuaApp.inertProperties.contains(key) else { return false }
        if let text = bindingText(at: v) {
            do { _ = try engine.compile(text) } catch { throw bindingRefusal("\(what), property \(key)", error) }
        }
        return true
    }

    /// A controller hook: a binding or a Lua function.
    func readHook(_ key: String, at v: Int32, into hooks: inout ScreenHooks) throws {
        let a = try action(at: v, hook: key)
        switch key {
        case "onAppear": hooks.onAppear = a
        case "onDisappear": hooks.onDisappear = a
        case "onAdd": hooks.onAdd = a
        case "onDelete": hooks.onDelete = a
        case "onEdit": hooks.onEdit = a
        case "onSelect": hooks.onSelect = a
        default: break
        }
    }

    /// The keys a bar button takes (OKit's ModelBarButtonItem and ModelButton properties).
    static let buttonKeys: Set<String> = ["id", "title", "titlePath", "icon", "iconPath", "tap", "tapPath", "enabled",
                                          "enabledPath", "show", "showPath", "segue", "present"]

    /// `buttons = { { title = "…", tap = …, enabled = "…", segue = "id", present = "id" }, … }`.
    func readButtons(at v: Int32, screen: String) throws -> [BarButton] {
        guard lua_type(lua.L, v) == LUA_TTABLE else { throw LuaRaise("screen \(screen), property buttons: expected a list of { title = …, tap = … }") }
        var out: [BarButton] = []
        for i in 0..<(try listLength(v, what: "screen \(screen), property buttons")) {
            lua_rawgeti(lua.L, v, lua_Integer(i + 1))
            defer { lua.pop() }
            let b = lua_absindex(lua.L, -1)
            guard lua_type(lua.L, b) == LUA_TTABLE else { throw LuaRaise("screen \(screen), buttons[\(i + 1)]: expected a table { title = …, tap = … }") }
            try forEachEntry(b, what: "screen \(screen), buttons[\(i + 1)]") { key, _ in
                if !LuaApp.buttonKeys.contains(key) {
                    unknownProperty(key, known: LuaApp.buttonKeys, what: "screen \(screen), buttons[\(i + 1)]", screen: screen,
                                    in: ["buttons", .index(i + 1)], property: "buttons[\(i + 1)].\(key)")
                }
            }
            func text(_ k: String) -> String? {
                defer { lua.pop() }
                return lua.rawGet(b, k) == LUA_TSTRING ? lua.string(at: -1) : nil
            }
            guard let title = text("title") ?? text("titlePath") ?? (text("icon") ?? text("iconPath")).map({ _ in "" }) else {
                throw LuaRaise("screen \(screen), buttons[\(i + 1)]: needs a title or an icon")
            }
            var button = BarButton(id: text("id"), title: title, icon: text("icon") ?? text("iconPath") ?? "",
                                   enabled: text("enabledPath") ?? text("enabled") ?? "",
                                   showPath: text("showPath") ?? text("show") ?? "", segue: text("segue"), present: text("present"))
            for key in ["tapPath", "tap"] where button.tap == nil {
                if lua.rawGet(b, key) != LUA_TNIL { button.tap = try action(at: lua_absindex(lua.L, -1)) }
                lua.pop()
            }
            for t in [title, button.icon, button.enabled, button.showPath] where !t.isEmpty {
                do { _ = try engine.compile(t) } catch where t == title {
                    // A title of words (`Mark All`) is no binding: said with how to write the text itself.
                    throw DeclarationBindingError(message: "screen \(screen), buttons[\(i + 1)].title: \(error)" + BarButton.titleRemedy(t), error: error)
                } catch { throw bindingRefusal("screen \(screen), buttons[\(i + 1)]", error) }
            }
            out.append(button)
        }
        return out
    }

    /// The built-in screen kinds Lua declares, one line each: `okit.<name>(id, properties)` reads the properties
    /// (the arguments after the id) into the kind's declaration. A kind of one's own brings its reader in its
    /// `ScreenKind.readers["lua"]` (a `LuaScreenReader`) instead.
    static var screenKinds: [(name: String, read: (LuaApp, LuaCall, String) throws -> any ScreenDeclaration)] { [
        ("list", { app, call, id in try app.readList(call, id: id) }),
        ("detail", { app, call, id in try app.readDetail(call, id: id, kind: "detail") }),
        ("settings", { app, call, id in try app.readDetail(call, id: id, kind: "settings") }),
        ("selection", { app, call, id in try app.readSelection(call, id: id) }),
        ("menu", { app, call, id in try app.readMenu(call, id: id) }),
        ("backups", { app, call, id in try app.readBackups(call, id: id) }),
    ] }

    /// The `okit.<kind>` functions of the screen kinds: each reads its declaration, declares it in the shell and
    /// remembers where (file:line) for later messages.
    func screenFunctions() -> [(String, LuaFunction)] {
        let builtIn = Set(LuaApp.screenKinds.map(\.name))
        var kinds = LuaApp.screenKinds
        for kind in shell.kinds.kinds where !builtIn.contains(kind.name) {
            guard let reader = kind.reader("lua", as: LuaScreenReader.self) else { continue }
            kinds.append((name: kind.name, read: { app, call, id in try reader.read(app, call, id) }))
        }
        return kinds.map { kind in
            (kind.name, { [unowned self] call in
                let id = try call.string(1)
                let d: any ScreenDeclaration
                do { d = try kind.read(self, call, id) } catch {
                    throw placed(error, function: kind.name, id: id, site: LuaApp.callerPosition(call.L))
                }
                do { try shell.declare(d) } catch {
                    throw valueError("okit.\(kind.name): \(error)", at: [], function: kind.name, id: id, site: LuaApp.callerPosition(call.L))
                }
                screenSites[id] = LuaApp.callerPosition(call.L)
                return 0
            })
        }
    }

    /// `okit.list(id, properties)`.
    func readList(_ call: LuaCall, id: String) throws -> ListDeclaration {
        try call.requireTable(2)
        return try listDeclaration(id, at: 2, function: "okit.list")
    }

    /// The list properties of the table at `index`; `extra` takes the keys of other kinds first (true: taken).
    func listDeclaration(_ id: String, at index: Int32, function: String,
                         extra: (String, Int32) throws -> Bool = { _, _ in false }) throws -> ListDeclaration {
        var d = ListDeclaration(id: id)
        try forEachEntry(index, what: "\(function)(\"\(id)\")") { key, v in
            if try extra(key, v) { return }
            if try takeInert(key, at: v, what: "\(function)(\"\(id)\")") { return }
            if key == "type" { d.type = lua.string(at: v); return }
            if key == "segue" { d.segue = lua.string(at: v); return }
            if key == "present" { d.present = lua.string(at: v); return }
            if key == "addName" { d.addName = lua.string(at: v); return }
            if let actionKey = LuaApp.rowActionKeys[key] {
                try readRowAction(actionKey, at: v, into: &d.actions, screen: id)
                return
            }
            if key == "typeName" { d.typeName = lua.string(at: v); return }
            if key == "help" { d.help = lua.string(at: v); return }
            if key == "buttons" { d.buttons = try readButtons(at: v, screen: id); return }
            if key == "titleTap" { d.titleTap = try action(at: v); return }
            if LuaApp.hookKeys.contains(key) { try readHook(key, at: v, into: &d.hooks); return }
            if key == "cell" {
                d.cell = try cellDeclaration(v, screen: id, function: function, untagged: "table", site: ["cell"])
                // The accessory of a row is the list's (OKit's accessoryViewFor): texts and actions go to the row actions.
                for key in ["accyText", "accyIcon", "accyShow", "accyEnabled", "accyEditText", "accyEditIcon", "accyEditShow",
                            "accyEditEnabled"] {
                    guard let text = d.cell.properties.removeValue(forKey: key) else { continue }
                    d.actions.setText(key, text)
                }
                for key in ["accyTap", "accyEditTap"] {
                    guard let a = d.cell.actions.removeValue(forKey: key) else { continue }
                    if key == "accyTap" { d.actions.accyTap = a } else { d.actions.accyEditTap = a }
                }
                return
            }
            guard let path = LuaApp.listProperties[key] else {
                let known = Array(LuaApp.listProperties.keys) + Array(LuaApp.rowActionKeys.keys) + Array(LuaApp.hookKeys)
                    + ["type", "segue", "present", "addName", "typeName", "help", "buttons", "titleTap", "cell"]
                unknownProperty(key, known: known, what: "\(function)(\"\(id)\")", screen: id)
                return
            }
            guard let text = bindingText(at: v) else { throw notABinding("\(function)(\"\(id)\")", key, at: v, path: [.name(key)]) }
            do { _ = try engine.compile(text) } catch { throw bindingRefusal("\(function)(\"\(id)\"), property \(key)", error) }
            d[keyPath: path] = text
        }
        return d
    }

    /// ` (did you mean "x"?)` for the closest known name, or nothing (also for a name longer than
    /// `NameSuggestion.maxLength`: never compared).
    static func suggestion(_ name: String, _ known: [String]) -> String {
        guard NameSuggestion.comparable(name) else { return "" }
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for i in 1...max(a.count, 1) where !a.isEmpty {
                var prev = row[0]
                row[0] = i
                for j in 1...max(b.count, 1) where !b.isEmpty {
                    let cur = row[j]
                    row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                    prev = cur
                }
            }
            return row[b.count]
        }
        let lower = Array(name.lowercased())
        let best = known.map { ($0, distance(lower, Array($0.lowercased()))) }.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        guard let best, best.1 <= max(2, name.count / 3) else { return "" }
        return " (did you mean \"\(best.0)\"?)"
    }

    static let rowActionKeys: [String: String] = [
        "tap": "tap", "quickName": "quickName", "quickEnabled": "quickEnabled", "quickTap": "quickTap", "more": "more",
        "moreActions": "moreActions", "moreActionsEnabled": "moreActionsEnabled", "moreActionsTap": "moreActionsTap",
        "tapEdit": "tapEdit", "moreTap": "moreTap", "accyText": "accyText", "accyIcon": "accyIcon", "accyShow": "accyShow",
        "accyEnabled": "accyEnabled", "accyTap": "accyTap", "accyEditText": "accyEditText", "accyEditIcon": "accyEditIcon",
        "accyEditShow": "accyEditShow", "accyEditEnabled": "accyEditEnabled", "accyEditTap": "accyEditTap",
        "quickImage": "quickImage", "moreEnabled": "moreEnabled",
    ]

    /// An action property: a binding string, or a Lua function `function(ctx, app)`.
    func action(at v: Int32, hook: String? = nil) throws -> Action? {
        switch lua_type(lua.L, v) {
        case LUA_TSTRING:
            let text = lua.string(at: v) ?? ""
            _ = try engine.compile(text)
            return text.isEmpty ? nil : .binding(text)
        case LUA_TFUNCTION:
            lua.hostPush { lua_pushvalue(lua.L, v) }
            let ref = lua.ref()
            return luaAction(ref, hook: hook)
        default:
            return nil
        }
    }

    func readRowAction(_ key: String, at v: Int32, into a: inout RowActions, screen: String) throws {
        func text() throws -> String {
            guard let t = bindingText(at: v) else { throw notABinding("okit.list(\"\(screen)\")", key, at: v, path: [.name(key)]) }
            do { _ = try engine.compile(t) } catch { throw bindingRefusal("okit.list(\"\(screen)\"), property \(key)", error) }
            return t
        }
        switch key {
        case "tap": a.tap = try action(at: v)
        case "quickTap": a.quickTap = try action(at: v)
        case "accyTap": a.accyTap = try action(at: v)
        case "tapEdit": a.tapEdit = try action(at: v)
        case "moreTap": a.moreTap = try action(at: v)
        case "accyEditTap": a.accyEditTap = try action(at: v)
        case "moreActionsTap":
            if lua_type(lua.L, v) == LUA_TTABLE {
                for i in 0..<(try listLength(v, what: "moreActionsTap")) {
                    lua_rawgeti(lua.L, v, lua_Integer(i + 1))
                    defer { lua.pop() }
                    a.moreActionsTap.append(try action(at: lua_absindex(lua.L, -1)) ?? .binding(""))
                }
            } else {
                a.moreActionsTap = try BindingParser.partTexts(try text()).map { .binding($0) }
            }
        default:
            a.setText(key, try text())
        }
    }

    /// `okit.alert { title, message, actions, onAction }` and `okit.prompt { …, fields = { { placeholder } } }`.
    func presentAlert(_ call: LuaCall, kind: String) throws -> Int32 {
        try call.requireTable(1)
        func text(_ key: String) throws -> String? {
            defer { lua.pop() }
            guard lua.rawGet(1, key) == LUA_TSTRING, let t = lua.string(at: -1) else { return nil }
            return try alertText(t, "okit.\(kind), \(key)")
        }
        let title = try text("title")
        let message = try text("message")
        var actions: [String] = []
        if lua.rawGet(1, "actions") == LUA_TTABLE {
            for i in 0..<(try listLength(-1, what: "okit.\(kind), actions")) {
                lua_rawgeti(lua.L, -1, lua_Integer(i + 1))
                if let a = lua.string(at: -1) {
                    // An action that is nil (a plain `OK`) shows as written, and warns once.
                    actions.append(try alertActionText(a, "okit.\(kind), actions[\(i + 1)]"))
                }
                lua.pop()
            }
        }
        lua.pop()
        if actions.isEmpty { actions = ["OK"] }
        var fields: [AlertFieldSnapshot] = []
        var checked: [(index: Int, entity: Entity, field: String)] = []
        if kind == "prompt", lua.rawGet(1, "fields") == LUA_TTABLE {
            for i in 0..<(try listLength(-1, what: "okit.prompt, fields")) {
                lua_rawgeti(lua.L, -1, lua_Integer(i + 1))
                let f = lua_absindex(lua.L, -1)
                guard lua_type(lua.L, f) == LUA_TTABLE else {
                    throw LuaRaise("okit.prompt, fields[\(i + 1)]: expected a table { placeholder = …, value = …, secure = … }, got \(lua.typeName(at: f))")
                }
                var field = AlertFieldSnapshot()
                if lua.rawGet(f, "placeholder") == LUA_TSTRING {
                    field.placeholder = try alertText(lua.string(at: -1) ?? "", "okit.prompt, fields[\(i + 1)].placeholder")
                }
                lua.pop()
                if lua.rawGet(f, "value") == LUA_TSTRING { field.value = lua.string(at: -1) }
                lua.pop()
                if lua.rawGet(f, "secure") == LUA_TBOOLEAN { field.secure = lua_toboolean(lua.L, -1) != 0 }
                lua.pop()
                if let rules = try promptFieldRules(f, index: i) { checked.append((i, rules.entity, rules.field)) }
                fields.append(field)
                lua.pop()
            }
            lua.pop()
        } else if kind == "prompt" {
            lua.pop()
        }
        var handler: LuaRef?
        if lua.rawGet(1, "onAction") == LUA_TFUNCTION { handler = lua.ref() } else { lua.pop() }
        // Fields with `rules = { entity, "field" }` are checked by that field's rules when the first action is chosen.
        let validate: ((Int, [String]) -> String?)? = checked.isEmpty ? nil : { [unowned self] choice, values in
            guard choice == 1 else { return nil }
            for c in checked where c.index < values.count {
                do {
                    if let m = try engine(of: c.entity).invalidMessage(c.entity, c.field, .string(values[c.index])) { return m }
                } catch {
                    return "\(error)"
                }
            }
            return nil
        }
        session.activeShell.present(PendingAlert(kind: kind, title: title, message: message, actions: actions, fields: fields,
                                   validate: validate) { [unowned self] choice, values in
            if let handler { _ = try callLua(handler, [.int(choice), .list(values.map { .string($0) })]) }
        })
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
        var menu: String?
        if case .string(let m)? = hash[.string("menu")] { menu = m }
        try readAppSettings()
        do { try session.start(home: ids, menu: menu) } catch { throw LuaRaise(appSite + "okit.app: \(error)", withPosition: false) }
        do { try session.applyEncryptionSetting() } catch { throw LuaRaise(appSite + "okit.app, encryption: \(wordedMessage(error))", withPosition: false) }
    }

    /// `file:line: ` of the `okit.app { … }` call, for errors found after it ran.
    var appSite: String { (screenSites[AppShell.appCheckName] ?? nil).map { $0 + ": " } ?? "" }

    /// `okit.app`'s settings bindings (`contextPath`, `themeName`, `protection`, …) into the shell; done before
    /// the load-time check so that they are checked too.
    func readAppSettings() throws {
        guard case .table(_, let hash)? = appDeclaration else { return }
        if case .string(let c)? = hash[.string("contextPath")] {
            do { _ = try engine.compile(c) } catch { throw appBindingRefusal("okit.app, property contextPath", error) }
            shell.settingsContextPath = c
        }
        for key in AppShell.settingsKeys {
            guard case .string(let b)? = hash[.string(key)] else { continue }
            do { _ = try engine.compile(b) } catch { throw appBindingRefusal("okit.app, property \(key)", error) }
            shell.settingsBindings[key] = b
        }
    }
}
