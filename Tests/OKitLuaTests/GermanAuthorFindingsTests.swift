import Foundation
@testable import OKitEngine
@testable import OKitLua
import Testing

/// What a German author writing from the docs met (a club's cash book, "Vereinskasse"): each mistake said at its
/// line and column with what to write, okit's own marks never shown, and `check` quiet about German field names
/// in an app written in German.
@Suite struct GermanAuthorFindingsTests {
    static let verein = """
    local okit = require "okit"
    okit.entity("Mitglied", { name = "string", beitrag = "double", eintritt = "date", aktiv = "bool" })
    okit.entity("Verein", { mitglieder = "[Mitglied]" })
    verein = okit.model("Verein")

    """

    /// One pair of braces too few: a cell where a section belongs stops the load at it (the screen would be empty),
    /// in `check` too, and no `__okit_` name is printed anywhere.
    @Test func aCellWhereASectionBelongsIsALoadErrorAtIt() throws {
        let app = Self.verein + """
        okit.list("l", { dataPath = "mitglieder", cell = { path = "name" }, segue = "d" })
        okit.detail("d", { sections = { okit.cell.text { path = "%Name", textPath = "name" } } })
        okit.app { id = "x", home = "l" }
        """
        #expect(try DeclarationTypoTests.loadError(app) == "app.lua:6:48: okit.detail(\"d\"): sections[1] is a cell; a section is a table "
            + "of cells: write sections = { { okit.cell.text {…} } }")
        let check = try CheckFindingsTests.check(app.replacingOccurrences(of: "sections = { okit", with: "sections = { { okit")
            .replacingOccurrences(of: "} } })", with: "} } } })"))
        #expect(check.problems == [], "\(check.problems)")
    }

    /// A cell given where a bar button belongs is named by its properties, never by okit's marks on its table.
    @Test func okitsMarksOnACellTableAreNeverNamed() throws {
        let result = try CheckFindingsTests.check(Self.verein + """
        okit.list("l", { dataPath = "mitglieder", cell = { path = "name" },
          buttons = { okit.cell.text { title = "#Neu", tapPth = "x" } } })
        okit.app { id = "x", home = "l" }
        """)
        #expect(!result.problems.joined().contains("__okit"), "\(result.problems)")
        #expect(result.problems.contains { $0.contains("buttons[1].tapPth: unknown property \"tapPth\"") }, "\(result.problems)")
    }

    /// `anteile = { "int", min = 0 }` in an app written in German: its derived label `Anteile` is the author's word,
    /// not reported in German; still in French, whose strings the app gives too.
    @Test func aDerivedLabelInTheAppsOwnLanguageIsNotReported() throws {
        let app = """
        local okit = require "okit"
        okit.locale { language = "de", region = "DE" }
        okit.entity("Mitglied", { name = { "string", required = true }, anteile = { "int", min = 0, max = 10 } })
        okit.entity("Verein", { mitglieder = "[Mitglied]" })
        okit.model("Verein")
        okit.list("l", { dataPath = "mitglieder", titlePath = "%Mitglieder", cell = { path = "name" } })
        okit.app { home = "l" }
        okit.strings("de", { Mitglieder = "Mitglieder" })
        """
        #expect(try CheckFindingsTests.check(app).problems == [])
        let french = try CheckFindingsTests.check(app + "\nokit.strings(\"fr\", { Mitglieder = \"Membres\" })")
        let fields = french.problems.map { $0.components(separatedBy: " has no string in").first ?? $0 }
        #expect(fields == ["app.lua:3:27: field \"name\" of Mitglied", "app.lua:3:65: field \"anteile\" of Mitglied"], "\(french.problems)")
        #expect(french.problems.allSatisfy { $0.contains("has no string in \"fr\"") }, "\(french.problems)")
        // Without okit.locale the app is in English, and German is held to it as before.
        let english = try CheckFindingsTests.check(app.replacingOccurrences(of: "okit.locale { language = \"de\", region = \"DE\" }", with: ""))
        #expect(english.problems.contains { $0.contains("field \"anteile\" of Mitglied has no string in \"de\"") }, "\(english.problems)")
    }

    /// A German number, date or yes written from Lua is refused with how Lua writes it, at the value.
    @Test(arguments: [
        ("beitrag = \"12,50\"", "cannot write \"12,50\" to field \"beitrag\" of type double; write the number as Lua writes it, without quotes: beitrag = 12.5"),
        ("beitrag = \"1.234,56\"", "; write the number as Lua writes it, without quotes: beitrag = 1234.56"),
        ("eintritt = \"03.12.2026\"", "; Lua code writes a date as ISO 8601 text, year first: eintritt = \"2026-12-03\" (or an okit.Date: okit.date.parse(…), okit.date.now())"),
        ("eintritt = \"03.12.2026 14:30\"", "eintritt = \"2026-12-03T14:30:00+01:00\""),
        ("aktiv = \"ja\"", "cannot write \"ja\" to field \"aktiv\" of type bool; a bool field takes true or false, without quotes: aktiv = true"),
        ("aktiv = \"nein\"", "aktiv = false"),
    ])
    func aGermanValueWrittenFromLuaSaysHowLuaWritesIt(_ field: String, _ advice: String) throws {
        let app = Self.verein.replacingOccurrences(of: "okit.entity(\"Mitglied\"", with: "okit.locale { language = \"de\", timeZone = \"Europe/Berlin\" }\nokit.entity(\"Mitglied\"")
            + "verein.mitglieder:append(okit.new(\"Mitglied\", { name = \"A\", \(field) }))\n"
        let error = try #require(try DeclarationTypoTests.loadError(app))
        // At the value's opening quote.
        let column = Self.column(of: field, in: app, line: 6) + field.distance(from: field.startIndex, to: field.firstIndex(of: "\"")!)
        #expect(error.hasPrefix("app.lua:6:\(column): "), "\(error)")
        #expect(error.contains(advice), "\(error)")
        // An assignment says the same at its value.
        let assigned = try #require(try DeclarationTypoTests.loadError(Self.verein.replacingOccurrences(of: "okit.entity(\"Mitglied\"", with: "okit.locale { language = \"de\", timeZone = \"Europe/Berlin\" }\nokit.entity(\"Mitglied\"")
            + "local m = okit.new(\"Mitglied\", { name = \"A\" })\nm.\(field)\n"))
        #expect(assigned.hasPrefix("app.lua:7:"), "\(assigned)")
        #expect(assigned.contains(advice), "\(assigned)")
    }

    /// The 1-based column of `needle` on a line of `text`.
    static func column(of needle: String, in text: String, line: Int) -> Int {
        let l = text.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        guard let r = l.range(of: needle) else { return 0 }
        return l.distance(from: l.startIndex, to: r.lowerBound) + 1
    }

    /// An English app reads `03.12.2026` month first: no date is guessed, the form is said.
    @Test func aDateInAnEnglishAppGetsTheFormNotAGuess() throws {
        let error = try #require(try DeclarationTypoTests.loadError(Self.verein + "okit.new(\"Mitglied\", { eintritt = \"03.12.2026\" })\n"))
        #expect(error.contains("; Lua code writes a date as ISO 8601 text, year first (eintritt = \"2026-12-03\"), an okit.Date"), "\(error)")
    }

    /// A Lua boolean for a flag: at its column, with the flag's constant to write.
    @Test(arguments: [("add = false", "add", "#false"), ("delete = true", "delete", "#true")])
    func aLuaBooleanForAFlagSaysTheConstant(_ flag: String, _ name: String, _ constant: String) throws {
        let app = Self.verein + "okit.list(\"l\", { dataPath = \"mitglieder\", cell = { path = \"name\" }, \(flag) })\nokit.app { home = \"l\" }\n"
        let error = try #require(try DeclarationTypoTests.loadError(app))
        let column = Self.column(of: flag, in: app, line: 5) + name.count + 3   // at the value, after "name = "
        #expect(error == "app.lua:5:\(column): okit.list(\"l\"), property \(name): expected a binding string or a function, got boolean; "
            + "write \"\(constant)\" (a flag's constant is a binding text)")
        // In a cell and a section too.
        let cell = try #require(try DeclarationTypoTests.loadError(Self.verein + """
        okit.detail("d", { sections = { { showDisplay = false, okit.cell.switch { path = "%Aktiv", onPath = "aktiv", readOnly = true } } } })
        """))
        #expect(cell.hasPrefix("app.lua:5:"), "\(cell)")
        #expect(cell.contains("write \"#"), "\(cell)")
        // A cell made apart is named at the line of its okit.cell.* call.
        let apart = try #require(try DeclarationTypoTests.loadError(Self.verein + """
        local aktiv = okit.cell.switch { path = "%Aktiv", onPath = "aktiv", readOnly = true }
        okit.detail("d", { sections = { { aktiv } } })
        """))
        #expect(apart == "app.lua:5: okit.detail(\"d\"), okit.cell.switch, property readOnly: expected a binding string or a function, "
            + "got boolean; write \"#true\" (a flag's constant is a binding text)", "\(apart)")
    }

    /// `add = "#nein"` is always on: `check`'s problem, and a warning when the app loads (it runs as OKit runs it).
    @Test func aFlagConstantThatIsAlwaysOnWarnsAtLoad() throws {
        let app = Self.verein + "okit.list(\"l\", { dataPath = \"mitglieder\", cell = { path = \"name\" }, add = \"#nein\" })\nokit.app { home = \"l\" }\n"
        let expected = "app.lua:5:\(Self.column(of: "#nein", in: app, line: 5)): screen l, property add: \"#nein\" is always on: a flag is off only for #false, #no or #0 "
            + "(any other text is on); did you mean \"#false\"?"
        #expect(try CheckFindingsTests.check(app).problems == [expected])
        let loaded = try TempApp(["app.lua": app]).launch()
        #expect(loaded.engine.warnings.contains(expected), "\(loaded.engine.warnings)")
        // With --no-check the screens are not checked at load: no warning.
        let unchecked = try TempApp(["app.lua": app]).launch { $0.checkBindings = false }
        #expect(!unchecked.engine.warnings.contains(expected))
    }

    /// `okit.app { lang = "de" }` points at okit.locale and --lang.
    @Test func aLanguageGivenToOkitAppPointsAtOkitLocale() throws {
        let error = try #require(try DeclarationTypoTests.loadError(Self.verein + "okit.app { lang = \"de\" }\n"))
        #expect(error.hasPrefix("app.lua:5:12: okit.app: unknown option \"lang\"; the app's language is okit.locale { language = \"de\" } "
            + "(or okit-run --lang de for one run); it takes id, "), "\(error)")
    }

    /// A text in double quotes inside an expression (or a function's argument) is said in single quotes.
    @Test(arguments: [
        ("=beitrag * 12 .. \\\" € im Jahr\\\"", "unexpected \"\"\" at column 18; texts in expressions are in single quotes: write ' € im Jahr'"),
        ("eintritt/format(\\\"yyyy\\\")", "unexpected \"\"\" at column 17; texts in bindings are in single quotes: write 'yyyy'"),
    ])
    func aDoubleQuotedTextInABindingIsSaidInSingleQuotes(_ binding: String, _ said: String) throws {
        let error = try #require(try DeclarationTypoTests.loadError(Self.verein
            + "okit.list(\"l\", { dataPath = \"mitglieder\", cell = { path = \"name\", detailPath = \"\(binding)\" } })\n"))
        #expect(error.hasSuffix(said), "\(error)")
    }
}
