import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// Nothing a person types in an app file is dropped without a word (issue 36 items 1 and 2): an unknown name of a
/// field's table, of `okit.entity`'s options, of `okit.model` or `okit.app` stops the app at load (file:line:col,
/// the closest known name, what is taken); an unknown name in a screen's declaration is a warning at load and a
/// problem of `okit-run check` at its line and column.
@Suite struct DeclarationTypoTests {
    /// The load error of `source` (nil: it loaded).
    static func loadError(_ source: String, configure: (inout LuaAppOptions) -> Void = { _ in }) throws -> String? {
        let t = try TempApp(["app.lua": source])
        do { _ = try t.launch(configure: configure) } catch let e as AppLoadError { return e.message }
        return nil
    }

    static let visit = """
    okit.entity("Visit", {
      reason = { "string", requierd = true },
      fee = { "double", minimum = 0 },
      note = { "string", rules = { required = true } },
    })
    okit.entity("Clinic", { visits = "[Visit]" })
    clinic = okit.model("Clinic")
    """

    static let fieldKeys = "it takes default, didSet, required, min, max, maxLength, pattern, validate, message, label"

    @Test func eachUnknownNameOfAFieldTableIsALoadErrorAtItsName() throws {
        let lines = DeclarationTypoTests.visit.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func without(_ drop: [Int]) -> String { lines.enumerated().map { drop.contains($0.offset) ? "" : $0.element }.joined(separator: "\n") }
        // All at once, one line each, in the order they are written (by line, then column).
        #expect(try Self.loadError(without([])) == [
            "app.lua:2:24: okit.entity(\"Visit\"), field \"reason\": unknown key \"requierd\" (did you mean \"required\"?); \(Self.fieldKeys)",
            "app.lua:3:21: okit.entity(\"Visit\"), field \"fee\": unknown key \"minimum\" (did you mean \"min\"?); \(Self.fieldKeys)",
            "app.lua:4:22: okit.entity(\"Visit\"), field \"note\": unknown key \"rules\"; rules are written in the field's table itself, like { \"string\", required = true }; \(Self.fieldKeys)",
        ].joined(separator: "\n"))
        #expect(try Self.loadError(without([3])) == "app.lua:2:24: okit.entity(\"Visit\"), field \"reason\": unknown key \"requierd\" (did you mean \"required\"?); \(Self.fieldKeys)\n"
                + "app.lua:3:21: okit.entity(\"Visit\"), field \"fee\": unknown key \"minimum\" (did you mean \"min\"?); \(Self.fieldKeys)")
        #expect(try Self.loadError(without([2, 1])) == "app.lua:4:22: okit.entity(\"Visit\"), field \"note\": unknown key \"rules\"; rules are written in the field's table itself, like { \"string\", required = true }; \(Self.fieldKeys)")
        #expect(try Self.loadError(without([2, 3])) == "app.lua:2:24: okit.entity(\"Visit\"), field \"reason\": unknown key \"requierd\" (did you mean \"required\"?); \(Self.fieldKeys)")
        #expect(try Self.loadError(without([1, 2, 3])) == nil)
    }

    @Test func twoUnknownNamesInOneTableAreNamedTogether() throws {
        let field = """
        okit.entity("Visit", { fee = { "double", minimum = 0, maximun = 9 } })
        okit.entity("Clinic", { visits = "[Visit]" })
        clinic = okit.model("Clinic")
        """
        let fieldError = try #require(try Self.loadError(field))
        // `maximun` is a misspelled `maximum`, okit's `max`.
        #expect(fieldError.contains("unknown key \"maximun\" (did you mean \"max\"?); also unknown: \"minimum\" (did you mean \"min\"?)"), "\(fieldError)")
        let model = """
        okit.entity("Clinic", { name = "string" })
        clinic = okit.model("Clinic", { storag = "sqlite", encripted = true })
        """
        let error = try #require(try Self.loadError(model))
        #expect(error.contains("unknown option \"encripted\"") && error.contains("also unknown: \"storag\" (did you mean \"storage\"?)"), "\(error)")
    }

    @Test func everyKeyAFieldTableTakesStillLoads() throws {
        let source = """
        okit.entity("Visit", {
          fee = { "double", default = 1, min = 0, max = 900, message = "a fee", label = "Fee", didSet = function() end },
          reason = { "string", required = { true, message = "why?" }, maxLength = 40, pattern = "^%u",
                     validate = function(v) return true end },
        })
        okit.entity("Clinic", { visits = "[Visit]" })
        clinic = okit.model("Clinic")
        """
        #expect(try Self.loadError(source) == nil)
    }

    static let ruleTable = "a rule's own table is { value, message = \"…\" }"

    /// A rule's own table drops nothing either (the tester's ruletypo app): a misspelled name and a list item after
    /// the value (a message is named) stop the app at their line and column; every other field is still read.
    @Test func aRuleTablesUnknownNameOrSecondItemIsALoadErrorAtItsPlace() throws {
        let lines = [
            "okit.entity(\"B\", { copies = { \"int\", min = { 1, mesage = \"Al menos un ejemplar\" }, label = \"Copias\" },",
            "                   pages  = { \"int\", max = { 900, \"Como mucho 900\" }, label = \"Paginas\" } })",
            "okit.entity(\"R\", { bs = \"[B]\" })",
            "r = okit.model(\"R\")",
        ]
        let copies = "app.lua:1:49: okit.entity(\"B\"), field \"copies\", rule min: unknown key \"mesage\" (did you mean \"message\"?); "
            + "\(Self.ruleTable); it takes message"
        let pages = "app.lua:2:51: okit.entity(\"B\"), field \"pages\", rule max: a list item after the rule's value "
            + "(did you mean message = \"Como mucho 900\"?); \(Self.ruleTable)"
        #expect(try Self.loadError(lines.joined(separator: "\n")) == copies + "\n" + pages)
        let fixed = lines[0].replacingOccurrences(of: "mesage", with: "message")
        #expect(try Self.loadError(([fixed] + lines.dropFirst()).joined(separator: "\n")) == pages)
        let named = lines[1].replacingOccurrences(of: "900, \"Como", with: "900, message = \"Como")
        #expect(try Self.loadError([fixed, named, lines[2], lines[3]].joined(separator: "\n")) == nil)
        let wrong = "okit.entity(\"B\", { n = { \"int\", min = { 1, message = 2 } } })"
        #expect(try Self.loadError(wrong)?.contains("field \"n\": min's message must be a string") == true)
        let synonym = "okit.entity(\"B\", { n = { \"int\", required = { true, msg = \"x\" } } })"
        #expect(try Self.loadError(synonym)?.contains("rule required: unknown key \"msg\" (did you mean \"message\"?)") == true)
    }

    @Test func aListItemAfterTheTypeAndAnUnknownEntityOptionAreLoadErrors() throws {
        let item = """
        okit.entity("Visit", { fee = { "double", 0 } })
        """
        #expect(try Self.loadError(item)?.contains("field \"fee\": the long form is the type, then names") == true)
        let option = """
        okit.entity("Visit", { fee = "double" }, { primarykey = "visit_id" })
        """
        #expect(try Self.loadError(option) == "app.lua:1: okit.entity(\"Visit\"): unknown option \"primarykey\" (did you mean \"primaryKey\"?); it takes id, table, primaryKey, key")
    }

    @Test func anUnknownModelOrAppOptionIsALoadErrorAtItsName() throws {
        let model = """
        okit.entity("Visit", { fee = "double" })
        okit.entity("Clinic", { visits = "[Visit]" })
        clinic = okit.model("Clinic", { storag = "sqlite" })
        """
        let modelError = try #require(try Self.loadError(model))
        #expect(modelError.hasPrefix("app.lua:3:33: okit.model(\"Clinic\"): unknown option \"storag\" (did you mean \"storage\"?); it takes name, storage, seed, "), "\(modelError)")
        #expect(modelError.contains("database"), "the kinds' options are named: \(modelError)")
        let settings = """
        okit.entity("Clinic", { name = "string" })
        clinic = okit.model("Clinic")
        okit.model(okit.Settings, { storge = "file" })
        """
        let settingsError = try #require(try Self.loadError(settings))
        #expect(settingsError.hasPrefix("app.lua:3:29: okit.model(\"Settings\"): unknown option \"storge\""), "at the option's name: \(settingsError)")
        let app = """
        okit.entity("Clinic", { name = "string" })
        clinic = okit.model("Clinic")
        okit.detail("home", { titlePath = "name" })
        okit.app { hom = "home",
          autosave = 30 }
        """
        let appError = try #require(try Self.loadError(app))
        #expect(appError.hasPrefix("app.lua:4:12: okit.app: unknown option \"hom\" (did you mean \"home\"?); it takes id, home, menu, "), "\(appError)")
        let encrypted = """
        okit.entity("Clinic", { name = "string" })
        clinic = okit.model("Clinic")
        okit.app { encrypted = true }
        """
        #expect(try Self.loadError(encrypted)?.contains("unknown option \"encrypted\"") == true, "a model's own option, not the app's")
    }

    static let screens = """
    okit.entity("Visit", { reason = "string", date = "date" })
    okit.entity("Clinic", { visits = "[Visit]" })
    clinic = okit.model("Clinic")
    okit.list("visits", { dataPath = "visits", group = "reason", groupFootr = "%x",
      cell = { path = "reason", detailPth = "date" }, segue = "visit",
      buttons = { { title = "%Add", tapPth = "x" } } })
    okit.detail("visit", { titelPath = "reason", sections = { { heder = "%H",
      okit.cell.date { path = "%Date", dataPath = "date" } } } })
    okit.selection("pick", { dataPath = "/visits", cell = { path = "reason" }, selectionPth = "x" })
    okit.menu("menu", { dataPath = "/visits", items = { { title = "%Home", presnt = "visits" } } })
    okit.backups("backups", { secur = "#true" })
    okit.app { home = "visits", menu = "menu" }
    """

    @Test func checkReportsEveryUnknownScreenNameAtItsLineAndColumn() throws {
        let result = try CheckFindingsTests.check(Self.screens)
        let expected = [
            "app.lua:4:62: screen visits, property groupFootr: unknown property \"groupFootr\" (did you mean \"groupFooter\"?)",
            "app.lua:5:29: screen visits, property cell.detailPth: unknown property \"detailPth\" (did you mean \"detailPath\"?)",
            "app.lua:6:33: screen visits, property buttons[1].tapPth: unknown property \"tapPth\" (did you mean \"tapPath\"?)",
            "app.lua:7:24: screen visit, property titelPath: unknown property \"titelPath\" (did you mean \"titlePath\"?)",
            "app.lua:7:61: screen visit, property sections[1].heder: unknown property \"heder\" (did you mean \"header\"?)",
            "app.lua:8:36: screen visit, property cell Date.dataPath: unknown property \"dataPath\" (did you mean \"datePath\"?)",
            "app.lua:9:76: screen pick, property selectionPth: unknown property \"selectionPth\" (did you mean \"selectionPath\"?)",
            "app.lua:10:72: screen menu, property items[1].presnt: unknown property \"presnt\" (did you mean \"present\"?)",
            "app.lua:11:27: screen backups, property secur: unknown property \"secur\" (did you mean \"secure\"?)",
        ]
        #expect(result.problems == expected, "\(result.problems.joined(separator: "\n"))")
        #expect(result.summary.hasPrefix("app.lua: 9 problems in 5 screens"), "\(result.summary)")
    }

    @Test func unknownScreenNamesStayWarningsWhenTheAppLoads() throws {
        let t = try TempApp(["app.lua": Self.screens])
        let app = try t.launch()   // the load-time check does not stop the app for them
        // Said as the check says them: at the name, naming the screen and the cell (probe's item 10).
        #expect(app.engine.warnings.contains("app.lua:4:62: screen visits, property groupFootr: unknown property \"groupFootr\" (did you mean \"groupFooter\"?) (ignored)"),
                "\(app.engine.warnings)")
        #expect(app.engine.warnings.contains("app.lua:8:36: screen visit, property cell Date.dataPath: unknown property \"dataPath\" (did you mean \"datePath\"?) (ignored)"),
                "\(app.engine.warnings)")
        #expect(app.engine.warnings.contains("app.lua:7:61: screen visit, property sections[1].heder: unknown property \"heder\" (did you mean \"header\"?) (ignored)"),
                "\(app.engine.warnings)")
    }

    /// A list of texts where a property takes one text of several parts (`optionValues = {"Libro","Revista"}`) is
    /// refused with the text to write; another table only with what it got.
    @Test func aListOfTextsForAMultipartPropertyIsToldTheTextToWrite() throws {
        func app(_ value: String) -> String {
            """
            local okit = require "okit"
            okit.entity("A", { kind = "string" })
            okit.model("A")
            okit.detail("a", { sections = { {
              okit.cell.picker { path = "#Kind", selectionPath = "kind", optionValues = \(value) } } } })
            okit.list("l", { dataPath = "", searchFilters = \(value) })
            okit.app { home = "a" }
            """
        }
        let listOfTexts = try #require(try Self.loadError(app(#"{"Libro","Revista"}"#)))
        #expect(listOfTexts.contains("property optionValues: expected a binding string or a function, got table; a property of several parts is one text, its parts separated by commas: write \"Libro,Revista\""), "\(listOfTexts)")
        let other = try #require(try Self.loadError(app("{ a = 1 }")))
        #expect(other.hasSuffix("property optionValues: expected a binding string or a function, got table"), "\(other)")
    }

    /// A misspelled cell property is said as unknown whatever its value (`optoins = 3` was refused as "expected a
    /// binding string"), and an error in a cell names the line the cell is written on, not the screen's first.
    @Test func aCellsUnknownNameIsUnknownWhateverItsValueAndACellsErrorNamesItsLine() throws {
        let head = """
        local okit = require "okit"
        okit.entity("A", { name = "string", kind = "string" })
        okit.model("A")
        okit.detail("a", { sections = { {
          okit.cell.text { path = "#Name", textPath = "name" },

        """
        let tail = "\n} } })\nokit.app { home = \"a\" }\n"
        let t = try TempApp(["app.lua": head + ##"  okit.cell.text { path = "#Name", textPath = "name", optoins = 3 },"## + tail])
        let app = try t.launch()
        #expect(app.engine.warnings.contains { $0.hasPrefix("app.lua:6:55: screen a, property cell Name.optoins: unknown property \"optoins\"") },
                "\(app.engine.warnings)")
        let wrong = try #require(try Self.loadError(head + ##"  okit.cell.text { path = "#Kind", textPath = 3 },"## + tail))
        #expect(wrong.contains("app.lua:6:47: okit.detail(\"a\"), okit.cell.text, property textPath: expected a binding string or a function, got number"),
                "\(wrong)")
    }

    /// A picker with neither `dataPath` nor `optionValues` offers nothing to choose: the check says so at the cell.
    @Test func checkNamesAPickerWithoutOptions() throws {
        let result = try CheckFindingsTests.check("""
        local okit = require "okit"
        okit.entity("A", { kind = "string" })
        okit.model("A")
        okit.detail("a", { sections = { {
          okit.cell.picker { path = "#Kind", selectionPath = "kind" } } } })
        okit.app { home = "a" }
        """)
        #expect(result.problems == ["app.lua:5:20: screen a, property cell Kind.dataPath: a picker without options: give dataPath "
                                    + "(the entities to choose from) or optionValues (texts, \"Book,Journal\")"],
                "\(result.problems)")
    }
}
