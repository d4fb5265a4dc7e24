import Foundation
@testable import OKitLua
import Testing
import OKitTestSupport

/// `okit-run check`: one planted mistake per kind of finding, each reported at the line and column of its
/// binding string in the file.
@Suite struct CheckFindingsTests {
    /// Writes `source` as app.lua in a scratch folder and checks it as `okit-run check` does.
    static func check(_ source: String, files: [String: String] = [:]) throws -> AppCheckResult {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let file = dir.appendingPathComponent("app.lua")
        try source.write(to: file, atomically: true, encoding: .utf8)
        var options = LuaAppOptions()
        options.dataFolder = dir.appendingPathComponent("data")
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        options.checkBindings = false
        options.checkOnly = true
        options.print = { _ in }
        let app = try LuaApp(options: options)
        try app.load(appFile: file)
        return app.checkApp()
    }

    static let planted = """
    local okit = require "okit"
    okit.entity("Author", { name = "string" })
    okit.entity("Genre", { name = "string" })
    okit.entity("Book", { name = "string", date = "date", marked = "bool", copies = "int", author = "ref Author",
      genre = "ref Genre", setAsMarked = function(self) self.marked = true end })
    okit.entity("Shop", { books = "[Book]", authors = "[Author]", genres = "[Genre]" })
    shop = okit.model("Shop")
    okit.list("books", {
      dataPath = "books", rowSortAsc = "true", group = "name/initail", tap = "setAsMarkd()",
      cell = { contextPath = "author/ref", path = "nmae" },
      segue = "bok", buttons = { { title = "%Pick", present = "pickBook" } },
    })
    okit.detail("book", { type = "Book", sections = { {
      okit.cell.switch { path = "%Name", onPath = "name" },
      okit.cell.stepper { path = "%Date", valuePath = "date" },
      okit.cell.date { path = "%Marked", datePath = "marked" },
      okit.cell.picker { path = "%Genre", dataPath = "/genres", namePath = "name", selectionPath = "marked" },
      okit.cell.table { path = "%Author", present = "autor" } } } })
    okit.selection("pickBook", { dataPath = "books", cell = { path = "name" } })
    okit.menu("menu", { dataPath = "genres", cell = { path = "name" }, rowIdentifier = "genres",
      items = { { title = "%Settings", present = "setings" } } })
    okit.app { home = { "books", "autors" }, menu = "mnu" }
    """

    @Test func eachPlantedMistakeIsFoundAtItsBinding() throws {
        let result = try CheckFindingsTests.check(CheckFindingsTests.planted)
        let expected = [
            // a flag given a bare word
            "app.lua:9:37: screen books, property rowSortAsc: \"true\" is a path here, not a flag; write \"#true\"",
            // an unknown extension, at the column of its name inside the binding
            "app.lua:9:58: screen books, property group: no extension \"initail\" for string values (did you mean \"initial\"?)",
            // an unknown method
            "app.lua:9:75: screen books, property tap: Book has no method or extension \"setAsMarkd\" (did you mean \"setAsMarked\"?)",
            // an unknown field, on the row cell's context (the row's author)
            "app.lua:10:48: screen books, property cell.path: Author has no field \"nmae\" (did you mean \"name\"?)",
            // a segue to no screen
            "app.lua:11:12: screen books, property segue: no screen \"bok\" is declared (did you mean \"book\"?)",
            // cells bound to fields of the wrong type
            "app.lua:15:52: screen book, property cell Date.valuePath: a stepper cell needs a number; \"date\" on Book is a date",
            "app.lua:16:50: screen book, property cell Marked.datePath: a date cell needs a date (or an ISO 8601 string); \"marked\" on Book is a bool",
            "app.lua:17:97: screen book, property cell Genre.selectionPath: a picker cell needs a ref (or an id string); \"marked\" on Book is a bool",
            // a cell presenting no screen
            "app.lua:18:50: screen book, property cell Author.present: no screen \"autor\" is declared",
            // an omitted selectionPath whose default (the pushing list's dataPath) holds no refs: at the screen's id
            "app.lua:19:17: screen pickBook, property selectionPath: selectionPath omitted: the default \"books\" on Shop (opened from list books) is not a ref or a list of refs (it is a list); set selectionPath",
            // rowIdentifier, menu items, home and menu naming no screen (by line, then column)
            "app.lua:20:85: screen menu, property rowIdentifier: no screen \"genres\" is declared",
            "app.lua:21:47: screen menu, property items.present: no screen \"setings\" is declared",
            "app.lua:22:31: screen okit.app, property home: no screen \"autors\" is declared",
            "app.lua:22:50: screen okit.app, property menu: no screen \"mnu\" is declared (did you mean \"menu\"?)",
        ]
        #expect(result.problems == expected)
        #expect(result.summary == "app.lua: 14 problems in 4 screens, 23 bindings; opened only from Lua, so checked on the type each fits: menu (Shop, best fit); give a screen type = \"…\" to check it on its own")
    }

    @Test func problemsAreSortedByLineThenColumnWithinAFile() {
        let lines = ["app.lua:3:64: b", "app.lua:3:26: a", "app.lua:1:9: first", "app.lua:12:1: last", "x.lua:1:1: other",
                     "app.lua:2:5: second"]
        #expect(LuaApp.inFileOrder(lines)
                == ["app.lua:1:9: first", "app.lua:2:5: second", "app.lua:3:26: a", "app.lua:3:64: b", "app.lua:12:1: last",
                    "x.lua:1:1: other"])
    }

    @Test func locationsFollowStringsThroughEscapesLongStringsCommentsAndParts() throws {
        let source = """
        okit.entity("Book", { name = "string", setAsMarked = function(self) end })
        okit.entity("Shop", { books = "[Book]" })
        shop = okit.model("Shop")
        --[[ okit.list("books", { titlePath = "nmae" }) ]] -- not this one
        okit.list("books", {
          titlePath = "%A\\tB,nmae",  -- an escape before the problem
          subTitlePath = [[
        %Books,bokos]],
          dataPath = 'books', cell = { path = "name" },
          moreActionsTap = "setAsMarked(),activat()",
          ["promptPath"] = "prmpt",
        })
        okit.app { home = "books" }
        """
        let result = try CheckFindingsTests.check(source)
        #expect(result.problems == [
            "app.lua:6:22: screen books, property titlePath: Shop has no field \"nmae\"",
            "app.lua:8:8: screen books, property subTitlePath: Shop has no field \"bokos\" (did you mean \"books\"?)",
            "app.lua:10:35: screen books, property moreActionsTap: Book has no method or extension \"activat\"",
            "app.lua:11:21: screen books, property promptPath: Shop has no field \"prmpt\"",
        ])
    }

    @Test func declarationsInARequiredFileAreLocatedThere() throws {
        let screens = """
        local okit = require "okit"
        okit.list("books", { dataPath = "books", cell = { path = "nmae" } })
        """
        let source = """
        okit.entity("Book", { name = "string" })
        okit.entity("Shop", { books = "[Book]" })
        shop = okit.model("Shop")
        require "screens"
        okit.app { home = "books" }
        """
        let result = try CheckFindingsTests.check(source, files: ["screens.lua": screens])
        #expect(result.problems.count == 1, "\(result.problems)")
        #expect(result.problems.first?.hasSuffix("screens.lua:2:59: screen books, property cell.path: Book has no field \"nmae\" (did you mean \"name\"?)") == true,
                "\(result.problems)")
    }

    @Test func oddSourcesNeverCrashTheLocator() {
        let sources = ["1", "\"abc", "[[ x", "okit.list(\"a\", {", "okit.list(\"a\", { cell = { ", "--[==[", "\\",
                       "okit.list('a', { cell = { path = 'x\\", "{{{{}}}}}}}", "okit.app { home = function() end, [\"x\"] = , }",
                       "okit.list(\"a\", { cell = okit.cell.text({ path = \"\\u{41}\\x41\\65\\z  x\" }) })", ""]
        for text in sources {
            let source = LuaDeclarationSource(text)
            _ = source.call("list", id: "a", line: 1)?.table?.position(of: ["cell", "path"], column: 99)
            _ = source.call("list", id: "a", line: 1)?.table?.position(of: ["cell", .part(3)], column: 1)
            _ = source.call("app", id: nil, line: 5)?.table?.position(of: ["home", 1], column: 1)
        }
        let escaped = LuaDeclarationSource("okit.list(\"a\", { cell = okit.cell.text({ path = \"\\u{41}\\x41\\65\\z  x\" }) })")
        #expect(escaped.call("list", id: "a", line: 1)?.table?.position(of: ["cell", "path"], column: 4)?.column == 67,
                "the fourth character (after three escapes and a \\z) is the x")
    }

    @Test func aCleanAppPrintsTheSummaryOnStdoutAndExits0() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("app.lua")
        try OKitStyleBookshop.source.write(to: file, atomically: true, encoding: .utf8)
        let r = try OKitRun.run(["check", file.path]), (code, out) = (r.code, r.out)
        #expect(code == 0)
        #expect(out.hasPrefix("app.lua: 0 problems in 14 screens, "), "\(out)")
        #expect(out.split(separator: "\n").count == 1)
        let planted = dir.appendingPathComponent("planted.lua")
        try CheckFindingsTests.planted.write(to: planted, atomically: true, encoding: .utf8)
        let b = try OKitRun.run(["check", planted.path]), (bad, badOut) = (b.code, b.out)
        #expect(bad == 3)
        #expect(badOut.split(separator: "\n").last == "planted.lua: 14 problems in 4 screens, 23 bindings; opened only from Lua, so checked on the type each fits: menu (Shop, best fit); give a screen type = \"…\" to check it on its own")
    }
}

/// Bar buttons' `icon` and `showPath` are checked like their title and `enabled`.
@Suite struct CheckBarButtonTests {
    @Test func aBarButtonsShowPathAndIconAreCheckedAtTheirBinding() throws {
        let result = try CheckFindingsTests.check("""
        local okit = require "okit"
        okit.entity("Book", { name = "string", marked = "bool" })
        okit.entity("Shop", { books = "[Book]" })
        shop = okit.model("Shop")
        okit.list("books", { dataPath = "books", cell = { path = "name" },
          buttons = { { id = "bump", title = "#Bump", showPath = "!markd" }, { icon = "name/nope()" } } })
        okit.app { home = "books" }
        """)
        #expect(result.problems.contains("app.lua:6:60: screen books, property buttons[1].showPath: Shop has no field \"markd\""))
        #expect(result.problems.contains { $0.hasPrefix("app.lua:6:") && $0.contains("property buttons[2].icon:") })
    }
}
