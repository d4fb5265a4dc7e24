import Foundation
import Testing
@testable import OKitLua

@Suite struct LuaSandboxTests {
    static let absentWhenSafe = [
        "io", "io.open", "io.popen", "os.execute", "os.exit", "os.getenv", "os.remove", "os.rename", "os.tmpname",
        "os.setlocale", "string.dump", "debug.sethook", "debug.gethook", "debug.getregistry",
        "debug.getinfo", "debug.setupvalue", "debug.getupvalue", "debug.setmetatable", "package.loadlib",
        "package.searchpath", "package.cpath",
    ]

    @Test(arguments: absentWhenSafe)
    func dangerousFunctionsAreAbsent(_ name: String) throws {
        let s = try runtimeTestState()
        let lookup = "local v = _G for part in ('\(name)'):gmatch('[^.]+') do if type(v) ~= 'table' then return true end v = v[part] end "
        #expect(try s.evaluate(lookup + "return v == nil") == .bool(true))
        // Not reachable through package.loaded either.
        let root = name.split(separator: ".").first.map(String.init) ?? name
        if ["io", "os", "debug"].contains(root), name.contains(".") {
            let field = name.split(separator: ".").last.map(String.init) ?? ""
            #expect(try s.evaluate("return package.loaded.\(root) == nil or package.loaded.\(root).\(field) == nil") == .bool(true))
        }
    }

    @Test func theAllowedLibrariesArePresent() throws {
        let s = try runtimeTestState()
        for name in ["string.format", "table.concat", "math.floor", "utf8.char", "coroutine.wrap", "os.time",
                     "os.clock", "os.date", "os.difftime", "debug.traceback", "require", "pcall", "load", "select"] {
            #expect(try s.evaluate("return type(\(name))") == .string("function"), "\(name)")
        }
        #expect(try s.evaluate("return ('abc'):upper() .. utf8.char(233)") == .string("ABCé"))
        #expect(try s.evaluate("return debug.traceback('m'):match('^m\\nstack traceback:') ~= nil") == .bool(true))
    }

    @Test func unsafeRestoresTheFullLibrary() throws {
        let s = try runtimeTestState { $0.policy = .unsafe }
        for name in ["io.open", "io.popen", "os.execute", "os.getenv", "os.remove", "debug.sethook", "string.dump",
                     "dofile", "loadfile", "package.loadlib"] {
            #expect(try s.evaluate("return type(\(name))") == .string("function"), "\(name)")
        }
        #expect(try s.evaluate("return load(string.dump(function() return 7 end))()") == .int(7), "binary chunks load")
        #expect(try s.evaluate("setmetatable({}, { __gc = function() end }) return true") == .bool(true))
    }

    /// `loadfile`/`dofile` read files of the app's folder only (lua-api.md "Sandbox").
    @Test func loadfileAndDofileStayInsideTheAppsFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-loadfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lib"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "return 42".write(to: folder.appendingPathComponent("lib/limits.lua"), atomically: true, encoding: .utf8)
        try "return y".write(to: folder.appendingPathComponent("lib/env.lua"), atomically: true, encoding: .utf8)
        try "return (".write(to: folder.appendingPathComponent("lib/bad.lua"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("lib/out.lua").path, withDestinationPath: "/etc/hostname")
        let s = try runtimeTestState { $0.appFolder = folder }
        #expect(try s.evaluate("return loadfile('lib/limits.lua')()") == .int(42))
        #expect(try s.evaluate("return dofile('lib/limits.lua')") == .int(42))
        #expect(try s.evaluate("return loadfile('lib/env.lua', 't', { y = 5 })()") == .int(5), "env becomes the chunk's _ENV")
        #expect(try s.evaluate("local f, e = loadfile('../x.lua'); return e") == .string("cannot open ../x.lua: app code reads files inside the app's folder only (a relative path without ..)"))
        #expect(try s.evaluate("local f, e = loadfile('/etc/hostname'); return f == nil") == .bool(true))
        #expect(try s.evaluate("local f, e = loadfile('lib/out.lua'); return e") == .string("cannot open lib/out.lua: it leads outside the app's folder (symbolic links may not leave it)"))
        #expect(try s.evaluate("local f, e = loadfile('lib/bad.lua'); return e:match('^lib/bad.lua:') ~= nil") == .bool(true))
        #expect(try s.evaluate("local f, e = loadfile('lib/limits.lua', 'b'); return f == nil") == .bool(true), "binary mode is refused")
        #expect(expectLuaError(s, "dofile('missing.lua')")?.message.contains("cannot open missing.lua") == true)
        #expect(try s.evaluate("return __okit_loadfile") == .nil, "the host function is not reachable")
    }

    @Test func loadIsTextOnly() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate("return load('return 1 + 1')()") == .int(2))
        #expect(try s.evaluate("return load('return x', 'chunk', 'b', { x = 5 })()") == .int(5), "the mode is forced to text")
        #expect(try s.evaluate("local f, e = load('\\27Lua\\84\\0'); return e")
            == .string("attempt to load a binary chunk (mode is 't')"))
        #expect(try s.evaluate("local f, e = load('\\27Lua', 'x', 'b'); return f == nil") == .bool(true))
        #expect(try s.evaluate("return load('return y', '=c', 't', nil)") != .nil, "an explicit nil env is honoured")
    }

    @Test func wrappedFunctionsReportTheCallersPosition() throws {
        let s = try runtimeTestState()
        #expect(expectLuaError(s, "\nsetmetatable(nil, {})")?.message == "app.lua:2: bad argument #1 to 'setmetatable' (table expected, got nil)")
        #expect(expectLuaError(s, "setmetatable({}, 5)")?.message == "app.lua:1: bad argument #2 to 'setmetatable' (nil or table expected)")
        #expect(expectLuaError(s, "local t = setmetatable({}, { __metatable = 'locked' }) setmetatable(t, {})")?.message
            == "app.lua:1: cannot change a protected metatable")
        #expect(expectLuaError(s, "load(5)")?.message == "app.lua:1: bad argument #1 to 'load' (string expected, got number)")
        #expect(expectLuaError(s, "collectgarbage('stop')")?.message == "app.lua:1: collectgarbage 'stop' is not available to app code")
        #expect(expectLuaError(s, "setmetatable({}, { __gc = print })")?.message == "app.lua:1: __gc metamethods are not available to app code")
    }

    @Test func collectGarbageIsLimited() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate("return math.type(collectgarbage('count'))") == .string("float"))
        #expect(try s.evaluate("return collectgarbage()") == .int(0))
        #expect(try s.evaluate("return (collectgarbage('step'))") != .nil)
        for opt in ["stop", "restart", "generational", "incremental", "setpause"] {
            #expect(try s.evaluate("return select(2, pcall(collectgarbage, '\(opt)'))")
                == .string("collectgarbage '\(opt)' is not available to app code"))
        }
    }

    @Test func theStringMetatableAndFinalizersAreProtected() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate("return getmetatable('')") == .bool(false))
        #expect(try s.evaluate("return select(2, pcall(setmetatable, {}, { __gc = function() while true do end end }))")
            == .string("__gc metamethods are not available to app code"))
        #expect(try s.evaluate("return getmetatable(setmetatable({}, { __index = { x = 1 } })).__index.x") == .int(1))
    }

    @Test func patternSubjectsAreCapped() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate("return ('abc'):find('b')") == .int(2))
        #expect(try s.evaluate("return #string.rep('a', 256 * 1024):gsub('a', 'b')") == .int(256 * 1024), "the cap itself is allowed")
        for call in ["string.find(big, 'b')", "string.match(big, 'b')", "string.gmatch(big, 'b')",
                     "string.gsub(big, 'a', 'b')"] {
            let v = try s.evaluate("local big = string.rep('a', 256 * 1024 + 1) return select(2, pcall(function() return \(call) end))")
            guard case .string(let message) = v else { Issue.record("\(call): \(v)"); continue }
            #expect(message.contains("pattern functions refuse subjects over 256 KiB"), "\(call): \(message)")
        }
    }

    @Test func printGoesToTheHost() throws {
        var lines: [String] = []
        let s = try runtimeTestState { box in box.print = { lines.append($0) } }
        try s.run(source: "print(1, 2.0, 'x', nil, true, setmetatable({}, { __tostring = function() return 'T' end }))\nprint()",
                  chunkName: "p.lua")
        #expect(lines == ["1\t2.0\tx\tnil\ttrue\tT", ""])
    }

    @Test func osTimeAndDateReadTheAppClock() throws {
        let s = try runtimeTestState { $0.clock = { 1_556_704_800.75 } }
        #expect(try s.evaluate("return os.time()") == .int(1_556_704_800))
        #expect(try s.evaluate("return os.date('!%Y-%m-%d %H:%M')") == .string("2019-05-01 10:00"))
        #expect(try s.evaluate("return os.date('!*t').year") == .int(2019))
        #expect(try s.evaluate("return os.time({ year = 2020, month = 1, day = 1, hour = 12 }) > 0") == .bool(true))
        #expect(try s.evaluate("return os.difftime(10, 4)") == .double(6))
        #expect(try s.evaluate("return math.type(os.clock())") == .string("float"))
    }

    @Test func seededRandomRepeats() throws {
        let script = "local t = {} for i = 1, 5 do t[i] = math.random(1000000) end t[6] = math.random() return t"
        let a = try runtimeTestState { $0.randomSeed = 3 }
        let b = try runtimeTestState { $0.randomSeed = 3 }
        let c = try runtimeTestState { $0.randomSeed = 4 }
        let first = try a.evaluate(script)
        #expect(first == (try b.evaluate(script)))
        #expect(first != (try c.evaluate(script)))
        let extreme = try runtimeTestState { $0.randomSeed = Int64.min }
        #expect(try extreme.evaluate("return math.type(math.random(10))") == .string("integer"))
    }

    @Test func requireFindsModulesInTheAppFolderOnly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-req-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: dir.appendingPathComponent("lua/util"), withIntermediateDirectories: true)
        try fm.createDirectory(at: dir.appendingPathComponent("lib"), withIntermediateDirectories: true)
        try fm.createDirectory(at: dir.appendingPathComponent("dironly.lua"), withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: dir) }
        func write(_ path: String, _ text: String) throws {
            try Data(text.utf8).write(to: dir.appendingPathComponent(path))
        }
        try write("sibling.lua", "local name, path = ... return { x = 1, name = name, path = path }")
        try write("lua/x.lua", "return 'from lua/'")
        try write("lua/util/init.lua", "return { y = 2 }")
        try write("lib/util.lua", "local M = {}\nfunction M.fail() error('util failed') end\nreturn M")
        try write("broken.lua", "local a =\n= 1")
        try write("throws.lua", "\nerror('bad module')")
        try write("nothing.lua", "local x = 1")
        let s = try runtimeTestState { $0.appFolder = dir }
        #expect(try s.evaluate("return require('sibling').x") == .int(1))
        #expect(try s.evaluate("return require('sibling').path") == .string("sibling.lua"))
        #expect(try s.evaluate("return require('sibling') == require('sibling')") == .bool(true))
        #expect(try s.evaluate("return package.loaded.sibling ~= nil") == .bool(true))
        #expect(try s.evaluate("return require('x')") == .string("from lua/"))
        #expect(try s.evaluate("return require('util').y") == .int(2))
        #expect(try s.evaluate("return require('nothing')") == .bool(true))
        #expect(expectLuaError(s, "require('lib.util').fail()")?.message == "lib/util.lua:2: util failed")
        #expect(expectLuaError(s, "require('broken')")?.message.hasPrefix("broken.lua:2:") == true)
        #expect(expectLuaError(s, "require('throws')")?.message == "throws.lua:2: bad module")
        for bad in ["../x", "..", "a..b", ".x", "x.", "/etc/passwd", "a/b", "x y", ""] {
            let e = expectLuaError(s, "require('\(bad)')")
            #expect(e?.message.contains("module name '\(bad)' is not allowed") == true, "\(bad): \(e?.message ?? "")")
        }
        let missing = expectLuaError(s, "require('missing')")
        #expect(missing?.message.hasPrefix("app.lua:1: module 'missing' not found:") == true)
        #expect(missing?.message.contains("no file 'missing.lua' in the app's folder") == true)
        #expect(missing?.message.contains("no file 'lua/missing/init.lua' in the app's folder") == true)
        #expect(expectLuaError(s, "require('dironly')")?.message.contains("module 'dironly' not found") == true)
        // Without an app folder only preloaded modules exist.
        let bare = try runtimeTestState()
        #expect(expectLuaError(bare, "require('sibling')")?.message.contains("no app folder") == true)
    }

    @Test func requireIgnoresPackagePath() throws {
        let s = try runtimeTestState()
        #expect(expectLuaError(s, "package.path = '/etc/?' require('passwd')")?.message.contains("module 'passwd' not found") == true)
    }
}
