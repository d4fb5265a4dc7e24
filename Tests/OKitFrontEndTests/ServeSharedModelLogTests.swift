import Foundation
import OKitTestSupport
import Testing

/// `okit-run serve` over a shared PostgreSQL model, as an operator runs it (docs/scale.md "What happens when
/// something fails"), against a real PostgreSQL: what the process's log (stderr) and the person's page say when the
/// database goes away and comes back, when a change cannot be kept on disk meanwhile, at a stop with changes pending,
/// at the next start that stores them, and at a conflict. An outside operator found the log silent through all of
/// it, and a change acknowledged as "kept here" that was lost when the process was killed.
@Suite(.serialized, .enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailable)))
struct ServeSharedModelLogTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string", count = "int" })
    okit.entity("Shop", { books = "[Book]" })
    okit.model("Shop", { storage = "postgres", seed = function(root)
      root.books:append(okit.new("Book", { id = "dune", name = "Dune", count = 3 }))
    end })
    okit.list("books", { type = "Book", dataPath = "books", titlePath = "%Books", cell = { path = "name" }, segue = "book" })
    okit.detail("book", { titlePath = "name", sections = { {
      okit.cell.text { path = "%Name", textPath = "name" },
      okit.cell.text { path = "%Count", textPath = "count" },
    } } })
    okit.app { home = "books" }
    """

    /// One serve process of the shop on `url` with its own data folder; its stderr is its output.
    struct Served {
        let child: ChildProcess
        let port: Int
        var log: String { child.outputSoFar }

        static func start(_ folder: TempFolder, url: String, data: String = "data") throws -> Served {
            let app = folder.url.appendingPathComponent("app.lua")
            try ServeSharedModelLogTests.app.write(to: app, atomically: true, encoding: .utf8)
            let child = try ChildProcess.start(OKitRun.binary.path, ["serve", app.path, "--port", "0",
                                                                     "--data", folder.url.appendingPathComponent(data).path],
                                               stderr: .stdout, environment: ["OKIT_DATABASE_URL": url, "OKIT_DATABASE_PASSWORD": nil])
            guard let port = ServeProcessTests.port(child) else {
                child.signal(SIGKILL)
                throw PostgresClusterError("serve did not start: \(child.wait(timeout: 10).out)")
            }
            return Served(child: child, port: port)
        }

        /// A session in edit mode on Dune: its cookie.
        func editingDune() throws -> String {
            let cookie = try #require(try HTTPExchange.request(port, "GET /books").cookie)
            #expect(try HTTPExchange.command(port, cookie: cookie, at: "/books/book~dune", ["command": "edit", "on": "true"]) == 303)
            return cookie
        }

        /// Sets a cell of Dune's page; returns the page's notices and errors after it.
        func set(_ cookie: String, cell: Int, _ value: String) throws -> String {
            #expect(try HTTPExchange.command(port, cookie: cookie, at: "/books/book~dune", ["command": "set", "cell": "\(cell)", "value": value]) == 303)
            return try HTTPExchange.request(port, "GET /books/book~dune", cookie: cookie).body
        }

        /// Waits until the log holds `text` (up to `seconds`).
        func waitForLog(_ text: String, seconds: Double = 20) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if log.contains(text) { return true }
                usleep(50_000)
            }
            return false
        }
    }

    static func occurrences(_ text: String, in log: String) -> Int { log.components(separatedBy: text).count - 1 }

    /// The pending file cannot be written (its folder's path is a file: the tests run as root, so permissions stop
    /// nothing) while the database is down: the person is told the change is not kept, the log says why with the
    /// path and the OS's error, and a stop says the state was not stored.
    @Test func aChangeThatCannotBeKeptOnDiskWhileOfflineIsSaidNotKeptAndLogged() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let url = try cluster.createDatabase()
        let folder = try TempFolder()
        let served = try Served.start(folder, url: url)
        defer { served.child.signal(SIGKILL); _ = served.child.wait(timeout: 10) }
        let cookie = try served.editingDune()

        let pending = folder.url.appendingPathComponent("data/okit/pending")
        try? FileManager.default.removeItem(at: pending)
        try "not a folder".write(to: pending, atomically: false, encoding: .utf8)
        try cluster.stopServer()
        let page = try served.set(cookie, cell: 2, "4444")
        #expect(page.contains("Your change could not be stored ("), "\(page)")
        #expect(page.contains("it shows here but is not kept yet"), "\(page)")
        #expect(!page.contains("your change is kept here"), "\(page)")

        let file = pending.path + "/default.postgres.json"
        let notKept = "okit-run: warning: the changes to model \"default\" that the database has not taken cannot be kept on disk: \(file) cannot be written ("
        #expect(served.waitForLog(notKept), "\(served.log)")
        #expect(served.log.contains("Not a directory") || served.log.contains("File exists"), "the OS's error: \(served.log)")
        #expect(served.log.contains("free space, or make the data folder writable for this process"), "\(served.log)")
        #expect(served.log.contains("okit-run: warning: the database of model \"default\" (\(url)) is out of reach: "), "\(served.log)")
        Thread.sleep(forTimeInterval: 2.5)          // the server retries every second: each is told once
        #expect(Self.occurrences("cannot be kept on disk", in: served.log) == 1, "\(served.log)")
        #expect(Self.occurrences("is out of reach", in: served.log) == 1, "\(served.log)")

        served.child.signal(SIGTERM)
        let ended = served.child.wait(timeout: 60)
        #expect(ended.code == 4, "\(ended.out)")
        #expect(ended.out.contains("WITHOUT storing the state"), "\(ended.out)")
    }

    /// An outage while a change is made: the page says it is kept, the log tells the outage once; a stop says the
    /// change is pending and where (not "stored"); the next start stores it, merged with a change another
    /// program made meanwhile (a conflict on the name, logged as storage.md shows); a later outage is logged when it
    /// begins and when it ends.
    @Test func anOutageAStopWithAPendingChangeAndTheNextStartAreLogged() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let url = try cluster.createDatabase()
        let db = String(url.split(separator: "/").last ?? "")
        let folder = try TempFolder()
        let first = try Served.start(folder, url: url)
        defer { first.child.signal(SIGKILL); _ = first.child.wait(timeout: 10) }
        let cookie = try first.editingDune()

        try cluster.stopServer()
        #expect(try first.set(cookie, cell: 2, "2468").contains("your change is kept here"))
        #expect(try first.set(cookie, cell: 1, "Mine").contains("your change is kept here"))
        #expect(first.waitForLog("okit-run: warning: the database of model \"default\" (\(url)) is out of reach: "), "\(first.log)")
        #expect(first.log.contains("check that PostgreSQL runs there and OKIT_DATABASE_URL"), "okit-run's words: \(first.log)")
        let kept = folder.url.appendingPathComponent("data/okit/pending/default.postgres.json").path
        let written = try FileManager.default.attributesOfItem(atPath: kept)[.systemFileNumber] as? Int
        Thread.sleep(forTimeInterval: 2.5)
        #expect(Self.occurrences("is out of reach", in: first.log) == 1, "once, not at every retry: \(first.log)")
        #expect(try FileManager.default.attributesOfItem(atPath: kept)[.systemFileNumber] as? Int == written,
                "the same pending changes are not written again at every retry (an atomic write makes a new file)")

        first.child.signal(SIGTERM)
        let stopped = first.child.wait(timeout: 60)
        let file = folder.url.appendingPathComponent("data/okit/pending/default.postgres.json").path
        #expect(stopped.code == 128 + SIGTERM, "\(stopped.out)")
        #expect(stopped.out.contains("okit-run: 1 change to model \"default\" is not in the database yet (it is out of reach); kept in \(file), stored at the next start"),
                "\(stopped.out)")
        #expect(stopped.out.contains("okit-run: stopped (signal 15); everything else is stored"), "\(stopped.out)")
        #expect(!stopped.out.contains("stored the state and stopped"), "\(stopped.out)")

        // Another program renames Dune meanwhile; the next start stores the count and reports the name.
        try cluster.startServer()
        try cluster.psql("UPDATE \"Book\" SET name = 'Theirs', okit_version = okit_version + 1 WHERE id = 'dune'", database: db)
        let second = try Served.start(folder, url: url)
        defer { second.child.signal(SIGKILL); _ = second.child.wait(timeout: 10) }
        #expect(second.log.contains("okit-run: stored 1 pending change to model \"default\" that an earlier run kept in \(file)"), "\(second.log)")
        #expect(second.log.contains("okit-run: warning: conflict in model \"default\": Book dune, field name: another process stored \"Theirs\" first; this process's \"Mine\" was not stored (kept in okit/conflicts.jsonl)"),
                "\(second.log)")
        #expect(Self.occurrences("conflict in model", in: second.log) == 1, "once: \(second.log)")
        #expect(try cluster.psql("SELECT name, count FROM \"Book\" WHERE id = 'dune'", database: db) == "Theirs|2468")

        // A later outage, noticed by the server's own retries: logged when it begins and when it ends.
        try cluster.stopServer()
        #expect(second.waitForLog("is out of reach"), "\(second.log)")
        try cluster.startServer()
        #expect(second.waitForLog("okit-run: the database of model \"default\" answers again (after "), "\(second.log)")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(Self.occurrences("is out of reach", in: second.log) == 1, "\(second.log)")
        #expect(Self.occurrences("answers again", in: second.log) == 1, "\(second.log)")
    }

    /// What stops the start is said to the console in okit-run's words (web.md "The server's own console keeps
    /// okit-run's words"), not the browser's "try again later, or tell whoever runs it": a wrong password and a
    /// database that does not exist are not "cannot reach", and an unknown host is not "connection refused".
    @Test func startUpRefusalsSayWhatFailedInOkitRunsWords() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let url = try cluster.createDatabase()
        let db = String(url.split(separator: "/").last ?? "")
        // A role that must give its password (the cluster trusts the others): pg_hba.conf's first line, read at restart.
        try cluster.psql("CREATE ROLE okit_pw LOGIN PASSWORD 'right'", database: "postgres")
        let hba = cluster.folder.appendingPathComponent("data/pg_hba.conf")
        let rules = try String(contentsOf: hba, encoding: .utf8)
        try ("host all okit_pw 127.0.0.1/32 scram-sha-256\n" + rules).write(to: hba, atomically: false, encoding: .utf8)
        try cluster.restart()

        let folder = try TempFolder()
        let app = folder.url.appendingPathComponent("app.lua")
        try Self.app.write(to: app, atomically: true, encoding: .utf8)
        func refusal(_ url: String, password: String? = nil) throws -> String {
            let r = try ChildProcess.run(OKitRun.binary.path, ["serve", app.path, "--port", "0", "--data", folder.url.appendingPathComponent("data").path],
                                         environment: ["OKIT_DATABASE_URL": url, "OKIT_DATABASE_PASSWORD": password], timeout: 60)
            #expect(r.code == 4, "\(r.out)\(r.err)")
            #expect(!r.err.contains("try again later") && !r.err.contains("whoever runs"), "the browser's words: \(r.err)")
            return r.err
        }
        let login = "; check the user, the password (OKIT_DATABASE_PASSWORD, or the URL's) and the database name in OKIT_DATABASE_URL (or the model's database)"
        let wrong = try refusal(cluster.url(database: db).replacingOccurrences(of: "okit@", with: "okit_pw@"), password: "wrong")
        #expect(wrong.contains("cannot log in to the database: password authentication failed for user \"okit_pw\"" + login), "\(wrong)")
        #expect(!wrong.contains("wrong"), "the password is not shown: \(wrong)")
        let missing = try refusal(cluster.url(database: "nosuchdb"))
        #expect(missing.contains("cannot log in to the database: database \"nosuchdb\" does not exist" + login), "\(missing)")
        let unknown = try refusal("postgres://okit@db.invalid:\(cluster.port)/\(db)")
        #expect(unknown.contains("cannot reach the database: the host name db.invalid does not resolve (no such host is known here); check the URL's host"),
                "\(unknown)")
        #expect(!unknown.contains("connection refused"), "\(unknown)")
    }
}
