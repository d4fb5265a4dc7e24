import Foundation
@testable import OKitLua
import Testing

/// `okit-run check` names each `%key` a binding shows that a language the app gives strings in has no string for
/// (a German page would show the English key), at its line and column; English, the keys' own language, is not
/// held to every key, and an app without strings says nothing.
@Suite struct CheckStringsTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Recipe", { name = "string", notes = "string" })
    okit.entity("Book", { recipes = "[Recipe]" })
    okit.model("Book")
    okit.list("recipes", { dataPath = "recipes", titlePath = "%Recipes", cell = { path = "name" }, segue = "recipe" })
    okit.detail("recipe", { titlePath = "name", sections = { {
      okit.cell.text { path = "%Name", textPath = "name" },
      okit.cell.text { path = "%Notes", textPath = "notes" },
      okit.cell.text { path = "=notes == '' ? '%Empty' : notes" },
    } } })
    okit.app { home = "recipes" }

    """

    @Test func aKeyTheGermanTableLacksIsNamedAtItsColumn() throws {
        let result = try CheckFindingsTests.check(Self.app + """
        okit.strings("de", { Recipes = "Rezepte", Name = "Name", Empty = "Leer" })
        okit.strings("en", { Recipes = "Recipes" })
        """)
        #expect(result.problems.count == 1, "\(result.problems)")
        let line = try #require(result.problems.first)
        #expect(line.hasPrefix("app.lua:8:28: screen recipe"), "\(line)")
        #expect(line.contains("\"%Notes\" has no string in \"de\": a page in German shows \"Notes\""), "\(line)")
        #expect(line.contains("add [\"Notes\"] = \"…\" to okit.strings(\"de\", …)"), "\(line)")
    }

    @Test func keysInExpressionsAndEveryLanguageLackingThemAreNamed() throws {
        let result = try CheckFindingsTests.check(Self.app + """
        okit.strings("de", { Recipes = "Rezepte", Name = "Name", Notes = "Notizen" })
        okit.strings("fr", { Recipes = "Recettes", Name = "Nom", Notes = "Notes" })
        """)
        #expect(result.problems.count == 1, "\(result.problems)")
        let line = try #require(result.problems.first)
        #expect(line.contains("\"%Empty\" has no string in \"de\", \"fr\""), "\(line)")
    }

    @Test func aPrintfPatternWrittenWithTwoPercentSignsIsNoKey() throws {
        let app = Self.app.replacingOccurrences(of: "cell = { path = \"name\" }",
                                                with: "cell = { path = \"name\", detailPath = \"=format(0.5, '%%08.3f')\" }")
        #expect(app != Self.app)
        let result = try CheckFindingsTests.check(app + "okit.strings(\"de\", { Recipes = \"Rezepte\", Name = \"Name\", Notes = \"Notizen\", Empty = \"Leer\" })\n")
        #expect(result.problems == [])
    }

    @Test func englishAndAnAppWithoutStringsSayNothing() throws {
        #expect(try CheckFindingsTests.check(Self.app).problems == [])
        #expect(try CheckFindingsTests.check(Self.app + "okit.strings(\"en\", { Recipes = \"All recipes\" })\n").problems == [])
        let whole = try CheckFindingsTests.check(Self.app + """
        okit.strings("de", { Recipes = "Rezepte", Name = "Name", Notes = "Notizen", Empty = "Leer" })
        """)
        #expect(whole.problems == [])
    }
}
