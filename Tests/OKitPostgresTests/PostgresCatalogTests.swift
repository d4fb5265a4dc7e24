import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// What a start reads of PostgreSQL's catalog (`PostgresCatalog`): every table's columns, types and order index in
/// one statement, read once more only for tables it made or added columns to; and an order index PostgreSQL refuses
/// for a reason other than rights is a warning, the model opening without it.
@Suite(.serialized) struct PostgresCatalogTests {
    static let indexes = "SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE indexname LIKE '%_okit_order'"

    /// A process on `PostgresModelShapesTests`' model (tables Book, Note, Shop) whose connection logs its statements.
    static func process(_ url: String, seed: ((Engine, Entity) throws -> Void)? = nil) throws -> PostgresProcess {
        try PostgresProcess(url: url, schema: PostgresModelShapesTests.schema, seed: seed, configure: { $0.link.statementLog = [] })
    }

    static func log(_ p: PostgresProcess) -> [String] { p.storage.link.statementLog ?? [] }

    /// The statements that read PostgreSQL's catalog.
    static func catalogReads(_ p: PostgresProcess) -> [String] {
        log(p).filter { s in ["information_schema", "pg_indexes", "pg_catalog", "pg_class", "pg_attribute"].contains { s.contains($0) } }
    }

    static func orderWarnings(_ p: PostgresProcess) -> [String] { p.engine.warnings.filter { $0.contains("order index") } }

    /// Tables all there: one statement reads the three tables' columns, types and order indexes (it was two reads of
    /// `information_schema.columns` and one of `pg_indexes` for each table), and nothing is made.
    @Test func aStartReadsTheCatalogOfEveryTableInOneStatement() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        // An empty database: one read, and one more of the tables made (their columns as PostgreSQL made them).
        #expect(Self.catalogReads(a).count == 2)
        #expect(try db.psql(Self.indexes) == "Book_okit_order,Note_okit_order,Shop_okit_order")
        let b = try Self.process(db.url)
        #expect(Self.catalogReads(b).count == 1, "\(Self.catalogReads(b))")
        #expect(!Self.log(b).contains { $0.hasPrefix("CREATE INDEX") || $0.hasPrefix("ALTER TABLE") || $0.hasPrefix("SAVEPOINT okit_order") })
        #expect(b.storage.tablesReadAsRecords.sorted() == ["Book", "Note", "Shop"])
        #expect(PostgresRecordRowTests.json(b) == PostgresRecordRowTests.json(a))
        #expect(Self.orderWarnings(a).isEmpty && Self.orderWarnings(b).isEmpty)
    }

    /// A column okit adds back and one another program added, and an order index made again: the start reads the
    /// changed table's columns once more, so the load selects both with their types as PostgreSQL has them.
    @Test func columnsAddedAtStartAreReadAgainOnce() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        _ = try db.psql("""
            ALTER TABLE "Book" ADD COLUMN copies integer, DROP COLUMN due;
            UPDATE "Book" SET copies = 7 WHERE id = 'dune';
            DROP INDEX "Note_okit_order";
            """)
        let b = try Self.process(db.url)
        #expect(Self.catalogReads(b).count == 2, "\(Self.catalogReads(b))")
        #expect(Self.log(b).contains { $0.hasPrefix("ALTER TABLE \"Book\" ADD COLUMN IF NOT EXISTS \"due\"") })
        #expect(Self.log(b).contains { $0.hasPrefix("CREATE INDEX \"Note_okit_order\"") })
        #expect(try db.psql(Self.indexes) == "Book_okit_order,Note_okit_order,Shop_okit_order")
        let book = try #require(b.storage.pgTables.firstIndex { $0.name == "Book" })
        #expect(Set(["copies", "due"]).isSubset(of: b.storage.existingColumns[book]))
        #expect(b.storage.tablesReadAsRecords.sorted() == ["Book", "Note", "Shop"])
        // The other program's column is kept as the books' unknown field.
        #expect(PostgresRecordRowTests.json(b) == PostgresRecordRowTests.json(a)
            .replacingOccurrences(of: #""notes":[]}"#, with: #""notes":[],"copies":null}"#)
            .replacingOccurrences(of: #""name":"Dune","count":0,"notes":[],"copies":null"#, with: #""name":"Dune","count":0,"notes":[],"copies":7"#))
        try b.engine.set(try #require(b.book("dune")), "due", .date(Date(timeIntervalSince1970: 1_700_000_000)))
        try b.store()
        #expect(try db.psql("SELECT copies, due IS NOT NULL FROM \"Book\" WHERE id = 'dune'") == "7|t")
        let c = try Self.process(db.url)
        #expect(Self.catalogReads(c).count == 1)
        #expect(Self.orderWarnings(b).isEmpty && Self.orderWarnings(c).isEmpty)
    }

    /// Another object of the index's name (here a table): the model opens and stores, a warning names the table, the
    /// index, PostgreSQL's message and what to do; once it is gone the next start makes the index without a word.
    @Test func anOrderIndexRefusedForAnotherObjectOfItsNameIsAWarning() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        _ = try db.psql(#"DROP INDEX "Book_okit_order"; CREATE TABLE "Book_okit_order" (x integer);"#)
        let b = try Self.process(db.url)
        #expect(PostgresRecordRowTests.json(b) == PostgresRecordRowTests.json(a))
        let w = Self.orderWarnings(b)
        #expect(w.count == 1)
        let text = w.first ?? ""
        for part in [db.name, #"model "default""#, #"order index "Book_okit_order" on table "Book""#, "already exists", "42P07",
                     "rows are read sorted", "rename or drop it"] {
            #expect(text.contains(part), "\(part) in \(text)")
        }
        try b.engine.set(try #require(b.book("emma")), "count", .int(5))
        try b.store()
        #expect(try db.psql(#"SELECT count FROM "Book" WHERE id = 'emma'"#) == "5")
        _ = try db.psql(#"DROP TABLE "Book_okit_order""#)
        let c = try Self.process(db.url)
        #expect(Self.orderWarnings(c).isEmpty)
        #expect(try db.psql(Self.indexes) == "Book_okit_order,Note_okit_order,Shop_okit_order")
    }

    /// A table another transaction holds past `lock_timeout`: the start does not wait for it, the model opens, and
    /// the warning says to try again when the table is quiet.
    @Test func anOrderIndexPastTheLockTimeoutIsAWarning() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        _ = try db.psql(#"DROP INDEX "Book_okit_order"; ALTER DATABASE "\#(db.name)" SET lock_timeout = '200ms';"#)
        let holder = PostgresLink(settings: try PostgresSettings.parse(db.url))
        defer { holder.close() }
        try holder.execute("BEGIN")
        try holder.execute(#"LOCK TABLE "Book" IN ROW EXCLUSIVE MODE"#)
        let b = try Self.process(db.url)
        try holder.execute("ROLLBACK")
        #expect(PostgresRecordRowTests.json(b) == PostgresRecordRowTests.json(a))
        let text = Self.orderWarnings(b).first ?? ""
        for part in [#"order index "Book_okit_order" on table "Book""#, "lock timeout", "55P03", "when the table is quiet: CREATE INDEX"] {
            #expect(text.contains(part), "\(part) in \(text)")
        }
        _ = try db.psql(#"ALTER DATABASE "\#(db.name)" RESET lock_timeout"#)
        let c = try Self.process(db.url)
        #expect(Self.orderWarnings(c).isEmpty)
        #expect(try db.psql(Self.indexes) == "Book_okit_order,Note_okit_order,Shop_okit_order")
    }

    /// The index's name is cut as PostgreSQL cuts identifiers (whole characters in 63 bytes), so a start finds the
    /// index PostgreSQL made under a long table's name and does not try to make it again.
    @Test func anIndexNameIsCutAsPostgreSQLCutsIt() {
        #expect(PostgresTable.cut("Book_okit_order") == "Book_okit_order")
        let long = String(repeating: "a", count: 62) + "é_okit_order"
        #expect(PostgresTable.cut(long) == String(repeating: "a", count: 62))
        #expect(PostgresTable.cut(String(repeating: "b", count: 70)).utf8.count == 63)
    }
}
