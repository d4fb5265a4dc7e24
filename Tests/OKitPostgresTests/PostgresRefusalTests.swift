import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
@testable import OKitPostgres

/// Values a database refuses (storage.md "Values a database refuses"), against a real PostgreSQL cluster: the
/// refused value is set aside and named, every other change is stored; a pending file's values are checked against
/// the schema before they are replayed.
@Suite(.serialized) struct PostgresRefusalTests {
    static func process(_ url: String, folder: TempFolder? = nil, seed: Bool = false) throws -> PostgresProcess {
        let seeding: ((Engine, Entity) throws -> Void)? = seed ? { try PostgresStorageTests.seedTwoBooks($0, $1) } : nil
        return try PostgresProcess(url: url, folder: folder, schema: PostgresStorageTests.schema, seed: seeding)
    }

    static func refusedLines(_ p: PostgresProcess) -> [String] {
        let text = (try? String(contentsOfFile: p.files.folder.refused, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    @Test func aValueTheDatabaseRefusesIsSetAsideAndEveryOtherChangeIsStored() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: true)
        _ = try db.psql("ALTER TABLE \"Book\" ADD CONSTRAINT few CHECK (count < 1000)")
        let dune = try #require(a.book("dune"))
        try a.engine.set(dune, "count", .int(5000))
        try a.engine.set(dune, "name", .string("Dune II"))
        try a.engine.set(try #require(a.book("emma")), "name", .string("Emma II"))
        let e = try #require(throws: StorageError.self) { try a.store() }
        #expect(e.description.contains("model \"default\", Book dune, field count: the database refused 5000"), "\(e)")
        #expect(e.description.contains("\"few\""), "the database's reason: \(e)")
        #expect(e.description.contains("every other change was"), "\(e)")
        #expect(!e.description.contains("okit-run") && !e.description.contains("OKIT_"))
        // A person's page names the field by its label and the value, nothing of the database or the server.
        #expect(a.engine.refusedNotice(e.refusedValues) == "Not saved: Count \"5000\"")
        // The other field of the same row and the other row are in the database; the refused value is not.
        #expect(try db.psql("SELECT name, count FROM \"Book\" ORDER BY okit_position") == "Dune II|1\nEmma II|2")
        // The process shows what the database holds (in the same entity: screens on it stay), and has nothing left
        // to store.
        #expect(a.book("dune") === dune)
        #expect(a.book("dune")?["count"]?.description == "1")
        #expect(a.book("dune")?["name"]?.description == "Dune II")
        #expect(!a.model.isDirty)
        #expect(try a.engine.store(a.model) == .unchanged)
        let lines = Self.refusedLines(a)
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""type":"Book","id":"dune","field":"count","value":5000"#) == true, "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: a.storage.pendingPath))
    }

    @Test func aNewRowTheDatabaseRefusesIsLeftOutWhole() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: true)
        _ = try db.psql("ALTER TABLE \"Book\" ADD CONSTRAINT few CHECK (count < 1000)")
        try a.engine.insert(.entity(a.engine.make("Book", ["id": .string("big"), "name": .string("Big"), "count": .int(5000)])), into: try a.books, append: true)
        try a.engine.set(try #require(a.book("emma")), "count", .int(9))
        let e = try #require(throws: StorageError.self) { try a.store() }
        #expect(e.description.contains("model \"default\", Book big: the database refused {\"name\":\"Big\",\"count\":5000"), "\(e)")
        #expect(try db.psql("SELECT id, count FROM \"Book\" ORDER BY okit_position") == "dune|1\nemma|9")
        #expect(try a.books.items.compactMap { $0.entity?.id } == ["dune", "emma"])
    }

    /// A text with a NUL that reached a shared model without a write (data another program wrote) is never sent:
    /// it is set aside, and the rest of the store goes in.
    @Test func aTextWithANULIsSetAsideBeforeItIsSent() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: true)
        let dune = try #require(a.book("dune"))
        dune.values[try #require(dune.type.slot(of: "name"))] = .string("Du\u{0}ne")
        a.model.markDirty(dune)
        try a.engine.set(dune, "count", .int(4))
        try a.engine.set(try #require(a.book("emma")), "name", .string("Emma II"))
        let e = try #require(throws: StorageError.self) { try a.store() }
        #expect(e.description.contains("model \"default\", Book dune, field name: the database refused \"Du\\u0000ne\" (a text with the NUL character (U+0000)"), "\(e)")
        #expect(try db.psql("SELECT name, count FROM \"Book\" ORDER BY okit_position") == "Dune|4\nEmma II|2")
        #expect(a.book("dune")?["name"]?.description == "Dune")
    }

    /// A database refusal that is not a value's (here: the table is not writable) keeps every change pending on
    /// disk, and the next start stores them once the database takes them.
    @Test func aStoreTheDatabaseRefusesWholeStaysPendingOnDisk() throws {
        let db = try PostgresTestDatabase.make()
        let folder = try TempFolder()
        do {
            let a = try Self.process(db.url, folder: folder, seed: true)
            _ = try db.psql("CREATE FUNCTION no_writes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'read only' USING ERRCODE = '42501'; END $$; CREATE TRIGGER no_writes BEFORE UPDATE ON \"Book\" FOR EACH ROW EXECUTE FUNCTION no_writes()")
            try a.engine.set(try #require(a.book("emma")), "count", .int(8))
            let e = try #require(throws: StorageError.self) { try a.store() }
            #expect(e.description.contains("the database refused the store of model \"default\": read only; the changes stay pending (\(a.storage.pendingPath))"), "\(e)")
            #expect(FileManager.default.fileExists(atPath: a.storage.pendingPath))
            a.close()
        }
        _ = try db.psql("DROP TRIGGER no_writes ON \"Book\"")
        let b = try Self.process(db.url, folder: folder)
        #expect(try db.psql("SELECT count FROM \"Book\" WHERE id = 'emma'") == "8")
        #expect(b.book("emma")?["count"]?.description == "8")
    }

    /// A pending file holding a text for an int field: the value is reported with its file, model, entity and field
    /// and set aside; the row's other changes and the other rows are stored (never a NULL in the table).
    @Test func aPendingValueOfTheWrongKindIsReportedAndNeverWritten() throws {
        let db = try PostgresTestDatabase.make()
        let folder = try TempFolder()
        let path: String
        do {
            let a = try Self.process(db.url, folder: folder, seed: true)
            try a.engine.set(try #require(a.book("dune")), "name", .string("Dune P"))
            try a.engine.set(try #require(a.book("dune")), "count", .int(7))
            try a.engine.set(try #require(a.book("emma")), "count", .int(5))
            let tables = try #require(a.storage.tables)
            try a.storage.savePendingOrThrow(try RelationalStorePlan(model: a.model, tables: tables, stored: a.storage.stored))
            path = a.storage.pendingPath
            a.close()
        }
        var text = try String(contentsOfFile: path, encoding: .utf8)
        // dune's count (7) becomes a text; emma's count (5) a value that does not read.
        #expect(text.contains(#"{"i":7}"#) && text.contains(#"{"i":5}"#))
        text = text.replacingOccurrences(of: #"{"i":7}"#, with: #"{"s":"seven"}"#).replacingOccurrences(of: #"{"i":5}"#, with: #"{"i":"five"}"#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let b = try Self.process(db.url, folder: folder)
        #expect(try db.psql("SELECT name, count FROM \"Book\" ORDER BY okit_position") == "Dune P|1\nEmma|2")
        let warning = try #require(b.engine.warnings.first { $0.contains("Book dune, field count") })
        #expect(warning.contains("model \"default\", Book dune, field count: expected an INTEGER, found the TEXT \"seven\" (in \(path))"), "\(warning)")
        #expect(b.engine.warnings.contains { $0.contains("Book emma, field count: the value does not read") }, "\(b.engine.warnings)")
        #expect(Self.refusedLines(b).count == 2)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A pending edit whose one field the database refuses at the replay (a column narrowed meanwhile): just that
    /// field is set aside, named with the database's reason; the row's other changed field is stored (was: the whole
    /// row set aside, `field` null, the good count lost).
    @Test func aPendingFieldTheDatabaseRefusesIsSetAsideAloneAtTheReplay() throws {
        let db = try PostgresTestDatabase.make()
        let folder = try TempFolder()
        try Self.keepPending(db.url, folder: folder) { a in
            try a.engine.set(try #require(a.book("dune")), "name", .string("Dune Messiah"))
            try a.engine.set(try #require(a.book("dune")), "count", .int(33))
            try a.engine.set(try #require(a.book("emma")), "count", .int(5))
        }
        _ = try db.psql("ALTER TABLE \"Book\" ALTER COLUMN name TYPE varchar(5)")
        var log: [String] = []
        let b = try PostgresProcess(url: db.url, folder: folder, schema: PostgresStorageTests.schema, configure: { s in s.onLog = { log.append($0.text) } })
        #expect(try db.psql("SELECT name, count FROM \"Book\" ORDER BY okit_position") == "Dune|33\nEmma|5")
        #expect(b.book("dune")?["count"]?.description == "33")
        let warning = try #require(b.engine.warnings.first { $0.contains("Book dune") }, "\(b.engine.warnings)")
        #expect(warning.contains("model \"default\", Book dune, field name: the database refused \"Dune Messiah\" (value too long"), "\(warning)")
        #expect(warning.contains("every other change was stored"), "\(warning)")
        let lines = Self.refusedLines(b)
        #expect(lines.count == 1 && lines[0].contains(#""id":"dune","field":"name","value":"Dune Messiah""#), "\(lines)")
        #expect(log.contains { $0.contains("stored 2 pending changes") }, "\(log)")
    }

    /// A pending row whose every change the database refuses is not counted as stored.
    @Test func aPendingRowWhollyRefusedIsNotSaidToBeStored() throws {
        let db = try PostgresTestDatabase.make()
        let folder = try TempFolder()
        try Self.keepPending(db.url, folder: folder) { a in try a.engine.set(try #require(a.book("dune")), "name", .string("Dune Messiah")) }
        _ = try db.psql("ALTER TABLE \"Book\" ALTER COLUMN name TYPE varchar(5)")
        var log: [String] = []
        let b = try PostgresProcess(url: db.url, folder: folder, schema: PostgresStorageTests.schema, configure: { s in s.onLog = { log.append($0.text) } })
        #expect(!log.contains { $0.contains("pending change") }, "\(log)")
        #expect(b.engine.warnings.contains { $0.contains("Book dune, field name: the database refused") }, "\(b.engine.warnings)")
        #expect(try db.psql("SELECT name FROM \"Book\" WHERE id = 'dune'") == "Dune")
    }

    /// A seeded process's changes made by `change`, kept in its pending file (as a store while the database is away
    /// keeps them), and the process closed.
    static func keepPending(_ url: String, folder: TempFolder, _ change: (PostgresProcess) throws -> Void) throws {
        let a = try process(url, folder: folder, seed: true)
        try change(a)
        try a.storage.savePendingOrThrow(try RelationalStorePlan(model: a.model, tables: try #require(a.storage.tables), stored: a.storage.stored))
        a.close()
    }

    /// A trigger that raises an exception (P0001, RAISE EXCEPTION's default) for every update: each changed field is
    /// refused alone, so each is set aside and named with the trigger's words (was: the row's JSON, and the storage
    /// docs said such a store stays pending).
    @Test func aTriggerThatRefusesEveryUpdateSetsEachChangedFieldAsideByName() throws {
        let db = try PostgresTestDatabase.make()
        let a = try Self.process(db.url, seed: true)
        _ = try db.psql("CREATE FUNCTION nope() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'closed for inventory'; END $$; CREATE TRIGGER nope BEFORE UPDATE ON \"Book\" FOR EACH ROW EXECUTE FUNCTION nope()")
        try a.engine.set(try #require(a.book("dune")), "name", .string("Dune II"))
        try a.engine.set(try #require(a.book("dune")), "count", .int(4))
        let e = try #require(throws: StorageError.self) { try a.store() }
        #expect(e.description.contains("model \"default\", Book dune, field name: the database refused \"Dune II\" (closed for inventory)"), "\(e)")
        #expect(e.description.contains("Book dune, field count: the database refused 4 (closed for inventory)"), "\(e)")
        #expect(!e.description.contains("{\""), "no row as JSON: \(e)")
        #expect(a.engine.refusedNotice(e.refusedValues) == "Not saved: Name \"Dune II\", Count \"4\"")
        #expect(Self.refusedLines(a).count == 2)
        #expect(a.book("dune")?["name"]?.description == "Dune")
        #expect(!FileManager.default.fileExists(atPath: a.storage.pendingPath))
    }

    /// The end of an outage is logged with what became of the changes kept meanwhile: not "stored now" for a value the
    /// database refused.
    @Test func theEndOfAnOutageDoesNotSayARefusedChangeWasStored() throws {
        let db = try PostgresTestDatabase.make()
        var log: [String] = []
        let a = try PostgresProcess(url: db.url, schema: PostgresStorageTests.schema, seed: PostgresStorageTests.seedTwoBooks,
                                    configure: { s in s.onLog = { log.append($0.text) } })
        _ = try db.psql("ALTER TABLE \"Book\" ADD CONSTRAINT few CHECK (count < 1000)")
        try a.engine.set(try #require(a.book("dune")), "count", .int(5000))
        try a.storage.savePendingOrThrow(try RelationalStorePlan(model: a.model, tables: try #require(a.storage.tables), stored: a.storage.stored))
        a.storage.outage = (Date(), .unreachable)       // as after a store the database did not answer
        #expect(throws: StorageError.self) { try a.store() }
        let line = try #require(log.first { $0.contains("answers again") }, "\(log)")
        #expect(line.contains("the 1 change kept meanwhile is stored now, but for 1 value the database refused (named below)"), "\(line)")
    }

    /// A seed is stored whole or not at all: a part of it would pass for the model, and the next start would not
    /// seed again.
    @Test func aSeedTheDatabaseRefusesIsNotStoredInPart() throws {
        let db = try PostgresTestDatabase.make()
        _ = try db.psql("CREATE TABLE \"Book\" (okit_model TEXT NOT NULL, id TEXT NOT NULL, count BIGINT CHECK (count < 2), PRIMARY KEY (okit_model, id))")
        let e = try #require(throws: StorageError.self) { try Self.process(db.url, seed: true) }
        #expect(e.description.contains("cannot store model \"default\"") && e.description.contains("nothing was written"), "\(e)")
        #expect(try db.psql("SELECT count(*) FROM \"Book\"") == "0")
    }

    // MARK: Telling errors apart (no cluster)

    @Test func sqlStatesAreToldApartByTheirClass() {
        #expect(PostgresFailure.server("22021") == .value)       // a NUL in a text
        #expect(PostgresFailure.server("23514") == .value)       // a CHECK constraint
        #expect(PostgresFailure.server("P0001") == .value)       // raised by a trigger
        #expect(PostgresFailure.server("42501") == .refused)     // no right to write
        #expect(PostgresFailure.server("40001") == .refused)     // serialization
        #expect(PostgresFailure.server("57P01") == .unreachable) // the server shutting down
        #expect(PostgresFailure.server("08006") == .unreachable)
        #expect(PostgresFailure.server("28P01") == .login)       // a wrong password: not "cannot reach"
        #expect(PostgresFailure.server("28000") == .login)       // no such role, no pg_hba.conf line
        #expect(PostgresFailure.server("3D000") == .login)       // no such database
        #expect(PostgresFailure.login.isConnection, "while running, a refused login is an outage: changes stay pending")
        #expect(PostgresFailure(PostgresTLSSetupError(mode: "verify-full", rootCert: nil, reason: "x")) == .tls)
        #expect(PostgresFailure(CocoaError(.fileNoSuchFile)) == .refused)
    }

    /// `require`, `verify-ca` and `verify-full` fail closed when no TLS context can be made (never TLS turned off).
    @Test func aTLSContextThatCannotBeMadeFailsClosed() throws {
        for mode in ["require", "verify-ca", "verify-full"] {
            let s = try PostgresSettings.parse("postgres://okit@127.0.0.1:1/db?sslmode=\(mode)&sslrootcert=/nonexistent/root.crt")
            #expect(s.sslRootCert == "/nonexistent/root.crt")
            let e = try #require(throws: PostgresTLSSetupError.self) { try PostgresLink.tls(s) }
            #expect(e.description.contains("sslmode=\(mode) needs TLS, but no TLS context could be made with the certificates in sslrootcert=/nonexistent/root.crt"))
            #expect(e.description.contains("so nothing was sent to the server; fix the certificate file or the URL's sslrootcert"))
        }
        let prefer = try PostgresSettings.parse("postgres://okit@127.0.0.1:1/db?sslrootcert=/nonexistent/root.crt")
        // prefer checks no certificate (the roots are not read): TLS when the server offers it, never demanded.
        let preferred = try PostgresLink.tls(prefer)
        #expect(preferred.isAllowed && !preferred.isEnforced)
        #expect(try PostgresLink.tls(try PostgresSettings.parse("postgres://okit@127.0.0.1:1/db?sslmode=verify-full")).isEnforced,
                "verify-full with the system's authorities requires TLS")
    }
}
