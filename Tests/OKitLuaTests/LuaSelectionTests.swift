import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

let selectionApp = """
local okit = require "okit"
okit.entity("Author", { name = "string" })
okit.entity("Book", { name = "string", lead = "ref Author", authors = "[ref Author]" })
okit.entity("Shop", { books = "[Book]", authors = "[Author]" })
shop = okit.model("Shop", { seed = function(root)
  root.authors:append(okit.new("Author", { name = "Carl" }))
  root.authors:append(okit.new("Author", { name = "Anna" }))
  root.books:append(okit.new("Book", { name = "Dune" }))
end })
okit.state { shop }
okit.list("books", { type = "Book", dataPath = "books", cell = { path = "name" }, segue = "book" })
okit.detail("book", { titlePath = "name", sections = { { okit.cell.table { path = "%Lead", segue = "lead" } } } })
okit.selection("lead", { dataPath = "/authors", rowSort = "name", cell = { path = "name" }, selectionPath = "lead",
  autoClose = "#true", onSelect = function(author) PICKED = author.name end })
okit.selection("coauthors", { type = "Author", dataPath = "/authors", rowSort = "name", cell = { path = "name" },
  selectionPath = "books[0]/authors", selectAppend = "#true", clear = "#false" })
okit.app { home = "books" }
"""

@Suite struct LuaSelectionTests {
    @Test func aSelectionDeclaredInLuaSelectsThroughTheDriver() throws {
        let t = try TempApp(["app.lua": selectionApp])
        // The check follows OKit's segue (a selection pushed by a list row gets the list's context, Shop, as its
        // selection context), which the defaults work brings to the runtime; this app selects on the row's book.
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("tap", ["row": .string("Dune")])
        try app.driver.run("tap", ["row": .string("Lead")])   // a detail cell opens it: the book is the selection context
        var snap = try app.shell.snapshot().screen
        #expect(snap.kind == "selection" && snap.sections.flatMap(\.rows).map(\.text) == ["Anna", "Carl"])
        #expect(snap.sections.flatMap(\.rows).map(\.checked) == [false, false])
        try app.driver.run("tap", ["row": .int(2)])
        try app.run("assert(shop.books[1].lead.ref.name == 'Carl', 'the ref points to Carl'); assert(PICKED == 'Carl', 'onSelect ran')")
        snap = try app.shell.snapshot().screen
        #expect(snap.id == "book", "autoClose = #true closes after the selection")

        try app.driver.run("back", [:])
        try app.driver.run("open", ["id": .string("coauthors")])
        #expect(try app.shell.snapshot().screen.buttons.map(\.id) == ["edit", "add"], "clear = #false hides Clear; Close shows only when presented")
        try app.driver.run("select", ["row": .string("Carl")])
        try app.driver.run("tap", ["row": .string("Anna")])
        try app.run("local a = shop.books[1].authors; assert(#a == 2 and a[1].ref.name == 'Carl' and a[2].ref.name == 'Anna', 'appended')")
        snap = try app.shell.snapshot().screen
        #expect(snap.sections.flatMap(\.rows).map(\.checked) == [true, true])
    }

    @Test func badPropertiesFailWithTheScreenAndProperty() throws {
        let bad = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.selection("pick", { dataPath = "authors", selectionPath = "a b(" })
        """])
        do {
            _ = try bad.launch()
            Issue.record("a bad binding is refused")
        } catch {
            #expect("\(error)".contains("okit.selection(\"pick\"), property selectionPath:"))
        }
        let wrongType = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.selection("pick", { dataPath = "authors", autoClose = true })
        """])
        do {
            _ = try wrongType.launch()
            Issue.record("a boolean is not a binding")
        } catch {
            #expect("\(error)".contains("okit.selection(\"pick\"), property autoClose: expected a binding string or a function, got boolean"))
        }
        let typo = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.selection("pick", { dataPath = "authors", selectionPth = "a" })
        """])
        let warnings = try typo.launch().engine.warnings
        #expect(warnings.contains { $0.contains("unknown property \"selectionPth\" (did you mean \"selectionPath\"?)") }, "\(warnings)")
    }
}

/// Nothing a port writes is dropped silently: unknown keys of bar buttons and menu items are warnings.
@Suite struct UnknownKeyWarningTests {
    @Test func unknownButtonAndMenuItemKeysAreWarnings() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Shop", { name = "string" })
        shop = okit.model("Shop")
        okit.detail("home", { buttons = { { title = "#Go", tapPth = "name" } } })
        okit.menu("menu", { dataPath = "/", items = { { title = "#X", presnt = "home" } } })
        okit.app { home = "home", menu = "menu" }
        """])
        let app = try t.launch()
        #expect(app.engine.warnings.contains("app.lua:4:52: screen home, property buttons[1].tapPth: unknown property \"tapPth\" (did you mean \"tapPath\"?) (ignored)"), "\\(app.engine.warnings)")
        #expect(app.engine.warnings.contains("app.lua:5:63: screen menu, property items[1].presnt: unknown property \"presnt\" (did you mean \"present\"?) (ignored)"), "\\(app.engine.warnings)")
    }

    /// A misspelled `okit.model`/`okit.app` option stops the app at its line and column (issue 36: the data would
    /// otherwise go somewhere else without a word); a known one such as `autosave` is taken.
    @Test func unknownModelAndAppOptionsAreErrorsAtTheirLine() throws {
        func failure(_ model: String, _ app: String) throws -> String {
            let t = try TempApp(["app.lua": """
            local okit = require "okit"
            okit.entity("Shop", { name = "string" })
            shop = okit.model("Shop", \(model))
            okit.detail("home", {})
            okit.app { home = "home", \(app)autosave = 60 }
            """])
            do { _ = try t.launch(); return "" } catch { return "\(error)" }
        }
        let model = try failure("{ databse = \"postgres://okit@db/shop\" }", "")
        #expect(model.contains("app.lua:3:29: okit.model(\"Shop\"): unknown option \"databse\" (did you mean \"database\"?)"), "\(model)")
        let app = try failure("{}", "databse = \"postgres://okit@db/shop\", ")
        #expect(app.contains("app.lua:5:") && app.contains("okit.app: unknown option \"databse\" (did you mean \"database\"?)"), "\(app)")
        #expect(try failure("{}", "").isEmpty, "autosave is an option of okit.app")
    }
}
