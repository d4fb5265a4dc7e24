import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres
import NIOCore
import PostgresNIO

/// A process joining a shared model reads each row as one record (`PostgresRecordRow`, issue 39 `pg_join`) in the
/// order of the tables' order index: the model read is the one the same rows read a cell at a time make, columns of
/// other types fall back to cells, and a role that may not make the index still joins.
@Suite(.serialized) struct PostgresRecordRowTests {
    /// The model as JSON, the ids each process makes for entities without one of their own (a blob's, a ref's)
    /// written as `<uuid>`.
    static func json(_ p: PostgresProcess) -> String {
        String(decoding: JSONWriter.entityJSON(p.root), as: UTF8.self)
            .replacingOccurrences(of: #"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}"#, with: "<uuid>", options: .regularExpression)
    }

    /// Every field kind, entities without ids, maps, refs, blobs and NULLs: records and cells read the same model.
    @Test func aRecordReadsWhatTheCellsRead() throws {
        let db = try PostgresTestDatabase.make()
        let a = try PostgresProcess(url: db.url, schema: PostgresModelShapesTests.schema) { engine, root in
            try PostgresModelShapesTests.seed(engine, root)
            let dune = try #require(try engine.collection(root, "books").items.first?.entity)
            try engine.writeBytes(dune, "blob", [0, 1, 2, 255, 0], format: "application/octet-stream", label: "raw")
            try engine.set(dune, "due", .date(Date(timeIntervalSince1970: 1_700_000_000)))
            try engine.set(dune, "count", .int(-9_007_199_254_740_993))
            try engine.set(root, "pick", .entity(dune))
        }
        let records = try PostgresProcess(url: db.url, schema: PostgresModelShapesTests.schema)
        let cells = try PostgresProcess(url: db.url, schema: PostgresModelShapesTests.schema, recordRows: false)
        #expect(Self.json(records) == Self.json(a))
        #expect(Self.json(cells) == Self.json(a))
        #expect(Self.json(a).contains("-9007199254740993"))
        #expect(records.storage.tablesReadAsRecords.sorted() == ["Book", "Note", "Shop"])
        #expect(cells.storage.tablesReadAsRecords.isEmpty)
        #expect(try records.book("dune").flatMap { $0["blob"]?.entity }.map(records.engine.readBytes) == [0, 1, 2, 255, 0])
        // The bases read as records are the ones a store compares with: nothing changed, nothing written.
        #expect(try records.engine.store(records.model) == .unchanged)
    }

    /// Every value kind in more rows than one part, in both forms (`PostgresJoinTests`' model).
    @Test func manyPartsReadTheSameEitherWay() throws {
        let db = try PostgresTestDatabase.make()
        let a = try PostgresJoinTests.process(db.url, seed: PostgresJoinTests.seed)
        let records = try PostgresJoinTests.process(db.url)
        let cells = try PostgresProcess(url: db.url, schema: PostgresJoinTests.schema, fetchRows: PostgresJoinTests.fetchRows,
                                        recordRows: false)
        #expect(Self.json(records) == Self.json(a))
        #expect(Self.json(cells) == Self.json(a))
    }

    /// Columns another program added: those of the types a record reads (integer, real, smallint, varchar) are read
    /// in the record; a table with one of another type (numeric) is read a cell at a time. Both keep the values.
    @Test func columnsOfOtherTypesAreReadAsBefore() throws {
        let db = try PostgresTestDatabase.make()
        let a = try PostgresProcess(url: db.url, schema: PostgresModelShapesTests.schema, seed: PostgresModelShapesTests.seed)
        _ = try db.psql("""
            ALTER TABLE "Book" ADD COLUMN copies integer, ADD COLUMN weight real, ADD COLUMN shelf smallint, ADD COLUMN isbn varchar(20);
            UPDATE "Book" SET copies = 7, weight = 0.5, shelf = -3, isbn = '978-0441' WHERE id = 'dune';
            ALTER TABLE "Note" ADD COLUMN rating numeric; UPDATE "Note" SET rating = 4.5;
            """)
        let b = try PostgresProcess(url: db.url, schema: PostgresModelShapesTests.schema)
        let cells = try PostgresProcess(url: db.url, schema: PostgresModelShapesTests.schema, recordRows: false)
        #expect(Self.json(b) == Self.json(cells))
        #expect(b.storage.tablesReadAsRecords.sorted() == ["Book", "Shop"], "Note has a numeric column")
        try b.engine.set(try #require(b.book("dune")), "count", .int(3))
        try b.store()
        #expect(try db.psql("SELECT copies, weight, shelf, isbn, count FROM \"Book\" WHERE id = 'dune'") == "7|0.5|-3|978-0441|3")
        let note = try #require(try b.collection("notes").items.first?.entity)
        try b.engine.set(note, "stars", .int(2))
        try b.store()
        #expect(try db.psql("SELECT rating, stars FROM \"Note\" WHERE text = 'n0'") == "4.5|2")
        _ = a
    }

    /// The order index is made with the tables, and added to tables made before it; a role that may read and
    /// write the rows but does not own the tables (so may not index them) joins without it, reading them sorted,
    /// and the owner's next start adds it.
    @Test func theOrderIndexIsMadeAndARoleThatMayNotMakeItStillJoins() throws {
        let db = try PostgresTestDatabase.make()
        let indexes = "SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE indexname LIKE '%_okit_order'"
        let a = try PostgresProcess(url: db.url, schema: PostgresModelShapesTests.schema, seed: PostgresModelShapesTests.seed)
        #expect(try db.psql(indexes) == "Book_okit_order,Note_okit_order,Shop_okit_order")
        let role = "rows_" + db.name  // roles are the cluster's: one for each test database
        _ = try db.psql("""
            DROP INDEX "Book_okit_order";
            CREATE ROLE \(role) LOGIN;
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role);
            GRANT CREATE ON SCHEMA public TO \(role);
            """)
        let rowsURL = db.url.replacingOccurrences(of: "://okit@", with: "://\(role)@")
        #expect(rowsURL != db.url)
        let b = try PostgresProcess(url: rowsURL, schema: PostgresModelShapesTests.schema)
        #expect(Self.json(b) == Self.json(a))
        #expect(try db.psql(indexes) == "Note_okit_order,Shop_okit_order")
        #expect(!b.engine.warnings.contains { $0.contains("order index") }, "a refusal for want of rights is not a warning")
        try b.engine.set(try #require(b.book("emma")), "count", .int(5))
        try b.store()
        let c = try PostgresProcess(url: db.url, schema: PostgresModelShapesTests.schema)
        #expect(try db.psql(indexes) == "Book_okit_order,Note_okit_order,Shop_okit_order")
        #expect(c.book("emma")?["count"]?.isSame(as: .int(5)) == true)
    }
}

/// `PostgresRecordRow`'s reader on records made by hand in PostgreSQL's binary form of a record.
@Suite struct PostgresRecordBytesTests {
    /// A record: the column count, then each column's type oid, its length (-1 for NULL) and its bytes.
    static func record(_ columns: [(oid: UInt32, bytes: [UInt8]?)], count: Int32? = nil) -> PostgresCell {
        var b = ByteBuffer()
        b.writeInteger(count ?? Int32(columns.count))
        for c in columns {
            b.writeInteger(c.oid)
            b.writeInteger(c.bytes.map { Int32($0.count) } ?? -1)
            if let bytes = c.bytes { b.writeBytes(bytes) }
        }
        return PostgresCell(bytes: b, dataType: .init(2249), format: .binary, columnName: "row", columnIndex: 0)
    }

    static func bigEndian<T: FixedWidthInteger>(_ x: T) -> [UInt8] { withUnsafeBytes(of: x.bigEndian, Array.init) }

    static func read(_ cell: PostgresCell, columns: Int) throws -> RelationalRowBatch.Columns {
        var out = RelationalRowBatch.Columns(kinds: [], numbers: [], ranges: [], bytes: [])
        try out.appendRecord(cell, columns: columns)
        return out
    }

    @Test func everyTypeOfOkitsTablesIsRead() throws {
        let cell = Self.record([(25, Array("Dune ✓".utf8)), (1043, Array("v".utf8)), (17, [0, 255]), (20, Self.bigEndian(Int64.min)),
                                (23, Self.bigEndian(Int32(-7))), (21, Self.bigEndian(Int16(300))), (701, Self.bigEndian(2.5.bitPattern)),
                                (700, Self.bigEndian(Float(0.5).bitPattern)), (16, [1]), (16, [0]), (25, nil)])
        let c = try Self.read(cell, columns: 11)
        #expect(c.kinds == [.text, .text, .blob, .integer, .integer, .integer, .real, .real, .integer, .integer, .null])
        #expect(c.numbers[3...9].map { $0 } == [UInt64(bitPattern: Int64.min), UInt64(bitPattern: -7), 300, 2.5.bitPattern, 0.5.bitPattern, 1, 0])
        #expect(String(decoding: c.bytes[Int(c.ranges[0].start)..<Int(c.ranges[0].start + c.ranges[0].count)], as: UTF8.self) == "Dune ✓")
        #expect(Array(c.bytes[Int(c.ranges[2].start)...]) == [0, 255])
    }

    @Test func aRecordThatDoesNotFitIsRefusedNotReadPastItsEnd() throws {
        // Another number of columns than selected, a length past the record's end, a number of the wrong size, a
        // type okit reads a cell at a time.
        let cases: [(PostgresCell, String)] = [
            (Self.record([(25, [65])]), "another number of columns"),
            (Self.record([(25, [65]), (25, [66])], count: 3), "ends early"),
            (Self.record([(20, [0, 0, 1])]), "a number of 3 bytes"),
            (Self.record([(1700, [0, 0])]), "type oid 1700"),
        ]
        for (i, (cell, why)) in cases.enumerated() {
            do {
                _ = try Self.read(cell, columns: i == 0 ? 2 : (i == 1 ? 3 : 1))
                Issue.record("case \(i) was read")
            } catch let e as PostgresRecordRow.Unreadable {
                #expect(e.why.contains(why), "case \(i): \(e.why)")
            }
        }
        // A length that says more bytes than the record has.
        var b = ByteBuffer()
        b.writeInteger(Int32(1)); b.writeInteger(UInt32(25)); b.writeInteger(Int32(1000)); b.writeBytes([65, 66])
        let short = PostgresCell(bytes: b, dataType: .init(2249), format: .binary, columnName: "row", columnIndex: 0)
        #expect(throws: PostgresRecordRow.Unreadable.self) { _ = try Self.read(short, columns: 1) }
    }
}
