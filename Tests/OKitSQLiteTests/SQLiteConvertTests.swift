import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitSQLite

/// `okit-run convert` and the stored-form check (storage.md "SQLite models"), run as a user runs them.
@Suite(.serialized) struct SQLiteConvertTests {
    static func app(_ folder: TempFolder, storage: String, name: String) throws -> String {
        try folder.put(name, """
            local okit = require "okit"
            okit.entity("Author", { name = "string" })
            okit.entity("Book", { name = "string", price = "double", authors = "[Author]", lead = "ref Author" })
            okit.entity("Category", { name = "string" }, { table = "Categories", primaryKey = "categoryId", key = "autoincrement" })
            okit.entity("Shop", { books = "[Book]", categories = "[Category]", authors = "[Author]" })
            shop = okit.model("Shop", { storage = "\(storage)" })
            okit.state { shop }
            """).path
    }

    static let addBooks = """
        for _, n in ipairs({ "Zorba", "Dune", "Emma", "Anna" }) do
          local b = okit.new("Book", { name = n, price = 10 })
          b.authors:append(okit.new("Author", { name = "Author of " .. n }))
          shop.books:append(b)
        end
        local a = okit.new("Author", { name = "Herbert" })
        shop.authors:append(a)
        shop.books[2].lead = a
        shop.categories:append(okit.new("Category", { name = "Fiction" }))
        shop.categories:append(okit.new("Category", { name = "Poetry" }))
        """

    static func run(_ args: [String], script: String? = nil, in folder: TempFolder) throws -> ChildResult {
        try OKitRun.run(args, script: script, in: folder)
    }

    @Test func convertBothWaysVerifiesSwapsAndKeepsTheOldForm() throws {
        guard OKitRun.isBuilt else { return }
        let folder = try TempFolder()
        let fileApp = try Self.app(folder, storage: "file", name: "file.lua")
        let sqliteApp = try Self.app(folder, storage: "sqlite", name: "sqlite.lua")
        let data = folder.url.appendingPathComponent("data").path
        let models = data + "/okit/data"
        #expect(try Self.run([fileApp, "--data", data], script: Self.addBooks, in: folder).code == 0)
        let json = try String(contentsOfFile: models + "/default.json", encoding: .utf8)

        // The app says sqlite, the folder holds JSON: exit 4, naming convert, nothing changed.
        let refused = try Self.run([sqliteApp, "--data", data], script: "print(#shop.books)", in: folder)
        #expect(refused.code == 4, "\(refused.code) \(refused.err)")
        #expect(refused.err.contains("okit-run convert") && refused.err.contains("--to sqlite"), "\(refused.err)")
        #expect(try String(contentsOfFile: models + "/default.json", encoding: .utf8) == json)
        #expect(!FileManager.default.fileExists(atPath: models + "/default.sqlite"))

        let toSQLite = try Self.run(["convert", "--app", sqliteApp, "--data", data, "--model", "default", "--to", "sqlite"], in: folder)
        #expect(toSQLite.code == 0, "\(toSQLite.err)")
        let db = models + "/default.sqlite"
        #expect(try SQLiteStorageTests.sqlite3(db, "select name from Book order by name limit 3") == "Anna\nDune\nEmma")
        #expect(try SQLiteStorageTests.sqlite3(db, "select categoryId, name from Categories order by categoryId") == "1|Fiction\n2|Poetry")
        #expect(try SQLiteStorageTests.sqlite3(db, "select a.name from Book b join Author a on a.id = b.lead") == "Herbert")
        let kept = try FileManager.default.contentsOfDirectory(atPath: models).filter { $0.hasPrefix("default.json.converted-") }
        #expect(kept.count == 1 && !FileManager.default.fileExists(atPath: models + "/default.json"))
        #expect(try String(contentsOfFile: models + "/" + kept[0], encoding: .utf8) == json)

        // The sqlite app runs on it, and an autoincrement id continues from the highest.
        let run = try Self.run([sqliteApp, "--data", data], script: """
            shop.categories:append(okit.new("Category", { name = "Drama" }))
            print(#shop.books, shop.books[1].name, shop.books[2].lead.ref.name, shop.categories[3].id)
            """, in: folder)
        #expect(run.code == 0 && (run.out + run.err).contains("4\tZorba\tHerbert\t3"), "\(Array(run.out.utf8)) \(run.err)")

        // The file app refuses the database, naming convert --to file.
        let back = try Self.run([fileApp, "--data", data], script: "print(1)", in: folder)
        #expect(back.code == 4 && back.err.contains("--to file"), "\(back.err)")

        let toFile = try Self.run(["convert", "--app", fileApp, "--data", data, "--model", "default", "--to", "file"], in: folder)
        #expect(toFile.code == 0, "\(toFile.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: models).contains { $0.hasPrefix("default.sqlite.converted-") })
        let again = try Self.run([fileApp, "--data", data], script: "print(#shop.books, shop.books[4].name, shop.books[2].lead.ref.name, #shop.categories)", in: folder)
        #expect(again.code == 0 && (again.out + again.err).contains("4\tAnna\tHerbert\t3"), "\(again.out) \(again.err)")
    }

    @Test func convertNamesTwoEntitiesWithOneIdAndChangesNothing() throws {
        guard OKitRun.isBuilt else { return }
        let folder = try TempFolder()
        let sqliteApp = try Self.app(folder, storage: "sqlite", name: "sqlite.lua")
        let data = folder.url.appendingPathComponent("data")
        let models = data.appendingPathComponent("okit/data").path
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        let json = #"{"okit":{"version":1,"type":"Shop"},"authors":[{"id":"A1","name":"H"}],"books":[{"id":"B1","name":"Dune","authors":[{"id":"A1","name":"H"}]}]}"#
        try json.write(toFile: models + "/default.json", atomically: true, encoding: .utf8)
        let r = try Self.run(["convert", "--app", sqliteApp, "--data", data.path, "--model", "default", "--to", "sqlite"], in: folder)
        #expect(r.code == 4 && r.err.contains("\"A1\""), "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: models).sorted() == ["default.json"])
        #expect(try String(contentsOfFile: models + "/default.json", encoding: .utf8) == json)
    }

    @Test func encryptedSQLiteIsRefusedSayingWhy() throws {
        guard OKitRun.isBuilt else { return }
        let folder = try TempFolder()
        let app = try folder.put("app.lua", """
            local okit = require "okit"
            okit.entity("Shop", { name = "string" })
            okit.model("Shop", { storage = "sqlite", encrypted = true })
            """).path
        let r = try Self.run([app, "--data", folder.url.appendingPathComponent("data").path], script: "print(1)", in: folder)
        #expect(r.code != 0 && r.err.contains("storage = \"sqlite\" cannot be encrypted"), "\(r.err)")
    }
}
