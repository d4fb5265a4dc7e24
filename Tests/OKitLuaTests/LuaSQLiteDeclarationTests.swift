import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitLua

/// What a sqlite model's declarations may be (storage.md "SQLite models"): a root declared `{ id = false }` is the
/// one row of its table through stores and launches.
@Suite struct LuaSQLiteDeclarationTests {
    @Test func aRootWithoutIdsStaysOneRowThroughStoresAndLaunches() throws {
        let t = try TempApp(["app.lua": """
            local okit = require "okit"
            okit.entity("Item", { name = "string" }, { id = false })
            okit.entity("Root", { title = "string", items = "[Item]" }, { id = false })
            root = okit.model("Root", { storage = "sqlite" })
            """])
        do {
            let app = try t.launch()
            try app.run("root.title = 'one'; root.items:append(okit.new('Item', { name = 'a' })); okit.storeState()")
            try app.run("root.title = 'two'; root.items:append(okit.new('Item', { name = 'b' })); okit.storeState()")
            app.session.closeDataFolder()
        }
        do {
            let app = try t.launch()
            try app.run("assert(root.title == 'two', root.title); assert(#root.items == 2, #root.items)")
            try app.run("root.title = 'three'; root.items:remove(1); okit.storeState()")
            app.session.closeDataFolder()
        }
        let app = try t.launch()
        try app.run("assert(root.title == 'three', root.title); assert(#root.items == 1 and root.items[1].name == 'b')")
        app.session.closeDataFolder()
        let db = t.data.appendingPathComponent("okit/data/default.sqlite").path
        #expect(try LuaSQLiteModelTests.sqlite3(db, "select count(*), title from Root") == "1|three")
    }
}
