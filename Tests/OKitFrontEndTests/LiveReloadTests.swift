import Foundation
import Testing
import OKitEngine
import OKitLua
@testable import OKitWeb

/// Development mode's live reload (web.md "Live reload", issue 40 item 1): the app's declarations load again from
/// its files while the models stay in memory (a transient one too; nothing seeded again, nothing written), every
/// browser session keeps its place or goes to the nearest screen with a notice, and a file that does not load
/// shows an overlay naming file:line:column while the last app that loaded keeps serving.
@Suite struct LiveReloadTests {
    /// An app in a temporary folder, served in development mode, and how to make it from its files.
    struct Served {
        let web: WebApp
        let folder: URL
        let make: WebAppMaker
        var appFile: URL { folder.appendingPathComponent("app.lua") }
        var dataFolder: URL { folder.appendingPathComponent("data") }

        /// Writes the app file (the next reload reads it).
        func write(_ source: String) throws { try source.write(to: appFile, atomically: true, encoding: .utf8) }
    }

    /// The app: tasks in a file model (seeded), notes in a transient one (seeded), each a tab; a task's detail.
    static func app(title: String = "Tasks", taskFields: String = "priority = \"int\",", detail: Bool = true,
                    detailCells: String = "") -> String {
        """
        local okit = require "okit"
        okit.entity("Task", { title = "string", \(taskFields) })
        okit.entity("List", { tasks = "[Task]" })
        okit.model("List", { seed = function(root) root.tasks:append(okit.new("Task", { title = "Seeded", priority = 5 })) end })
        okit.model("List", { name = "notes", storage = "transient",
          seed = function(root) root.tasks:append(okit.new("Task", { title = "First note" })) end })
        okit.list("tasks", { type = "Task", dataPath = "tasks", titlePath = "%\(title)", cell = { path = "title" },
          add = "#true", addName = "title"\(detail ? ", segue = \"task\"" : "") })
        okit.list("notes", { type = "Task", contextPath = "notes>/", dataPath = "tasks", titlePath = "%Notes",
          cell = { path = "title" }, add = "#true", addName = "title" })
        \(detail ? "okit.detail(\"task\", { titlePath = \"title\", sections = { { okit.cell.text { path = \"%Title\", textPath = \"title\" } \(detailCells) } } })" : "")
        okit.app { id = "reload", home = { "tasks", "notes" } }
        """
    }

    static func serve(_ source: String = app()) async throws -> Served {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-reload-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let appFile = folder.appendingPathComponent("app.lua"), data = folder.appendingPathComponent("data")
        var options = ServeOptions()
        options.dev = DevOptions(app: appFile, dataFolder: data, dataStartedFresh: true)
        let make: WebAppMaker = { handover in
            var o = LuaAppOptions()
            o.dataFolder = data
            o.print = { _ in }
            handover?.apply(to: &o.session)
            let app = try LuaApp(options: o)
            try app.load(appFile: appFile)
            return WebHostedApp(session: app.session, owner: app)
        }
        let served = Served(web: WebApp(options: options), folder: folder, make: make)
        try served.write(source)
        try await served.web.load { try make(nil) }
        return served
    }

    /// Adds a row named `name` on the list at `path`.
    static func add(_ b: Browser, _ name: String, on path: String) async {
        _ = await b.command(from: path, [("command", "add")])
        _ = await b.command(from: path, [("command", "respond"), ("action", "1"), ("fields", name)])
    }

    /// The link of the row showing `text` on the page last read.
    static func rowLink(_ b: Browser, _ text: String) -> String? {
        guard let end = b.page.range(of: ">\(text)<") else { return nil }
        guard let start = b.page[..<end.lowerBound].range(of: "<a href=\"", options: .backwards) else { return nil }
        return String(b.page[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Where `GET /` sends the browser: its session's place.
    static func place(_ b: Browser) async -> String? {
        await b.get("/").headers.first { $0.name == "Location" }?.value
    }

    @Test func aReloadKeepsTheModelsInMemoryAndEveryBrowsersPlace() async throws {
        let s = try await LiveReloadTests.serve()
        let one = Browser(s.web), two = Browser(s.web)
        await LiveReloadTests.add(one, "Dune", on: "/tasks")
        _ = await one.get("/tasks")
        let dune = try #require(LiveReloadTests.rowLink(one, "Dune"))
        #expect(await one.get(dune).status == 200)
        await LiveReloadTests.add(two, "Typed note", on: "/notes")
        let stored = DataFingerprint.of(s.dataFolder)
        try s.write(LiveReloadTests.app(title: "My Tasks"))
        #expect(await s.web.reload(s.make))
        #expect(DataFingerprint.of(s.dataFolder) == stored)          // nothing written by the reload
        #expect(await LiveReloadTests.place(one) == dune)
        #expect(await LiveReloadTests.place(two) == "/notes")
        _ = await two.get("/notes")
        #expect(two.page.contains(">Typed note<") && two.page.contains(">First note<"))   // the transient model kept
        _ = await one.get("/tasks")
        #expect(one.page.contains("My Tasks") && one.page.contains(">Dune<"))
        #expect(one.page.components(separatedBy: ">Seeded<").count == 2)                   // seeded once, not again
        #expect(!one.page.contains("okit-dev-error"))
    }

    @Test func aScreenThatNoLongerExistsShowsTheNearestOneWithANotice() async throws {
        let s = try await LiveReloadTests.serve()
        let b = Browser(s.web)
        _ = await b.get("/tasks")
        let seeded = try #require(LiveReloadTests.rowLink(b, "Seeded"))
        #expect(await b.get(seeded).status == 200)
        try s.write(LiveReloadTests.app(detail: false))
        #expect(await s.web.reload(s.make))
        #expect(await LiveReloadTests.place(b) == "/tasks")
        _ = await b.get("/tasks")
        #expect(b.page.contains("The screen “task” no longer exists after the reload; showing “Tasks”."))
    }

    @Test func aLoadErrorIsShownOnEveryPageWhileTheLastAppKeepsServingUntilTheFileIsFixed() async throws {
        let s = try await LiveReloadTests.serve()
        let one = Browser(s.web), two = Browser(s.web)
        _ = await one.get("/tasks")
        _ = await two.get("/notes")
        // A syntax error: Lua names the line; the column is the token it names.
        try s.write(LiveReloadTests.app() + "\nlocal x = = 3\n")
        let line = LiveReloadTests.app().split(separator: "\n", omittingEmptySubsequences: false).count + 1
        #expect(await s.web.reload(s.make) == false)
        for (b, path) in [(one, "/tasks"), (two, "/notes")] {
            _ = await b.get(path)
            #expect(b.page.contains("role=\"alert\" id=\"okit-dev-error\""))
            #expect(b.page.contains("The app did not load: app.lua:\(line):11"), "\(b.page)")
            #expect(b.page.contains("unexpected symbol near &#39;=&#39;") || b.page.contains("unexpected symbol near '='"))
        }
        // The last app that loaded keeps answering commands.
        await LiveReloadTests.add(one, "Still works", on: "/tasks")
        _ = await one.get("/tasks")
        #expect(one.page.contains(">Still works<") && one.page.contains("okit-dev-error"))
        // A problem of the app's check names its line and column too.
        try s.write(LiveReloadTests.app().replacingOccurrences(of: "cell = { path = \"title\" },\n  add", with: "cell = { path = \"titel\" },\n  add"))
        #expect(await s.web.reload(s.make) == false)
        #expect(await s.web.reloadError?.contains("has no field \"titel\"") == true)
        _ = await one.get("/tasks")
        #expect(one.page.range(of: #"The app did not load: app\.lua:7:[0-9]+"#, options: .regularExpression) != nil, "\(one.page)")
        // Fixed: the overlay goes from every page.
        try s.write(LiveReloadTests.app(title: "Fixed"))
        #expect(await s.web.reload(s.make))
        for (b, path) in [(one, "/tasks"), (two, "/notes")] {
            _ = await b.get(path)
            #expect(!b.page.contains("okit-dev-error"))
        }
        #expect(one.page.contains("Fixed") && one.page.contains(">Still works<"))
    }

    @Test func aChangedEntityTypeKeepsFieldsItNoLongerHasAndDefaultsNewOnes() async throws {
        let s = try await LiveReloadTests.serve()
        let b = Browser(s.web)
        // priority goes (its value is kept in the model all the same) and comes back with a new field beside it.
        try s.write(LiveReloadTests.app(taskFields: ""))
        #expect(await s.web.reload(s.make))
        try s.write(LiveReloadTests.app(taskFields: "priority = \"int\", note = { \"string\", default = \"none yet\" },",
                                        detailCells: ", okit.cell.text { path = \"%Priority\", textPath = \"priority\" }, okit.cell.text { path = \"%Note\", textPath = \"note\" }"))
        #expect(await s.web.reload(s.make))
        _ = await b.get("/tasks")
        let seeded = try #require(LiveReloadTests.rowLink(b, "Seeded"))
        _ = await b.get(seeded)
        #expect(b.page.contains("value=\"5\""), "\(b.page)")
        #expect(b.page.contains("value=\"none yet\""), "\(b.page)")
    }

    @Test func theColumnOfALoadErrorIsTheTokenLuaNames() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-col-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? "local a = 1\n  local b = = 2\n".write(to: folder.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        #expect(DevLoadError(message: "app.lua:2: unexpected symbol near '='", appFolder: folder).location == "app.lua:2:13")
        #expect(DevLoadError(message: "app.lua:2: attempt to index a nil value", appFolder: folder).location == "app.lua:2:3")
        #expect(DevLoadError(message: "app.lua:7:5: screen x: no field", appFolder: folder).location == "app.lua:7:5")
        #expect(DevLoadError(message: "something else", appFolder: folder).location == nil)
    }
}
