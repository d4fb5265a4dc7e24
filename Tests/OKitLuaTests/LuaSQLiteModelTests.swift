import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitLua

/// sqlite models declared from Lua (storage.md "SQLite models"): the table options of `okit.entity`, and what
/// another tool reads from the database is what a user sees.
@Suite struct LuaSQLiteModelTests {
    static func sqlite3(_ db: String, _ sql: String) throws -> String {
        let r = try ChildProcess.run("/usr/bin/sqlite3", [db, sql])
        #expect(r.code == 0, "sqlite3 failed: \(r.err)")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theBooksInTheDatabaseAreTheBooksAUserSees() throws {
        let bookshop = OKitRun.root.appendingPathComponent("examples/bookshop/app.lua")
        let t = try TempApp(["app.lua": try String(contentsOf: bookshop, encoding: .utf8)])
        let app = try t.launch { $0.storageOverrides = ["default": .sqlite] }
        for name in ["Zorba the Greek", "Anna Karenina", "Middlemarch"] {
            try app.session.driver.run("add", [:])
            try app.session.driver.run("respond", ["action": .string("OK"), "fields": .list([.string(name)])])
        }
        try app.storeState()
        let rows = try app.session.shell.snapshot().screen.sections.flatMap(\.rows).compactMap(\.text)
        let db = t.data.appendingPathComponent("okit/data/default.sqlite").path
        #expect(try Self.sqlite3(db, "select name from Book order by name limit 3") == rows.prefix(3).joined(separator: "\n"))
        #expect(rows.prefix(3) == ["Anna Karenina", "Dune", "Emma"])
        #expect(!FileManager.default.fileExists(atPath: t.data.appendingPathComponent("okit/data/default.json").path))
        #expect(try Self.sqlite3(t.data.appendingPathComponent("okit/data/catalog.sqlite").path,
                                 "select categoryId, name from Categories order by categoryId") == "1|Novels\n2|Poetry\n3|Travel")
        app.session.closeDataFolder()
    }

    @Test func tableOptionsAreCheckedWhenDeclared() throws {
        let t = try TempApp(["app.lua": """
            local okit = require "okit"
            okit.entity("Category", { name = "string" }, { key = "serial" })
            """])
        do { _ = try t.launch(); Issue.record("no error") } catch {
            #expect("\(error)".contains("key = \"serial\" is not a kind of key"), "\(error)")
        }
        let u = try TempApp(["app.lua": """
            local okit = require "okit"
            okit.entity("Category", { name = "string" }, { table = "" })
            """])
        do { _ = try u.launch(); Issue.record("no error") } catch {
            #expect("\(error)".contains("table must be a non-empty name"), "\(error)")
        }
    }

    @Test func aMigrationCarriesARenamedFieldOverInTheDatabase() throws {
        let t = try TempApp([
            "v1.lua": """
                local okit = require "okit"
                okit.app { id = "shop", version = 1 }
                okit.entity("Book", { name = "string", cost = "double" })
                okit.entity("Shop", { books = "[Book]" })
                shop = okit.model("Shop", { storage = "sqlite", seed = function(root)
                  root.books:append(okit.new("Book", { name = "Dune", cost = 12.5 }))
                  root.books:append(okit.new("Book", { name = "Emma", cost = 8 }))
                end })
                """,
            "v2.lua": """
                local okit = require "okit"
                okit.app { id = "shop", version = 2 }
                okit.entity("Book", { name = "string", price = "double" })
                okit.entity("Shop", { books = "[Book]" })
                okit.migrate(1, function(model, raw)
                  for i, b in ipairs(model.books) do b.price = raw.books[i].cost end
                end)
                shop = okit.model("Shop", { storage = "sqlite" })
                """,
        ])
        let v1 = try t.launch("v1.lua")
        try v1.storeState()
        v1.session.closeDataFolder()
        let v2 = try t.launch("v2.lua")
        let books = try v2.engine.collection(try #require(v2.engine.defaultModel?.root), "books")
        #expect(books.items.compactMap { $0.entity?["price"]?.doubleValue } == [12.5, 8])
        try v2.storeState()
        v2.session.closeDataFolder()
        let db = t.data.appendingPathComponent("okit/data/default.sqlite").path
        #expect(try Self.sqlite3(db, "select name, cost, price from Book order by okit_position") == "Dune|12.5|12.5\nEmma|8.0|8.0")
        #expect(try Self.sqlite3(db, "select value from okit_model where key = 'version'") == "2")
    }

    @Test func aPartialsPayloadStaysAFileBesideTheDatabase() throws {
        let t = try TempApp(["app.lua": LuaPartialTests.app.replacingOccurrences(of: #"okit.model("Shelf")"#, with: #"okit.model("Shelf", { storage = "sqlite" })"#)])
        var id = ""
        do {
            let app = try t.launch()
            try app.run("""
            local g = okit.new("GroupDefer", { name = "Poetry" })
            shelf.groups:append(g)
            g.group.tags:append("verse")
            g.group.color = "#FF0000"
            okit.storeState()
            """, chunkName: "t.lua")
            id = try #require(try app.engine.get(app.engine.models[0].root, "groups[0]/id").displayString)
            app.session.closeDataFolder()
        }
        let db = t.data.appendingPathComponent("okit/data/default.sqlite").path
        #expect(try Self.sqlite3(db, "select name, color from GroupDefer") == "Poetry|#FF0000")
        let payload = try String(contentsOf: t.data.appendingPathComponent("okit/data/default/\(id).json"), encoding: .utf8)
        #expect(payload.contains("verse"))
        let again = try t.launch()
        try again.run("""
        assert(shelf.groups[1].color == "#FF0000")
        assert(shelf.groups[1].group.tags[1] == "verse")
        """, chunkName: "t.lua")
        again.session.closeDataFolder()
    }
}
