import CLua
import OKitEngine

/// Binding-valued properties given as Lua functions (lua-api.md "Screens": a custom screen kind is a list or
/// detail declaration whose properties and hooks are Lua functions). The function becomes an extension on any
/// receiver, under a generated name, and the property the binding that calls it on the screen's context (or the
/// row's entity, for row properties): `function(ctx) return … end`. What it reads is dependency-tracked like any
/// Lua extension's reads, so the screen follows the model.
extension LuaApp {
    /// The binding text of a property: a string as it is, a function as the binding that calls it; nil for
    /// any other value.
    func bindingText(at v: Int32) -> String? {
        switch lua_type(lua.L, v) {
        case LUA_TSTRING:
            return lua.string(at: v)
        case LUA_TFUNCTION:
            lua.hostPush { lua_pushvalue(lua.L, v) }
            let fn = lua.ref()
            functionBindingCount += 1
            let name = "__okit_fn\(functionBindingCount)"
            engine.extensions.register("any", name) { [unowned self] receiver, args, _ in
                try callLua(fn, receiver: receiver, args)
            }
            return name + "()"
        default:
            return nil
        }
    }
}
