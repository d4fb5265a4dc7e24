import CLua
import Foundation
import OKitEngine

extension LuaApp {
    /// Builds the `okit` table, sets the global `okit` and preloads `require "okit"`.
    func installModule() {
        lua.newTable(hash: 40)
        let functions: [(String, LuaFunction)] = [
            ("entity", { [unowned self] call in try declareEntity(call) }),
            ("computed", { [unowned self] call in
                try call.requireFunction(1)
                let hasSetter = !call.isNil(2)
                if hasSetter { try call.requireFunction(2) }
                lua.newTable(hash: 3)
                lua.push(true); lua.rawSet(-2, "__okit_computed")
                lua.hostPush { lua_pushvalue(call.L, 1) }; lua.rawSet(-2, "get")
                if hasSetter { lua.hostPush { lua_pushvalue(call.L, 2) }; lua.rawSet(-2, "set") }
                return 1
            }),
            ("partial", { [unowned self] call in try declarePartial(call) }),
            ("model", { [unowned self] call in try declareModel(call) }),
            ("state", { [unowned self] call in
                try call.requireTable(1)
                var models: [Model] = []
                let n = try listLength(1, what: "okit.state")
                if n > 0 {
                    for i in 1...n {
                        lua_rawgeti(call.L, 1, lua_Integer(i))
                        defer { lua.pop() }
                        guard let e = lua.object(at: -1, metatable: OKitTypes.entity, as: Entity.self), let m = e.model, m.root === e else {
                            throw LuaRaise("okit.state: element \(i) is not a model root (pass what okit.model returned)")
                        }
                        models.append(m)
                    }
                }
                engine.setState(models)
                return 0
            }),
            ("store", { [unowned self] call in
                let e = try entity(call, 1)
                guard let m = e.model else { throw LuaRaise("okit.store: \(e.debugName) is not in a model") }
                try engine.store(m)
                return 0
            }),
            ("storeState", { [unowned self] _ in try engine.storeState(); return 0 }),
            ("restoreState", { [unowned self] _ in try engine.restoreState(); return 0 }),
            ("models", { [unowned self] _ in
                lua.newTable(hash: Int32(engine.models.count))
                for m in engine.models { pushEntity(m.root); lua.rawSet(-2, m.name) }
                return 1
            }),
            ("new", { [unowned self] call in
                let type = try call.string(1)
                var fields: [String: Value] = [:]
                if call.type(2) == LUA_TTABLE {
                    try forEachEntry(2, what: "okit.new(\"\(type)\")") { key, v in fields[key] = try value(at: v, what: "okit.new(\"\(type)\") field '\(key)'") }
                }
                pushEntity(try engine.make(type, fields))
                return 1
            }),
            ("get", { [unowned self] call in
                let ctx = try context(call, 1)
                push(try engine(of: ctx).get(ctx, call.string(2)))
                return 1
            }),
            ("getAll", { [unowned self] call in
                let ctx = try context(call, 1)
                let values = try engine(of: ctx).getAll(ctx, call.string(2))
                lua.newTable(array: Int32(values.count), hash: 1)
                for (i, v) in values.enumerated() { push(v); lua.hostPush { lua_rawseti(lua.L, -2, lua_Integer(i + 1)) } }
                lua.push(values.count); lua.rawSet(-2, "n")
                return 1
            }),
            ("set", { [unowned self] call in
                let ctx = try context(call, 1)
                let binding = try call.string(2)
                try engine(of: ctx).set(ctx, binding: binding, value(at: 3, what: "okit.set(\"\(ShellError.brief(binding))\")"))
                return 0
            }),
            ("call", { [unowned self] call in
                let ctx = try context(call, 1)
                push(try engine(of: ctx).call(ctx, call.string(2)))
                return 1
            }),
            ("binding", { [unowned self] call in
                lua.push(object: LuaBinding(try engine.compile(call.string(1))), metatable: OKitTypes.binding)
                return 1
            }),
            ("transaction", { [unowned self] call in
                try call.requireFunction(1)
                let fn = call.ref(1)
                let result = try engine.transaction { try callLua(fn, []) }
                push(result)
                return 1
            }),
            ("extension", { [unowned self] call in
                let type = try call.string(1)
                let name = try call.string(2)
                try call.requireFunction(3)
                let fn = call.ref(3)
                engine.extensions.register(type, name) { [unowned self] receiver, args, _ in
                    try callLua(fn, receiver: receiver, args)
                }
                return 0
            }),
            ("strings", { [unowned self] call in
                let lang = try call.string(1)
                if call.type(2) == LUA_TSTRING {
                    let path = try call.string(2)
                    guard let folder = appFolder else {
                        throw LuaRaise("okit.strings: \"\(path)\" must be a path inside the app's folder")
                    }
                    let lookup: AppFolderPolicy.Lookup
                    do { lookup = try AppFolderPolicy.read(path, in: folder) } catch let error as AppFolderPolicy.Refusal { throw LuaRaise("okit.strings: \(error.message)") }
                    guard case .file(let bytes) = lookup else { throw LuaRaise("okit.strings: \(path): cannot read the file") }
                    do {
                        try engine.strings.load(language: lang, stringsFileContents: bytes)
                    } catch var e as StringsFileError {
                        e.path = folder.appendingPathComponent(path).path
                        throw e
                    }
                } else {
                    try call.requireTable(2)
                    var table: [String: String] = [:]
                    try forEachEntry(2, what: "okit.strings") { k, v in table[k] = lua.string(at: v) ?? "" }
                    engine.strings.add(language: lang, strings: table)
                }
                engine.stringsChanged()
                return 0
            }),
            ("locale", { [unowned self] call in
                if call.type(1) == LUA_TTABLE {
                    var l = engine.locale
                    if lua.rawGet(1, "language") == LUA_TSTRING, options.language == nil { l.language = lua.string(at: -1) ?? l.language }
                    lua.pop()
                    if lua.rawGet(1, "region") == LUA_TSTRING { l.region = lua.string(at: -1) ?? l.region }
                    lua.pop()
                    if lua.rawGet(1, "timeZone") == LUA_TSTRING {
                        let tz = lua.string(at: -1) ?? "UTC"
                        guard TimeZone(identifier: tz) != nil else { lua.pop(); throw LuaRaise("okit.locale: unknown time zone \"\(tz)\"") }
                        l.timeZone = tz
                    }
                    lua.pop()
                    engine.locale = l
                }
                lua.newTable(hash: 3)
                lua.push(engine.locale.language); lua.rawSet(-2, "language")
                lua.push(engine.locale.region); lua.rawSet(-2, "region")
                lua.push(engine.locale.timeZone); lua.rawSet(-2, "timeZone")
                return 1
            }),
            ("localize", { [unowned self] call in lua.push(engine.localize(try call.string(1))); return 1 }),
            ("byId", { [unowned self] call in
                if let e = engine.lookup(id: try call.string(1)) { pushEntity(e) } else { lua.pushNil() }
                return 1
            }),
            ("valid", { [unowned self] call in
                // okit.valid(entity): true, {} — or false and field name → message for each field that breaks a rule.
                let e = try entity(call, 1)
                let broken = try engine(of: e).invalidFields(of: e)
                lua.push(broken.isEmpty)
                lua.newTable(hash: Int32(clamping: broken.count))
                for (field, message) in broken {
                    lua.push(message)
                    lua.rawSet(-2, field)
                }
                return 2
            }),
            ("typeof", { [unowned self] call in lua.push(try entity(call, 1).type.name); return 1 }),
            ("rootof", { [unowned self] call in pushEntity(try entity(call, 1).root); return 1 }),
            ("modelof", { [unowned self] call in
                if let m = try entity(call, 1).model { lua.push(m.name) } else { lua.pushNil() }
                return 1
            }),
            ("watch", { [unowned self] call in
                let ctx = try context(call, 1)
                let text = try call.string(2)
                try call.requireFunction(3)
                let fn = call.ref(3)
                let state = WatchRounds()
                let sub = try engine(of: ctx).subscribe(ctx, text, mode: .display) { [unowned self] s in
                    // A function that changes what it watches comes back here while it runs: the change is run
                    // after it returns, in rounds (no recursion), and a loop stops at the limit with a warning.
                    if state.running { state.pending = true; return }
                    state.running = true
                    defer { state.running = false }
                    var rounds = 0
                    repeat {
                        state.pending = false
                        rounds += 1
                        do { _ = try callLua(fn, [s.value]) } catch { engine.report(error); return }
                    } while state.pending && rounds < WatchRounds.limit
                    if state.pending {
                        state.pending = false
                        engine.warn("okit.watch(\"\(text.count > 60 ? String(text.prefix(59)) + "…" : text)\"): its function changed what it watches \(WatchRounds.limit) times in a row; stopped (a watch that writes what it reads loops)")
                    }
                }
                lua.push(object: sub, metatable: OKitTypes.watch)
                return 1
            }),
            ("theme", { [unowned self] call in try declareTheme(call) }),
            ("alert", { [unowned self] call in try presentAlert(call, kind: "alert") }),
            ("prompt", { [unowned self] call in try presentAlert(call, kind: "prompt") }),
            ("after", { [unowned self] call in try schedule(call, repeating: false) }),
            ("every", { [unowned self] call in try schedule(call, repeating: true) }),
            ("migrate", { [unowned self] call in
                let version = Int(try call.int(1))
                try call.requireFunction(2)
                migrations.append((version, call.ref(2)))
                return 0
            }),
            ("app", { [unowned self] call in
                try call.requireTable(1)
                warnUnknownKeys(1, known: LuaApp.appOptionKeys, what: "okit.app")
                appDeclaration = call.value(1)
                if case .table(_, let hash)? = appDeclaration, case .string(let id)? = hash[.string("id")], !id.isEmpty { session.appId = id }
                screenSites[AppShell.appCheckName] = LuaApp.callerPosition(call.L)
                if lua.rawGet(1, "version") == LUA_TNUMBER {
                    let v = Int(lua_tointegerx(lua.L, -1, nil))
                    appVersion = v
                    engine.schemaVersion = v
                }
                lua.pop()
                switch lua.rawGet(1, "authenticate") {
                case LUA_TFUNCTION: authenticateFn = lua.ref()
                case LUA_TNIL: lua.pop()
                default:
                    lua.pop()
                    throw LuaRaise("okit.app: authenticate must be a function that returns true to uncover the app")
                }
                switch lua.rawGet(1, "endpoint") {
                case LUA_TSTRING:
                    session.appStorageDefaults["endpoint"] = lua.string(at: -1)
                    lua.pop()
                case LUA_TNIL: lua.pop()
                default:
                    lua.pop()
                    throw LuaRaise("okit.app: endpoint must be a URL string, e.g. \"http://127.0.0.1:8080/okit\"")
                }
                switch lua.rawGet(1, "database") {
                case LUA_TSTRING:
                    session.appStorageDefaults["database"] = lua.string(at: -1)
                    lua.pop()
                case LUA_TNIL: lua.pop()
                default:
                    lua.pop()
                    throw LuaRaise("okit.app: database must be a URL string, e.g. \"postgres://okit@127.0.0.1:5432/shop\"")
                }
                switch lua.rawGet(1, "autosave") {
                case LUA_TNUMBER:
                    let s = lua_tonumberx(lua.L, -1, nil)
                    lua.pop()
                    guard s > 0, s.isFinite else { throw LuaRaise("okit.app: autosave must be a number of seconds > 0") }
                    session.autosaveSeconds = s
                case LUA_TNIL: lua.pop()
                default:
                    lua.pop()
                    throw LuaRaise("okit.app: autosave must be a number of seconds > 0")
                }
                return 0
            }),
        ]
        for (name, fn) in functions + screenFunctions() {
            lua.push(function: "okit." + name, fn)
            lua.rawSet(-2, name)
        }
        pushDateModule()
        lua.rawSet(-2, "date")
        pushCellModule()
        lua.rawSet(-2, "cell")
        lua.push(LuaApp.settingsType)
        lua.rawSet(-2, "Settings")
        lua.newTable(hash: 2)
        lua.push(function: "okit.data.read") { [unowned self] call in
            if call.isNil(1) { lua.pushNil(); return 1 }
            let meta = try entity(call, 1)
            if let bytes = try engine(of: meta).readBytes(meta) { lua.push(bytes: bytes) } else { lua.pushNil() }
            return 1
        }
        lua.hostPush { lua_pushvalue(lua.L, -1) }
        lua.rawSet(-3, "bytes")   // storage.md's name for the same function
        lua.rawSet(-2, "read")
        lua.push(function: "okit.data.write") { [unowned self] call in
            let e = try entity(call, 1)
            let field = try call.string(2)
            guard let bytes = lua.bytes(at: 3) else { throw LuaRaise("bad argument #3 to 'okit.data.write' (string of bytes expected, got \(call.typeName(3)))") }
            let format = try call.string(4)
            try engine(of: e).writeBytes(e, field, bytes, format: format, label: call.stringOrNil(5))
            return 0
        }
        lua.rawSet(-2, "write")
        lua.rawSet(-2, "data")
        lua.push("okit 0.1.0")
        lua.rawSet(-2, "version")
        // The module: global `okit` and `require "okit"`.
        lua.hostPush { lua_pushvalue(lua.L, -1) }
        lua.setGlobal("okit")
        lua.pushGlobal("package")
        lua.rawGet(-1, "loaded")
        lua.hostPush { lua_pushvalue(lua.L, -3) }
        lua.rawSet(-2, "okit")
        lua.pop(3)
    }

    func schedule(_ call: LuaCall, repeating: Bool) throws -> Int32 {
        let seconds = try call.number(1)
        guard seconds >= 0, seconds.isFinite else { throw LuaRaise("\(call.name): seconds must be ≥ 0") }
        try call.requireFunction(2)
        let fn = call.ref(2)
        let t = session.timers.schedule(at: engine.clock.now.addingTimeInterval(seconds), every: repeating ? seconds : nil) { [unowned self] in
            _ = try engine.transaction { try callLua(fn, []) }
        }
        lua.push(object: t, metatable: OKitTypes.timer)
        return 1
    }
}

/// The state of one `okit.watch`: whether its function runs now, and whether what it watches changed meanwhile.
final class WatchRounds {
    /// Rounds of a watch whose function keeps changing what it watches.
    static let limit = 100
    var running = false
    var pending = false
}
