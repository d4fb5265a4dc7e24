import Foundation
import GRDB
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitSQLite

/// A large SQLite load reads its rows on a second thread (`SQLiteRowPipe`) and makes the entities on its own:
/// the same model, the same stored rows and the same errors as a read on one thread; a stop part-way leaves the
/// connection usable.
@Suite struct SQLiteRowPipeTests {
    typealias Fixture = SQLiteStorageTests.Fixture

    /// The filled shop of `SQLiteStorageTests` with `authors` more authors (several batches, over three tables).
    func storedShop(authors: Int) throws -> TempFolder {
        let folder = try TempFolder()
        let f = try Fixture(folder)
        defer { f.close() }
        _ = try SQLiteStorageTests().fill(f)
        let list = try f.engine.collection(f.root, "authors")
        for i in 0..<authors {
            try f.engine.insert(.entity(f.engine.make("Author", ["name": .string("Author \(i) ✓")])), into: list, append: true)
        }
        try f.engine.store(f.model)
        return folder
    }

    /// Reads the database with a reader that pipes from `threshold` rows; then `after` is given the connection
    /// (also when the read failed).
    func read(_ folder: TempFolder, threshold: Int, after: (DatabaseQueue) -> Void = { _ in }) throws -> (json: [UInt8], stored: Int, count: Int) {
        let schema = Schema()
        try SQLiteStorageTests.kindsSchema(schema)
        let engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 7))
        let shop = try #require(schema.type(named: "Shop"))
        var reader = RelationalRowReader(tables: RelationalTables(rootType: shop, schema: schema), engine: engine, path: "default.sqlite")
        reader.pipeThreshold = threshold
        let q = try DatabaseQueue(path: SQLiteStorageTests.db(folder))
        defer {
            after(q)
            try? q.close()
        }
        let result = try q.read { db in try reader.read(db) }
        let r = try #require(result)
        return (JSONWriter.entityJSON(r.root), r.stored.count, r.count)
    }

    @Test func rowsReadOnASecondThreadMakeTheModelReadOnOne() throws {
        let folder = try storedShop(authors: 5_000)
        let piped = try read(folder, threshold: 0), plain = try read(folder, threshold: .max)
        #expect(piped.count > 5_000 && piped.count == plain.count)
        #expect(piped.stored == plain.stored)
        #expect(piped.json == plain.json)
    }

    /// A value of the wrong type met while piping stops the read with the error a plain read gives; the
    /// stepping thread stops too, and the connection answers the next query.
    @Test func aWrongValueStopsThePipeWithThePlainError() throws {
        let folder = try storedShop(authors: 5_000)
        let db = SQLiteStorageTests.db(folder)
        _ = try SQLiteStorageTests.sqlite3(db, "update Item set count = 'many'")
        var answered: [Int] = []
        func message(_ threshold: Int) -> String {
            do {
                _ = try read(folder, threshold: threshold) { q in
                    answered.append((try? q.read { try Int.fetchOne($0, sql: "select count(*) from Author") }) ?? nil ?? -1)
                }
                return "read"
            } catch {
                return "\(error)"
            }
        }
        let piped = message(0)
        #expect(piped == message(.max))
        #expect(piped.contains("table Item") && piped.contains("column count") && piped.contains("the TEXT \"many\""), "\(piped)")
        // An author row late in the table, wrong: met after many batches.
        _ = try SQLiteStorageTests.sqlite3(db, "update Item set count = 3")
        _ = try SQLiteStorageTests.sqlite3(db, "update Author set name = X'00FF' where rowid = (select max(rowid) from Author)")
        let late = message(0)
        #expect(late == message(.max))
        #expect(late.contains("table Author") && late.contains("column name") && late.contains("a BLOB of 2 bytes"), "\(late)")
        #expect(answered.count == 4 && answered.allSatisfy { $0 > 5_000 }, "\(answered)")
    }
}
