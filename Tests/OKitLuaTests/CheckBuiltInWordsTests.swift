import Foundation
@testable import OKitEngine
@testable import OKitLua
import Testing

/// What a person would meet in English (or as a raw key) on a page in another language, found by `okit-run check`
/// (a new user's Spanish library app): okit's own words in a language okit has no table for.
@Suite struct CheckBuiltInWordsTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Recipe", { name = "string", kind = "string", portions = "int", vegan = "bool" })
    okit.entity("Book", { recipes = "[Recipe]" })
    okit.model("Book")
    okit.list("recipes", { dataPath = "recipes", titlePath = "%Recipes", cell = { path = "name" }, segue = "recipe" })
    okit.detail("recipe", { titlePath = "name", sections = { {
      okit.cell.text { path = "%Name", textPath = "name" },
    } } })
    okit.app { home = "recipes" }

    """

    /// An app in Dutch, which okit has no words for: its own strings lack okit's, so the check says so once, at the
    /// language of its first `okit.strings`, with the count, the first words and how to add them (the app gives
    /// Back, Edit and Name).
    @Test func aLanguageWithoutOKitsWordsIsNamedOnceWithTheWordsItLacks() throws {
        let result = try CheckFindingsTests.check(Self.app + """
        okit.strings("nl", { Recipes = "Recepten", Name = "Naam", Back = "Terug" })
        okit.strings("nl", { Edit = "Wijzigen" })
        """)
        let all = BuiltInWord.allCases.count
        #expect(result.problems == [
            "app.lua:10:15: okit.strings(\"nl\"): okit has no Dutch words of its own, and \(all - 3) of its \(all) words have "
                + "no string here, so a page in Dutch shows them in English (Done, Save, Close, Add, Menu, …); add them to "
                + "okit.strings(\"nl\", …) with the English text as the key, like [\"Done\"] = \"…\" (docs/built-in-words.md lists every key)",
        ], "\(result.problems)")
    }

    @Test func languagesOKitHasWordsForAndAnAppThatTranslatesThemAllSayNothing() throws {
        for language in ["es", "fr", "it", "pt", "pt_BR", "de", "en"] {
            let result = try CheckFindingsTests.check(Self.app + "okit.strings(\"\(language)\", { Recipes = \"R\", Name = \"N\" })\n")
            #expect(result.problems == [], "\(language): \(result.problems)")
        }
        let every = BuiltInWord.allCases.map { "[\"\($0.rawValue.replacingOccurrences(of: "\"", with: "\\\""))\"] = \"x\"" }
        let result = try CheckFindingsTests.check(Self.app + "okit.strings(\"nl\", { Recipes = \"R\", Name = \"N\", \(every.joined(separator: ", ")) })\n")
        #expect(result.problems == [], "\(result.problems)")
    }
}
