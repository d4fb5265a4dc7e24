import Foundation
import OKitBackends
import Testing
@testable import OKitEngine
@testable import OKitLua

/// A temporary app folder with an app file; removed at deinit.
final class TempApp {
    let folder: URL
    let data: URL

    init(_ files: [String: String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("okit-app-\(UUID().uuidString)")
        data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    func launch(_ file: String = "app.lua", configure: (inout LuaAppOptions) -> Void = { _ in }) throws -> LuaApp {
        var o = LuaAppOptions()
        o.storageKinds = .builtIn
        o.dataFolder = data
        o.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        o.print = { _ in }
        configure(&o)
        let app = try LuaApp(options: o)
        try app.load(appFile: folder.appendingPathComponent(file))
        return app
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

let shopApp = """
local okit = require "okit"
okit.entity("Author", { name = { "string", default = "<New Author>" } })
okit.entity("Book", {
  name = "string", price = { "double", default = 0 }, copies = "int", marked = "bool", comment = "string?",
  date = "date", authors = "[Author]", lead = "ref Author",
  rating = { "int", didSet = function(self, old) self.comment = "was " .. tostring(old) end },
  formatMarked = okit.computed(function(self) return self.marked and "marked" or "not marked" end),
  priceWithTax = okit.computed(function(self) return self.price * 1.2 end, function(self, v) self.price = v / 1.2 end),
  setAsMarked = function(self) self.marked = true end,
  label = function(self, suffix) return self.name .. (suffix or "") end,
  managed = function(self, container) MANAGED = (MANAGED or 0) + 1 end,
  unmanaged = function(self, container) UNMANAGED = (UNMANAGED or 0) + 1 end,
})
okit.entity("Shop", { name = { "string", default = "Book Shop" }, books = "[Book]", authors = "[Author]" })
okit.extension("string", "initial", function(s) READS = (READS or 0) + 1; return s:sub(1, 1):upper() end)
okit.extension("Book", "shout", function(b, suffix) return b.name:upper() .. (suffix or "!") end)
shop = okit.model("Shop", { seed = function(root)
  root.books:append(okit.new("Book", { name = "Dune", price = 12.5, copies = 3 }))
end })
okit.state { shop }
"""

@Suite struct LuaModuleTests {
    @Test func entitiesModelsAndFields() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        try app.run("""
        local b = shop.books[1]
        assert(b.name == "Dune" and b.price == 12.5 and b.copies == 3 and b.marked == false, "fields")
        assert(b.comment == nil, "optional")
        assert(#shop.books == 1, "len")
        assert(shop.books[1] == b, "one proxy per entity")
        assert(b.parent == shop, "parent")
        assert(okit.typeof(b) == "Book" and okit.rootof(b) == shop and okit.modelof(b) == "default")
        assert(b.id:match("^%x+%-") and b.id == b.id:upper(), "upper-case id")
        b.copies = "7"
        assert(b.copies == 7 and math.type(b.copies) == "integer", "coercion")
        local ok, err = pcall(function() b.copies = "abc" end)
        assert(not ok and err:find('cannot write "abc" to field "copies" of type int', 1, true), err)
        assert(b.copies == 7, "old value kept")
        ok, err = pcall(function() return b.nmae end)
        assert(not ok and err:find('Book has no field or method "nmae"', 1, true), err)
        assert(b.formatMarked == "not marked")
        b:setAsMarked()
        assert(b.marked and b.formatMarked == "marked")
        assert(b:label("?") == "Dune?")
        b.priceWithTax = 24
        assert(math.abs(b.price - 20) < 1e-9)
        b.rating = 4
        assert(b.comment == "was 0", "didSet")
        """, chunkName: "t.lua")
    }

    @Test func collectionsAndHooks() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        try app.run("""
        local before = MANAGED or 0
        local e = okit.new("Book", { name = "Emma" })
        shop.books:add(e)
        assert(shop.books[1] == e and #shop.books == 2, "add goes to the front")
        assert(MANAGED == before + 1, "managed once")
        shop.books:append(okit.new("Book", { name = "Anna" }))
        assert(shop.books[3].name == "Anna")
        shop.books:move(3, 1)
        assert(shop.books[1].name == "Anna")
        local names = {}
        for i, b in ipairs(shop.books) do names[i] = b.name end
        assert(table.concat(names, ",") == "Anna,Emma,Dune", table.concat(names, ","))
        assert(shop.books:find(function(b) return b.name == "Emma" end) == e)
        assert(#shop.books:filter(function(b) return b.name ~= "Emma" end) == 2)
        assert(shop.books:contains(e))
        shop.books:remove(e)
        assert(UNMANAGED == 1 and #shop.books == 2)
        shop.books:remove(1)
        assert(#shop.books == 1 and UNMANAGED == 2)
        local ok, err = pcall(function() shop.books:add(shop.books[1]) end)
        assert(not ok and err:find("already belongs", 1, true), err)
        shop.books:clear()
        assert(#shop.books == 0)
        """, chunkName: "t.lua")
    }

    @Test func setsAreUniqueByIdAndRefSetsByTarget() throws {
        let t = try TempApp(["app.lua": """
        local okit = require "okit"
        okit.entity("Tag", { name = "string" })
        okit.entity("Book", { name = "string", tags = "{Tag}", favs = "{ref Tag}" })
        okit.entity("Shop", { books = "[Book]", tags = "[Tag]" })
        shop = okit.model("Shop")
        """])
        let app = try t.launch()
        try app.run("""
        local b = okit.new("Book", { name = "B" })
        shop.books:append(b)
        local t = okit.new("Tag", { name = "x" })
        b.tags:add(t)
        b.tags:add(t)          -- already a member: nothing happens
        b.tags:append(t)
        assert(#b.tags == 1, #b.tags)
        local u = okit.new("Tag", { name = "u" })
        shop.tags:append(u)
        b.favs:add(u); b.favs:add(u)
        assert(#b.favs == 1, "a ref set holds a target once: " .. #b.favs)
        local ok, err = pcall(function() shop.books[1].tags:add(shop.tags[1]) end)
        assert(not ok and err:find("already belongs", 1, true), "another owner's entity is still refused")
        """, chunkName: "t.lua")
    }

    /// `okit.migrate(version, fn(model, raw))`: `raw` is the model as stored, so a renamed field's old values
    /// can be carried over.
    @Test func migrationsSeeTheModelAsStored() throws {
        let v1 = """
        local okit = require "okit"
        okit.app { version = 1 }
        okit.entity("Book", { name = "string", cost = "double" })
        okit.entity("Shop", { books = "[Book]" })
        shop = okit.model("Shop", { seed = function(root)
          root.books:append(okit.new("Book", { name = "Dune", cost = 12.5 }))
          root.books:append(okit.new("Book", { name = "Emma", cost = 8 }))
        end })
        """
        let v2 = """
        local okit = require "okit"
        okit.app { version = 2 }
        okit.entity("Book", { name = "string", price = "double" })   -- cost was renamed price
        okit.entity("Shop", { books = "[Book]" })
        okit.migrate(1, function(model, raw)
          RAWVERSION = raw.okit.version
          for i, b in ipairs(model.books) do b.price = raw.books[i].cost end
        end)
        shop = okit.model("Shop")
        """
        let t = try TempApp(["v1.lua": v1, "v2.lua": v2])
        do {
            let first = try t.launch("v1.lua")
            try first.storeState()
            try first.engine.compactAll()
        }
        let second = try t.launch("v2.lua")
        try second.run("""
        assert(RAWVERSION == 1, "raw is the stored document, header included: " .. tostring(RAWVERSION))
        assert(shop.books[1].price == 12.5 and shop.books[2].price == 8, "the renamed field carried over")
        """, chunkName: "t.lua")
    }

    @Test func bindingsFromLua() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        try app.run("""
        local b = shop.books[1]
        assert(okit.get(shop, "books[0]/name") == "Dune")
        assert(okit.get(b, "name/initial") == "D")
        assert(okit.get(b, "shout(#?)") == "DUNE?")
        assert(okit.get(b, "=price * copies") == 37.5)
        local all = okit.getAll(b, "name,comment,#3")
        assert(all.n == 3 and all[1] == "Dune" and all[2] == nil and all[3] == 3)
        okit.set(shop, "books[0]/name", "Dune Messiah")
        assert(b.name == "Dune Messiah")
        okit.call(b, "setAsMarked()")
        assert(b.marked)
        local bind = okit.binding("books.@count")
        assert(bind:get(shop) == 1)
        local ok, err = pcall(okit.get, shop, "books[0/name")
        assert(not ok and err:find('expected "]" at column 8', 1, true), err)
        ok, err = pcall(okit.get, shop, "nope>/x")
        assert(not ok and err:find('unknown model "nope"', 1, true), err)
        assert(okit.get(b, "nmae") == nil)
        """, chunkName: "t.lua")
    }

    @Test func transactionsRollBackOnLuaErrors() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        try app.run("""
        local b = shop.books[1]
        local ok, err = pcall(okit.transaction, function()
          b.name = "temp"
          shop.books:append(okit.new("Book"))
          error("stop")
        end)
        assert(not ok and err:find("stop"), err)
        assert(b.name == "Dune" and #shop.books == 1, "rolled back")
        assert(okit.transaction(function() b.name = "X"; return 5 end) == 5)
        assert(b.name == "X")
        """, chunkName: "t.lua")
    }

    @Test func luaExtensionsAreDependencyTracked() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        let book = try #require(app.engine.defaultModel?.root).values
        _ = book
        let root = try #require(app.engine.defaultModel?.root)
        let b = try #require(try app.engine.collection(root, "books").items.first?.entity)
        let sub = try app.engine.subscribe(b, "shout")
        #expect(sub.value.description == "DUNE!")
        try app.engine.set(b, "price", .double(1))
        #expect(!sub.isStale, "the extension did not read price")
        try app.engine.set(b, "name", .string("Emma"))
        #expect(sub.isStale)
        #expect(sub.value.description == "EMMA!")
    }

    @Test func storeAndReloadKeepData() throws {
        let t = try TempApp(["app.lua": shopApp])
        do {
            let app = try t.launch()
            try app.run("shop.books[1].name = 'Stored'; okit.storeState()")
        }
        let again = try t.launch()
        try again.run("assert(shop.books[1].name == 'Stored', shop.books[1].name); assert(#shop.books == 1, 'seed runs only once')")
    }

    @Test func datesInLua() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        try app.run("""
        local now = okit.date.now()
        assert(tostring(now) == "2019-05-01T10:00:00Z", tostring(now))
        local b = shop.books[1]
        assert(b.date == now, "default date is the clock's now")
        local later = now + 3600
        assert(later > now and later - now == 3600)
        b.date = "2020-01-07T10:00:00Z"
        assert(b.date.year == 2020 and b.date.month == 1)
        b.date = later
        assert(b.date == later)
        assert(okit.date.parse("2019-05-01T10:00:00Z") == now)
        assert(os.time() == 1556704800)
        local old = okit.date.parse("1000-06-01T00:00:00Z")     -- proleptic Gregorian (a Sunday), as shown and stored
        assert(now.weekday == 4 and old.year == 1000 and old.month == 6 and old.day == 1 and old.weekday == 1)
        """, chunkName: "t.lua")
    }

    @Test func localizationAndTimers() throws {
        let t = try TempApp(["app.lua": shopApp + "\nokit.strings('en', { entry = 'Entry', entrys = 'Entries' })\n"])
        let app = try t.launch()
        try app.run("""
        assert(okit.localize("entry") == "Entry" and okit.localize("missing") == "missing")
        assert(okit.get(nil, "%entrys") == "Entries")
        FIRED = 0
        okit.after(10, function() FIRED = FIRED + 1 end)
        T = okit.every(5, function() TICKS = (TICKS or 0) + 1 end)
        """)
        app.session.advance(12)
        try app.run("assert(FIRED == 1, FIRED); assert(TICKS == 2, TICKS); T:cancel()")
        app.session.advance(20)
        try app.run("assert(TICKS == 2, 'cancelled')")
    }

    @Test func loadErrorsNameFileAndLine() throws {
        let cases: [(String, String)] = [
            ("okit.entity('A', { x = 'string' }\n", "app.lua:2:"),                         // syntax error
            ("local x = nil\nx.y = 1\n", "app.lua:2:"),                                     // runtime error at load
            ("okit.entity('A', {\n x = 'strnig' })\n", "app.lua:2:2: okit.entity(\"A\"), field \"x\": unknown field type or entity type \"strnig\""),
            ("okit.entity('A', { b = '[B]' })\nokit.model('A')\n", "app.lua:1:20: okit.entity(\"A\"), field \"b\""),
            ("okit.entity('A', { x = 'string' })\nm = okit.model('A')\nokit.app { home = 'nope' }\n", "app.lua:3:20: screen okit.app, property home: no screen \"nope\" is declared"),
        ]
        for (source, expected) in cases {
            let t = try TempApp(["app.lua": source])
            do { _ = try t.launch(); Issue.record("no error for \(source)") } catch {
                #expect("\(error)".hasPrefix(expected), "\(error)")
            }
        }
    }
}

@Suite struct LuaLifetimeTests {
    @Test func childrenOfDroppedDetachedEntitiesStaySafe() throws {
        let t = try TempApp(["app.lua": shopApp])
        let app = try t.launch()
        try app.run("""
        local a = okit.new("Author", { name = "Kept" })
        do
          local b = okit.new("Book", { name = "Dropped" })
          b.authors:add(a)
          HELD = b.authors
        end
        collectgarbage(); collectgarbage()
        assert(a.parent == nil, "no parent before the tree joins a model")
        assert(#HELD == 1 and HELD[1].name == "Kept", "a held collection keeps its owner alive")
        local removed = shop.books[1]
        local author = okit.new("Author", { name = "Inner" })
        removed.authors:add(author)
        shop.books:remove(removed)
        removed = nil
        okit.storeState()
        collectgarbage(); collectgarbage()
        local ok, err = pcall(function() return author.name end)
        assert(not ok and err:find("was removed from its model", 1, true), "a removed and stored entity is dead: " .. tostring(err))
        """, chunkName: "t.lua")
    }
}

@Suite struct LuaDataTests {
    static let app = """
    okit.entity("Book", { name = "string", icon = "image?", file = "data?", thumb = "inlineImage?" })
    okit.entity("Shop", { books = "[Book]" })
    shop = okit.model("Shop", { seed = function(root) root.books:append(okit.new("Book", { name = "Dune" })) end })
    PNG = "\\137PNG\\r\\n\\26\\n" .. string.rep("x", 10)
    """

    @Test func bytesAreStoredBesideTheModelAndReadLazily() throws {
        let t = try TempApp(["app.lua": Self.app])
        do {
            let app = try t.launch()
            try app.run("""
            local b = shop.books[1]
            assert(okit.data.read(b.icon) == nil)
            okit.data.write(b, "icon", PNG, "image/png")
            okit.data.write(b, "file", "\\0\\1\\2 bytes", "application/octet-stream", "raw")
            okit.data.write(b, "thumb", PNG, "image/png")
            assert(okit.data.read(b.icon) == PNG and b.icon.size == #PNG and b.icon.format == "image/png")
            assert(okit.get(b, "file/label") == "raw" and b.file.sha256:match("^%x+$") and #b.file.sha256 == 64)
            local ok, err = pcall(okit.data.write, b, "icon", "not a png", "image/png")
            assert(not ok and err:find("image/png bytes", 1, true), err)
            ok, err = pcall(okit.data.write, b, "icon", PNG, "")
            assert(not ok and err:find("empty format", 1, true), err)
            okit.storeState()
            """, chunkName: "t.lua")
        }
        let models = t.data.appendingPathComponent("okit/data/default")
        let images = try FileManager.default.contentsOfDirectory(atPath: models.appendingPathComponent("_image").path)
        #expect(images.count == 1 && images[0].hasSuffix(".png"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: models.appendingPathComponent("_data").path).count == 1)
        let json = try String(contentsOf: t.data.appendingPathComponent("okit/data/default.json"), encoding: .utf8)
        #expect(!json.contains("xxxxxxxxxx"), "side-file bytes are not in the model")
        let again = try t.launch()
        try again.run("""
        local b = shop.books[1]
        assert(okit.data.read(b.icon) == PNG, "read back from the side file")
        assert(okit.data.read(b.file) == "\\0\\1\\2 bytes")
        assert(okit.data.read(b.thumb) == PNG, "inline bytes")
        b.icon = nil
        okit.storeState()
        """, chunkName: "t.lua")
        #expect(try FileManager.default.contentsOfDirectory(atPath: models.appendingPathComponent("_image").path).isEmpty,
                "the file of a removed image is deleted after the model is written")
    }
}

@Suite struct LuaAlertTests {
    @Test func alertsAndPromptsFromLuaAreAnsweredThroughTheShell() throws {
        let t = try TempApp(["app.lua": shopApp + """
        okit.list("books", { type = "Book", dataPath = "books", cell = { path = "name" } })
        okit.app { home = "books" }
        """])
        let app = try t.launch()
        try app.run("""
        okit.prompt { title = "%Rename", message = "%New name?", fields = { { placeholder = "%Name" } }, actions = { "%OK", "%Cancel" },
          onAction = function(choice, values) if choice == 1 then shop.books[1].name = values[1] end end }
        """)
        let alert = try #require(try app.shell.snapshot().alert)
        #expect(alert.kind == "prompt" && alert.title == "Rename" && alert.actions == ["OK", "Cancel"] && alert.fields.first?.placeholder == "Name")
        try app.shell.respond("OK", fields: ["Dune Messiah"])
        try app.run("assert(shop.books[1].name == 'Dune Messiah')")
        try app.run("okit.alert { title = '%Sure?', actions = { 'Yes', 'No' }, onAction = function(c) error('refused ' .. c) end }")
        #expect(throws: (any Error).self) { try app.shell.respond("No") }
        #expect(try app.shell.snapshot().alert == nil, "the alert closed; its error was reported to the caller")
    }
}
