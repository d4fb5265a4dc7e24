import CLua
import OKitEngine

/// A Swift function callable from Lua. It reads its arguments from `LuaCall`, pushes its results and returns
/// how many; throwing raises a Lua error with the error's message (after the Swift frame has returned, so
/// `defer` blocks run and Lua's `pcall` can catch it).
public typealias LuaFunction = (LuaCall) throws -> Int32

/// The arguments of a call from Lua into Swift, with Lua-style argument errors
/// (`bad argument #1 to 'x' (string expected, got nil)`).
public struct LuaCall {
    public let state: LuaState
    /// The raw state of this call (a coroutine's own state when called from one).
    public let L: OpaquePointer
    /// The function's name, for argument errors.
    public let name: String

    /// Number of arguments.
    public var count: Int32 { lua_gettop(L) }

    public func type(_ i: Int32) -> Int32 { lua_type(L, i) }
    public func isNil(_ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL }

    public func typeName(_ i: Int32) -> String {
        lua_type(L, i) == LUA_TNONE ? "no value" : String(cString: lua_typename(L, lua_type(L, i)))
    }

    /// `bad argument #i to 'name' (expected expected, got type)`.
    public func argError(_ i: Int32, _ expected: String) -> LuaRaise {
        LuaRaise("bad argument #\(i) to '\(name)' (\(expected) expected, got \(typeName(i)))")
    }

    /// `bad argument #i to 'name' (message)`.
    public func argError(_ i: Int32, message: String) -> LuaRaise {
        LuaRaise("bad argument #\(i) to '\(name)' (\(message))")
    }

    public func string(_ i: Int32) throws -> String {
        guard lua_type(L, i) == LUA_TSTRING else { throw argError(i, "string") }
        guard let s = stringOrNil(i) else { throw argError(i, message: "string is not valid UTF-8") }
        return s
    }

    public func stringOrNil(_ i: Int32) -> String? {
        guard lua_type(L, i) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = lua_tolstring(L, i, &len) else { return nil }
        return UTF8Text.string(UnsafeRawBufferPointer(start: p, count: len).bindMemory(to: UInt8.self))
    }

    /// The bytes of a string argument (any bytes, NULs included).
    public func bytes(_ i: Int32) throws -> [UInt8] {
        guard let b = state.bytes(at: i) else { throw argError(i, "string") }
        return b
    }

    public func int(_ i: Int32) throws -> Int64 {
        guard lua_type(L, i) == LUA_TNUMBER else { throw argError(i, "number") }
        var ok: Int32 = 0
        let v = lua_tointegerx(L, i, &ok)
        if ok == 0 { throw argError(i, message: "number has no integer representation") }
        return v
    }

    public func number(_ i: Int32) throws -> Double {
        guard lua_type(L, i) == LUA_TNUMBER else { throw argError(i, "number") }
        return lua_tonumberx(L, i, nil)
    }

    /// Lua truthiness (nil and false are false).
    public func bool(_ i: Int32) -> Bool { lua_toboolean(L, i) != 0 }

    /// An optional argument: nil when absent or nil, else `read(i)`.
    public func optional<T>(_ i: Int32, _ read: (Int32) throws -> T) throws -> T? {
        isNil(i) ? nil : try read(i)
    }

    public func requireTable(_ i: Int32) throws {
        guard lua_type(L, i) == LUA_TTABLE else { throw argError(i, "table") }
    }

    public func requireFunction(_ i: Int32) throws {
        guard lua_type(L, i) == LUA_TFUNCTION else { throw argError(i, "function") }
    }

    /// The Swift object of a userdata argument with the metatable `metatable` (`bad argument` otherwise).
    public func object<T: AnyObject>(_ i: Int32, metatable: String, as type: T.Type = T.self) throws -> T {
        guard let o = state.object(at: i, metatable: metatable, as: type) else { throw argError(i, metatable) }
        return o
    }

    /// A copy of the argument.
    public func value(_ i: Int32) -> LuaValue { state.value(at: i) }

    /// Keeps argument `i` in the registry.
    public func ref(_ i: Int32) -> LuaRef { state.ref(at: i) }

    /// Pushes a result (returns 1, to add up the count).
    @discardableResult
    public func push(_ v: LuaValue) -> Int32 { state.push(v); return 1 }
}

/// Holds a Swift function inside a Lua userdata (released by `__gc`).
final class LuaFunctionBox {
    let name: String
    let fn: LuaFunction

    init(name: String, fn: @escaping LuaFunction) {
        self.name = name
        self.fn = fn
    }
}

enum LuaBridge {
    static let boxMetatable = "okit.FunctionBox"

    /// Registers the Swift entry of the C trampoline (idempotent).
    static func installEntry() {
        okit_set_swift_entry(luaSwiftEntry)
    }
}

/// Pushes a plain message (no state owner needed), with the memory limit lifted.
private func pushRawMessage(_ L: OpaquePointer, _ message: String) {
    okit_control_of(L).pointee.ignore_limit += 1
    okit_ensure_stack(L, 1)
    lua_pushstring(L, message)
    okit_control_of(L).pointee.ignore_limit -= 1
}

/// Entered by the C trampoline for every Swift function called from Lua. Never raises: an error is pushed
/// and reported with `OKIT_CALL_ERROR`, and the trampoline raises it once this frame has returned.
private let luaSwiftEntry: @convention(c) (OpaquePointer?) -> Int32 = { L in
    guard let L else { return OKIT_CALL_ERROR }
    guard let state = LuaState.owner(of: L) else {
        pushRawMessage(L, "okit: Lua state without owner")
        return OKIT_CALL_ERROR
    }
    guard let raw = lua_touserdata(L, okit_lua_upvalueindex(1)),
          let boxPointer = raw.load(as: UnsafeRawPointer?.self) else {
        state.pushErrorMessage(L, "okit: broken Swift function")
        return OKIT_CALL_ERROR
    }
    let box = Unmanaged<LuaFunctionBox>.fromOpaque(boxPointer).takeUnretainedValue()
    if state.depth >= LuaState.maxDepth {
        state.pushErrorMessage(L, "too many nested calls between Lua and Swift (limit \(LuaState.maxDepth))")
        return OKIT_CALL_ERROR
    }
    let outerL = state.L
    state.L = L          // stack operations of this call act on the calling thread (a coroutine, maybe)
    defer { state.L = outerL }
    do {
        return try box.fn(LuaCall(state: state, L: L, name: box.name))
    } catch let e as LuaRaise {
        state.pushErrorMessage(L, e.message, position: e.withPosition)
        return OKIT_CALL_ERROR
    } catch let e as LuaError {
        // A Lua error that passed through Swift keeps its text (it already names its position).
        state.pushErrorMessage(L, e.message, position: false)
        return OKIT_CALL_ERROR
    } catch {
        state.pushErrorMessage(L, state.wordedMessage(error))
        return OKIT_CALL_ERROR
    }
}

extension LuaState {
    /// Pushes an error message, prefixed with the Lua caller's position like `luaL_error` (`luaL_where(L, 1)`).
    func pushErrorMessage(_ L: OpaquePointer, _ message: String, position: Bool = true) {
        okit_control_of(L).pointee.ignore_limit += 1
        defer { okit_control_of(L).pointee.ignore_limit -= 1 }
        var text = message
        if position {
            var ar = lua_Debug()
            if lua_getstack(L, 1, &ar) != 0, lua_getinfo(L, "Sl", &ar) != 0, ar.currentline > 0 {
                let src = withUnsafeBytes(of: &ar.short_src) { buf in
                    String(decoding: buf.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                text = "\(src):\(ar.currentline): \(message)"
            }
        }
        okit_ensure_stack(L, 1)
        text.withUTF8 { buf in buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, buf.count) } }
    }

    /// Pushes a Swift function as a Lua function (a C closure whose upvalue holds the Swift closure; Lua's
    /// garbage collector releases it). `name` appears in argument errors.
    public func push(function name: String, _ fn: @escaping LuaFunction) {
        hostPush {
            okit_ensure_stack(L, 3)
            let box = LuaFunctionBox(name: name, fn: fn)
            let ud = lua_newuserdatauv(L, MemoryLayout<UnsafeRawPointer?>.size, 0)
            ud?.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(box).toOpaque()), as: UnsafeRawPointer?.self)
            if okit_getmetatable(L, LuaBridge.boxMetatable) != LUA_TTABLE {
                pop()
                luaL_newmetatable(L, LuaBridge.boxMetatable)
                lua_pushcclosure(L, releaseBox, 0)
                rawSet(-2, "__gc")
                push(false)
                rawSet(-2, "__metatable")
            }
            lua_setmetatable(L, -2)
            okit_push_swift_closure(L)
        }
    }

    /// Sets a global Swift function.
    public func register(_ name: String, _ fn: @escaping LuaFunction) {
        push(function: name, fn)
        setGlobal(name)
    }

    /// Makes `require(name)` call `loader` (through `package.preload`); the loader's first result becomes the
    /// module. Needs the `package` library (a `LuaSandbox` opens it).
    public func preload(_ name: String, _ loader: @escaping LuaFunction) {
        guard pushGlobal("package") == LUA_TTABLE else { pop(); return }
        guard rawGet(-1, "preload") == LUA_TTABLE else { pop(2); return }
        push(function: name, loader)
        rawSet(-2, name)
        pop(2)
    }
}

/// `__gc` of a function box: releases the Swift closure (once: the slot is cleared).
private let releaseBox: @convention(c) (OpaquePointer?) -> Int32 = { L in
    guard let L, let raw = lua_touserdata(L, 1), let p = raw.load(as: UnsafeRawPointer?.self) else { return 0 }
    raw.storeBytes(of: nil, as: UnsafeRawPointer?.self)
    Unmanaged<LuaFunctionBox>.fromOpaque(p).release()
    return 0
}
