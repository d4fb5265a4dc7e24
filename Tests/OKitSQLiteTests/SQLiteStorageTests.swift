import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitSQLite

/// The `sqlite` storage kind (storage.md "SQLite models") on real database files, checked with the `sqlite3` shell.
@Suite struct SQLiteStorageTests {
    /// `sqlite3 DB SQL` (the Debian shell), its output trimmed.
    static func sqlite3(_ db: String, _ sql: String) throws -> String {
        let r = try ChildProcess.run("/usr/bin/sqlite3", [db, sql])
        #expect(r.code == 0, "sqlite3 failed: \(r.err)")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A schema with every field kind.
    static func kindsSchema(_ schema: Schema) throws {
        try schema.entity("Author", fields: [FieldSpec("name", .string)])
        try schema.entity("Stamp", hasId: false, fields: [FieldSpec("at", .date), FieldSpec("note", "string?")])
        try schema.entity("Item", fields: [
            FieldSpec("name", .string),
            FieldSpec("count", .int),
            FieldSpec("price", .double),
            FieldSpec("done", .bool),
            FieldSpec("when", .date),
            FieldSpec("comment", "string?"),
            FieldSpec("lead", "ref Author"),
            FieldSpec("others", "[ref Author]"),
            FieldSpec("tags", "[string]"),
            FieldSpec("scores", "{string: int}"),
            FieldSpec("marks", "{string}"),
            FieldSpec("authors", "[Author]"),
            FieldSpec("byRole", "{string: Author}"),
            FieldSpec("main", "Author?"),
            FieldSpec("stamps", "[Stamp]"),
            FieldSpec("file", "data?"),
            FieldSpec("photo", "image?"),
            FieldSpec("blob", "inlineData?"),
        ])
        try schema.entity("Shop", fields: [FieldSpec("title", .string), FieldSpec("items", "[Item]"), FieldSpec("authors", "[Author]")])
        try schema.validate()
    }

    final class Fixture {
        let engine: Engine
        let files: FileStorage
        let storage: SQLiteStorage
        let model: Model
        var root: Entity { model.root }

        init(_ folder: TempFolder, seed: UInt64 = 1, schema build: (Schema) throws -> Void = SQLiteStorageTests.kindsSchema) throws {
            let schema = Schema()
            try build(schema)
            engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: seed))
            files = try FileStorage(dataFolder: folder.url)
            storage = SQLiteStorage(files: files, path: try DataFolder(folder.url).sqliteFile("default"))
            model = try engine.register(model: "default", type: "Shop", storage: storage, storageKind: .sqlite)
        }

        func close() { storage.close(); files.close() }
    }

    static func db(_ folder: TempFolder) -> String { folder.modelsFolder.appendingPathComponent("default.sqlite").path }

    /// A data folder holding the filled shop, stored and closed.
    func storedShop() throws -> TempFolder {
        let folder = try TempFolder()
        let f = try Fixture(folder)
        defer { f.close() }
        _ = try fill(f)
        try f.engine.store(f.model)
        return folder
    }

    func fill(_ f: Fixture) throws -> Entity {
        let e = f.engine
        try e.set(f.root, "title", .string("O'Neil \"books\""))
        let a1 = try e.make("Author", ["id": .string("A1"), "name": .string("Herbert")])
        let a2 = try e.make("Author", ["id": .string("A2"), "name": .string("Austen")])
        try e.insert(.entity(a1), into: e.collection(f.root, "authors"), append: true)
        try e.insert(.entity(a2), into: e.collection(f.root, "authors"), append: true)
        let item = try e.make("Item", ["id": .string("I1"), "name": .string("Dune"), "count": .int(-42), "price": .double(0.1),
                                       "done": .bool(true), "when": .string("2019-05-01T10:00:00.123Z"), "comment": .string("line\nbreak ✓")])
        try e.insert(.entity(item), into: e.collection(f.root, "items"), append: true)
        try e.set(item, "lead", .string("A1"))
        try e.insert(.string("A2"), into: e.collection(item, "others"), append: true)
        try e.insert(.string("A1"), into: e.collection(item, "others"), append: true)
        try e.insert(.string("sci-fi"), into: e.collection(item, "tags"), append: true)
        try e.put(.int(5), forKey: "stars", in: e.collection(item, "scores"))
        try e.insert(.string("x"), into: e.collection(item, "marks"), append: true)
        try e.insert(.entity(e.make("Author", ["id": .string("C1"), "name": .string("Copy one")])), into: e.collection(item, "authors"), append: true)
        try e.insert(.entity(e.make("Author", ["id": .string("C2"), "name": .string("Copy two")])), into: e.collection(item, "authors"), append: true)
        try e.put(.entity(e.make("Author", ["id": .string("R1"), "name": .string("Editor")])), forKey: "editor", in: e.collection(item, "byRole"))
        try e.set(item, "main", .entity(e.make("Author", ["id": .string("M1"), "name": .string("Main")])))
        try e.insert(.entity(e.make("Stamp", ["at": .string("2020-01-02T03:04:05.006Z")])), into: e.collection(item, "stamps"), append: true)
        try e.insert(.entity(e.make("Stamp", ["note": .string("second")])), into: e.collection(item, "stamps"), append: true)
        try e.writeBytes(item, "file", Array("hello".utf8), format: "text/plain", label: "greeting")
        try e.writeBytes(item, "blob", [0, 1, 2, 255], format: "application/octet-stream", label: "raw")
        return item
    }

    @Test func everyFieldKindRoundTripsThroughTypedColumns() throws {
        let folder = try TempFolder()
        do {
            let f = try Fixture(folder)
            _ = try fill(f)
            #expect(try f.engine.store(f.model) != .unchanged)
            f.close()
        }
        let db = Self.db(folder)
        // Typed columns, as another tool sees them.
        #expect(try Self.sqlite3(db, "select typeof(name), typeof(count), typeof(price), typeof(done), typeof(\"when\"), typeof(lead), typeof(blob) from Item")
                == "text|integer|real|integer|text|text|blob")
        #expect(try Self.sqlite3(db, "select count, price, done, \"when\", lead, others, tags, scores, marks from Item")
                == #"-42|0.1|1|2019-05-01T10:00:00.123Z|A1|["A2","A1"]|["sci-fi"]|{"stars":5}|["x"]"#)
        #expect(try Self.sqlite3(db, "select name, okit_field, okit_position, ifnull(okit_key, '') from Author where okit_parent = 'I1' order by okit_field, okit_position")
                == "Copy one|authors|0|\nCopy two|authors|1|\nEditor|byRole|0|editor\nMain|main|0|")
        #expect(try Self.sqlite3(db, "select okit_position, \"at\", ifnull(note, 'nil') from Stamp order by okit_position").hasPrefix("0|2020-01-02T03:04:05.006Z|nil\n1|"))
        #expect(try Self.sqlite3(db, "select title from Shop where okit_parent is null") == "O'Neil \"books\"")
        #expect(try Self.sqlite3(db, "pragma journal_mode") == "wal")

        let g = try Fixture(folder, seed: 2)
        defer { g.close() }
        #expect(g.root["title"]?.description == "O'Neil \"books\"")
        let item = try #require(try g.engine.collection(g.root, "items").items.first?.entity)
        #expect(item.id == "I1")
        #expect(item["count"]!.isSame(as: .int(-42)) && item["price"]!.isSame(as: .double(0.1)) && item["done"]!.isSame(as: .bool(true)))
        #expect(item["when"]!.isSame(as: .date(Date(timeIntervalSince1970: 1_556_704_800.123))))
        #expect(item["comment"]?.description == "line\nbreak ✓")
        #expect(item["lead"]?.entity?.refTarget?["name"]?.description == "Herbert")
        #expect(try g.engine.collection(item, "others").items.compactMap { $0.entity?.refTarget?.id } == ["A2", "A1"])
        #expect(try g.engine.collection(item, "tags").items.map(\.description) == ["sci-fi"])
        #expect(try g.engine.collection(item, "scores").value(forKey: "stars")!.isSame(as: .int(5)))
        #expect(try g.engine.collection(item, "marks").count == 1)
        #expect(try g.engine.collection(item, "authors").items.compactMap { $0.entity?.id } == ["C1", "C2"])
        #expect(try g.engine.collection(item, "byRole").value(forKey: "editor")?.entity?["name"]?.description == "Editor")
        #expect(item["main"]?.entity?["name"]?.description == "Main")
        let stamps = try g.engine.collection(item, "stamps").items.compactMap(\.entity)
        #expect(stamps.count == 2 && stamps[1]["note"]?.description == "second" && stamps[0]["note"]!.isNull)
        #expect(try g.engine.readBytes(item["file"]!.entity!) == Array("hello".utf8))
        #expect(try g.engine.readBytes(item["blob"]!.entity!) == [0, 1, 2, 255])
        #expect(item["blob"]?.entity?["label"]?.description == "raw")
        #expect(try g.engine.store(g.model) == .unchanged)
    }

    @Test func aStoreWritesOnlyTheRowsThatChanged() throws {
        let folder = try TempFolder()
        let f = try Fixture(folder)
        defer { f.close() }
        let item = try fill(f)
        try f.engine.store(f.model)
        try f.engine.set(item, "name", .string("Dune Messiah"))
        #expect(try f.engine.store(f.model) == .rows(written: 1, deleted: 0))
        // Inserted at the front: the new row only (it counts down from the first position).
        let front = try f.engine.make("Author", ["id": .string("A0"), "name": .string("Asimov")])
        try f.engine.insert(.entity(front), into: f.engine.collection(f.root, "authors"))
        #expect(try f.engine.store(f.model) == .rows(written: 1, deleted: 0))
        // Removed: its row goes, the others keep theirs.
        let copies = try f.engine.collection(item, "authors")
        try f.engine.remove(copies.items[0], from: copies)
        #expect(try f.engine.store(f.model) == .rows(written: 0, deleted: 1))
        #expect(try f.engine.store(f.model) == .unchanged)
        let db = Self.db(folder)
        #expect(try Self.sqlite3(db, "select name from Author where okit_field = 'authors' and okit_parent = (select id from Shop) order by okit_position") == "Asimov\nHerbert\nAusten")
        #expect(try Self.sqlite3(db, "select count(*) from Author where id = 'C1'") == "0")
        #expect(try Self.sqlite3(db, "select name from Item") == "Dune Messiah")
    }

    @Test func aNewFieldAddsAColumnWithItsDefault() throws {
        let folder = try storedShop()
        let newer: (Schema) throws -> Void = { s in
            try s.entity("Author", fields: [FieldSpec("name", .string), FieldSpec("born", .int, default: .int(1900))])
            try s.entity("Shop", fields: [FieldSpec("title", .string), FieldSpec("authors", "[Author]"), FieldSpec("rating", .double, default: .double(2.5))])
            try s.validate()
        }
        let g = try Fixture(folder, schema: newer)
        defer { g.close() }
        let authors = try g.engine.collection(g.root, "authors").items.compactMap(\.entity)
        #expect(authors.map { $0["born"]!.description } == ["1900", "1900"])
        try g.engine.set(authors[0], "born", .int(1920))
        try g.engine.store(g.model)
        let db = Self.db(folder)
        #expect(try Self.sqlite3(db, "select name, born from Author where okit_parent = (select id from Shop) order by okit_position") == "Herbert|1920\nAusten|1900")
        #expect(try Self.sqlite3(db, "select rating from Shop") == "2.5")
        // The fields this schema no longer has keep their columns and values.
        #expect(try Self.sqlite3(db, "select name, count from Item") == "Dune|-42")
    }

    @Test func columnsAndFieldsTheSchemaDoesNotKnowSurvive() throws {
        let folder = try storedShop()
        let db = Self.db(folder)
        _ = try Self.sqlite3(db, "alter table Item add column legacy text; update Item set legacy = 'keep me', okit_extra = '{\"future\":[1,2]}'")
        do {
            let g = try Fixture(folder)
            let item = try #require(try g.engine.collection(g.root, "items").items.first?.entity)
            try g.engine.set(item, "name", .string("Changed"))
            #expect(try g.engine.store(g.model) == .rows(written: 1, deleted: 0))
            g.close()
        }
        #expect(try Self.sqlite3(db, "select name, legacy, okit_extra from Item") == #"Changed|keep me|{"future":[1,2]}"#)
    }

    @Test func aValueOfTheWrongTypeIsRefusedNamingDatabaseTableRowAndColumn() throws {
        let folder = try storedShop()
        let db = Self.db(folder)
        _ = try Self.sqlite3(db, "update Item set count = 'many'")
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let schema = Schema()
        try Self.kindsSchema(schema)
        let engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 1))
        let files = try FileStorage(dataFolder: folder.url)
        defer { files.close() }
        let storage = SQLiteStorage(files: files, path: db)
        do {
            _ = try engine.register(model: "default", type: "Shop", storage: storage, storageKind: .sqlite)
            Issue.record("a wrong-typed value was read")
        } catch let e as StorageError {
            let text = e.description
            #expect(text.contains(db) && text.contains("table Item") && text.contains("id = I1") && text.contains("column count"), "\(text)")
            #expect(text.contains("the TEXT \"many\""), "\(text)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(try Self.sqlite3(db, "select count from Item") == "many")
    }

    @Test func rowsWrittenByAnotherProgramAreReadAtTheNextStart() throws {
        let folder = try storedShop()
        let db = Self.db(folder)
        _ = try Self.sqlite3(db, """
            insert into Author (id, okit_parent, okit_field, okit_position, name) values ('X9', (select id from Shop), 'authors', 99, 'Tolkien');
            insert into Author (okit_parent, okit_field, name) values ((select id from Shop), 'authors', 'Le Guin');
            """)
        let g = try Fixture(folder)
        defer { g.close() }
        let names = try g.engine.collection(g.root, "authors").items.compactMap { $0.entity?["name"]?.description }
        #expect(names == ["Herbert", "Austen", "Tolkien", "Le Guin"])
        // The row without a position gets one at the next store of its collection; its id is kept.
        try g.engine.insert(.entity(g.engine.make("Author", ["name": .string("Banks")])), into: g.engine.collection(g.root, "authors"), append: true)
        try g.engine.store(g.model)
        #expect(try Self.sqlite3(db, "select name from Author where okit_parent = (select id from Shop) order by okit_position") == "Herbert\nAusten\nTolkien\nLe Guin\nBanks")
    }
}
