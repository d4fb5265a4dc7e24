import Foundation
import OKitLua
import Testing

/// An app laid out as OKit's Bookshop (a shop with books, authors and genres through refs; a list whose cell
/// moves into a ref; selections opened from a list row, a list bar button and detail cells; a settings screen on
/// the settings model; a menu) whose bindings are right: the check finds nothing.
enum OKitStyleBookshop {
    static let source = """
    local okit = require "okit"
    okit.entity("Author", { name = "string", books = "[ref Book]" })
    okit.entity("Genre", { name = "string", books = "[ref Book]" })
    okit.entity("Book", {
      name = "string", date = "date", marked = "bool", copies = "int", price = "double", read = "double",
      type = { "string", default = "0" }, comment = "string?",
      author = "ref Author", authors = "[ref Author]", genre = "ref Genre",
      setAsMarked = function(self) self.marked = true end,
    })
    okit.entity("Shop", { books = "[Book]", authors = "[Author]", genres = "[Genre]", favourites = "[ref Book]",
                          pick = "ref Book" })
    shop = okit.model("Shop")
    settings = okit.model(okit.Settings, { name = "settings" })

    okit.list("books", {
      type = "Book", dataPath = "books", titlePath = "%Books", titleCount = "books.@count", subTitleObject = "%Book",
      rowSort = "name", rowSortAsc = "#true", group = "genre/ref/name", search = "#true", searchPath = "name",
      cell = { path = "name", detailPath = "author/ref/name", accyText = "#Mark", accyShow = "!marked",
               accyTap = "setAsMarked()" },
      quickName = "#Mark", quickEnabled = "!marked", quickTap = "setAsMarked()", more = "#true", moreEnabled = "!marked",
      moreActions = "%Mark", moreActionsTap = "setAsMarked()", add = "#true", addName = "name", delete = "#true",
      segue = "book",
      buttons = { { title = "%Favourites", segue = "favouritesList" }, { title = "%Pick", present = "pickOne", enabledPath = "#true" } },
    })
    -- The author of each book: the cell's bindings move into the ref's target.
    okit.list("bookAuthorsList", {
      dataPath = "books", titlePath = "%Book Authors", cell = { contextPath = "author/ref", path = "name" },
      segue = "tagBook",
    })
    okit.detail("book", {
      titlePath = "%Book", subTitlePath = "name", editInherit = "#true",
      sections = {
        { header = "%General",
          okit.cell.text { path = "name", textPath = "name" },
          okit.cell.switch { path = "%Marked", onPath = "marked" },
          okit.cell.date { path = "%Date", datePath = "date" },
          okit.cell.segment { path = "%Type", segmentsPath = "%A,%B", selectIndexPath = "type" },
          okit.cell.picker { path = "%Genre", dataPath = "/genres", namePath = "name", selectionPath = "genre" },
          okit.cell.multiline { path = "%Comment", textPath = "comment", showDisplay = "comment" } },
        { header = "%Stock",
          okit.cell.slider { path = "%Price", valuePath = "price", maxValuePath = "#100" },
          okit.cell.stepper { path = "%Copies", valuePath = "copies" },
          okit.cell.progress { path = "%Read", valuePath = "read" } },
        { header = "%People",
          okit.cell.table { path = "%Authors", detailPath = "authors.@count", segue = "bookAuthors" },
          okit.cell.table { path = "%Lead Author", detailPath = "author/ref/name", present = "leadAuthor" } },
      },
      buttons = { { title = "%Mark", tapPath = "setAsMarked()", enabledPath = "!marked" } },
    })
    -- Opened from a list row: the selection context is the list's (Shop), the default selectionPath its dataPath.
    okit.selection("tagBook", { dataPath = "/books", cell = { path = "name" }, selectionPath = "pick" })
    -- Opened from a list bar button: the list's context and dataPath (Shop.books are not refs: set selectionPath).
    okit.selection("pickOne", { dataPath = "books", cell = { path = "name" }, selectionPath = "pick", autoClose = "#true" })
    okit.list("favouritesList", { dataPath = "favourites", cell = { path = "ref/name" }, delete = "#true",
                                  buttons = { { title = "%Add", present = "favourites" } } })
    -- Opened from the favourites list's button: the default selectionPath is that list's dataPath (refs).
    okit.selection("favourites", { dataPath = "/books", cell = { path = "name" }, rowSort = "name" })
    -- Opened from detail cells: the cell's context, "." by default.
    okit.selection("bookAuthors", { dataPath = "/authors", selectionPath = "authors", cell = { path = "name" } })
    okit.selection("leadAuthor", { dataPath = "/authors", selectionContextPath = "author", cell = { path = "name" },
                                   unselect = "#false", clear = "#true" })
    okit.list("authors", { type = "Author", dataPath = "authors", cell = { path = "name", detailPath = "books.@count" },
                           segue = "author", add = "#true", addName = "name" })
    okit.detail("author", { titlePath = "name", sections = { { okit.cell.text { path = "%Name", textPath = "name" } } } })
    okit.menu("menu", {
      dataPath = "genres", titlePath = "%Genres", cell = { path = "name" }, rowIdentifier = "genre", hideMenu = "#true",
      items = { { title = "%Settings", present = "settings" }, { title = "%Home", home = true } },
    })
    okit.list("genre", { titlePath = "name", dataPath = "books", cell = { path = "ref/name" } })
    okit.settings("settings", {
      titlePath = "%Settings", editAlways = "#true",
      sections = { { okit.cell.switch { path = "%Dark", onPath = "darkMode" },
                     okit.cell.switch { path = "%Protection", onPath = "protection" },
                     okit.cell.picker { path = "%Timeout", dataPath = "timeouts", namePath = "name",
                                        selectionPath = "protectionTimeout", showDisplay = "protection" } } },
    })
    okit.app {
      id = "okitshop", home = { "books", "authors" }, menu = "menu",
      contextPath = "settings>/", themeName = "themeName", protection = "protection",
      protectionTimeout = "protectionTimeout/ref/minutes", protectionText = "#Shop",
    }
    """
}

@Suite struct CheckOKitStyleAppTests {
    @Test func anOKitStyleAppWhoseBindingsAreRightChecksClean() throws {
        let result = try CheckFindingsTests.check(OKitStyleBookshop.source)
        #expect(result.problems == [])
        #expect(result.summary.hasPrefix("app.lua: 0 problems in 14 screens, "), "\(result.summary)")
    }

    @Test func itLoadsWithTheCheckOn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("app.lua")
        try OKitStyleBookshop.source.write(to: file, atomically: true, encoding: .utf8)
        var options = LuaAppOptions()
        options.dataFolder = dir.appendingPathComponent("data")
        options.virtualNow = Date(timeIntervalSince1970: 1_556_704_800)
        options.print = { _ in }
        let app = try LuaApp(options: options)
        try app.load(appFile: file)
        #expect(app.shell.home == ["books", "authors"])
    }

    @Test func aSelectionIsCheckedOnEveryWayItIsOpened() throws {
        // The same selection pushed by a list row (selection context: the list's, Shop) and by a detail cell
        // (the book): `pick` is a field of Shop only, so the cell's way is wrong.
        var source = OKitStyleBookshop.source
        source = source.replacingOccurrences(of: "present = \"leadAuthor\"", with: "present = \"tagBook\"")
        let result = try CheckFindingsTests.check(source)
        #expect(result.problems.count == 1, "\(result.problems)")
        #expect(result.problems.first?.contains("screen tagBook, property selectionPath: Book has no field \"pick\"") == true,
                "\(result.problems)")
    }
}
