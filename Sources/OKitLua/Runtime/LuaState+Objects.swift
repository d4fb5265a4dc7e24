import CLua

/// Swift objects as Lua userdata: a full userdata holding a retained reference, with a named metatable whose
/// `__gc` releases it. Each metatable's functions are Swift `LuaFunction`s.
extension LuaState {
    /// Defines (once) a metatable for Swift objects. `methods` go into the metatable itself (`__index`,
    /// `__newindex`, `__eq`, `__tostring`, `__len`, … or plain names when `__index` is the metatable).
    public func defineMetatable(_ name: String, _ methods: [String: LuaFunction]) {
        hostPush {
            if luaL_newmetatable(L, name) == 0 { pop(); return }
            lua_pushcclosure(L, releaseObject, 0)
            lua_setfield(L, -2, "__gc")
            lua_pushboolean(L, 0)
            lua_setfield(L, -2, "__metatable")
            for (key, fn) in methods {
                push(function: key, fn)
                lua_setfield(L, -2, key)
            }
            pop()
        }
    }

    /// Pushes a Swift object as a userdata with the named metatable (defined with `defineMetatable`).
    public func push(object: AnyObject, metatable: String) {
        hostPush {
            let ud = lua_newuserdatauv(L, MemoryLayout<UnsafeRawPointer>.size, 1)
            ud?.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(object).toOpaque()), as: UnsafeRawPointer.self)
            _ = okit_getmetatable(L, metatable)
            lua_setmetatable(L, -2)
        }
    }

    /// The Swift object of the userdata at `index` when its metatable is `metatable`.
    public func object<T: AnyObject>(at index: Int32, metatable: String, as: T.Type = T.self) -> T? {
        guard lua_type(L, index) == LUA_TUSERDATA, let raw = lua_touserdata(L, index) else { return nil }
        guard lua_getmetatable(L, index) != 0 else { return nil }
        _ = hostPush { okit_getmetatable(L, metatable) }
        let same = lua_rawequal(L, -1, -2) != 0
        pop(2)
        guard same else { return nil }
        let p = raw.load(as: UnsafeRawPointer.self)
        return Unmanaged<AnyObject>.fromOpaque(p).takeUnretainedValue() as? T
    }

    /// The metatable name (`__name`) of the userdata at `index`, if any.
    public func metatableName(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TUSERDATA, lua_getmetatable(L, index) != 0 else { return nil }
        defer { pop() }
        guard rawGet(-1, "__name") == LUA_TSTRING else { pop(); return nil }
        defer { pop() }
        return string(at: -1)
    }
}

/// `__gc` of a Swift object userdata.
private let releaseObject: @convention(c) (OpaquePointer?) -> Int32 = { L in
    guard let L, let raw = lua_touserdata(L, 1) else { return 0 }
    Unmanaged<AnyObject>.fromOpaque(raw.load(as: UnsafeRawPointer.self)).release()
    return 0
}
