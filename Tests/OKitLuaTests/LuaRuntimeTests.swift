import CLua
import Foundation
import Testing
@testable import OKitLua

/// A sandboxed state with a small memory limit, for the runtime, sandbox and limits tests.
func runtimeTestState(memoryLimit: Int = 32 << 20, _ configure: (inout LuaSandbox) -> Void = { _ in }) throws(LuaError) -> LuaState {
    let s = try LuaState(memoryLimit: memoryLimit)
    var box = LuaSandbox()
    box.print = { _ in }
    configure(&box)
    try box.apply(to: s)
    return s
}

/// Runs `source` expecting a Lua error, and returns it.
func expectLuaError(_ s: LuaState, _ source: String, chunk: String = "app.lua",
                    sourceLocation: SourceLocation = #_sourceLocation) -> LuaError? {
    do {
        try s.run(source: source, chunkName: chunk)
        Issue.record("no error for: \(source)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

private final class Probe {
    var value = 0
}

private struct CustomFailure: Error, CustomStringConvertible {
    var description: String { "custom failure" }
}

@Suite struct LuaRuntimeTests {
    @Test func everyValueKindConvertsBothWays() throws {
        let s = try runtimeTestState()
        let cases: [LuaValue] = [
            .nil, .bool(true), .bool(false), .int(42), .int(-7), .int(Int64.max), .int(Int64.min),
            .double(2.5), .double(3.0), .double(-0.5), .double(9.3e18), .double(.infinity),
            .string(""), .string("héllo ✓"), .string("a\u{0}b\u{0}"), .bytes([0xff, 0xfe, 0x00, 0x41]),
            .array([.int(1), .string("x"), .bool(false), .double(1.0)]),
            .map([.string("k"): .int(1), .int(7): .string("seven"), .double(1.5): .bool(true), .bool(true): .int(0)]),
            .map([.string("nested"): .array([.array([.int(1)]), .map([.string("deep"): .string("yes")])])]),
        ]
        let top = s.top
        for v in cases {
            s.push(v)
            s.setGlobal("v")
            #expect(try s.evaluate("return v") == v, "\(v)")
        }
        #expect(s.top == top, "the stack is left as it was")
    }

    @Test func integersAndFloatsStayApart() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate("return 10 / 2") == .double(5))
        #expect(try s.evaluate("return 7 // 2") == .int(3))
        #expect(try s.evaluate("return 2^53") == .double(9_007_199_254_740_992))
        #expect(try s.evaluate("return math.maxinteger + 1") == .int(Int64.min), "integer arithmetic wraps")
        #expect(try s.evaluate("return '12'") == .string("12"), "numeric strings stay strings")
        s.push(.double(3))
        s.setGlobal("f")
        s.push(.int(3))
        s.setGlobal("i")
        #expect(try s.evaluate("return math.type(f) .. ' ' .. math.type(i) .. ' ' .. tostring(f)") == .string("float integer 3.0"))
        #expect(try s.evaluate("return 0/0").isNaN)
    }

    @Test func stringsKeepEveryByte() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate("return #'a\\0b'") == .int(3))
        #expect(try s.evaluate("return 'a\\0b'") == .string("a\u{0}b"))
        #expect(try s.evaluate("return '\\xff\\x00'") == .bytes([0xff, 0]))
        s.push(bytes: [0x80, 0x81])
        s.setGlobal("b")
        #expect(try s.evaluate("return #b .. ':' .. b:byte(2)") == .string("2:129"))
        // A number is never converted in place when read as a key.
        #expect(try s.evaluate("return { [1] = 'a', [2] = 'b', [3] = 'c' }") == .array([.string("a"), .string("b"), .string("c")]))
    }

    @Test func tablesBecomeArraysOnlyForExactSequences() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate("return {}") == .table(array: [], hash: [:]))
        #expect(try s.evaluate("return {1, 2, 3}") == .array([.int(1), .int(2), .int(3)]))
        #expect(try s.evaluate("return {1, nil, 3}") == .map([.int(1): .int(1), .int(3): .int(3)]))
        #expect(try s.evaluate("return {1, 2, x = 1}") == .map([.int(1): .int(1), .int(2): .int(2), .string("x"): .int(1)]))
        #expect(try s.evaluate("return {[2] = 'b'}") == .map([.int(2): .string("b")]))
        #expect(try s.evaluate("return {[2.0] = 'b', [1] = 'a'}") == .array([.string("a"), .string("b")]), "2.0 is the key 2")
        #expect(try s.evaluate("return print") == .opaque("function"))
        #expect(try s.evaluate("return coroutine.create(print)") == .opaque("thread"))
    }

    @Test func cyclesAndDepthAreRefusedCleanly() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate("local t = {}; t.self = t; return t") == .map([.string("self"): .opaque("table")]))
        try s.run(source: "cyclic = {}; cyclic.a = { back = cyclic }", chunkName: "c.lua")
        s.pushGlobal("cyclic")
        #expect(throws: LuaError.self) { try s.checkedValue(at: -1) }
        do { _ = try s.checkedValue(at: -1) } catch {
            #expect(error.kind == .host)
            #expect(error.message.contains("cycle"))
        }
        s.pop()
        try s.run(source: "deep = {} local t = deep for i = 1, 150 do t.n = {} t = t.n end", chunkName: "d.lua")
        s.pushGlobal("deep")
        do { _ = try s.checkedValue(at: -1); Issue.record("no error") } catch {
            #expect(error.message.contains("deeper than 100"))
        }
        s.pop()
        // The same table twice (not a cycle) is fine.
        #expect(try s.evaluate("local t = {1} return {t, t}") == .array([.array([.int(1)]), .array([.int(1)])]))
    }

    @Test func syntaxErrorsNameFileAndLine() throws {
        let s = try runtimeTestState()
        let e = expectLuaError(s, "local x = 1\nlocal y = = 2")
        #expect(e?.kind == .syntax)
        #expect(e?.message.hasPrefix("app.lua:2:") == true)
        #expect(e?.chunk == "app.lua")
        #expect(e?.line == 2)
        let binary = expectLuaError(s, "\u{1b}Lua\u{54}\u{00}")
        #expect(binary?.kind == .syntax)
        #expect(binary?.message.contains("binary chunk") == true)
    }

    @Test func runtimeErrorsCarryPositionAndTraceback() throws {
        let s = try runtimeTestState()
        let e = expectLuaError(s, "local a = 1\nlocal function f()\n  error('boom')\nend\nf()", chunk: "lib/app.lua")
        #expect(e?.kind == .runtime)
        #expect(e?.message == "lib/app.lua:3: boom")
        #expect(e?.line == 3)
        #expect(e?.traceback?.hasPrefix("stack traceback:") == true)
        #expect(e?.traceback?.contains("lib/app.lua:5: in main chunk") == true)
        #expect(expectLuaError(s, "local t = nil\nreturn t.x")?.message.hasPrefix("app.lua:2: attempt to index a nil value") == true)
        #expect(expectLuaError(s, "error({})")?.message == "(error object is a table value)")
        #expect(expectLuaError(s, "error(setmetatable({}, { __tostring = function() return 'E!' end }))")?.message == "E!")
        #expect(expectLuaError(s, "local function f() error('lvl', 2) end\n\nf()")?.message == "app.lua:3: lvl")
        #expect(expectLuaError(s, "error('bare', 0)")?.message == "bare")
        #expect(expectLuaError(s, "error()")?.message == "(error object is a nil value)")
        #expect(expectLuaError(s, "error(42)")?.message == "42", "a number raised reads as its text, as lua.c says it")
    }

    @Test func swiftErrorsBecomeCatchableLuaErrorsAfterDefersRun() throws {
        let s = try runtimeTestState()
        var deferred = 0
        s.register("fail") { call in
            defer { deferred += 1 }
            throw LuaRaise("nope: \(try call.string(1))")
        }
        let v = try s.evaluate("local ok, err = pcall(function() fail('x') end); return err", chunkName: "t.lua")
        #expect(v == .string("t.lua:1: nope: x"))
        #expect(deferred == 1)
        #expect(expectLuaError(s, "\nfail(5)", chunk: "t.lua")?.message == "t.lua:2: bad argument #1 to 'fail' (string expected, got number)")
        #expect(deferred == 2)
        #expect(expectLuaError(s, "fail()", chunk: "t.lua")?.message == "t.lua:1: bad argument #1 to 'fail' (string expected, got no value)")
        s.register("custom") { _ in throw CustomFailure() }
        #expect(expectLuaError(s, "custom()", chunk: "t.lua")?.message == "t.lua:1: custom failure")
        s.register("plain") { _ in throw LuaRaise("no position", withPosition: false) }
        #expect(try s.evaluate("return select(2, pcall(plain))") == .string("no position"))
        #expect(s.depth == 0)
    }

    @Test func swiftFunctionsTakeArgumentsAndReturnResults() throws {
        let s = try runtimeTestState()
        s.register("add") { call in call.push(.int(try call.int(1) + call.int(2))) }
        s.register("pair") { call in
            let (n, label) = (try call.number(1), try call.optional(2) { try call.string($0) })   // read before pushing
            call.state.push(n * 2)
            call.state.push(label ?? "none")
            return 2
        }
        #expect(try s.evaluate("return add(2, 3)") == .int(5))
        #expect(try s.evaluate("local a, b = pair(1.5) return a .. b") == .string("3.0none"))
        #expect(try s.evaluate("local a, b = pair(1, 'x') return b") == .string("x"))
        #expect(expectLuaError(s, "add(1.5, 1)")?.message == "app.lua:1: bad argument #1 to 'add' (number has no integer representation)")
        // From a coroutine: the call acts on the coroutine's own stack.
        #expect(try s.evaluate("""
            local co = coroutine.wrap(function(a) local x = add(a, 1); coroutine.yield(x); return add(x, 10) end)
            return co(1) + co()
            """) == .int(2 + 12))
        #expect(try s.evaluate("return select(2, coroutine.resume(coroutine.create(function() add('x') end)))")
            == .string("eval:1: bad argument #1 to 'add' (number expected, got string)"))
    }

    @Test func callsIntoLuaThroughReferences() throws {
        let s = try runtimeTestState()
        try s.run(source: "function sum(...) local n = 0 for _, v in ipairs({...}) do n = n + v end return n, select('#', ...) end",
                  chunkName: "f.lua")
        s.pushGlobal("sum")
        let sum = s.ref()
        #expect(try s.call(sum, [.int(1), .int(2), .double(0.5)]) == [.double(3.5), .int(3)])
        try s.run(source: "function boom() error('bad') end", chunkName: "f.lua")
        s.pushGlobal("boom")
        let boom = s.ref()
        #expect(throws: LuaError.self) { try s.call(boom) }
        let top = s.top
        _ = try? s.call(boom)
        #expect(s.top == top)
        s.close()
        sum.push()   // a reference into a closed state does nothing
        #expect(!sum.isValid)
        do { _ = try s.call(sum); Issue.record("no error") } catch { #expect(error.kind == .host) }
    }

    @Test func protectedHelpersRunMetamethodsSafely() throws {
        let s = try runtimeTestState()
        try s.run(source: """
            obj = setmetatable({}, { __index = function(_, k) if k == 'bad' then error('no ' .. k) end return k .. '!' end,
              __tostring = function() return 'OBJ' end, __len = function() return 42 end })
            """, chunkName: "o.lua")
        s.pushGlobal("obj")
        s.push("hi")
        try s.get(-2)
        #expect(s.string(at: -1) == "hi!")
        s.pop()
        s.push("bad")
        #expect(throws: LuaError.self) { try s.get(-2) }
        #expect(try s.tostring(at: -1) == "OBJ")
        #expect(try s.length(at: -1) == .int(42))
        s.pop()
    }

    @Test func swiftObjectsRoundTripAndAreReleasedByTheCollector() throws {
        let s = try runtimeTestState()
        weak var weakProbe: Probe?
        s.defineMetatable(name: "Probe", methods: [
            "bump": { call in
                let p = try call.object(1, metatable: "Probe", as: Probe.self)
                p.value += Int(try call.int(2))
                return call.push(.int(Int64(p.value)))
            },
        ], index: { call in
            let p = try call.object(1, metatable: "Probe", as: Probe.self)
            if call.stringOrNil(2) == "value" { return call.push(.int(Int64(p.value))) }
            return 0
        }, newindex: { call in
            let p = try call.object(1, metatable: "Probe", as: Probe.self)
            guard call.stringOrNil(2) == "value" else { throw LuaRaise("Probe has no field '\(call.stringOrNil(2) ?? "?")'") }
            p.value = Int(try call.int(3))
            return 0
        }, metamethods: [
            "__tostring": { call in call.push(.string("Probe(\(try call.object(1, metatable: "Probe", as: Probe.self).value))")) },
            "__len": { _ in 0 },
        ])
        do {
            let p = Probe()
            weakProbe = p
            s.pushObject(p, metatable: "Probe")
            s.setGlobal("probe")
        }
        #expect(weakProbe != nil, "Lua keeps the object alive")
        #expect(try s.evaluate("return probe:bump(2)") == .int(2))
        #expect(try s.evaluate("probe.value = 40 return probe.value") == .int(40))
        #expect(try s.evaluate("return tostring(probe)") == .string("Probe(40)"))
        #expect(try s.evaluate("return probe.missing") == .nil)
        #expect(try s.evaluate("return getmetatable(probe)") == .bool(false))
        #expect(try s.evaluate("return select(2, pcall(function() probe.other = 1 end))") == .string("eval:1: Probe has no field 'other'"))
        #expect(try s.evaluate("return select(2, pcall(probe.bump, {}, 1))") == .string("bad argument #1 to 'Probe.bump' (Probe expected, got table)"))
        s.pushGlobal("probe")
        #expect(s.object(at: -1, metatable: "Probe", as: Probe.self) === weakProbe)
        #expect(s.object(at: -1, metatable: "Other", as: Probe.self) == nil)
        #expect(s.metatableName(at: -1) == "Probe")
        s.pop()
        try s.run(source: "probe = nil", chunkName: "g.lua")
        s.collectGarbage()
        #expect(weakProbe == nil, "__gc released the Swift object")
    }

    @Test func swiftFunctionsAreReleasedWithTheirState() throws {
        weak var weakProbe: Probe?
        do {
            let s = try runtimeTestState()
            let p = Probe()
            weakProbe = p
            s.register("touch") { _ in p.value += 1; return 0 }
            try s.run(source: "touch()", chunkName: "t.lua")
            #expect(p.value == 1)
        }
        #expect(weakProbe == nil, "closing the state released the closure and what it captured")
    }

    @Test func preloadedModulesAreRequired() throws {
        let s = try runtimeTestState()
        var loads = 0
        s.preload("native") { call in
            loads += 1
            call.state.newTable()
            call.state.push(function: "native.twice") { c in c.push(.int(try c.int(1) * 2)) }
            call.state.rawSet(-2, "twice")
            return 1
        }
        #expect(try s.evaluate("return require('native').twice(21)") == .int(42))
        #expect(try s.evaluate("return require('native') == require('native')") == .bool(true))
        #expect(loads == 1)
    }

    @Test func loadingFromFilesAndBytes() throws {
        let s = try runtimeTestState()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("script.lua")
        try Data("return '\u{00e9}', 2\n".utf8).write(to: file)
        try s.loadFile(file.path)
        try s.pcall(nargs: 0, nresults: 2)
        #expect(s.value(at: -2) == .string("é"))
        s.pop(2)
        try s.load(bytes: Array("return '".utf8) + [0xff] + Array("'".utf8), chunkName: "b.lua")
        try s.pcall(nargs: 0, nresults: 1)
        #expect(s.value(at: -1) == .bytes([0xff]))
        s.pop()
        do { try s.loadFile(dir.appendingPathComponent("none.lua").path); Issue.record("no error") } catch {
            #expect(error.kind == .host)
        }
        do { try s.load(source: "error('x')", chunkName: "=literal"); try s.pcall(nargs: 0, nresults: 0) } catch {
            #expect(error.message == "literal:1: x")
        }
    }
}

extension LuaValue {
    var isNaN: Bool { if case .double(let d) = self { return d.isNaN }; return false }
}

@Suite struct LuaStateLifetimeTests {
    @Test func closingFromInsideACallbackWaitsForLuaToReturn() throws {
        let s = try runtimeTestState()
        s.register("shutdown") { call in call.state.close(); return 0 }
        try s.run(source: "shutdown() local x = 1 + 1", chunkName: "c.lua")
        #expect(s.isClosed)
        do { try s.run(source: "return 1", chunkName: "c.lua"); Issue.record("no error") } catch {
            #expect(error.kind == .host)
            #expect(error.message == "the Lua state is closed")
        }
        #expect(s.memoryUsed == 0)
    }
}
