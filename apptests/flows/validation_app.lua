-- Validation (lua-api.md "Validation"): field rules refuse what commands write; cells show the current message.
local okit = require "okit"
okit.entity("Expense", {
  title    = { "string", required = true, maxLength = 30 },
  amount   = { "double", min = 0, max = { 10000, message = "Ask for approval above 10000" } },
  category = { "string", default = "FOOD", pattern = "^%u+$", message = "Categories are capital letters" },
  receipt  = { "string?", validate = function(value, expense)
    if expense.amount > 100 and (value == nil or value == "") then return false, "A receipt is needed above 100" end
    return true
  end },
})
okit.entity("Book", { expenses = "[Expense]" })
book = okit.model("Book", { seed = function(b)
  b.expenses:append(okit.new("Expense", { title = "Lunch", amount = 12.5 }))
end })

okit.list("expenses", { type = "Expense", dataPath = "expenses", titlePath = "#Expenses", cell = { path = "title" },
  addName = "title", segue = "expense" })
okit.detail("expense", { titlePath = "title", sections = { {
  okit.cell.text { path = "%Title", textPath = "title" },
  okit.cell.text { path = "%Amount", textPath = "amount" },
  okit.cell.text { path = "%Category", textPath = "category" },
  okit.cell.text { path = "%Receipt", textPath = "receipt", placeholder = "%Receipt number" },
} } })
okit.app { home = "expenses" }
