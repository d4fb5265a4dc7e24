-- The expenses app of docs/screens.md "Section lines and the list's footer" (its steps run on this copy).
local okit = require "okit"
okit.entity("Expense", { name = "string", amount = "double", category = "string" })
okit.entity("Budget", { expenses = "[Expense]" })
budget = okit.model("Budget", { seed = function(root)
  root.expenses:append(okit.new("Expense", { name = "Bread", amount = 3.5, category = "Food" }))
  root.expenses:append(okit.new("Expense", { name = "Bus", amount = 2, category = "Travel" }))
  root.expenses:append(okit.new("Expense", { name = "Tea", amount = 4, category = "Food" }))
end })
okit.list("expenses", {
  dataPath = "expenses", rowSort = "name", cell = { path = "name", detailPath = "amount" },
  group = "category",
  groupHeader = "rows.@count/suffixPlural(#item)",           -- 2 items
  groupFooter = "=key .. ' total: ' .. rows.@sum.amount",    -- Food total: 7.5
  footerPath = "%All:,rows.@sum.amount",                     -- over every row shown
})
okit.app { home = "expenses" }
