import Foundation
@testable import OKitEngine
@testable import OKitLua
import Testing

/// What a person would meet in English (or as a raw key) on a page in another language, found by `okit-run check`
/// (a new user's Spanish library app): okit's own words in a language okit has no table for, plain texts and
/// plural keys shown localized, a flag constant that is always on, help written as a `%key`.
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
        let every = BuiltInWord.allCases.map {
            "[\"\($0.rawValue.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"] = \"x\""
        }
        let result = try CheckFindingsTests.check(Self.app + "okit.strings(\"nl\", { Recipes = \"R\", Name = \"N\", \(every.joined(separator: ", ")) })\n")
        #expect(result.problems == [], "\(result.problems)")
    }

    /// A picker's plain `optionValues`, plain `searchFilters` and the keys `suffixPlural(#copy)` looks up are shown
    /// localized: a language's strings that lack them are named as a `%key` is.
    @Test func plainTextsAndPluralKeysALanguageLacksAreNamed() throws {
        let source = Self.app.replacingOccurrences(of: "cell = { path = \"name\" }, segue", with: """
            cell = { path = "name", detailPath = "portions/suffixPlural(#portion)" },
              searchFilters = "Soup,Cake,Pie", searchFilterPath = "kind", segue
            """).replacingOccurrences(of: "okit.cell.text { path = \"%Name\", textPath = \"name\" },", with: """
            okit.cell.text { path = "%Name", textPath = "name" },
              okit.cell.picker { path = "%Name", id = "k", selectionPath = "kind", optionValues = "Soup,Cake,Bread" },
            """)
        let result = try CheckFindingsTests.check(source + """
        okit.strings("es", { Recipes = "Recetas", Name = "Nombre", Soup = "Sopa", Cake = "Tarta", portion = "ración" })
        """)
        let expected = [
            "app.lua:5:130: screen recipes, property cell.detailPath: \"portions\" (the word suffixPlural(#portion) looks up for many) "
                + "has no string in \"es\": a page in Spanish shows \"2 portions\"; add [\"portions\"] = \"…\" to okit.strings(\"es\", …) (the same word too, if it is one)",
            "app.lua:6:30: screen recipes, property searchFilters: \"Pie\" (a plain searchFilters text, shown localized) "
                + "has no string in \"es\": a page in Spanish shows \"Pie\"; add [\"Pie\"] = \"…\" to okit.strings(\"es\", …) (the same word too, if it is one)",
            "app.lua:9:98: screen recipe, property cell k.optionValues: \"Bread\" (a plain optionValues text, shown localized) "
                + "has no string in \"es\": a page in Spanish shows \"Bread\"; add [\"Bread\"] = \"…\" to okit.strings(\"es\", …) (the same word too, if it is one)",
        ]
        #expect(result.problems == expected, "\(result.problems.joined(separator: "\n"))")
    }

    /// `add = "#falso"` is always on (a flag is off only for #false, #no, #0) and `help = "%Help"` is shown as
    /// written: both are named with what to write; `#no`, `#0`, `#YES` and plain help are not.
    @Test func aFlagConstantThatIsAlwaysOnAndHelpWrittenAsAKeyAreNamed() throws {
        let source = Self.app.replacingOccurrences(of: "segue = \"recipe\" }", with: """
            segue = "recipe", add = "#falso", delete = "#off", edit = "#ture",
              search = "#no", refresh = "#0", reorder = "#YES", help = "%Help text" }
            """).replacingOccurrences(of: "okit.detail(\"recipe\", { titlePath", with: "okit.detail(\"recipe\", { help = \"Tap a recipe.\", titlePath")
        let result = try CheckFindingsTests.check(source)
        #expect(result.problems == [
            "app.lua:5:121: screen recipes, property add: \"#falso\" is always on: a flag is off only for #false, #no or #0 (any other text is on); did you mean \"#false\"?",
            "app.lua:5:140: screen recipes, property delete: \"#off\" is always on: a flag is off only for #false, #no or #0 (any other text is on); did you mean \"#false\"?",
            "app.lua:5:155: screen recipes, property edit: \"#ture\" is always on: a flag is off only for #false, #no or #0 (any other text is on); did you mean \"#true\"?",
            "app.lua:6:61: screen recipes, property help: help is plain text, not a binding: the page shows \"%Help text\" as written, "
                + "in every language; write the text itself: help = \"…\"",
        ], "\(result.problems.joined(separator: "\n"))")
    }
}
