import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// The state and its storage: `okit.state`, `okit.store`, `okit.storeState`, `okit.restoreState`,
    /// `okit.models` and `okit.transaction`.
    func stateFunctions() -> [(String, LuaFunction)] {
        [
            ("state", { call in try setState(call) }),
            ("store", { call in
                let e = try app.entity(call, 1)
                guard let m = e.model else { throw LuaRaise("okit.store: \(e.debugName) is not in a model") }
                try app.refuseStoreWhileMigrating("okit.store")
                try engine.afterCommit("store " + m.name) { [unowned app] in try app.engine.store(m) }
                return 0
            }),
            ("storeState", { _ in
                try app.refuseStoreWhileMigrating("okit.storeState")
                try engine.afterCommit("storeState") { [unowned app] in try app.engine.storeState() }
                return 0
            }),
            ("restoreState", { _ in try engine.restoreState(); return 0 }),
            ("models", { _ in
                lua.newTable(hash: Int32(engine.models.count))
                for m in engine.models { app.pushEntity(m.root); lua.rawSet(-2, m.name) }
                return 1
            }),
            ("transaction", { call in
                try call.requireFunction(1)
                let fn = call.ref(1)
                let result = try engine.transaction { try app.callLua(fn, []) }
                app.push(result)
                return 1
            }),
        ]
    }

    /// `okit.state { model, … }`: the models of the state, each given by its root.
    private func setState(_ call: LuaCall) throws -> Int32 {
        try call.requireTable(1)
        var models: [Model] = []
        let n = try app.listLength(1, what: "okit.state")
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
    }
}
