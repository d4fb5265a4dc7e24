import Foundation
import Testing
import OKitTestSupport
import OKitLua
@testable import OKitEngine
@testable import okit_run

/// Commands name what a Turkish app shows in Turkish capitals (out-turkish finding 2): rows, cells, switch and
/// on/off words, month names and scopes match case and accents aside with Turkish's I/ı and İ/i, as search does.
@Suite struct TurkishCommandTests {
    static let app = """
    local okit = require "okit"
    okit.locale { language = "tr", region = "TR", timeZone = "Europe/Istanbul" }
    okit.strings("tr", { Recipes = "Tarifler", Date = "Tarih", Favourite = "Favori", Dark = "Karanlık", Yes = "Evet", No = "Hayır",
      Sweet = "Tatlı", Pastry = "Börek" })
    okit.entity("Recipe", { name = "string", category = "string", date = "date?", favourite = "bool" })
    okit.entity("Book", { recipes = "[Recipe]" })
    book = okit.model("Book", { seed = function(root)
      root.recipes:append(okit.new("Recipe", { name = "Ispanaklı Börek", category = "Pastry" }))
      root.recipes:append(okit.new("Recipe", { name = "Irmik Helvası", category = "Sweet" }))
      root.recipes:append(okit.new("Recipe", { name = "İçli Köfte", category = "Meze" }))
    end })
    okit.list("recipes", { type = "Recipe", dataPath = "recipes", titlePath = "%Recipes", cell = { path = "name" },
      search = "#true", searchPath = "name", searchFilters = "Sweet,Pastry", searchFilterPath = "category", segue = "recipe" })
    okit.detail("recipe", { titlePath = "name", sections = { {
      okit.cell.date { path = "%Date", datePath = "date", modePath = "#1" },
      okit.cell.switch { path = "%Favourite", onPath = "favourite" },
      okit.cell.switch { path = "%Dark", onPath = "favourite" },
    } } })
    okit.app { id = "tarifler", home = "recipes" }
    """

    static func launch() throws -> (TempFolder, LuaApp, JSONLinesDriver) {
        let folder = try TempFolder()
        try folder.put("app.lua", app)
        var options = LuaAppOptions()
        options.dataFolder = folder.url.appendingPathComponent("data")
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        options.print = { _ in }
        let app = try LuaApp(options: options)
        try app.load(appFile: folder.url.appendingPathComponent("app.lua"))
        return (folder, app, JSONLinesDriver(session: app.session))
    }

    static func ok(_ lines: JSONLinesDriver, _ command: String) -> Bool {
        let answer = lines.handle(command).0
        if !answer.hasPrefix(#"{"ok":true"#) { Issue.record("\(command): \(answer)") }
        return answer.hasPrefix(#"{"ok":true"#)
    }

    @Test func turkishCapitalsNameRowsCellsWordsAndMonths() throws {
        let (folder, app, lines) = try Self.launch()
        defer { withExtendedLifetime((folder, app, lines)) {} }
        #expect(MatchedText.fold("ISPANAKLI BÖREK") == MatchedText.fold("Ispanaklı Börek"))
        #expect(MatchedText.fold("İÇLİ KÖFTE") == MatchedText.fold("içli köfte"))
        #expect(Self.ok(lines, #"{"cmd":"search","scope":"TATLI"}"#), "a scope title in capitals")
        #expect(Self.ok(lines, #"{"cmd":"search","scope":"All"}"#))
        #expect(Self.ok(lines, #"{"cmd":"tap","row":"ISPANAKLI BÖREK"}"#))
        #expect(Self.ok(lines, #"{"cmd":"edit","on":"EVET"}"#))
        func field(_ name: String) throws -> LuaValue { try app.lua.evaluate("return tostring(book.recipes[1].\(name))") }
        #expect(Self.ok(lines, #"{"cmd":"set","cell":"FAVORI","value":"EVET"}"#))
        #expect(try field("favourite") == .string("true"))
        #expect(Self.ok(lines, #"{"cmd":"set","cell":"KARANLIK","value":"HAYIR"}"#))
        #expect(try field("favourite") == .string("false"))
        #expect(Self.ok(lines, #"{"cmd":"set","cell":"Tarih","value":"28 KASIM 2026"}"#))
        #expect(try app.lua.evaluate("return book.recipes[1].date:format('yyyy-MM-dd')") == .string("2026-11-28"))
        #expect(Self.ok(lines, #"{"cmd":"set","cell":"Tarih","value":"1 EKIM 2026"}"#), "I typed for İ")
        #expect(Self.ok(lines, #"{"cmd":"edit","on":"HAYIR"}"#))
        let refused = lines.handle(#"{"cmd":"edit","on":"belki"}"#).0
        #expect(refused.contains("(on takes on or off, true or false, yes or no, evet or hayır)"), "\(refused)")
    }
}
