import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// The `postgres` storage kind (storage.md "Shared models on PostgreSQL") against a real PostgreSQL cluster:
/// two engines, each with its own data folder and connections, stand for two okit processes on one database.
@Suite(.serialized) struct PostgresStorageTests {
    static func schema(_ schema: Schema) throws {
        try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("count", .int), FieldSpec("done", .bool),
                                           FieldSpec("price", .double)])
        try schema.entity("Shop", fields: [FieldSpec("title", .string), FieldSpec("books", "[Book]")])
        try schema.validate()
    }

    /// A process on this suite's schema.
    static func process(_ url: String, folder: TempFolder? = nil, seed: ((Engine, Entity) throws -> Void)? = nil) throws -> PostgresProcess {
        try PostgresProcess(url: url, folder: folder, schema: schema, seed: seed)
    }

    static func seedTwoBooks(_ engine: Engine, _ root: Entity) throws {
        try engine.set(root, "title", .string("Shop"))
        let books = try engine.collection(root, "books")
        try engine.insert(.entity(engine.make("Book", ["id": .string("dune"), "name": .string("Dune"), "count": .int(1)])), into: books, append: true)
        try engine.insert(.entity(engine.make("Book", ["id": .string("emma"), "name": .string("Emma"), "count": .int(2)])), into: books, append: true)
    }

    @Test func aSeededModelIsStoredAtOnceAndReadByTheNextProcess() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seedTwoBooks)
        #expect(try db.psql("SELECT name, count FROM \"Book\" WHERE okit_model = 'default' ORDER BY okit_position") == "Dune|1\nEmma|2")
        // Every row of one store carries that store's version: the id of the transaction that wrote it.
        #expect(try db.psql("SELECT count(DISTINCT okit_version) FROM \"Book\" WHERE okit_version > 1") == "1")
        #expect(try db.psql("SELECT model, type FROM okit_models") == "default|Shop")
        let b = try Self.process(db.url, seed: { _, _ in Issue.record("the second process must not seed") })
        #expect(try b.books.items.compactMap { $0.entity?["name"]?.displayString } == ["Dune", "Emma"])
        #expect(b.root["title"]?.displayString == "Shop")
        _ = a
    }

    @Test func anotherProcessSeesAFieldWrittenAndABookAddedAndDeleted() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seedTwoBooks)
        let b = try Self.process(db.url)
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune Messiah"))
        try a.store()
        #expect(try b.follow())
        #expect(b.book("dune")?["name"]?.displayString == "Dune Messiah")

        let added = try a.engine.make("Book", ["id": .string("anna"), "name": .string("Anna")])
        try a.engine.insert(.entity(added), into: try a.books, at: 1)
        try a.store()
        #expect(try b.follow())
        #expect(try b.books.items.compactMap { $0.entity?.id } == ["dune", "anna", "emma"])

        try a.engine.remove(at: 0, from: try a.books)
        try a.store()
        #expect(try b.follow())
        #expect(try b.books.items.compactMap { $0.entity?.id } == ["anna", "emma"])
        // Applying what another process stored leaves nothing for this process to store.
        #expect(!b.model.isFileDirty)
        #expect(try b.engine.store(b.model) == .unchanged)
    }

    @Test func fieldsChangedOnDifferentSidesAreMerged() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seedTwoBooks)
        let b = try Self.process(db.url)
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune II"))
        try a.store()
        // B changes another field of the same book before it has seen A's store.
        try b.engine.set(try #require(b.book("dune")), "count", .int(7))
        try b.store()
        #expect(try db.psql("SELECT name, count FROM \"Book\" WHERE id = 'dune'") == "Dune II|7")
        #expect(b.book("dune")?["name"]?.displayString == "Dune II")
        #expect(b.conflicts.isEmpty)
    }

    @Test func aFieldChangedOnBothSidesIsReportedAndTheEarlierStoreKeepsIt() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seedTwoBooks)
        let b = try Self.process(db.url)
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune A"))
        try a.store()
        try b.engine.set(try #require(b.book("dune")), "name", .string("Dune B"))
        try b.engine.set(try #require(b.book("dune")), "count", .int(9))
        try b.store()
        #expect(try db.psql("SELECT name, count FROM \"Book\" WHERE id = 'dune'") == "Dune A|9")
        #expect(b.book("dune")?["name"]?.displayString == "Dune A")
        let c = try #require(b.conflicts.first)
        #expect((c.model, c.type, c.id, c.field) == ("default", "Book", "dune", "name"))
        #expect((c.base, c.theirs, c.mine) == ("\"Dune\"", "\"Dune A\"", "\"Dune B\""))
        #expect(c.jsonLine.contains("\"field\":\"name\""))
    }

    @Test func aDeletionWinsOverAnEditAndTheEditIsReported() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seedTwoBooks)
        let b = try Self.process(db.url)
        try a.engine.remove(at: 0, from: try a.books)
        try a.store()
        try b.engine.set(try #require(b.book("dune")), "name", .string("Dune edited"))
        try b.store()
        #expect(try db.psql("SELECT count(*) FROM \"Book\" WHERE id = 'dune'") == "0")
        #expect(try b.books.items.compactMap { $0.entity?.id } == ["emma"])
        #expect(b.conflicts.map(\.field) == ["name"])
        #expect(b.conflicts.first?.theirs == "null")
    }

    @Test func columnsAnotherProgramAddedAreKeptAsTheyAre() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seedTwoBooks)
        _ = try db.psql("ALTER TABLE \"Book\" ADD COLUMN isbn text; UPDATE \"Book\" SET isbn = '978-0441' WHERE id = 'dune'")
        let b = try Self.process(db.url)
        try b.engine.set(try #require(b.book("dune")), "count", .int(3))
        try b.store()
        #expect(try db.psql("SELECT isbn, count FROM \"Book\" WHERE id = 'dune'") == "978-0441|3")
        // A new field of the app is a new column, with its default in the rows already there.
        #expect(try db.psql("SELECT count(*) FROM information_schema.columns WHERE table_name = 'Book' AND column_name = 'okit_version'") == "1")
        _ = a
    }

    @Test func anUnreachableDatabaseNamesTheURLWithoutThePassword() throws {
        let folder = try TempFolder()
        let schema = Schema()
        try Self.schema(schema)
        let engine = Engine(schema: schema)
        let files = try FileStorage(dataFolder: folder.url)
        defer { files.close() }
        let port = try PostgresTestDatabase.freePort()
        let storage = PostgresStorage(files: files, settings: try PostgresSettings.parse("postgres://okit:secret@127.0.0.1:\(port)/shop"))
        do {
            _ = try engine.register(model: "default", type: "Shop", storage: storage, storageKind: .postgres)
            Issue.record("registering must fail")
        } catch let e as StorageError {
            #expect(e.description.contains("postgres://okit@127.0.0.1:\(port)/shop"))
            #expect(!e.description.contains("secret"))
        }
    }
}
