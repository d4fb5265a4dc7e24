import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// A process joining a shared model (storage.md "Shared models on PostgreSQL"): its tables are read a part at a
/// time (`PostgresStorage.fetchRows`) and the rows' merge bases stay in the parts they were read into. Models of
/// more rows than one part, so that every table is read in several: parts of 256 rows here (4,096 in use), so a
/// model of 1,351 rows is read in as many parts as one of 20,000 would be.
@Suite(.serialized) struct PostgresJoinTests {
    static func schema(_ schema: Schema) throws {
        try schema.entity("Chapter", fields: [FieldSpec("title", .string), FieldSpec("pages", .int)])
        try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("count", .int), FieldSpec("done", .bool),
                                           FieldSpec("price", .double), FieldSpec("published", .date), FieldSpec("note", .string, optional: true),
                                           FieldSpec("chapters", "[Chapter]")])
        try schema.entity("Shop", fields: [FieldSpec("title", .string), FieldSpec("books", "[Book]")])
        try schema.validate()
    }

    static let bookCount = 450
    static let fetchRows = 256

    /// Books `b0`…, each with one to three chapters (more rows than `fetchRows` in both tables), every value kind.
    static func seed(_ engine: Engine, _ root: Entity) throws {
        try engine.set(root, "title", .string("Shop"))
        let books = try engine.collection(root, "books")
        for i in 0..<bookCount {
            let book = try engine.make("Book", ["id": .string("b\(i)"), "name": .string("Book \(i) ✓"), "count": .int(i * 7 - 300),
                                                "done": .bool(i % 3 == 0), "price": .double(Double(i) / 8),
                                                "published": .date(Date(timeIntervalSince1970: 1_600_000_000 + Double(i) * 3600))])
            if i % 5 == 0 { try engine.set(book, "note", .string("note \(i)")) }
            let chapters = try engine.collection(book, "chapters")
            for c in 0..<(1 + i % 3) {
                try engine.insert(.entity(engine.make("Chapter", ["id": .string("c\(i)-\(c)"), "title": .string("Chapter \(2 - c)"), "pages": .int(c)])),
                                  into: chapters, append: true)
            }
            try engine.insert(.entity(book), into: books, append: true)
        }
    }

    static func process(_ url: String, seed: ((Engine, Entity) throws -> Void)? = nil) throws -> PostgresProcess {
        try PostgresProcess(url: url, schema: schema, seed: seed, fetchRows: fetchRows)
    }

    @Test func aJoinedModelIsTheModelWritten() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        #expect(try db.psql("SELECT count(*) FROM \"Chapter\"") == String(Self.bookCount * 2))
        #expect(Self.bookCount > Self.fetchRows && PostgresStorage.defaultFetchRows > Self.fetchRows)
        let b = try Self.process(db.url, seed: { _, _ in Issue.record("the joining process must not seed") })
        // Every value, every collection's order, every nested entity (each process has a schema of its own: compared
        // as the model's JSON).
        let written = String(decoding: JSONWriter.entityJSON(a.root), as: UTF8.self)
        #expect(written.contains("\"c449-1\"") && written.contains("note 445"))
        #expect(String(decoding: JSONWriter.entityJSON(b.root), as: UTF8.self) == written)
        #expect(try b.books.items.compactMap { $0.entity?.id } == (0..<Self.bookCount).map { "b\($0)" })
        let book = try #require(b.book("b401"))
        #expect(try b.engine.collection(book, "chapters").items.compactMap { $0.entity?["title"]?.displayString } == ["Chapter 2", "Chapter 1", "Chapter 0"])
        #expect(book["note"]?.isNull == true && b.book("b400")?["note"]?.displayString == "note 400")
        #expect(!b.model.isFileDirty)
        #expect(try b.engine.store(b.model) == .unchanged)
        // The ids are indexed with the join: the first announcement applied does not wait for it.
        let c = try Self.process(db.url)
        #expect(!c.engine.idIndex.hasPending)
    }

    @Test func aPartOfLargeValuesIsReadIntoSeveralBatches() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        // 1 KiB a batch: every part of 256 rows goes into many (a batch's offsets are 32-bit: at 2 GiB of blobs in
        // one part they would wrap).
        let b = try PostgresProcess(url: db.url, schema: Self.schema, batchBytes: 1024, fetchRows: Self.fetchRows)
        #expect(b.storage.base.loadedBatchCount > 2 * (Self.bookCount * 3 / Self.fetchRows + 1))
        #expect(String(decoding: JSONWriter.entityJSON(b.root), as: UTF8.self) == String(decoding: JSONWriter.entityJSON(a.root), as: UTF8.self))
        try a.engine.set(try #require(a.book("b432")), "name", .string("Name A"))
        try a.store()
        try b.engine.set(try #require(b.book("b432")), "name", .string("Name B"))
        try b.store()
        #expect(b.conflicts.map { [$0.id, $0.field, $0.base] } == [["b432", "name", "\"Book 432 ✓\""]], "the bases are in the right batches")
        // One row alone past the limit is refused by name, not read with a wrapped offset.
        #expect(throws: StorageError.self) { _ = try PostgresProcess(url: db.url, schema: Self.schema, batchBytes: 8, fetchRows: Self.fetchRows) }
    }

    @Test func aConflictOnARowNeverEditedHereIsReportedOnce() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        // A book of the last part read: its base is what B read, kept in that part.
        try a.engine.set(try #require(a.book("b432")), "name", .string("Name A"))
        try a.store()
        try b.engine.set(try #require(b.book("b432")), "name", .string("Name B"))
        try b.engine.set(try #require(b.book("b432")), "count", .int(99))
        try b.store()
        #expect(try db.psql("SELECT name, count FROM \"Book\" WHERE id = 'b432'") == "Name A|99")
        #expect(b.book("b432")?["name"]?.displayString == "Name A")
        #expect(b.conflicts.map { [$0.id, $0.field, $0.base, $0.theirs, $0.mine] } == [["b432", "name", "\"Book 432 ✓\"", "\"Name A\"", "\"Name B\""]])
        // A field only the other process changed, of a row B never touched: taken, nothing reported.
        try a.engine.set(try #require(a.book("b17")), "price", .double(1.25))
        try a.engine.set(try #require(a.book("b432")), "done", .bool(true))
        try a.store()
        #expect(try b.follow())
        #expect(b.book("b17")?["price"]?.displayString == "1.25")
        #expect(b.book("b432")?["done"]?.isSame(as: .bool(true)) == true)
        #expect(b.conflicts.count == 1)
        #expect(!b.model.isFileDirty)
        // A's side: B's count arrives; A's own name stays, nothing reported there either.
        _ = try a.follow(timeout: 2)
        #expect(a.book("b432")?["count"]?.isSame(as: .int(99)) == true)
        #expect(a.conflicts.isEmpty)
    }

    /// A serve that runs for long writes most rows since it joined: once half the load's rows have bases of their own,
    /// the load's batches are folded into them and given back, and the rows never written keep their right bases.
    @Test func theLoadsBatchesAreFoldedWhenMostRowsAreSuperseded() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        #expect(b.storage.base.loadedBatchCount > 0)
        for i in 0..<Self.bookCount {
            let book = try #require(b.book("b\(i)"))
            try b.engine.set(book, "count", .int(i))
            if i < 150 { for chapter in try b.engine.collection(book, "chapters").items.compactMap(\.entity) { try b.engine.set(chapter, "pages", .int(9)) } }
        }
        try b.store()
        #expect(b.storage.base.loadedBatchCount == 0, "more than half the rows were stored: the batches are given back")
        // A chapter B never wrote: its base came from a folded batch.
        let bookB = try #require(b.book("b432"))
        let mine = try #require(try b.engine.collection(bookB, "chapters").items.first?.entity)
        _ = try a.follow(timeout: 2)
        let bookA = try #require(a.book("b432"))
        let theirs = try #require(try a.engine.collection(bookA, "chapters").items.first?.entity)
        try a.engine.set(theirs, "title", .string("Title A"))
        try a.store()
        try b.engine.set(mine, "title", .string("Title B"))
        try b.store()
        #expect(b.conflicts.map { [$0.id, $0.field, $0.base, $0.theirs, $0.mine] } == [["c432-0", "title", "\"Chapter 2\"", "\"Title A\"", "\"Title B\""]])
        #expect(try db.psql("SELECT title FROM \"Chapter\" WHERE id = 'c432-0'") == "Title A")
    }
}
