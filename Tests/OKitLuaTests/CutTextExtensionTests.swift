import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua
/// An extension that cuts text inside a character (`s:sub(1, 1)` of `"Àncora"`) gives bytes, not text: it is said
/// once, with what to write; the docs' own `initial` cuts at a character.
@Suite struct CutTextExtensionTests {
    static func app(_ initial: String) -> String {
        """
        local okit = require "okit"
        okit.entity("Tool", { name = "string" })
        okit.entity("Root", { tools = "[Tool]" })
        root = okit.model("Root", { seed = function(r)
          for _, n in ipairs { "Àncora", "Èlica", "Martello" } do r.tools:append(okit.new("Tool", { name = n })) end
        end })
        okit.extension("string", "initial", \(initial))
        okit.list("tools", { dataPath = "tools", rowSort = "name", group = "name/initial", cell = { path = "name" } })
        okit.app { home = "tools" }
        """
    }

    @Test func textCutInsideACharacterIsSaidOnce() throws {
        let t = try TempApp(["app.lua": Self.app("function(s) return s:sub(1, 1):upper() end")])
        let app = try t.launch { $0.checkBindings = false }
        _ = try app.shell.snapshot()
        let said = app.engine.warnings.filter { $0.contains("returned text cut inside a character") }
        #expect(said.count == 1, "\(app.engine.warnings)")
        #expect(said.first?.contains("okit.extension(\"string\", \"initial\")") == true)
    }

    @Test func theDocsInitialCutsAtACharacter() throws {
        let t = try TempApp(["app.lua": Self.app("function(s) return s:sub(1, (utf8.offset(s, 2) or #s + 1) - 1):upper() end")])
        let app = try t.launch { $0.checkBindings = false }
        let headers = try app.shell.snapshot().screen.sections.map(\.header)
        #expect(headers == ["À", "È", "M"], "\(headers)")
        #expect(!app.engine.warnings.contains { $0.contains("cut inside") })
        #expect(CutTextNotice.isTextCutInsideACharacter([0xC3]))
        #expect(!CutTextNotice.isTextCutInsideACharacter([0xFF, 0x00]))
        #expect(!CutTextNotice.isTextCutInsideACharacter(Array("À".utf8)))
    }
}
