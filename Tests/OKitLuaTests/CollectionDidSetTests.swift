import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// A collection field's `didSet` runs once per change of its members (OKit's array property observer: a list's
/// add, delete and move write the array back, and `add`/`remove` change it in place): it ran for none, and was
/// accepted at load without a word.
@Suite struct CollectionDidSetTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Item", { name = "string" })
    okit.entity("Root", { items = { "[Item]", didSet = function(self, old)
      CHANGES = (CHANGES or 0) + 1
      BEFORE = #old
    end } })
    root = okit.model("Root", { seed = function(r) end })
    okit.list("items", { dataPath = "items", cell = { path = "name" }, deletePrompt = "#false", reorder = "#true" })
    okit.app { home = "items" }
    """

    @Test func eachChangeOfTheMembersRunsTheFieldsDidSetOnce() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.checkBindings = false }
        func changes() throws -> LuaValue { try app.lua.evaluate("return CHANGES or 0") }
        try app.driver.run("add", [:])
        #expect(try changes() == .int(1))
        try app.run("root.items:append(okit.new('Item', { name = 'B' }))")
        #expect(try changes() == .int(2))
        #expect(try app.lua.evaluate("return BEFORE") == .int(1), "old holds the members before the change")
        try app.driver.run("edit", ["on": .bool(true)])
        try app.driver.run("move", ["from": .int(1), "to": .int(2)])
        #expect(try changes() == .int(3))
        try app.driver.run("edit", ["on": .bool(false)])
        try app.driver.run("delete", ["row": .int(1)])
        #expect(try changes() == .int(4))
        try app.run("root.items = { okit.new('Item', { name = 'C' }), okit.new('Item', { name = 'D' }) }")
        #expect(try changes() == .int(5), "a whole assignment is one change")
        #expect(try app.lua.evaluate("return #root.items") == .int(2))
        // An entity made with its members runs no observer (as a Swift initializer).
        try app.run("local r = okit.new('Root', { items = { okit.new('Item') } })")
        #expect(try changes() == .int(5))
    }
}
