import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// The declarations: `okit.entity`, `okit.computed`, `okit.partial`, `okit.model`, `okit.theme`,
    /// `okit.migrate` and `okit.app`.
    func declarationFunctions() -> [(String, LuaFunction)] {
        [
            ("entity", { call in try app.declareEntity(call) }),
            ("computed", { call in try declareComputed(call) }),
            ("partial", { call in try app.declarePartial(call) }),
            ("model", { call in try app.declareModel(call) }),
            ("theme", { call in try app.declareTheme(call) }),
            ("migrate", { call in
                let version = try LuaModuleBuilder.schemaVersion(at: 1, L: call.L, what: "okit.migrate: the version (the version it migrates from)")
                try call.requireFunction(2)
                app.migrations.append((version, call.ref(2), LuaApp.callerPosition(call.L)))
                return 0
            }),
            ("app", { call in try declareApp(call) }),
        ]
    }

    /// `okit.computed(get, set)`: the marked table a field declaration takes for a computed field.
    private func declareComputed(_ call: LuaCall) throws -> Int32 {
        try call.requireFunction(1)
        let hasSetter = !call.isNil(2)
        if hasSetter { try call.requireFunction(2) }
        lua.newTable(hash: 3)
        lua.push(true); lua.rawSet(-2, "__okit_computed")
        lua.hostPush { lua_pushvalue(call.L, 1) }; lua.rawSet(-2, "get")
        if hasSetter { lua.hostPush { lua_pushvalue(call.L, 2) }; lua.rawSet(-2, "set") }
        return 1
    }
}
