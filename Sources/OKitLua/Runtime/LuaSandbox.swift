import CLua
import Foundation

/// What app code may use (lua-api.md "Sandbox and limits").
public struct LuaSandbox {
    public enum Policy: Sendable {
        /// The allowed libraries only: base, string, table, math, utf8, coroutine, os.time/clock/date/difftime.
        case safe
        /// The whole standard library (`okit-run --unsafe`).
        case unsafe
    }

    public var policy: Policy = .safe
    /// The app's folder: `require` finds modules here (`?.lua`, `?/init.lua`, then `lua/`).
    public var appFolder: URL?
    /// The app clock, seconds since 1970 (`os.time`, `os.date`).
    public var clock: () -> Double = { Date().timeIntervalSince1970 }
    /// Seed of `math.random`, when runs must repeat (virtual clock); nil keeps Lua's random seed.
    public var randomSeed: Int64?
    /// Where `print` goes.
    public var print: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    /// Pattern functions refuse subjects longer than this.
    public var maxPatternSubject = 256 * 1024

    public init() {}

    /// Opens the libraries and applies the policy to a fresh state.
    public func apply(to state: LuaState) throws(LuaError) {
        let L = state.L
        let libs = policy == .safe
            ? ["_G", "package", "coroutine", "table", "string", "math", "utf8", "os", "debug"]
            : ["_G", "package", "coroutine", "table", "io", "os", "string", "math", "utf8", "debug"]
        state.hostPush { for lib in libs { okit_open_library(L, lib) } }
        okit_guard_string_library(L, maxPatternSubject)

        let clock = self.clock
        state.register("__okit_now") { call in
            call.state.push(clock())
            return 1
        }
        let print = self.print
        state.register("__okit_print") { call in
            var parts: [String] = []
            for i in 1...max(1, call.count) where i <= call.count {
                parts.append(call.stringOrNil(i) ?? LuaCall.render(call, i))
            }
            print(parts.joined(separator: "\t"))
            return 0
        }
        let folder = appFolder
        state.register("__okit_search") { call in
            let name = try call.string(1)
            return try LuaRequire.search(name, in: folder, state: call.state)
        }
        let seed = randomSeed.map { "math.randomseed(\($0))" } ?? ""
        try state.run(source: (policy == .safe ? LuaSandbox.safePrelude : LuaSandbox.unsafePrelude) + "\n" + seed,
                      chunkName: "=okit-sandbox")
    }

    /// Shared by both policies: print, clock-based os.time/os.date, require rooted at the app folder.
    static let commonPrelude = """
    local now, search, hostprint = __okit_now, __okit_search, __okit_print
    __okit_now, __okit_search, __okit_print = nil, nil, nil
    print = function(...) hostprint(...) end
    local time, date = os.time, os.date
    os.time = function(t) if t == nil then return math.floor(now()) end return time(t) end
    os.date = function(fmt, t) return date(fmt, t or math.floor(now())) end
    package.searchers = { package.searchers[1], function(name) return search(name) end }
    package.path = ""; package.cpath = ""
    """

    static let safePrelude = commonPrelude + """

    local keepos = { time = os.time, clock = os.clock, date = os.date, difftime = os.difftime }
    os = keepos; package.loaded.os = keepos
    io = nil; package.loaded.io = nil
    package.loadlib = nil
    dofile, loadfile = nil, nil
    local traceback = debug.traceback
    debug = { traceback = traceback }; package.loaded.debug = debug
    string.dump = nil
    local rawload = load
    load = function(chunk, name, mode, env)
      if env == nil then return rawload(chunk, name, "t") end
      return rawload(chunk, name, "t", env)
    end
    local gc = collectgarbage
    collectgarbage = function(opt, ...)
      opt = opt or "collect"
      if opt == "count" or opt == "collect" or opt == "step" then return gc(opt, ...) end
      error("collectgarbage '" .. tostring(opt) .. "' is not available to app code", 2)
    end
    getmetatable("").__metatable = false
    """

    static let unsafePrelude = commonPrelude
}

extension LuaCall {
    /// `tostring`-like rendering without calling metamethods (for print).
    static func render(_ call: LuaCall, _ i: Int32) -> String {
        switch call.value(i) {
        case .nil: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let n): return String(n)
        case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(format: "%.1f", d) : "\(d)"
        case .string(let s): return s
        case .bytes(let b): return String(decoding: b, as: UTF8.self)
        case .table: return "table"
        case .opaque(let t): return t
        }
    }
}

/// `require` rooted at the app's folder.
enum LuaRequire {
    /// Finds `name` (`a.b` → `a/b.lua`, `a/b/init.lua`, `lua/a/b.lua`, `lua/a/b/init.lua`) and pushes its loader
    /// and path, or a message explaining where it looked.
    static func search(_ name: String, in folder: URL?, state: LuaState) throws -> Int32 {
        guard let folder else { state.push("\n\tno app folder for module '\(name)'"); return 1 }
        let ok = !name.isEmpty && !name.contains("..") && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "."
        } && !name.hasPrefix(".")
        guard ok else { throw LuaRaise("module name '\(name)' is not allowed (letters, digits, _ and . only, within the app's folder)") }
        let rel = name.replacingOccurrences(of: ".", with: "/")
        let candidates = ["\(rel).lua", "\(rel)/init.lua", "lua/\(rel).lua", "lua/\(rel)/init.lua"]
        for c in candidates {
            let url = folder.appendingPathComponent(c)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw LuaRaise("cannot read module '\(name)' at \(c)")
            }
            try state.load(source: String(decoding: data, as: UTF8.self), chunkName: c)
            state.push(c)
            return 2
        }
        state.push(candidates.map { "\n\tno file '\($0)' in the app's folder" }.joined())
        return 1
    }
}
