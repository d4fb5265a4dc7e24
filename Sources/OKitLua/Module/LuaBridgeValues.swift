import CLua
import Foundation
import OKitEngine

/// Metatable names of the okit userdata types.
enum OKitTypes {
    static let entity = "okit.Entity"
    static let collection = "okit.Collection"
    static let date = "okit.Date"
    static let binding = "okit.Binding"
    static let timer = "okit.Timer"
    static let watch = "okit.Watch"
}

/// A date value in Lua: seconds since 1970 UTC.
final class LuaDate {
    let seconds: Double
    init(_ seconds: Double) { self.seconds = seconds }
    var date: Date { Date(timeIntervalSince1970: seconds) }
}

/// A compiled binding in Lua (`okit.binding(text)`).
final class LuaBinding {
    let binding: Binding
    init(_ b: Binding) { binding = b }
}

extension LuaApp {
    // MARK: Engine values → Lua

    /// Pushes an engine value: entities and collections as proxies (one per entity), dates as `okit.date`,
    /// lists as sequences, data as strings.
    func push(_ v: Value) {
        let s = lua
        switch v {
        case .null: s.pushNil()
        case .bool(let b): s.push(b)
        case .int(let i): s.push(i)
        case .double(let d): s.push(d)
        case .string(let str): s.push(str)
        case .date(let d): s.push(object: LuaDate(d.timeIntervalSince1970), metatable: OKitTypes.date)
        case .data(let bytes): s.push(bytes: bytes)
        case .entity(let e): pushEntity(e)
        case .collection(let c): pushCollection(c)
        case .list(let items):
            s.newTable(array: Int32(clamping: items.count))
            for (i, item) in items.enumerated() {
                push(item)
                s.hostPush { lua_rawseti(s.L, -2, lua_Integer(i + 1)) }
            }
        }
    }

    /// Pushes the one proxy of an entity (the same userdata while it is alive in Lua, so `==` works).
    func pushEntity(_ e: Entity) {
        let L = lua.L
        proxies.push()                                       // the weak-valued cache
        lua.hostPush { lua_pushlightuserdata(L, Unmanaged.passUnretained(e).toOpaque()) }
        if lua_rawget(L, -2) == LUA_TUSERDATA {
            okit_lua_remove(L, -2)
            return
        }
        lua.pop()
        lua.push(object: e, metatable: OKitTypes.entity)
        lua.hostPush {
            lua_pushlightuserdata(L, Unmanaged.passUnretained(e).toOpaque())
            lua_pushvalue(L, -2)
            lua_rawset(L, -4)
        }
        okit_lua_remove(L, -2)
    }

    func pushCollection(_ c: EntityCollection) {
        lua.push(object: CollectionRef(c), metatable: OKitTypes.collection)
    }

    // MARK: Lua → engine values

    /// The engine value of the Lua value at `index`: tables become lists (sequences) — other tables are an error.
    /// A table that contains itself (a cycle), is nested deeper than `LuaState.maxValueDepth` or holds more than
    /// `LuaState.maxValueCount` values (a table reached twice counts twice) is refused with an error naming `what`
    /// (the function or field it was passed to), never followed: every Lua → engine value conversion goes through
    /// here, so hostile tables can exhaust neither the stacks nor the host's time. The copied values are charged to
    /// the instruction budget. `what` is built only for an error (field assignments pass through here).
    func value(at index: Int32, what: @autoclosure () -> String? = nil) throws -> Value {
        var walk = LuaValueWalk(limit: lua.valueCountLimit)
        defer { walk.finish(lua) }   // a copy that was made is kept: the count hook ends the call if the budget is spent
        do {
            return try value(at: lua_absindex(lua.L, index), depth: 0, walk: &walk)
        } catch is LuaValueWalk.Refused {
            let place = what().map { " (\($0))" } ?? ""
            throw LuaRaise(walk.message(verb: "used as a value", place: place) ?? "a table cannot be used as a value\(place)")
        }
    }

    private func value(at index: Int32, depth: Int, walk: inout LuaValueWalk) throws -> Value {
        let L = lua.L
        guard walk.add(1, in: lua) else { throw LuaValueWalk.Refused() }
        switch lua_type(L, index) {
        case LUA_TNIL, LUA_TNONE: return .null
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, index) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(L, index) != 0 { return .int(Int(lua_tointegerx(L, index, nil))) }
            return .double(lua_tonumberx(L, index, nil))
        case LUA_TSTRING:
            if let s = lua.string(at: index) { return .string(s) }
            return .data(lua.bytes(at: index) ?? [])
        case LUA_TUSERDATA:
            if let e = lua.object(at: index, metatable: OKitTypes.entity, as: Entity.self) { return .entity(e) }
            if let c = lua.object(at: index, metatable: OKitTypes.collection, as: CollectionRef.self) { return .collection(c.collection) }
            if let d = lua.object(at: index, metatable: OKitTypes.date, as: LuaDate.self) { return .date(d.date) }
            throw LuaRaise("cannot use a \(lua.metatableName(at: index) ?? "userdata") value here")
        case LUA_TTABLE:
            let p = lua_topointer(L, index)
            guard walk.enter(p, depth: depth, in: lua) else { throw LuaValueWalk.Refused() }
            defer { if let p { walk.open.remove(p) } }
            guard okit_ensure_stack(L, 2) != 0 else { walk.stop(.depth); throw LuaValueWalk.Refused() }
            let n = lua_rawlen(L, index)   // a border can be far past the real items: refused before they are read
            guard walk.fits(Int(clamping: n)) else { throw LuaValueWalk.Refused() }
            var items: [Value] = []
            items.reserveCapacity(Int(min(n, 4096)))
            if n > 0 {
                for i in 1...n {
                    lua_rawgeti(L, index, lua_Integer(i))
                    defer { lua.pop() }
                    items.append(try value(at: lua_absindex(L, -1), depth: depth + 1, walk: &walk))
                }
            }
            return .list(items)
        default:
            throw LuaRaise("cannot use a \(lua.typeName(at: index)) value here")
        }
    }

    /// The length of the list at `index` (a table), refused past `LuaState.maxValueCount` items: `#t` can name a
    /// border far past the real items (`t[1], t[2], t[4] … t[2^40]`), and a loop to it would not end.
    func listLength(_ index: Int32, what: String) throws -> Int {
        let n = lua_rawlen(lua.L, index)
        guard n <= lua.valueCountLimit else {
            throw LuaRaise("\(what): a list of \(n) items is too long (the limit is \(lua.valueCountLimit) items)")
        }
        return Int(n)
    }

    /// The entity at `index`, or an argument error.
    func entity(_ call: LuaCall, _ i: Int32) throws -> Entity {
        guard let e = lua.object(at: i, metatable: OKitTypes.entity, as: Entity.self) else {
            throw LuaRaise("bad argument #\(i) to '\(call.name)' (entity expected, got \(call.typeName(i)))")
        }
        return e
    }

    /// The context of `okit.get`, `okit.set`, …: an entity, or nil for the default model's root (lua-api.md
    /// "Bindings from Lua"; nil stayed nil, so `okit.get(nil, "name")` was nil and `okit.set(nil, …)` failed).
    func context(_ call: LuaCall, _ i: Int32) throws -> Entity? {
        if call.isNil(i) { return engine.defaultModel?.root }
        return try entity(call, i)
    }

    /// Calls a Lua function kept in the registry with engine values; returns its first result.
    func callLua(_ fn: LuaRef, _ args: [Value]) throws -> Value {
        let t = lua.top
        defer { lua.top = t }
        fn.push()
        for a in args { push(a) }
        try lua.pcall(nargs: Int32(args.count), nresults: 1)
        return try value(at: -1)
    }

    /// `callLua` with a receiver first (extension functions), without building an argument array.
    func callLua(_ fn: LuaRef, receiver: Value, _ args: [Value]) throws -> Value {
        let t = lua.top
        defer { lua.top = t }
        fn.push()
        push(receiver)
        for a in args { push(a) }
        try lua.pcall(nargs: Int32(args.count + 1), nresults: 1)
        return try value(at: -1)
    }
}
