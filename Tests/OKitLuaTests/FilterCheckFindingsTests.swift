import Foundation
@testable import OKitLua
import Testing

/// `okit-run check` on filters (bindings.md "Filters"): a predicate's unknown field is found at its line and
/// column in app.lua, on the element type, through refs.
@Suite struct FilterCheckFindingsTests {
    @Test func predicatesAreCheckedAtTheirColumn() throws {
        let source = """
        local okit = require "okit"
        okit.entity("Category", { name = "string" })
        okit.entity("Expense", { title = "string", amount = "double", paid = "bool", category = "ref Category" })
        okit.entity("Book", { expenses = "[Expense]", categories = "[Category]" })
        book = okit.model("Book")
        okit.list("open", {
          dataPath = "expenses[paidd == false]", cell = { path = "title", detailPath = "amount" },
          titlePath = "%Open", titleCount = "expenses[paid == false and category.ref.nam == 'Food'].@sum.amount",
        })
        okit.app { home = { "open" } }
        """
        let result = try CheckFindingsTests.check(source)
        #expect(result.problems == [
            "app.lua:7:24: screen open, property dataPath: Expense has no field \"paidd\" (did you mean \"paid\"?)",
            "app.lua:8:78: screen open, property titleCount: Category has no field \"nam\" (did you mean \"name\"?)",
        ])
    }

    @Test func aFilteredDataPathKeepsTheRowType() throws {
        let source = """
        local okit = require "okit"
        okit.entity("Expense", { title = "string", paid = "bool" })
        okit.entity("Book", { expenses = "[Expense]" })
        book = okit.model("Book")
        okit.list("open", { dataPath = "expenses[not paid]", cell = { path = "titel" } })
        okit.app { home = { "open" } }
        """
        let result = try CheckFindingsTests.check(source)
        #expect(result.problems == [
            "app.lua:5:71: screen open, property cell.path: Expense has no field \"titel\" (did you mean \"title\"?)",
        ])
    }
}
