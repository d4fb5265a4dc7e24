import Foundation
import Testing
import OKitTestSupport
import OKitLua
@testable import OKitEngine
@testable import okit_run

/// A Japanese household-book app (a Japanese user's probe): commands name rows, options, tabs and actions width
/// aside as search does (`ｶﾞｿﾘﾝ` names "ガソリン"), and the refusals a person meets follow the app's language in
/// JSON lines, the terminal shell and a flow test's `app:` calls, with the app's strings for okit's words.
@Suite struct JapaneseCommandTests {
    static let app = #"""
    local okit = require "okit"
    okit.locale { language = "ja", region = "JP", timeZone = "Asia/Tokyo" }
    okit.strings("ja", { Entries = "支出", Categories = "分類", Category = "分類", Title = "品目", Amount = "金額",
      Yes = "はい", No = "いいえ", OK = "OK", Cancel = "キャンセル", Search = "検索", search = "検索",
      ["%1$@: %2$@"] = "%1$@：%2$@", ["\"%@\""] = "「%@」", ["%1$@, %2$@"] = "%1$@、%2$@",
      ["no tab \"%1$@\" (tabs: %2$@)"] = "タブ「%1$@」はありません（タブ：%2$@）",
      ["cell \"%@\" takes values in edit mode only (edit on first)"] = "「%@」は編集モードでのみ変更できます（先に edit on）",
      ["%1$@: %2$@ is neither on nor off (%3$@ takes on or off, true or false, yes or no, %4$@ or %5$@)"] =
        "%1$@：%2$@ はオンでもオフでもありません（%3$@ は on／off、true／false、yes／no、%4$@／%5$@）",
      ["no row \"%1$@\" (the list has %2$@ rows; address rows by position, id or text)"] = "行「%1$@」はありません（%2$@ 行）",
      ["The search text is too long (%1$@ characters; at most %2$@); the search is unchanged."] = "検索語が長すぎます（%1$@ 文字、最大 %2$@）" })
    okit.entity("Category", { name = "string" })
    okit.entity("Entry", { title = "string", amount = "int", category = "ref Category" })
    okit.entity("Book", { entries = "[Entry]", categories = "[Category]" })
    book = okit.model("Book", { seed = function(root)
      for _, n in ipairs { "食費", "交通費", "ｶﾞｽ代" } do root.categories:append(okit.new("Category", { name = n })) end
      root.entries:append(okit.new("Entry", { title = "ガソリン", amount = 5400, category = root.categories[2] }))
      root.entries:append(okit.new("Entry", { title = "ｶﾚｰﾊﾟﾝ", amount = 280, category = root.categories[1] }))
    end })
    okit.list("entries", { titlePath = "%Entries", dataPath = "entries", type = "Entry", cell = { path = "title" },
      search = "#true", searchPath = "title", addName = "title", segue = "entry" })
    okit.detail("entry", { titlePath = "title", sections = { {
      okit.cell.text { path = "%Amount", textPath = "amount" },
      okit.cell.picker { path = "%Category", dataPath = "/categories", namePath = "name", selectionPath = "category" },
    } } })
    okit.list("categories", { titlePath = "%Categories", dataPath = "categories", type = "Category", cell = { path = "name" } })
    okit.app { id = "kakeibo", home = { "entries", "categories" } }
    """#

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

    /// The error of a refused command's answer.
    static func error(_ lines: JSONLinesDriver, _ command: String) -> String {
        let answer = lines.handle(command).0
        guard let data = answer.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["ok"] as? Bool == false,
              let error = object["error"] as? String else {
            Issue.record("\(command) was not refused: \(answer)")
            return ""
        }
        return error
    }

    /// Half-width katakana name full-width rows, options, tabs and actions and the other way round, as search finds
    /// them (the probe: `tap ｶﾞｿﾘﾝ`, `set 分類 ガス代`, `tap カレーパン` were refused).
    @Test func rowsOptionsTabsAndActionsAreMatchedWidthAside() throws {
        let (folder, app, lines) = try Self.launch()
        defer { withExtendedLifetime((folder, app, lines)) {} }
        #expect(MatchedText.same("ｶﾞｿﾘﾝ", "ガソリン") && MatchedText.same("ＡＢＣ", "abc") && !MatchedText.same("ガス", "カス"))
        #expect(Self.ok(lines, #"{"cmd":"tap","row":"カレーパン"}"#), "a full-width name for a half-width row")
        #expect(try app.session.shell.snapshot().screen.title == "ｶﾚｰﾊﾟﾝ")
        #expect(Self.ok(lines, #"{"cmd":"back"}"#))
        #expect(Self.ok(lines, #"{"cmd":"tap","row":"ｶﾞｿﾘﾝ"}"#), "a half-width name for a full-width row")
        #expect(Self.ok(lines, #"{"cmd":"edit","on":true}"#))
        #expect(Self.ok(lines, #"{"cmd":"set","cell":"分類","value":"ガス代"}"#), "a full-width name for a half-width option")
        #expect(try app.lua.evaluate("return book.entries[1].category.ref.name") == .string("ｶﾞｽ代"))
        #expect(Self.ok(lines, #"{"cmd":"edit","on":false}"#))
        #expect(Self.ok(lines, #"{"cmd":"back"}"#))
        #expect(Self.ok(lines, #"{"cmd":"tab","id":"ＥＮＴＲＩＥＳ"}"#), "a tab's id typed full-width")
        #expect(Self.ok(lines, #"{"cmd":"add"}"#))
        #expect(Self.ok(lines, #"{"cmd":"respond","action":"ｷｬﾝｾﾙ"}"#), "an alert's action typed half-width")
    }

    /// The refusals the probe met, in the app's strings (its `、`, its 「」), okit's English where it gives no
    /// string (`no action`), and the JSON-lines shape unchanged; a flow test's `app:` call raises the same text.
    @Test func refusalsFollowTheAppsLanguage() throws {
        let (folder, app, lines) = try Self.launch()
        defer { withExtendedLifetime((folder, app, lines)) {} }
        #expect(Self.error(lines, #"{"cmd":"tab","id":"設定"}"#) == "タブ「設定」はありません（タブ：1 支出、2 分類）")
        #expect(Self.error(lines, #"{"cmd":"edit","on":"たぶん"}"#)
                == "edit：「たぶん」 はオンでもオフでもありません（on は on／off、true／false、yes／no、はい／いいえ）")
        #expect(Self.error(lines, #"{"cmd":"tap","row":"かれー"}"#) == "行「かれー」はありません（2 行）")
        let long = String(repeating: "あ", count: SearchText.maxLength + 1)
        #expect(Self.error(lines, #"{"cmd":"search","text":"\#(long)"}"#) == "検索語が長すぎます（\(SearchText.maxLength + 1) 文字、最大 \(SearchText.maxLength)）")
        #expect(Self.error(lines, #"{"cmd":"back"}"#) == "already at the first screen of this tab", "a word the app does not give is okit's English")
        #expect(Self.ok(lines, #"{"cmd":"tap","row":1}"#))
        #expect(Self.error(lines, #"{"cmd":"set","cell":"金額","value":"5000"}"#) == "「金額」は編集モードでのみ変更できます（先に edit on）")
        #expect(Self.ok(lines, #"{"cmd":"edit","on":"はい"}"#))
        let options = Self.error(lines, #"{"cmd":"set","cell":"分類","value":"ない"}"#)
        #expect(options.contains("「食費」、2 「交通費」、3 「ｶﾞｽ代」"), "the options joined as the app joins two: \(options)")
        app.installAppGlobal()
        let raised = try app.lua.evaluate("local ok, err = pcall(app.tab, app, '設定'); return err")
        #expect(raised == .string("タブ「設定」はありません（タブ：1 支出、2 分類）"), "\(raised)")
    }

    /// okit's own words say the refusals in German (and the other languages it has words for); English is as it was.
    @Test func okitsLanguagesSayTheRefusalsAndEnglishStaysAsItWas() throws {
        let de = BuiltInWords(language: "de")
        #expect(ShellError.unknownTab("Einstellungen", tabs: ["1 Bücher", "2 Autoren"]).text(de)
                == "kein Tab „Einstellungen“ (Tabs: 1 Bücher, 2 Autoren)")
        #expect(ShellError.noRow("7", count: 1).text(de) == "keine Zeile 7 (die Liste hat 1 Zeile)")
        #expect(ShellError.noRow("7", count: 3).text(de) == "keine Zeile 7 (die Liste hat 3 Zeilen)")
        #expect(ShellError.noAction("Ja", actions: ["OK", "Abbrechen"]).text(BuiltInWords(language: "fr"))
                == "aucune action «\u{A0}Ja\u{A0}» (actions\u{A0}: OK, Abbrechen)")
        #expect(ShellError.unknownTab("x", tabs: ["1 Books", "2 Authors"]).description == "no tab \"x\" (tabs: 1 Books, 2 Authors)")
        #expect(ShellError.noRowMatching("Dun", candidates: ["Dune", "Dunes"], count: 2).description
                == "no row \"Dun\" (did you mean \"Dune\", \"Dunes\"?)")
        #expect(ShellError.noRowMatching("x", candidates: [], count: 1).description
                == "no row \"x\" (the list has 1 row; address rows by position, id or text)")
        #expect(ShellError.noCellAt("9", count: 2).description == "no cell 9 (the screen has 2 cells)")
        #expect(ShellError.duplicateScreen("books").text(de) == "screen \"books\" is declared twice", "a programmer's stays English")
        let many = (1...40).map { "Tab \($0)" }
        #expect(ShellError.unknownTab("x", tabs: many).text(de).hasSuffix("Tab 21, … (19 weitere))"))
        var refused: CommandUsageError?
        do { _ = try CommandArguments("edit", ["on": .string("vielleicht")]).flag("on", yes: "ja", no: "nein") } catch let e as CommandUsageError { refused = e }
        let flag = try #require(refused)
        #expect(flag.text(de) == "edit: „vielleicht“ ist weder an noch aus (on nimmt on oder off, true oder false, yes oder no, ja oder nein)")
        #expect(flag.message == "edit: \"vielleicht\" is neither on nor off (on takes on or off, true or false, yes or no, ja or nein)")
        let engine = Engine(schema: Schema(), clock: VirtualClock())
        engine.locale = AppLocale(language: "es")
        #expect(engine.refusalText(ShellError.noAlert, wording: nil) == "ningún aviso espera respuesta")
        #expect(engine.refusalText(CommandUsageError(message: "tap needs row"), wording: nil) == "tap needs row", "the command line's own")
    }
}
