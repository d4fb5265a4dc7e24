-- Totals per section and over the rows shown, without a Lua loop (screens.md "Section lines and the list's
-- footer"): the flow tests in totals_test.lua follow them through adds, edits, moves, deletes and searches.
local okit = require "okit"
okit.entity("Expense", { name = "string", amount = "int", category = "string", paid = "bool" })
okit.entity("Budget", { expenses = "[Expense]" })
budget = okit.model("Budget", { seed = function(root)
  root.expenses:append(okit.new("Expense", { name = "Bread", amount = 3, category = "Food" }))
  root.expenses:append(okit.new("Expense", { name = "Bus", amount = 2, category = "Travel", paid = true }))
  root.expenses:append(okit.new("Expense", { name = "Tea", amount = 4, category = "Food" }))
end })
okit.list("expenses", {
  type = "Expense", dataPath = "expenses", titlePath = "%Expenses", rowSort = "name",
  cell = { path = "name", detailPath = "amount" },
  group = "category",
  groupHeader = "rows.@count,%items",
  groupFooter = "%Total:,rows.@sum.amount",
  footerPath = "%All:,rows.@sum.amount,%in,rows.@count,%items",
  searchPath = "name", searchFilters = "%Food,%Travel", searchFilterPath = "category",
  addName = "name", deletePrompt = "#false", segue = "expense",
})
okit.detail("expense", {
  titlePath = "name", editAlways = "#true",
  sections = { {
    okit.cell.text { path = "%Amount", id = "Amount", textPath = "amount" },
    okit.cell.text { path = "%Category", id = "Category", textPath = "category" },
  } },
})
okit.app { id = "totals", home = "expenses" }
