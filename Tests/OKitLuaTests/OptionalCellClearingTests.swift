import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// What a new user met in a German app: an optional date (`date?`) could not be cleared — `set Due ""` said
/// `„“ ist kein Datum …` and JSON's null `cell "Due" takes an okit.date …` — while a text cell on `string?` clears
/// its field. Every edit cell on an optional field now clears it (nil) for an empty text or null (a date, a switch
/// on `bool?`, a stepper on `int?`); a date that is not optional refuses it in the app's language. And a cell is
/// named by the title a person sees (`Menge` for `%Amount`), which a refusal lists instead of internal ids.
@Suite struct OptionalCellClearingTests {
    static let app = """
    local okit = require "okit"
    okit.strings("de", { Amount = "Menge", Due = "Fällig", Start = "Beginn", Flag = "Markiert", Steps = "Schritte",
      Price = "Preis" })
    okit.entity("Task", { title = "string", due = "date?", start = "date", flag = "bool?", amount = "int?",
      steps = "int", price = "double?" })
    okit.entity("Root", { task = "Task" })
    root = okit.model("Root", { seed = function(r)
      r.task = okit.new("Task", { title = "Dune", start = "2019-05-01T10:00:00Z", steps = 3 }) end })
    okit.detail("task", { contextPath = "task", editAlways = "#true", sections = { {
      okit.cell.text { path = "#Title", textPath = "title" },
      okit.cell.date { path = "%Due", datePath = "due" },
      okit.cell.date { path = "%Start", datePath = "start" },
      okit.cell.switch { path = "%Flag", onPath = "flag" },
      okit.cell.stepper { path = "%Amount", valuePath = "amount" },
      okit.cell.stepper { path = "%Steps", valuePath = "steps" },
      okit.cell.text { path = "%Price", textPath = "price" } } } })
    okit.app { home = "task" }
    """

    func launch() throws -> (TempApp, LuaApp) {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch { $0.language = "de" }
        return (t, app)
    }

    /// The task's field as Lua sees it (`nil` when cleared).
    func field(_ app: LuaApp, _ name: String) throws -> Value {
        try app.engine.get(nil, "/task.\(name)")
    }

    @Test func anOptionalDateIsClearedByAnEmptyTextOrNull() throws {
        let (_, app) = try launch()
        for empty: Value in [.string(""), .string("  "), .null] {
            try app.driver.run("set", ["cell": .string("Due"), "value": .string("2020-01-02")])
            #expect(try !field(app, "due").isNull)
            try app.driver.run("set", ["cell": .string("Fällig"), "value": empty])
            #expect(try field(app, "due").isNull, "\(empty) clears the date")
        }
        let row = try #require(try app.shell.snapshot().screen.sections.first?.rows.first { $0.id == "Due" })
        #expect(row.detail == nil && row.control?.value == SnapshotValue.null)
    }

    @Test func aDateThatIsNotOptionalRefusesAnEmptyValueInTheAppsLanguage() throws {
        let (_, app) = try launch()
        for empty: Value in [.string(""), .null] {
            do { try app.driver.run("set", ["cell": .string("Beginn"), "value": empty]); Issue.record("taken") } catch {
                #expect("\(error)" == "Beginn ist erforderlich")
            }
        }
        #expect(try !field(app, "start").isNull, "nothing changed")
    }

    @Test func optionalSwitchesAndSteppersAreClearedLikeTexts() throws {
        let (_, app) = try launch()
        try app.driver.run("set", ["cell": .string("Markiert"), "value": .bool(true)])
        try app.driver.run("set", ["cell": .string("Menge"), "value": .int(4)])
        try app.driver.run("set", ["cell": .string("Preis"), "value": .string("12,5")])
        #expect(try field(app, "flag").truthy && field(app, "amount").intValue == 4 && field(app, "price").doubleValue == 12.5)
        try app.driver.run("set", ["cell": .string("Markiert"), "value": .string("")])
        try app.driver.run("set", ["cell": .string("Menge"), "value": .null])
        try app.driver.run("set", ["cell": .string("Preis"), "value": .null])
        #expect(try field(app, "flag").isNull && field(app, "amount").isNull && field(app, "price").isNull)
        // Fields that are not optional refuse it as any text that is no number, as a text cell does.
        do { try app.driver.run("set", ["cell": .string("Schritte"), "value": .string("")]); Issue.record("taken") } catch {
            #expect("\(error)" == "Schritte: „“ ist keine Zahl wie 1.234")
        }
        #expect(try field(app, "steps").intValue == 3)
    }

    @Test func aCellIsNamedByItsShownTitleAndARefusalListsTheShownTitles() throws {
        let (_, app) = try launch()
        try app.driver.run("set", ["cell": .string("Menge"), "value": .int(5)])
        try app.driver.run("set", ["cell": .string("Amount"), "value": .int(6)])
        #expect(try field(app, "amount").intValue == 6, "the title as shown and the id both name it")
        do { try app.driver.run("set", ["cell": .string("Mange"), "value": .int(5)]); Issue.record("taken") } catch {
            #expect("\(error)" == "no cell \"Mange\" (did you mean \"Menge\"? cells: Title, Fällig, Beginn, Markiert, Menge, Schritte, Preis)")
        }
    }

    @Test func aTitleSeveralCellsShowIsListedWithEachPosition() {
        let names = DetailScreen.shownNames([(0, "Amount", "Menge"), (0, "Note", nil), (0, "Amount#2", "Menge"), (0, "x", "")])
        #expect(names == ["Menge (1)", "Note", "Menge (3)", "x"])
    }
}
