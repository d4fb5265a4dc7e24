import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// Shared models with the shapes apps declare besides plain collections of books: entities without ids, an owned
/// single entity, maps, refs, dates, optional fields; and announcements from programs other than okit.
@Suite(.serialized) struct PostgresReviewTests {
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
    @Test func aForeignNotificationIsIgnored() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        _ = try db.psql("SELECT pg_notify('okit_changes', '{\"model\":\"default\",\"version\":999999999,\"from\":\"x\",\"keys\":[\"dune\"]}')")
        _ = try db.psql("SELECT pg_notify('okit_changes', 'not json at all')")
        _ = try? b.follow(timeout: 0.5)
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune after"))
        try a.store()
        #expect(try b.follow())
        #expect(b.book("dune")?["name"]?.displayString == "Dune after")
    }

    /// A field whose name is longer than PostgreSQL's 63-byte names: refused with the field named, or stored and
    /// read back (never read as its default while the database holds the value).
    @Test func aFieldNameLongerThanPostgresNamesIsNotReadAsItsDefault() throws {
        let db = try PostgresTestDatabase.make()
        let long = "a_field_name_that_is_far_longer_than_the_sixty_three_bytes_postgres_keeps"
        func open() throws -> (Engine, Model, PostgresStorage, TempFolder, FileStorage) {
            let folder = try TempFolder()
            let schema = Schema()
            try schema.entity("Shop", fields: [FieldSpec(long, .string), FieldSpec("title", .string)])
            try schema.validate()
            let engine = Engine(schema: schema)
            let files = try FileStorage(dataFolder: folder.url)
            let storage = PostgresStorage(files: files, settings: try PostgresSettings.parse(db.url))
            let model = try engine.register(model: "default", type: "Shop", storage: storage, storageKind: .postgres) { root in
                try engine.set(root, long, .string("kept"))
            }
            return (engine, model, storage, folder, files)
        }
        do {
            let (_, _, s1, _, f1) = try open()
            defer { s1.close(); f1.close() }
            let (_, m2, s2, _, f2) = try open()
            defer { s2.close(); f2.close() }
            #expect(m2.root[long]?.displayString == "kept")
        } catch let e as StorageError {
            #expect(e.description.contains(long))
        }
    }

    /// Types and fields named like SQL keywords, a model name with quotes, values with quotes, unicode and length.
    @Test func hostileNamesAndValuesRoundTrip() throws {
        let db = try PostgresTestDatabase.make()
        let name = "it's \"the\" shop; DROP TABLE okit_models; --"
        let odd = "O'Brien \"quoted\" \\ back; $1 $$ 🦊 ß 中文 " + String(repeating: "x", count: 100_000)
        func open(seed: Bool) throws -> (Engine, Model, PostgresStorage, TempFolder, FileStorage) {
            let folder = try TempFolder()
            let schema = Schema()
            try schema.entity("user", fields: [FieldSpec("select", .string), FieldSpec("order", .int), FieldSpec("from", "date?")])
            try schema.entity("group", fields: [FieldSpec("table", "[user]"), FieldSpec("where", "string?")])
            try schema.validate()
            let engine = Engine(schema: schema)
            let files = try FileStorage(dataFolder: folder.url)
            let storage = PostgresStorage(files: files, settings: try PostgresSettings.parse(db.url))
            let model = try engine.register(model: name, type: "group", storage: storage, storageKind: .postgres) { root in
                guard seed else { return }
                try engine.set(root, "where", .string(odd))
                try engine.insert(.entity(engine.make("user", ["id": .string("u'1"), "select": .string(odd), "order": .int(3)])),
                                  into: try engine.collection(root, "table"), append: true)
            }
            return (engine, model, storage, folder, files)
        }
        let (ea, ma, sa, _, fa) = try open(seed: true)
        defer { sa.close(); fa.close() }
        let (eb, mb, sb, _, fb) = try open(seed: false)
        defer { sb.close(); fb.close() }
        #expect(mb.root["where"]?.displayString == odd)
        let ub = try #require(eb.lookup(id: "u'1", from: mb))
        #expect(ub["select"]?.displayString == odd)
        let ua = try #require(ea.lookup(id: "u'1", from: ma))
        try ea.set(ua, "select", .string("€'\""))
        try ea.set(ua, "order", .int(-9))
        try ea.store(ma)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !(try sb.followAnnouncements(mb, engine: eb)) { Thread.sleep(forTimeInterval: 0.02) }
        #expect(ub["select"]?.displayString == "€'\"")
        #expect(ub["order"]?.displayString == "-9")
        #expect(try db.psql("SELECT count(*) FROM okit_models") == "1")
    }

    /// Rows another program wrote: a value of the wrong form is an error naming table, row and column (on a follow,
    /// on a store and at the next start) and nothing is written over it; a row whose okit_parent names nothing is
    /// left alone.
    @Test func rowsAnotherProgramWroteAreNamedAndNotOverwritten() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        _ = try db.psql("""
            UPDATE okit_models SET version = version + 1;
            UPDATE "Book" SET due = 'not a date', okit_version = (SELECT version FROM okit_models) WHERE id = 'dune';
            INSERT INTO "Book" (okit_model, id, okit_parent, okit_field, okit_position, name, count, okit_version)
              VALUES ('default', 'orphan', 'nobody', 'books', 0, 'Orphan', 1, (SELECT version FROM okit_models));
            SELECT pg_notify('okit_changes', '{"model":"default","version":' || (SELECT version FROM okit_models) || ',"from":"psql","keys":["dune","orphan"]}')
            """)
        var message = ""
        do { _ = try b.follow(timeout: 2) } catch { message = "\(error)" }
        #expect(message.contains("Book") && message.contains("dune") && message.contains("due"), "\(message)")
        // Said once: the next commands neither wait for the row nor say it again while nothing else changed.
        let t0 = Date()
        for _ in 0..<3 { #expect(try b.storage.followAnnouncements(b.model, engine: b.engine) == false) }
        #expect(Date().timeIntervalSince(t0) < 0.4)
        try b.engine.set(try #require(b.book("dune")), "name", .string("Dune B"))
        #expect(throws: StorageError.self) { try b.store() }
        #expect(try db.psql("SELECT name, due FROM \"Book\" WHERE id = 'dune'") == "Dune|not a date")
        do { _ = try Self.process(db.url); Issue.record("a start must refuse the row") } catch {
            #expect("\(error)".contains("due") && "\(error)".contains(db.name), "\(error)")
        }
        _ = a
    }

    /// A column another program dropped while okit runs: the follow says so once, names the column, and the next
    /// commands do not wait for it.
    @Test func aColumnDroppedWhileRunningIsSaidOnce() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        let b = try Self.process(db.url)
        _ = try db.psql("""
            ALTER TABLE "Book" DROP COLUMN count;
            UPDATE okit_models SET version = version + 1;
            SELECT pg_notify('okit_changes', '{"model":"default","version":' || (SELECT version FROM okit_models) || ',"from":"psql","keys":["dune"]}')
            """)
        var message = ""
        do { _ = try b.follow(timeout: 2) } catch { message = "\(error)" }
        #expect(message.contains("count"), "\(message)")
        let t0 = Date()
        for _ in 0..<3 { #expect(try b.storage.followAnnouncements(b.model, engine: b.engine) == false) }
        #expect(Date().timeIntervalSince(t0) < 0.4)
        _ = a
    }

    /// A column another program gave a type okit does not read (a date column made timestamptz): an error naming
    /// it, never a NULL that the next store of the row writes over the value.
    @Test func aColumnOfAnotherTypeIsNotReadAsNull() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: Self.seed)
        try a.engine.set(try #require(a.book("dune")), "due", .date(Date(timeIntervalSince1970: 1_800_000_000)))
        try a.store()
        _ = try db.psql("ALTER TABLE \"Book\" ALTER COLUMN due TYPE timestamptz USING due::timestamptz")
        let before = try db.psql("SELECT due FROM \"Book\" WHERE id = 'dune'")
        do {
            let b = try Self.process(db.url)
            try b.engine.set(try #require(b.book("dune")), "name", .string("Dune B"))
            try? b.store()
        } catch {
            #expect("\(error)".contains("due"), "\(error)")
        }
        #expect(try db.psql("SELECT due FROM \"Book\" WHERE id = 'dune'") == before)
    }

    /// A database user that may not create tables: the message says so, not "cannot reach the database".
    @Test func aUserWithoutTheRightToCreateTablesIsToldSo() throws {
        let db = try PostgresTestDatabase.make()
        _ = try db.psql("DROP ROLE IF EXISTS okit_reader; CREATE ROLE okit_reader LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        let url = db.url.replacingOccurrences(of: "://okit@", with: "://okit_reader@")
        #expect(url != db.url)
        do {
            _ = try Self.process(url, seed: Self.seed)
            Issue.record("the start must fail")
        } catch {
            let text = "\(error)"
            #expect(!text.contains("cannot reach") && text.contains("permission denied for schema public;"), "\(text)")
            #expect(!text.contains("PSQLError") && text.count < 400, "\(text)")
        }
    }

    /// A password with a percent sign (written %25 in the URL) is read as written.
    @Test func aPercentEncodedPasswordIsDecodedOnce() throws {
        let s = try PostgresSettings.parse("postgres://okit:50%25off%2541@db.example/shop%20x")
        #expect(s.password == "50%off%41")
        let v6 = try PostgresSettings.parse("postgres://okit@[::1]:5433/shop")
        #expect(v6.host == "::1" && v6.shown == "postgres://okit@[::1]:5433/shop")
        #expect(s.database == "shop x")
    }

    /// A URL that does not parse is shown without its password.
    @Test func aMalformedURLIsShownWithoutItsPassword() throws {
        do {
            _ = try PostgresSettings.parse("postgres://okit:s3cr#et@db.example/shop")
            Issue.record("the URL must be refused")
        } catch let e as PostgresSettingsError {
            #expect(!e.description.contains("s3cr"))
        }
    }
}
