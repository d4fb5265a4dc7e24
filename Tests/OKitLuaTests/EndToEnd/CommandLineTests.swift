import Foundation
import Testing
import OKitTestSupport

/// `okit-run` as a person runs it: exit codes and one-line messages with file:line.
@Suite struct CommandLineTests {
    static let binary = OKitRun.binary

    func run(_ args: [String]) throws -> ChildResult { try OKitRun.run(args) }

    func app(_ source: String, name: String = "app.lua") throws -> (URL, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent(name)
        try source.write(to: file, atomically: true, encoding: .utf8)
        return (file, dir.appendingPathComponent("data"))
    }

    @Test(arguments: [
        ("local x = \n", "app.lua:2:"),
        ("local t = nil\nprint(t.x)\n", "app.lua:2: attempt to index a nil value"),
        ("okit.entity('Book', {\n  name = 'strng' })\nokit.model('Book')\n", "app.lua:2:3: okit.entity(\"Book\"), field \"name\": unknown field type or entity type \"strng\""),
        ("okit.entity('Book', { name = 'string',\n  label = okit.computed(function(self) return okit.get(self, 'name[') end) })\nlocal b = okit.model('Book')\nprint(b.label)\n",
         "app.lua:2: binding \"name[\": expected \"]\" at column 6"),
        ("okit.entity('Book', { n = { 'int', default = 'many' } })\n", "app.lua:1:23: okit.entity: entity type \"Book\", field \"n\": bad default"),
    ])
    func loadErrorsExitWith3AndOneLine(_ source: String, _ expected: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build okit-run first (swift build)")
        let (file, data) = try app(source)
        let r = try run([file.path, "--data", data.path])
        #expect(r.code == 3, "\(r.err)")
        #expect(r.err.hasPrefix(expected), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "one line: \(r.err)")
    }

    @Test func aScriptPrintsToStdout() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build okit-run first (swift build)")
        let (file, data) = try app("okit.entity('Book', { name = 'string' })\nokit.model('Book')\n")
        let script = file.deletingLastPathComponent().appendingPathComponent("s.lua")
        try "print('counted', 3)\n".write(to: script, atomically: true, encoding: .utf8)
        let r = try run([file.path, "--data", data.path, "--script", script.path])
        #expect(r.code == 0 && r.out == "counted\t3\n", "stdout: \(r.out) stderr: \(r.err)")
    }

    @Test func usageErrorsExitWith2() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path))
        #expect(try run(["/nonexistent/app.lua"]).code == 2)
        let (file, _) = try app("")
        #expect(try run([file.path, "--clock", "sometimes"]).code == 2)
        #expect(try run([file.path, "--lua-memory", "1"]).code == 2)
    }

    @Test func scriptsRunAndStoreAndFailuresExitWith1() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path))
        let (file, data) = try app("okit.entity('Book', { name = 'string' })\nokit.entity('Shop', { books = '[Book]' })\nshop = okit.model('Shop')\n")
        let script = file.deletingLastPathComponent().appendingPathComponent("s.lua")
        try "shop.books:append(okit.new('Book', { name = 'Dune' }))".write(to: script, atomically: true, encoding: .utf8)
        #expect(try run([file.path, "--data", data.path, "--script", script.path]).code == 0)
        let stored = try String(contentsOf: data.appendingPathComponent("okit/data/default.json"), encoding: .utf8)
        #expect(stored.contains("\"name\":\"Dune\""))
        let printed = try run([file.path, "--data", data.path])
        #expect(printed.code == 0 && printed.out.contains("\"model\":\"default\"") && printed.out.contains("Dune"))
        try "error('nope')".write(to: script, atomically: true, encoding: .utf8)
        let failed = try run([file.path, "--data", data.path, "--script", script.path])
        #expect(failed.code == 1 && failed.err.hasPrefix("s.lua:1: nope"))
    }

    /// A warning a script's reads logged (nothing showed it) is printed to stderr at exit, once.
    @Test func warningsOfAScriptArePrintedAtExit() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path))
        let (file, data) = try app("okit.entity('Root', { name = 'string' })\nroot = okit.model('Root')\n"
            + "okit.extension('Root', 'itself', function(r) return r end)\n")
        let script = file.deletingLastPathComponent().appendingPathComponent("s.lua")
        try "okit.get(root, 'itself.nosuch')\nokit.get(root, 'itself.nosuch')\n".write(to: script, atomically: true, encoding: .utf8)
        let r = try run([file.path, "--data", data.path, "--script", script.path])
        #expect(r.code == 0)
        #expect(r.err == "okit-run: warning: binding \"itself.nosuch\": Root has no field, method or extension \"nosuch\"\n", "\(r.err)")
    }

    @Test func unreadableModelsExitWith4AndCanBeRecovered() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path))
        let (file, data) = try app("okit.entity('Shop', { name = 'string' })\nokit.model('Shop')\n")
        let models = data.appendingPathComponent("okit/data")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try "{\"name\": 5}".write(to: models.appendingPathComponent("default.json"), atomically: true, encoding: .utf8)
        let r = try run([file.path, "--data", data.path])
        #expect(r.code == 4)
        #expect(r.err.contains("default.json:1:10: expected a string at $.name"))
        #expect(try String(contentsOf: models.appendingPathComponent("default.json"), encoding: .utf8) == "{\"name\": 5}")
        #expect(try run([file.path, "--data", data.path, "--recover", "default"]).code == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: models.path)
        #expect(left.contains { $0.hasPrefix("default.json.corrupt-") })
    }

    /// The engine's error carries the way out as data; okit-run says it in its own words (CommandLineAdvice).
    @Test func theWayOutOfAnUnreadableModelIsInOkitRunsWords() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path))
        let (file, data) = try app("okit.entity('Shop', { name = 'string' })\nokit.model('Shop')\n")
        let models = data.appendingPathComponent("okit/data")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try "{\"name\" 5}".write(to: models.appendingPathComponent("default.json"), atomically: true, encoding: .utf8)
        let r = try run([file.path, "--data", data.path])
        #expect(r.code == 4)
        #expect(r.err.contains("default.json:1:9: expected \":\" after a field name at $.name (byte 8)\n  the file is left as it is; fix it, or run okit-run with --recover default to move it aside and start this model fresh"), "\(r.err)")
        // A value of another type than its field's may be a changed type: its way out is a migration, not a fresh start.
        try "{\"name\": 5}".write(to: models.appendingPathComponent("default.json"), atomically: true, encoding: .utf8)
        let typed = try run([file.path, "--data", data.path])
        #expect(typed.code == 4)
        #expect(typed.err.contains("default.json:1:10: expected a string at $.name (byte 9)\n  the file is left as it is; field \"name\" of Shop is declared string and the file holds a number: if the field's type changed, give the app the next version (okit.app { version = 2 }) and convert the stored values in okit.migrate(1, function(model, raw) … end)"), "\(typed.err)")
        #expect(!typed.err.contains("--recover"), "\(typed.err)")
    }
}

@Suite struct JSONLinesTests {
    @Test func anAppIsDrivenOverJSONLines() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let app = OKitRun.root.appendingPathComponent("examples/bookshop/app.lua")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("okit-json-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let commands = [#"{"cmd":"screen"}"#, #"{"cmd":"search","text":"em"}"#, "garbage", #"{"cmd":"tab","id":"authors"}"#,
                        #"{"cmd":"tab","id":"nope"}"#, #"{"cmd":"back"}"#, #"{"cmd":"quit"}"#]
        let r = try OKitRun.run([app.path, "--data", data.path, "--clock", "virtual"],
                                stdin: .text(commands.joined(separator: "\n") + "\n"))
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(r.code == 0)
        #expect(lines.count == 7)
        func object(_ i: Int) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(lines[i].utf8)) as? [String: Any]) ?? [:]
        }
        let first = object(0)
        #expect(first["ok"] as? Bool == true)
        let screen = (first["snapshot"] as? [String: Any])?["screen"] as? [String: Any]
        #expect(screen?["title"] as? String == "Book Shop" && screen?["subtitle"] as? String == "2 Books")
        let searched = ((object(1)["snapshot"] as? [String: Any])?["screen"] as? [String: Any])?["rowCount"] as? Int
        #expect(searched == 1)
        #expect(object(2)["ok"] as? Bool == false)
        #expect((((object(3)["snapshot"] as? [String: Any])?["app"]) as? [String: Any])?["tab"] as? String == "authors")
        #expect((object(4)["error"] as? String)?.contains("no tab \"nope\"") == true)
        #expect((object(5)["error"] as? String)?.contains("already at the first screen") == true)
        #expect(object(6)["ok"] as? Bool == true)
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("okit/data/default.json").path), "quit stores the state")
    }
}

@Suite struct CheckCommandTests {
    @Test func checkFindsATypoInEachKindOfPropertyWithLineAndColumn() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let source = """
        okit.entity("Book", { name = "string", price = "double", marked = "bool", setAsMarked = function(self) self.marked = true end })
        okit.entity("Shop", { books = "[Book]" })
        shop = okit.model("Shop")
        okit.list("books", {
          type = "Book", dataPath = "books",
          rowSort = "nmae", group = "name/initail",
          cell = { path = "name", detailPath = "prize" },
          more = "#true", moreActions = "%A", moreActionsTap = "setAsMarkd()",
          titlePath = "directory>/x", segue = "book",
        })
        okit.detail("book", {
          subTitlePath = "=nam .. '!'",
          sections = { { okit.cell.switch { path = "%Marked", onPath = "markd" } } },
        })
        okit.app { home = "books" }
        """
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("app.lua")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let r = try OKitRun.run(["check", file.path])
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(r.code == 3)
        // Each at the line and column of its binding in the file.
        #expect(lines.contains("app.lua:6:14: screen books, property rowSort: Book has no field \"nmae\" (did you mean \"name\"?)"))
        #expect(lines.contains("app.lua:6:35: screen books, property group: no extension \"initail\" for string values (did you mean \"initial\"?)"))
        #expect(lines.contains("app.lua:7:41: screen books, property cell.detailPath: Book has no field \"prize\" (did you mean \"price\"?)"))
        #expect(lines.contains("app.lua:8:57: screen books, property moreActionsTap: Book has no method or extension \"setAsMarkd\" (did you mean \"setAsMarked\"?)"))
        #expect(lines.contains("app.lua:9:16: screen books, property titlePath: unknown model \"directory\""))
        #expect(lines.contains("app.lua:12:20: screen book, property subTitlePath: Book has no field \"nam\" (did you mean \"name\"?)"), "inside expressions too")
        #expect(lines.contains("app.lua:13:65: screen book, property cell Marked.onPath: Book has no field \"markd\" (did you mean \"marked\"?)"))
        #expect(lines.count == 8, "7 problems and the summary")
        #expect(lines.last == "app.lua: 7 problems in 2 screens, 11 bindings")
    }

    @Test func checkCoversSelectionMenuSettingsTheAppAndScreensOpenedLater() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let source = """
        okit.entity("Author", { name = "string" })
        okit.entity("Genre", { name = "string" })
        okit.entity("Book", { name = "string", author = "ref Author", genre = "ref Genre", dates = "[Author]" })
        okit.entity("Group", { name = "string" })
        okit.entity("Shop", { books = "[Book]", authors = "[Author]", genres = "[Genre]", groups = "[Group]", theme = "string" })
        shop = okit.model("Shop")
        okit.list("dates", { dataPath = "dates", cell = { path = "nmae" } })
        okit.list("group", { titlePath = "titel" })
        okit.list("books", { type = "Book", dataPath = "books", cell = { path = "name" }, segue = "book" })
        okit.detail("book", { sections = { {
          okit.cell.table { path = "%Dates", segue = "dates" },
          okit.cell.picker { path = "%Genre", dataPath = "/genres", namePath = "nme", selectionPath = "genre" },
          okit.cell.table { path = "%Author", segue = "author" } } } })
        okit.selection("author", { dataPath = "/authors", selectionPath = "autor", cell = { path = "name" } })
        okit.menu("menu", { dataPath = "groups", cell = { path = "name" }, rowIdentifier = "group",
          items = { { title = "%Home", home = true, tapPath = "gone()" } } })
        okit.settings("settings", { sections = { { okit.cell.switch { path = "%Dark", onPath = "drak" } } } })
        okit.app { home = "books", menu = "menu", themeName = "them" }
        """
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("app.lua")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let r = try OKitRun.run(["check", file.path]), (code, out) = (r.code, r.out)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(code == 3)
        #expect(lines.contains("app.lua:7:59: screen dates, property cell.path: Author has no field \"nmae\" (did you mean \"name\"?)"),
                "a list declared before the detail cell that opens it gets the cell's type")
        #expect(lines.contains("app.lua:8:35: screen group, property titlePath: Group has no field \"titel\""), "a menu's content")
        #expect(lines.contains("app.lua:12:73: screen book, property cell Genre.namePath: Genre has no field \"nme\" (did you mean \"name\"?)"),
                "a picker's names are read on its options")
        #expect(lines.contains("app.lua:14:68: screen author, property selectionPath: Book has no field \"autor\" (did you mean \"author\"?)"))
        #expect(lines.contains("app.lua:16:56: screen menu, property items.tap: Shop has no method or extension \"gone\""))
        #expect(lines.contains("app.lua:17:89: screen settings, property cell Dark.onPath: Shop has no field \"drak\""))
        #expect(lines.contains("app.lua:18:56: screen okit.app, property themeName: Shop has no field \"them\" (did you mean \"theme\"?)"))
        #expect(lines.count == 8, "\(lines)")
        // The same problems stop the app at load, unless --no-check.
        let loadCode = try OKitRun.run([file.path, "--data", dir.appendingPathComponent("d").path]).code
        #expect(loadCode == 3)
        let noCheck = try OKitRun.run([file.path, "--data", dir.appendingPathComponent("e").path, "--no-check", "--json"]).code
        #expect(noCheck == 0)
    }

    @Test func theBookshopChecksClean() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let app = OKitRun.root.appendingPathComponent("examples/bookshop/app.lua")
        #expect(try OKitRun.run(["check", app.path]).code == 0)
    }
}
