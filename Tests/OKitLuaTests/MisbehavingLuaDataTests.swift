import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// Lua that misbehaves must not lose or half-write data: a store asked for inside a transaction stores only what
/// it committed, a migration cannot store its half-done work, a failed command's rollback is linear, and a date
/// okit cannot hold is refused (lua-api.md "Transactions", "Schema versions", "Dates").
@Suite struct MisbehavingLuaDataTests {
    static let app = """
        local okit = require "okit"
        okit.entity("Item", { name = "string", when = "date" })
        okit.entity("Root", { name = { "string", default = "Root" }, items = "[Item]" })
        root = okit.model("Root", { seed = function(r) r.items:append(okit.new("Item", { name = "first" })) end })
        """

    func stored(_ t: TempApp) throws -> String {
        try String(contentsOf: t.data.appendingPathComponent("okit/data/default.json"), encoding: .utf8)
    }

    /// A command that writes, calls `okit.storeState()`, then fails: the file holds none of its writes (it held the
    /// rolled-back write, which came back at the next start).
    @Test func aStoreInsideACommandThatFailsStoresNothingOfIt() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch()
        try app.storeState()
        #expect(throws: (any Error).self) {
            try app.engine.transaction {
                try app.run(#"root.name = "stored-then-failed"; okit.storeState(); okit.store(root); error("after store")"#, chunkName: "c.lua")
            }
        }
        #expect(!(try stored(t)).contains("stored-then-failed"), "the rolled-back write is not stored")
        try app.run(#"assert(root.name == "Root", root.name)"#, chunkName: "r.lua")
        // A nested transaction that fails drops its own store; the command's store runs once it commits.
        try app.engine.transaction {
            try app.run("""
            local ok = pcall(okit.transaction, function() root.name = "inner"; okit.storeState(); error("x") end)
            assert(not ok)
            root.items[1].name = "committed"
            okit.storeState()
            """, chunkName: "c2.lua")
            #expect(!(try stored(t)).contains("committed"), "not stored before the command commits")
        }
        let json = try stored(t)
        #expect(json.contains("committed") && !json.contains("inner"), "\(json)")
        app.session.closeDataFolder()
    }

    /// A migration that stores mid-way and then fails left the file half-migrated (version 2 header, some
    /// records converted) while okit said nothing was changed; the store is refused there now, and the data stays
    /// version 1.
    @Test func aMigrationCannotStoreItsHalfDoneWork() throws {
        let v1 = """
            local okit = require "okit"
            okit.entity("P", { name = "string", tag = "string" })
            okit.entity("R", { ps = "[P]" })
            root = okit.model("R", { seed = function(r) for i = 1, 3 do r.ps:append(okit.new("P", { name = "p" .. i, tag = tostring(i) })) end r.ps[3].tag = "x7" end })
            okit.app { id = "mig", version = 1 }
            """
        let v2 = """
            local okit = require "okit"
            okit.entity("P", { name = "string", tag = "int" })
            okit.entity("R", { ps = "[P]" })
            root = okit.model("R")
            okit.app { id = "mig", version = 2 }
            okit.migrate(1, function(model, raw)
              for i, p in ipairs(model.ps) do
                p.name = p.name .. "!"
                if i == 2 then pcall(okit.storeState) end
                local n = tonumber(raw.ps[i].tag); if not n then error("bad tag " .. raw.ps[i].tag) end
                p.tag = n
              end
            end)
            """
        let t = try TempApp(["v1.lua": v1, "v2.lua": v2, "v2b.lua": v2.replacingOccurrences(of: "pcall(okit.storeState)", with: "okit.storeState()")])
        let first = try t.launch("v1.lua")
        try first.storeState()
        first.session.closeDataFolder()
        let before = try stored(t)
        for file in ["v2.lua", "v2b.lua"] {
            var message = ""
            do { _ = try t.launch(file) } catch { message = "\(error)" }
            #expect(message.contains("nothing was changed"), "\(message)")
            #expect(try stored(t) == before, "the stored data is left as it is")
            if file == "v2b.lua" {
                #expect(message.contains("okit.storeState() inside a migration"), "\(message)")
            }
        }
    }

    /// Undoing N appends examines O(N) elements (it scanned from the front for each: 20,000 appends then an error
    /// took 4.8 s).
    @Test func theRollbackOfManyAppendsIsLinear() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch()
        let n = 5_000
        let work = app.engine.rollbackWork
        #expect(throws: (any Error).self) {
            try app.engine.transaction {
                try app.run("for i = 1, \(n) do root.items:append(okit.new(\"Item\", { name = \"x\" .. i })) end error(\"boom\")", chunkName: "c.lua")
            }
        }
        let examined = app.engine.rollbackWork - work
        #expect(examined <= 2 * n, "\(examined) elements examined to undo \(n) appends")
        try app.run(#"assert(#root.items == 1 and root.items[1].name == "first", #root.items)"#, chunkName: "r.lua")
        // Inserts at the front, a map's puts: each found where it was put too.
        let front = app.engine.rollbackWork
        #expect(throws: (any Error).self) {
            try app.engine.transaction {
                try app.run("for i = 1, \(n) do root.items:add(okit.new(\"Item\", { name = \"y\" .. i })) end error(\"boom\")", chunkName: "c.lua")
            }
        }
        #expect(app.engine.rollbackWork - front <= 2 * n)
        try app.run(#"assert(#root.items == 1 and root.items[1].name == "first", #root.items)"#, chunkName: "r.lua")
    }

    /// A date okit cannot hold came back as another instant after a store; it is refused, naming the range.
    @Test func aDateOutsideTheYearsOkitHoldsIsRefused() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch()
        try app.run("""
        local it = root.items[1]
        for _, v in ipairs({ 1e18, -1e15, "0000-06-01T00:00:00Z", 253402300800, -62135596801 }) do
          local ok, err = pcall(function() it.when = v end)
          assert(not ok and tostring(err):find("(a date from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z)", 1, true), tostring(v) .. ": " .. tostring(err))
        end
        local ok, err = pcall(function() it.when = okit.date.parse("2020-01-01T00:00:00Z") + 1e15 end)
        assert(not ok, "date arithmetic past the range")
        it.when = "0001-01-01T00:00:00Z"
        it.when = "9999-12-31T23:59:59Z"
        """, chunkName: "d.lua")
    }

    /// A refused value says why: out of range, not finite, not UTF-8 text; a huge number is shown short.
    @Test func aRefusedValueSaysWhy() throws {
        let t = try TempApp(["app.lua": Self.app.replacingOccurrences(of: "when = \"date\"", with: "when = \"date\", n = \"int\"")])
        let app = try t.launch()
        try app.run("""
        local it = root.items[1]
        local function refused(v, field, words)
          local ok, err = pcall(function() it[field] = v end)
          assert(not ok and tostring(err):find(words, 1, true), tostring(v) .. ": " .. tostring(err))
          return tostring(err)
        end
        refused(2^63, "n", "(out of range: a whole number from -9223372036854775808 to 9223372036854775807)")
        refused(0/0, "n", "(a finite number")
        local e = refused(1e300, "n", "cannot write 1e+300 to")
        assert(#e < 300, e)
        refused("\\xff\\xfe\\x00\\x01", "name", "(the bytes are not UTF-8 text")
        """, chunkName: "v.lua")
    }

    /// `okit.every(0, f)` ran every millisecond without a word; NaN was "must be ≥ 0"; a timer's error names where
    /// the timer was set.
    @Test func timersRefuseWhatTheyCannotDoAndNameTheirSite() throws {
        let t = try TempApp(["app.lua": Self.app + "\nokit.after(5, function() error(\"boom\") end)\n"])
        let app = try t.launch()
        try app.run("""
        local function refused(f, words)
          local ok, err = pcall(f)
          assert(not ok and tostring(err):find(words, 1, true), tostring(err))
        end
        refused(function() okit.every(0, function() end) end, "okit.every: seconds must be at least 0.001 (got 0)")
        refused(function() okit.after(0/0, function() end) end, "okit.after: seconds must be a finite number ≥ 0")
        refused(function() okit.every(math.huge, function() end) end, "seconds must be a finite number ≥ 0")
        refused(function() okit.after(-1, function() end) end, "okit.after: seconds must be ≥ 0 (got -1)")
        """, chunkName: "t.lua")
        let errors = app.session.advance(10).map { "\($0)" }
        #expect(errors.count == 1 && errors[0].hasPrefix("app.lua:5: the timer okit.after(5, …) failed: app.lua:5: boom"), "\(errors)")
    }
}

