import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// An alert's title and message are bindings on no entity (lua-api.md "Alerts"): `title = "Book"` showed nil with
/// no warning, and `title = "Delete it?"` failed the tap without saying what to write. A path now warns once per
/// binding, as an unknown name does, and a text that is no binding says to write `%…` or `#…`.
@Suite struct AlertTextTests {
    static func app(_ alert: String) -> String {
        """
        local okit = require "okit"
        okit.entity("Book", { name = "string", activate = function(self) \(alert) end })
        okit.entity("Shop", { books = "[Book]" })
        shop = okit.model("Shop", { seed = function(r) r.books:append(okit.new("Book", { name = "Dune" })) end })
        okit.list("books", { dataPath = "books", cell = { path = "name" }, tap = "activate" })
        okit.app { home = "books" }

        """
    }

    @Test func aPathInAnAlertsTextWarnsOncePerBinding() throws {
        let t = try TempApp(["app.lua": Self.app("okit.alert { title = \"Book\", message = \"%Activated\", actions = { \"OK\" } }")])
        let app = try t.launch()
        app.installAppGlobal()
        try app.run("""
        local s = app:tap(1)
        assert(s.alert.title == nil and s.alert.message == "Activated" and s.alert.actions[1] == "OK")
        app:respond("OK"); app:tap(1); app:respond("OK")
        local found = 0
        for _, w in ipairs(app:warnings()) do
          if w:find('binding "Book" (okit.alert, title): an alert has no entity to read "Book" from', 1, true) then found = found + 1 end
          assert(not w:find("Activated", 1, true), w)
        end
        assert(found == 1, "one warning, not one per tap: " .. found)
        """)
    }

    @Test func aTextThatIsNoBindingSaysWhatToWrite() throws {
        let t = try TempApp(["app.lua": Self.app("okit.alert { title = \"Delete it?\", message = \"#Really\\\\, now?\", actions = { \"Yes\", \"No\" } }")])
        let app = try t.launch()
        app.installAppGlobal()
        try app.run("""
        local ok, err = pcall(app.tap, app, 1)
        assert(not ok and err:find('okit.alert, title: binding "Delete it?": unexpected "i" at column 8; an alert\\'s texts are bindings: write "%Delete it?" (localized) or "#Delete it?" (as it is) for the text', 1, true), tostring(err))
        """)
        #expect(LuaApp.asText("Really, now?") == "\"%Really\\, now?\" (localized) or \"#Really\\, now?\" (as it is)")
    }

    @Test func aPromptsPlaceholderWarnsToo() throws {
        let t = try TempApp(["app.lua": Self.app("okit.prompt { title = \"%Rename\", fields = { { placeholder = \"Name\" } } }")])
        let app = try t.launch()
        app.installAppGlobal()
        try app.run("""
        local s = app:tap(1)
        assert(s.alert.title == "Rename" and s.alert.fields[1].placeholder == nil)
        local warned = false
        for _, w in ipairs(app:warnings()) do warned = warned or w:find('(okit.prompt, fields[1].placeholder)', 1, true) ~= nil end
        assert(warned, "the placeholder's path warns")
        """)
    }
}
