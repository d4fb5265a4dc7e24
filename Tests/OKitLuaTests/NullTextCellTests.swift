import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua
/// JSON's `null` given a text cell is what `""` is (cli.md): an optional field is cleared, a `string` keeps the
/// empty text, a number refuses it. It was refused as "takes a string" for a `string` field.
@Suite struct NullTextCellTests {
    @Test func nullIsAnEmptyTextForAFieldThatIsNotOptional() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Root", { name = "string", note = "string?", copies = "int" })
        root = okit.model("Root", { seed = function(r) r.name = "Dune"; r.note = "x"; r.copies = 3 end })
        okit.detail("home", { editAlways = "#true", sections = { {
          okit.cell.text { id = "n", path = "#Name", textPath = "name" },
          okit.cell.text { id = "o", path = "#Note", textPath = "note" },
          okit.cell.text { id = "c", path = "#Copies", textPath = "copies" } } } })
        okit.app { home = "home" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("set", ["cell": .string("n"), "value": .null])
        try app.driver.run("set", ["cell": .string("o"), "value": .null])
        #expect(try app.lua.evaluate("return root.name") == .string(""))
        #expect(try app.lua.evaluate("return root.note == nil") == .bool(true))
        #expect(throws: (any Error).self) { try app.driver.run("set", ["cell": .string("c"), "value": .null]) }
        #expect(throws: (any Error).self) { try app.driver.run("set", ["cell": .string("c"), "value": .string("")]) }
        #expect(try app.lua.evaluate("return root.copies") == .int(3))
    }
}
