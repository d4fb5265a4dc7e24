import CLua
import OKitEngine

/// Lua functions as actions and controller hooks (lua-api.md "Screens"): an action gets `(ctx, app)`, a hook
/// `onAppear`/`onDisappear`/`onEdit` gets `(screen, app)`, `onAdd`/`onDelete`/`onSelect` get `(entity, screen,
/// app)`. `screen` is `{ id, kind, context }`; `app` offers the navigation commands `app:open(id [, ctx])`,
/// `app:present(id [, ctx])`, `app:back()`, `app:close()`, which run after the current command, in order (`ctx`:
/// an entity, or a binding evaluated on the screen on top then; none: that screen's context).
extension LuaApp {
    /// A Lua function (in the registry) as an action, or as the hook `hook`.
    func luaAction(_ ref: LuaRef, hook: String?) -> Action {
        .function { [unowned self] ctx, screen in
            do {
                try callAction(ref, hook: hook, ctx, screen)
            } catch {
                deferredNavigation.removeAll()   // the command failed: its navigation does not happen
                throw error
            }
        }
    }

    private func callAction(_ ref: LuaRef, hook: String?, _ ctx: Entity?, _ screen: ScreenInfo?) throws {
        let t = lua.top
        defer { lua.top = t }
        ref.push()
        var n: Int32 = 0
        func pushScreen() {
            guard let screen else { lua.pushNil(); return }
            lua.newTable(hash: 3)
            lua.push(screen.id); lua.rawSet(-2, "id")
            lua.push(screen.kind); lua.rawSet(-2, "kind")
            if let c = screen.context { pushEntity(c) } else { lua.pushNil() }
            lua.rawSet(-2, "context")
        }
        switch hook {
        case "onAppear", "onDisappear", "onEdit":
            pushScreen(); n = 1
        case "onAdd", "onDelete", "onSelect":
            push(ctx.map { .entity($0) } ?? .null); pushScreen(); n = 2
        default:
            push(ctx.map { .entity($0) } ?? .null); n = 1
        }
        pushNavigator()
        try lua.pcall(nargs: n + 1, nresults: 0)
    }

    /// The `app` an action gets: navigation that runs after the current command.
    func pushNavigator() {
        if let ref = navigatorRef, ref.isValid { ref.push(); return }
        lua.newTable(hash: 4)
        for name in ["open", "present"] {
            lua.push(function: "app:" + name) { [unowned self] call in
                let id = try call.string(2)
                var entity: Entity?
                var binding: String?
                if call.type(3) == LUA_TSTRING { binding = try call.string(3) } else if !call.isNil(3) { entity = try self.entity(call, 3) }
                let shell = session.activeShell
                deferredNavigation.append {
                    if let binding {
                        if name == "open" { try shell.open(id, context: binding) } else { try shell.present(id, context: binding) }
                    } else if name == "open" {
                        try shell.open(id, entity: entity)
                    } else {
                        try shell.present(id, entity: entity)
                    }
                }
                return 0
            }
            lua.rawSet(-2, name)
        }
        lua.push(function: "app:back") { [unowned self] _ in
            let shell = session.activeShell
            deferredNavigation.append { try shell.back() }
            return 0
        }
        lua.rawSet(-2, "back")
        lua.push(function: "app:close") { [unowned self] _ in
            let shell = session.activeShell
            deferredNavigation.append { try shell.close() }
            return 0
        }
        lua.rawSet(-2, "close")
        navigatorRef = lua.ref(at: -1)
    }

    /// Runs the navigation the command's Lua actions asked for, in order (after the command).
    func runDeferredNavigation() throws {
        while !deferredNavigation.isEmpty {
            let next = deferredNavigation.removeFirst()
            do { try next() } catch { deferredNavigation.removeAll(); throw error }
        }
    }
}
