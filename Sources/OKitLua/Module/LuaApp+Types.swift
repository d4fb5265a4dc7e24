import CLua
import Foundation
import OKitEngine

extension LuaApp {
    /// Defines the metatables of entity proxies, collections, dates, bindings and timers.
    func defineTypes() {
        lua.defineMetatable(OKitTypes.entity, [
            "__index": { [unowned self] call in try entityIndex(call) },
            "__newindex": { [unowned self] call in
                let e = try entity(call, 1)
                let key = try call.string(2)
                if key == "parent" { throw LuaRaise("\"parent\" is read-only: add the entity to another container instead") }
                try engine(of: e).set(e, key, value(at: 3, what: "field '\(key)'"))
                return 0
            },
            "__tostring": { [unowned self] call in
                let e = try entity(call, 1)
                lua.push(e.displayString ?? e.debugName)
                return 1
            },
            "__eq": { [unowned self] call in
                let a = lua.object(at: 1, metatable: OKitTypes.entity, as: Entity.self)
                let b = lua.object(at: 2, metatable: OKitTypes.entity, as: Entity.self)
                lua.push(a != nil && a === b)
                return 1
            },
        ])
        defineCollectionType()
        defineDateType()
        lua.defineMetatable(OKitTypes.binding, [
            "__index": { [unowned self] call in
                let key = try call.string(2)
                switch key {
                case "get":
                    lua.push(function: "get") { [unowned self] call in
                        guard let b = lua.object(at: 1, metatable: OKitTypes.binding, as: LuaBinding.self) else { throw LuaRaise("use binding:get(ctx)") }
                        let ctx = try context(call, 2)
                        push(try engine(of: ctx).evaluate(b.binding, ctx))
                        return 1
                    }
                case "set":
                    lua.push(function: "set") { [unowned self] call in
                        guard let b = lua.object(at: 1, metatable: OKitTypes.binding, as: LuaBinding.self) else { throw LuaRaise("use binding:set(ctx, value)") }
                        let ctx = try context(call, 2)
                        try engine(of: ctx).set(ctx, binding: b.binding.text, value(at: 3, what: "binding:set"))
                        return 0
                    }
                case "text":
                    guard let b = lua.object(at: 1, metatable: OKitTypes.binding, as: LuaBinding.self) else { return 0 }
                    lua.push(b.binding.text)
                default: lua.pushNil()
                }
                return 1
            },
            "__tostring": { [unowned self] call in
                let b = lua.object(at: 1, metatable: OKitTypes.binding, as: LuaBinding.self)
                lua.push("binding \"\(b?.binding.text ?? "")\"")
                return 1
            },
        ])
        lua.defineMetatable(OKitTypes.watch, [
            "__index": { [unowned self] call in
                guard let s = lua.object(at: 1, metatable: OKitTypes.watch, as: Subscription.self) else { return 0 }
                switch try call.string(2) {
                case "value": push(s.value)
                case "evaluations": lua.push(s.evaluationCount)
                case "cancel":
                    lua.push(function: "cancel") { [unowned self] call in
                        lua.object(at: 1, metatable: OKitTypes.watch, as: Subscription.self)?.cancel()
                        return 0
                    }
                default: lua.pushNil()
                }
                return 1
            },
        ])
        lua.defineMetatable(OKitTypes.timer, [
            "__index": { [unowned self] call in
                guard try call.string(2) == "cancel" else { lua.pushNil(); return 1 }
                lua.push(function: "cancel") { [unowned self] call in
                    lua.object(at: 1, metatable: OKitTypes.timer, as: TimerQueue.Timer.self)?.cancel()
                    return 0
                }
                return 1
            },
        ])
    }

    /// `entity.key`: field, `id`, `parent`, computed field, method (a function to call with `:`), `ref`.
    func entityIndex(_ call: LuaCall) throws -> Int32 {
        let e = try entity(call, 1)
        let key = try call.string(2)
        if e.state == .removed, e.model == nil, e.parent == nil, key != "id" {
            throw LuaRaise("\(e.debugName) was removed from its model and can no longer be used")
        }
        let t = e.type
        if t.slot(of: key) != nil || t.computed[key] != nil || (t.isRef && key == "ref") || t.partial?.field == key {
            push(try engine(of: e).read(e, key))
            return 1
        }
        if key == "id" {       // reserved: nil for types without ids
            if let id = e.id { lua.push(id) } else { lua.pushNil() }
            return 1
        }
        if key == "parent" {
            if let p = e.parent { pushEntity(p) } else { lua.pushNil() }
            return 1
        }
        if let fn = luaMethods[t.name]?[key] {
            fn.push()
            return 1
        }
        if t.methods[key] != nil {
            lua.push(function: key) { [unowned self] call in
                let target = try entity(call, 1)
                var args: [Value] = []
                if call.count >= 2 { for i in 2...call.count { args.append(try value(at: i)) } }
                guard let m = target.type.methods[key] else { throw LuaRaise("\(target.type.name) has no method \"\(key)\"") }
                push(try m.call(target, args))
                return 1
            }
            return 1
        }
        throw LuaRaise("\(t.name) has no field or method \"\(key)\"")
    }

    func coll(_ call: LuaCall) throws -> EntityCollection {
        guard let c = lua.object(at: 1, metatable: OKitTypes.collection, as: CollectionRef.self)?.collection else {
            throw LuaRaise("bad argument #1 to '\(call.name)' (collection expected, got \(call.typeName(1))); call it with ':'")
        }
        return c
    }

    func defineCollectionType() {
        func index(_ call: LuaCall, _ i: Int32, _ c: EntityCollection, allowEnd: Bool = false) throws -> Int {
            let n = try call.int(i)
            let limit = c.count + (allowEnd ? 1 : 0)
            guard n >= 1, n <= limit else { throw LuaRaise("index \(n) is out of range (1 to \(limit))") }
            return Int(n) - 1
        }
        let methods: [String: LuaFunction] = [
            "add": { [unowned self] call in
                let c = try coll(call)
                let v = try value(at: 2, what: "collection:add")
                if call.isNil(3) { try engine(of: c).insert(v, into: c) } else { try engine(of: c).insert(v, into: c, at: index(call, 3, c, allowEnd: true)) }
                lua.hostPush { lua_pushvalue(call.L, 2) }
                return 1
            },
            "append": { [unowned self] call in
                let c = try coll(call)
                try engine(of: c).insert(value(at: 2, what: "collection:append"), into: c, append: true)
                lua.hostPush { lua_pushvalue(call.L, 2) }
                return 1
            },
            "remove": { [unowned self] call in
                let c = try coll(call)
                if call.type(2) == LUA_TNUMBER {
                    let i = try index(call, 2, c)
                    let v = c.items[i]
                    try engine(of: c).remove(at: i, from: c)
                    push(v)
                } else {
                    let v = try value(at: 2)
                    try engine(of: c).remove(v, from: c)
                    push(v)
                }
                return 1
            },
            "move": { [unowned self] call in
                let c = try coll(call)
                try engine(of: c).move(in: c, from: index(call, 2, c), to: index(call, 3, c))
                return 0
            },
            "clear": { [unowned self] call in let c = try coll(call); try engine(of: c).clear(c); return 0 },
            "contains": { [unowned self] call in
                let c = try coll(call)
                engine.graph.recordMembers(c)
                let v = try value(at: 2)
                lua.push(c.items.contains { ValueOrder.equal($0, v) || sameEntity($0, v) })
                return 1
            },
            "find": { [unowned self] call in
                let c = try coll(call)
                try call.requireFunction(2)
                engine.graph.recordMembers(c)
                for item in c.items where try test(call, 2, item) { push(item); return 1 }
                lua.pushNil()
                return 1
            },
            "filter": { [unowned self] call in
                let c = try coll(call)
                try call.requireFunction(2)
                engine.graph.recordMembers(c)
                var out: [Value] = []
                for item in c.items where try test(call, 2, item) { out.append(item) }
                push(.list(out))
                return 1
            },
        ]
        lua.defineMetatable(OKitTypes.collection, [
            "__index": { [unowned self] call in
                let c = try coll(call)
                if call.type(2) == LUA_TNUMBER {
                    engine.graph.recordMembers(c)
                    let n = try call.int(2)
                    if n >= 1, n <= c.count { push(c.items[Int(n) - 1]) } else { lua.pushNil() }
                    return 1
                }
                let key = try call.string(2)
                if c.kind == .map, methods[key] == nil {
                    engine.graph.recordMembers(c)
                    push(c.value(forKey: key) ?? .null)
                    return 1
                }
                guard let m = methods[key] else { throw LuaRaise("collections have no field \"\(key)\" (index them with [n], 1-based)") }
                lua.push(function: key, m)
                return 1
            },
            "__newindex": { [unowned self] call in
                let c = try coll(call)
                guard c.kind == .map else { throw LuaRaise("use :add, :append or :remove to change a collection") }
                try engine(of: c).put(value(at: 3, what: "collection key"), forKey: call.string(2), in: c)
                return 0
            },
            "__len": { [unowned self] call in
                let c = try coll(call)
                engine.graph.recordMembers(c)
                lua.push(c.count)
                return 1
            },
            "__pairs": { [unowned self] call in
                let c = try coll(call)
                engine.graph.recordMembers(c)
                var position = 0
                lua.push(function: "next") { [unowned self] _ in
                    guard position < c.count else { lua.pushNil(); return 1 }
                    if c.kind == .map { lua.push(c.keys[position]) } else { lua.push(position + 1) }
                    push(c.items[position])
                    position += 1
                    return 2
                }
                return 1
            },
            "__tostring": { [unowned self] call in
                let c = try coll(call)
                lua.push("\(c.owner?.type.name ?? "?").\(c.fieldName) (\(c.count))")
                return 1
            },
        ])
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
        push(item)
        try lua.pcall(nargs: 1, nresults: 1)
        return lua_toboolean(lua.L, -1) != 0
    }
}

extension LuaApp {
    /// The engine an entity belongs to: this app's, or — in a flow test's state, which drives other apps — the
    /// engine of the entity's model, so a write from a test acts in the app the entity belongs to.
    func engine(of e: Entity?) -> Engine {
        guard drivesOtherApps, let other = e?.model?.engine else { return engine }
        return other
    }

    func engine(of c: EntityCollection) -> Engine { engine(of: c.owner) }
}
