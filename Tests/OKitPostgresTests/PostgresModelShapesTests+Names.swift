import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// The review of shared models, continued: foreign notifications, long and hostile names, rows and columns another
/// program changed, database rights and URLs.
extension PostgresModelShapesTests {
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
