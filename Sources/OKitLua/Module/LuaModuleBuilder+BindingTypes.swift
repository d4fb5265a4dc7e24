import CLua
import OKitEngine

extension LuaModuleBuilder {
    /// The metatable of `okit.binding` objects: `get(ctx)`, `set(ctx, value)`, `text`.
    func defineBindingType() {
        lua.defineMetatable(OKitTypes.binding, [
            "__index": { call in
                let key = try call.string(2)
                switch key {
                case "get":
                    lua.push(function: "get") { call in
                        guard let b = lua.object(at: 1, metatable: OKitTypes.binding, as: LuaBinding.self) else { throw LuaRaise("use binding:get(ctx)") }
                        let ctx = try app.context(call, 2)
                        app.push(try app.engine(of: ctx).evaluate(b.binding, ctx))
                        return 1
                    }
                case "set":
                    lua.push(function: "set") { call in
                        guard let b = lua.object(at: 1, metatable: OKitTypes.binding, as: LuaBinding.self) else { throw LuaRaise("use binding:set(ctx, value)") }
                        let ctx = try app.context(call, 2)
                        try app.engine(of: ctx).set(ctx, binding: b.binding.text, app.value(at: 3, what: "binding:set"))
                        return 0
                    }
                case "text":
                    guard let b = lua.object(at: 1, metatable: OKitTypes.binding, as: LuaBinding.self) else { return 0 }
                    lua.push(b.binding.text)
                default: lua.pushNil()
                }
                return 1
            },
            "__tostring": { _ in
                let b = lua.object(at: 1, metatable: OKitTypes.binding, as: LuaBinding.self)
                lua.push("binding \"\(b?.binding.text ?? "")\"")
                return 1
            },
        ])
    }

    /// The metatable of `okit.watch` subscriptions: `value`, `evaluations`, `cancel()`.
    func defineWatchType() {
        lua.defineMetatable(OKitTypes.watch, [
            "__index": { call in
                guard let s = lua.object(at: 1, metatable: OKitTypes.watch, as: Subscription.self) else { return 0 }
                switch try call.string(2) {
                case "value": app.push(s.value)
                case "evaluations": lua.push(s.evaluationCount)
                case "cancel":
                    lua.push(function: "cancel") { _ in
                        lua.object(at: 1, metatable: OKitTypes.watch, as: Subscription.self)?.cancel()
                        return 0
                    }
                default: lua.pushNil()
                }
                return 1
            },
        ])
    }

    /// The metatable of `okit.after` and `okit.every` timers: `cancel()`.
    func defineTimerType() {
        lua.defineMetatable(OKitTypes.timer, [
            "__index": { call in
                guard try call.string(2) == "cancel" else { lua.pushNil(); return 1 }
                lua.push(function: "cancel") { _ in
                    lua.object(at: 1, metatable: OKitTypes.timer, as: TimerQueue.Timer.self)?.cancel()
                    return 0
                }
                return 1
            },
        ])
    }
}
