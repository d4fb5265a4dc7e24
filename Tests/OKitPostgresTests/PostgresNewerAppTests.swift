import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// An older app's process still running when a newer app's process migrated the shared model (storage.md
/// "Shared models on PostgreSQL", "Versions"): it notices at its next follow or store, stores nothing more (its
/// rows would skip the migration) and keeps its changes in its pending file.
@Suite(.serialized) struct PostgresNewerAppTests {
    /// Two processes of version 1; the second becomes version 2 and stores its migration (every book renamed).
    static func migrated() throws -> (db: PostgresTestDatabase, old: PostgresProcess, new: PostgresProcess) {
        let db = try PostgresTestDatabase.make()
        let old = try PostgresRefusalTests.process(db.url, seed: true)
        let new = try PostgresRefusalTests.process(db.url)
        new.engine.schemaVersion = 2
        for id in ["dune", "emma"] {
            let book = try #require(new.book(id))
            try new.engine.set(book, "name", .string((book["name"]?.displayString ?? "") + " (v2)"))
        }
        try new.store()
        #expect(try db.psql("SELECT schema_version FROM okit_models") == "2")
        return (db, old, new)
    }

    @Test func anOlderProcessThatFollowsAMigrationStopsStoringAndKeepsItsChange() throws {
        let (db, old, _) = try Self.migrated()
        #expect(try old.follow())
        let warning = try #require(old.engine.warnings.first { $0.contains("migrated") }, "\(old.engine.warnings)")
        #expect(warning.contains("model \"default\" was migrated to version 2 of the app by another process, and this process runs version 1"), "\(warning)")
        try old.engine.set(try #require(old.book("dune")), "count", .int(10))
        let e = try #require(throws: StorageError.self) { try old.store() }
        #expect(e.description.contains("was migrated to version 2 of the app by another process") && e.description.contains("nothing was stored"), "\(e)")
        #expect(e.description.contains("the changes stay pending (\(old.storage.pendingPath))"), "\(e)")
        #expect(try String(contentsOfFile: old.storage.pendingPath, encoding: .utf8).contains(#"{"i":10}"#))
        #expect(try db.psql("SELECT count FROM \"Book\" WHERE id = 'dune'") == "1")
        #expect(try db.psql("SELECT schema_version FROM okit_models") == "2")
    }

    /// Without a follow in between: the store meets the migrated row's version, reads it, and its transaction finds
    /// the newer schema version in `okit_models`.
    @Test func anOlderProcesssStoreOfAMigratedRowIsRefused() throws {
        let (db, old, _) = try Self.migrated()
        try old.engine.set(try #require(old.book("emma")), "count", .int(20))
        let e = try #require(throws: StorageError.self) { try old.store() }
        #expect(e.description.contains("was migrated to version 2"), "\(e)")
        #expect(try db.psql("SELECT name, count FROM \"Book\" WHERE id = 'emma'") == "Emma (v2)|2")
    }

    /// A new row (a store in a transaction) is refused at once, and `okit_models` is never put back to version 1.
    @Test func anOlderProcessAddsNothingAfterAMigration() throws {
        let (db, old, _) = try Self.migrated()
        try old.engine.insert(.entity(old.engine.make("Book", ["id": .string("anna"), "name": .string("Anna")])), into: try old.books, append: true)
        old.storage.modelsRow = nil      // as a process that never wrote okit_models: it would write its version 1
        let e = try #require(throws: StorageError.self) { try old.store() }
        #expect(e.description.contains("was migrated to version 2"), "\(e)")
        #expect(try db.psql("SELECT count(*) FROM \"Book\" WHERE id = 'anna'") == "0")
        #expect(try db.psql("SELECT schema_version FROM okit_models") == "2")
    }

    @Test func theSchemaVersionTravelsInTheAnnouncement() {
        let a = PostgresAnnouncement(model: "default", version: 9, from: "p", keys: ["dune"], schema: 2)
        #expect(a.payload().contains(#","schema":2,"#))
        #expect(PostgresAnnouncement.parse(a.payload())?.schema == 2)
        #expect(PostgresAnnouncement.parse(PostgresAnnouncement(model: "default", version: 9, from: "p", keys: ["dune"]).payload())?.schema == nil)
    }
}
