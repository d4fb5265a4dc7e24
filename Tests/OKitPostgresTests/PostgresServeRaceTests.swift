import Foundation
import Testing
import OKitTestSupport

/// Two `okit-run serve` processes over one shared PostgreSQL model, two people saving at the same moment — the
/// races an outside tester ran (docs/scale.md "What happens when something fails"), many times over, with real
/// processes, real pages and a real database. Nothing here measures a duration: each wait has a deadline only so
/// that a hang fails instead of stopping the run.
///
/// - The same field, saved on both processes at once: exactly one save goes into the database, and the other
///   person is told theirs was not stored (the conflict notice, or the page out of date). The process answering the
///   later post applied the earlier store between its check of the post's page and its command, and wrote over it
///   without a conflict: 2 of 40 races lost an acknowledged save with no notice, no log line and no record.
/// - A deletion against an edit: each person is told what happened to them, in their language — the editor that
///   their change was not stored, or went with the entry; the deleter nothing, or the edit their deletion removed
///   (the German deleter was told it had lost an empty value, and the editor only that the screen was gone).
@Suite(.serialized, .enabled(if: PostgresCluster.isAvailable && OKitRun.isBuilt,
                             Comment(rawValue: PostgresCluster.isAvailable ? "okit-run is not built" : PostgresCluster.unavailable)))
struct PostgresServeRaceTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string", count = "int" })
    okit.entity("Shop", { books = "[Book]" })
    okit.model("Shop", { storage = "postgres", seed = function(root)
      for i = 1, 40 do
        root.books:append(okit.new("Book", { id = string.format("b%02d", i), name = "Book " .. i, count = i }))
      end
    end })
    okit.list("books", { type = "Book", dataPath = "books", titlePath = "%Books", cell = { path = "name" },
                         segue = "book", delete = "#true" })
    okit.detail("book", { titlePath = "name", sections = { {
      okit.cell.text { path = "%Name", textPath = "name" },
      okit.cell.text { path = "%Count", textPath = "count" },
    } } })
    okit.app { home = "books" }
    """

    /// Every name the database committed for a book, in commit order (a trigger's insert commits with the store).
    static let nameLog = """
    CREATE TABLE okit_test_names (n bigserial PRIMARY KEY, id text, name text);
    CREATE FUNCTION okit_test_log_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.name IS DISTINCT FROM OLD.name THEN INSERT INTO okit_test_names (id, name) VALUES (NEW.id, NEW.name); END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER okit_test_names AFTER UPDATE ON "Book" FOR EACH ROW EXECUTE FUNCTION okit_test_log_name();
    """

    /// One `okit-run serve` process of the app, with its own data folder.
    final class Served {
        let child: ChildProcess
        let port: Int
        let data: URL

        init(_ folder: TempFolder, name: String, url: String, language: String? = nil) throws {
            let app = folder.url.appendingPathComponent("app.lua")
            if !FileManager.default.fileExists(atPath: app.path) {
                try PostgresServeRaceTests.app.write(to: app, atomically: true, encoding: .utf8)
            }
            data = folder.url.appendingPathComponent(name)
            child = try ChildProcess.start(OKitRun.binary.path, ["serve", app.path, "--port", "0", "--data", data.path]
                                           + (language.map { ["--lang", $0] } ?? []),
                                           stderr: .stdout, environment: ["OKIT_DATABASE_URL": url, "OKIT_DATABASE_PASSWORD": nil])
            let deadline = Date().addingTimeInterval(120)
            var found: Int?
            while found == nil, Date() < deadline {
                found = child.outputSoFar.firstMatch(of: /serving .* at http:\/\/127\.0\.0\.1:([0-9]+)\//).flatMap { Int($0.1) }
                if found == nil { usleep(50_000) }
            }
            guard let found else {
                child.signal(SIGKILL)
                throw PostgresClusterError("serve did not start: \(child.wait(timeout: 10).out)")
            }
            port = found
        }

        var log: String { child.outputSoFar }

        /// The lines of its `okit/conflicts.jsonl`.
        var conflicts: [String] {
            let text = (try? String(contentsOf: data.appendingPathComponent("okit/conflicts.jsonl"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init)
        }

        func stop() {
            child.signal(SIGKILL)
            _ = child.wait(timeout: 30)
        }
    }

    /// One person at a browser: a session cookie, the page they were shown last, and its forms' hidden fields.
    final class Person: @unchecked Sendable {
        // @unchecked Sendable: a person is used by one thread at a time (the test's, or the one thread it hands it to).
        let port: Int
        var cookie: String?
        var page = ""
        var place = ""

        init(_ port: Int) { self.port = port }

        var csrf: String { field(#"data-csrf="([^"]*)""#) }
        var version: String { field(#"data-version="([^"]*)""#) }
        var title: String { PostgresServeRaceTests.unescaped(field(#"<h1 id="okit-title">([^<]*)</h1>"#)) }
        var editing: Bool { page.contains("okit-edit\" aria-pressed=\"true\"") }
        /// The notices and errors the page shows.
        var notices: [String] {
            page.matches(of: /role="(?:status|alert)"[^>]*>([^<]*)</).map { PostgresServeRaceTests.unescaped(String($0.1)) }
                .filter { !$0.hasPrefix("Live updates") }
        }
        /// The dialog the page shows (its mark), if any.
        var dialog: String? { page.firstMatch(of: /name="dialog" value="([^"]+)"/).map { String($0.1) } }

        private func field(_ pattern: String) -> String {
            guard let regex = try? Regex(pattern), let match = page.firstMatch(of: regex), match.count > 1,
                  let found = match[1].substring else { return "" }
            return String(found)
        }

        @discardableResult
        func get(_ path: String) throws -> Person {
            var path = path
            for _ in 0..<5 {
                let answer = try PostgresServeRaceTests.exchange(port, "GET \(path)", cookie: cookie)
                if let c = answer.cookie { cookie = c }
                if (301...303).contains(answer.status), let to = answer.location { path = to; continue }
                page = answer.body
                place = PostgresServeRaceTests.unescaped(field(#"data-location="([^"]*)""#))
                return self
            }
            throw PostgresClusterError("GET \(path) redirected too often")
        }

        /// Posts a command from the page shown last (its version and place, as its forms do), then follows the answer.
        @discardableResult
        func post(_ fields: [(String, String)]) throws -> Person {
            let all = [("csrf", csrf), ("v", version), ("at", place)] + fields
            let form = all.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
                .joined(separator: "&")
            let answer = try PostgresServeRaceTests.exchange(port, "POST /command", cookie: cookie, form: form)
            if let c = answer.cookie { cookie = c }
            guard answer.status == 303, let to = answer.location else {
                throw PostgresClusterError("POST \(fields) answered \(answer.status): \(answer.body.prefix(300))")
            }
            return try get(to)
        }

        /// The book's page in edit mode.
        func editing(_ book: String) throws {
            try get("/books/book~\(book)")
            if !editing { try post([("command", "edit"), ("on", "true")]) }
        }
    }

    // MARK: The same field at once

    @Test func twoProcessesSavingOneFieldAtOnceStoreOneAndTellTheOther() throws {
        let db = try PostgresTestDatabase.make()
        let folder = try TempFolder()
        let first = try Served(folder, name: "a", url: db.url)
        defer { first.stop() }
        _ = try db.psql(Self.nameLog)
        let second = try Served(folder, name: "b", url: db.url)
        defer { second.stop() }
        let a = Person(first.port), b = Person(second.port)
        try a.editing("b01")
        try b.editing("b01")

        var failures: [String] = []
        var told = (conflict: 0, outdated: 0)
        let rounds = 40
        for round in 0..<rounds where failures.count < 3 {
            // Both pages show the name as it is now, in edit mode.
            let current = try db.psql("SELECT name FROM \"Book\" WHERE id = 'b01'")
            try Self.waitUntil("both processes show \(current)") {
                try a.editing("b01"); try b.editing("b01")
                return a.title == current && b.title == current
            }
            let before = try Self.logged(db)
            let mine = (a: "A\(round)", b: "B\(round)")
            // B posts up to 10 ms after A: the later post's process meets the earlier store at its check, between
            // its check and its command, or at its store.
            let delay = UInt32(round % 11) * 1000
            try Self.together({ try a.post([("command", "set"), ("cell", "Name"), ("value", mine.a)]) },
                              { usleep(delay); try b.post([("command", "set"), ("cell", "Name"), ("value", mine.b)]) })
            let landed = try Self.logged(db).dropFirst(before.count).map(\.name)
            let answers = [(mine.a, a.notices, first), (mine.b, b.notices, second)]
            guard landed.count == 1, let winner = landed.first, winner == mine.a || winner == mine.b else {
                failures.append("round \(round): the database took \(landed) of \(mine); A was told \(a.notices), B \(b.notices)")
                continue
            }
            for (value, notices, process) in answers {
                if value == winner {
                    if !notices.isEmpty { failures.append("round \(round): \(value) was stored, yet its page says \(notices)") }
                } else if notices.contains(where: { $0.hasPrefix("Someone else changed name of this Book first: it is now \"\(winner)\"; your \"\(value)\" was not stored") }) {
                    told.conflict += 1
                    // Reported as storage.md says: the log and okit/conflicts.jsonl of the process that lost.
                    if !process.log.contains("this process's \"\(value)\" was not stored")
                        || !process.conflicts.contains(where: { $0.contains("\"mine\":\"\(value)\"") }) {
                        failures.append("round \(round): \(value) lost to \(winner) but is not in its process's log and conflicts.jsonl")
                    }
                } else if notices.contains(where: { $0.hasPrefix("This page was out of date, so nothing was changed") }) {
                    told.outdated += 1          // refused, not acknowledged: the page showed the other's change
                } else {
                    failures.append("round \(round): \(value) was not stored (the database took \(winner)), and its page said \(notices)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))\nlosers told by the conflict notice: \(told.conflict), by the page out of date: \(told.outdated)")
    }

    // MARK: A deletion against an edit

    @Test func aDeletionAgainstAnEditTellsEachPersonWhatHappenedInTheirLanguage() throws {
        let db = try PostgresTestDatabase.make()
        let folder = try TempFolder()
        let first = try Served(folder, name: "a", url: db.url)
        defer { first.stop() }
        _ = try db.psql(Self.nameLog)
        let second = try Served(folder, name: "b", url: db.url, language: "de")
        defer { second.stop() }

        var failures: [String] = []
        var seen: Set<String> = []
        for round in 0..<24 where failures.count < 3 {
            let book = String(format: "b%02d", round + 1)
            let edit = "Edit \(round)"
            let editor = Person(first.port), deleter = Person(second.port)
            try editor.editing(book)
            // The deleter's confirmation is open before the edit is made.
            try Self.waitUntil("the deleter's list shows \(book)") {
                try deleter.get("/books")
                return deleter.page.contains("book~\(book)")
            }
            try deleter.post([("command", "delete"), ("row", book)])
            guard let dialog = deleter.dialog else {
                failures.append("\(book): no confirmation: \(deleter.notices)")
                continue
            }
            let delay = UInt32(round % 8) * 1000
            try Self.together({ usleep(delay); try editor.post([("command", "set"), ("cell", "Name"), ("value", edit)]) },
                              { try deleter.post([("command", "respond"), ("action", "1"), ("dialog", dialog)]) })
            let deleterSaid = deleter.notices
            var editorSaid = editor.notices
            // The editor's page leaves the deleted book (a live update or their next page): what it says then counts.
            try Self.waitUntil("the editor's page leaves \(book)") {
                if editor.place == "/books" { return true }
                try editor.get(editor.place)
                editorSaid += editor.notices
                return editor.place == "/books"
            }
            #expect(try db.psql("SELECT count(*) FROM \"Book\" WHERE id = '\(book)'") == "0")
            let stored = try Self.logged(db).contains { $0.id == book && $0.name == edit }

            let quoted = "\"\(edit)\""
            let notStored = [
                "Someone else deleted this Book first, so your change of name to \(quoted) was not stored (it is kept in the server's conflict record).",
                "This Book was deleted meanwhile, so your change of Name to \(quoted) was not stored.",
            ]
            let wentWithIt = "Someone else deleted this Book after your change of Name to \(quoted), so that change went with it; this is the nearest screen that still exists."
            let removedByDeletion = "Jemand anderes hatte name dieses Eintrags (Book) gerade in „\(edit)“ geändert; Ihr Löschen hat auch diese Änderung entfernt (sie steht im Konfliktprotokoll des Servers)."
            if stored {
                if !editorSaid.contains(wentWithIt) { failures.append("\(book): the edit was stored, then deleted; the editor was told \(editorSaid)") }
                if !(deleterSaid.isEmpty || deleterSaid == [removedByDeletion]) {
                    failures.append("\(book): the deleter removed a stored edit and was told \(deleterSaid)")
                }
                seen.insert(deleterSaid.isEmpty ? "stored, then deleted" : "stored, then deleted unseen")
            } else {
                guard let said = editorSaid.first(where: notStored.contains) else {
                    failures.append("\(book): the edit was not stored; the editor was told \(editorSaid)")
                    continue
                }
                if said == notStored[0] {
                    // Reported as a conflict: the log and conflicts.jsonl of the editor's process.
                    if !first.log.contains("Book \(book), field name: another process deleted the Book first; this process's \(quoted) was not stored")
                        || !first.conflicts.contains(where: { $0.contains("\"id\":\"\(book)\"") && $0.contains("\"theirs\":null,\"mine\":\(quoted)") }) {
                        failures.append("\(book): the editor lost to the deletion, but its process's log and conflicts.jsonl do not say so")
                    }
                }
                if !deleterSaid.isEmpty { failures.append("\(book): the deleter won and was told \(deleterSaid)") }
                seen.insert(said == notStored[0] ? "lost at its store" : "lost at its check")
            }
            #expect(!(editorSaid + deleterSaid).contains { $0.contains("„“") || $0.contains("\"\"") }, "no empty value is said lost")
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))\nseen: \(seen.sorted())")
    }

    // MARK: Helpers

    /// Runs both at once (each on a thread of its own); rethrows the first error.
    static func together(_ one: @escaping @Sendable () throws -> Void, _ two: @escaping @Sendable () throws -> Void) throws {
        let errors = ErrorBox()
        let group = DispatchGroup()
        for body in [one, two] {
            group.enter()
            Thread.detachNewThread {
                do { try body() } catch { errors.add(error) }
                group.leave()
            }
        }
        guard group.wait(timeout: .now() + 120) == .success else { throw PostgresClusterError("a post did not finish in 120 s") }
        if let e = errors.first { throw e }
    }

    final class ErrorBox: @unchecked Sendable {
        // @unchecked Sendable: `errors` is read and written with `lock` held only.
        private let lock = NSLock()
        private var errors: [any Error] = []
        func add(_ e: any Error) { lock.lock(); errors.append(e); lock.unlock() }
        var first: (any Error)? { lock.lock(); defer { lock.unlock() }; return errors.first }
    }

    /// Asks `done` until it is true; fails after 30 s (a deadline, not a measurement).
    static func waitUntil(_ what: String, _ done: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try done() { return }
            usleep(20_000)
        }
        throw PostgresClusterError("not within 30 s: \(what)")
    }

    /// The names the database committed, in order.
    static func logged(_ db: PostgresTestDatabase) throws -> [(id: String, name: String)] {
        try db.psql("SELECT id || '|' || name FROM okit_test_names ORDER BY n").split(separator: "\n").map {
            let parts = $0.split(separator: "|", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    static func unescaped(_ html: String) -> String {
        html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// HTTP/1.1 over a plain socket to 127.0.0.1, one request per connection (OKitTestSupport's `HTTPExchange`).
    static func exchange(_ port: Int, _ line: String, cookie: String?, form: String? = nil) throws -> HTTPExchange.Answer {
        try HTTPExchange.request(port, line, cookie: cookie, form: form)
    }
}
