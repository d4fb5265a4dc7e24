import CLua
import OKitEngine

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

    /// The bytes of the string at `index`.
    public func bytes(at index: Int32) -> [UInt8]? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = lua_tolstring(L, index, &len) else { return nil }
        return Array(UnsafeRawBufferPointer(start: p, count: len))
    }

    // MARK: Push

    public func pushNil() { lua_pushnil(L) }
    public func push(_ b: Bool) { lua_pushboolean(L, b ? 1 : 0) }
    public func push(_ i: Int64) { lua_pushinteger(L, i) }
    public func push(_ i: Int) { lua_pushinteger(L, lua_Integer(i)) }
    public func push(_ d: Double) { lua_pushnumber(L, d) }

    public func push(_ s: String) {
        hostPush {
            var s = s
            s.withUTF8 { buf in buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, buf.count) } }
        }
    }

    public func push(bytes: [UInt8]) {
        hostPush { bytes.withUnsafeBufferPointer { buf in buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, buf.count) } } }
    }

    /// Pushes a copied value (tables are created fresh).
    public func push(_ v: LuaValue) {
        hostPush {
            _ = lua_checkstack(L, 4)
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
                    case .other: continue
                    }
                    push(item)
                    lua_rawset(L, -3)
                }
            }
        }
    }

    // MARK: Read

    /// Copies the value at `index`. Tables become arrays when their keys are exactly 1…n; cycles and depth
    /// beyond 100 become `.opaque`.
    public func value(at index: Int32) -> LuaValue {
        var seen: Set<UnsafeRawPointer> = []
        return value(at: lua_absindex(L, index), depth: 0, seen: &seen)
    }

    private func value(at i: Int32, depth: Int, seen: inout Set<UnsafeRawPointer>) -> LuaValue {
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
            guard depth < 100, let p = lua_topointer(L, i), seen.insert(p).inserted else { return .opaque("table") }
            defer { seen.remove(p) }
            guard lua_checkstack(L, 3) != 0 else { return .opaque("table") }
            var array: [LuaValue] = []
            var hash: [LuaKey: LuaValue] = [:]
            lua_pushnil(L)
            while lua_next(L, i) != 0 {
                let v = value(at: lua_absindex(L, -1), depth: depth + 1, seen: &seen)
                let key: LuaKey
                switch lua_type(L, -2) {
                case LUA_TNUMBER where lua_isinteger(L, -2) != 0: key = .int(lua_tointegerx(L, -2, nil))
                case LUA_TSTRING: key = string(at: -2).map { .string($0) } ?? .other("bytes")
                default: key = .other(typeName(at: -2))
                }
                hash[key] = v
                pop()
            }
            let n = hash.count
            if n > 0, (1...n).allSatisfy({ hash[.int(Int64($0))] != nil }) {
                array = (1...n).map { hash[.int(Int64($0))] ?? .nil }
                hash = [:]
            }
            return .table(array: array, hash: hash)
        default:
            return .opaque(typeName(at: i))
        }
    }
}
