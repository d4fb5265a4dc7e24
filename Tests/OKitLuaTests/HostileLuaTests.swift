import CLua
import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// Issue 13, the Lua-runtime holes: attacks a hostile app author can make from app code, each as an outsider
/// would run it (app code in a state or an app, or a spawned okit-run).
@Suite struct HostileLuaTests {
    func text(_ v: LuaValue) -> String {
        if case .string(let s) = v { return s }
        return "\(v)"
    }

    // MARK: Hole 1: coroutines are charged to the budget

    @Test(arguments: [
        "n = 0 while true do n = n + 1 coroutine.wrap(function() for i = 1, 100 do end end)() end",
        "n = 0 while true do n = n + 1 coroutine.resume(coroutine.create(function() for i = 1, 100 do end end)) end",
        "n = 0 while true do n = n + 1 pcall(coroutine.wrap(function() for i = 1, 100 do end end)) end",
    ])
    func manyShortCoroutinesHitTheBudget(_ source: String) throws {
        let s = try runtimeTestState()
        s.budget = 1_000_000
        let e = expectLuaError(s, source, chunk: "spin.lua")
        #expect(e?.kind == .budget, "\(e?.message ?? "")")
        // Each coroutine runs about 400 instructions, each round of the loop a few more: every one is charged,
        // so the budget ends the loop within about 1_000_000 / 400 rounds (it took 200_000 rounds when only the
        // main thread was counted).
        guard case .int(let rounds) = try s.evaluate("return n") else { Issue.record("no round count"); return }
        #expect(rounds < 20_000, "\(rounds) rounds")
    }

    // A pending stop (LuaStop) is process-wide, so it is not requested in this process: another test's Lua code
    // would stop too. RunawaySignalTests sends SIGTERM to an okit-run spinning in coroutines instead.

    // MARK: Hole 2: backtracking patterns are bounded

    @Test func aCatastrophicPatternIsRefusedQuickly() throws {
        let s = try runtimeTestState()
        for source in [
            #"return ("a"):rep(5000):match(("a*"):rep(30) .. "b")"#,
            #"return ("a"):rep(5000):find(("a-"):rep(20) .. "b")"#,
            #"return select(2, ("a"):rep(5000):gsub(("a?"):rep(60) .. "b", ""))"#,
            #"for x in ("a"):rep(3000):gmatch("a*a*a*a*b") do end"#,
            #"return ("x"):rep(400):find(".-.-.-b")"#,
        ] {
            let e = expectLuaError(s, source, chunk: "match.lua")
            #expect(e?.message.contains("pattern too costly on this subject") == true, "\(e?.message ?? "")")
            #expect(e?.message.contains("the pattern cost limit is 1000000000") == true, "\(e?.message ?? "")")
            #expect(e?.message.hasPrefix("match.lua:1:") == true, "\(e?.message ?? "")")
        }
    }

    @Test func everydayPatternsStillWork() throws {
        let s = try runtimeTestState()
        #expect(try s.evaluate(#"return ("  hello world  "):match("^%s*(.-)%s*$")"#) == .string("hello world"))
        let text = String(repeating: "key=value; other=thing\n", count: 4000)   // 92 KB
        s.push(text)
        s.setGlobal("text")
        #expect(try s.evaluate(#"local n = 0 for k, v in text:gmatch("(%w+)=(%w+)") do n = n + 1 end return n"#) == .int(8000))
        #expect(try s.evaluate(#"return select(2, text:gsub("%s+$", ""))"#) == .int(1))
        #expect(try s.evaluate(#"local n = 0 for line in text:gmatch("[^\n]+") do n = n + 1 end return n"#) == .int(4000))
        #expect(try s.evaluate(#"return (text:find("thing\n", 1, true))"#) == .int(18))
        #expect(try s.evaluate(#"return (text:rep(1):sub(1, 3000):gsub("(.-)\n", "%1|"):len())"#) == .int(3000))
        #expect(try s.evaluate(#"return ("(a(b)c)"):match("%b()")"#) == .string("(a(b)c)"))
        #expect(try s.evaluate(#"return ("THE (quick) fox"):find("%f[%a]%a+", 5)"#) == .int(6))
    }

    @Test func thePatternCostLimitCanBeChanged() throws {
        let s = try runtimeTestState { $0.maxPatternCost = 1000 }
        let e = expectLuaError(s, #"return ("a"):rep(100):match("a*a*b")"#)
        #expect(e?.message.contains("the pattern cost limit is 1000)") == true, "\(e?.message ?? "")")
        #expect(try s.evaluate(#"return ("abc"):match("b")"#) == .string("b"))
    }

    // MARK: Hole 4: cyclic and deep tables

    static let conversionEntryPoints = [
        "okit.new('Book', { name = 'x', copies = V })",
        "shop.books[1].copies = V",
        "okit.set(shop.books[1], 'copies', V)",
        "shop.books:append(V)",
        "shop.books[1].authors:append(V)",
    ]

    @Test(arguments: conversionEntryPoints)
    func cyclicAndDeepTablesAreRefusedWithAnError(_ entry: String) throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        for (name, make, expected) in [
            ("cycle", "local V = {} V[1] = V", "a table that contains itself (a cycle)"),
            ("indirect cycle", "local V = {{{}}} V[1][1][1] = V", "a table that contains itself (a cycle)"),
            ("deep", "local V = {} local t = V for i = 1, 100000 do t[1] = {} t = t[1] end",
             "nested deeper than \(LuaState.maxValueDepth) levels"),
            ("border", "local V = {} for i = 0, 40 do V[1 << i] = 1 end", ""),
        ] {
            try app.run("""
            \(make)
            local ok, err = pcall(function() \(entry.replacingOccurrences(of: "V", with: "V")) end)
            RESULT = ok and "ok" or tostring(err)
            """)
            let result = try app.lua.evaluate("return RESULT")
            if expected.isEmpty { continue }   // a border far past the items: no crash, whatever the entry point says
            guard case .string(let message) = result else { Issue.record("\(name): \(result)"); continue }
            #expect(message.contains(expected), "\(name) through \(entry): \(message)")
        }
    }

    @Test func anAppCommandNamesTheArgumentOfACyclicTable() throws {
        let t = try TempApp(["app.lua": shopApp + "\nokit.list('books', { type = 'Book', dataPath = 'books', titlePath = 'name' })\nokit.app { home = 'books' }\n"])
        let app = try t.launch()
        app.installAppGlobal()
        try app.run("local V = {} V[1] = V local ok, err = pcall(function() app:respond('ok', V) end) RESULT = err")
        let message = try app.lua.evaluate("return RESULT")
        #expect(text(message).contains("a table that contains itself (a cycle) cannot be used as a value (app:respond fields)"), "\(message)")
    }

    // MARK: Issue 34 item 8: a table that is a DAG

    /// `t = {t, t}` forty times: 41 tables, but a copy of 2^41 values. Unbounded, each conversion below would run for
    /// hours outside the instruction budget; bounded, it ends with the limit's error.
    static let dag = "local V = {'x'} for i = 1, 40 do V = {V, V} end"

    @Test(arguments: conversionEntryPoints + ["okit.set(shop.books[1], 'authors', V)"])
    func aTableReachedManyTimesIsCountedEachTime(_ entry: String) throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        app.lua.valueCountLimit = 1 << 12   // the limit is reached after thousands of values, not a million
        try app.run("\(HostileLuaTests.dag) local ok, err = pcall(function() \(entry) end) RESULT = ok and 'ok' or tostring(err)")
        let message = text(try app.lua.evaluate("return RESULT"))
        #expect(message.contains("a table with more than 4096 values cannot be used as a value"), "\(entry): \(message)")
        #expect(message.contains("a table reached twice counts twice"), "\(message)")
        try app.run("shop.books[1].copies = 4")   // the app goes on
        #expect(try app.lua.evaluate("return shop.books[1].copies") == .int(4))
    }

    @Test func aDAGIsNamedWhereItWasPassed() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        app.lua.valueCountLimit = 1 << 12
        try app.run("\(HostileLuaTests.dag) local ok, err = pcall(okit.set, shop.books[1], 'authors', V) RESULT = tostring(err)")
        #expect(text(try app.lua.evaluate("return RESULT")).contains("cannot be used as a value (okit.set(\"authors\"))"))
    }

    @Test func copyingADAGOutOfTheStateStops() throws {
        let s = try runtimeTestState()
        s.valueCountLimit = 1 << 12
        try s.run(source: HostileLuaTests.dag + " DAG = V", chunkName: "dag.lua")
        s.pushGlobal("DAG")
        defer { s.pop() }
        do { _ = try s.checkedValue(at: -1); Issue.record("no error") } catch {
            #expect(error.message.contains("a table with more than 4096 values cannot be copied"), "\(error.message)")
        }
        guard case .table = s.value(at: -1) else { Issue.record("the copy stops with what it has"); return }
        // Results of a call are copied the same way (okit.app's declaration is too).
        guard case .table = try s.evaluate("return DAG") else { Issue.record("no copy"); return }
        // Shared tables within the limit are copied whole, each time they are reached.
        func leaves(_ v: LuaValue) -> Int {
            if case .table(let items, _) = v { return items.map(leaves).reduce(0, +) }
            return v == .string("x") ? 1 : 0
        }
        #expect(leaves(try s.evaluate("local V = {'x'} for i = 1, 10 do V = {V, V} end return V")) == 1024)
    }

    @Test func manyConversionsInOneCallStopAtTheBudget() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        app.lua.budget = 5_000_000   // reached after about 300,000 values copied, not 6 million
        // Each field's table is under the value limit (2^17 values), but 100,000 of them in one call would copy
        // 2^34 values: the copies are charged to the budget, so the call ends.
        try app.run("""
        local V = {'x'} for i = 1, 16 do V = {V, V} end
        local fields = {} for i = 1, 100000 do fields['f' .. i] = V end
        local ok, err = pcall(okit.new, 'Book', fields) RESULT = tostring(err)
        """)
        let message = text(try app.lua.evaluate("return RESULT"))
        #expect(message.contains("instruction budget exceeded (\(app.lua.budget) instructions)"), "\(message)")
    }

    /// Lists okit reads item by item (alert actions, prompt fields, okit.state, screen declarations) refuse a border
    /// far past their items (`#t` is 2^40 here; a loop to it would not end), and a prompt field that is not a table
    /// is an error, not a read of memory that is no table's (it crashed).
    @Test func listsOkitReadsAreBoundedAndShapesChecked() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        for (source, expected) in [
            ("okit.alert { title = 't', actions = B }", "okit.alert, actions: a list of 1099511627776 items is too long (the limit is \(LuaState.maxValueCount) items)"),
            ("okit.prompt { title = 't', fields = B }", "okit.prompt, fields: a list of 1099511627776 items is too long"),
            ("okit.state(B)", "okit.state: a list of 1099511627776 items is too long"),
            ("okit.list('l', { type = 'Book', dataPath = 'books', buttons = B })", "screen l, property buttons: a list of 1099511627776 items"),
            ("okit.prompt { title = 't', fields = { 'name' } }", "okit.prompt, fields[1]: expected a table { placeholder = …, value = …, secure = … }, got string"),
        ] {
            // A constructor puts every key in the hash part, so `#B` searches it by doubling: 1, 2, 4 … 2^40.
            let border = "local B = {" + (0...40).map { "[\(1 << $0)] = 'OK'" }.joined(separator: ", ") + "}"
            try app.run("\(border) local ok, err = pcall(function() \(source) end) RESULT = tostring(err)")
            let message = text(try app.lua.evaluate("return RESULT"))
            #expect(message.contains(expected), "\(source): \(message)")
        }
    }

    // MARK: Hole 10: symbolic links out of the app's folder

    @Test func requireAndStringsRefuseLinksOutOfTheAppFolder() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("okit-outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        try "SECRET = 'read'\nreturn {}".write(to: outside.appendingPathComponent("secret.lua"), atomically: true, encoding: .utf8)
        try "\"hello\" = \"secret\";".write(to: outside.appendingPathComponent("secret.strings"), atomically: true, encoding: .utf8)
        let t = try TempApp(["app.lua": "local okit = require 'okit'\n", "lib/inside.lua": "return 1"])
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: t.folder.appendingPathComponent("evil.lua").path,
                                  withDestinationPath: outside.appendingPathComponent("secret.lua").path)
        try fm.createSymbolicLink(atPath: t.folder.appendingPathComponent("lib/evil.lua").path, withDestinationPath: "../../" + outside.lastPathComponent + "/secret.lua")
        try fm.createSymbolicLink(atPath: t.folder.appendingPathComponent("fr.strings").path,
                                  withDestinationPath: outside.appendingPathComponent("secret.strings").path)
        try fm.createSymbolicLink(atPath: t.folder.appendingPathComponent("sub").path, withDestinationPath: outside.path)
        let app = try t.launch()
        for (source, path) in [("require 'evil'", "evil.lua"), ("require 'lib.evil'", "lib/evil.lua"),
                               ("require 'sub.secret'", "sub/secret.lua"), ("okit.strings('fr', 'fr.strings')", "fr.strings"),
                               ("assert(loadfile('evil.lua'))", "evil.lua"), ("dofile('sub/secret.lua')", "sub/secret.lua")] {
            try app.run("local okit = require 'okit' local ok, err = pcall(function() \(source) end) RESULT = tostring(err)")
            let message = text(try app.lua.evaluate("return RESULT"))
            #expect(message.contains("\(path): it leads outside the app's folder"), "\(source): \(message)")
        }
        #expect(try app.lua.evaluate("return SECRET") == .nil, "nothing outside ran")
        try app.run("assert(require('lib.inside') == 1)")
    }

    @Test func aFifoInTheAppFolderIsRefusedNotWaitedOn() throws {
        let t = try TempApp(["app.lua": "local okit = require 'okit'\n"])
        #expect(mkfifo(t.folder.appendingPathComponent("pipe.lua").path, 0o600) == 0)
        let app = try t.launch()
        try app.run("local ok, err = pcall(require, 'pipe') RESULT = tostring(err)")
        #expect(text(try app.lua.evaluate("return RESULT")).contains("pipe.lua: not a regular file"))
    }

    // MARK: Hole 3: binding texts are bounded

    @Test func aHugeBindingTextIsRefusedQuickly() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        for binding in [String(repeating: "books.", count: 20_000) + "name", String(repeating: "=a+", count: 40_000) + "1",
                     String(repeating: "nope,", count: 24_000)] {
            app.lua.push(binding)
            app.lua.setGlobal("TEXT")
            try app.run("local ok, err = pcall(okit.get, nil, TEXT) RESULT = tostring(err)")
            let message = text(try app.lua.evaluate("return RESULT"))
            #expect(message.contains("binding text too long (\(binding.utf8.count) bytes; the limit is 64 KiB)"), "\(message.prefix(300))")
            #expect(message.utf8.count < 1000, "the message shows a short part of the text")
        }
        #expect(app.engine.warnings.allSatisfy { $0.utf8.count <= Engine.maxWarningLength + 100 })
    }

    @Test func warningsAreCappedAndShortened() throws {
        let engine = Engine(schema: Schema(), clock: VirtualClock())
        engine.warn(String(repeating: "x", count: 100_000))
        #expect(engine.warnings[0].utf8.count < Engine.maxWarningLength + 100)
        for i in 0..<5000 { engine.warn("warning \(i)") }
        #expect(engine.warnings.count == Engine.maxWarnings + 1)
        #expect(engine.warnings.last?.contains("more than \(Engine.maxWarnings) warnings") == true)
    }

    // MARK: Hole 6: timers and watches that stop say so

    @Test func timersStoppedAtTheLimitSaySo() throws {
        let t = try TempApp(["app.lua": shopApp + "\nTICKS = 0\nokit.every(0.001, function() TICKS = TICKS + 1 end)\n"])
        let app = try t.launch()
        app.session.advance(1000)
        let ticks = try app.lua.evaluate("return TICKS")
        #expect(ticks == .int(Int64(TimerQueue.maxFirings)), "\(ticks)")
        #expect(app.engine.warnings.contains { $0.contains("timers fired \(TimerQueue.maxFirings) times at one moment (the limit)") && $0.contains("timer 1 (every 0.001 s)") },
                "\(app.engine.warnings)")
    }

    @Test func aWatchThatWritesWhatItWatchesStopsWithAWarningNotAStackOverflow() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("C", { n = "int", m = "int" })
        c = okit.model("C")
        ROUNDS = 0
        W = okit.watch(c, "n", function(v) ROUNDS = ROUNDS + 1; c.n = v + 1 end)
        -- A watch that writes once (it normalizes) settles: the second round sees the new value.
        N = okit.watch(c, "m", function(v) if v < 0 then c.m = 0 end end)
        """])
        let app = try t.launch()
        try app.run("c.n = 1; c.m = -5")
        #expect(try app.lua.evaluate("return ROUNDS") == .int(Int64(WatchRounds.limit)))
        #expect(try app.lua.evaluate("return c.m") == .int(0))
        #expect(app.engine.warnings.contains { $0.contains("okit.watch(\"n\"): its function changed what it watches 100 times in a row; stopped") },
                "\(app.engine.warnings)")
        #expect(!app.engine.warnings.contains { $0.contains("stack overflow") })
    }
}
