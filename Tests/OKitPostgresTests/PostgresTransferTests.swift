import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// What moves a shared model in and out of PostgreSQL (storage.md "Shared models on PostgreSQL"): changes left
/// pending on disk by a run that lost the database, `okit-run convert` to postgres and back, backups.
@Suite(.serialized) struct PostgresTransferTests {

    @Test func pendingChangesLeftOnDiskLandMergedAtTheNextStart() throws {
        let db = try PostgresTestDatabase.make()
        let a = try PostgresStorageTests.process(db.url, seed: PostgresStorageTests.seedTwoBooks)
        let b = try PostgresStorageTests.process(db.url)
        // A changes the name and the price of Dune, but cannot store: its rows are kept on disk.
        let dune = try #require(a.book("dune"))
        try a.engine.set(dune, "name", .string("Dune (pending)"))
        try a.engine.set(dune, "price", .double(9.5))
        let plan = try RelationalStorePlan(model: a.model, tables: try #require(a.storage.tables), stored: a.storage.stored)
        try a.storage.savePendingOrThrow(plan)
        #expect(FileManager.default.fileExists(atPath: a.storage.pendingPath))
        // Meanwhile B stores a new count and its own price.
        try b.engine.set(try #require(b.book("dune")), "count", .int(5))
        try b.engine.set(try #require(b.book("dune")), "price", .double(7))
        try b.store()
        // A starts again on the same data folder: its pending rows are merged onto B's.
        a.close()
        let a2 = try PostgresStorageTests.process(db.url, folder: a.folder)
        #expect(try db.psql("SELECT name, count, price FROM \"Book\" WHERE id = 'dune'") == "Dune (pending)|5|7")
        #expect(a2.book("dune")?["name"]?.displayString == "Dune (pending)")
        #expect(a2.conflicts.map(\.field) == ["price"])
        #expect(!FileManager.default.fileExists(atPath: a2.storage.pendingPath))
    }

    @Test func convertMovesAFileModelIntoTheDatabaseAndBack() throws {
        let db = try PostgresTestDatabase.make()
        let settings = try PostgresSettings.parse(db.url)
        let folder = try TempFolder()
        let schema = Schema()
        try PostgresStorageTests.schema(schema)
        let engine = Engine(schema: schema)
        let files = try FileStorage(dataFolder: folder.url)
        defer { files.close() }
        let model = try engine.register(model: "default", type: "Shop", storage: files) { root in
            try PostgresStorageTests.seedTwoBooks(engine, root)
        }
        try engine.store(model)
        let done = try ModelConversion.convert(model: "default", rootType: model.rootType, engine: engine, from: files,
                                               to: PostgresStorage(files: files, settings: settings), now: Date(timeIntervalSince1970: 0))
        #expect(done.path == settings.shown)
        #expect(done.kept.count == 1 && done.kept[0].hasSuffix("default.json.converted-1970-01-01T000000Z"))
        #expect(try db.psql("SELECT name FROM \"Book\" ORDER BY okit_position") == "Dune\nEmma")
        // Converting again is refused: the database has the model's rows.
        #expect(throws: ModelConversion.Failure.self) {
            try ModelConversion.convert(model: "default", rootType: model.rootType, engine: engine, from: files,
                                        to: PostgresStorage(files: files, settings: settings), now: Date())
        }
        // Back out of the database into a new folder, as a JSON file.
        let other = try TempFolder()
        let otherFiles = try FileStorage(dataFolder: other.url)
        defer { otherFiles.close() }
        let back = try ModelConversion.convert(model: "default", rootType: model.rootType, engine: engine,
                                               from: PostgresStorage(files: otherFiles, settings: settings), to: otherFiles, now: Date())
        #expect(FileManager.default.fileExists(atPath: back.path))
        #expect(try db.psql("SELECT count(*) FROM \"Book\"") == "2")
    }

    @Test func aBackupSnapshotRestoresTheRowsAndEveryProcessCatchesUp() throws {
        let db = try PostgresTestDatabase.make()
        let a = try PostgresStorageTests.process(db.url, seed: PostgresStorageTests.seedTwoBooks)
        let b = try PostgresStorageTests.process(db.url)
        let snapshot = try a.storage.snapshotJSON(a.model, engine: a.engine)
        try b.engine.set(try #require(b.book("emma")), "name", .string("Emma (after the backup)"))
        try b.engine.remove(at: 0, from: try b.books)
        try b.store()
        let root = try snapshot.withUnsafeBufferPointer { buf in
            var r = JSONReader(bytes: buf, engine: a.engine)
            return try r.root(a.model.rootType)
        }
        try a.storage.replaceRows(with: root, model: a.model, engine: a.engine)
        #expect(try db.psql("SELECT id, name FROM \"Book\" ORDER BY okit_position") == "dune|Dune\nemma|Emma")
        #expect(try b.follow())
        #expect(try b.books.items.compactMap { $0.entity?["name"]?.displayString } == ["Dune", "Emma"])
    }
}
