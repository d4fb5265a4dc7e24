import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// What a text cell bound to a number or an optional field does with a person's text (a German app written from
/// the docs): a number no field holds is refused in the app's language, naming the cell by its title and quoting
/// what was typed, not as `cannot write 100000000000000000000 to field "interval" of type int`; an int cell's
/// example is a whole number; an emptied optional field is cleared, its pattern not asked.
@Suite struct CellTextRefusalTests {
    static let app = """
    local okit = require "okit"
    okit.strings("de", { ["Pot size"] = "Topfgröße", ["Interval"] = "Intervall", ["Code"] = "Kürzel", ["Notes"] = "Notizen" })
    okit.entity("Plant", { name = "string", interval = "int", potSize = "double", notes = "string?",
      code = { "string?", pattern = "^%u%u%d+$", message = "A code is two capitals and digits, like AB12" } })
    okit.entity("Garden", { plants = "[Plant]" })
    garden = okit.model("Garden", { seed = function(r)
      r.plants:append(okit.new("Plant", { name = "Monstera", interval = 7, potSize = 12.5, code = "AB12", notes = "Ost" })) end })
    okit.list("plants", { dataPath = "plants", cell = { path = "name" }, segue = "plant" })
    okit.detail("plant", { sections = { {
      okit.cell.text { path = "%Interval", textPath = "interval" },
      okit.cell.text { path = "%Pot size", textPath = "potSize" },
      okit.cell.text { path = "%Code", textPath = "code" },
      okit.cell.text { path = "%Notes", textPath = "notes" } } } })
    okit.app { home = "plants" }
    """

    /// The refusals of a script's `app:set`, one per line, each `cell value → error` (or `ok`).
    static let refusals = """
    app:tap(1); app:edit(true)
    local function refused(cell, value)
      local ok, err = pcall(app.set, app, cell, value)
      return ok and "ok" or tostring(err)
    end

    """

    @Test func aNumberNoFieldHoldsIsRefusedInTheAppsLanguage() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.language = "de" }
        app.installAppGlobal()
        let range = "liegt außerhalb des Bereichs: eine ganze Zahl von -9.223.372.036.854.775.808 bis 9.223.372.036.854.775.807"
        try app.run(Self.refusals + """
        local function expect(cell, value, want)
          local got = refused(cell, value)
          assert(got == want, cell .. " " .. tostring(value) .. ": " .. got)
        end
        expect("Intervall", "99999999999999999999", "Intervall: „99999999999999999999“ \(range)")
        expect("Intervall", "9223372036854775808", "Intervall: „9223372036854775808“ \(range)")
        expect("Intervall", "1e400", "Intervall: „1e400“ ist als Zahl zu groß")
        expect("Topfgröße", "1e400", "Topfgröße: „1e400“ ist als Zahl zu groß")
        expect("Topfgröße", "NaN", "Topfgröße: „NaN“ ist keine Zahl wie 1.234,56")
        expect("Topfgröße", "inf", "Topfgröße: „inf“ ist keine Zahl wie 1.234,56")
        expect("Intervall", "abc", "Intervall: „abc“ ist keine Zahl wie 1.234")
        expect("Intervall", "", "Intervall: „“ ist keine Zahl wie 1.234")
        assert(garden.plants[1].interval == 7 and garden.plants[1].potSize == 12.5, "nothing changed")
        expect("Intervall", "9223372036854775807", "ok")
        assert(garden.plants[1].interval == math.maxinteger, "an int's largest value, exactly")
        expect("Intervall", "9.223.372.036.854.775.806", "ok")
        assert(garden.plants[1].interval == math.maxinteger - 1, "as German groups it, exactly")
        expect("Topfgröße", "1.000.000.000.000.000.000.000", "ok")
        assert(garden.plants[1].potSize == 1e21)
        """)
    }

    @Test func anIntCellsExampleIsAWholeNumberInEveryLanguage() throws {
        let t = try TempApp(["app.lua": Self.app])
        for language in ["en", "de", "es", "fr", "it", "pt"] {
            let app = try t.launch { $0.language = language }
            app.installAppGlobal()
            let e = app.engine
            let whole = try #require(e.formatters.format(.int(1234), .decimal(digits: nil), locale: e.locale))
            try app.run(Self.refusals + """
            local got = refused(okit.localize("Interval"), "x")
            assert(got:sub(-#"\(whole)") == "\(whole)" and not got:find("56", 1, true), got)
            """)
        }
    }

    @Test func anEmptiedOptionalFieldIsClearedWithoutItsPattern() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.language = "de" }
        app.installAppGlobal()
        try app.run(Self.refusals + """
        local p = garden.plants[1]
        assert(refused("Kürzel", "A1") == "A code is two capitals and digits, like AB12", "a text that is there is checked")
        assert(refused("Kürzel", "") == "ok" and p.code == nil, "emptied: cleared, the pattern not asked")
        assert(refused("Notizen", "") == "ok" and p.notes == nil)
        p.notes = "Ost"
        assert(refused("Notizen", nil) == "ok" and p.notes == nil, "a program's nil clears it too")
        assert(refused("Intervall", "") ~= "ok" and p.interval == 7, "a field that is not optional is not cleared")
        """)
    }
}
