-- Expenses: a household's spending by category. Each category's total, the total of what is shown and what is
-- still to pay come from bindings (groupFooter, footerPath, a filter) — no Lua loop —, money is formatted in the
-- app's language (`--lang de`: 1.250,00 €), and the fields have rules that commands cannot break.
-- Run it: scripts/okit-run examples/expenses/app.lua [--lang de]      Test it: okit-run test examples/expenses
local okit = require "okit"

okit.strings("de", {
  ["Expenses"] = "Ausgaben", ["To pay"] = "Offen", ["Categories"] = "Kategorien", ["Expense"] = "Ausgabe",
  ["Title"] = "Titel", ["Amount"] = "Betrag", ["Date"] = "Datum", ["Paid"] = "Bezahlt", ["Category"] = "Kategorie",
  ["Total"] = "Summe", ["All"] = "Alles", ["open"] = "offen",
})

okit.entity("Category", {
  name = { "string", required = true, maxLength = 30 },
})

okit.entity("Expense", {
  title    = { "string", required = true, maxLength = 60 },
  amount   = { "double", min = { 0.01, message = "An amount is more than zero" }, max = 100000 },
  date     = "date",
  paid     = "bool",
  category = { "ref Category", required = true },
  pay      = function(self) self.paid = true end,
})

okit.entity("Budget", { expenses = "[Expense]", categories = "[Category]" })

budget = okit.model("Budget", {
  seed = function(root)
    for _, name in ipairs { "Food", "Home", "Travel" } do
      root.categories:append(okit.new("Category", { name = name }))
    end
    local food, home, travel = root.categories[1], root.categories[2], root.categories[3]
    local day = okit.date.parse("2026-11-02T09:00:00Z")
    local function spend(title, amount, category, paid, days)
      root.expenses:append(okit.new("Expense", {
        title = title, amount = amount, category = category, paid = paid, date = day + days * 86400,
      }))
    end
    spend("Rent", 900, home, true, 0)
    spend("Bread", 2.5, food, true, 1)
    spend("Train to Berlin", 89.9, travel, false, 3)
    spend("Groceries", 64.35, food, false, 4)
    spend("Bike repair", 1250, travel, false, 8)
  end,
})

-- Every expense, grouped by category: a line under each category's title counts its expenses, one at its end
-- sums them, and the footer sums every expense shown (a search narrows the sections and the footer alike).
okit.list("expenses", {
  titlePath = "%Expenses", subTitlePath = "%To pay,expenses[paid == false].@sum.amount/currency(#EUR)",
  dataPath = "expenses", type = "Expense", rowSort = "title",
  group = "category/ref/name", groupSort = "#true",
  groupHeader = "rows[paid == false].@count,%open",
  groupFooter = "%Total,rows.@sum.amount/currency(#EUR)",
  footerPath = "%All,rows.@sum.amount/currency(#EUR)",
  cell = { path = "title", detailPath = "amount/currency(#EUR)" },
  search = "#true", searchPath = "title",
  add = "#true", addName = "title",
  segue = "expense",
})

-- What is still to pay: the same expenses through a filter. Paying one takes it off this list.
okit.list("open", {
  titlePath = "%To pay", subTitlePath = "expenses[paid == false].@sum.amount/currency(#EUR)",
  dataPath = "expenses[paid == false]", rowSort = "title",
  cell = { path = "title", detailPath = "amount/currency(#EUR)" },
  add = "#false",
  quickName = "%Paid", quickTap = "pay()",
  segue = "expense",
})

okit.detail("expense", {
  titlePath = "title",
  sections = {
    { okit.cell.text   { path = "%Title", textPath = "title" },
      okit.cell.text   { path = "%Amount", textPath = "amount/currency(#EUR)" },
      okit.cell.date   { path = "%Date", datePath = "date" },
      okit.cell.picker { path = "%Category", dataPath = "/categories", namePath = "name", selectionPath = "category" },
      okit.cell.switch { path = "%Paid", onPath = "paid" } },
  },
})

okit.list("categories", {
  titlePath = "%Categories", dataPath = "categories", type = "Category", rowSort = "name",
  cell = { path = "name" }, add = "#true", addName = "name",
})

okit.app { id = "expenses", home = { "expenses", "open", "categories" } }
