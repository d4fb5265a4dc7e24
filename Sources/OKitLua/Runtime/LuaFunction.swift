import CLua
import OKitEngine

/// A Swift function callable from Lua. It reads its arguments from `LuaCall`, pushes its results and returns
/// how many; throwing raises a Lua error with the error's message (after the Swift frame has returned).
public typealias LuaFunction = (LuaCall) throws -> Int32

/// The arguments of a call from Lua into Swift.
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

    func argError(_ i: Int32, _ expected: String) -> LuaRaise {
        LuaRaise("bad argument #\(i) to '\(name)' (\(expected) expected, got \(typeName(i)))")
    }

    public func string(_ i: Int32) throws -> String {
        guard lua_type(L, i) == LUA_TSTRING, let s = stringOrNil(i) else { throw argError(i, "string") }
        return s
    }

    public func stringOrNil(_ i: Int32) -> String? {
        guard lua_type(L, i) == LUA_TSTRING else { return nil }
        var len = 0
        guard let p = lua_tolstring(L, i, &len) else { return nil }
        return UTF8Text.string(UnsafeRawBufferPointer(start: p, count: len).bindMemory(to: UInt8.self))
    }

    public func int(_ i: Int32) throws -> Int64 {
        guard lua_type(L, i) == LUA_TNUMBER else { throw argError(i, "number") }
        var ok: Int32 = 0
        let v = lua_tointegerx(L, i, &ok)
        if ok == 0 { throw LuaRaise("bad argument #\(i) to '\(name)' (number has no integer representation)") }
        return v
    }

    public func number(_ i: Int32) throws -> Double {
        guard lua_type(L, i) == LUA_TNUMBER else { throw argError(i, "number") }
        return lua_tonumberx(L, i, nil)
    }

    public func bool(_ i: Int32) -> Bool { lua_toboolean(L, i) != 0 }

    public func requireTable(_ i: Int32) throws {
        guard lua_type(L, i) == LUA_TTABLE else { throw argError(i, "table") }
    }

    public func requireFunction(_ i: Int32) throws {
        guard lua_type(L, i) == LUA_TFUNCTION else { throw argError(i, "function") }
    }

    /// A copy of the argument.
    public func value(_ i: Int32) -> LuaValue { state.value(at: i) }

    /// Keeps argument `i` in the registry.
    public func ref(_ i: Int32) -> LuaRef {
        lua_pushvalue(L, i)
        return state.ref()
    }
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

/// Entered by the C trampoline for every Swift function called from Lua. Never raises: an error is pushed
/// and reported with `OKIT_CALL_ERROR`, and the trampoline raises it once this frame has returned.
private let luaSwiftEntry: @convention(c) (OpaquePointer?) -> Int32 = { L in
    guard let L, let state = LuaState.owner(of: L) else { return OKIT_CALL_ERROR }
    guard let raw = lua_touserdata(L, okit_lua_upvalueindex(1)) else {
        state.pushErrorMessage(L, "okit: broken Swift function")
        return OKIT_CALL_ERROR
    }
    let box = Unmanaged<LuaFunctionBox>.fromOpaque(raw.load(as: UnsafeRawPointer.self)).takeUnretainedValue()
    if state.depth >= LuaState.maxDepth {
        state.pushErrorMessage(L, "too many nested calls between Lua and Swift (limit \(LuaState.maxDepth))")
        return OKIT_CALL_ERROR
    }
    let outerL = state.L
    state.L = L          // stack operations of this call act on the calling thread (a coroutine, maybe)
    defer { state.L = outerL }
    do {
        let n = try box.fn(LuaCall(state: state, L: L, name: box.name))
        return n
    } catch let e as LuaRaise {
        state.pushErrorMessage(L, e.message, position: e.withPosition)
        return OKIT_CALL_ERROR
    } catch let e as LuaError {
        // A Lua error that passed through Swift keeps its text (it already names its position).
        state.pushErrorMessage(L, e.message, position: false)
        return OKIT_CALL_ERROR
    } catch {
        state.pushErrorMessage(L, "\(error)")
        return OKIT_CALL_ERROR
    }
}

extension LuaState {
    /// Pushes an error message, prefixed with the Lua caller's position like `luaL_error`.
    func pushErrorMessage(_ L: OpaquePointer, _ message: String, position: Bool = true) {
        hostPush {
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
            var t = text
            t.withUTF8 { buf in buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, buf.count) } }
        }
    }

    /// Pushes a Swift function as a Lua function.
    public func push(function name: String, _ fn: @escaping LuaFunction) {
        hostPush {
            let box = LuaFunctionBox(name: name, fn: fn)
            let ud = lua_newuserdatauv(L, MemoryLayout<UnsafeRawPointer>.size, 0)
            ud?.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(box).toOpaque()), as: UnsafeRawPointer.self)
            if luaL_newmetatable(L, LuaBridge.boxMetatable) != 0 {
                lua_pushcclosure(L, releaseBox, 0)
                lua_setfield(L, -2, "__gc")
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
}

/// `__gc` of a function box: releases the Swift closure.
private let releaseBox: @convention(c) (OpaquePointer?) -> Int32 = { L in
    guard let L, let raw = lua_touserdata(L, 1) else { return 0 }
    let p = raw.load(as: UnsafeRawPointer.self)
    Unmanaged<LuaFunctionBox>.fromOpaque(p).release()
    return 0
}
