import CLua
import Foundation

/// What app code may use (lua-api.md "Sandbox and limits"), applied once to a fresh state.
///
/// `.safe` opens base, `package` (for `require`), `string`, `table`, `math`, `utf8`, `coroutine`, and `os`
/// reduced to `time`, `clock`, `date`, `difftime`; removes `io`, `dofile`, `loadfile`, `string.dump`,
/// `package.loadlib`/`searchpath`/`cpath`, `debug` (but `debug.traceback`); forces `load` to text mode; limits
/// `collectgarbage` to "count", "collect" and "step"; hides the string metatable; refuses `__gc` metamethods
/// (Lua runs finalizers with hooks off, so the budget could not stop them). `.unsafe` keeps the whole standard
/// library. Both route `print` to the host, read `os.time`/`os.date` from the app clock, root `require` at the
/// app's folder, and guard `string.rep`, the pattern functions and `table.move`.
public struct LuaSandbox {
    public enum Policy: Sendable {
        /// The allowed libraries only.
        case safe
        /// The whole standard library (`okit-run --unsafe`).
        case unsafe
    }

    public var policy: Policy = .safe
    /// The app's folder: `require` finds modules here (`?.lua`, `?/init.lua`, then `lua/`).
    public var appFolder: URL?
    /// The app clock, seconds since 1970 (`os.time`, `os.date`).
    public var clock: () -> Double = { Date().timeIntervalSince1970 }
    /// The app's time zone, which `os.date` and `os.time` read wall clocks in (LuaSandbox+Clock.swift).
    public var zone: () -> TimeZone = { TimeZone(secondsFromGMT: 0) ?? .current }
    /// Seed of `math.random`, when runs must repeat (virtual clock); nil keeps Lua's random seed.
    public var randomSeed: Int64?
    /// Where `print` goes (one line, arguments separated by tabs). Default: stderr.
    public var print: (String) -> Void = { StandardStreams.error(($0 + "\n")) }
    /// Pattern functions refuse subjects longer than this (bytes).
    public var maxPatternSubject = 256 * 1024
    /// Pattern functions refuse a call whose worst-case matcher work (an upper bound computed before matching:
    /// Sources/CLua/pattern.c) is over this many steps. Default 10^9 (about a second at worst), or the
    /// environment variable `OKIT_LUA_PATTERN_COST`.
    public var maxPatternCost: Int64 = LuaSandbox.defaultPatternCost

    /// `OKIT_LUA_PATTERN_COST` when it is a positive integer, else 10^9.
    public static var defaultPatternCost: Int64 {
        if let text = ProcessInfo.processInfo.environment["OKIT_LUA_PATTERN_COST"], let n = Int64(text), n > 0 { return n }
        return 1_000_000_000
    }

    public init() {}

    /// Opens the libraries and applies the policy to a fresh state.
    public func apply(to state: LuaState) throws(LuaError) {
        let L = state.L
        let libs = policy == .safe
            ? ["_G", "package", "coroutine", "table", "string", "math", "utf8", "os", "debug"]
            : ["_G", "package", "coroutine", "table", "io", "os", "string", "math", "utf8", "debug"]
        for lib in libs where okit_open_library(L, lib) != LUA_OK {
            throw LuaError(kind: .memory, message: "cannot open the Lua library '\(lib)' (out of memory)")
        }
        guard okit_guard_string_library(L, maxPatternSubject, maxPatternCost) == LUA_OK else {
            throw LuaError(kind: .memory, message: "cannot guard the string library (out of memory)")
        }

        let clock = self.clock
        state.register("__okit_now") { call in
            call.state.push(clock())
            return 1
        }
        registerZone(on: state)
        let print = self.print
        state.register("__okit_print") { call in
            print(call.state.bytes(at: 1).map { String(decoding: $0, as: UTF8.self) } ?? "")
            return 0
        }
        let folder = appFolder
        state.register("__okit_search") { call in
            let name = try call.string(1)
            return try LuaRequire.search(name, in: folder, call: call)
        }
        state.register("__okit_loadfile") { call in try LuaAppFiles.loadfile(in: folder, call: call) }
        if let randomSeed { state.push(randomSeed) } else { state.pushNil() }
        state.setGlobal("__okit_seed")
        try state.run(source: policy == .safe ? LuaSandbox.safePrelude : LuaSandbox.commonPrelude,
                      chunkName: "=okit-sandbox")
    }

    /// Shared by both policies: print, clock-based os.time/os.date, require rooted at the app folder, the seed.
    static let commonPrelude = """
    local now, search, hostprint, seed = __okit_now, __okit_search, __okit_print, __okit_seed
    __okit_now, __okit_search, __okit_print, __okit_seed = nil, nil, nil, nil
    local __okit_loadfile = __okit_loadfile
    _G.__okit_loadfile = nil
    local tostring, select, concat, floor = tostring, select, table.concat, math.floor
    print = function(...)
      local n, parts = select("#", ...), {}
      for i = 1, n do parts[i] = tostring((select(i, ...))) end
      hostprint(concat(parts, "\\t"))
    end
    package.searchers = { package.searchers[1], function(name) return search(name) end }
    package.path = ""; package.cpath = ""
    if seed ~= nil then math.randomseed(seed) end
    """ + clockPrelude

    static let safePrelude = commonPrelude + """

    local keepos = { time = os.time, clock = os.clock, date = os.date, difftime = os.difftime }
    os = keepos; package.loaded.os = keepos
    io = nil; package.loaded.io = nil
    package.loadlib = nil; package.searchpath = nil; package.cpath = nil
    local hostloadfile = __okit_loadfile
    loadfile = function(path, mode, ...)
      if type(path) ~= "string" then
        error("bad argument #1 to 'loadfile' (a path inside the app's folder expected, got " .. type(path) .. ")", 2)
      end
      if mode ~= nil and mode ~= "t" and mode ~= "bt" then return nil, "attempt to load a binary chunk (mode is '" .. tostring(mode) .. "')" end
      return hostloadfile(path, mode, ...)
    end
    dofile = function(path)
      local f, err = loadfile(path)
      if not f then error(err, 2) end
      return f()
    end
    local traceback = debug.traceback
    debug = { traceback = traceback }; package.loaded.debug = debug
    string.dump = nil
    local rawload, rawgc, rawsetmetatable, rawget, type, error, pcall, tointeger =
      load, collectgarbage, setmetatable, rawget, type, error, pcall, math.tointeger
    load = function(chunk, name, mode, ...)
      local t = type(chunk)
      if t ~= "string" and t ~= "function" then
        error("bad argument #1 to 'load' (string expected, got " .. type(chunk) .. ")", 2)
      end
      if name ~= nil and type(name) ~= "string" then
        error("bad argument #2 to 'load' (string expected, got " .. type(name) .. ")", 2)
      end
      if select("#", ...) == 0 then return rawload(chunk, name, "t") end
      return rawload(chunk, name, "t", (...))
    end
    collectgarbage = function(opt, arg)
      opt = opt or "collect"
      if opt == "count" or opt == "collect" then return rawgc(opt) end
      if opt == "step" then return rawgc("step", tointeger(arg) or 0) end
      error("collectgarbage '" .. tostring(opt) .. "' is not available to app code", 2)
    end
    setmetatable = function(t, mt)
      if type(t) ~= "table" then
        error("bad argument #1 to 'setmetatable' (table expected, got " .. type(t) .. ")", 2)
      end
      if mt ~= nil and type(mt) ~= "table" then
        error("bad argument #2 to 'setmetatable' (nil or table expected)", 2)
      end
      if mt ~= nil and rawget(mt, "__gc") ~= nil then
        error("__gc metamethods are not available to app code", 2)
      end
      local ok, result = pcall(rawsetmetatable, t, mt)
      if not ok then error(result, 2) end
      return result
    end
    getmetatable("").__metatable = false
    """
}
