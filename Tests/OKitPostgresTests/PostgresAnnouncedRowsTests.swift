import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// Announcements that carry the rows a store updated (issue 39 item 3, storage.md "Shared models on PostgreSQL"):
/// a follower applies them as the rows a `SELECT` would have read — values and version exactly as committed, merged
/// field by field — without reading them (`followReads` counts the statements following runs to read rows); what
/// it cannot apply that way (a row too large for a notification, a deletion, a chain with a gap, an unsigned or
/// forged announcement) it reads as before.
@Suite(.serialized) struct PostgresAnnouncedRowsTests {
    static func process(_ url: String, seed: ((Engine, Entity) throws -> Void)? = nil) throws -> PostgresProcess {
        try PostgresModelShapesTests.process(url, seed: seed)
    }

    /// The row as the database holds it now, read the way following reads it.
    static func selected(_ p: PostgresProcess, _ key: String) throws -> PostgresFetchedRow? {
        try p.storage.readRows(keys: [key], only: ["Book"]).fetched[key]
    }

    /// B follows A's announcements once; returns how many statements it ran to read rows.
    static func reads(following b: PostgresProcess) throws -> Int {
        b.storage.followReads = 0
        #expect(try b.follow())
        return b.storage.followReads
    }

    @Test func anEditIsAppliedFromItsAnnouncementExactlyAsCommitted() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        let due = Date(timeIntervalSince1970: 1_800_000_000.25)
        let name = "Dune ✓ \"quoted\"\n\u{1F4D6} é"
        let dune = try #require(a.book("dune"))
        try a.engine.transaction {
            try a.engine.set(dune, "name", .string(name))
            try a.engine.set(dune, "count", .int(Int(Int64.max)))
            try a.engine.set(dune, "due", .date(due))
            try a.engine.writeBytes(dune, "blob", [0, 1, 2, 255], format: "application/octet-stream", label: "raw")
        }
        try a.store()
        let committed = try #require(try Self.selected(a, "dune"))
        // Written behind okit's back after A's store (no announcement): a follower that read the row would show it.
        _ = try db.psql("UPDATE \"Book\" SET name = 'read, not announced' WHERE id = 'dune'")
        #expect(try Self.reads(following: b) == 0)
        let got = try #require(b.book("dune"))
        #expect(got["name"]?.displayString == name)
        #expect(got["count"]?.displayString == String(Int64.max))
        #expect({ if case .date(let d)? = got["due"] { return d == due }; return false }())
        #expect(try got["blob"]?.entity.map(b.engine.readBytes) == [0, 1, 2, 255])
        // The base of the next merge is the committed row and its version, as a SELECT would have given them.
        #expect(b.storage.base["dune"]?.values == committed.written)
        #expect(b.storage.base["dune"]?.version == committed.version)
        #expect(try b.engine.store(b.model) == .unchanged)
        // B's next store of the row passes its version check: nothing to merge, nothing reported.
        try b.engine.set(got, "count", .int(8))
        try b.store()
        #expect(b.conflicts.isEmpty)
        #expect(try db.psql("SELECT count FROM \"Book\" WHERE id = 'dune'") == "8")
        #expect(try Self.reads(following: a) == 0)
        #expect(a.book("dune")?["count"]?.displayString == "8")
    }

    @Test func aNotificationThatIsNotAnAnnouncementIsSaidOnceAndCaughtUpFrom() throws {
        let db = try PostgresTestDatabase.make()
        _ = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        // A row written as okit writes it (its transaction's id as its version) whose announcement B cannot read:
        // B does not know which rows it stands for, so it reads every row changed since it caught up, and says so.
        _ = try db.psql("UPDATE \"Book\" SET name = 'Dune, caught up', okit_version = pg_current_xact_id()::text::bigint WHERE id = 'dune'")
        _ = try db.psql("NOTIFY okit_changes, 'not an announcement'; NOTIFY okit_changes, '{\"model\": 1}'")
        #expect(try b.follow())
        #expect(b.book("dune")?["name"]?.displayString == "Dune, caught up")
        let said = b.engine.warnings.filter { $0.contains("is not an okit announcement") }
        #expect(said.count == 1)
        #expect(said.first?.contains("(\"not an announcement\" and 1 more)") == true)
        #expect(said.first?.contains("okit_changes") == true && said.first?.contains("model \"default\"") == true)
        // Said once: the next one is read the same way without another word.
        _ = try db.psql("UPDATE \"Book\" SET name = 'Dune, again', okit_version = pg_current_xact_id()::text::bigint WHERE id = 'dune'")
        _ = try db.psql("NOTIFY okit_changes, 'still not one'")
        #expect(try b.follow())
        #expect(b.book("dune")?["name"]?.displayString == "Dune, again")
        #expect(b.engine.warnings.filter { $0.contains("is not an okit announcement") }.count == 1)
    }

    @Test func anAnnouncedRowIsMergedWithChangesNotStoredYet() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        let mine = try #require(b.book("dune"))
        try b.engine.set(mine, "name", .string("Dune B"))
        try b.engine.set(mine, "count", .int(5))
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune A"))
        try a.store()
        #expect(try Self.reads(following: b) == 0)
        #expect(mine["name"]?.displayString == "Dune A")
        #expect(mine["count"]?.displayString == "5")
        #expect(b.conflicts.map { [$0.id, $0.field, $0.theirs, $0.mine] } == [["dune", "name", "\"Dune A\"", "\"Dune B\""]])
        try b.store()
        #expect(try db.psql("SELECT name, count FROM \"Book\" WHERE id = 'dune'") == "Dune A|5")
        #expect(b.conflicts.count == 1)
    }

    @Test func storesAnnouncedTogetherAreAppliedInTheirOrder() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        for n in 1...3 {
            try a.engine.set(try #require(a.book("dune")), "count", .int(n))
            try a.store()
        }
        // All three arrive before B's next command; pushed back in reverse, they still chain from B's version.
        try b.storage.listener.sync()
        for note in b.storage.inbox.take().reversed() { b.storage.inbox.push(note) }
        #expect(try Self.reads(following: b) == 0)
        #expect(b.book("dune")?["count"]?.displayString == "3")
        #expect(b.storage.base["dune"]?.version == (try Self.selected(a, "dune"))?.version)
    }

    @Test func aRowAnnouncedAfterAVersionThisProcessNeverHadIsRead() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        try a.engine.set(try #require(a.book("dune")), "count", .int(1))
        try a.store()
        try b.storage.listener.sync()
        _ = b.storage.inbox.take()           // missed
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune 2"))
        try a.store()
        #expect(try Self.reads(following: b) == 1)
        #expect(b.book("dune")?["count"]?.displayString == "1")
        #expect(b.book("dune")?["name"]?.displayString == "Dune 2")
        #expect(try b.engine.store(b.model) == .unchanged)
    }

    @Test func aRowDeletedAfterItsAnnouncedEditIsRemoved() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune A"))
        try a.store()
        try a.engine.remove(at: 0, from: try a.books)
        try a.store()
        try b.storage.listener.sync()
        #expect(try Self.reads(following: b) == 1)
        #expect(b.book("dune") == nil)
        #expect(try b.books.items.compactMap { $0.entity?.id } == ["emma"])
    }

    @Test func aRowTooLargeForANotificationIsRead() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        let long = String(repeating: "é", count: 4000)
        try a.engine.set(try #require(a.book("dune")), "name", .string(long))
        try a.store()
        #expect(try Self.reads(following: b) == 1)
        #expect(b.book("dune")?["name"]?.displayString == long)
    }

    /// Any role that can connect may `NOTIFY okit_changes`: rows in an announcement not signed with the
    /// database's key are never applied; the row is read.
    @Test func rowsInAnUnsignedOrForgedAnnouncementAreNotApplied() throws {
        let db = try PostgresTestDatabase.make()
        _ = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        let base = try #require(b.storage.base["dune"])
        var forged = base.values
        forged[try #require(b.storage.pgTables[base.table].base.written.firstIndex(of: "name"))] = .string("forged")
        let row = PostgresAnnouncedRow(table: "Book", key: "dune", read: base.version, columns: b.storage.pgTables[base.table].columnsFingerprint, values: forged)
        let note = PostgresAnnouncement(model: "default", version: base.version + 1, from: "forger", keys: ["dune"], tables: ["Book"], rows: [row])
        let otherKey = PostgresAnnouncementKey(bytes: Array(repeating: 7, count: 32))
        for payload in [note.payload(signedWith: otherKey), note.payload(signedWith: otherKey).replacingOccurrences(of: ",\"signature\":", with: ",\"sig\":")] {
            _ = try db.psql("SELECT pg_notify('okit_changes', '\(payload.replacingOccurrences(of: "'", with: "''"))')")
            #expect(try Self.reads(following: b) == 1)
            #expect(b.book("dune")?["name"]?.displayString == "Dune")
        }
        // Signed with the database's key, the same row is applied as announced.
        let signed = note.payload(signedWith: try #require(b.storage.announcementKey))
        _ = try db.psql("SELECT pg_notify('okit_changes', '\(signed.replacingOccurrences(of: "'", with: "''"))')")
        #expect(try Self.reads(following: b) == 0)
        #expect(b.book("dune")?["name"]?.displayString == "forged")
    }
}
