import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// An extension's error names the calls it came through on its line (lua-api.md: "reported with its traceback"):
/// the line that failed may be in a helper the extension called, which the message alone did not show.
@Suite struct ExtensionCallChainTests {
    @Test func anErrorInAHelperNamesTheHelperAndTheExtensionsLine() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Loan", { member = "string" })
        okit.entity("Root", { loans = "[Loan]" })
        okit.model("Root", { seed = function(r) r.loans:append(okit.new("Loan", {})) end })
        local function memberName(p) return p.nothing.name end
        okit.extension("Loan", "summary", function(p) return "→ " .. memberName(p) end)
        okit.list("loans", { dataPath = "loans", cell = { path = "summary" } })
        okit.app { home = "loans" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        _ = try app.shell.snapshot()
        let said = app.engine.warnings.first { $0.contains("called from binding \"summary\"") }
        #expect(said?.contains("; via app.lua:5 in memberName ← app.lua:6") == true, "\(app.engine.warnings)")
        #expect(said.map { !$0.contains("\n") } == true)
    }
}
