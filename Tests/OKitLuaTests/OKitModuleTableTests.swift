import Foundation
import Testing
@testable import OKitLua

/// The `okit` table as `LuaModuleBuilder` builds it from its parts: every name the module had when one function
/// built it, and the methods and fields of what it hands out.
@Suite struct OKitModuleTableTests {
    static let names = [
        "Settings", "after", "alert", "app", "backups", "binding", "byId", "call", "cell", "computed", "data", "date",
        "detail", "entity", "every", "extension", "get", "getAll", "list", "locale", "localize", "menu", "migrate",
        "model", "modelof", "models", "new", "partial", "prompt", "restoreState", "rootof", "selection", "set",
        "settings", "state", "store", "storeState", "strings", "theme", "transaction", "typeof", "valid",
        "version", "watch",
    ]

    @Test func theModuleHasEveryNameOnce() throws {
        let app = try LuaApp()
        try app.prepare(appFolder: nil)
        try app.run("""
        local names = {}
        for k in pairs(okit) do names[#names + 1] = k end
        table.sort(names)
        NAMES = table.concat(names, ",")
        assert(require("okit") == okit, "require gives the global")
        assert(okit.version == "okit 0.1.0" and okit.Settings == "Settings")
        assert(okit.data.read == okit.data.bytes and type(okit.data.write) == "function")
        """)
        try app.run("assert(NAMES == '\(Self.names.joined(separator: ","))', NAMES)")
    }

    @Test func whatTheModuleHandsOutHasItsMethods() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        try app.run("""
        for _, m in ipairs { "add", "append", "remove", "move", "clear", "contains", "find", "filter" } do
          assert(type(shop.books[m]) == "function", m)
        end
        local b = okit.binding("name")
        assert(b.text == "name" and type(b.get) == "function" and type(b.set) == "function")
        assert(tostring(b) == 'binding "name"')
        local w = okit.watch(shop, "name", function() end)
        assert(w.value == "Book Shop" and type(w.cancel) == "function")
        w:cancel()
        local timer = okit.after(1, function() end)
        assert(type(timer.cancel) == "function" and timer.other == nil)
        timer:cancel()
        assert(tostring(shop.books) == "Shop.books (1)")
        """, chunkName: "t.lua")
    }
}
