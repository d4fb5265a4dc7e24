import Foundation
import Testing
@testable import OKitLua

@Suite struct LuaRuntimeTests {
    func sandboxed(_ configure: (inout LuaSandbox) -> Void = { _ in }) throws -> LuaState {
        let s = try LuaState(memoryLimit: 32 << 20)
        var box = LuaSandbox()
        box.print = { _ in }
        configure(&box)
        try box.apply(to: s)
        return s
    }

    @Test func valuesConvertBothWays() throws {
        let s = try sandboxed()
        let cases: [LuaValue] = [
            .nil, .bool(true), .int(42), .int(Int64.max), .double(2.5), .double(3.0), .string("héllo"),
            .string("a\u{0}b"), .bytes([0xff, 0xfe]),
            .array([.int(1), .string("x"), .bool(false)]),
            .map([.string("k"): .int(1), .int(7): .string("seven")]),
            .map([.string("nested"): .array([.array([.int(1)])])]),
        ]
        for v in cases {
            s.push(v)
            s.setGlobal("v")
            #expect(try s.evaluate("return v") == v, "\(v)")
        }
        #expect(try s.evaluate("return 10 / 2") == .double(5))
        #expect(try s.evaluate("return 7 // 2") == .int(3))
        #expect(try s.evaluate("return math.type(v)") != .string("x"))
        #expect(try s.evaluate("local t = {}; t.self = t; return t") == .map([.string("self"): .opaque("table")]))
    }

    @Test func syntaxAndRuntimeErrorsNameTheirPlace() throws {
        let s = try sandboxed()
        do { try s.run(source: "local x = = 1", chunkName: "app.lua"); Issue.record("no error") } catch {
            #expect(error.kind == .syntax)
            #expect(error.message.hasPrefix("app.lua:1:"))
        }
        do { try s.run(source: "local a = 1\nerror('boom')", chunkName: "app.lua"); Issue.record("no error") } catch {
            #expect(error.kind == .runtime)
            #expect(error.message == "app.lua:2: boom")
            #expect(error.location?.line == 2)
            #expect(error.traceback?.contains("stack traceback") == true)
        }
        do { try s.run(source: "error({})", chunkName: "app.lua") } catch {
            #expect(error.message == "(error object is a table value)")
        }
        do { try s.run(source: "local function f() error('lvl', 2) end\nf()", chunkName: "app.lua") } catch {
            #expect(error.message == "app.lua:2: lvl")
        }
    }

    @Test func swiftErrorsBecomeLuaErrorsAfterTheSwiftFrameReturns() throws {
        let s = try sandboxed()
        var deferred = 0
        s.register("fail") { call in
            defer { deferred += 1 }
            throw LuaRaise("nope: \(try call.string(1))")
        }
        let v = try s.evaluate("local ok, err = pcall(function() fail('x') end); return err", chunkName: "t.lua")
        #expect(v == .string("t.lua:1: nope: x"))
        #expect(deferred == 1)
        do { try s.run(source: "fail(5)", chunkName: "t.lua") } catch {
            #expect(error.message == "t.lua:1: bad argument #1 to 'fail' (string expected, got number)")
        }
        #expect(deferred == 2)
        s.register("add") { call in call.state.push(try call.int(1) + call.int(2)); return 1 }
        #expect(try s.evaluate("return add(2, 3)") == .int(5))
    }

    @Test func theBudgetStopsEndlessLoopsEvenThroughPcall() throws {
        let s = try sandboxed()
        s.budget = 1_000_000
        for source in ["while true do end",
                       "while true do pcall(function() while true do end end) end",
                       "local co = coroutine.wrap(function() while true do end end) co()"] {
            do { try s.run(source: source, chunkName: "loop.lua"); Issue.record("no error for \(source)") } catch {
                #expect(error.kind == .budget, "\(source): \(error)")
                #expect(error.message.contains("instruction budget exceeded"))
            }
            #expect(try s.evaluate("return 1 + 1") == .int(2), "the state stays usable")
        }
    }

    @Test func theMemoryLimitStopsBombs() throws {
        let s = try sandboxed()
        for source in ["local t = {} while true do t[#t+1] = string.rep('x', 1000) .. #t end",
                       "return string.rep('x', 2^40)",
                       "local s = 'x' while true do s = s .. s end"] {
            do { try s.run(source: source, chunkName: "bomb.lua"); Issue.record("no error for \(source)") } catch {
                #expect(error.kind == .memory || error.message.contains("string.rep result too large"), "\(source): \(error)")
            }
            s.collectGarbage()
            #expect(try s.evaluate("return #string.rep('ab', 10)") == .int(20))
        }
    }

    @Test func theSandboxRemovesDangerousFunctions() throws {
        let s = try sandboxed()
        for name in ["io", "os.execute", "os.exit", "os.getenv", "os.remove", "dofile", "loadfile", "string.dump",
                     "debug.sethook", "debug.getregistry", "package.loadlib"] {
            #expect(try s.evaluate("return \(name) == nil") == .bool(true), "\(name)")
        }
        #expect(try s.evaluate("return type(debug.traceback)") == .string("function"))
        #expect(try s.evaluate("return select(2, load('\\27Lua'))") != .nil)
        #expect(try s.evaluate("return load('return 1 + 1')()") == .int(2))
        #expect(try s.evaluate("return pcall(collectgarbage, 'stop')") == .bool(false))
        #expect(try s.evaluate("return getmetatable('')") == .bool(false))
        let unsafe = try sandboxed { $0.policy = .unsafe }
        #expect(try unsafe.evaluate("return type(io.open)") == .string("function"))
    }

    @Test func patternSubjectsAreCapped() throws {
        let s = try sandboxed()
        #expect(try s.evaluate("return ('abc'):find('b')") == .int(2))
        #expect(try s.evaluate("return pcall(string.find, string.rep('a', 300000), 'b')") == .bool(false))
    }

    @Test func osTimeReadsTheAppClockAndRandomRepeats() throws {
        let a = try sandboxed { $0.clock = { 1_556_704_800 }; $0.randomSeed = 3 }
        let b = try sandboxed { $0.clock = { 1_556_704_800 }; $0.randomSeed = 3 }
        #expect(try a.evaluate("return os.time()") == .int(1_556_704_800))
        #expect(try a.evaluate("return os.date('!%Y-%m-%d')") == .string("2019-05-01"))
        #expect(try a.evaluate("return math.random(1000000)") == b.evaluate("return math.random(1000000)"))
    }

    @Test func requireFindsModulesInTheAppFolderOnly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-req-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("lua/util"), withIntermediateDirectories: true)
        try "return { x = 1 }".write(to: dir.appendingPathComponent("sibling.lua"), atomically: true, encoding: .utf8)
        try "return { y = 2 }".write(to: dir.appendingPathComponent("lua/util/init.lua"), atomically: true, encoding: .utf8)
        try "error('bad module')".write(to: dir.appendingPathComponent("broken.lua"), atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try sandboxed { $0.appFolder = dir }
        #expect(try s.evaluate("return require('sibling').x") == .int(1))
        #expect(try s.evaluate("return require('sibling') == require('sibling')") == .bool(true))
        #expect(try s.evaluate("return require('util').y") == .int(2))
        do { _ = try s.evaluate("return require('../etc/passwd')") } catch {
            #expect(error.message.contains("is not allowed"))
        }
        do { _ = try s.evaluate("return require('missing')") } catch {
            #expect(error.message.contains("module 'missing' not found"))
        }
        do { _ = try s.evaluate("return require('broken')") } catch {
            #expect(error.message.contains("broken.lua:1: bad module"))
        }
    }

    @Test func nestingIsLimited() throws {
        let s = try sandboxed()
        s.register("again") { call in
            try call.state.run(source: "again()", chunkName: "n.lua")
            return 0
        }
        do { try s.run(source: "again()", chunkName: "n.lua"); Issue.record("no error") } catch {
            #expect(error.message.contains("too many nested calls"))
        }
    }
}
