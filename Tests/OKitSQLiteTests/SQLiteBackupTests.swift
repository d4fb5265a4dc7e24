import Foundation
import Testing
import OKitTestSupport
import ZIPFoundation
@testable import OKitEngine
@testable import OKitSQLite

/// SQLite models in backups (storage.md "SQLite models"): a consistent copy of the database, restored through
/// the same verification as model files.
@Suite struct SQLiteBackupTests {
    func session(_ folder: TempFolder) throws -> AppSession {
        var options = SessionOptions()
        options.dataFolder = folder.url
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        options.storageKinds.register(.sqlite, form: SQLiteForm(), SQLiteStorage.factory)
        let session = AppSession(options: options)
        let schema = session.engine.schema
        try schema.entity("Author", fields: [FieldSpec("name", .string)])
        try schema.entity("Book", fields: [FieldSpec("name", .string), try FieldSpec("authors", "[Author]")])
        try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
        try schema.validate()
        _ = try session.engine.register(model: "default", type: "Shop", storage: try session.makeStorage(kind: .sqlite, model: "default"),
                                        storageKind: .sqlite)
        var books = ListDeclaration(id: "books")
        books.type = "Book"; books.dataPath = "books"; books.cellPath = "name"; books.addName = "name"
        try session.shell.declare(books)
        try session.start(home: ["books"], menu: nil)
        return session
    }

    func names(_ s: AppSession) throws -> [String] {
        guard let root = s.engine.defaultModel?.root else { return [] }
        return try s.engine.collection(root, "books").items.compactMap { $0.entity?["name"]?.description }
    }

    @Test func aBackupHoldsAConsistentCopyAndARestoreBringsItBack() throws {
        let folder = try TempFolder()
        let s = try session(folder)
        defer { s.closeDataFolder() }
        let e = s.engine
        let root = try #require(e.defaultModel?.root)
        for n in ["Dune", "Emma", "Anna"] {
            let b = try e.make("Book", ["name": .string(n)])
            try e.insert(.entity(e.make("Author", ["name": .string("Author of \(n)")])), into: e.collection(b, "authors"), append: true)
            try e.insert(.entity(b), into: e.collection(root, "books"), append: true)
        }
        try s.storeState()
        try s.createBackup(name: "three books", password: nil)

        let archive = try Archive(url: folder.url.appendingPathComponent("okit/backup/three books.okbackup"), accessMode: .read)
        let paths = archive.map(\.path)
        #expect(paths.contains("data/default.sqlite"), "\(paths)")
        #expect(!paths.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "\(paths)")

        let books = try e.collection(root, "books")
        try e.set(books.items[0].entity!, "name", .string("Changed"))
        try e.remove(books.items[2], from: books)
        try s.storeState()
        #expect(try names(s) == ["Changed", "Emma"])

        try s.restoreBackup(name: "three books", password: nil)
        #expect(try names(s) == ["Dune", "Emma", "Anna"])
        let db = folder.modelsFolder.appendingPathComponent("default.sqlite").path
        #expect(try SQLiteStorageTests.sqlite3(db, "select name from Book order by name limit 3") == "Anna\nDune\nEmma")
        #expect(try SQLiteStorageTests.sqlite3(db, "pragma integrity_check") == "ok")
        // The restored model is stored as before: a change writes its row.
        let after = try e.collection(try #require(e.defaultModel?.root), "books")
        try e.set(after.items[1].entity!, "name", .string("Emma 2"))
        try s.storeState()
        #expect(try SQLiteStorageTests.sqlite3(db, "select name from Book order by okit_position") == "Dune\nEmma 2\nAnna")
    }

    @Test func aRestoreRefusesADatabaseThatDoesNotRead() throws {
        let folder = try TempFolder()
        let s = try session(folder)
        defer { s.closeDataFolder() }
        let root = try #require(s.engine.defaultModel?.root)
        try s.engine.insert(.entity(s.engine.make("Book", ["name": .string("Dune")])), into: s.engine.collection(root, "books"))
        try s.storeState()
        let db = folder.modelsFolder.appendingPathComponent("default.sqlite").path
        _ = try SQLiteStorageTests.sqlite3(db, "alter table Book add column x; update Book set okit_extra = 'not json'")
        try s.createBackup(name: "bad", password: nil)
        _ = try SQLiteStorageTests.sqlite3(db, "update Book set okit_extra = null")
        do {
            try s.restoreBackup(name: "bad", password: nil)
            Issue.record("a database that does not read was restored")
        } catch {
            #expect("\(error)".contains("okit_extra"), "\(error)")
        }
        #expect(try names(s) == ["Dune"])
        let extra = try SQLiteStorageTests.sqlite3(db, "select ifnull(okit_extra, 'null') from Book")
        #expect(extra == "null", "\(extra)")
    }
}
