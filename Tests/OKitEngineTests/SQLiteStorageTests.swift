import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

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
}
