import Foundation
import OKitEngine
import Testing
@testable import OKitLua

/// What a porter of an OKit app found (/tmp/probe-okit): a more sheet whose last action has no tap part refused the
/// app though OKit aligns the parts by index; a header of several plain words got a bare parse error; a detail
/// cell whose title is its value ("9", a stepper's) was listed by that value where its id addresses it.
@Suite struct PorterFindingsTests {
    static let items = """
    local okit = require "okit"
    okit.entity("Item", { name = "string", n = "int", flag = "bool",
      activate = function(self) self.flag = true end, bump = function(self) self.n = self.n + 1 end })
    okit.entity("Root", { items = "[Item]" })
    root = okit.model("Root", { seed = function(r) r.items:append(okit.new("Item", { name = "Apple", n = 9 })) end })
    okit.list("items", { dataPath = "items", cell = { path = "name" }, segue = "item",
      more = "#true", moreActions = "#Activate,#Bump,#Hidden", moreActionsTap = "activate,bump()", moreActionsEnabled = "ENABLED" })
    okit.detail("item", { titlePath = "name", sections = { { okit.cell.text { path = "%Name", textPath = "name" },
      okit.cell.stepper { path = "n", valuePath = "n" } } } })
    okit.app { home = "items" }
    """

    static func items(enabled: String) -> String { items.replacingOccurrences(of: "ENABLED", with: enabled) }

    /// OKit's pattern: the third action has no tap and is disabled by a constant, so it is never shown: nothing to
    /// say, and the app runs.
    @Test func aDisabledActionWithoutATapIsNoProblem() throws {
        let check = try CheckFindingsTests.check(Self.items(enabled: ",,#false"))
        #expect(check.problems.isEmpty, "\(check.problems)")
        let t = try TempApp(["app.lua": Self.items(enabled: ",,#false")])
        let app = try t.launch()
        app.installAppGlobal()
        #expect(!app.engine.warnings.joined().contains("moreActionsTap"), "\(app.engine.warnings)")
        try app.run("""
        local s = app:more("Apple")
        assert(table.concat(s.alert.actions, ",") == "Activate,Bump,Cancel", table.concat(s.alert.actions, ","))
        app:respond("Bump")
        assert(app.models.default.items[1].n == 10)
        """)
    }

    /// An action that is shown and has no tap: a problem of check, a warning of the run, which loads; chosen, it
    /// does nothing (as OKit's).
    @Test func aShownActionWithoutATapIsAWarningAndTheAppRuns() throws {
        let source = Self.items(enabled: ",,flag")
        let check = try CheckFindingsTests.check(source)
        #expect(check.problems.count == 1 && check.problems[0].hasSuffix(
            "screen items, property moreActionsTap: moreActions has 3 actions and moreActionsTap 2: action 3 does nothing "
            + "when chosen; give each action its tap, in the same order (or disable it: moreActionsEnabled part \"#false\")"),
                "\(check.problems)")
        let t = try TempApp(["app.lua": source])
        let app = try t.launch()
        app.installAppGlobal()
        #expect(app.engine.warnings.contains { $0.contains("action 3 does nothing when chosen") }, "\(app.engine.warnings)")
        try app.run("""
        app:more("Apple"); app:respond("Activate")
        local s = app:more("Apple")
        assert(table.concat(s.alert.actions, ",") == "Activate,Bump,Hidden,Cancel", table.concat(s.alert.actions, ","))
        s = app:respond("Hidden")
        assert(s.alert == nil and app.models.default.items[1].n == 9)
        """)
    }

    /// `header = "In stock"` does not parse; the refusal says how to write the text, as `header = "Stock"` is told.
    @Test func aHeaderOfPlainWordsIsToldToWriteATextAsOneWordIs() throws {
        let source = """
        local okit = require "okit"
        okit.entity("Book", { name = "string" })
        okit.entity("Shop", { books = "[Book]" })
        okit.model("Shop")
        okit.detail("book", { contextPath = "books[0]", sections = { { header = "In stock",
          okit.cell.table { path = "name" } } } })
        okit.list("books", { dataPath = "books", cell = { path = "name", detailPath = "Not here" } })
        okit.app { home = "book" }
        """
        let message = try #require(try DeclarationTypoTests.loadError(source))
        #expect(message.hasPrefix(##"app.lua:5:77: okit.detail("book"), sections[1].header: binding "In stock": unexpected "s" at column 4; header is a binding: if "In stock" is the text, write "%In stock" (localized) or "#In stock" (as it is)"##),
                "\(message)")
        let list = try #require(try DeclarationTypoTests.loadError(source.replacingOccurrences(of: "header = \"In stock\",", with: "")))
        #expect(list.contains(##"detailPath is a binding: if "Not here" is the text, write "%Not here" (localized) or "#Not here" (as it is)"##), "\(list)")
        // Not a text property: no advice on texts.
        let tap = try #require(try DeclarationTypoTests.loadError(source.replacingOccurrences(of: "header = \"In stock\",", with: "")
            .replacingOccurrences(of: "detailPath = \"Not here\"", with: "tap = \"do it\"")))
        #expect(!tap.contains("is the text"), "\(tap)")
    }

    /// A cell whose title is its value (`path = "n"` shows 9): a refusal lists it by its id, which keeps addressing
    /// it; its shown number addresses it (as text, and as a position past the cells), and its id does.
    @Test func aCellTitledByItsValueIsListedByItsIdAndAddressedByItsText() throws {
        let t = try TempApp(["app.lua": Self.items(enabled: "")])
        let app = try t.launch()
        app.installAppGlobal()
        try app.run("""
        app:tap("Apple"); app:edit(true)
        local ok, e = pcall(app.set, app, "Nope", 1)
        assert(not ok and tostring(e):find('no cell "Nope" (did you mean "Name"? cells: Name, n)', 1, true), tostring(e))
        app:set("9", 4)
        assert(app.models.default.items[1].n == 4)
        ok, e = pcall(app.set, app, "9", 1)
        assert(not ok and tostring(e):find('no cell "9" (cells: Name, n)', 1, true), tostring(e))
        app:set(4, 5)
        assert(app.models.default.items[1].n == 5, "a position past the cells that is a cell's text names it")
        app:set("n", 6)
        assert(app.models.default.items[1].n == 6)
        """)
    }
}
