import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua
/// `okit.get(nil, …)` and `okit.set(nil, …)` work on the default model's root (lua-api.md "Bindings from Lua").
@Suite struct NilContextTests {
    @Test func nilIsTheDefaultModelsRoot() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Item", { label = "string" })
        okit.entity("Root", { name = "string", items = "[Item]" })
        root = okit.model("Root", { seed = function(r) r.name = "Shop"; r.items:append(okit.new("Item")) end })
        okit.detail("home", { sections = { { okit.cell.text { id = "n", path = "#Name", textPath = "name" } } } })
        okit.app { home = "home" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        #expect(try app.lua.evaluate("return okit.get(nil, 'name')") == .string("Shop"))
        #expect(try app.lua.evaluate("return okit.get(nil, 'items.@count')") == .int(1))
        try app.run("okit.set(nil, 'name', 'Market')")
        #expect(try app.lua.evaluate("return root.name") == .string("Market"))
    }
}
