import CLua
import Foundation

/// One Lua state, owned by one Swift object and used from one isolation domain (it is not `Sendable`).
///
/// Every call into Lua is a protected call with a traceback handler and runs under the instruction budget;
/// the whole state runs under a memory limit. Swift functions called from Lua never raise Lua errors
/// themselves: they throw, and a C trampoline raises after the Swift frame has returned.
public final class LuaState {
    /// The raw state of the running thread: the main thread, or the coroutine that called into Swift.
    /// Use only with API functions that cannot raise, or under `pcall`.
    @exclusivity(unchecked) public internal(set) var L: OpaquePointer
    /// The main thread.
    public let mainL: OpaquePointer
    /// Instructions allowed per outermost call from Swift (`--lua-budget`).
    public var budget: Int64 = 100_000_000
    /// How deep Lua → Swift → Lua calls are nested right now.
    @exclusivity(unchecked) var depth = 0
    /// Limit of Lua → Swift → Lua nesting.
    public static let maxDepth = 100
    /// Host objects kept alive by this state (module tables, boxes), keyed for lookup.
    var hostData: [String: AnyObject] = [:]
    /// Shared with `LuaRef`s: tells them when the state is closed.
    private(set) lazy var handle = LuaStateHandle(self)

    /// Creates a state with a memory limit in bytes (`--lua-memory`, default 256 MiB).
    public init(memoryLimit: Int = 256 << 20) throws {
        LuaBridge.installEntry()
        guard let l = okit_newstate(memoryLimit) else {
            throw LuaError(kind: .memory, message: "cannot create a Lua state")
        }
        L = l
        mainL = l
        okit_control_of(L).pointee.host = Unmanaged.passUnretained(self).toOpaque()
        okit_install_hook(L)
    }

    deinit {
        handle.closed = true
        okit_close(mainL)
    }

    /// The Swift owner of a raw state (inside callbacks; works for coroutines too).
    static func owner(of L: OpaquePointer) -> LuaState? {
        guard let host = okit_control_of(L).pointee.host else { return nil }
        return Unmanaged<LuaState>.fromOpaque(host).takeUnretainedValue()
    }

    /// Bytes Lua has allocated.
    public var memoryUsed: Int { Int(okit_control_of(L).pointee.used) }

    /// The memory limit in bytes.
    public var memoryLimit: Int {
        get { Int(okit_control_of(L).pointee.limit) }
        set { okit_control_of(L).pointee.limit = newValue }
    }

    // MARK: Host pushes (never raise)

    /// Runs `body` with the memory limit lifted, so Lua API calls that allocate cannot raise over Swift frames.
    @inline(__always)
    public func hostPush<T>(_ body: () throws -> T) rethrows -> T {
        okit_control_of(L).pointee.ignore_limit += 1
        defer { okit_control_of(L).pointee.ignore_limit -= 1 }
        return try body()
    }

    public var top: Int32 {
        get { lua_gettop(L) }
        set { lua_settop(L, newValue) }
    }

    public func pop(_ n: Int32 = 1) { okit_lua_pop(L, n) }

    // MARK: Calls

    /// Calls the function below `nargs` arguments on the stack, protected, with a traceback handler and the
    /// budget. Leaves `nresults` results (or all with -1) on the stack.
    public func pcall(nargs: Int32, nresults: Int32) throws(LuaError) {
        depth += 1
        let status = okit_pcall(L, nargs, nresults, budget, depth == 1 ? 1 : 0)
        depth -= 1
        if status != LUA_OK {
            throw takeError(status: status)
        }
    }

    /// Pops the error value of a failed call and turns it into a `LuaError`.
    func takeError(status: Int32) -> LuaError {
        let control = okit_control_of(L).pointee
        var text = errorText(at: -1)
        pop()
        var traceback: String?
        if let r = text.range(of: "\nstack traceback:") {
            traceback = String(text[r.lowerBound...].dropFirst())
            text = String(text[..<r.lowerBound])
        }
        if status == LUA_ERRMEM || control.memory_exceeded != 0 {
            okit_control_of(L).pointee.memory_exceeded = 0
            let mib = control.limit >> 20
            return LuaError(kind: .memory, message: "memory limit of \(mib) MiB exceeded", traceback: traceback)
        }
        if control.exhausted != 0 {
            return LuaError(kind: .budget, message: text, traceback: traceback)
        }
        if status == LUA_ERRSYNTAX { return LuaError(kind: .syntax, message: text) }
        return LuaError(kind: .runtime, message: text, traceback: traceback)
    }

    func errorText(at index: Int32) -> String {
        if lua_type(L, index) == LUA_TSTRING { return string(at: index) ?? "" }
        if lua_type(L, index) == LUA_TNIL { return "nil" }
        return "(error object is a \(typeName(at: index)) value)"
    }

    // MARK: Loading

    /// Compiles `source` (text only, never bytecode) as a function on the stack. `chunkName` is how errors
    /// name it: `app.lua` gives `app.lua:3: message`.
    public func load(source: String, chunkName: String) throws(LuaError) {
        let status: Int32 = hostPush {
            var s = source
            return s.withUTF8 { buf in
                buf.withMemoryRebound(to: CChar.self) { okit_load_text(L, $0.baseAddress, buf.count, "@" + chunkName) }
            }
        }
        if status != LUA_OK { throw takeError(status: status) }
    }

    /// Loads and runs a chunk, returning its results (as many as `nresults`, -1 for all) on the stack.
    public func run(source: String, chunkName: String, nresults: Int32 = 0) throws(LuaError) {
        try load(source: source, chunkName: chunkName)
        try pcall(nargs: 0, nresults: nresults)
    }

    /// Runs a chunk and returns its first result as a copied value.
    public func evaluate(_ source: String, chunkName: String = "=eval") throws(LuaError) -> LuaValue {
        let t = top
        try run(source: source, chunkName: chunkName, nresults: 1)
        defer { top = t }
        return value(at: -1)
    }

    // MARK: Globals and registry

    /// Sets a global from the value on top of the stack (raw: the globals table has no metatable here).
    public func setGlobal(_ name: String) {
        hostPush {
            lua_rawgeti(L, okit_LUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
            lua_rotate(L, -2, 1)
            lua_pushstring(L, name)
            lua_rotate(L, -2, 1)
            lua_rawset(L, -3)
            pop()
        }
    }

    /// Pushes a global (raw).
    @discardableResult
    public func pushGlobal(_ name: String) -> Int32 {
        hostPush {
            lua_rawgeti(L, okit_LUA_REGISTRYINDEX, lua_Integer(LUA_RIDX_GLOBALS))
            lua_pushstring(L, name)
            let t = lua_rawget(L, -2)
            lua_rotate(L, -2, 1)
            pop()
            return t
        }
    }

    /// Keeps the value on top of the stack in the registry (pops it).
    public func ref() -> LuaRef {
        LuaRef(handle: handle, id: luaL_ref(L, okit_LUA_REGISTRYINDEX))
    }

    // MARK: Raw table helpers

    /// `t[key] = top` for the table at `index` (raw), popping the value.
    public func rawSet(_ index: Int32, _ key: String) {
        let t = lua_absindex(L, index)
        hostPush {
            lua_pushstring(L, key)
            lua_rotate(L, -2, 1)
            lua_rawset(L, t)
        }
    }

    /// Pushes `t[key]` of the table at `index` (raw) and returns its type.
    @discardableResult
    public func rawGet(_ index: Int32, _ key: String) -> Int32 {
        let t = lua_absindex(L, index)
        return hostPush {
            lua_pushstring(L, key)
            return lua_rawget(L, t)
        }
    }

    /// Creates a table and pushes it.
    public func newTable(array: Int32 = 0, hash: Int32 = 0) {
        hostPush { lua_createtable(L, array, hash) }
    }
}

/// Whether a state is still open, shared with the references into it (so they need no weak reference).
final class LuaStateHandle {
    let L: OpaquePointer
    var closed = false
    unowned(unsafe) let state: LuaState

    init(_ state: LuaState) {
        L = state.mainL
        self.state = state
    }
}

/// A value kept in the registry of a state.
public final class LuaRef {
    let handle: LuaStateHandle
    public let id: Int32

    init(handle: LuaStateHandle, id: Int32) {
        self.handle = handle
        self.id = id
    }

    /// Pushes the value onto the running thread's stack.
    public func push() {
        guard !handle.closed else { return }
        lua_rawgeti(handle.state.L, okit_LUA_REGISTRYINDEX, lua_Integer(id))
    }

    deinit {
        if !handle.closed { luaL_unref(handle.L, okit_LUA_REGISTRYINDEX, id) }
    }
}

extension LuaState {
    /// Runs a full garbage collection.
    public func collectGarbage() {
        _ = hostPush { okit_lua_gc_collect(L) }
    }
}
