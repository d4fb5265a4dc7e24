import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// An app with a list (grouped, searchable, add/delete/more/quick/accessory), a detail screen with controls,
/// a reorderable list, a menu and tabs — enough to reach every driver command from Lua.
let driverApp = """
local okit = require "okit"
okit.entity("BookDate", { date = "date" }, { id = false })
okit.entity("Book", {
  name = "string", marked = "bool", price = { "double", default = 0 }, copies = "int", dates = "[BookDate]",
  setAsMarked = function(self) self.marked = true end,
})
okit.entity("Note", { text = "string", done = "bool" })
okit.entity("Shop", { books = "[Book]", notes = "[Note]", labels = "{string: Note}", words = "[string]" })
okit.extension("string", "initial", function(s) return s:sub(1, 1):upper() end)
shop = okit.model("Shop", { seed = function(root)
  root.books:append(okit.new("Book", { id = "DUNE", name = "Dune", price = 12.5, copies = 3 }))
  root.books:append(okit.new("Book", { id = "EMMA", name = "Emma", price = 8, copies = 1 }))
  for i, t in ipairs({ "one", "two", "three" }) do root.notes:append(okit.new("Note", { id = "N" .. i, text = t })) end
end })
okit.state { shop }
okit.list("books", {
  type = "Book", dataPath = "books", titlePath = "#Books", rowSort = "name", group = "name/initial",
  search = "#true", searchPath = "name", add = "#true", addName = "name", delete = "#true", edit = "#true",
  cell = { path = "name", detailPath = "price", accyText = "#Mark", accyTap = "setAsMarked()", accyShow = "!marked" },
  more = "#true", moreActions = "#Mark,#Fail", moreActionsTap = { "setAsMarked()", function(b) b.copies = 99; error("nope") end },
  quickName = "#Mark", quickTap = "setAsMarked()", segue = "book", help = "Books help",
  titleTap = function() TITLE_TAPPED = true end,
  buttons = { { title = "#Notes", segue = "notes" } },
})
okit.detail("book", { titlePath = "#Book", subTitlePath = "name", sections = {
  { header = "#General",
    okit.cell.text { path = "name", textPath = "name" },
    okit.cell.switch { path = "#Marked", onPath = "marked" } },
  { okit.cell.slider { path = "#Price", valuePath = "price", maxValuePath = "#100" },
    okit.cell.stepper { path = "#Copies", valuePath = "copies", maxValuePath = "#10" } },
} })
okit.list("notes", { type = "Note", dataPath = "notes", titlePath = "#Notes", cell = { path = "text" },
  edit = "#true", reorder = "#true", selectPath = "done" })
okit.menu("menu", { dataPath = "books", titlePath = "#Menu", cell = { path = "name" },
  items = { { title = "#Notes", identifier = "notes" } } })
okit.app { home = { "books", "notes" }, menu = "menu" }
"""

/// `same(a, b)`: deep equality for the Lua checks below, with a readable difference.
let luaSame = """
local function dump(v)
  if type(v) ~= "table" then return type(v) == "string" and string.format("%q", v) or tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. dump(v[k]) end
  return "{" .. table.concat(parts, ", ") .. "}"
end
local function deq(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for k, v in pairs(a) do if not deq(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
function same(expected, actual, what)
  if not deq(expected, actual) then error((what or "same") .. ": expected " .. dump(expected) .. ", got " .. dump(actual), 2) end
end
"""

@Suite struct LuaAppObjectTests {
    func launch() throws -> (TempApp, LuaApp) {
        let t = try TempApp(["app.lua": driverApp])
        let app = try t.launch()
        app.installAppGlobal()
        try app.run(luaSame, chunkName: "=same")
        return (t, app)
    }

    @Test func everyDriverCommandIsAMethod() throws {
        let (_, app) = try launch()
        for (name, _) in Driver.commands {
            try app.run("assert(type(app.\(name)) == 'function', 'app:\(name)')")
        }
        try app.run("""
        assert(type(app.changes) == "function" and type(app.warnings) == "function")
        assert(tostring(app):find("okit.App", 1, true))
        local ok, err = pcall(function() return app.tpa end)
        assert(not ok and err:find('did you mean "tap"', 1, true) or err:find('did you mean "tab"', 1, true), err)
        ok, err = pcall(function() return app.tap(2) end)
        assert(not ok and err:find("app:tap(", 1, true), err)
        """)
    }

    @Test func commandsFromLua() throws {
        let (t, app) = try launch()
        try app.run("""
        local s = app:screen()
        same({ "books", "notes" }, s.app.tabs, "tabs")
        assert(s.screen.id == "books" and s.screen.title == "Books" and s.screen.rowCount == 2)
        s = app:screen{ offset = 1, limit = 1 }
        assert(#s.screen.sections == 1 and s.screen.sections[1].rows[1].text == "Emma", "window")
        s = app:screen(0, 1)
        assert(s.screen.sections[1].rows[1].text == "Dune", "positional window")
        s = app:search("em")
        assert(s.screen.search.text == "em" and s.screen.rowCount == 1)
        s = app:search("", 1)
        assert(s.screen.rowCount == 2 and s.screen.search.scope == "All")
        s = app:help(); assert(s.screen.help == "Books help")
        s = app:titleTap(); assert(TITLE_TAPPED and s.screen.help == nil)
        s = app:accessory("Dune"); assert(shop.books[1].marked)
        s = app:quick("Emma"); assert(shop.books[2].marked)
        s = app:more("Dune"); same({ "Mark", "Fail", "Cancel" }, s.alert.actions, "sheet")
        s = app:respond("Cancel"); assert(s.alert == nil)
        s = app:add(); assert(s.alert and s.alert.kind == "prompt", "add prompt")
        s = app:respond("OK", { "Zed" }); assert(s.screen.rowCount == 3 and s.alert == nil)
        s = app:delete("Zed"); assert(s.alert.title == "Confirm Deletion")
        s = app:respond(1); assert(s.screen.rowCount == 2)
        s = app:edit(true); assert(s.screen.editing)
        s = app:edit(false); assert(not s.screen.editing)
        s = app:tap("Dune"); assert(s.screen.id == "book" and s.app.depth == 2)
        s = app:edit(true)
        s = app:set("name", "Dune II"); assert(shop.books[1].name == "Dune II")
        s = app:set("Marked", false); assert(shop.books[1].marked == false)
        s = app:set("Price", 20); assert(shop.books[1].price == 20)
        s = app:set("Copies", 50); assert(shop.books[1].copies == 10, "clamped")
        s = app:back(); assert(s.screen.id == "books")
        s = app:button("Notes"); assert(s.screen.id == "notes")
        s = app:back()
        s = app:open("notes"); assert(s.screen.id == "notes")
        s = app:back()
        s = app:present("notes"); assert(s.app.presented)
        s = app:close(); assert(not s.app.presented)
        s = app:tab("notes"); assert(s.app.tab == "notes")
        s = app:edit(true)
        s = app:select(1); assert(shop.notes[1].done)
        s = app:move(1, 3); assert(shop.notes[3].text == "one")
        s = app:tab("books")
        s = app:menu(); assert(s.app.menuOpen and s.screen.id == "menu")
        s = app:menuItem("Notes"); assert(not s.app.menuOpen)
        s = app:advance(60); assert(s.screen)
        s = app:background(); s = app:foreground()
        local ok, err = pcall(function() return app:authenticate(true) end)
        assert(not ok and err:find("not covered", 1, true), err)
        s = app:store(); assert(s.screen)
        local book = shop.books[1]
        s = app:relaunch(); assert(s.screen.id == "books" and s.app.depth == 1)
        assert(app.models.default == shop, "the root stays the same object")
        assert(app.models.default.books[1] ~= book and app.models.default.books[1].name == "Dune II", "models after relaunch")
        assert(app:quit() == nil)
        assert(app.dataDir and #app:warnings() >= 0)
        """)
        #expect(try app.lua.evaluate("return app.dataDir") == .string(t.data.path))
    }

    @Test func rowsAsNumberPairAndText() throws {
        let (_, app) = try launch()
        try app.run("""
        for _, row in ipairs({ 2, { 2, 1 }, "Emma", "EMMA" }) do
          local s = app:tap(row)
          assert(s.screen.id == "book" and s.screen.subtitle == "Emma", "row " .. tostring(row))
          app:back()
        end
        local s = app:tap(1.0); assert(s.screen.subtitle == "Dune"); app:back()
        s = app:tap(okit.byId("DUNE")); assert(s.screen.subtitle == "Dune", "an entity stands for its id"); app:back()
        """)
    }

    @Test func errorsHaveNoPosition() throws {
        let (_, app) = try launch()
        try app.run("""
        local function fails(fn, text)
          local ok, err = pcall(fn)
          assert(not ok, "expected an error")
          assert(type(err) == "string" and not err:find("^[^ ]*:%d+:"), "no file:line: " .. tostring(err))
          assert(err:find(text, 1, true), err)
          return err
        end
        fails(function() return app:tap(9) end, "9")
        fails(function() return app:tap("Nobody") end, "Nobody")
        fails(function() return app:tab("nowhere") end, "nowhere")
        fails(function() return app:set("name", "x") end, "set")
        fails(function() return app:screen{ offset = -1 } end, "offset")
        fails(function() return app:move(1, 2) end, "move")
        app:add()
        fails(function() return app:tap(1) end, "tap")          -- an alert is pending
        app:respond("Cancel")
        -- a Lua error inside an action keeps its own message (the position in the app's code), not the caller's
        app:more("Dune")
        local ok, err = pcall(function() return app:respond("Fail") end)
        assert(not ok and err == "app.lua:20: nope", err)
        """)
    }

    /// Compares a snapshot table (copied out of Lua) with the snapshot's JSON: same keys (JSON null → absent),
    /// same values, arrays as sequences.
    func problems(_ json: Any, _ lua: LuaValue, _ path: String) -> [String] {
        switch json {
        case let object as [String: Any]:
            guard case .table(let array, let hash) = lua, array.isEmpty else { return ["\(path): expected a table with keys, got \(lua)"] }
            let jsonKeys = Set(object.filter { !($0.value is NSNull) }.keys)
            var luaKeys: Set<String> = []
            for k in hash.keys {
                guard case .string(let s) = k else { return ["\(path): non-string key \(k)"] }
                luaKeys.insert(s)
            }
            if jsonKeys != luaKeys {
                return ["\(path): keys differ: JSON only \(jsonKeys.subtracting(luaKeys).sorted()), Lua only \(luaKeys.subtracting(jsonKeys).sorted())"]
            }
            return jsonKeys.sorted().flatMap { k in problems(object[k] as Any, hash[.string(k)] ?? .nil, "\(path).\(k)") }
        case let list as [Any]:
            guard case .table(let array, let hash) = lua, hash.isEmpty, array.count == list.count else {
                return ["\(path): expected a sequence of \(list.count), got \(lua)"]
            }
            return zip(list, array).enumerated().flatMap { i, pair in problems(pair.0, pair.1, "\(path)[\(i + 1)]") }
        case let s as String:
            return lua == .string(s) ? [] : ["\(path): \(s) vs \(lua)"]
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return lua == .bool(n.boolValue) ? [] : ["\(path): \(n.boolValue) vs \(lua)"] }
            switch lua {
            case .int(let i): return Double(i) == n.doubleValue ? [] : ["\(path): \(n) vs \(i)"]
            case .double(let d): return d == n.doubleValue ? [] : ["\(path): \(n) vs \(d)"]
            default: return ["\(path): \(n) vs \(lua)"]
            }
        default:
            return ["\(path): unexpected JSON \(json)"]
        }
    }

    func compareWithJSON(_ app: LuaApp, _ command: String) throws {
        let table = try app.lua.evaluate("return \(command)")
        let snap = try app.shell.snapshot()
        let json = try JSONSerialization.jsonObject(with: Data(snap.json.utf8))
        let found = problems(json, table, "snapshot")
        #expect(found.isEmpty, "\(command): \(found.joined(separator: "; "))")
    }

    @Test func snapshotTablesHaveTheJSONKeys() throws {
        let (_, app) = try launch()
        try compareWithJSON(app, "app:screen()")                  // a list: search, accessories, quick actions
        try compareWithJSON(app, "app:search('e')")
        try compareWithJSON(app, "app:add()")                     // an alert with a field
        try app.run("app:respond('Cancel'); app:search('')")
        try compareWithJSON(app, "app:tap('Dune')")               // a detail: controls, kinds
        try compareWithJSON(app, "app:edit(true)")
        try app.run("app:back()")
        try app.run("""
        local s = app:screen()
        assert(s.screen.prompt == nil and s.screen.sections[1].footer == nil and s.screen.sections[1].rows[1].image == nil, "JSON null is nil")
        assert(s.alert == nil)
        s = app:tap("Dune")
        local price = s.screen.sections[2].rows[1].control.value
        assert(price == 12.5 and math.type(price) == "float")
        okit.models().default.books[1].price = 13
        s = app:screen()
        price = s.screen.sections[2].rows[1].control.value
        assert(math.type(price) == "float", "a double control value stays a float: " .. math.type(price))
        local copies = s.screen.sections[2].rows[2].control.value
        assert(copies == 3 and math.type(copies) == "integer")
        assert(s.screen.sections[1].rows[2].control.value == false, "a switch is a bool")
        app:back()
        """)
        try compareWithJSON(app, "app:menu()")
        try compareWithJSON(app, "app:tab('notes')")
    }

    @Test func changesOfFieldWrites() throws {
        let (_, app) = try launch()
        try app.run("""
        same({ { model = "default", path = "books[1]/marked", old = false, new = true } },
             app:changes(function() app:quick("Emma") end), "quick")
        same({}, app:changes(function() app:screen() end), "a query changes nothing")
        local changes = app:changes(function()
          app:tap("Dune"); app:edit(true); app:set("Price", 20); app:set("Copies", 4)
        end)
        same({ { model = "default", path = "books[0]/price", old = 12.5, new = 20.0 },
               { model = "default", path = "books[0]/copies", old = 3, new = 4 } }, changes, "set")
        -- a command that fails is rolled back, and so is its change
        app:back()
        app:more("Dune")
        changes = app:changes(function() assert(not pcall(app.respond, app, "Fail")) end)
        same({}, changes, "rolled back")
        assert(shop.books[1].copies == 4)
        -- nested paths, maps, plain values
        changes = app:changes(function()
          shop.books[1].dates:append(okit.new("BookDate", { date = okit.date.parse("2020-01-01T00:00:00Z") }))
          shop.books[1].dates[1].date = okit.date.parse("2021-01-01T00:00:00Z")
          shop.labels.kind = okit.new("Note", { id = "K", text = "x" })
          shop.labels.kind.text = "y"
          shop.words:append("hello")
        end)
        assert(#changes == 5, #changes)
        same({ model = "default", path = "books[0]/dates", op = "insert", index = 0 }, changes[1], "owned, no id")
        assert(changes[2].path == "books[0]/dates[0]/date" and changes[2].new:iso() == "2021-01-01T00:00:00Z")
        same({ model = "default", path = "labels", op = "insert", index = 0, id = "K" }, changes[3], "map")
        same({ model = "default", path = "labels/kind/text", old = "x", new = "y" }, changes[4], "through a map")
        same({ model = "default", path = "words", op = "insert", index = 0, value = "hello" }, changes[5], "plain values")
        -- nested logs
        local inner
        local outer = app:changes(function()
          shop.books[1].copies = 5
          inner = app:changes(function() shop.books[2].copies = 6 end)
        end)
        assert(#outer == 2 and #inner == 1 and inner[1].path == "books[1]/copies")
        """)
        #expect(app.engine.changeObservers.isEmpty)
    }

    @Test func changesOfInsertsRemovesAndMoves() throws {
        let (_, app) = try launch()
        try app.run("""
        local changes = app:changes(function() app:add("Zed") end)
        local zed = shop.books[1]
        assert(zed.name == "Zed")
        local inserts = {}
        for _, c in ipairs(changes) do if c.op then inserts[#inserts + 1] = c end end
        same({ { model = "default", path = "books", op = "insert", index = 0, id = zed.id } }, inserts, "add")
        app:delete("Emma")
        changes = app:changes(function() app:respond("Yes") end)
        same({ { model = "default", path = "books", op = "remove", index = 2, id = "EMMA" } }, changes, "delete")
        app:tab("notes"); app:edit(true)
        changes = app:changes(function() app:move(1, 3) end)
        same({ { model = "default", path = "notes", op = "move", index = 2, id = "N1" } }, changes, "move")
        changes = app:changes(function() app:move("two", "one") end)
        same({ { model = "default", path = "notes", op = "move", index = 2, id = "N2" } }, changes, "move by text")
        -- after a move, paths name the new positions
        changes = app:changes(function() app:select("three") end)
        same({ { model = "default", path = "notes[0]/done", old = false, new = true } }, changes, "select")
        """)
    }

    @Test func changesRaisesTheFunctionsError() throws {
        let (_, app) = try launch()
        try app.run("""
        local ok, err = pcall(function() return app:changes(function() error("inside") end) end)
        assert(not ok and err:find("inside", 1, true), err)
        ok, err = pcall(function() return app:changes(42) end)
        assert(not ok and err:find("function expected", 1, true), err)
        """)
        #expect(app.engine.changeObservers.isEmpty)
    }

    @Test func scriptGetsTheGlobalApp() throws {
        let t = try TempApp(["app.lua": driverApp, "script.lua": """
        assert(app, "global app")
        local s = app:tap("Dune")
        assert(s.screen.id == "book")
        app:edit(true)
        app:set("name", "Dune II")
        """])
        let app = try t.launch()
        try app.runScript(t.folder.appendingPathComponent("script.lua"))
        #expect(try app.lua.evaluate("return shop.books[1].name") == .string("Dune II"))

        let plain = try TempApp(["app.lua": shopApp, "script.lua": "assert(app == nil, 'no screens, no app')"])
        let noScreens = try plain.launch()
        try noScreens.runScript(plain.folder.appendingPathComponent("script.lua"))
    }

    @Test func appObjectDrivingAnotherApp() throws {
        let (_, host) = try launch()
        let t2 = try TempApp(["app.lua": driverApp])
        let other = try t2.launch()
        host.pushAppObject(driving: other)
        host.lua.setGlobal("other")
        try host.run("""
        local s = other:quick("Dune")
        assert(s.screen.sections[1].rows[1].quick, "a snapshot of the other app")
        local changes = other:changes(function() other:quick("Emma") end)
        same({ { model = "default", path = "books[1]/marked", old = false, new = true } }, changes)
        assert(shop.books[1].marked == false, "this app is untouched")
        assert(other ~= app)
        """)
        #expect(try other.lua.evaluate("return shop.books[1].marked and shop.books[2].marked") == .bool(true))
    }
}
