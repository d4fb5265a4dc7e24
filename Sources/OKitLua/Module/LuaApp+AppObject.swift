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
        for (name, arguments) in Driver.commands {
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
                throw LuaRaise("app has no command or field \"\(key)\"\(LuaApp.suggestion(key, names))")
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

    /// `app:NAME(args…)`: the positional arguments become the command's named arguments (in `Driver.commands`
    /// order), the driver runs it, and the new snapshot is returned. Errors carry no file:line (screens.md).
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
            throw LuaRaise("\(error)", withPosition: false)
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

    /// Pushes a snapshot as a table with exactly the keys of its JSON (`Snapshot.json`): JSON null is absent,
    /// arrays are sequences, and a control's value keeps its type (a slider at 3.0 stays a float).
    public func pushSnapshot(_ snapshot: Snapshot) {
        let json = snapshot.json
        let top = lua.top
        let ok = json.utf8.withContiguousStorageIfAvailable { buf in pushJSON(buf) } ?? pushJSON(Array(json.utf8))
        guard ok else {
            lua.top = top
            lua.pushNil()
            return
        }
        fixControlDoubles(snapshot)
    }

    func pushJSON(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { pushJSON($0) }
    }

    private func pushJSON(_ buf: UnsafeBufferPointer<UInt8>) -> Bool {
        var reader = JSONToLua(b: buf, L: lua.L)
        return lua.hostPush { reader.value(depth: 0) }
    }

    /// JSON writes a double without a fraction as an integer (`3`); put the float back for a control's value and
    /// range (only where the JSON has the key, so the keys stay the JSON's).
    private func fixControlDoubles(_ snapshot: Snapshot) {
        let L = lua.L
        for (s, section) in snapshot.screen.sections.enumerated() {
            for (r, row) in section.rows.enumerated() {
                guard let control = row.control else { continue }
                var doubles: [(String, Double)] = []
                for (key, v) in [("value", control.value as SnapshotValue?), ("min", control.min), ("max", control.max),
                                 ("step", control.step)] {
                    if case .double(let d)? = v { doubles.append((key, d)) }
                }
                if doubles.isEmpty { continue }
                let base = lua.top
                defer { lua.top = base }
                okit_ensure_stack(L, 8)
                guard lua.rawGet(base, "screen") == LUA_TTABLE, lua.rawGet(-1, "sections") == LUA_TTABLE,
                      lua_rawgeti(L, -1, lua_Integer(s + 1)) == LUA_TTABLE, lua.rawGet(-1, "rows") == LUA_TTABLE,
                      lua_rawgeti(L, -1, lua_Integer(r + 1)) == LUA_TTABLE, lua.rawGet(-1, "control") == LUA_TTABLE
                else { continue }
                for (key, d) in doubles {
                    let present = lua.rawGet(-1, key) == LUA_TNUMBER
                    lua.pop()
                    guard present else { continue }
                    lua.push(d)
                    lua.rawSet(-2, key)
                }
            }
        }
    }
}

/// Reads JSON text and pushes it as Lua values (objects and arrays as tables; null members left out). For the
/// snapshot JSON the engine writes; malformed input makes it stop and answer false. Run inside `hostPush`.
private struct JSONToLua {
    let b: UnsafeBufferPointer<UInt8>
    let L: OpaquePointer
    var i = 0

    init(b: UnsafeBufferPointer<UInt8>, L: OpaquePointer) {
        self.b = b
        self.L = L
    }

    mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    mutating func literal(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= b.count else { return false }
        for k in 0..<w.count where b[i + k] != w[k] { return false }
        i += w.count
        return true
    }

    /// Pushes one value; pushes nothing for `null` (answers true). False on malformed input.
    mutating func value(depth: Int) -> Bool {
        skipSpace()
        guard i < b.count, depth < 200 else { return false }
        okit_ensure_stack(L, 4)
        switch b[i] {
        case 0x7B: return object(depth: depth)
        case 0x5B: return array(depth: depth)
        case 0x22: return string()
        case 0x74: guard literal("true") else { return false }; lua_pushboolean(L, 1); return true
        case 0x66: guard literal("false") else { return false }; lua_pushboolean(L, 0); return true
        case 0x6E:
            if literal("null") { return true }
            guard literal("nan") else { return false }
            lua_pushnumber(L, .nan); return true
        case 0x69: guard literal("inf") else { return false }; lua_pushnumber(L, .infinity); return true
        default: return number()
        }
    }

    mutating func object(depth: Int) -> Bool {
        i += 1
        lua_createtable(L, 0, 0)
        skipSpace()
        if i < b.count, b[i] == 0x7D { i += 1; return true }
        while true {
            skipSpace()
            guard i < b.count, b[i] == 0x22, string() else { return false }
            skipSpace()
            guard i < b.count, b[i] == 0x3A else { return false }
            i += 1
            let before = lua_gettop(L)
            guard value(depth: depth + 1) else { return false }
            if lua_gettop(L) > before { lua_rawset(L, -3) } else { okit_lua_pop(L, 1) }    // null: no member
            skipSpace()
            guard i < b.count else { return false }
            if b[i] == 0x2C { i += 1; continue }
            if b[i] == 0x7D { i += 1; return true }
            return false
        }
    }

    mutating func array(depth: Int) -> Bool {
        i += 1
        lua_createtable(L, 0, 0)
        skipSpace()
        if i < b.count, b[i] == 0x5D { i += 1; return true }
        var n: lua_Integer = 0
        while true {
            n += 1
            let before = lua_gettop(L)
            guard value(depth: depth + 1) else { return false }
            if lua_gettop(L) > before { lua_rawseti(L, -2, n) }
            skipSpace()
            guard i < b.count else { return false }
            if b[i] == 0x2C { i += 1; continue }
            if b[i] == 0x5D { i += 1; return true }
            return false
        }
    }

    mutating func string() -> Bool {
        i += 1
        let start = i
        while i < b.count, b[i] != 0x22, b[i] != 0x5C { i += 1 }
        guard i < b.count else { return false }
        if b[i] == 0x22 {
            if let base = b.baseAddress {
                lua_pushlstring(L, UnsafeRawPointer(base + start).assumingMemoryBound(to: CChar.self), i - start)
            } else {
                lua_pushstring(L, "")
            }
            i += 1
            return true
        }
        var out = Array(b[start..<i])
        while i < b.count {
            let c = b[i]
            if c == 0x22 {
                i += 1
                out.withUnsafeBufferPointer { p in
                    p.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, p.count) }
                }
                return true
            }
            guard c == 0x5C else { out.append(c); i += 1; continue }
            i += 1
            guard i < b.count else { return false }
            let e = b[i]
            i += 1
            switch e {
            case 0x22, 0x5C, 0x2F: out.append(e)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                guard var scalar = hex4() else { return false }
                if (0xD800..<0xDC00).contains(scalar), i + 1 < b.count, b[i] == 0x5C, b[i + 1] == 0x75 {
                    i += 2
                    guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return false }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
            default: return false
            }
        }
        return false
    }

    mutating func hex4() -> UInt32? {
        guard i + 4 <= b.count else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: return nil
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    mutating func number() -> Bool {
        let start = i
        var isFloat = false
        if i < b.count, b[i] == 0x2D {
            i += 1
            if literal("inf") { lua_pushnumber(L, -.infinity); return true }
        }
        while i < b.count {
            let c = b[i]
            if c >= 0x30 && c <= 0x39 || c == 0x2B || c == 0x2D { i += 1; continue }
            if c == 0x2E || c == 0x65 || c == 0x45 { isFloat = true; i += 1; continue }
            break
        }
        guard i > start else { return false }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        if !isFloat, let n = Int64(text) {
            lua_pushinteger(L, n)
        } else if let d = Double(text) {
            lua_pushnumber(L, d)
        } else {
            return false
        }
        return true
    }
}
