import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// Shared models with the shapes apps declare besides plain collections of books: entities without ids, an owned
/// single entity, maps, refs, dates, optional fields; and announcements from programs other than okit.
@Suite(.serialized) struct PostgresModelShapesTests {
    static func schema(_ schema: Schema) throws {
        try schema.entity("Note", hasId: false, fields: [FieldSpec("text", .string), FieldSpec("stars", .int)])
        try schema.entity("Book", fields: [FieldSpec("name", .string), FieldSpec("count", .int), FieldSpec("due", "date?"),
                                           FieldSpec("notes", "[Note]"), FieldSpec("blob", "inlineData?")])
        try schema.entity("Shop", fields: [FieldSpec("title", .string), FieldSpec("books", "[Book]"), FieldSpec("notes", "[Note]"),
                                           FieldSpec("featured", "Book?"), FieldSpec("shelf", "{string: Book}"),
                                           FieldSpec("pick", "ref Book?"), FieldSpec("picks", "[ref Book]"),
                                           FieldSpec("motto", "string?")])
        try schema.validate()
    }

    static func process(_ url: String, folder: TempFolder? = nil, seed: ((Engine, Entity) throws -> Void)? = nil) throws -> PostgresProcess {
        try PostgresProcess(url: url, folder: folder, schema: schema, seed: seed)
    }

    static func seed(_ engine: Engine, _ root: Entity) throws {
        try engine.set(root, "title", .string("Shop"))
        let books = try engine.collection(root, "books")
        for (id, name) in [("dune", "Dune"), ("emma", "Emma")] {
            try engine.insert(.entity(engine.make("Book", ["id": .string(id), "name": .string(name)])), into: books, append: true)
        }
        let notes = try engine.collection(root, "notes")
        for t in ["n0", "n1"] {
            try engine.insert(.entity(engine.make("Note", ["text": .string(t)])), into: notes, append: true)
        }
        try engine.set(root, "featured", .entity(engine.make("Book", ["id": .string("f1"), "name": .string("Featured")])))
        try engine.put(.entity(engine.make("Book", ["id": .string("s1"), "name": .string("Shelved")])), forKey: "a",
                       in: try engine.collection(root, "shelf"))
    }

    static func noteTexts(_ p: PostgresProcess) throws -> [String] {
        try p.collection("notes").items.compactMap { $0.entity?["text"]?.displayString }
    }

    /// Another process's edit of an entity without an id is applied (by reading the model again).
    @Test func anEditOfAnEntityWithoutAnIdIsFollowed() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        let note = try #require(a.collection("notes").items.first?.entity)
        try a.engine.set(note, "text", .string("edited"))
        try a.store()
        #expect(try b.follow())
        #expect(try Self.noteTexts(b) == ["edited", "n1"])
    }

    /// Two processes change different fields of one entity without an id: both land (nothing lost silently).
    @Test func fieldsOfAnEntityWithoutAnIdChangedOnBothSidesAreNotLost() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.set(try #require(a.collection("notes").items.first?.entity), "text", .string("by A"))
        try a.store()
        // B changes another field of the same note, and the shop's title, before it has seen A's store.
        try b.engine.set(try #require(b.collection("notes").items.first?.entity), "stars", .int(5))
        try b.engine.set(b.root, "title", .string("Shop B"))
        try b.store()
        #expect(try db.psql("SELECT text, stars FROM \"Note\" WHERE okit_parent IS NOT NULL ORDER BY okit_position LIMIT 1") == "by A|5")
        #expect(try db.psql("SELECT title FROM \"Shop\"") == "Shop B")
        #expect(try b.collection("notes").items.first?.entity?["stars"]?.displayString == "5")
        #expect(try b.collection("notes").items.first?.entity?["text"]?.displayString == "by A")
    }

    /// One field of an entity without an id changed on both sides: the earlier store keeps it, this side's value
    /// is reported.
    @Test func aFieldOfAnEntityWithoutAnIdChangedOnBothSidesIsReported() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.set(try #require(a.collection("notes").items.first?.entity), "text", .string("by A"))
        try a.store()
        try b.engine.set(try #require(b.collection("notes").items.first?.entity), "text", .string("by B"))
        try b.store()
        #expect(try Self.noteTexts(b) == ["by A", "n1"])
        #expect(b.conflicts.map(\.field) == ["text"])
        #expect(b.conflicts.first?.mine == "\"by B\"")
        #expect(!FileManager.default.fileExists(atPath: b.storage.pendingPath))
        #expect(try b.engine.store(b.model) == .unchanged)
    }

    /// An edit another process stored before this one deleted the entity: the deletion wins, the edit is reported
    /// (it was dropped without a word).
    @Test func anEditStoredBeforeADeletionIsReported() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune A"))
        try a.store()
        try b.engine.remove(at: 0, from: try b.collection("books"))
        try b.store()
        #expect(try db.psql("SELECT count(*) FROM \"Book\" WHERE id = 'dune'") == "0")
        #expect(b.conflicts.map(\.field) == ["name"])
        #expect(b.conflicts.first.map { ($0.id, $0.base, $0.theirs, $0.mine) } ?? ("", "", "", "") == ("dune", "\"Dune\"", "\"Dune A\"", "null"))
        #expect(b.conflicts.first?.warning.contains("the deletion won") == true)
        // A deletion of what nobody edited meanwhile reports nothing.
        try b.engine.remove(at: 0, from: try b.collection("books"))
        try b.store()
        #expect(b.conflicts.count == 1)
    }

    /// A note added here to a book another process deleted first: the deletion wins and the addition is reported
    /// (it was stored as a row under a parent that no longer exists: read by nobody, reported to nobody).
    @Test func anEntityAddedUnderOneDeletedElsewhereIsReported() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.remove(at: 0, from: try a.collection("books"))
        try a.store()
        let dune = try #require(b.book("dune"))
        try b.engine.insert(.entity(b.engine.make("Note", ["text": .string("late note")])), into: try b.engine.collection(dune, "notes"), append: true)
        try b.store()
        #expect(try db.psql("SELECT count(*) FROM \"Note\" WHERE okit_parent = 'dune'") == "0")
        #expect(b.book("dune") == nil)
        #expect(b.conflicts.map(\.field) == ["notes"])
        #expect(b.conflicts.first?.theirs == "null")
        #expect(b.conflicts.first?.mine.contains("late note") == true)
    }

    /// Pending changes (kept while the database was away) that add an entity without an id where another process
    /// added one meanwhile: both are kept (the pending row was written over the other one).
    @Test func pendingAdditionsWithoutIdsDoNotOverwriteAnotherProcesssAdditions() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        var b: PostgresProcess? = try Self.process(db.url)
        let folder = try #require(b?.folder)
        if let b {
            try b.engine.insert(.entity(b.engine.make("Note", ["text": .string("from B")])), into: try b.collection("notes"), append: true)
            let plan = try RelationalStorePlan(model: b.model, tables: try #require(b.storage.tables), stored: b.storage.stored)
            try b.storage.savePendingOrThrow(plan)
            b.storage.close(); b.files.close()
        }
        b = nil
        try a.engine.insert(.entity(a.engine.make("Note", ["text": .string("from A")])), into: try a.collection("notes"), append: true)
        try a.store()
        let c = try Self.process(db.url, folder: folder)
        #expect(try Set(Self.noteTexts(c)) == ["n0", "n1", "from A", "from B"])
        #expect(try db.psql("SELECT count(*) FROM \"Note\"") == "4")
    }

    /// A book deleted here after another process added a note to it (stored after this process read the book):
    /// the deletion wins, the note goes with the book and is reported (it stayed behind under nothing).
    @Test func aDeletionTakesWhatAnotherProcessAddedUnderItAndReportsIt() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.remove(at: 0, from: try a.collection("books"))
        let dune = try #require(b.book("dune"))
        try b.engine.insert(.entity(b.engine.make("Note", ["text": .string("late note")])), into: try b.engine.collection(dune, "notes"), append: true)
        try b.store()
        try a.store()
        #expect(try db.psql("SELECT count(*) FROM \"Note\" WHERE okit_parent = 'dune'") == "0")
        #expect(a.conflicts.map { "\($0.type) \($0.id) \($0.field)" } == ["Book dune notes"])
        #expect(a.conflicts.first?.warning.contains("the deletion won") == true)
        #expect(try b.follow())
        #expect(b.book("dune") == nil)
        #expect(try b.engine.store(b.model) == .unchanged)
    }

    /// Two processes add an entity with the same given id: the earlier store's stays, the later one's values are
    /// reported (the later process had two entities with that id, and every store of the model failed after).
    @Test func theSameIdAddedOnBothSidesIsNotDroppedSilently() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.insert(.entity(a.engine.make("Book", ["id": .string("isbn1"), "name": .string("A's")])), into: try a.collection("books"), append: true)
        try a.store()
        try b.engine.insert(.entity(b.engine.make("Book", ["id": .string("isbn1"), "name": .string("B's")])), into: try b.collection("books"), append: true)
        try b.store()
        #expect(try db.psql("SELECT name FROM \"Book\" WHERE id = 'isbn1'") == "A's")
        #expect(b.conflicts.map { "\($0.id) \($0.field) \($0.mine)" } == ["isbn1 name \"B's\""])
        #expect(try b.collection("books").items.compactMap { $0.entity?["name"]?.displayString } == ["Dune", "Emma", "A's"])
        // And B goes on storing.
        try b.engine.set(try #require(b.book("emma")), "name", .string("Emma B"))
        try b.store()
        #expect(try db.psql("SELECT name FROM \"Book\" WHERE id = 'emma'") == "Emma B")
    }

    /// An owned single entity replaced by another process: the new one is there, not nothing.
    @Test func anOwnedSingleEntityReplacedElsewhereIsFollowed() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.set(a.root, "featured", .entity(a.engine.make("Book", ["id": .string("f2"), "name": .string("New")])))
        try a.store()
        #expect(try b.follow())
        #expect(b.root["featured"]?.entity?.id == "f2")
        #expect(b.root["featured"]?.entity?["name"]?.displayString == "New")
        #expect(try b.engine.store(b.model) == .unchanged)
        #expect(try db.psql("SELECT id FROM \"Book\" WHERE okit_field = 'featured'") == "f2")
    }

    /// The owned single entity replaced elsewhere while this process edited the old one: the edit is reported.
    @Test func anEditOfAnOwnedEntityReplacedElsewhereIsReported() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.set(a.root, "featured", .entity(a.engine.make("Book", ["id": .string("f2"), "name": .string("New")])))
        try a.store()
        try b.engine.set(try #require(b.book("f1")), "name", .string("Featured B"))
        try b.store()
        #expect(try b.follow())       // A's announcement: the new one
        #expect(b.root["featured"]?.entity?.id == "f2")
        #expect(b.conflicts.map(\.field) == ["name"])
        #expect(b.conflicts.first?.mine == "\"Featured B\"")
        #expect(try db.psql("SELECT count(*) FROM \"Book\" WHERE id = 'f1'") == "0")
    }

    /// Another process moving a book in a collection: the order follows.
    @Test func aMoveElsewhereReordersHere() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.move(in: try a.collection("books"), from: 1, to: 0)
        try a.store()
        #expect(try b.follow())
        #expect(try b.collection("books").items.compactMap { $0.entity?.id } == ["emma", "dune"])
    }

    /// Refs, dates and optional fields set to nil, followed.
    @Test func refsDatesAndNilsAreFollowed() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        try a.engine.set(a.root, "motto", .string("read"))
        try a.store()
        let b = try Self.process(db.url)
        let due = Date(timeIntervalSince1970: 1_800_000_000)
        try a.engine.set(try #require(a.book("dune")), "due", .date(due))
        try a.engine.set(a.root, "pick", .entity(try #require(a.book("emma"))))
        try a.engine.insert(.entity(try #require(a.book("dune"))), into: try a.collection("picks"), append: true)
        try a.engine.set(a.root, "motto", .null)
        try a.store()
        #expect(try b.follow())
        #expect({ if case .date(let d)? = b.book("dune")?["due"] { return d == due }; return false }())
        #expect(b.root["pick"]?.entity.flatMap(b.engine.resolveRef)?.id == "emma")
        #expect(try b.collection("picks").items.compactMap { $0.entity.flatMap(b.engine.resolveRef)?.id } == ["dune"])
        #expect(b.root["motto"]?.isNull == true)
    }

    /// Inline data written, then replaced, by another process: the bytes follow.
    @Test func inlineDataIsFollowed() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.writeBytes(try #require(a.book("dune")), "blob", [0, 1, 2, 255], format: "application/octet-stream", label: "raw")
        try a.store()
        #expect(try b.follow())
        #expect(try b.book("dune")?["blob"]?.entity.map(b.engine.readBytes) == [0, 1, 2, 255])
        #expect(try b.engine.store(b.model) == .unchanged)
        try a.engine.writeBytes(try #require(a.book("dune")), "blob", Array("héllo".utf8), format: "text/plain", label: "txt")
        try a.store()
        #expect(try b.follow())
        #expect(try b.book("dune")?["blob"]?.entity.map(b.engine.readBytes) == Array("héllo".utf8))
        #expect(b.book("dune")?["blob"]?.entity?["label"]?.displayString == "txt")
        // B edits the name meanwhile; A's next bytes and B's name merge.
        try a.engine.writeBytes(try #require(a.book("dune")), "blob", [9], format: "application/octet-stream", label: "nine")
        try a.store()
        try b.engine.set(try #require(b.book("dune")), "name", .string("Dune B"))
        try b.store()
        #expect(b.conflicts.isEmpty)
        #expect(try b.book("dune")?["blob"]?.entity.map(b.engine.readBytes) == [9])
        #expect(try db.psql("SELECT name, length(blob) FROM \"Book\" WHERE id = 'dune'") == "Dune B|1")
    }

    /// A book put under another key of a map elsewhere: here it moves too.
    @Test func aMapEntryRekeyedElsewhereIsFollowed() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        let shelf = try a.collection("shelf")
        try a.engine.transaction {
            let s1 = try #require(a.book("s1"))
            try a.engine.remove(at: 0, from: shelf)
            try a.engine.put(.entity(s1), forKey: "b", in: shelf)
        }
        try a.store()
        #expect(try db.psql("SELECT okit_key FROM \"Book\" WHERE id = 's1'") == "b")
        #expect(try b.follow())
        #expect(try b.collection("shelf").keys == ["b"])
        #expect(try b.collection("shelf").items.first?.entity === b.book("s1"))
        #expect(try b.engine.store(b.model) == .unchanged)
    }

    /// Entries put into and removed from a map of entities elsewhere follow, with their keys.
    @Test func mapEntriesAddedAndRemovedElsewhereAreFollowed() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        try a.engine.put(.entity(a.engine.make("Book", ["id": .string("s2"), "name": .string("Second")])), forKey: "c'é",
                         in: try a.collection("shelf"))
        try a.store()
        #expect(try b.follow())
        #expect(try b.collection("shelf").keys == ["a", "c'é"])
        #expect(b.book("s2")?["name"]?.displayString == "Second")
        try a.engine.put(.null, forKey: "a", in: try a.collection("shelf"))
        try a.store()
        #expect(try b.follow())
        #expect(try b.collection("shelf").keys == ["c'é"])
        #expect(b.book("s1") == nil)
        #expect(try b.engine.store(b.model) == .unchanged)
    }

    /// A notification from another program on okit's channel, with a version far ahead, does not stop this process
    /// from following the real stores that come after it.
}
