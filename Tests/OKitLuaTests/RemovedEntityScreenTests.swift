import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// A screen showing an entity that leaves its model is closed (okit-behaviour §3: OKit's controllers pop their
/// navigation stack when an entity they show is no longer managed). It stayed open, took `edit` and `set` with
/// `ok: true`, and the edits went to an entity no store writes.
@Suite struct RemovedEntityScreenTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Part", { label = "string" })
    okit.entity("Book", { name = "string", part = "Part?",
      removeMe = function(self) okit.rootof(self).books:remove(self) end,
      replacePart = function(self) self.part = okit.new("Part", { label = "new" }) end })
    okit.entity("Shop", { books = "[Book]" })
    shop = okit.model("Shop", { seed = function(r)
      r.books:append(okit.new("Book", { name = "Dune", part = okit.new("Part", { label = "old" }) }))
      r.books:append(okit.new("Book", { name = "Emma" }))
    end })
    okit.list("books", { type = "Book", dataPath = "books", cell = { path = "name" }, segue = "book" })
    okit.detail("book", { titlePath = "name", sections = { {
        okit.cell.text { id = "n", path = "name", textPath = "name" },
        okit.cell.table { path = "#Part", contextPath = "part", segue = "part" } } },
      buttons = { { id = "rm", title = "#Remove", tapPath = "removeMe()" }, { id = "rp", title = "#Swap", tapPath = "replacePart()" } } })
    okit.detail("part", { titlePath = "label", sections = { { okit.cell.text { id = "l", path = "label", textPath = "label" } } } })
    okit.list("other", { type = "Book", dataPath = "books", cell = { path = "name" }, deletePrompt = "#false" })
    okit.app { home = { "books", "other" } }
    """

    func place(_ app: LuaApp) throws -> (String, Int) {
        let snap = try app.shell.snapshot()
        return (snap.screen.id, snap.app.depth)
    }

    @Test func aScreensOwnButtonRemovingItsEntityClosesIt() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("tap", ["row": .string("Dune")])
        #expect(try place(app) == ("book", 2))
        try app.driver.run("button", ["id": .string("rm")])
        #expect(try place(app) == ("books", 1), "the screen of the removed book closed")
        #expect(try app.lua.evaluate("return #shop.books") == .int(1))
    }

    @Test func aDeleteFromAnotherTabClosesTheScreenAndTheNextCommandIsNotAppliedElsewhere() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("tap", ["row": .string("Dune")])
        try app.driver.run("tab", ["id": .string("other")])
        try app.driver.run("delete", ["row": .string("Dune")])
        try app.driver.run("tab", ["id": .string("books")])
        #expect(try place(app) == ("books", 1), "the books tab went back to its list")
        // Removed by code between two commands (another session, a timer): the person is taken back and the command
        // meant for the closed screen is refused, not run on the list.
        try app.driver.run("tap", ["row": .string("Emma")])
        try app.run("shop.books:remove(1)")
        do { try app.driver.run("edit", ["on": .bool(true)]); Issue.record("the edit ran") } catch {
            #expect("\(error)".contains("was removed meanwhile, so the screen closed"), "\(error)")
        }
        #expect(try place(app) == ("books", 1))
        #expect(try app.shell.snapshot().screen.editing == false)
    }

    @Test func anEntityReplacedInItsFieldClosesTheScreensOnIt() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("tap", ["row": .string("Dune")])
        try app.driver.run("tap", ["row": .string("Part")])
        #expect(try place(app) == ("part", 3))
        try app.driver.run("back", [:])
        try app.driver.run("tap", ["row": .string("Part")])
        try app.run("shop.books[1]:replacePart()")
        try app.driver.run("screen", [:])   // a query runs, and shows where the person is now
        #expect(try place(app) == ("book", 2), "the screen of the replaced part closed; the book's stays")
    }
}
