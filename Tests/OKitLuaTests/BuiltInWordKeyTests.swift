import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// lua-api.md's own prompt example (`actions = { "%OK", "%Cancel" }`) in a German app whose strings do not give
/// OK and Cancel showed English `Cancel`, and `respond Abbrechen` failed: a `%key` the app's strings lack that is
/// one of okit's own words shows okit's word in the app's language; the app's own string still wins.
@Suite struct BuiltInWordKeyTests {
    static let app = """
    local okit = require "okit"
    okit.strings("de", { ["Rename"] = "Umbenennen" })
    okit.entity("Plant", { name = "string",
      rename = function(self)
        okit.prompt { title = "%Rename", fields = { { placeholder = "%Name", value = self.name } },
          actions = { "%OK", "%Cancel" },
          onAction = function(choice, values) if choice == 1 then self.name = values[1] end end }
      end })
    okit.entity("Garden", { plants = "[Plant]" })
    garden = okit.model("Garden", { seed = function(r) r.plants:append(okit.new("Plant", { name = "Monstera" })) end })
    okit.list("plants", { titlePath = "%Delete", dataPath = "plants", cell = { path = "name" }, tap = "rename()" })
    okit.app { home = "plants" }

    """

    @Test func aKeyThatIsOneOfOKitsWordsShowsItsWordInTheAppsLanguage() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.language = "de" }
        app.installAppGlobal()
        try app.run("""
        local s = app:tap(1)
        assert(s.alert.actions[1] == "OK" and s.alert.actions[2] == "Abbrechen", s.alert.actions[2])
        assert(s.alert.fields[1].placeholder == "Name" and s.alert.title == "Umbenennen")
        app:respond("Abbrechen")
        assert(garden.plants[1].name == "Monstera" and app:screen().alert == nil)
        assert(okit.localize("Cancel") == "Abbrechen" and okit.get(nil, "%Delete") == "Löschen")
        assert(okit.localize("Confirm Deletion") == "Löschen bestätigen")
        assert(okit.localize("Plant") == "Plant", "any other key stays itself")
        """)
    }

    @Test func theAppsOwnStringWinsAndALanguageWithoutOKitsWordsShowsTheKey() throws {
        let t = try TempApp(["app.lua": Self.app + "okit.strings(\"de\", { Cancel = \"Lieber nicht\" })\n"])
        for (language, check) in [("de", "okit.localize('Cancel') == 'Lieber nicht' and okit.localize('OK') == 'OK'"),
                                  ("es", "okit.localize('Cancel') == 'Cancelar' and okit.localize('OK') == 'Aceptar'"),
                                  ("nl", "okit.localize('Cancel') == 'Cancel'")] {
            let app = try t.launch { $0.language = language }
            try app.run("assert(\(check), '\(language): ' .. okit.localize('Cancel'))")
        }
    }

    /// `okit-run check` names a `%key` a language's strings lack, except one okit shows its own word for there.
    @Test func checkDoesNotReportAKeyOKitHasAWordFor() throws {
        let de = try CheckFindingsTests.check(Self.app)
        #expect(!de.problems.contains { $0.contains("%Delete") }, "\(de.problems)")
        let nl = try CheckFindingsTests.check(Self.app + "okit.strings(\"nl\", { Rename = \"Hernoemen\" })\n")
        #expect(nl.problems.contains { $0.contains("\"%Delete\" has no string in \"nl\"") }, "\(nl.problems)")
    }
}
