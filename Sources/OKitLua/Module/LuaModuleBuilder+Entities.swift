import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// Entities, bindings and extensions: `okit.new`, `okit.get`, `okit.getAll`, `okit.set`, `okit.call`,
    /// `okit.binding`, `okit.extension`, `okit.byId`, `okit.valid`, `okit.typeof`, `okit.rootof`, `okit.modelof`.
    func entityFunctions() -> [(String, LuaFunction)] {
        [
            ("new", { call in try makeEntity(call) }),
            ("get", { call in
                let ctx = try app.context(call, 1)
                app.push(try app.engine(of: ctx).get(ctx, call.string(2)))
                return 1
            }),
            ("getAll", { call in
                let ctx = try app.context(call, 1)
                let values = try app.engine(of: ctx).getAll(ctx, call.string(2))
                lua.newTable(array: Int32(values.count), hash: 1)
                for (i, v) in values.enumerated() { app.push(v); lua.hostPush { lua_rawseti(lua.L, -2, lua_Integer(i + 1)) } }
                lua.push(values.count); lua.rawSet(-2, "n")
                return 1
            }),
            ("set", { call in
                let ctx = try app.context(call, 1)
                let binding = try call.string(2)
                try app.engine(of: ctx).set(ctx, binding: binding, app.value(at: 3, what: "okit.set(\"\(ShellError.brief(binding))\")"))
                return 0
            }),
            ("call", { call in
                let ctx = try app.context(call, 1)
                app.push(try app.engine(of: ctx).call(ctx, call.string(2)))
                return 1
            }),
            ("binding", { call in
                lua.push(object: LuaBinding(try engine.compile(call.string(1))), metatable: OKitTypes.binding)
                return 1
            }),
            ("extension", { call in try registerExtension(call) }),
        ] + entityQueryFunctions()
    }

    /// `okit.byId`, `okit.valid`, `okit.typeof`, `okit.rootof`, `okit.modelof`.
    private func entityQueryFunctions() -> [(String, LuaFunction)] {
        [
            ("byId", { call in
                if let e = engine.lookup(id: try call.string(1)) { app.pushEntity(e) } else { lua.pushNil() }
                return 1
            }),
            ("valid", { call in
                // okit.valid(entity): true, {} — or false and field name → message for each field that breaks a rule.
                let e = try app.entity(call, 1)
                let broken = try app.engine(of: e).invalidFields(of: e)
                lua.push(broken.isEmpty)
                lua.newTable(hash: Int32(clamping: broken.count))
                for (field, message) in broken {
                    lua.push(message)
                    lua.rawSet(-2, field)
                }
                return 2
            }),
            ("typeof", { call in lua.push(try app.entity(call, 1).type.name); return 1 }),
            ("rootof", { call in app.pushEntity(try app.entity(call, 1).root); return 1 }),
            ("modelof", { call in
                if let m = try app.entity(call, 1).model { lua.push(m.name) } else { lua.pushNil() }
                return 1
            }),
        ]
    }

    /// `okit.new(type, fields)`: a new entity outside any model.
    private func makeEntity(_ call: LuaCall) throws -> Int32 {
        let type = try call.string(1)
        var fields: [String: Value] = [:]
        if call.type(2) == LUA_TTABLE {
            try app.forEachEntry(2, what: "okit.new(\"\(type)\")") { key, v in fields[key] = try app.value(at: v, what: "okit.new(\"\(type)\") field '\(key)'") }
        }
        app.pushEntity(try engine.make(type, fields))
        return 1
    }

    /// `okit.extension(type, name, fn)`: a binding extension written in Lua.
    private func registerExtension(_ call: LuaCall) throws -> Int32 {
        let type = try call.string(1)
        let name = try call.string(2)
        try call.requireFunction(3)
        try app.checkExtensionType(type, name: name, site: LuaApp.callerPosition(call.L))
        let fn = call.ref(3)
        engine.extensions.register(type, name) { [unowned app] receiver, args, _ in
            try app.callLua(fn, receiver: receiver, args)
        }
        return 0
    }
}
