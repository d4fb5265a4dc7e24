import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// Validation from Lua (lua-api.md "Validation"): rules in `okit.entity`, refused commands, `okit.valid`,
/// `app:invalid()`, Lua writes not blocked, load errors for rules of the wrong Lua type.
let rulesApp = """
local okit = require "okit"
okit.entity("Book", {
  name   = { "string", required = true, maxLength = 20 },
  code   = { "string?", pattern = "^%u%u%d+$", message = "A code is two capitals and digits" },
  price  = { "double", default = 0, min = 0, max = { 1000, message = "Nobody pays that much" } },
  copies = { "int", default = 1, min = 1, label = "Number of copies" },
  stock  = { "int", validate = function(value, book)
    if value > book.copies * 10 then return false, "Stock is more than ten times the copies" end
    return true
  end },
})
okit.entity("Shop", { books = "[Book]" })
shop = okit.model("Shop", { seed = function(root)
  root.books:append(okit.new("Book", { id = "DUNE", name = "Dune", price = 12.5 }))
end })
okit.list("books", { type = "Book", dataPath = "books", cell = { path = "name" }, addName = "name", segue = "book" })
okit.detail("book", { sections = { {
  okit.cell.text { path = "%Name", textPath = "name" },
  okit.cell.text { path = "%Code", textPath = "code" },
  okit.cell.text { path = "%Price", textPath = "price" },
  okit.cell.stepper { path = "%Copies", valuePath = "copies" },
  okit.cell.text { path = "%Stock", textPath = "stock" },
} } })
okit.app { home = "books" }
"""

@Suite struct LuaFieldRulesTests {
    func launch(_ source: String = rulesApp) throws -> (TempApp, LuaApp) {
        let t = try TempApp(["app.lua": source])
        let app = try t.launch()
        app.installAppGlobal()
        return (t, app)
    }

    @Test func commandsAreRefusedWithTheRulesMessagesAndNothingChanges() throws {
        let (_, app) = try launch()
        try app.run("""
        local function refused(message, f, ...)
          local ok, err = pcall(f, app, ...)
          assert(not ok, "expected a refusal: " .. message)
          assert(err == message, "expected " .. message .. ", got " .. tostring(err))
        end
        app:tap("Dune"); app:edit(true)
        refused("Name is required", app.set, "Name", "")
        refused("Name must be at most 20 characters", app.set, "Name", string.rep("x", 21))
        refused("A code is two capitals and digits", app.set, "Code", "ab12")
        refused("Price must be at least 0", app.set, "Price", "-1")
        refused("Nobody pays that much", app.set, "Price", "1001")
        refused("Number of copies must be at least 1", app.set, "Copies", 0)
        refused("Stock is more than ten times the copies", app.set, "Stock", "11")
        local b = shop.books[1]
        assert(b.name == "Dune" and b.code == nil and b.price == 12.5 and b.copies == 1 and b.stock == 0, "nothing changed")
        app:set("Code", "AB12"); app:set("Stock", "10"); app:set("Price", "1000")
        assert(b.code == "AB12" and b.stock == 10 and b.price == 1000)
        app:back()
        refused("Name must be at most 20 characters", app.add, string.rep("z", 21))
        assert(#shop.books == 1, "nothing added")
        app:add()
        local ok, err = pcall(app.respond, app, "OK", { string.rep("y", 25) })
        assert(not ok and err:find("Name must be at most 20 characters", 1, true), err)
        assert(app:screen().alert.kind == "prompt", "the prompt stays")
        app:respond("OK", { "Emma" })
        assert(#shop.books == 2)
        """)
    }

    @Test func luaWritesAreNotBlockedAndOkitValidReportsThem() throws {
        let (_, app) = try launch()
        try app.run("""
        local b = shop.books[1]
        local ok, messages = okit.valid(b)
        assert(ok == true and next(messages) == nil)
        b.name = ""; b.price = -3; b.stock = 99      -- code may write what a command may not (a migration)
        assert(b.name == "" and b.price == -3 and b.stock == 99)
        ok, messages = okit.valid(b)
        assert(ok == false)
        assert(messages.name == "Name is required", tostring(messages.name))
        assert(messages.price == "Price must be at least 0", tostring(messages.price))
        assert(messages.stock == "Stock is more than ten times the copies", tostring(messages.stock))
        assert(messages.code == nil and messages.copies == nil)
        """)
    }

    @Test func snapshotsAndAppInvalidShowTheCurrentMessages() throws {
        let (_, app) = try launch()
        try app.run("""
        local s = app:tap("Dune")
        assert(s.screen.sections[1].rows[1].invalid == nil, "valid: absent")
        assert(next(app:invalid()) == nil)
        shop.books[1].name = ""
        shop.books[1].stock = 11
        s = app:screen()
        assert(s.screen.sections[1].rows[1].invalid == "Name is required")
        local invalid = app:invalid()
        assert(invalid.Name == "Name is required", tostring(invalid.Name))
        assert(invalid.Stock == "Stock is more than ten times the copies", tostring(invalid.Stock))
        assert(invalid.Price == nil)
        shop.books[1].copies = 2                    -- the validate function read copies: the cell follows it
        assert(app:invalid().Stock == nil)
        """)
    }

    @Test func promptFieldsWithRulesAreCheckedWhenTheFirstActionIsChosen() throws {
        let (_, app) = try launch()
        try app.run("""
        local b = shop.books[1]
        local function rename()
          okit.prompt { title = "%Rename", actions = { "%OK", "%Cancel" },
            fields = { { placeholder = "%Name", value = b.name, rules = { b, "name" } } },
            onAction = function(choice, values) if choice == 1 then b.name = values[1] end end }
        end
        rename()
        local ok, err = pcall(app.respond, app, "OK", { "" })
        assert(not ok and err == "OK is refused: Name is required", tostring(err))
        assert(app:screen().alert.title == "Rename" and b.name == "Dune", "the prompt stays, nothing changed")
        assert(app:screen().alert.fields[1].value == "", "with what was typed, not the value it opened with: "
          .. tostring(app:screen().alert.fields[1].value))
        app:respond("Cancel", { "" })                -- other actions are not checked
        assert(app:screen().alert == nil and b.name == "Dune")
        rename()
        app:respond("OK", { "Dune Messiah" })
        assert(b.name == "Dune Messiah")
        ok, err = pcall(okit.prompt, { fields = { { placeholder = "x", rules = { b, "nmae" } } } })
        assert(not ok and err:find('Book has no field "nmae"', 1, true), tostring(err))
        """)
    }

    @Test func aFailingValidateFunctionWarnsInSnapshotsAndFailsCommands() throws {
        let source = rulesApp.replacingOccurrences(of: "if value > book.copies * 10 then", with: "if value > book.copies * 10 or value == 7 then error(\"boom\") end if false then")
        let (_, app) = try launch(source)
        try app.run("""
        app:tap("Dune"); app:edit(true)
        shop.books[1].stock = 7                      -- the validate function fails on 7
        local s = app:screen()
        assert(s.screen.id == "book" and s.screen.sections[1].rows[5].invalid == nil)
        local warned = false
        for _, w in ipairs(app:warnings()) do warned = warned or w:find('cell "Stock": the rules of the field it writes failed', 1, true) ~= nil end
        assert(warned, "a warning names the cell")
        local ok, err = pcall(app.set, app, "Stock", "7")
        assert(not ok and err:find("boom", 1, true), tostring(err))
        """)
    }

    @Test func rulesOfTheWrongLuaTypeAreLoadErrors() throws {
        for (rule, message) in [("min = \"0\"", "min must be a number"), ("required = 1", "required must be true or false"),
                                ("maxLength = 2.5", "maxLength must be a whole number"), ("pattern = 3", "pattern must be a Lua pattern string"),
                                ("validate = true", "validate must be a function"), ("message = 1", "message must be a string")] {
            let source = "local okit = require \"okit\"\nokit.entity(\"Book\", { name = { \"string\", \(rule) } })\n"
            do {
                _ = try launch(source)
                Issue.record("\(rule) loaded")
            } catch {
                #expect("\(error)".contains("okit.entity(\"Book\"), field \"name\": \(message)"), "\(error)")
            }
        }
    }
}
