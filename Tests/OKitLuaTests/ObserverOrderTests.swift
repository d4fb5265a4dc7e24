import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// OKit's order around a field's observer (okit-behaviour §2.6, §5.2): a list's add puts the entity in its model
/// (its `managed` hook runs) and then writes the prompt's name (the field's `didSet` runs); a `didSet` that writes
/// its own field does not call itself again, as a Swift property observer does not.
@Suite struct ObserverOrderTests {
    @Test func addWritesTheNameAfterManagedAndRunsItsDidSet() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Item", {
          name = { "string", default = "", didSet = function(self, old) self.upper = string.upper(self.name) end },
          upper = "string", created = "string",
          managed = function(self) self.created = "managed saw '" .. self.name .. "'"; if self.name == "" then self.name = "<New>" end end,
        })
        okit.entity("Root", { items = "[Item]" })
        root = okit.model("Root")
        okit.list("items", { type = "Item", dataPath = "items", addName = "name", cell = { path = "name" } })
        okit.app { home = "items" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("add", ["text": .string("  Dune ")])
        #expect(try app.lua.evaluate("return root.items[1].name") == .string("Dune"), "the typed name, trimmed, is not replaced by managed's default")
        #expect(try app.lua.evaluate("return root.items[1].upper") == .string("DUNE"), "the name's didSet ran")
        #expect(try app.lua.evaluate("return root.items[1].created") == .string("managed saw ''"), "managed ran before the name was written")
        // Through the prompt the same.
        try app.driver.run("add", [:])
        try app.driver.run("respond", ["action": .string("OK"), "fields": .list([.string("Emma")])])
        #expect(try app.lua.evaluate("return root.items[1].name .. '/' .. root.items[1].upper") == .string("Emma/EMMA"))
    }

    @Test func aDidSetWritingItsOwnFieldRunsOnce() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Root", { name = { "string", didSet = function(self, old)
          CALLS = (CALLS or 0) + 1
          self.name = self.name .. " (edited)"
        end } })
        root = okit.model("Root")
        okit.detail("home", { sections = { { okit.cell.text { id = "n", path = "#Name", textPath = "name" } } } })
        okit.app { home = "home" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        try app.run("root.name = 'Dune'")
        #expect(try app.lua.evaluate("return root.name") == .string("Dune (edited)"))
        #expect(try app.lua.evaluate("return CALLS") == .int(1))
        // Another write later calls it again (once).
        try app.run("root.name = 'Emma'")
        #expect(try app.lua.evaluate("return root.name .. '/' .. CALLS") == .string("Emma (edited)/2"))
    }

    /// Every entity a tree brings into a model gets `managed` (once), and every entity it takes out gets
    /// `unmanaged`: the entities a book owns left with it without theirs, so what their `managed` counted leaked.
    @Test func aTreeLeavingItsModelRunsUnmanagedForEveryEntityItHolds() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        LIVE = 0
        okit.entity("D", { label = "string",
          managed = function(self) LIVE = LIVE + 1 end, unmanaged = function(self) LIVE = LIVE - 1 end })
        okit.entity("Book", { name = "string", ds = "[D]", one = "D?",
          managed = function(self) LIVE = LIVE + 1 end, unmanaged = function(self) LIVE = LIVE - 1 end })
        okit.entity("Root", { books = "[Book]" })
        root = okit.model("Root")
        okit.list("books", { type = "Book", dataPath = "books", cell = { path = "name" } })
        okit.app { home = "books" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        try app.run("""
        root.books:append(okit.new("Book", { name = "B", ds = { okit.new("D"), okit.new("D") }, one = okit.new("D") }))
        """)
        #expect(try app.lua.evaluate("return LIVE") == .int(4))
        try app.run("root.books:remove(1)")
        #expect(try app.lua.evaluate("return LIVE") == .int(0), "the book and the three entities it held")
        try app.run("""
        root.books:append(okit.new("Book", { name = "C", ds = { okit.new("D") } }))
        root.books[1].one = okit.new("D")
        root.books[1].one = okit.new("D")
        """)
        #expect(try app.lua.evaluate("return LIVE") == .int(3), "a replaced entity field's old entity left")
    }
}
