import CLua
import Foundation

/// One Lua state, owned by one Swift object and used from one isolation domain (it is not `Sendable`; the
/// owner, an engine on one thread, serializes calls).
///
/// Every call into Lua is a protected call with a traceback handler and runs under the instruction budget;
/// the whole state runs under a memory limit. Swift functions called from Lua never raise Lua errors
/// themselves: they throw, and a C trampoline raises after the Swift frame has returned.
///
/// Rules for code using `L` directly: only API functions that cannot raise (`lua_raw*`, `lua_push*` inside
/// `hostPush`, `lua_type`, `lua_to*` on non-numbers…); anything that may run a metamethod goes through the
/// protected helpers (`get`, `tostring`) or `pcall`.
public final class LuaState {
    /// The raw state of the running thread: the main thread, or the coroutine that called into Swift.
    /// Use only with API functions that cannot raise, or under `pcall`.
    @exclusivity(unchecked) public internal(set) var L: OpaquePointer
    /// The main thread.
    public let mainL: OpaquePointer
    /// Instructions allowed per outermost call from Swift (`--lua-budget`, default 10^8).
    public var budget: Int64 = 100_000_000
    /// Most values one conversion of a Lua value copies in this state (`LuaState.maxValueCount`; the tests of the
    /// limit make it small, so that reaching it copies thousands of values, not a million).
    public var valueCountLimit = LuaState.maxValueCount
    /// How deep Lua → Swift → Lua calls are nested right now.
    @exclusivity(unchecked) var depth = 0
    /// Limit of Lua → Swift → Lua nesting.
    public static let maxDepth = 100
    /// `close()` was asked for while Lua was running.
    var closeRequested = false
    /// Host objects kept alive by this state (module tables, boxes), keyed for lookup.
    var hostData: [String: AnyObject] = [:]
    /// Shared with `LuaRef`s: tells them when the state is closed. A stored `let`, so the calls that read it
    /// first (every `pcall`) neither retain it nor run a lazy initializer.
    let handle: LuaStateHandle

    /// Creates a state with a memory limit in bytes (`--lua-memory`, default 256 MiB) and the budget hook
    /// installed (coroutines inherit it). No library is open: apply a `LuaSandbox`.
    public init(memoryLimit: Int = 256 << 20) throws(LuaError) {
        LuaBridge.installEntry()
        guard memoryLimit > 0, let l = okit_newstate(memoryLimit) else {
            throw LuaError(kind: .memory, message: "cannot create a Lua state (memory limit \(memoryLimit) bytes)")
        }
        L = l
        mainL = l
        handle = LuaStateHandle(L: l)
        handle.state = self
        okit_control_of(l).pointee.host = Unmanaged.passUnretained(self).toOpaque()
        okit_install_hook(l)
    }

    deinit { close() }

    /// Closes the state: finalizers run, Swift objects held by Lua are released, references go dead.
    /// Calls into a closed state throw (`.host`); other methods must not be used afterwards. Called from a Swift
    /// function while Lua runs, it takes effect when the outermost call returns.
    public func close() {
        guard !handle.closed else { return }
        guard depth == 0 else { closeRequested = true; return }   // Lua is running: close when it returns
        handle.closed = true
        handle.pendingUnrefs = []
        okit_close(mainL)
    }

    /// Whether `close()` ran.
    public var isClosed: Bool { handle.closed }

    /// The Swift owner of a raw state (inside callbacks; works for coroutines too).
    static func owner(of L: OpaquePointer) -> LuaState? {
        guard let host = okit_control_of(L).pointee.host else { return nil }
        return Unmanaged<LuaState>.fromOpaque(host).takeUnretainedValue()
    }

    /// Bytes Lua has allocated.
    public var memoryUsed: Int { isClosed ? 0 : Int(okit_control_of(mainL).pointee.used) }

    /// The memory limit in bytes.
    public var memoryLimit: Int {
        get { isClosed ? 0 : Int(okit_control_of(mainL).pointee.limit) }
        set { if !isClosed { okit_control_of(mainL).pointee.limit = max(0, newValue) } }
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
    /// budget (reset when this is the outermost call). Leaves `nresults` results (or all with -1) on the stack;
    /// on failure the function and arguments are gone.
    public func pcall(nargs: Int32, nresults: Int32) throws(LuaError) {
        guard !isClosed else { throw LuaError(kind: .host, message: "the Lua state is closed") }
        if depth == 0 { drainUnrefs() }
        depth += 1
        let status = okit_pcall(L, nargs, nresults, budget, depth == 1 ? 1 : 0)
        depth -= 1
        let error = status == LUA_OK ? nil : takeError(status: status)
        if depth == 0, closeRequested { close() }
        if let error { throw error }
    }

    /// Calls a function kept in the registry with copied arguments and returns its results, copied.
    public func call(_ function: LuaRef, _ arguments: [LuaValue] = []) throws(LuaError) -> [LuaValue] {
        guard !isClosed else { throw LuaError(kind: .host, message: "the Lua state is closed") }
        let base = top
        guard okit_ensure_stack(L, Int32(clamping: arguments.count + 2)) != 0 else {
            throw LuaError(kind: .host, message: "too many arguments (\(arguments.count))")
        }
        function.push()
        for a in arguments { push(a) }
        try pcall(nargs: Int32(arguments.count), nresults: LUA_MULTRET)
        guard !isClosed else { return [] }   // the function closed the state
        defer { top = base }
        return (base + 1 ..< top + 1).map { value(at: $0) }
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
            let limit = "memory limit of \(LuaState.describe(bytes: Int(control.limit))) exceeded"
            // Lua's own memory error carries no position; a guard's message already names the limit.
            let message = text == "not enough memory" || text.isEmpty ? limit : text
            return LuaError(kind: .memory, message: message, traceback: traceback)
        }
        if status == LUA_ERRSYNTAX { return LuaError(kind: .syntax, message: text) }
        if control.exhausted != 0 {
            return LuaError(kind: .budget, message: text, traceback: traceback)
        }
        return LuaError(kind: .runtime, message: text, traceback: traceback)
    }

    /// "256 MiB", or bytes when the limit is not a whole number of MiB.
    static func describe(bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    func errorText(at index: Int32) -> String {
        switch lua_type(L, index) {
        case LUA_TSTRING: return string(at: index) ?? bytes(at: index).map { String(decoding: $0, as: UTF8.self) } ?? ""
        case LUA_TNIL: return "nil"
        default: return "(error object is a \(typeName(at: index)) value)"
        }
    }

    // MARK: Loading

    /// Compiles `source` (text only, never bytecode) as a function on the stack. `chunkName` is how errors
    /// name it: `app.lua` gives `app.lua:3: message` (keep it short and relative: Lua cuts names at 60 bytes);
    /// a name starting with `=` or `@` is used as Lua would.
    public func load(source: String, chunkName: String) throws(LuaError) {
        guard !isClosed else { throw LuaError(kind: .host, message: "the Lua state is closed") }
        try load(bytes: Array(source.utf8), chunkName: chunkName)
    }

    /// Compiles raw bytes (string literals may hold any byte) as a function on the stack.
    public func load(bytes: [UInt8], chunkName: String) throws(LuaError) {
        guard !isClosed else { throw LuaError(kind: .host, message: "the Lua state is closed") }
        let status = loadStatus(bytes[...], chunkName: chunkName)
        guard status != LUA_OK else { return }
        let error = takeError(status: status)
        guard status == LUA_ERRSYNTAX else { throw error }
        let message = withForeignCharacter(error.message, source: bytes, chunkName: chunkName)
            ?? withSyntaxColumn(error.message, source: bytes, chunkName: chunkName)
        throw LuaError(kind: error.kind, message: message, traceback: error.traceback)
    }

    /// Loads bytes in text mode and returns the status (the function or the error message is pushed).
    func loadStatus(_ bytes: ArraySlice<UInt8>, chunkName: String) -> Int32 {
        bytes.withUnsafeBytes { buf in load(buffer: buf, chunkName: chunkName) }
    }

    /// Loads a buffer in text mode and returns the status (the function or the error message is pushed).
    private func load(buffer: UnsafeRawBufferPointer, chunkName: String) -> Int32 {
        okit_ensure_stack(L, 2)
        let name = chunkName.hasPrefix("=") || chunkName.hasPrefix("@") ? chunkName : "@" + chunkName
        let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
        return name.withCString { cname in
            base.map { okit_load_text(L, $0, buffer.count, cname) } ?? okit_load_text(L, "", 0, cname)
        }
    }

    /// Compiles a file as a function on the stack; errors name it `chunkName` (default: the file's name).
    public func loadFile(_ path: String, chunkName: String? = nil) throws(LuaError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LuaError(kind: .host, message: "cannot read \(path)")
        }
        try load(bytes: [UInt8](data), chunkName: chunkName ?? URL(fileURLWithPath: path).lastPathComponent)
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
        guard !isClosed else { return .nil }
        defer { top = t }
        return value(at: -1)
    }

    /// Runs a full garbage collection (after releasing dropped references).
    public func collectGarbage() {
        guard !isClosed else { return }
        drainUnrefs()
        _ = hostPush { okit_lua_gc_collect(L) }
    }
}
