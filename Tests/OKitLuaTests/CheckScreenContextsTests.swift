import Foundation
@testable import OKitLua
import Testing

/// `okit-run check` knows what the runtime takes and checks it on the context the runtime evaluates it on: a
/// detail's title count and controller-level actions on the screen's context, a cell's `editImagePath` on the
/// cell's, and a cell's visibility and heights on the screen's context or the row, never after the cell's
/// `contextPath` (okit-behaviour §5.1 "Heights").
@Suite struct CheckScreenContextsTests {
    static let schema = """
    local okit = require "okit"
    okit.entity("Author", { name = "string", picture = "string" })
    okit.entity("Book", { name = "string", showAuthor = "bool", author = "Author?" })
    okit.entity("Shop", { name = "string", books = "[Book]", taps = "int", hit = function(self) self.taps = self.taps + 1 end })
    shop = okit.model("Shop")

    """

    @Test func aPortedDetailsControllerPropertiesAreKnownAndCheckedOnItsContext() throws {
        let clean = try CheckFindingsTests.check(CheckScreenContextsTests.schema + """
        okit.detail("shop", { titlePath = "name", titleCount = "books.@count", subTitleObject = "#Book",
          subTitleObjectPlural = "#Books", subTitleSwap = "#false", tap = "hit()", tapEdit = "hit()", accyTap = "hit()",
          accyEditTap = "hit()",
          sections = { { okit.cell.table { path = "%Taps", detailPath = "taps", editImagePath = "#pencil" } } } })
        okit.app { home = "shop" }
        """)
        #expect(clean.problems == [])
        let wrong = try CheckFindingsTests.check(CheckScreenContextsTests.schema + """
        okit.detail("shop", { titlePath = "name", titleCount = "boks.@count", subTitleSwap = "true", tap = "hitt()",
          accyEditTap = "hit()", sections = { { okit.cell.table { path = "%Taps", editImagePath = "picture" } } } })
        okit.app { home = "shop" }
        """)
        #expect(wrong.problems == [
            "app.lua:6:57: screen shop, property titleCount: Shop has no field \"boks\" (did you mean \"books\"?)",
            "app.lua:6:87: screen shop, property subTitleSwap: \"true\" is a path here, not a flag; write \"#true\"",
            "app.lua:6:101: screen shop, property tap: Shop has no method or extension \"hitt\" (did you mean \"hit\"?)",
            "app.lua:7:92: screen shop, property cell Taps.editImagePath: Shop has no field \"picture\"",
        ])
    }

    @Test func aCellsVisibilityIsCheckedOnTheScreensContextNotAfterItsContextPath() throws {
        // OKit's rule, and okit's at run time: `showAuthor` is the book's, `name` (the author's) is no flag here.
        let result = try CheckFindingsTests.check(CheckScreenContextsTests.schema + """
        okit.detail("book", { type = "Book", sections = { {
          okit.cell.table { path = "%Author", detailPath = "name", contextPath = "author", showDisplay = "showAuthor" },
          okit.cell.table { path = "%Picture", detailPath = "picture", contextPath = "author", heightDisplay = "picture" } } } })
        okit.list("books", { dataPath = "books", cell = { path = "name", contextPath = "author", showDisplay = "showAuthor" } })
        okit.app { home = { "books", "book" } }
        """)
        #expect(result.problems == [
            "app.lua:8:105: screen book, property cell Picture.heightDisplay: Book has no field \"picture\"",
        ])
    }

    /// A list's `present` opens its screen as its segue does (a row's tap, `ListScreen.tap`): a selection presented
    /// by a list is checked on the list's context, not named as opened only from Lua (an OKit porter's app that
    /// failed on first use).
    @Test func aListsPresentOpensItsScreenAsItsSegueDoes() throws {
        let app = """
        local okit = require "okit"
        okit.entity("Author", { name = "string" })
        okit.entity("Item", { name = "string", sel = "bool", author = "ref Author" })
        okit.entity("Root", { items = "[Item]", authors = "[Author]" })
        okit.model("Root")
        okit.list("items", { dataPath = "items", cell = { path = "name" }, selectPath = "sel", present = "pick" })
        okit.selection("pick", { dataPath = "/authors", cell = { path = "name" }, selectionPath = "author", autoClose = "#true" })
        okit.app { home = "items" }
        """
        let presented = try CheckFindingsTests.check(app)
        let pushed = try CheckFindingsTests.check(app.replacingOccurrences(of: "present = \"pick\"", with: "segue = \"pick\""))
        #expect(presented.problems == pushed.problems)
        #expect(presented.problems.count == 1 && presented.problems[0].hasPrefix("app.lua:7:") == true
                && presented.problems[0].contains("screen pick, property selectionPath: Root has no field \"author\""), "\(presented.problems)")
        #expect(!presented.summary.contains("opened only from Lua"), "\(presented.summary)")
        // A present that names no screen is said as a segue's is.
        let typo = try CheckFindingsTests.check(app.replacingOccurrences(of: "present = \"pick\"", with: "present = \"pik\""))
        #expect(typo.problems.contains { $0.contains("screen items, property present: no screen \"pik\" is declared (did you mean \"pick\"?)") },
                "\(typo.problems)")
    }
}
