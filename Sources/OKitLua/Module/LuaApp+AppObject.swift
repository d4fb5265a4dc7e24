import CLua
import Foundation
import OKitEngine

/// What the Lua `app` object holds: the app it drives. Its own app is held weakly (the app owns the Lua state
/// that holds the object); another app (a flow test's launched app) strongly.
final class LuaAppHandle {
    private weak var weakApp: LuaApp?
    private let strongApp: LuaApp?

    init(_ app: LuaApp, retain: Bool) {
        weakApp = app
        strongApp = retain ? app : nil
    }

    var app: LuaApp? { strongApp ?? weakApp }
}

/// Keeps the one `app` object of a state (so every `app` a script sees is the same value).
private final class LuaAppObjectCache {
    let ref: LuaRef
    init(_ ref: LuaRef) { self.ref = ref }
}

extension OKitTypes {
    static let app = "okit.App"
}

extension LuaApp {
    private static let appObjectKey = "okit.appObject"

    /// Sets the global `app` (the driver of this app, screens.md "Commands") when the app declared screens and
    /// its shell runs. `okit-run APP --script FILE` calls it before the script runs.
    public func installAppGlobal() {
        guard !shell.home.isEmpty else { return }
        pushAppObject()
        lua.setGlobal("app")
    }

    /// Pushes this app's `app` object: one method per driver command (`app:tap(row)`, `app:set(cell, value)`, …,
    /// each returning the new snapshot as a table), `app:changes(fn)`, `app:warnings()`, and the fields `models`
    /// and `dataDir`. Always the same object for this state.
    public func pushAppObject() {
        if let cache = lua.hostData[LuaApp.appObjectKey] as? LuaAppObjectCache, cache.ref.isValid {
            cache.ref.push()
            return
        }
        defineAppObjectType()
        lua.push(object: LuaAppHandle(self, retain: false), metatable: OKitTypes.app)
        let ref = lua.ref(at: -1)
        lua.hostData[LuaApp.appObjectKey] = LuaAppObjectCache(ref)
    }

    /// Pushes an `app` object into this app's Lua state that drives `other` (flow tests: the app a test launched).
    /// Snapshots, changes and models are converted into this state; the object keeps `other` alive.
    public func pushAppObject(driving other: LuaApp) {
        if other === self { pushAppObject(); return }
        defineAppObjectType()
        lua.push(object: LuaAppHandle(other, retain: true), metatable: OKitTypes.app)
    }

    func defineAppObjectType() {
        var methods: [String: LuaFunction] = [:]
        for d in driver.descriptions {      // the built-in commands and those of the app's own screen kinds
            let (name, arguments) = (d.name, d.argumentNames)
            methods[name] = { [unowned self] call in try runAppCommand(call, name, arguments) }
        }
        methods["changes"] = { [unowned self] call in try appChanges(call) }
        methods["warnings"] = { [unowned self] call in
            let target = try appTarget(call, "warnings")
            let warnings = target.engine.warnings
            lua.newTable(array: Int32(clamping: warnings.count))
            for (i, w) in warnings.enumerated() {
                lua.push(w)
                lua.hostPush { lua_rawseti(lua.L, -2, lua_Integer(i + 1)) }
            }
            return 1
        }
        methods["conflicts"] = { [unowned self] call in
            // app:conflicts(): fields of shared models another process stored first (storage.md), oldest first,
            // each { model, type, id, field, base, theirs, mine } with the values as JSON text.
            let target = try appTarget(call, "conflicts")
            let conflicts = target.session.conflicts
            lua.newTable(array: Int32(clamping: conflicts.count))
            for (i, c) in conflicts.enumerated() {
                lua.newTable(hash: 7)
                for (k, v) in [("model", c.model), ("type", c.type), ("id", c.id), ("field", c.field), ("base", c.base),
                               ("theirs", c.theirs), ("mine", c.mine)] {
                    lua.push(v)
                    lua.rawSet(-2, k)
                }
                lua.hostPush { lua_rawseti(lua.L, -2, lua_Integer(i + 1)) }
            }
            return 1
        }
        methods["invalid"] = { [unowned self] call in
            // app:invalid(): the current screen's cells whose value breaks a rule, cell id → message.
            let target = try appTarget(call, "invalid")
            let snapshot: Snapshot
            do { snapshot = try target.shell.snapshot() } catch { throw LuaRaise("invalid: \(error)", withPosition: false) }
            lua.newTable(hash: 0)
            for section in snapshot.screen.sections {
                for row in section.rows {
                    guard let message = row.invalid else { continue }
                    lua.push(message)
                    lua.rawSet(-2, row.id ?? row.text ?? "?")
                }
            }
            return 1
        }
        let names = Array(methods.keys) + ["models", "dataDir"]
        lua.defineMetatable(name: OKitTypes.app, methods: methods, index: { [unowned self] call in
            let key = try call.string(2)
            let target = try appTarget(call, key)
            switch key {
            case "models":
                lua.newTable(hash: Int32(clamping: target.engine.models.count))
                for m in target.engine.models {
                    pushEntity(m.root)
                    lua.rawSet(-2, m.name)
                }
            case "dataDir":
                if let folder = target.options.dataFolder { lua.push(folder.path) } else { lua.pushNil() }
            default:
                throw LuaRaise("app has no command or field \"\(ShellError.brief(key))\"\(LuaApp.suggestion(key, names))")
            }
            return 1
        }, metamethods: [
            "__tostring": { [unowned self] call in
                let target = lua.object(at: 1, metatable: OKitTypes.app, as: LuaAppHandle.self)?.app
                lua.push("okit.App(\(target?.appFile?.deletingLastPathComponent().lastPathComponent ?? "?"))")
                return 1
            },
        ])
    }

    /// The app an `app` method was called on (its first argument), or an error that says how to call it.
    func appTarget(_ call: LuaCall, _ method: String) throws -> LuaApp {
        guard let handle = lua.object(at: 1, metatable: OKitTypes.app, as: LuaAppHandle.self) else {
            throw LuaRaise("bad argument #1 to 'app:\(method)' (okit.App expected, got \(call.typeName(1))); call it as app:\(method)(…)")
        }
        guard let target = handle.app else { throw LuaRaise("app:\(method): the app is no longer running", withPosition: false) }
        return target
    }

    /// `app:NAME(args…)`: the positional arguments become the command's named arguments (in the order of the
    /// command's description), the driver runs it, and the new snapshot is returned. Errors carry no file:line (screens.md).
    func runAppCommand(_ call: LuaCall, _ name: String, _ arguments: [String]) throws -> Int32 {
        let target = try appTarget(call, name)
        var args: [String: Value] = [:]
        var offset = 0
        var limit = 200
        do {
            if name == "screen", call.type(2) == LUA_TTABLE {
                // app:screen{offset = 0, limit = 200}
                for key in ["offset", "limit"] {
                    defer { lua.pop() }
                    guard lua.rawGet(2, key) != LUA_TNIL else { continue }
                    args[key] = try commandArgument(at: -1, what: "app:\(name) \(key)")
                }
            } else {
                for (i, key) in arguments.enumerated() {
                    let index = Int32(i + 2)
                    guard index <= call.count else { break }
                    args[key] = try commandArgument(at: index, what: "app:\(name) \(key)")
                }
            }
            if name == "screen" {
                if let v = args["offset"], !v.isNull {
                    guard let n = v.intValue, n >= 0 else { throw LuaRaise("screen: offset must be an integer ≥ 0", withPosition: false) }
                    offset = n
                }
                if let v = args["limit"], !v.isNull {
                    guard let n = v.intValue, n >= 0 else { throw LuaRaise("screen: limit must be an integer ≥ 0", withPosition: false) }
                    limit = n
                }
            }
            if try target.driver.run(name, args) {
                try target.storeState()     // quit: store the state (the session goes on in Lua)
                return 0
            }
            pushSnapshot(try target.shell.snapshot(offset: offset, limit: limit))
            return 1
        } catch let e as LuaError {
            throw e                         // an action's Lua error keeps its own text
        } catch let e as LuaRaise {
            throw LuaRaise(e.message, withPosition: false)
        } catch {
            // A refusal in the app's language, as the terminal shell and JSON lines say it.
            throw LuaRaise(target.engine.refusalText(error, wording: lua.remedyWording), withPosition: false)
        }
    }

    /// A command argument: numbers, strings, booleans, dates, sequences (a `{section, row}` pair, prompt fields);
    /// an entity stands for its id.
    func commandArgument(at index: Int32, what: String) throws -> Value {
        let v = try value(at: index, what: what)
        if case .entity(let e) = v, let id = e.id { return .string(id) }
        return v
    }

    /// `app:changes(fn)`: runs `fn`, returns the model changes it made, in order: `{model, path, old, new}` for a
    /// field write, `{model, path, op, index, id}` for a collection change (paths and indices 0-based).
    func appChanges(_ call: LuaCall) throws -> Int32 {
        let target = try appTarget(call, "changes")
        try call.requireFunction(2)
        let changes = try target.engine.recordChanges {
            lua.hostPush {
                okit_ensure_stack(lua.L, 1)
                lua_pushvalue(lua.L, 2)
            }
            try lua.pcall(nargs: 0, nresults: 0)
        }
        lua.newTable(array: Int32(clamping: changes.count))
        for (i, c) in changes.enumerated() {
            pushChange(c)
            lua.hostPush { lua_rawseti(lua.L, -2, lua_Integer(i + 1)) }
        }
        return 1
    }

    func pushChange(_ c: LoggedChange) {
        lua.newTable(hash: 5)
        lua.push(c.model); lua.rawSet(-2, "model")
        lua.push(c.path); lua.rawSet(-2, "path")
        switch c.operation {
        case .set:
            if !c.old.isNull { push(c.old); lua.rawSet(-2, "old") }
            if !c.new.isNull { push(c.new); lua.rawSet(-2, "new") }
        case .insert, .remove, .move:
            lua.push(c.operation.rawValue); lua.rawSet(-2, "op")
            if let index = c.index { lua.push(index); lua.rawSet(-2, "index") }
            if let id = c.id {
                lua.push(id); lua.rawSet(-2, "id")
            } else if case .entity = c.element {
                // an entity without an id: nothing more to name it by
            } else if !c.element.isNull {
                push(c.element); lua.rawSet(-2, "value")     // a collection of plain values
            }
        }
    }

    // MARK: Snapshots as Lua tables

    /// Pushes a snapshot as a table with exactly the keys of its JSON (`Snapshot.json`), straight from the
    /// struct: JSON null is absent, arrays are sequences, and a control's value keeps its type (a slider at 3.0
    /// stays a float).
    public func pushSnapshot(_ snapshot: Snapshot) {
        lua.hostPush { SnapshotToLua(L: lua.L).push(snapshot) }
    }

    /// Pushes a JSON document (a flow test's stored snapshot) as Lua values, read by the engine's JSON codec:
    /// objects and arrays as tables, null members left out. False (nothing pushed) when it is not valid JSON.
    func pushJSON(_ bytes: [UInt8]) -> Bool {
        guard let tree = JSONTree.parse(bytes) else { return false }
        lua.hostPush { pushTree(tree) }
        return true
    }

    /// Pushes one value; a null pushes nothing (the caller leaves the member or item out).
    private func pushTree(_ t: JSONTree) {
        let L = lua.L
        okit_ensure_stack(L, 4)
        switch t {
        case .null: return
        case .bool(let b): lua_pushboolean(L, b ? 1 : 0)
        case .int(let n): lua_pushinteger(L, lua_Integer(n))
        case .double(let d): lua_pushnumber(L, d)
        case .string(let s): lua.push(s)
        case .array(let items):
            lua_createtable(L, Int32(clamping: items.count), 0)
            for (n, item) in items.enumerated() where item != .null {
                pushTree(item)
                lua_rawseti(L, -2, lua_Integer(n + 1))
            }
        case .object(let members):
            lua_createtable(L, 0, Int32(clamping: members.count))
            for (key, value) in members where value != .null {
                lua.push(key)
                pushTree(value)
                lua_rawset(L, -3)
            }
        }
    }
}
