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

/// A picker's option named by a number (screens.md "Cells": name, id, then position): the built-in protection
/// timeouts have ids "0", "1", "5", "10"; `set Timeout 1` took position 1 (Immediately: the app locked at once)
/// and `set Timeout 5` was refused.
@Suite struct PickerNumberTests {
    @Test func aNumberIsTheOptionsNameOrIdBeforeItsPosition() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Notes", { text = "string" })
        okit.model("Notes")
        okit.model(okit.Settings, { name = "settings" })
        okit.settings("prefs", { contextPath = "settings>/", editAlways = "#true", sections = { {
          okit.cell.picker { path = "#Timeout", id = "Timeout", dataPath = "timeouts", namePath = "name", selectionPath = "protectionTimeout" } } } })
        okit.app { home = "prefs" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        func chosen() throws -> String? {
            let s = try app.shell.snapshot()
            return s.screen.sections.first?.rows.first?.detail
        }
        for (given, shown) in [(Value.int(1), "1 Minute"), (.int(5), "5 Minutes"), (.string("10"), "10 Minutes"), (.int(0), "Immediately")] {
            try app.driver.run("set", ["cell": .string("Timeout"), "value": given])
            #expect(try chosen() == shown, "\(given)")
        }
        // A number that is no name nor id is a position.
        try app.driver.run("set", ["cell": .string("Timeout"), "value": .int(3)])
        #expect(try chosen() == "5 Minutes")
    }
}

/// `okit.get(nil, …)` and `okit.set(nil, …)` work on the default model's root (lua-api.md "Bindings from Lua").
@Suite struct NilContextTests {
    @Test func nilIsTheDefaultModelsRoot() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Item", { label = "string" })
        okit.entity("Root", { name = "string", items = "[Item]" })
        root = okit.model("Root", { seed = function(r) r.name = "Shop"; r.items:append(okit.new("Item")) end })
        okit.detail("home", { sections = { { okit.cell.text { id = "n", path = "#Name", textPath = "name" } } } })
        okit.app { home = "home" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        #expect(try app.lua.evaluate("return okit.get(nil, 'name')") == .string("Shop"))
        #expect(try app.lua.evaluate("return okit.get(nil, 'items.@count')") == .int(1))
        try app.run("okit.set(nil, 'name', 'Market')")
        #expect(try app.lua.evaluate("return root.name") == .string("Market"))
    }
}

/// An extension that cuts text inside a character (`s:sub(1, 1)` of `"Àncora"`) gives bytes, not text: it is said
/// once, with what to write; the docs' own `initial` cuts at a character.
@Suite struct CutTextExtensionTests {
    static func app(_ initial: String) -> String {
        """
        local okit = require "okit"
        okit.entity("Tool", { name = "string" })
        okit.entity("Root", { tools = "[Tool]" })
        root = okit.model("Root", { seed = function(r)
          for _, n in ipairs { "Àncora", "Èlica", "Martello" } do r.tools:append(okit.new("Tool", { name = n })) end
        end })
        okit.extension("string", "initial", \(initial))
        okit.list("tools", { dataPath = "tools", rowSort = "name", group = "name/initial", cell = { path = "name" } })
        okit.app { home = "tools" }
        """
    }

    @Test func textCutInsideACharacterIsSaidOnce() throws {
        let t = try TempApp(["app.lua": Self.app("function(s) return s:sub(1, 1):upper() end")])
        let app = try t.launch { $0.checkBindings = false }
        _ = try app.shell.snapshot()
        let said = app.engine.warnings.filter { $0.contains("returned text cut inside a character") }
        #expect(said.count == 1, "\(app.engine.warnings)")
        #expect(said.first?.contains("okit.extension(\"string\", \"initial\")") == true)
    }

    @Test func theDocsInitialCutsAtACharacter() throws {
        let t = try TempApp(["app.lua": Self.app("function(s) return s:sub(1, (utf8.offset(s, 2) or #s + 1) - 1):upper() end")])
        let app = try t.launch { $0.checkBindings = false }
        let headers = try app.shell.snapshot().screen.sections.map(\.header)
        #expect(headers == ["À", "È", "M"], "\(headers)")
        #expect(!app.engine.warnings.contains { $0.contains("cut inside") })
        #expect(CutTextNotice.isTextCutInsideACharacter([0xC3]))
        #expect(!CutTextNotice.isTextCutInsideACharacter([0xFF, 0x00]))
        #expect(!CutTextNotice.isTextCutInsideACharacter(Array("À".utf8)))
    }
}

/// JSON's `null` given a text cell is what `""` is (cli.md): an optional field is cleared, a `string` keeps the
/// empty text, a number refuses it. It was refused as "takes a string" for a `string` field.
@Suite struct NullTextCellTests {
    @Test func nullIsAnEmptyTextForAFieldThatIsNotOptional() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Root", { name = "string", note = "string?", copies = "int" })
        root = okit.model("Root", { seed = function(r) r.name = "Dune"; r.note = "x"; r.copies = 3 end })
        okit.detail("home", { editAlways = "#true", sections = { {
          okit.cell.text { id = "n", path = "#Name", textPath = "name" },
          okit.cell.text { id = "o", path = "#Note", textPath = "note" },
          okit.cell.text { id = "c", path = "#Copies", textPath = "copies" } } } })
        okit.app { home = "home" }
        """])
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("set", ["cell": .string("n"), "value": .null])
        try app.driver.run("set", ["cell": .string("o"), "value": .null])
        #expect(try app.lua.evaluate("return root.name") == .string(""))
        #expect(try app.lua.evaluate("return root.note == nil") == .bool(true))
        #expect(throws: (any Error).self) { try app.driver.run("set", ["cell": .string("c"), "value": .null]) }
        #expect(throws: (any Error).self) { try app.driver.run("set", ["cell": .string("c"), "value": .string("")]) }
        #expect(try app.lua.evaluate("return root.copies") == .int(3))
    }
}
