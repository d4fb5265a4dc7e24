import Foundation
import Testing
@testable import OKitLua

/// Lua values, fuzzed (issue 13: cyclic and deep tables crashed the conversion): from a fixed seed, random tables —
/// nested up to 150 levels, with cycles through any level, mixed keys, huge borders — are passed to every place okit
/// converts a Lua value (okit.new, a field write, okit.set, a collection append). Each succeeds or fails with a
/// short message; the app answers afterwards and its data stays readable.
@Suite struct LuaValueFuzzTests {
    @Test func randomTablesFailWithShortMessagesAndNeverCrash() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        let seed = ProcessInfo.processInfo.environment["OKIT_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_7AB1E
        try app.run("""
        local seed = \(seed % 2_147_483_647)
        local function rnd(n) seed = (seed * 48271) % 2147483647; return seed % n end
        local function make(depth, all)
          local kind = rnd(9)
          if depth > 150 or kind == 0 or #all > 200 then return ({ 1, "x", true, 2.5, -1 << 62 })[rnd(5) + 1] end
          if kind == 3 then                                                   -- a straight chain, 90 to 160 deep
            local top = {}
            local t = top
            for i = 1, 90 + rnd(70) do t[1] = {} t = t[1] end
            if rnd(2) == 0 then t[1] = top end
            return top
          end
          local t = {}
          all[#all + 1] = t
          for i = 1, rnd(4) do
            local key = ({ i, "name", "price", 1 << rnd(40), -i, 0.5 })[rnd(6) + 1]
            if kind == 1 and #all > 0 then t[key] = all[rnd(#all) + 1]        -- a cycle through any level
            elseif kind == 2 then t[key] = make(depth + 1 + rnd(40), all)       -- deep chains quickly
            else t[key] = make(depth + 1, all) end
          end
          return t
        end
        local shop = okit.models().default
        local book = shop.books:append(okit.new("Book", { name = "Dune" }))
        local entries = {
          function(v) okit.new("Book", v) end,
          function(v) okit.new("Book", { name = v }) end,
          function(v) book.comment = v end,
          function(v) okit.set(book, "name", v) end,
          function(v) shop.books:append(v) end,
          function(v) book.authors:append(v) end,
        }
        FAILURES = {}
        for round = 1, 600 do
          local v = make(0, {})
          local ok, err = pcall(entries[rnd(#entries) + 1], v)
          local message = tostring(err)
          if not ok and (#message == 0 or #message > 400 or message:find("\\n\\n")) then
            FAILURES[#FAILURES + 1] = round .. ": " .. message:sub(1, 120)
          end
        end
        assert(book.name ~= nil and #shop.books >= 1, "the data stays readable")
        """)
        let failures = try app.lua.evaluate("return #FAILURES")
        let shown = try app.lua.evaluate("return table.concat(FAILURES, ' | ')")
        #expect(failures == .int(0), "\(shown)")
        // The app still answers.
        try app.run("okit.new('Book', { name = 'after' })")
    }
}
