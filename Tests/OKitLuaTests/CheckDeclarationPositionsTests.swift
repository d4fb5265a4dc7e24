import Foundation
@testable import OKitEngine
@testable import OKitLua
import Testing

/// Values refused at load are named at their line and column, with what to write (a new user's Spanish app):
/// a string of `okit.strings` that is not text, a rule of the wrong type, a binding that does not parse; and a
/// misspelled rule name gets the rule it means.
@Suite struct CheckDeclarationPositionsTests {
    /// `okit.strings("es", { Edit = 5, Libros = true })` left the Edit button blank without a word.
    @Test func aStringThatIsNotTextIsRefusedAtItsValue() throws {
        let error = try DeclarationTypoTests.loadError("""
        local okit = require "okit"
        okit.strings("es", { Libros = "Libros" })
        okit.strings("es", { Edit = 5, Libros = true })
        """)
        #expect(error == "app.lua:3:29: okit.strings(\"es\"): the string of \"Edit\" is a number, not text; "
                + "write it in quotes, like Edit = \"…\"; also not text: \"Libros\"", "\(error ?? "loaded")")
        let other = try DeclarationTypoTests.loadError("local okit = require \"okit\"\nokit.strings(\"de\", { [\"Confirm Deletion\"] = {} })\n")
        #expect(other?.hasPrefix("app.lua:2:45: okit.strings(\"de\"): the string of \"Confirm Deletion\" is a table, not text; "
                                 + "write it in quotes, like [\"Confirm Deletion\"] = \"…\"") == true, "\(other ?? "loaded")")
    }

    @Test func aMisspelledRuleNameGetsTheRuleItMeans() throws {
        let error = try DeclarationTypoTests.loadError("""
        local okit = require "okit"
        okit.entity("Libro", { paginas = { "int", minimun = 1 } })
        """)
        #expect(error?.hasPrefix("app.lua:2:43: okit.entity(\"Libro\"), field \"paginas\": unknown key \"minimun\" (did you mean \"min\"?); ") == true,
                "\(error ?? "loaded")")
    }

    @Test func aRuleOfTheWrongTypeIsRefusedAtItsValue() throws {
        let error = try DeclarationTypoTests.loadError("""
        local okit = require "okit"
        okit.entity("Libro", { titulo = { "string", maxLength = "40" },
          paginas = { "int", min = { "1", message = "Al menos una" } } })
        """)
        // Both, in the order they are written; `{ "1", message = … }` at its value.
        #expect(error == "app.lua:2:58: okit.entity(\"Libro\"), field \"titulo\": maxLength must be a whole number of characters, like maxLength = 40\n"
                 + "app.lua:3:31: okit.entity(\"Libro\"), field \"paginas\": min must be a number, like min = 0", "\(error ?? "loaded")")
        let text = try DeclarationTypoTests.loadError("""
        local okit = require "okit"
        okit.entity("Libro", { titulo = { "string", maxLength = "40" } })
        """)
        #expect(text == "app.lua:2:58: okit.entity(\"Libro\"), field \"titulo\": maxLength must be a whole number of characters, like maxLength = 40",
                "\(text ?? "loaded")")
    }

    @Test func aBindingThatDoesNotParseIsRefusedAtItsCharacter() throws {
        let error = try DeclarationTypoTests.loadError("""
        local okit = require "okit"
        okit.entity("B", { t = "string" }); okit.entity("R", { b = "[B]" }); okit.model("R")
        okit.list("l", { dataPath = "b", cell = { path = "t", detailPath = "t/format(\\"yyyy\\")" } })
        okit.detail("d", { sections = { { header = "%Data", okit.cell.text { path = "%Name", textPath = "t[0" } } } })
        """)
        #expect(error == "app.lua:3:78: okit.list(\"l\"), cell, property detailPath: binding \"t/format(\"yyyy\")\": unexpected \"\"\" at column 10; "
                + "texts in bindings are in single quotes: write 'yyyy'", "\(error ?? "loaded")")
        let detail = try DeclarationTypoTests.loadError("""
        local okit = require "okit"
        okit.entity("B", { t = "string" }); okit.entity("R", { b = "[B]" }); okit.model("R")
        okit.detail("d", { sections = { { header = "%Data",
          okit.cell.text { path = "%Name", textPath = "t[0" } } } })
        """)
        // The end of the text (the closing quote) when the binding ends too early.
        #expect(detail?.hasPrefix("app.lua:4:51: okit.detail(\"d\"), okit.cell.text, property textPath: binding \"t[0\": expected \"]\" at column 4") == true,
                "\(detail ?? "loaded")")
    }
}
