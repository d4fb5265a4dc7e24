import Foundation
@testable import OKitLua
import Testing

/// `okit-run check` names two bar buttons of one screen pressed by one name (the same title and no id, or an id that
/// is another's title): the second is never pressed. Buttons kept apart by their `showPath`s are not named.
@Suite struct CheckButtonIdsTests {
    static func app(_ listButtons: String, detailButtons: String = "{}") -> String {
        """
        local okit = require "okit"
        okit.entity("Book", { name = "string", marked = "bool", mark = function(self) self.marked = true end,
          unmark = function(self) self.marked = false end })
        okit.entity("Shop", { books = "[Book]" })
        okit.model("Shop")
        okit.list("books", { dataPath = "books", cell = { path = "name" }, segue = "book",
          buttons = \(listButtons) })
        okit.detail("book", { sections = { { okit.cell.text { path = "name" } } },
          buttons = \(detailButtons) })
        okit.app { home = "books" }
        """
    }

    @Test func twoButtonsWithTheSameTitleAndNoIdAreNamedAtTheSecond() throws {
        let result = try CheckFindingsTests.check(Self.app(#"""
        { { title = "%Mark", tap = "books[0]/mark()" },
            { title = "%Mark", tap = "books[0]/unmark()" } }
        """#, detailButtons: ##"{ { title = "#Go", tap = "mark()" }, { id = "Go", title = "#Leave", tap = "unmark()" } }"##))
        #expect(result.problems == [
            "app.lua:8:16: screen books, property buttons[2]: buttons[2] is pressed as \"Mark\", as buttons[1] is (a button "
                + "without an id is pressed by its title): \"button Mark\" presses buttons[1], so buttons[2] can never be "
                + "pressed; give one of them its own id = \"…\"",
            "app.lua:10:58: screen book, property buttons[2]: buttons[2] is pressed as \"Go\", as buttons[1] is (a button "
                + "without an id is pressed by its title): \"button Go\" presses buttons[1], so buttons[2] can never be "
                + "pressed; give one of them its own id = \"…\"",
        ], "\(result.problems.joined(separator: "\n"))")
    }

    @Test func buttonsKeptApartByTheirShowPathsOrGivenIdsAreNotNamed() throws {
        let result = try CheckFindingsTests.check(Self.app(#"""
        { { title = "%Mark", tap = "books[0]/mark()", showPath = "!books[0]/marked" },
            { title = "%Mark", tap = "books[0]/unmark()", showPath = "books[0]/marked" },
            { id = "mark2", title = "%Mark", tap = "books[0]/mark()" } }
        """#))
        #expect(result.problems == [], "\(result.problems.joined(separator: "\n"))")
    }

    @Test func aButtonShownOnlySometimesBeforeOneAlwaysShownIsNamedAsHiddenWhileItShows() throws {
        let result = try CheckFindingsTests.check(Self.app(#"""
        { { title = "%Mark", tap = "books[0]/mark()", showPath = "!books[0]/marked" },
            { title = "%Mark", tap = "books[0]/unmark()" } }
        """#))
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.contains("so buttons[2] cannot be pressed while buttons[1] shows") == true,
                "\(result.problems.joined(separator: "\n"))")
    }

    /// Menu items are chosen the same way (`menuItem Go`): the second of two with one title and no id is named.
    @Test func twoMenuItemsWithTheSameTitleAndNoIdAreNamedAtTheSecond() throws {
        let result = try CheckFindingsTests.check("""
        local okit = require "okit"
        okit.entity("Task", { title = "string" })
        okit.entity("List", { tasks = "[Task]", other = "[Task]" })
        okit.model("List")
        okit.list("home", { dataPath = "tasks", cell = { path = "title" } })
        okit.list("other", { dataPath = "other", cell = { path = "title" } })
        okit.menu("menu", { items = {
          { title = "%Go", identifier = "home" },
          { title = "%Go", identifier = "other" },
          { id = "go2", title = "%Go", identifier = "other" },
          { title = "%Home", home = true },
        } })
        okit.app { home = "home", menu = "menu" }
        """)
        #expect(result.problems == [
            "app.lua:9:14: screen menu, property items[2]: items[2] is chosen as \"Go\", as items[1] is (an item without "
                + "an id is chosen by its title): \"menuItem Go\" chooses items[1], so items[2] can never be chosen; give "
                + "one of them its own id = \"…\"",
        ], "\(result.problems.joined(separator: "\n"))")
    }
}

