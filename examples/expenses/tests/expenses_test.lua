-- Flow tests of the expenses app: okit-run test examples/expenses
-- The same flows run in English and in German: totals come from bindings, money is formatted by the language.
local launch = require("okit.test").launch

local money = {
  en = { todo = "€1,404.25", food = "€66.85", travel = "€1,339.90", all = "€2,306.75", bike = "€1,250.00",
         typed = "€1,300.00", todoAfter = "€154.25" },
  de = { todo = "1.404,25\u{A0}€", food = "66,85\u{A0}€", travel = "1.339,90\u{A0}€", all = "2.306,75\u{A0}€",
         bike = "1.250,00\u{A0}€", typed = "1.300,00 €", todoAfter = "154,25\u{A0}€" },
}
local words = {
  en = { total = "Total", all = "All", open = "open", toPay = "To pay", titleRequired = "Title is required" },
  de = { total = "Summe", all = "Alles", open = "offen", toPay = "Offen", titleRequired = "Titel ist erforderlich" },
}

local function section(screen, title)
  for _, s in ipairs(screen.sections) do if s.header == title then return s end end
  error("no section " .. title)
end

for _, lang in ipairs { "en", "de" } do
  local m, w = money[lang], words[lang]

  describe("expenses in " .. lang, function()
    local app
    before_each(function() app = launch("../app.lua", { lang = lang }) end)

    it("totals each category, what is shown and what is still to pay", function()
      local s = app:screen().screen
      assert.equal(w.toPay .. " " .. m.todo, s.subtitle)
      assert.same({ "Food", "Home", "Travel" }, { s.sections[1].header, s.sections[2].header, s.sections[3].header })
      assert.equal(w.total .. " " .. m.food, section(s, "Food").footer)
      assert.equal(w.total .. " " .. m.travel, section(s, "Travel").footer)
      assert.equal("1 " .. w.open, section(s, "Food").subheader)
      assert.equal("0 " .. w.open, section(s, "Home").subheader)
      assert.equal(w.all .. " " .. m.all, s.footer)
    end)

    it("follows a write: the amount typed in the language's format moves every total", function()
      app:tap("Bike repair")
      app:edit(true)
      app:set("Amount", m.typed)
      assert.equal(1300, app.models.default.expenses[5].amount)
      app:back()
      local s = app:screen().screen
      assert.equal(w.total .. " " .. (lang == "en" and "€1,389.90" or "1.389,90\u{A0}€"), section(s, "Travel").footer)
      assert.equal(w.total .. " " .. m.food, section(s, "Food").footer, "another category is not touched")
    end)

    it("narrows the sections and the footer with a search", function()
      local s = app:search("re").screen                    -- Bread, Rent, Bike repair
      local names = {}
      for _, sec in ipairs(s.sections) do for _, r in ipairs(sec.rows) do names[#names + 1] = r.text end end
      assert.same({ "Bread", "Rent", "Bike repair" }, names)
      assert.equal(w.total .. " " .. (lang == "en" and "€2.50" or "2,50\u{A0}€"), section(s, "Food").footer)
      assert.equal(w.all .. " " .. (lang == "en" and "€2,152.50" or "2.152,50\u{A0}€"), s.footer)
    end)

    it("pays from the open list: the filter lets the expense go", function()
      app:tab("open")
      assert.equal(m.bike, app:screen().screen.sections[1].rows[1].detail)
      app:quick("Bike repair")
      local s = app:screen().screen
      assert.equal(m.todoAfter, s.subtitle)
      assert.equal(2, #s.sections[1].rows)
      assert.is_true(app.models.default.expenses[5].paid)
    end)

    it("refuses what breaks a field's rule and changes nothing", function()
      app:tap("Rent")
      app:edit(true)
      assert.has_error(function() app:set("Title", "") end, w.titleRequired)   -- okit's words in the app's language
      assert.has_error(function() app:set("Amount", "0") end, "An amount is more than zero")
      assert.equal("Rent", app.models.default.expenses[1].title)
      assert.equal(900, app.models.default.expenses[1].amount)
    end)

    it("adds an expense by its title; an empty title is refused", function()
      app:add()
      assert.has_error(function() app:respond("OK", { "" }) end)
      app:respond("OK", { "Coffee" })
      assert.equal("Coffee", app.models.default.expenses[1].title)
    end)
  end)
end
