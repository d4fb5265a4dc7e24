import CLua

/// Globals, raw table access, and the protected (metamethod-aware) helpers.
extension LuaState {
    /// Sets a global from the value on top of the stack, popping it (raw: no `__newindex` runs).
    public func setGlobal(_ name: String) {
        hostPush {
            okit_ensure_stack(L, 3)
            lua_rawgeti(L, okit_LUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
            lua_rotate(L, -2, 1)
            lua_pushstring(L, name)
            lua_rotate(L, -2, 1)
            lua_rawset(L, -3)
            pop()
        }
    }

    /// Pushes a global (raw) and returns its type.
    @discardableResult
    public func pushGlobal(_ name: String) -> Int32 {
        hostPush {
            okit_ensure_stack(L, 3)
            lua_rawgeti(L, okit_LUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
            lua_pushstring(L, name)
            let t = lua_rawget(L, -2)
            lua_rotate(L, -2, 1)
            pop()
            return t
        }
    }

    /// `t[key] = top` for the table at `index` (raw), popping the value.
    public func rawSet(_ index: Int32, _ key: String) {
        let t = lua_absindex(L, index)
        hostPush {
            okit_ensure_stack(L, 2)
            lua_pushstring(L, key)
            lua_rotate(L, -2, 1)
            lua_rawset(L, t)
        }
    }

    /// Pushes `t[key]` of the table at `index` (raw) and returns its type; pushes nil when the value at `index` is
    /// not a table (`lua_rawget` on another value reads memory that is not a table's: app code passing a string where
    /// a table belongs must get an error, not a crash).
    @discardableResult
    public func rawGet(_ index: Int32, _ key: String) -> Int32 {
        let t = lua_absindex(L, index)
        return hostPush {
            okit_ensure_stack(L, 2)
            guard lua_type(L, t) == LUA_TTABLE else { lua_pushnil(L); return LUA_TNIL }
            lua_pushstring(L, key)
            return lua_rawget(L, t)
        }
    }

    /// Creates a table and pushes it.
    public func newTable(array: Int32 = 0, hash: Int32 = 0) {
        hostPush {
            okit_ensure_stack(L, 1)
            lua_createtable(L, array, hash)
        }
    }

    // MARK: Protected helpers (they may run metamethods, so they run under pcall)

    /// Pushes `obj[key]` with metamethods (`__index`), where `obj` is at `index` and the key on top of the stack
    /// (popped). Lua errors come back as `LuaError`.
    public func get(_ index: Int32) throws(LuaError) {
        let obj = lua_absindex(L, index)
        try protected(okit_p_gettable, [obj, -1], pop: 1, results: 1)
    }

    /// `obj[key] = value` with metamethods (`__newindex`), where `obj` is at `index`, and the key and then the
    /// value are on top of the stack (popped).
    public func set(_ index: Int32) throws(LuaError) {
        let obj = lua_absindex(L, index)
        try protected(okit_p_settable, [obj, -2, -1], pop: 2, results: 0)
    }

    /// `tostring(v)` of the value at `index`, with `__tostring` and `__name`.
    public func tostring(at index: Int32) throws(LuaError) -> String {
        let v = lua_absindex(L, index)
        try protected(okit_p_tostring, [v], pop: 0, results: 1)
        defer { pop() }
        return errorText(at: -1)
    }

    /// `#v` of the value at `index`, with `__len`.
    public func length(at index: Int32) throws(LuaError) -> LuaValue {
        let v = lua_absindex(L, index)
        try protected(okit_p_len, [v], pop: 0, results: 1)
        defer { pop() }
        return value(at: -1)
    }

    /// `a == b` of two stack values, with `__eq`.
    public func equal(_ a: Int32, _ b: Int32) throws(LuaError) -> Bool {
        let x = lua_absindex(L, a), y = lua_absindex(L, b)
        try protected(okit_p_equal, [x, y], pop: 0, results: 1)
        defer { pop() }
        return lua_toboolean(L, -1) != 0
    }

    /// Pushes `helper` and copies of the stack values at `indices`, removes the top `pop` values (already
    /// copied), then calls the helper protected.
    private func protected(_ helper: lua_CFunction, _ indices: [Int32], pop count: Int32, results: Int32) throws(LuaError) {
        let absolute = indices.map { lua_absindex(L, $0) }
        hostPush {
            okit_ensure_stack(L, Int32(absolute.count) + 2)
            lua_pushcclosure(L, helper, 0)
            for i in absolute { lua_pushvalue(L, i) }
        }
        if count > 0 {
            // Move the helper and its arguments below the values they consumed, then drop those.
            for _ in 0..<count { okit_lua_remove(L, -(Int32(absolute.count) + 2)) }
        }
        try pcall(nargs: Int32(absolute.count), nresults: results)
    }
}
