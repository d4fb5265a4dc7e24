-- app: examples/bookshop/app.lua
-- The global `app` of `okit-run APP --script`: the driver of the running bookshop, command by command.
assert(app, "okit-run --script defines the global app for an app with screens")

local function rows(s)
  local out = {}
  for _, section in ipairs(s.screen.sections) do
    for _, row in ipairs(section.rows) do out[#out + 1] = row end
  end
  return out
end

-- the home list
local s = app:screen()
assert(s.app.tab == "books" and #s.app.tabs == 2, "tabs")
assert(s.screen.id == "books" and s.screen.kind == "list" and s.screen.title == "Book Shop")
assert(s.screen.subtitle == "2 Books" and s.screen.rowCount == 2)
assert(s.alert == nil and s.screen.prompt == nil, "JSON null is nil")
assert(rows(s)[1].text == "Dune" and rows(s)[1].detail == "not marked")
assert(s.screen.sections[1].header == "D", "grouped by initial")

-- a row by number, {section, row} pair and text
assert(app:tap(2).screen.subtitle == "Emma"); app:back()
assert(app:tap({ 2, 1 }).screen.subtitle == "Emma"); app:back()
assert(app:tap("Dune").screen.subtitle == "Dune")

-- the detail: edit cells, typed control values
s = app:edit(true)
assert(s.screen.kind == "detail" and s.screen.editing)
s = app:set("name", "Dune Messiah")
assert(s.screen.subtitle == "Dune Messiah")
s = app:set("formatMarked", true)
local price = rows(s)[7]                  -- name, marked, date, type, genre, comment (edit mode), price
assert(price.id == "Price" and price.kind == "slider" and price.control.value == 12.5, "slider value")
s = app:set(7, 200)
assert(rows(s)[7].control.value == 100 and math.type(rows(s)[7].control.value) == "float", "clamped, a float")
s = app:set("Copies", 4)
assert(rows(s)[8].control.value == 4 and math.type(rows(s)[8].control.value) == "integer")
s = app:back()
assert(rows(s)[1].text == "Dune Messiah" and rows(s)[1].detail == "marked")

-- failing commands: a reason, no file:line, nothing changed
local ok, err = pcall(function() return app:tap(7) end)
assert(not ok and not err:find("^[^ ]*:%d+:"), err)
ok, err = pcall(function() return app:back() end)
assert(not ok and err:find("already", 1, true), err)

-- add through the name prompt, answered with respond
s = app:add()
assert(s.alert.kind == "prompt" and s.alert.message == "Enter name for this Book", s.alert.message)
s = app:respond("OK", { "Anathem" })
assert(s.alert == nil and s.screen.subtitle == "3 Books" and rows(s)[1].text == "Anathem")

-- search and scopes
s = app:search("emma")
assert(s.screen.rowCount == 1 and rows(s)[1].text == "Emma")
s = app:search("")

-- more actions, quick action, accessory
s = app:more("Emma")
assert(s.alert.kind == "sheet")
s = app:respond("Set as Marked")
assert(rows(s)[3].detail == "marked")
s = app:quick("Anathem"); assert(rows(s)[1].detail == "marked")

-- changes: exactly what a command changed
local changes = app:changes(function() app:delete("Anathem"); app:respond("Yes") end)
assert(#changes == 1 and changes[1].model == "default" and changes[1].path == "books" and changes[1].op == "remove",
  "delete is one remove")
assert(changes[1].index == 0 and changes[1].id, "0-based index, the element's id")
changes = app:changes(function() app:tap("Emma"); app:edit(true); app:set("Copies", 2) end)
assert(#changes == 1 and changes[1].path == "books[1]/copies" and changes[1].old == 1 and changes[1].new == 2)
app:back()

-- tabs, windows, the clock, storage
s = app:tab("authors")
assert(s.app.tab == "authors" and s.screen.title == "Authors" and #rows(s) == 2)
s = app:screen { offset = 1, limit = 1 }
assert(#rows(s) == 1 and rows(s)[1].text == "Jane Austen" and s.screen.rowCount == 2)
s = app:advance(3600)
s = app:store()
s = app:relaunch()
assert(s.app.tab == "books" and app.models.default.books[1].name == "Dune Messiah", "stored and relaunched")
assert(app.models.directory.authors[1].name == "Frank Herbert")
assert(type(app.dataDir) == "string")
