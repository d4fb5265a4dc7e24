import CLua

/// Swift objects as Lua userdata: a full userdata holding a retained reference, with a named metatable whose
/// `__gc` releases it. The metatable is hidden from Lua (`__metatable = false`), so scripts cannot reach `__gc`.
extension LuaState {
    /// Defines (once) a metatable for Swift objects. `methods` go into the metatable itself (`__index`,
    /// `__newindex`, `__eq`, `__tostring`, `__len`, … as functions, or plain names when `__index` is the
    /// metatable).
    public func defineMetatable(_ name: String, _ methods: [String: LuaFunction]) {
        hostPush {
            guard beginMetatable(name) else { return }
            for (key, fn) in methods {
                push(function: key, fn)
                rawSet(-2, key)
            }
            pop()
        }
    }

    /// Defines (once) a metatable for Swift objects: `obj:method(…)` finds `methods` first; other keys go to
    /// `index` (called with the object and the key) when given; assignments go to `newindex` (object, key,
    /// value), or raise when it is nil; `metamethods` adds `__eq`, `__tostring`, `__len`, `__call`, … .
    /// Returns false when `name` was already defined (the first definition stays).
    @discardableResult
    public func defineMetatable(name: String, methods: [String: LuaFunction], index: LuaFunction? = nil,
                                newindex: LuaFunction? = nil,
                                metamethods: [String: LuaFunction] = [:]) -> Bool {
        hostPush {
            guard beginMetatable(name) else { return false }
            newTable(hash: Int32(clamping: methods.count))
            for (key, fn) in methods {
                push(function: "\(name).\(key)", fn)
                rawSet(-2, key)
            }
            if let index {
                push(function: "\(name).__index", index)
                okit_push_index_dispatch(L)
            }
            rawSet(-2, "__index")
            let typeName = name
            push(function: "\(name).__newindex", newindex ?? { call in
                let key = call.stringOrNil(2) ?? call.typeName(2)
                throw LuaRaise("cannot set field '\(key)' of a \(typeName)")
            })
            rawSet(-2, "__newindex")
            for (key, fn) in metamethods where key != "__gc" && key != "__metatable" {
                push(function: key, fn)
                rawSet(-2, key)
            }
            pop()
            return true
        }
    }

    /// Creates the metatable `name` (with `__name`, `__gc`, `__metatable = false`) and leaves it on the stack;
    /// false (nothing pushed) when it exists.
    private func beginMetatable(_ name: String) -> Bool {
        okit_ensure_stack(L, 4)
        if luaL_newmetatable(L, name) == 0 { pop(); return false }
        lua_pushcclosure(L, releaseObject, 0)
        rawSet(-2, "__gc")
        push(false)
        rawSet(-2, "__metatable")
        return true
    }

    /// Pushes a Swift object as a userdata with the named metatable (defined with `defineMetatable`; a bare one
    /// that only releases the object is made when it is not). Lua holds a strong reference until collected.
    public func push(object: AnyObject, metatable: String) {
        hostPush {
            okit_ensure_stack(L, 2)
            let ud = lua_newuserdatauv(L, MemoryLayout<UnsafeRawPointer?>.size, 1)
            ud?.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(object).toOpaque()), as: UnsafeRawPointer?.self)
            if okit_getmetatable(L, metatable) != LUA_TTABLE {
                pop()
                _ = beginMetatable(metatable)
                _ = okit_getmetatable(L, metatable)
            }
            lua_setmetatable(L, -2)
        }
    }

    /// Same as `push(object:metatable:)`.
    public func pushObject(_ object: AnyObject, metatable: String) {
        push(object: object, metatable: metatable)
    }

    /// The Swift object of the userdata at `index` when its metatable is `metatable` (compared by identity) and
    /// it is a `T`; nil otherwise.
    public func object<T: AnyObject>(at index: Int32, metatable: String, as: T.Type = T.self) -> T? {
        guard lua_type(L, index) == LUA_TUSERDATA, let raw = lua_touserdata(L, index) else { return nil }
        okit_ensure_stack(L, 2)
        guard lua_getmetatable(L, index) != 0 else { return nil }
        _ = hostPush { okit_getmetatable(L, metatable) }
        let same = lua_rawequal(L, -1, -2) != 0
        pop(2)
        guard same, lua_rawlen(L, index) >= MemoryLayout<UnsafeRawPointer?>.size,
              let p = raw.load(as: UnsafeRawPointer?.self) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(p).takeUnretainedValue() as? T
    }

    /// The metatable name (`__name`) of the userdata at `index`, if any.
    public func metatableName(at index: Int32) -> String? {
        okit_ensure_stack(L, 2)
        guard lua_type(L, index) == LUA_TUSERDATA, lua_getmetatable(L, index) != 0 else { return nil }
        defer { pop() }
        guard rawGet(-1, "__name") == LUA_TSTRING else { pop(); return nil }
        defer { pop() }
        return string(at: -1)
    }
}

/// `__gc` of a Swift object userdata: releases the object (once: the slot is cleared).
private let releaseObject: @convention(c) (OpaquePointer?) -> Int32 = { L in
    guard let L, let raw = lua_touserdata(L, 1), lua_rawlen(L, 1) >= MemoryLayout<UnsafeRawPointer?>.size,
          let p = raw.load(as: UnsafeRawPointer?.self) else { return 0 }
    raw.storeBytes(of: nil, as: UnsafeRawPointer?.self)
    Unmanaged<AnyObject>.fromOpaque(p).release()
    return 0
}
