import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// A deletion against an edit across processes (storage.md "Conflicts"): the record says which side deleted, and
/// each side is told what happened to it. The process whose edit lost to another's deletion was told "another
/// process stored null first" and, on its page, that the value was now „“; the process that deleted an edit it had
/// not seen was told that its own value „“ was not stored — in German with the field's and type's Lua names.
@Suite(.serialized) struct PostgresDeletionNoticeTests {
    static func process(_ url: String, seed: ((Engine, Entity) throws -> Void)? = nil) throws -> PostgresProcess {
        try PostgresModelShapesTests.process(url, seed: seed)
    }

    static func speak(_ p: PostgresProcess, _ language: String) {
        p.engine.locale = AppLocale(language: language, region: "", timeZone: "UTC")
    }

    @Test func anEditThatLostToAnotherProcesssDeletionSaysTheEntryWasDeleted() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        try a.engine.remove(at: 0, from: try a.collection("books"))
        try a.store()
        try b.engine.set(try #require(b.book("dune")), "name", .string("Dune B"))
        try b.store()
        let c = try #require(b.conflicts.first)
        #expect(b.conflicts.count == 1)
        #expect(c.deletedThere && !c.deletedHere)
        #expect((c.id, c.field, c.base, c.theirs, c.mine) == ("dune", "name", "\"Dune\"", "null", "\"Dune B\""))
        #expect(c.warning == "conflict in model \"default\": Book dune, field name: another process deleted the Book first; this process's \"Dune B\" was not stored (kept in okit/conflicts.jsonl)")
        #expect(c.jsonLine.contains("\"theirs\":null,\"mine\":\"Dune B\""), "the line keeps its form")
        #expect(b.engine.conflictNotice(c) == "Someone else deleted this Book first, so your change of name to \"Dune B\" was not stored (it is kept in the server's conflict record).")
        Self.speak(b, "de")
        b.engine.strings.add(language: "de", strings: ["name": "Titel", "Book": "Buch"])
        #expect(b.engine.conflictNotice(c) == "Jemand anderes hat diesen Eintrag (Buch) zuerst gelöscht, daher wurde Ihre Änderung von Titel in „Dune B“ nicht gespeichert (sie steht im Konfliktprotokoll des Servers).")
        Self.speak(b, "fr")
        #expect(b.engine.conflictNotice(c).hasPrefix("Quelqu’un d’autre a supprimé cette entrée (Book) avant vous, donc votre modification de name en «\u{A0}Dune B\u{A0}»"))
    }

    @Test func aDeletionOfAnEditItHadNotSeenTellsTheDeleterTheEditNotThatItLostAnEmptyValue() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: PostgresModelShapesTests.seed)
        let b = try Self.process(db.url)
        try a.engine.set(try #require(a.book("dune")), "name", .string("EN edit"))
        try a.store()
        try b.engine.remove(at: 0, from: try b.collection("books"))
        try b.store()                   // has not followed A's store: the deletion takes A's edit with it
        #expect(try db.psql("SELECT count(*) FROM \"Book\" WHERE id = 'dune'") == "0")
        let c = try #require(b.conflicts.first)
        #expect(c.deletedHere && !c.deletedThere)
        #expect(c.warning.contains("another process stored \"EN edit\", then this process deleted the Book; the deletion won"))
        Self.speak(b, "de")
        #expect(b.engine.conflictNotice(c) == "Jemand anderes hatte name dieses Eintrags (Book) gerade in „EN edit“ geändert; Ihr Löschen hat auch diese Änderung entfernt (sie steht im Konfliktprotokoll des Servers).")
        b.engine.strings.add(language: "de", strings: ["name": "Titel", "Book": "Buch"])
        #expect(b.engine.conflictNotice(c).hasPrefix("Jemand anderes hatte Titel dieses Eintrags (Buch) gerade in „EN edit“ geändert"))
        for language in ["en", "de", "fr", "it", "pt", "es"] {
            Self.speak(b, language)
            let notice = b.engine.conflictNotice(c)
            #expect(notice.contains("EN edit") && !notice.contains("„“") && !notice.contains("\"\"") && !notice.contains("«\u{A0}\u{A0}»"),
                    "\(language): \(notice)")
        }
        // The process whose edit it was sees the book go, and has nothing of its own to report.
        #expect(try a.follow())
        #expect(a.book("dune") == nil && a.conflicts.isEmpty)
    }

    /// A field the other process cleared is `null` too, but no deletion: the notice says it is now empty.
    @Test func aFieldClearedByAnotherProcessIsNoDeletion() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: { e, root in
            try PostgresModelShapesTests.seed(e, root)
            try e.set(root, "motto", .string("Read more"))
        })
        let b = try Self.process(db.url)
        try a.engine.set(a.root, "motto", .null)
        try a.store()
        try b.engine.set(b.root, "motto", .string("Read less"))
        try b.store()
        let c = try #require(b.conflicts.first)
        #expect(!c.deletedThere && !c.deletedHere && c.theirs == "null")
        #expect(b.engine.conflictNotice(c).hasPrefix("Someone else changed motto of this Shop first: it is now \"\"; your \"Read less\""))
    }
}
