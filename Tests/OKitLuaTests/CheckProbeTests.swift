import Foundation
import OKitEngine
import OKitTestSupport
import Testing
@testable import OKitLua

/// What an outside user's probe of `okit-run check` found that check and the run missed (/tmp/probe-check): each
/// is a problem of check at its place, and the run agrees (an error, or a warning when OKit runs on).
@Suite struct CheckProbeTests {
    static let head = """
    local okit = require "okit"
    okit.entity("Author", { name = "string" })
    okit.entity("Book", { title = "string", pages = "int", added = "date", author = "ref Author" })
    okit.entity("Library", { name = "string", books = "[Book]", authors = "[Author]" })

    """

    /// `okit.model`'s own options of the wrong type are refused at the value, as an unknown storage kind is.
    @Test(arguments: [
        ("storage = 5", "app.lua:5:41: okit.model(\"Library\"): storage must be a storage kind in quotes"),
        ("storage = true", "app.lua:5:41: okit.model(\"Library\"): storage must be a storage kind in quotes"),
        ("name = 7", "app.lua:5:38: okit.model(\"Library\"): name must be a name in quotes, not a number; write it like name = \"directory\""),
        ("seed = \"text\"", "app.lua:5:39: okit.model(\"Library\"): seed must be a function(root), not a string"),
        ("storage = \"sqllite\"", "app.lua:5:42: okit.model(\"Library\"): unknown storage \"sqllite\" (did you mean \"sqlite\"?)"),
    ])
    func aModelOptionOfTheWrongTypeIsAnErrorAtItsValue(option: String, expected: String) throws {
        let message = try #require(try DeclarationTypoTests.loadError(Self.head + "lib = okit.model(\"Library\", { \(option) })\n"))
        #expect(message.hasPrefix(expected), "\(message)")
    }

    /// Constants a property cannot take: problems of check at the value, warnings of the run (which runs as OKit:
    /// the default, a step of 1, no accessory).
    @Test func constantsAPropertyCannotTakeAreProblemsAndWarnings() throws {
        let source = Self.head + """
        lib = okit.model("Library")
        okit.list("books", { dataPath = "books", cell = { path = "title", accyPath = "#checkmrk" }, segue = "book" })
        okit.detail("book", { sections = { {
          okit.cell.stepper { path = "#Pages", valuePath = "pages", maxValuePath = "#lots", stepValuePath = "#-5" },
          okit.cell.date { path = "#Added", datePath = "added", modePath = "#7" },
          okit.cell.table { path = "#Fine", accyPath = "#checkmark" },
        } } })
        okit.app { home = "books" }
        """
        let check = try CheckFindingsTests.check(source)
        let problems = check.problems.joined(separator: "\n")
        #expect(check.problems.count == 4, "\(problems)")
        #expect(problems.contains("app.lua:6:79: screen books, property cell.accyPath: \"#checkmrk\" is no accessory (did you mean \"checkmark\"?), so the cell shows none"), "\(problems)")
        #expect(problems.contains("app.lua:8:77: screen book, property cell Pages.maxValuePath: \"#lots\" is not a number"), "\(problems)")
        #expect(problems.contains("app.lua:8:102: screen book, property cell Pages.stepValuePath: a step of -5 is not above 0"), "\(problems)")
        #expect(problems.contains("app.lua:9:69: screen book, property cell Added.modePath: \"#7\" is no date picker mode"), "\(problems)")
        let t = try TempApp(["app.lua": source])
        let app = try t.launch()   // OKit runs on: warnings, not a stop
        #expect(app.engine.warnings.filter { $0.contains("accyPath") || $0.contains("ValuePath") || $0.contains("modePath") }.count == 4,
                "\(app.engine.warnings)")
    }

    /// A list's or a picker's dataPath that reaches a scalar, not a collection: a problem of check, a warning of
    /// the run (the list shows no rows, as OKit's).
    @Test func aDataPathReachingAScalarIsAProblem() throws {
        let source = Self.head + """
        lib = okit.model("Library")
        okit.list("authors", { dataPath = "name", cell = { path = "name" } })
        okit.detail("book", { sections = { {
          okit.cell.picker { path = "#Author", dataPath = "title", namePath = "name", selectionPath = "author" },
        } } })
        okit.list("books", { dataPath = "books", cell = { path = "title" }, segue = "book" })
        okit.app { home = { "books", "authors" } }
        """
        let problems = try CheckFindingsTests.check(source).problems
        #expect(problems == [
            "app.lua:6:36: screen authors, property dataPath: a list's rows are the elements of a list; \"name\" on Library is a string, not a list: bind it to a list field, like \"authors\" or \"books\"",
            "app.lua:8:52: screen book, property cell Author.dataPath: a picker's options are the elements of a list; \"title\" on Book is a string, not a list: bind it to a list field (\"[T]\" or \"{T}\"), or a path to one (\"/authors\")",
        ], "\(problems.joined(separator: "\n"))")
        let t = try TempApp(["app.lua": source])
        let app = try t.launch()
        #expect(app.engine.warnings.contains("app.lua:6:36: screen authors, property dataPath: a list's rows are the elements of a list; \"name\" on Library is a string, not a list: bind it to a list field, like \"authors\" or \"books\""),
                "\(app.engine.warnings)")
    }

    /// Cells a helper function builds: a problem is placed at the binding's string (or the name) where the
    /// helper was called, not at the screen's first line.
    @Test func aCellAHelperBuiltIsPlacedWhereTheHelperWasCalled() throws {
        let helpers = """
        local okit = require "okit"
        local M = {}
        function M.field(label, path, extra)
          local c = { path = label, textPath = path }
          for k, v in pairs(extra or {}) do c[k] = v end
          return okit.cell.text(c)
        end
        return M
        """
        let source = Self.head + """
        lib = okit.model("Library")
        local h = require "helpers"
        okit.detail("book", { sections = { {
          h.field("#Title", "title"),
          h.field("#Price", "prise"),
          h.field("#Pages", "pages", { placeholdr = "#0" }),
        } } })
        okit.list("books", { dataPath = "books", cell = { path = "title" }, segue = "book" })
        okit.app { home = "books" }
        """
        let problems = try CheckFindingsTests.check(source, files: ["helpers.lua": helpers]).problems
        #expect(problems == [
            "app.lua:9:22: screen book, property cell Price.textPath: Book has no field \"prise\"",
            "app.lua:10:32: screen book, property cell Pages.placeholdr: unknown property \"placeholdr\" (did you mean \"placeholder\"?)",
        ], "\(problems.joined(separator: "\n"))")
    }

    /// A capitalised text that names no field, where a text is shown: the `%`/`#` advice, as bar buttons get.
    @Test func aCapitalisedTitleThatIsNoFieldIsToldHowToWriteAText() throws {
        let source = Self.head + """
        lib = okit.model("Library")
        okit.list("authors", { dataPath = "authors", titlePath = "Authors", cell = { path = "name" } })
        okit.app { home = "authors" }
        """
        let problems = try CheckFindingsTests.check(source).problems
        #expect(problems == [
            "app.lua:6:59: screen authors, property titlePath: Library has no field \"Authors\" (did you mean \"authors\"?); titlePath is a binding: if \"Authors\" is the text, write \"%Authors\" (localized) or \"#Authors\" (as it is)",
        ], "\(problems.joined(separator: "\n"))")
    }

    /// A function of the whole standard library the sandbox leaves out: said, with --unsafe.
    @Test func aSandboxedFunctionIsToldOutsideTheSandbox() throws {
        let message = try #require(try DeclarationTypoTests.loadError("local home = os.getenv(\"HOME\")\n"))
        #expect(message.contains("app.lua:1: attempt to call a nil value (field 'getenv')\n  os.getenv is outside okit's sandbox"), "\(message)")
        #expect(message.contains("okit-run --unsafe gives app code the whole Lua standard library"), "\(message)")
        let global = try #require(try DeclarationTypoTests.loadError("local f = io.open(\"x\")\n"))
        #expect(global.contains("io is outside okit's sandbox"), "\(global)")
        #expect(try DeclarationTypoTests.loadError("local home = os.getenv(\"HOME\")\n") { $0.unsafe = true } == nil)
    }

    /// Every field problem of one okit.entity call is said at once, in the order they are written.
    @Test func everyFieldProblemOfOneEntityIsSaidTogether() throws {
        let message = try #require(try DeclarationTypoTests.loadError("""
        okit.entity("Book", {
          title = { "string", requird = true },
          pages = 5,
          kind = { "string", default = "Novel" },
        })
        """))
        let lines = message.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(message)")
        #expect(lines.first?.hasPrefix("app.lua:2:23: okit.entity(\"Book\"), field \"title\": unknown key \"requird\"") == true, "\(message)")
        #expect(lines.last?.hasPrefix("app.lua:3:3: okit.entity(\"Book\"), field \"pages\"") == true, "\(message)")
    }

    /// The probe's smaller findings: a column on the errors that lacked one, a number where a binding belongs, a
    /// list preferred for `home` when as near as a detail, a language tag whose region is none.
    @Test func smallerFindingsAreSaidAtTheirPlaceWithWhatToWrite() throws {
        let model = Self.head + "lib = okit.model(\"Library\")\n"
        let twice = try #require(try DeclarationTypoTests.loadError(model + """
        okit.list("books", { dataPath = "books", cell = { path = "title" } })
        okit.list("books", { dataPath = "books", cell = { path = "title" } })
        """))
        #expect(twice.hasPrefix("app.lua:7:12: okit.list: screen \"books\" is declared twice"), "\(twice)")
        let autosave = try #require(try DeclarationTypoTests.loadError(model + "okit.app { autosave = \"often\" }\n"))
        #expect(autosave.hasPrefix("app.lua:6:24: okit.app: autosave must be a number of seconds > 0, like autosave = 30"), "\(autosave)")
        let number = try #require(try DeclarationTypoTests.loadError(model + """
        okit.detail("book", { sections = { { okit.cell.stepper { path = "#Pages", valuePath = "pages", maxValuePath = 2000 } } } })
        """))
        #expect(number.contains("property maxValuePath: expected a binding string or a function, got number; write \"#2000\""), "\(number)")
        let region = try #require(try DeclarationTypoTests.loadError(model + "okit.locale { language = \"en-UK\" }\n"))
        #expect(region.hasPrefix("app.lua:6:27: okit.locale: language: \"en-UK\": \"UK\" is not a region code: write en-GB (United Kingdom)"), "\(region)")
        #expect(try DeclarationTypoTests.loadError(model + "okit.locale { language = \"en-GB\" }\n") == nil)
        let home = try CheckFindingsTests.check(model + """
        okit.list("books", { dataPath = "books", cell = { path = "title" }, segue = "book" })
        okit.detail("book", { sections = { { okit.cell.text { path = "#Title", textPath = "title" } } } })
        okit.app { home = "bookz" }
        """).problems
        #expect(home == ["app.lua:8:20: screen okit.app, property home: no screen \"bookz\" is declared (did you mean \"books\"?)"], "\(home)")
    }
}
