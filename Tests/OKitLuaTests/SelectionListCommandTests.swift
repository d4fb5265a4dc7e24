import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// Selection and menu screens are lists (screens.md "Menus and selections are lists and have the same defaults"):
/// the `+`, Edit and per-row delete their snapshots show work by command too. `add` and `delete` were refused
/// ("add is not a command of selection screens") while `button add` added, and the web's + answered "not on this
/// page".
@Suite struct SelectionListCommandTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Member", { name = "string" })
    okit.entity("Loan", { member = "ref Member" })
    okit.entity("Root", { members = "[Member]", loans = "[Loan]" })
    root = okit.model("Root", { seed = function(r)
      r.members:append(okit.new("Member", { name = "Anna" }))
      r.loans:append(okit.new("Loan", {}))
    end })
    okit.list("loans", { dataPath = "loans", cell = { path = "member/ref/name" }, segue = "loan" })
    okit.detail("loan", { sections = { { okit.cell.table { path = "#Member", detailPath = "member/ref/name", segue = "pick" } } } })
    okit.selection("pick", { dataPath = "/members", selectionPath = "member", cell = { path = "name" }, addName = "name", deletePrompt = "#false" })
    okit.menu("menu", { dataPath = "members", cell = { path = "name" }, deletePrompt = "#false", items = { { title = "#Home", home = true } } })
    okit.app { home = "loans", menu = "menu" }
    """

    @Test func aSelectionScreenAddsAndDeletesRows() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("tap", ["row": .int(1)])
        try app.driver.run("tap", ["row": .int(1)])
        #expect(try app.shell.snapshot().screen.kind == "selection")
        try app.driver.run("add", ["text": .string("Bruno")])
        #expect(try app.lua.evaluate("return #root.members .. root.members[1].name") == .string("2Bruno"))
        try app.driver.run("delete", ["row": .string("Anna")])
        #expect(try app.lua.evaluate("return #root.members .. root.members[1].name") == .string("1Bruno"))
    }

    @Test func aMenuScreenAddsAndDeletesRows() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("menu", [:])
        try app.driver.run("add", [:])
        #expect(try app.lua.evaluate("return #root.members") == .int(2))
        try app.driver.run("delete", ["row": .int(1)])
        #expect(try app.lua.evaluate("return #root.members .. root.members[1].name") == .string("1Anna"))
    }

    /// Seeded ids (`--clock virtual`) repeat from one launch to the next: a new entity never takes the id of one
    /// the stored model holds.
    @Test func seededIdsSkipTheIdsOfTheStoredModel() throws {
        let t = try TempApp(["app.lua": Self.app])
        var ids: [String] = []
        for _ in 0..<2 {
            let app = try t.launch { $0.checkBindings = false }   // a virtual clock: seeded ids
            try app.driver.run("menu", [:])
            try app.driver.run("add", [:])
            try app.session.store()
            guard case .string(let joined) = try app.lua.evaluate("local t = {} for _, m in ipairs(root.members) do t[#t + 1] = m.id end return table.concat(t, ' ')") else { Issue.record("no ids"); return }
            ids = joined.split(separator: " ").map(String.init)
        }
        #expect(ids.count == 3, "\(ids)")
        #expect(Set(ids).count == ids.count, "no two members share an id: \(ids)")
    }

    /// Emptying a single selection is a person's write: a `required` ref field refuses it with its rule's message
    /// (a tap on the selected row or Clear emptied it without a word).
    @Test func aRequiredRefIsNotEmptiedByATapOrClear() throws {
        let required = Self.app.replacingOccurrences(of: #"member = "ref Member""#, with: #"member = { "ref Member", required = true }"#)
        #expect(required != Self.app)
        let t = try TempApp(["app.lua": required])
        let app = try t.launch { $0.checkBindings = false }
        try app.driver.run("tap", ["row": .int(1)])
        try app.driver.run("tap", ["row": .int(1)])
        try app.driver.run("tap", ["row": .string("Anna")])
        #expect(try app.lua.evaluate("return root.loans[1].member.ref.name") == .string("Anna"))
        for (command, args) in [("tap", ["row": Value.string("Anna")]), ("button", ["id": .string("clear")])] {
            do { try app.driver.run(command, args); Issue.record("\(command) emptied the required ref") } catch {
                #expect("\(error)".contains("required"), "\(error)")
            }
            #expect(try app.lua.evaluate("return root.loans[1].member.ref.name") == .string("Anna"))
        }
    }
}
