import CLua
import OKitEngine

/// Reading stack values and pushing Swift values.
extension LuaState {
    public func type(at index: Int32) -> Int32 { lua_type(L, index) }

    public func typeName(at index: Int32) -> String {
        String(cString: lua_typename(L, lua_type(L, index)))
    }

    public func isNil(at index: Int32) -> Bool { lua_type(L, index) <= LUA_TNIL }

    /// The string at `index` (only for actual strings: numbers are not converted in place). Nil otherwise or
    /// when it is not valid UTF-8.
    public func string(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = lua_tolstring(L, index, &len) else { return nil }
        let buf = UnsafeRawBufferPointer(start: p, count: len)
        return UTF8Text.string(buf.bindMemory(to: UInt8.self))
    }

    /// The bytes of the string at `index` (embedded NULs included).
    public func bytes(at index: Int32) -> [UInt8]? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = lua_tolstring(L, index, &len) else { return nil }
        return Array(UnsafeRawBufferPointer(start: p, count: len))
    }

    // MARK: Push

    public func pushNil() {
        okit_ensure_stack(L, 1)
        lua_pushnil(L)
    }

    public func push(_ b: Bool) {
        okit_ensure_stack(L, 1)
        lua_pushboolean(L, b ? 1 : 0)
    }

    public func push(_ i: Int64) {
        okit_ensure_stack(L, 1)
        lua_pushinteger(L, i)
    }

    public func push(_ i: Int) {
        okit_ensure_stack(L, 1)
        lua_pushinteger(L, lua_Integer(i))
    }

    /// Pushes a float (stays a float in Lua: `3.0`, not `3`).
    public func push(_ d: Double) {
        okit_ensure_stack(L, 1)
        lua_pushnumber(L, d)
    }

    public func push(_ s: String) {
        hostPush {
            okit_ensure_stack(L, 1)
            // A native string's bytes are read in place (no copy of the string, so no retain); another (bridged)
            // string is made native first.
            let pushed: Void? = s.utf8.withContiguousStorageIfAvailable { buf in
                buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, buf.count) }
            }
            if pushed == nil {
                var s = s
                s.withUTF8 { buf in buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, buf.count) } }
            }
        }
    }

    public func push(bytes: [UInt8]) {
        hostPush {
            okit_ensure_stack(L, 1)
            bytes.withUnsafeBufferPointer { buf in buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, buf.count) } }
        }
    }

    /// Pushes a copied value (tables are created fresh; `.opaque` pushes nil).
    public func push(_ v: LuaValue) {
        hostPush {
            okit_ensure_stack(L, 4)
            switch v {
            case .nil, .opaque: lua_pushnil(L)
            case .bool(let b): push(b)
            case .int(let i): push(i)
            case .double(let d): push(d)
            case .string(let s): push(s)
            case .bytes(let b): push(bytes: b)
            case .table(let array, let hash):
                lua_createtable(L, Int32(clamping: array.count), Int32(clamping: hash.count))
                for (i, item) in array.enumerated() {
                    push(item)
                    lua_rawseti(L, -2, lua_Integer(i + 1))
                }
                for (k, item) in hash {
                    switch k {
                    case .int(let i): push(i)
                    case .string(let s): push(s)
                    case .double(let d) where !d.isNaN: push(d)
                    case .bool(let b): push(b)
                    case .double, .other: continue
                    }
                    push(item)
                    lua_rawset(L, -3)
                }
            }
        }
    }

    // MARK: Read

    /// Copies the value at `index`. Tables become arrays when their keys are exactly 1…n; a table already being
    /// copied (a cycle), nested deeper than `maxValueDepth` or past `maxValueCount` values becomes
    /// `.opaque("table")`. Never raises, never runs Lua code.
    public func value(at index: Int32) -> LuaValue {
        var walk = LuaValueWalk(limit: valueCountLimit)
        defer { walk.finish(self) }
        return value(at: lua_absindex(L, index), depth: 0, walk: &walk)
    }

    /// Copies the value at `index` like `value(at:)`, but refuses tables with cycles, nested deeper than
    /// `maxValueDepth` or holding more than `maxValueCount` values.
    public func checkedValue(at index: Int32) throws(LuaError) -> LuaValue {
        var walk = LuaValueWalk(limit: valueCountLimit)
        let v = value(at: lua_absindex(L, index), depth: 0, walk: &walk)
        let refused = walk.message(verb: "copied")
        walk.finish(self)   // a copy that was made is kept: the count hook ends the call if the budget is spent
        if let refused { throw LuaError(kind: .host, message: refused) }
        return v
    }

    private func value(at i: Int32, depth: Int, walk: inout LuaValueWalk) -> LuaValue {
        guard walk.add(1, in: self) else { return .opaque(typeName(at: i)) }
        switch lua_type(L, i) {
        case LUA_TNIL, LUA_TNONE: return .nil
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, i) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(L, i) != 0 { return .int(lua_tointegerx(L, i, nil)) }
            return .double(lua_tonumberx(L, i, nil))
        case LUA_TSTRING:
            if let s = string(at: i) { return .string(s) }
            return .bytes(bytes(at: i) ?? [])
        case LUA_TTABLE:
            let p = lua_topointer(L, i)
            guard walk.enter(p, depth: depth, in: self) else { return .opaque("table") }
            defer { if let p { walk.open.remove(p) } }
            guard okit_ensure_stack(L, 3) != 0 else { walk.stop(.depth); return .opaque("table") }
            var hash: [LuaKey: LuaValue] = [:]
            lua_pushnil(L)
            while lua_next(L, i) != 0 {   // keys come from lua_next itself: it cannot raise
                let v = value(at: lua_absindex(L, -1), depth: depth + 1, walk: &walk)
                hash[key(at: -2)] = v
                pop()
                if walk.stopped { pop(); break }   // the key too: the walk stops here
            }
            let n = hash.count
            if n > 0, (1...n).allSatisfy({ hash[.int(Int64($0))] != nil }) {
                return .table(array: (1...n).map { hash[.int(Int64($0))] ?? .nil }, hash: [:])
            }
            return .table(array: [], hash: hash)
        default:
            return .opaque(typeName(at: i))
        }
    }

    /// The key at `i` (never converted in place: numbers are read as numbers).
    private func key(at i: Int32) -> LuaKey {
        switch lua_type(L, i) {
        case LUA_TNUMBER:
            if lua_isinteger(L, i) != 0 { return .int(lua_tointegerx(L, i, nil)) }
            return .double(lua_tonumberx(L, i, nil))
        case LUA_TSTRING: return string(at: i).map { .string($0) } ?? .other("string")
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, i) != 0)
        default: return .other(typeName(at: i))
        }
    }
}
