import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// Stores of one shared model by several processes at once (issue 39 item 3, storage.md "Shared models on
/// PostgreSQL"): stores of different rows do not wait for each other, a field changed on both sides is still
/// reported once, and the change feed is followed without a lock: at the next command, and after a lost
/// connection by catching up.
@Suite(.serialized) struct PostgresConcurrentStoreTests {
    static func process(_ url: String, seed: ((Engine, Entity) throws -> Void)? = nil) throws -> PostgresProcess {
        try PostgresStorageTests.process(url, seed: seed)
    }

    /// A store that waits for a lock fails after this instead of hanging the test (a store of other rows must
    /// not wait at all).
    static func failInsteadOfWaiting(_ p: PostgresProcess) throws {
        try p.storage.link.query("SET lock_timeout = '20s'")
    }

    @Test func aStoreOfAnotherBookCommitsWhileAnotherProcessHoldsItsStoreOpen() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresStorageTests.seedTwoBooks)
        let b = try Self.process(db.url)
        try Self.failInsteadOfWaiting(b)
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune by A"))
        try b.engine.set(try #require(b.book("emma")), "name", .string("Emma by B"))
        var inside = false
        // A's transaction has written its row and not committed: B stores another book meanwhile, and commits.
        a.storage.beforeCommit = { [unowned a] in
            a.storage.beforeCommit = nil
            inside = true
            try b.store()
            #expect(try db.psql("SELECT id, name FROM \"Book\" ORDER BY id") == "dune|Dune\nemma|Emma by B")
        }
        try a.store()
        #expect(inside)
        #expect(try db.psql("SELECT id, name FROM \"Book\" ORDER BY id") == "dune|Dune by A\nemma|Emma by B")
        // Each sees the other's store at its next command, without waiting for it.
        #expect(try a.storage.followAnnouncements(a.model, engine: a.engine))
        #expect(try b.storage.followAnnouncements(b.model, engine: b.engine))
        #expect(a.book("emma")?["name"]?.displayString == "Emma by B")
        #expect(b.book("dune")?["name"]?.displayString == "Dune by A")
        #expect(a.conflicts.isEmpty && b.conflicts.isEmpty)
        #expect(try a.engine.store(a.model) == .unchanged && b.engine.store(b.model) == .unchanged)
    }

    @Test func aFieldBothProcessesChangedIsReportedOnceAndTheFirstStoreKeepsIt() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresStorageTests.seedTwoBooks)
        let b = try Self.process(db.url)
        try Self.failInsteadOfWaiting(b)
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune by A"))
        try b.engine.set(try #require(b.book("dune")), "name", .string("Dune by B"))
        try b.engine.set(try #require(b.book("emma")), "count", .int(5))
        try a.store()
        try b.store()            // has not followed A's store: its row's version moved
        #expect(try db.psql("SELECT id, name, count FROM \"Book\" ORDER BY id") == "dune|Dune by A|1\nemma|Emma|5")
        #expect(b.conflicts.map { [$0.id, $0.field, $0.theirs, $0.mine] } == [["dune", "name", "\"Dune by A\"", "\"Dune by B\""]])
        #expect(try a.storage.followAnnouncements(a.model, engine: a.engine))
        _ = try b.storage.followAnnouncements(b.model, engine: b.engine)
        #expect(a.book("emma")?["count"]?.displayString == "5")
        #expect(b.book("dune")?["name"]?.displayString == "Dune by A")
        #expect(a.conflicts.isEmpty && b.conflicts.count == 1)
    }

    @Test func aProcessThatLostItsListeningConnectionCatchesUpWithWhatWasStoredMeanwhile() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresStorageTests.seedTwoBooks)
        let b = try Self.process(db.url)
        b.storage.listener.stop()
        try a.engine.set(try #require(a.book("emma")), "count", .int(8))
        try a.engine.remove(at: 0, from: try a.books)
        try a.store()
        #expect(try b.storage.followAnnouncements(b.model, engine: b.engine))
        #expect(try b.books.items.compactMap { $0.entity?.id } == ["emma"])
        #expect(b.book("emma")?["count"]?.displayString == "8")
        // Listening again: the next store is announced as before.
        try a.engine.set(try #require(a.book("emma")), "count", .int(9))
        try a.store()
        #expect(try b.storage.followAnnouncements(b.model, engine: b.engine))
        #expect(b.book("emma")?["count"]?.displayString == "9")
        #expect(b.conflicts.isEmpty)
    }

    @Test func anAnnouncementThatCouldNotBeSentIsSentAtTheNextCommand() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresStorageTests.seedTwoBooks)
        let b = try Self.process(db.url)
        // A's store committed, and its connection broke before the NOTIFY: the row is in the database, the
        // announcement is kept.
        _ = try db.psql("UPDATE \"Book\" SET name = 'Dune unannounced', okit_version = okit_version + 1000 WHERE id = 'dune'")
        a.storage.unannounced = [PostgresAnnouncement(model: "default", version: 1, from: a.storage.processToken, keys: ["dune"], tables: ["Book"])]
        #expect(try !b.storage.followAnnouncements(b.model, engine: b.engine))
        _ = try a.storage.followAnnouncements(a.model, engine: a.engine)
        #expect(a.storage.unannounced.isEmpty)
        #expect(try b.storage.followAnnouncements(b.model, engine: b.engine))
        #expect(b.book("dune")?["name"]?.displayString == "Dune unannounced")
    }

    @Test func anAnnouncementNamesItsTablesUnlessItIsTooLong() throws {
        let short = PostgresAnnouncement(model: "m", version: 7, from: "p", keys: ["dune", "emma"], tables: ["Author", "Book"])
        #expect(PostgresAnnouncement.parse(short.payload()) == short)
        let long = PostgresAnnouncement(model: "m", version: 7, from: "p", keys: (0..<1000).map { "book-\($0)" }, tables: ["Book"])
        let parsed = try #require(PostgresAnnouncement.parse(long.payload()))
        #expect(parsed.keys == nil && parsed.tables == nil)
        // An announcement of an earlier okit (no tables): every table is read.
        #expect(PostgresAnnouncement.parse("{\"model\":\"m\",\"version\":1,\"from\":\"p\",\"keys\":[\"dune\"]}")?.tables == nil)
    }
}
