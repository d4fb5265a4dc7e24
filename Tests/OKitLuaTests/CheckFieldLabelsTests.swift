import Foundation
@testable import OKitEngine
@testable import OKitLua
import Testing

/// What a French tester's app showed without a word from `okit-run check`: a rule message naming a field by its
/// raw Lua name (`Categorie est obligatoire`), and the app's own `%Done` string renaming okit's edit-mode button.
@Suite struct CheckFieldLabelsTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Categorie", { nom = { "string", required = true } })
    okit.entity("Depense", {
      libelle   = { "string", required = true, maxLength = 60 },
      categorie = { "ref Categorie", required = true },
      code      = { "string?", pattern = "^%u%u%d+$", message = "Deux majuscules et des chiffres" },
      note      = { "string?", maxLength = 200, label = "Remarque" },
      montant   = { "double", min = { 0.01, message = "Positif" }, max = 500 },
      drapeau   = { "bool", maxLength = 3 },
    })
    okit.entity("Foyer", { depenses = "[Depense]", categories = "[Categorie]" })
    okit.model("Foyer")
    okit.list("depenses", { dataPath = "depenses", titlePath = "%Expenses", cell = { path = "libelle" } })
    okit.app { home = "depenses" }

    """

    /// A field with a rule whose default message names it, no label and no string for its name (or its derived
    /// label) in a language the app gives strings in: once per field and language, at the field's name. Not for a
    /// field with a label, one whose rules all have their own message, one the strings name, or a rule that does
    /// not apply to the field's type.
    @Test func aRuleMessageThatWouldNameAFieldByItsLuaNameIsReported() throws {
        let result = try CheckFindingsTests.check(Self.app + """
        okit.strings("fr", { Expenses = "Dépenses", libelle = "Libellé", Nom = "Nom" })
        okit.strings("de", { Expenses = "Ausgaben", libelle = "Bezeichnung", nom = "Name", categorie = "Kategorie", montant = "Betrag" })
        """)
        #expect(result.problems == [
            "app.lua:5:3: field \"categorie\" of Depense has no string in \"fr\": its rule messages say \"Categorie\" (a page "
                + "in French shows \"Categorie est obligatoire\"); add [\"categorie\"] = \"…\" to okit.strings(\"fr\", …) or give the field a label",
            "app.lua:8:3: field \"montant\" of Depense has no string in \"fr\": its rule messages say \"Montant\" (a page "
                + "in French shows \"Montant doit valoir au plus 500\"); add [\"montant\"] = \"…\" to okit.strings(\"fr\", …) or give the field a label",
            // A rule on a type it does not apply to is the other finding, not this one.
            "app.lua:9:37: entity Depense, field drapeau: maxLength applies to string fields, not to bool fields",
        ], "\(result.problems)")
    }

    /// English is the keys' language: an app with English strings only is not held to them.
    @Test func englishStringsAskForNothing() throws {
        let result = try CheckFindingsTests.check(Self.app + "okit.strings(\"en\", { Expenses = \"Spending\" })\n")
        #expect(result.problems.filter { !$0.contains("field drapeau: maxLength") } == [], "\(result.problems)")
    }

    /// A derived label that is okit's own word of the language, the same text (`Name` in German), reads right.
    @Test func aDerivedLabelThatIsOKitsWordInTheLanguageIsNotReported() throws {
        let app = """
        local okit = require "okit"
        okit.entity("Pet", { name = { "string", required = true } })
        okit.entity("Clinic", { pets = "[Pet]" })
        okit.model("Clinic")
        okit.list("pets", { dataPath = "pets", titlePath = "%Pets", cell = { path = "name" } })
        okit.app { home = "pets" }

        """
        #expect(try CheckFindingsTests.check(app + "okit.strings(\"de\", { Pets = \"Tiere\" })\n").problems == [])
        #expect(try CheckFindingsTests.check(app + "okit.strings(\"fr\", { Pets = \"Animaux\" })\n").problems == [
            "app.lua:2:22: field \"name\" of Pet has no string in \"fr\": its rule messages say \"Name\" (a page in French "
                + "shows \"Name est obligatoire\"); add [\"name\"] = \"…\" to okit.strings(\"fr\", …) or give the field a label",
        ])
        // A field named in the language whose derived label is okit's own word there: `nome` is Italian's `Nome`.
        let italian = app.replacingOccurrences(of: "name = {", with: "nome = {").replacingOccurrences(of: "path = \"name\"", with: "path = \"nome\"")
        #expect(try CheckFindingsTests.check(italian + "okit.strings(\"it\", { Pets = \"Animali\" })\n").problems == [])
        let spanish = app.replacingOccurrences(of: "name = {", with: "nombre = {").replacingOccurrences(of: "path = \"name\"", with: "path = \"nombre\"")
        #expect(try CheckFindingsTests.check(spanish + "okit.strings(\"es\", { Pets = \"Mascotas\" })\n").problems == [])
    }

    static let tasks = """
    local okit = require "okit"
    okit.entity("Tache", { titre = "string", faite = "bool" })
    okit.entity("Foyer", { taches = "[Tache]" })
    okit.model("Foyer")
    okit.list("taches", { dataPath = "taches", titlePath = "%Tasks", cell = { path = "titre" }, segue = "tache" })
    okit.detail("tache", { titlePath = "titre", sections = { {
      okit.cell.switch { path = "%Done", onPath = "faite" },
    } } })
    okit.app { home = "taches" }

    """

    /// The app's string for one of okit's words, used as its own `%key`: okit's word changes on every screen too.
    @Test func anAppsKeyThatIsAlsoOKitsWordIsReportedWhereTheAppUsesIt() throws {
        let result = try CheckFindingsTests.check(Self.tasks + "okit.strings(\"fr\", { Tasks = \"Tâches\", Done = \"Faite\" })\n")
        #expect(result.problems == [
            "app.lua:7:30: screen tache, property cell Done.path: \"Done\" is also okit's edit-mode button, which every "
                + "screen now shows as \"Faite\" in French; give your switch cell another key, e.g. \"%Tache done\", or keep it if you meant both",
        ], "\(result.problems)")
    }

    /// No collision without the app's own text for the word, or when its text is okit's own word of the language,
    /// or when the app overrides okit's word without using the key itself (built-in-words.md).
    @Test func anOverrideAloneOrOKitsOwnWordIsNoCollision() throws {
        for strings in ["Tasks = \"Tâches\"", "Tasks = \"Tâches\", Done = \"Terminé\""] {
            let result = try CheckFindingsTests.check(Self.tasks + "okit.strings(\"fr\", { \(strings) })\n")
            #expect(result.problems == [], "\(strings): \(result.problems)")
        }
        let overrideOnly = Self.tasks.replacingOccurrences(of: "%Done", with: "%Finished")
            + "okit.strings(\"fr\", { Tasks = \"Tâches\", Finished = \"Faite\", Done = \"OK\" })\n"
        let result = try CheckFindingsTests.check(overrideOnly)
        #expect(result.problems == [], "\(result.problems)")
    }
}
