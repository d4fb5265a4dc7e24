import Foundation
import OKitTestSupport
import Testing
@testable import OKitEngine
@testable import OKitLua

/// What a person writes for a language, a locale or a launch is read or refused, never dropped: `DE` and `de-DE`
/// are German, `deutsch` is refused with the code to write, a misspelled key of `okit.locale` or `launch` is named
/// with the closest one (found by writing a German app from the docs).
@Suite struct LanguageInputTests {
    static let app = """
    local okit = require "okit"
    okit.entity("A", { name = "string" })
    okit.entity("R", { items = "[A]" })
    okit.model("R")
    okit.list("items", { type = "A", dataPath = "items", titlePath = "%Items", cell = { path = "name" } })
    okit.app { home = "items" }
    """

    @Test func languageTagsAreReadAsPeopleWriteThem() {
        #expect(AppLocale.languageTag("de") == "de")
        #expect(AppLocale.languageTag("DE") == "de")
        #expect(AppLocale.languageTag("de-DE") == "de_DE")
        #expect(AppLocale.languageTag("de_at") == "de_AT")
        #expect(AppLocale.languageTag("deutsch") == nil)
        #expect(AppLocale.languageTag("german") == nil)
        #expect(AppLocale.languageAdvice("deutsch") == "\"deutsch\" is not a language code: write de (German)")
        #expect(AppLocale.languageAdvice("German") == "\"German\" is not a language code: write de (German)")
        #expect(AppLocale.languageAdvice("xx-yy-zz").contains("ISO 639"))
        #expect(AppLocale.languageAdvice("jp") == "\"jp\" is a country (Japan), not a language code: write ja (Japanese)")
        #expect(AppLocale.languageAdvice("GR").hasSuffix("write el (Greek)"))
    }

    @Test func stringsOfARegionOrInCapitalsAreTheLanguages() throws {
        let t = try TempApp(["app.lua": Self.app + "\nokit.strings('de-DE', { Items = 'Dinge' })\nokit.strings('DE', { Name = 'Bezeichnung' })\n"])
        let app = try t.launch { $0.language = "de" }
        try app.run("""
        assert(okit.get(nil, "%Items") == "Dinge", okit.get(nil, "%Items"))
        assert(okit.localize("Name") == "Bezeichnung")
        """)
    }

    @Test func aLanguageThatIsNoCodeIsRefusedWithTheCodeToWrite() throws {
        let strings = try TempApp(["app.lua": Self.app + "\nokit.strings('deutsch', { Items = 'Dinge' })\n"])
        #expect { try strings.launch() } throws: { "\($0)".contains("okit.strings: \"deutsch\" is not a language code: write de (German)") }
        let locale = try TempApp(["app.lua": Self.app + "\nokit.locale { language = 'german' }\n"])
        #expect { try locale.launch() } throws: { "\($0)".contains("okit.locale: language: \"german\" is not a language code: write de") }
    }

    @Test func aMisspelledLocaleKeyIsNamedAtItsPlace() throws {
        let t = try TempApp(["app.lua": Self.app + "\nokit.locale { language = 'de', regon = 'DE' }\n"])
        #expect { try t.launch() } throws: { error in
            let text = "\(error)"
            return text.contains("app.lua:7:") && text.contains("okit.locale: unknown option \"regon\" (did you mean \"region\"?)")
        }
    }

    @Test func theCommandLineRefusesALanguageThatIsNoCodeAndReadsCapitals() throws {
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let t = try TempApp(["app.lua": Self.app])
        let app = t.folder.appendingPathComponent("app.lua").path
        let refused = try OKitRun.run([app, "--json", "--data", t.data.path, "--lang", "deutsch"])
        #expect(refused.code != 0 && refused.err.contains("--lang: \"deutsch\" is not a language code: write de (German)"), "\(refused.err)")
        let capitals = try OKitRun.run([app, "--json", "--data", t.data.path, "--lang", "DE"], stdin: .text("{\"cmd\":\"screen\"}\n"))
        #expect(capitals.out.contains("\"title\":\"Bearbeiten\""), "\(capitals.out)")
    }

    @Test func aMisspelledLaunchOptionIsNamed() throws {
        let t = try TempApp(["app.lua": Self.app, "tests/a_test.lua": """
        local T = require "okit.test"
        describe("launch", function()
          it("names an option it does not read", function()
            assert.has_error(function() T.launch("../app.lua", { lnag = "en" }) end,
              'launch: unknown option "lnag" (did you mean "lang"?); it takes data, fixtures, now, lang, seed, storage')
          end)
          it("refuses a language that is no code", function()
            assert.has_error(function() T.launch("../app.lua", { lang = "deutsch" }) end,
              'launch: opts.lang: "deutsch" is not a language code: write de (German)')
          end)
        end)
        """])
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let r = try OKitRun.run(["test", t.folder.appendingPathComponent("tests").path])
        #expect(r.code == 0 && r.out.contains("2 passed, 0 failed"), "\(r.out)\(r.err)")
    }

    @Test func theAddPromptNamesTheFieldByItsLabelAndARefusalIsInTheAppsLanguage() throws {
        let source = Self.app.replacingOccurrences(of: "okit.entity(\"A\", { name = \"string\" })",
            with: "okit.entity(\"A\", { name = { \"string\", required = true, label = \"Bezeichnung\" }, note = \"string\" })")
            .replacingOccurrences(of: "cell = { path = \"name\" }", with: "cell = { path = \"name\" }, add = \"#true\", addName = \"name\"")
        let t = try TempApp(["app.lua": source, "other.lua": source.replacingOccurrences(of: "addName = \"name\"", with: "addName = \"note\"")])
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let lines = ["{\"cmd\":\"add\"}", "{\"cmd\":\"respond\",\"action\":\"OK\",\"fields\":[\" \"]}"].joined(separator: "\n") + "\n"
        let r = try OKitRun.run([t.folder.appendingPathComponent("app.lua").path, "--json", "--lang", "de", "--data", t.data.path], stdin: .text(lines))
        #expect(r.out.contains("\"message\":\"Bezeichnung für A eingeben\"") && r.out.contains("\"placeholder\":\"Bezeichnung\""), "\(r.out)")
        #expect(r.out.contains("\"error\":\"OK abgelehnt: Bezeichnung ist erforderlich\""), "\(r.out)")
        let other = try OKitRun.run([t.folder.appendingPathComponent("other.lua").path, "--json", "--lang", "de", "--data", t.data.path + "2"],
                                    stdin: .text(lines))
        #expect(other.out.contains("\"error\":\"OK: Bitte jedes Feld ausfüllen\""), "a field without a rule: \(other.out)")
    }

    /// An app of one item `name` with `fields` besides its name, its strings in `language` and a detail screen of
    /// `cells`, run over JSON lines: tap the item, edit on, then `sets` (cell, value): every answer, and the run.
    func detailAnswers(fields: String, name: String, language: String, strings: String, cells: String,
                       sets: [(String, String)]) throws -> (answers: [Substring], run: ChildResult) {
        let source = """
        local okit = require "okit"
        okit.entity("A", { name = "string", \(fields) })
        okit.entity("R", { items = "[A]" })
        okit.model("R", { seed = function(r) r.items:append(okit.new("A", { name = "\(name)" })) end })
        okit.strings("\(language)", { \(strings) })
        okit.list("items", { type = "A", dataPath = "items", titlePath = "%Items", cell = { path = "name" }, segue = "a" })
        okit.detail("a", { sections = { { \(cells) } } })
        okit.app { home = "items" }
        """
        let t = try TempApp(["app.lua": source])
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let lines = ["{\"cmd\":\"tap\",\"row\":1}", "{\"cmd\":\"edit\",\"on\":true}"]
            + sets.map { "{\"cmd\":\"set\",\"cell\":\"\($0.0)\",\"value\":\"\($0.1)\"}" }
        let r = try OKitRun.run([t.folder.appendingPathComponent("app.lua").path, "--json", "--lang", language, "--data", t.data.path],
                                stdin: .text(lines.joined(separator: "\n") + "\n"))
        return (r.out.split(separator: "\n"), r)
    }

    /// A value a cell cannot take is refused naming the cell as the person sees it, not by the id a program gave it
    /// (`id = "d1"` on a date cell titled "Ajoutée le"), and a switch takes and shows the app's own Oui and Non.
    @Test func aRefusedValueNamesTheCellAsItsTitleShowsIt() throws {
        let (answers, r) = try detailAnswers(
            fields: "veggie = \"bool\", added = \"date\"", name: "Soupe", language: "fr",
            strings: "Veggie = \"Végétarien\", Added = \"Ajoutée le\", Yes = \"Oui\", No = \"Non\"",
            cells: "okit.cell.switch { id = \"veg\", path = \"%Veggie\", onPath = \"veggie\" }, "
                + "okit.cell.date { id = \"d1\", path = \"%Added\", datePath = \"added\" }",
            sets: [("veg", "peut-être"), ("d1", "33/05/2024"), ("veg", "oui")])
        #expect(answers.count == 5 && answers[2].contains("\"error\":\"Végétarien\u{A0}: ") && !answers[2].contains("veg:"), "\(r.out)")
        #expect(answers.count == 5 && answers[3].contains("Ajoutée le") && !answers[3].contains("d1"), "\(r.out)")
        #expect(answers.count == 5 && answers[4].hasPrefix("{\"ok\":true"), "oui: \(r.out)")
    }

    /// A read-only cell refuses a value naming the cell as its title shows it, in the app's language, as every other
    /// refusal does (a new user's `set Idade 3` was answered `cell "Age" is read-only`).
    @Test func aReadOnlyCellIsNamedAsItsTitleShowsIt() throws {
        let (answers, r) = try detailAnswers(
            fields: "age = \"int\"", name: "Rex", language: "pt", strings: "Age = \"Idade\"",
            cells: "okit.cell.stepper { id = \"Age\", path = \"%Age\", valuePath = \"age\", readOnly = \"#true\" }",
            sets: [("Idade", "3")])
        #expect(answers.count == 3 && answers[2].contains("a célula “Idade” é somente leitura") && !answers[2].contains("Age"), "\(r.out)")
    }

    /// A switch takes the app's own Yes and No as a person types them (`ja`, `nein`), and anything else is
    /// refused in the app's language, naming the cell as its title shows it; so is an option a picker does not have.
    @Test func aSwitchTakesYesAndNoInTheAppsLanguage() throws {
        let (answers, r) = try detailAnswers(
            fields: "veggie = \"bool\"", name: "Suppe", language: "de", strings: "Veggie = \"Vegetarisch\", Kind = \"Art\"",
            cells: "okit.cell.switch { path = \"%Veggie\", onPath = \"veggie\" }, "
                + "okit.cell.picker { path = \"%Kind\", selectionPath = \"name\", optionValues = \"Suppe,Salat\" }",
            sets: [("Vegetarisch", "ja"), ("Vegetarisch", "vielleicht"), ("Vegetarisch", "Nein"), ("Art", "Brot")])
        #expect(answers.count == 6 && answers[2].hasPrefix("{\"ok\":true"), "ja: \(r.out)\(r.err)")
        #expect(answers.count == 6 && answers[3].contains("\"error\":\"Vegetarisch: „vielleicht“ ist weder ja noch nein\""), "\(r.out)")
        #expect(answers.count == 6 && answers[4].hasPrefix("{\"ok\":true"), "Nein: \(r.out)")
        // A picker's option that is not there: said in the app's language too, every text in its quotation marks.
        #expect(answers.count == 6 && answers[5].contains("„Art“ hat keine Option „Brot“ (Optionen: 1 „Suppe“, 2 „Salat“; geben Sie den Text einer Option oder ihre Position ab 1 an)"), "\(r.out)")
    }

    @Test func moreActionsWithoutATapEachAreACheckProblem() throws {
        let t = try TempApp(["app.lua": Self.app.replacingOccurrences(of: "cell = { path = \"name\" }",
            with: "cell = { path = \"name\" }, more = \"#true\", moreActions = \"#Eins,#Zwei,#Drei\", moreActionsTap = \"name\"")])
        try #require(OKitRun.isBuilt, "build okit-run first (swift build)")
        let r = try OKitRun.run(["check", t.folder.appendingPathComponent("app.lua").path])
        #expect(r.out.contains("screen items, property moreActionsTap: moreActions has 3 actions and moreActionsTap 1: actions 2, 3 do nothing when chosen"), "\(r.out)")
    }
}
