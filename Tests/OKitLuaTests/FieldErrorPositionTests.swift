import Foundation
import Testing
@testable import OKitLua

/// A load error about one field of `okit.entity` is at the field's name in the file (line and column), as a
/// misspelled rule key is — not at the line of `okit.entity(`: in a large entity the author goes straight to it.
@Suite struct FieldErrorPositionTests {
    /// `okit.entity("Loan", { … })` with `field` on line 4, column 3.
    static func loan(_ field: String) -> String {
        """
        okit.entity("Tool", { name = "string" })
        okit.entity("Loan", {
          who = "string",
          \(field),
          note = "string?",
        })
        okit.entity("Shop", { loans = "[Loan]", tools = "[Tool]" })
        okit.model("Shop")
        """
    }

    @Test(arguments: [
        ("tool = \"ref Tol\"", "app.lua:4:3: okit.entity(\"Loan\"), field \"tool\": unknown field type or entity type \"Tol\""),
        ("tool = { \"ref Tol\", required = true }", "app.lua:4:3: okit.entity(\"Loan\"), field \"tool\": unknown field type or entity type \"Tol\""),
        ("tools = \"[Tol]\"", "app.lua:4:3: okit.entity(\"Loan\"), field \"tools\": unknown field type or entity type \"Tol\""),
        ("days = { default = 7 }", "app.lua:4:3: okit.entity(\"Loan\"), field \"days\": the long form needs the type first"),
        ("days = { \"int\", default = \"many\" }", "app.lua:4:3: okit.entity: entity type \"Loan\", field \"days\": bad default"),
        ("days = 7", "app.lua:4:3: okit.entity(\"Loan\"), field \"days\": expected a type string"),
        ("id = \"string\"", "app.lua:4:3: okit.entity: entity type \"Loan\": \"id\" is a reserved name"),
        ("days = { \"int\", maxLength = \"40\" }", "app.lua:4:32: okit.entity(\"Loan\"), field \"days\": maxLength must"),   // at the rule's value, as before
        ("daus = { \"int\", requierd = true }", "app.lua:4:19: okit.entity(\"Loan\"), field \"daus\": unknown key \"requierd\""),
    ])
    func anErrorAboutOneFieldIsAtTheField(_ field: String, _ expected: String) throws {
        let error = try DeclarationTypoTests.loadError(Self.loan(field))
        #expect(error?.hasPrefix(expected) == true, "\(error ?? "loaded")")
    }

    /// A number written as a text the field does not read (a German `"4,5"`) is told how Lua writes it.
    @Test(arguments: [
        ("fee = { \"double\", default = \"4,5\" }", "write the number as Lua writes it, without quotes: default = 4.5"),
        ("days = { \"int\", default = \"7,0\" }", "write the number as Lua writes it, without quotes: default = 7"),
        ("days = { \"int\", default = \"many\" }", "a number field's default is a Lua number, without quotes"),
    ])
    func aNumberDefaultWrittenAsATextSaysHowToWriteIt(_ field: String, _ advice: String) throws {
        let error = try DeclarationTypoTests.loadError(Self.loan(field))
        #expect(error?.hasPrefix("app.lua:4:3:") == true, "\(error ?? "loaded")")
        #expect(error?.contains(advice) == true, "\(error ?? "loaded")")
    }
}
