import CLua
import Foundation
import Testing
@testable import OKitLua

@Suite struct LuaLimitsTests {
    static let runaways = [
        "while true do end",
        "local n = 0 repeat n = n + 1 until false",
        "while true do pcall(function() while true do end end) end",
        "while true do xpcall(function() while true do end end, function(m) return m end) end",
        "local co = coroutine.wrap(function() while true do end end) co()",
        "coroutine.wrap(function() while true do pcall(function() while true do end end) end end)()",
        "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        "while true do pcall(coroutine.wrap(function() while true do end end)) end",
        "local function f() return f() end f()",
        "local t = setmetatable({}, { __index = function(t, k) while true do end end }) return t.x",
        "local s = ('x'):rep(100) while true do pcall(string.gsub, s, 'x', function() while true do end end) end",
    ]

    @Test(arguments: runaways)
    func theBudgetStopsRunawayCode(_ source: String) throws {
        let s = try runtimeTestState()
        s.budget = 1_000_000
        let e = expectLuaError(s, source, chunk: "loop.lua")
        #expect(e?.kind == .budget, "\(e?.message ?? "")")
        #expect(e?.message.contains("instruction budget exceeded (1000000 instructions)") == true, "\(e?.message ?? "")")
        #expect(try s.evaluate("local n = 0 for i = 1, 1000 do n = n + i end return n") == .int(500_500), "the state stays usable")
    }

    @Test func theBudgetErrorNamesWhereTheCodeWas() throws {
        let s = try runtimeTestState()
        s.budget = 100_000
        let e = expectLuaError(s, "local x = 0\nwhile true do\n  x = x + 1\nend", chunk: "spin.lua")
        #expect(e?.chunk == "spin.lua")
        #expect(e?.line == 2 || e?.line == 3)
        #expect(e?.traceback?.contains("stack traceback") == true)
    }

    @Test func theBudgetIsPerOutermostCall() throws {
        let s = try runtimeTestState()
        s.budget = 1_000_000
        // About 60% of the budget each: fine one call at a time.
        for _ in 0..<5 {
            try s.run(source: "local n = 0 for i = 1, 200000 do n = n + 1 end", chunkName: "part.lua")
        }
        // A coroutine left suspended after an exhaustion recovers its normal hook on the next call.
        try s.run(source: "co = coroutine.create(function() while true do coroutine.yield() end end)", chunkName: "c.lua")
        #expect(expectLuaError(s, "while true do coroutine.resume(co) end")?.kind == .budget)
        try s.run(source: "for i = 1, 1000 do coroutine.resume(co) end", chunkName: "c.lua")
        // Errors after an exhausted call are classified on their own.
        #expect(expectLuaError(s, "while true do end")?.kind == .budget)
        #expect(expectLuaError(s, "local = 1")?.kind == .syntax)
        #expect(expectLuaError(s, "error('plain')")?.kind == .runtime)
    }

    @Test func nestedCallsShareTheOutermostBudget() throws {
        let s = try runtimeTestState()
        s.budget = 1_000_000
        s.register("callback") { call in
            try call.state.run(source: "while true do end", chunkName: "inner.lua")
            return 0
        }
        let e = expectLuaError(s, "while true do pcall(callback) end", chunk: "outer.lua")
        #expect(e?.kind == .budget)
        #expect(s.depth == 0)
        #expect(try s.evaluate("return 1") == .int(1))
    }

    @Test func cWorkIsChargedToTheBudget() throws {
        let s = try runtimeTestState()
        s.budget = 1_000_000
        var calls = 0
        s.register("tick") { _ in calls += 1; return 0 }
        // Each find scans 200 KB in C (no hook fires there): it is charged about 3000 instructions.
        let e = expectLuaError(s, "local big = ('a'):rep(200000) while true do big:find('b', 1, true) tick() end")
        #expect(e?.kind == .budget)
        #expect(calls < 1000, "\(calls) scans ran")
    }

    @Test func degenerateLibraryCallsAreGuarded() throws {
        let s = try runtimeTestState()
        s.budget = 1_000_000
        #expect(try s.evaluate("return #string.rep('', math.maxinteger)") == .int(0))
        #expect(try s.evaluate("return #string.rep('', 2^62, '')") == .int(0))
        let move = try s.evaluate("return select(2, pcall(table.move, {}, 1, math.maxinteger, 2))")
        #expect(move == .string("table.move: too many elements (limit 67108864)"))
        #expect(try s.evaluate("return table.move({1, 2, 3}, 1, 3, 2)[3]") == .int(2))
        #expect(try s.evaluate("return #table.move({1, 2, 3}, -1, -3, 1)") == .int(3), "an empty range moves nothing")
        let huge = "setmetatable({}, { __len = function() return 1 << 62 end })"
        #expect(try s.evaluate("return select(2, pcall(table.insert, \(huge), 1, 'x'))")
            == .string("table.insert: table too long (4611686018427387904; limit 67108864)"))
        #expect(try s.evaluate("return select(2, pcall(table.remove, \(huge), 1))")
            == .string("table.remove: table too long (4611686018427387904; limit 67108864)"))
        #expect(try s.evaluate("local t = {1, 2, 3} table.insert(t, 1, 0) table.insert(t, 9) return table.concat(t, ',')") == .string("0,1,2,3,9"))
        #expect(try s.evaluate("local t = {1, 2, 3} return table.remove(t, 1) + table.remove(t) + #t") == .int(1 + 3 + 1))
        // A queue of a few thousand items fits the budget; shifting a big table over and over does not.
        try s.run(source: "local q = {} for i = 1, 1000 do q[#q + 1] = i end while #q > 0 do table.remove(q, 1) end", chunkName: "q.lua")
        #expect(expectLuaError(s, "local t = {} for i = 1, 200000 do t[i] = i end while true do table.insert(t, 1, 0) table.remove(t, 1) end")?.kind == .budget)
    }

    static let bombs = [
        "local t = {} while true do t[#t+1] = string.rep('x', 1000) .. #t end",
        "return string.rep('x', 2^40)",
        "return ('x'):rep(2^30, ',')",
        "local s = 'x' while true do s = s .. s end",
        "local t = {} for i = 1, 1e9 do t[i] = i end",
        "local t = {} while true do t[#t + 1] = {} end",
        "local parts = {} for i = 1, 40 do parts[i] = string.rep('y', 1 << 20) end return table.concat(parts)",
        "coroutine.wrap(function() local t = {} while true do t[#t+1] = {} end end)()",
    ]

    @Test(arguments: bombs)
    func theMemoryLimitStopsBombs(_ source: String) throws {
        let s = try runtimeTestState()
        let e = expectLuaError(s, source, chunk: "bomb.lua")
        #expect(e?.kind == .memory || e?.message.contains("overflow") == true, "\(e?.message ?? "")")
        if e?.kind == .memory { #expect(e?.message.contains("memory limit of 32 MiB exceeded") == true, "\(e?.message ?? "")") }
        s.collectGarbage()
        #expect(s.memoryUsed < 4 << 20, "the garbage is gone: \(s.memoryUsed)")
        #expect(try s.evaluate("return #string.rep('ab', 10)") == .int(20), "the state stays usable")
    }

    @Test func memoryErrorsCaughtInLuaLetTheScriptContinue() throws {
        let s = try runtimeTestState()
        let v = try s.evaluate("local ok, e = pcall(function() local t = {} while true do t[#t + 1] = {} end end) return e")
        #expect(v == .string("not enough memory"))
        #expect(try s.evaluate("return #string.rep('ab', 10)") == .int(20))
    }

    @Test func swiftPushesIgnoreTheLimit() throws {
        let s = try runtimeTestState()
        s.collectGarbage()
        let limit = s.memoryLimit
        s.memoryLimit = s.memoryUsed + 64 * 1024
        s.push(String(repeating: "z", count: 1 << 20))   // over the limit: allowed, and no error jumps over Swift
        s.setGlobal("big")
        #expect(s.memoryUsed > s.memoryLimit)
        #expect(expectLuaError(s, "local copy = big .. big")?.kind == .memory)
        s.memoryLimit = limit
        #expect(try s.evaluate("return #big") == .int(1 << 20))
    }

    @Test func aTinyLimitFailsCleanly() throws {
        do {
            let s = try runtimeTestState(memoryLimit: 8 * 1024)
            #expect(expectLuaError(s, "local t = {} for i = 1, 1e6 do t[i] = i end")?.kind == .memory)
        } catch {
            #expect(error.kind == .memory)
        }
        do { _ = try LuaState(memoryLimit: 0); Issue.record("no error") } catch {
            #expect(error.kind == .memory)
        }
    }

    @Test func hugeSourcesHitTheLimitWhileLoading() throws {
        let s = try runtimeTestState(memoryLimit: 4 << 20)
        let source = "return {" + String(repeating: "'abcdefgh',", count: 1 << 19) + "}"
        do { try s.load(source: source, chunkName: "huge.lua"); Issue.record("no error") } catch {
            #expect(error.kind == .memory)
        }
        #expect(try s.evaluate("return 1 + 1") == .int(2))
    }

    @Test func luaStackOverflowIsAnError() throws {
        let s = try runtimeTestState(memoryLimit: 256 << 20)
        let e = expectLuaError(s, "local function f(n) return 1 + f(n + 1) end return f(1)")
        #expect(e?.kind == .runtime || e?.kind == .memory)
        #expect(e?.message.contains("stack overflow") == true || e?.kind == .memory, "\(e?.message ?? "")")
        let c = expectLuaError(s, "local function f() return pcall(f) end local ok, e = f() error(e)")
        #expect(c != nil)
        // Deeply nested source is refused by the parser (Lua's own C-level limit), not a crash.
        let nesting = try s.evaluate("local f, e = load('return ' .. string.rep('{', 1e6)) return f == nil and e")
        guard case .string(let message) = nesting else { Issue.record("\(nesting)"); return }
        #expect(message.contains("C stack overflow") || message.contains("C levels"), "\(message)")
        #expect(try s.evaluate("return 2") == .int(2))
    }

    @Test func reentryIsLimited() throws {
        let s = try runtimeTestState()
        var deepest = 0
        s.register("again") { call in
            deepest = max(deepest, call.state.depth)
            try call.state.run(source: "again()", chunkName: "n.lua")
            return 0
        }
        let e = expectLuaError(s, "again()", chunk: "n.lua")
        #expect(e?.message.contains("too many nested calls between Lua and Swift (limit 100)") == true
                || e?.message.contains("C stack overflow") == true, "\(e?.message ?? "")")
        #expect(deepest <= LuaState.maxDepth)
        #expect(s.depth == 0)
        #expect(try s.evaluate("return 3") == .int(3))
        // Moderate nesting works.
        var levels = 0
        s.register("nest") { call in
            levels += 1
            let n = try call.int(1)
            if n > 0 { try call.state.run(source: "nest(\(n - 1))", chunkName: "m.lua") }
            return 0
        }
        try s.run(source: "nest(20)", chunkName: "m.lua")
        #expect(levels == 21)
    }
}

