import Foundation
@testable import OKitLua
import Testing

/// `okit-run check` checks a property on the context the runtime evaluates it on: a cell's visibility and heights
/// on the screen's context or the row, never after the cell's `contextPath` (okit-behaviour §5.1 "Heights").
@Suite struct CheckScreenContextsTests {
    static let schema = """
    local okit = require "okit"
    okit.entity("Author", { name = "string", picture = "string" })
    okit.entity("Book", { name = "string", showAuthor = "bool", author = "Author?" })
    okit.entity("Shop", { name = "string", books = "[Book]", taps = "int", hit = function(self) self.taps = self.taps + 1 end })
    shop = okit.model("Shop")

    """

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
}
