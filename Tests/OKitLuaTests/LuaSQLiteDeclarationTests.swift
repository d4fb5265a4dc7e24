import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitLua

/// What a sqlite model's declarations may be (storage.md "SQLite models"): a root declared `{ id = false }` is the
/// one row of its table through stores and launches; two types in one table are refused by `okit.model`.
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

    @Test(arguments: [
        (#"{ table = "Same" }"#, #"{ table = "Same" }"#, #"entity types "Root" and "Book" are both kept in table "Same" of the sqlite database; give one of them its own table = "…" in okit.entity"#),
        (#"{ table = "Book" }"#, "{}", #"entity types "Root" and "Book" are both kept in table "Book""#),
        (#"{ table = "same" }"#, #"{ table = "SAME" }"#, #"entity types "Root" and "Book" are both kept in tables "same" and "SAME" (one table to SQLite, which ignores case)"#),
        (#"{ table = "okit_model" }"#, "{}", #"entity type "Root" is kept in table "okit_model", a name the sqlite database keeps for itself"#),
    ])
    func twoTypesInOneTableAreRefusedWhenDeclared(_ root: String, _ book: String, _ expected: String) throws {
        let source = """
            local okit = require "okit"
            okit.entity("Book", { name = "string" }, \(book))
            okit.entity("Root", { books = "[Book]" }, \(root))
            """
        let t = try TempApp(["app.lua": source + "\nroot = okit.model(\"Root\", { storage = \"sqlite\" })\n"])
        do { _ = try t.launch(); Issue.record("no error") } catch {
            #expect("\(error)".contains("okit.model(\"Root\"): ") && "\(error)".contains(expected), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: t.data.appendingPathComponent("okit/data/default.sqlite").path))
        // A file model has no tables: the same declarations are fine there.
        let file = try TempApp(["app.lua": source + "\nroot = okit.model(\"Root\")\n"])
        _ = try file.launch()
    }
}
