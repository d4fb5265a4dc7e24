import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// An alert's title and message are bindings on no entity (lua-api.md "Alerts"): `title = "Book"` showed nil with
/// no warning, and `title = "Delete it?"` failed the tap without saying what to write. A path now warns once per
/// binding, as an unknown name does, and a text that is no binding says to write `%…` or `#…`. An action (a button)
/// that is a path showed as written with no word: it warns once too, and `okit-run check` finds every such text
/// where it is written, before the alert ever shows.
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

    @Test func aPlainActionShowsAsWrittenAndWarnsOncePerBinding() throws {
        let t = try TempApp(["app.lua": Self.app("okit.alert { title = \"%Book\", actions = { \"Archive\", \"%Cancel\", \"#Keep\" } }")])
        let app = try t.launch { $0.language = "de" }
        app.installAppGlobal()
        try app.run("""
        local s = app:tap(1)
        assert(s.alert.actions[1] == "Archive" and s.alert.actions[2] == "Abbrechen" and s.alert.actions[3] == "Keep")
        app:respond("Archive"); app:tap(1); app:respond("Archive")
        local found = 0
        for _, w in ipairs(app:warnings()) do
          if w:find('binding "Archive" (okit.alert, actions[1]): an alert has no entity to read "Archive" from, so the button shows "Archive" as written, in every language; write "%Archive" (localized) or "#Archive" (as it is) for the text', 1, true) then found = found + 1 end
          assert(not w:find("Cancel", 1, true) and not w:find("Keep", 1, true), w)
        end
        assert(found == 1, "one warning, not one per tap: " .. found)
        """)
    }

    @Test func checkFindsAlertTextsThatArePathsWhereTheyAreWritten() throws {
        let source = Self.app("okit.alert { title = \"Book\", actions = { \"Archive\", \"%OK\" } }")
            + "local function later() okit.prompt({ title = \"%Rename\", fields = { { placeholder = \"Name\" } }, actions = { \"Yes, please\" } }) end\n"
        let t = try TempApp(["app.lua": source])
        let app = try t.launch()
        let path = "an alert has no entity to read"
        #expect(app.checkApp().problems == [
            "app.lua:2:88: okit.alert, title: binding \"Book\": \(path) \"Book\" from, so it is nil; write \"%Book\" (localized) or \"#Book\" (as it is) for the text",
            "app.lua:2:108: okit.alert, actions[1]: binding \"Archive\": \(path) \"Archive\" from, so the button shows \"Archive\" as written, in every language; write \"%Archive\" (localized) or \"#Archive\" (as it is) for the text",
            "app.lua:7:85: okit.prompt, fields[1].placeholder: binding \"Name\": \(path) \"Name\" from, so it is nil; write \"%Name\" (localized) or \"#Name\" (as it is) for the text",
            "app.lua:7:109: okit.prompt, actions[1]: binding \"Yes, please\": \(path) \"Yes\" from, so the button shows \"Yes, please\" as written, in every language; write \"%Yes\\, please\" (localized) or \"#Yes\\, please\" (as it is) for the text",
        ])
        #expect(app.checkApp(ignoredNames: false).problems.isEmpty, "the check an app runs when it loads does not stop it for them")
    }

    @Test func checkSaysWhatToWriteForATextThatIsNoBinding() throws {
        let t = try TempApp(["app.lua": Self.app("okit.alert { title = \"Delete it?\", actions = { \"%Yes\", \"%No\" } }")])
        let app = try t.launch()
        #expect(app.checkApp().problems == [
            "app.lua:2:95: okit.alert, title: binding \"Delete it?\": unexpected \"i\" at column 8; an alert's texts are bindings: write \"%Delete it?\" (localized) or \"#Delete it?\" (as it is) for the text",
        ])
    }
}
