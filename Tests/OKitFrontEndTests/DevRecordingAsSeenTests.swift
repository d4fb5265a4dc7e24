import Foundation
import Testing
import OKitEngine
import OKitLua
@testable import OKitWeb

/// A web recording writes what the terminal's `--record` writes and what the person saw (web.md "Development
/// mode", found by an app author's probe): a picker's choice by its name, an Assert on a validation message under a
/// cell, a runtime error without its Lua line, no search the person did not type after Back, the virtual clock's
/// day in the header; a binding's runtime error is on stderr once and on the development page; the test's name
/// is checked by the server alone, in the app's language.
@Suite struct DevRecordingAsSeenTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Genre", { name = "string" })
    okit.entity("Task", { title = "string", genre = "ref Genre?",
      pages = { "int", min = 1, message = "Pages must be positive" },
      boom = function(self)
        local cfg = nil
        self.title = cfg.x
      end })
    okit.entity("List", { tasks = "[Task]", genres = "[Genre]" })
    okit.model("List", { seed = function(root)
      for _, n in ipairs({ "Fiction", "Poetry" }) do root.genres:append(okit.new("Genre", { name = n })) end
      root.tasks:append(okit.new("Task", { title = "Seeded", pages = 3 }))
    end })
    okit.extension("string", "shout", function(s) if s == "Boom" then error("no shouting") end return s .. "!" end)
    okit.list("tasks", { type = "Task", dataPath = "tasks", titlePath = "%Tasks", cell = { path = "title" },
      search = "#true", searchPath = "title", segue = "task" })
    okit.detail("task", { titlePath = "title/shout", buttons = { { title = "#Bumm", tapPath = "boom()" } },
      sections = { { okit.cell.text { path = "%Title", textPath = "title" },
        okit.cell.picker { path = "%Genre", dataPath = "/genres", namePath = "name", selectionPath = "genre" },
        okit.cell.text { path = "%Pages", textPath = "pages" } } } })
    okit.app { id = "seen", home = "tasks" }
    """

    /// The app served in development mode on the virtual clock; its folder, and the server's log lines.
    static func serve() async throws -> (WebApp, URL, Log) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-seen-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let appFile = folder.appendingPathComponent("app.lua"), data = folder.appendingPathComponent("data")
        try app.write(to: appFile, atomically: true, encoding: .utf8)
        var options = ServeOptions()
        options.dev = DevOptions(app: appFile, dataFolder: data, dataStartedFresh: true)
        let log = Log()
        let web = WebApp(options: options, log: { log.add($0) })
        try await web.load {
            var o = LuaAppOptions()
            o.dataFolder = data
            o.print = { _ in }
            o.virtualNow = Date(timeIntervalSince1970: 1_600_000_000)      // 2020-09-13: no machine's today
            let app = try LuaApp(options: o)
            try app.load(appFile: appFile)
            return WebHostedApp(session: app.session, owner: app)
        }
        return (web, folder, log)
    }

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    static func dev(_ b: Browser, _ route: String, from path: String, _ fields: [(name: String, value: String)]) async {
        _ = await b.get(path)
        _ = await b.web.handle(WebRequest(method: "POST", path: route, form: [("csrf", b.attribute("data-csrf")),
            ("v", b.attribute("data-version"))] + fields, sessionCookie: b.cookie))
    }

    @Test func aRecordingWritesWhatThePersonSawAndAssertsAValidationMessage() async throws {
        let (web, folder, _) = try await DevRecordingAsSeenTests.serve()
        let b = Browser(web)
        await DevRecordingAsSeenTests.dev(b, "/dev/record", from: "/tasks", [("do", "start")])
        #expect(!b.page.contains("pattern=") && !b.page.contains(" required"), "the browser does not judge the name: \(b.page)")
        _ = await b.get("/tasks", query: "text=Se")
        let task = try #require(LiveReloadTests.rowLink(b, "Seeded"), "\(b.page)")
        _ = await b.get(task)
        _ = await b.command(from: task, [("command", "edit")])
        _ = await b.command(from: task, [("command", "set"), ("cell", "Genre"), ("value", "2")])     // the form's position
        _ = await b.command(from: task, [("command", "set"), ("cell", "Pages"), ("value", "0")])
        _ = await b.get(task)
        #expect(b.page.contains("Pages must be positive"))
        await DevRecordingAsSeenTests.dev(b, "/dev/assert", from: task, [("target", "row"), ("section", "1"), ("row", "3"), ("part", "invalid")])
        #expect(!b.page.contains("That shows no text"))
        _ = await b.command(from: task, [("command", "button"), ("id", "Bumm")])
        _ = await b.get("/tasks", query: "text=Se")                                                 // Back
        await DevRecordingAsSeenTests.dev(b, "/dev/save", from: "/tasks", [("name", "seen")])
        let text = try String(contentsOf: folder.appendingPathComponent("tests/seen_test.lua"), encoding: .utf8)
        #expect(text.contains("app:set(\"Genre\", \"Poetry\")"), "\(text)")
        let refused = "assert.has_error(function() app:set(\"Pages\", \"0\") end, \"Pages must be positive\")"
        #expect(text.components(separatedBy: refused).count == 3, "the refusal, and the Assert on its message: \(text)")
        #expect(text.contains("end, \"attempt to index a nil value (local 'cfg')"), "no app.lua:LINE: \(text)")
        #expect(text.components(separatedBy: "app:search(\"Se\")").count == 2, "one search, typed once: \(text)")
        #expect(text.contains("on 2020-09-13 from"), "the virtual clock's day: \(text)")
    }

    @Test func aBindingsRuntimeErrorIsOnStderrOnceAndOnTheDevelopmentPage() async throws {
        let (web, _, log) = try await DevRecordingAsSeenTests.serve()
        let b = Browser(web)
        _ = await b.get("/tasks")
        let task = try #require(LiveReloadTests.rowLink(b, "Seeded"))
        _ = await b.command(from: task, [("command", "edit")])
        _ = await b.command(from: task, [("command", "set"), ("cell", "Title"), ("value", "Boom")])
        _ = await b.get(task)
        _ = await b.get(task)
        let warned = log.all.filter { $0.contains("no shouting") }
        #expect(warned.count == 1 && warned[0].hasPrefix("okit-run: warning: ") && warned[0].contains("title/shout"), "\(log.all)")
        #expect(b.page.contains("id=\"okit-dev-warnings\"") && b.page.contains("no shouting"), "\(b.page)")
    }
}

extension Browser {
    /// A GET with a query (a search typed, Back to a searched list).
    func get(_ path: String, query: String) async -> WebResponse {
        let r = await web.handle(WebRequest(method: "GET", path: path, query: query, sessionCookie: cookie))
        take(r)
        page = String(decoding: r.body, as: UTF8.self)
        return r
    }
}
