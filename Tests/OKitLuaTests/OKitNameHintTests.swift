import Foundation
import Testing
import OKitEngine
import OKitLua

/// A misspelled name of okit's module or of a field type stops the app at load with the name okit has for it
/// (a new user's `okit.cell.txt { … }` was Lua's bare `attempt to call a nil value (field 'txt')`, and
/// `when = "datetime"` named no type).
@Suite struct OKitNameHintTests {
    static func error(_ source: String) -> String {
        do {
            let t = try TempApp(["app.lua": "local okit = require \"okit\"\n" + source])
            _ = try t.launch("app.lua")
            return ""
        } catch { return "\(error)" }
    }

    @Test func aMisspelledCellKindNamesTheKindMeant() {
        let e = Self.error("""
        okit.entity("A", { name = "string" })
        okit.model("A")
        okit.detail("a", { sections = { { okit.cell.txt { path = "name" } } } })
        """)
        #expect(e.contains("app.lua:4: attempt to call a nil value (field 'txt')"), "\(e)")
        #expect(e.contains("okit.cell has no cell kind \"txt\": did you mean okit.cell.text?"), "\(e)")
    }

    @Test func aMisspelledOKitFunctionNamesTheFunctionMeant() {
        let e = Self.error("okit.entty(\"A\", { name = \"string\" })")
        #expect(e.contains("okit has no function \"entty\": did you mean okit.entity?"), "\(e)")
        // Lua's own nil call of an app's table says nothing more.
        let own = Self.error("local t = {}\nt.go()")
        #expect(own.contains("attempt to call a nil value (field 'go')") && !own.contains("has no"), "\(own)")
    }

    @Test(arguments: [("datetime", "date"), ("timestamp", "date"), ("varchar", "string"), ("text", "string"), ("strng", "string")])
    func aFieldTypeOtherLanguagesNameIsToldOkitsName(written: String, meant: String) {
        let e = Self.error("okit.entity(\"A\", { when = \"\(written)\" })\nokit.model(\"A\")")
        #expect(e.contains("unknown field type or entity type \"\(written)\" (did you mean \"\(meant)\"?)"), "\(e)")
    }
}
