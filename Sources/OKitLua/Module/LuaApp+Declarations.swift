import CLua
import Foundation
import OKitEngine

extension LuaApp {
    /// Calls `body(key, valueIndex)` for each string-keyed entry of the table at `index` (sorted by key, so
    /// declarations are deterministic). Non-string keys are an error.
    func forEachEntry(_ index: Int32, what: String, _ body: (String, Int32) throws -> Void) throws {
        let L = lua.L
        let t = lua_absindex(L, index)
        var keys: [String] = []
        lua.pushNil()
        while lua_next(L, t) != 0 {
            lua.pop()
            guard let k = lua.string(at: -1), lua_type(L, -1) == LUA_TSTRING else {
                let keyType = lua.typeName(at: -1)   // the key's type, before it is popped
                lua.pop()
                throw LuaRaise("\(what): keys must be names, not \(keyType)s (a list item where a name = value belongs?)")
            }
            keys.append(k)
        }
        for k in keys.sorted() {
            let top = lua.top
            lua.rawGet(t, k)
            defer { lua.top = top }
            try body(k, lua_absindex(L, -1))
        }
    }

    /// The options of `okit.model`: its own and those the registered storage kinds read (`StorageRegistry.options`).
    var modelOptionKeys: [String] { ["name", "storage", "seed"] + options.storageKinds.allOptions }
    /// The options of `okit.app`: its own, the settings bindings, and the storage kinds' options that are the
    /// default of the models that give none.
    var appOptionKeys: [String] {
        let own = ["id", "home", "menu", "version", "authenticate", "autosave", "contextPath"] + AppShell.settingsKeys + LuaApp.okitAppNames
        return own + appStorageDefaultKeys.filter { !own.contains($0) }
    }
    /// The storage kinds' options `okit.app` gives a default of (`endpoint`, `database`, a kind's own), as text;
    /// `encrypted` is a model's own.
    var appStorageDefaultKeys: [String] { options.storageKinds.allOptions.filter { $0 != "encrypted" } }

    /// Refuses a name of the options table at `index` that `known` does not hold (`storag = "sqlite"` would keep
    /// the data somewhere else without a word): at the name's line and column, with the closest known name.
    func refuseUnknownOptions(_ index: Int32, known: [String], what: String, function: String, id: String?, site: String?,
                              advice: (String) -> String? = { _ in nil }) throws {
        let names = unknownNames(index, known: known)
        guard let unknown = names.first else { return }
        throw unknownKeyError(unknown, known: known, what: what, noun: "option", function: function, id: id, site: site,
                              advice: advice(unknown), also: Array(names.dropFirst()))
    }

    static let hookNames: Set<String> = ["managed", "unmanaged", "loaded"]
    /// The options of `okit.entity` (its third argument).
    static let entityOptionKeys = ["id", "table", "primaryKey", "key"]

    /// `okit.entity(name, spec [, options])`.
    func declareEntity(_ call: LuaCall, partial: PartialSpec? = nil) throws -> Int32 {
        let name = try call.string(1)
        try call.requireTable(2)
        var hasId = true
        var mapping = TableMapping()
        if call.type(3) == LUA_TTABLE {
            let names = unknownNames(3, known: LuaApp.entityOptionKeys)
            if let unknown = names.first {
                throw unknownKeyError(unknown, known: LuaApp.entityOptionKeys, what: "okit.entity(\"\(name)\")", noun: "option",
                                      function: "entity", id: name, site: nil, also: Array(names.dropFirst()))
            }
            if lua.rawGet(3, "id") == LUA_TBOOLEAN { hasId = lua_toboolean(lua.L, -1) != 0 }
            lua.pop()
            if partial == nil { mapping = try tableMapping(name) }
        }
        var fields: [FieldSpec] = []
        var computed: [ComputedField] = []
        var methods: [String: LuaRef] = [:]
        var hooks = EntityHooks()
        let site = LuaApp.callerPosition(call.L)
        let function = partial == nil ? "entity" : "partial"
        var misspelled: [LuaRaise] = []   // every field's unknown names and refusals, reported together
        try forEachEntry(2, what: "okit.entity(\"\(name)\")") { key, v in
            do {
                switch lua_type(lua.L, v) {
                case LUA_TSTRING:
                    do { fields.append(try FieldSpec(key, lua.string(at: v) ?? "")) } catch {
                        throw fieldError("okit.entity(\"\(name)\"), field \"\(key)\": \(error)", entity: name, field: key, function: function, site: site)
                    }
                case LUA_TTABLE:
                    if lua.rawGet(v, "__okit_computed") == LUA_TBOOLEAN {
                        lua.pop()
                        computed.append(try computedField(key, table: v))
                    } else {
                        lua.pop()
                        do { try refuseUnknownFieldKeys(entity: name, key, table: v, function: function, site: site) } catch let e as LuaRaise {
                            misspelled.append(e)
                            return
                        }
                        fields.append(try longField(entity: name, key, table: v, function: function, site: site))
                    }
                case LUA_TFUNCTION:
                    lua_pushvalue(lua.L, v)
                    let ref = lua.ref()
                    if LuaApp.hookNames.contains(key) { setHook(key, ref, in: &hooks) } else { methods[key] = ref }
                default:
                    throw fieldError("okit.entity(\"\(name)\"), field \"\(key)\": expected a type string, { type, default = …, didSet = … }, "
                                     + "okit.computed(…) or a function, got \(lua.typeName(at: v))", entity: name, field: key, function: function, site: site)
                }
            } catch let e as LuaRaise { misspelled.append(e) }
        }
        if let first = misspelled.first {
            throw misspelled.count == 1 ? first
                : LuaRaise(LuaApp.inFileOrder(misspelled.map(\.message)).joined(separator: "\n"), withPosition: first.withPosition)
        }
        let entityMethods = methods.map { (key, ref) in
            EntityMethod(key) { [unowned self] e, args in try callLua(ref, [.entity(e)] + args) }
        }
        do {
            if let partial {
                try engine.schema.partial(name, fields: fields, spec: partial, computed: computed, methods: entityMethods, hooks: hooks)
            } else {
                try engine.schema.entity(name, hasId: hasId, fields: fields, computed: computed, methods: entityMethods, hooks: hooks)
            }
        } catch {
            throw schemaRefusal(error, entity: name, function: function, site: site)
        }
        engine.schema.type(named: name)?.tableMapping = mapping
        luaMethods[name] = methods
        declarationSites[name] = LuaApp.callerPosition(call.L)
        lua.push(name)
        return 1
    }

    /// An entity's hook (`managed`, `unmanaged`, `loaded`): the Lua function `ref`.
    func setHook(_ key: String, _ ref: LuaRef, in hooks: inout EntityHooks) {
        switch key {
        case "managed": hooks.managed = { [unowned self] e, c in _ = try callLua(ref, [.entity(e), c.map { .entity($0) } ?? .null]) }
        case "unmanaged": hooks.unmanaged = { [unowned self] e, c in _ = try callLua(ref, [.entity(e), c.map { .entity($0) } ?? .null]) }
        default: hooks.loaded = { [unowned self] e in _ = try callLua(ref, [.entity(e)]) }
        }
    }

    /// `table`, `primaryKey` and `key = "autoincrement"` of `okit.entity`'s options (at index 3): how the `sqlite`
    /// kind keeps the type (storage.md "SQLite models").
    func tableMapping(_ name: String) throws -> TableMapping {
        var m = TableMapping()
        func text(_ key: String) throws -> String? {
            defer { lua.pop() }
            switch lua.rawGet(3, key) {
            case LUA_TNIL: return nil
            case LUA_TSTRING:
                guard let s = lua.string(at: -1), !s.isEmpty, !s.contains("\0") else { break }
                return s
            default: break
            }
            throw LuaRaise("okit.entity(\"\(name)\"): \(key) must be a non-empty name (a table or column of the sqlite database)")
        }
        m.table = try text("table")
        m.primaryKey = try text("primaryKey")
        switch try text("key") {
        case nil, "uuid": break
        case "autoincrement": m.autoIncrement = true
        case let other?: throw LuaRaise("okit.entity(\"\(name)\"): key = \"\(other)\" is not a kind of key (\"autoincrement\" for ids 1, 2, 3, …; leave it out for okit's UUIDs)")
        }
        return m
    }

    /// `okit.partial(stubType, payloadType, stubFields [, { field = …, sync = { … } }])` (storage.md "Partials").
    func declarePartial(_ call: LuaCall) throws -> Int32 {
        let name = try call.string(1)
        let payload = try call.string(2)
        try call.requireTable(3)
        var field: String?
        var sync: [String] = []
        if call.type(4) == LUA_TTABLE {
            if lua.rawGet(4, "field") == LUA_TSTRING { field = lua.string(at: -1) }
            lua.pop()
            let syncType = lua.rawGet(4, "sync")
            if syncType != LUA_TTABLE, syncType != LUA_TNIL {
                throw LuaRaise("okit.partial(\"\(name)\"): sync must list field names, like { \"name\", \"color\" }")
            }
            if syncType == LUA_TTABLE {
                for i in 0..<(try listLength(-1, what: "okit.partial(\"\(name)\"), sync")) {
                    lua_rawgeti(lua.L, -1, lua_Integer(i + 1))
                    guard let s = lua.string(at: -1), lua_type(lua.L, -1) == LUA_TSTRING else {
                        throw LuaRaise("okit.partial(\"\(name)\"): sync must list field names, like { \"name\", \"color\" }")
                    }
                    sync.append(s)
                    lua.pop()
                }
            }
            lua.pop()
        } else if !call.isNil(4) {
            throw LuaRaise("bad argument #4 to 'okit.partial' (table of options expected, got \(call.typeName(4)))")
        }
        lua_settop(lua.L, 3)
        lua_rotate(lua.L, 2, -1)   // (name, payload, fields) → (name, fields, payload)
        lua.pop()
        return try declareEntity(call, partial: PartialSpec(payloadType: payload, field: field, sync: sync))
    }

    func computedField(_ key: String, table v: Int32) throws -> ComputedField {
        lua.rawGet(v, "get")
        let get = lua.ref()
        var setter: ((Entity, Value) throws -> Void)?
        if lua.rawGet(v, "set") == LUA_TFUNCTION {
            let set = lua.ref()
            setter = { [unowned self] e, value in _ = try callLua(set, [.entity(e), value]) }
        } else {
            lua.pop()
        }
        return ComputedField(key, get: { [unowned self] e in try callLua(get, [.entity(e)]) }, set: setter)
    }

    /// A field's long form `{ type, default = …, didSet = …, rules… }`; `function` and `site` (`chunk:line`): the
    /// declaring call, for the position of a name it does not take.
    func longField(entity: String, _ key: String, table v: Int32, function: String = "entity", site: String? = nil) throws -> FieldSpec {
        let L = lua.L
        try refuseUnknownFieldKeys(entity: entity, key, table: v, function: function, site: site)
        lua_rawgeti(L, v, 1)
        guard let decl = lua.string(at: -1) else {
            lua.pop()
            throw fieldError("okit.entity(\"\(entity)\"), field \"\(key)\": the long form needs the type first: { \"string\", default = … }",
                             entity: entity, field: key, function: function, site: site)
        }
        lua.pop()
        lua.rawGet(v, "default")
        let def: Value?
        do { def = lua.isNil(at: -1) ? nil : try value(at: -1) } catch let e as LuaRaise {
            throw fieldError("okit.entity(\"\(entity)\"), field \"\(key)\": \(e.message)", entity: entity, field: key, function: function, site: site)
        }
        lua.pop()
        var didSet: ((Entity, Value) throws -> Void)?
        if lua.rawGet(v, "didSet") == LUA_TFUNCTION {
            let ref = lua.ref()
            didSet = { [unowned self] e, old in _ = try callLua(ref, [.entity(e), old]) }
        } else {
            lua.pop()
        }
        let rules: FieldRules?
        do { rules = try fieldRules(entity: entity, key, table: v) } catch let e as FieldRuleRefusal {
            throw placed(e, entity: entity, field: key, function: function, site: site)
        }
        do { return try FieldSpec(key, decl, default: def, didSet: didSet, rules: rules) } catch {
            throw fieldError("okit.entity(\"\(entity)\"), field \"\(key)\": \(error)", entity: entity, field: key, function: function, site: site)
        }
    }

    /// `okit.model(type [, options])`.
    func declareModel(_ call: LuaCall) throws -> Int32 {
        let type = try call.string(1)
        var name = "default"
        var kind = StorageKind.file
        var seed: LuaRef?
        var storageOptions: [String: Value] = [:]
        if call.type(2) == LUA_TTABLE {
            let site = LuaApp.callerPosition(call.L)
            try refuseUnknownOptions(2, known: modelOptionKeys, what: "okit.model(\"\(type)\")", function: "model", id: type, site: site)
            try refuseWrongTypedModelOptions(2, type: type, site: site)
            if lua.rawGet(2, "name") == LUA_TSTRING { name = lua.string(at: -1) ?? name }
            lua.pop()
            if lua.rawGet(2, "storage") == LUA_TSTRING {
                let s = lua.string(at: -1) ?? ""
                guard let k = options.storageKinds.kind(named: s) else {
                    lua.pop()
                    throw modelOptionError("okit.model(\"\(type)\"): unknown storage \"\(s)\"\(LuaApp.suggestion(s, options.storageKinds.kinds.map(\.rawValue))) (\(storageKindNames))",
                                           key: "storage", type: type, site: site)
                }
                kind = k
            }
            lua.pop()
            if lua.rawGet(2, "seed") == LUA_TFUNCTION { seed = lua.ref() } else { lua.pop() }
            for key in options.storageKinds.allOptions {
                if let v = storageOption(lua.rawGet(2, key)) { storageOptions[key] = v }
                lua.pop()
            }
        } else if !call.isNil(2) {
            try call.requireTable(2)
        }
        if let other = options.storageOverrides[name] { kind = other }
        // The options the kind reads (each reads its own: `StorageRequest.option`).
        let read = options.storageKinds.options(of: kind)
        if options.storageOverrides[name] == nil { try refuseOptionsNotRead(storageOptions, by: kind, type: type) }
        storageOptions = storageOptions.filter { read.contains($0.key) }
        let builtInSettings = type == LuaApp.settingsType && engine.schema.type(named: type) == nil
        if builtInSettings { try declareBuiltInSettings() }
        try validateSchema()
        guard engine.schema.type(named: type) != nil else {
            throw LuaRaise("okit.model: unknown entity type \"\(type)\" (declare it with okit.entity first)")
        }
        let model: Model
        do {
            let storage = try self.storage(for: kind, model: name, type: type, options: storageOptions)
            model = try engine.register(model: name, type: type, storage: storage, storageKind: kind,
                                        deferLoadedHooks: true) { [unowned self] root in
                if builtInSettings { try seedBuiltInSettings(root) }
                if let seed { _ = try callLua(seed, [.entity(root)]) }
            }
        } catch let e as StorageError {
            storageFailed = true
            throw LuaRaise("okit.model(\"\(type)\"): \(wordedMessage(e))")
        }
        if loading {
            pendingLoaded.append(model)
        } else {
            // Declared after the app loaded (from a controller, `app:run`): refused if newer, migrated if older,
            // then its loaded hooks, as a model declared while loading is — a value kept for the migrations is
            // never left in it to be stored twice.
            // A start that fails takes the model back (a `pcall` around the call goes on without it): its stored
            // data is never written over with values no migration converted.
            do {
                let newer = try refuseNewerData([model])
                if newer.isEmpty {
                    try migrate(model)
                    try engine.runLoadedHooks(of: model)
                }
            } catch {
                engine.withdraw(model)
                throw error
            }
        }
        modelSites[name] = LuaApp.callerPosition(call.L)
        pushEntity(model.root)
        return 1
    }

    /// `chunk:line` of the Lua code that called the current Swift function.
    static func callerPosition(_ L: OpaquePointer, level: Int32 = 1) -> String? {
        var ar = lua_Debug()
        guard lua_getstack(L, level, &ar) != 0, lua_getinfo(L, "Sl", &ar) != 0, ar.currentline > 0 else { return nil }
        let src = withUnsafeBytes(of: &ar.short_src) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        return "\(src):\(ar.currentline)"
    }

    /// ` (did you mean "date"?)` for a type name close to a field type's (`datetime`, `integer`) or a declared entity's.
    static func typeHint(_ name: String, entities: [String]) -> String {
        let scalars = ["string", "int", "double", "bool", "date", "data", "image", "inlineData", "inlineImage", "ref"]
        let base = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]{}? "))
        // Other languages' and databases' names of okit's types.
        let synonyms = ["datetime": "date", "timestamp": "date", "time": "date", "integer": "int", "long": "int",
                        "boolean": "bool", "text": "string", "str": "string", "varchar": "string", "decimal": "double",
                        "real": "double", "blob": "data", "bytes": "data", "binary": "data", "picture": "image"]
        if let meant = synonyms[base.lowercased()], !entities.contains(base) { return " (did you mean \"\(meant)\"?)" }
        return NameSuggestion.hint(for: base, preferring: scalars, else: entities)
    }

    /// Checks that every entity type a field names is declared; the error names the declaring line.
    func validateSchema() throws {
        do { try engine.schema.validate() } catch {
            if case .unknownEntityType(let missing, let usedBy) = error {
                let parts = usedBy.split(separator: ".", maxSplits: 1).map(String.init)
                let site = parts.first.flatMap { declarationSites[$0] ?? nil }
                let field = parts.count > 1 ? parts[1] : "?"
                let text = "okit.entity(\"\(parts.first ?? "?")\"), field \"\(field)\": unknown field type or entity type \"\(missing)\"\(LuaApp.typeHint(missing, entities: engine.schema.order)) (declare it with okit.entity before the models that use it)"
                let partial = parts.first.flatMap { engine.schema.type(named: $0)?.partial } != nil
                let e = fieldError(text, entity: parts.first ?? "?", field: field, function: partial ? "partial" : "entity", site: site)
                throw site == nil ? LuaRaise(text, withPosition: false) : e
            }
            if case .badPartial(let type, _) = error, let site = declarationSites[type] ?? nil {
                throw LuaRaise("\(site): \(error)", withPosition: false)
            }
            throw LuaRaise("\(error)")
        }
    }

    /// A JSON value (read by the engine's codec) as a Lua value: objects and arrays as tables (an object's last
    /// member of a repeated key), numbers as integers when whole, null as nil.
    static func luaValue(json: JSONTree) -> LuaValue {
        switch json {
        case .null: return .nil
        case .bool(let b): return .bool(b)
        case .int(let n): return luaNumber(Double(n))
        case .double(let d): return luaNumber(d)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map { luaValue(json: $0) })
        case .object(let members):
            var hash: [LuaKey: LuaValue] = [:]
            for (k, v) in members {
                if v == .null { hash[.string(k)] = nil } else { hash[.string(k)] = luaValue(json: v) }
            }
            return .map(hash)
        }
    }

    /// A number as Lua sees it: an integer when whole (and within 9e15), else a float.
    static func luaNumber(_ d: Double) -> LuaValue {
        d == d.rounded() && abs(d) < 9e15 ? .int(Int64(d)) : .double(d)
    }
}
