import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// The metatable of entity proxies: fields, `id`, `parent`, computed fields and methods by name.
    func defineEntityType() {
        lua.defineMetatable(OKitTypes.entity, [
            "__index": { call in try entityIndex(call) },
            "__newindex": { call in
                let e = try app.entity(call, 1)
                let key = try call.string(2)
                if key == "parent" { throw LuaRaise("\"parent\" is read-only: add the entity to another container instead") }
                let engine = app.engine(of: e), value = try app.value(at: 3, what: "field '\(key)'")
                do { try engine.set(e, key, value) } catch {
                    throw app.luaWriteRefusal(error, type: e.type, engine: engine, values: { $0 == key ? value : nil }, L: call.L)
                }
                return 0
            },
            "__tostring": { call in
                let e = try app.entity(call, 1)
                lua.push(e.displayString ?? e.debugName)
                return 1
            },
            "__eq": { _ in
                let a = lua.object(at: 1, metatable: OKitTypes.entity, as: Entity.self)
                let b = lua.object(at: 2, metatable: OKitTypes.entity, as: Entity.self)
                lua.push(a != nil && a === b)
                return 1
            },
        ])
    }

    /// `entity.key`: field, `id`, `parent`, computed field, method (a function to call with `:`), `ref`.
    private func entityIndex(_ call: LuaCall) throws -> Int32 {
        let e = try app.entity(call, 1)
        let key = try call.string(2)
        if e.state == .removed, e.model == nil, e.parent == nil, key != "id" {
            throw LuaRaise("\(e.debugName) was removed from its model and can no longer be used")
        }
        let t = e.type
        if t.slot(of: key) != nil || t.computed[key] != nil || (t.isRef && key == "ref") || t.partial?.field == key {
            app.push(try app.engine(of: e).read(e, key))
            return 1
        }
        if key == "id" {       // reserved: nil for types without ids
            if let id = e.id { lua.push(id) } else { lua.pushNil() }
            return 1
        }
        if key == "parent" {
            if let p = e.parent { app.pushEntity(p) } else { lua.pushNil() }
            return 1
        }
        if let fn = app.luaMethods[t.name]?[key] {
            fn.push()
            return 1
        }
        if t.methods[key] != nil {
            lua.push(function: key) { call in
                let target = try app.entity(call, 1)
                var args: [Value] = []
                if call.count >= 2 { for i in 2...call.count { args.append(try app.value(at: i)) } }
                guard let m = target.type.methods[key] else { throw LuaRaise("\(target.type.name) has no method \"\(key)\"") }
                app.push(try m.call(target, args))
                return 1
            }
            return 1
        }
        throw LuaRaise("\(t.name) has no field or method \"\(key)\"")
    }
}
