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
}
