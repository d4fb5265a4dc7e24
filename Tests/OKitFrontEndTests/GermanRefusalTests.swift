import Foundation
import Testing
import OKitTestSupport
import OKitLua
@testable import OKitEngine
@testable import okit_run

/// A screen's refusals of what a person did, or of what its bindings forbid now, are in the app's language (a
/// German app's `move` while searching, a read-only cell, a quick action its `quickEnabled` turns off, a command of
/// another kind of screen); a refusal whose remedy is the app's declaration stays English (built-in-words.md).
@Suite struct GermanRefusalTests {
    static let app = #"""
    local okit = require "okit"
    okit.locale { language = "de", region = "DE" }
    okit.entity("Buch", { name = "string", gelesen = "bool", ort = "string" })
    okit.entity("Regal", { buecher = "[Buch]", kisten = "[Buch]" })
    okit.model("Regal", { seed = function(root)
      root.buecher:append(okit.new("Buch", { name = "Dune", gelesen = true, ort = "Flur" }))
      root.buecher:append(okit.new("Buch", { name = "Emma", gelesen = false, ort = "Küche" }))
      root.kisten:append(okit.new("Buch", { name = "Ilias" }))
    end })
    okit.list("buecher", { titlePath = "#Bücher", dataPath = "buecher", type = "Buch", cell = { path = "name" },
      search = "#true", searchPath = "name", reorder = "#true", segue = "buch",
      quickName = "#Gelesen", quickEnabled = "!gelesen", quickTap = function(b) b.gelesen = true end })
    okit.list("kisten", { titlePath = "#Kisten", dataPath = "kisten", type = "Buch", cell = { path = "name" } })
    okit.detail("buch", { titlePath = "name", sections = { {
      okit.cell.text { path = "#Name", textPath = "name" },
      okit.cell.text { path = "#Ort", textPath = "ort", readOnly = "#true" },
    } } })
    okit.app { id = "regal", home = { "buecher", "kisten" } }
    """#

    static func error(_ lines: JSONLinesDriver, _ command: String) -> String {
        JapaneseCommandTests.error(lines, command)
    }

    @Test func aScreensRefusalsAreGerman() throws {
        let folder = try TempFolder()
        try folder.put("app.lua", Self.app)
        var options = LuaAppOptions()
        options.dataFolder = folder.url.appendingPathComponent("data")
        options.print = { _ in }
        let app = try LuaApp(options: options)
        try app.load(appFile: folder.url.appendingPathComponent("app.lua"))
        let lines = JSONLinesDriver(session: app.session)
        defer { withExtendedLifetime((folder, app, lines)) {} }

        #expect(Self.error(lines, #"{"cmd":"quick","row":1}"#) == "quick ist für die Zeile 1 jetzt deaktiviert")
        #expect(JapaneseCommandTests.ok(lines, #"{"cmd":"edit","on":true}"#))
        #expect(JapaneseCommandTests.ok(lines, #"{"cmd":"search","text":"Emma"}"#))
        #expect(Self.error(lines, #"{"cmd":"move","from":1,"to":2}"#)
                == "der Bildschirm „buecher“ erlaubt move nicht während einer Suche")
        #expect(JapaneseCommandTests.ok(lines, #"{"cmd":"search","text":""}"#))
        #expect(JapaneseCommandTests.ok(lines, #"{"cmd":"edit","on":false}"#))
        #expect(Self.error(lines, #"{"cmd":"move","from":1,"to":2}"#)
                == "der Bildschirm „buecher“ erlaubt move nur im Bearbeitungsmodus (zuerst edit on)")
        #expect(JapaneseCommandTests.ok(lines, #"{"cmd":"tap","row":"Emma"}"#))
        #expect(Self.error(lines, #"{"cmd":"delete","row":1}"#) == "delete ist kein Befehl von Bildschirmen der Art detail")
        #expect(JapaneseCommandTests.ok(lines, #"{"cmd":"edit","on":true}"#))
        #expect(Self.error(lines, #"{"cmd":"set","cell":"Ort","value":"Keller"}"#)
                == "die Zelle „Ort“ ist schreibgeschützt (readOnly)")
        #expect(JapaneseCommandTests.ok(lines, #"{"cmd":"back"}"#))
        #expect(JapaneseCommandTests.ok(lines, #"{"cmd":"tab","id":"Kisten"}"#))
        // The app is not set up to move these rows: its remedy is a declaration, said in English.
        #expect(JapaneseCommandTests.ok(lines, #"{"cmd":"edit","on":true}"#))
        #expect(Self.error(lines, #"{"cmd":"move","from":1,"to":1}"#) == "screen \"kisten\" does not allow move (set reorder)")
    }
}
