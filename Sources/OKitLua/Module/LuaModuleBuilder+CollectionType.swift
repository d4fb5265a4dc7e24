import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// The metatable of collections: `c[n]` (1-based), `c.key` of a map, `#c`, `pairs(c)` and the methods of
    /// `collectionMethods`.
    func defineCollectionType() {
        let methods = collectionMethods()
        lua.defineMetatable(OKitTypes.collection, [
            "__index": { call in
                let c = try collection(call)
                if call.type(2) == LUA_TNUMBER {
                    engine.graph.recordMembers(c)
                    let n = try call.int(2)
                    if n >= 1, n <= c.count { app.push(c.items[Int(n) - 1]) } else { lua.pushNil() }
                    return 1
                }
                let key = try call.string(2)
                if c.kind == .map, methods[key] == nil {
                    engine.graph.recordMembers(c)
                    app.push(c.value(forKey: key) ?? .null)
                    return 1
                }
                guard let m = methods[key] else { throw LuaRaise("collections have no field \"\(key)\" (index them with [n], 1-based)") }
                lua.push(function: key, m)
                return 1
            },
            "__newindex": { call in
                let c = try collection(call)
                guard c.kind == .map else { throw LuaRaise("use :add, :append or :remove to change a collection") }
                try app.engine(of: c).put(app.value(at: 3, what: "collection key"), forKey: call.string(2), in: c)
                return 0
            },
            "__len": { call in
                let c = try collection(call)
                engine.graph.recordMembers(c)
                lua.push(c.count)
                return 1
            },
            "__pairs": { call in try pairs(call) },
            "__tostring": { call in
                let c = try collection(call)
                lua.push("\(c.owner?.type.name ?? "?").\(c.fieldName) (\(c.count))")
                return 1
            },
        ])
    }

    /// `pairs(c)`: index and item of a list, key and value of a map, in order.
    private func pairs(_ call: LuaCall) throws -> Int32 {
        let c = try collection(call)
        engine.graph.recordMembers(c)
        var position = 0
        lua.push(function: "next") { _ in
            guard position < c.count else { lua.pushNil(); return 1 }
            if c.kind == .map { lua.push(c.keys[position]) } else { lua.push(position + 1) }
            app.push(c.items[position])
            position += 1
            return 2
        }
        return 1
    }

    /// `add`, `append`, `remove`, `move`, `clear`, `contains`, `find`, `filter`, called with `:`.
    private func collectionMethods() -> [String: LuaFunction] {
        [
            "add": { call in
                let c = try collection(call)
                let v = try app.value(at: 2, what: "collection:add")
                if call.isNil(3) { try app.engine(of: c).insert(v, into: c) } else { try app.engine(of: c).insert(v, into: c, at: itemIndex(call, 3, c, allowEnd: true)) }
                lua.hostPush { lua_pushvalue(call.L, 2) }
                return 1
            },
            "append": { call in
                let c = try collection(call)
                try app.engine(of: c).insert(app.value(at: 2, what: "collection:append"), into: c, append: true)
                lua.hostPush { lua_pushvalue(call.L, 2) }
                return 1
            },
            "remove": { call in
                let c = try collection(call)
                if call.type(2) == LUA_TNUMBER {
                    let i = try itemIndex(call, 2, c)
                    let v = c.items[i]
                    try app.engine(of: c).remove(at: i, from: c)
                    app.push(v)
                } else {
                    let v = try app.value(at: 2)
                    try app.engine(of: c).remove(v, from: c)
                    app.push(v)
                }
                return 1
            },
            "move": { call in
                let c = try collection(call)
                try app.engine(of: c).move(in: c, from: itemIndex(call, 2, c), to: itemIndex(call, 3, c))
                return 0
            },
            "clear": { call in let c = try collection(call); try app.engine(of: c).clear(c); return 0 },
        ].merging(collectionQueries()) { first, _ in first }
    }

    /// `contains`, `find`, `filter`: they read the members, so a binding that calls them depends on them.
    private func collectionQueries() -> [String: LuaFunction] {
        [
            "contains": { call in
                let c = try collection(call)
                engine.graph.recordMembers(c)
                let v = try app.value(at: 2)
                lua.push(c.items.contains { ValueOrder.equal($0, v) || sameEntity($0, v) })
                return 1
            },
            "find": { call in
                let c = try collection(call)
                try call.requireFunction(2)
                engine.graph.recordMembers(c)
                for item in c.items where try test(call, 2, item) { app.push(item); return 1 }
                lua.pushNil()
                return 1
            },
            "filter": { call in
                let c = try collection(call)
                try call.requireFunction(2)
                engine.graph.recordMembers(c)
                var out: [Value] = []
                for item in c.items where try test(call, 2, item) { out.append(item) }
                app.push(.list(out))
                return 1
            },
        ]
    }

    /// The collection a method was called on (argument 1).
    private func collection(_ call: LuaCall) throws -> EntityCollection {
        guard let c = lua.object(at: 1, metatable: OKitTypes.collection, as: CollectionRef.self)?.collection else {
            throw LuaRaise("bad argument #1 to '\(call.name)' (collection expected, got \(call.typeName(1))); call it with ':'")
        }
        return c
    }

    /// The 0-based position of the 1-based index at argument `i`; `allowEnd` admits one past the last item.
    private func itemIndex(_ call: LuaCall, _ i: Int32, _ c: EntityCollection, allowEnd: Bool = false) throws -> Int {
        let n = try call.int(i)
        let limit = c.count + (allowEnd ? 1 : 0)
        guard n >= 1, n <= limit else { throw LuaRaise("index \(n) is out of range (1 to \(limit))") }
        return Int(n) - 1
    }

    private func sameEntity(_ a: Value, _ b: Value) -> Bool {
        if case .entity(let x) = a, case .entity(let r) = b, x.type.isRef { return x.refTarget === r }
        return false
    }

    /// Calls the predicate at argument `fn` with `item`; its truthiness.
    private func test(_ call: LuaCall, _ fn: Int32, _ item: Value) throws -> Bool {
        let t = lua.top
        defer { lua.top = t }
        lua.hostPush { lua_pushvalue(call.L, fn) }
        app.push(item)
        try lua.pcall(nargs: 1, nresults: 1)
        return lua_toboolean(lua.L, -1) != 0
    }
}
