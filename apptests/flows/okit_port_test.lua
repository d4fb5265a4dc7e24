local launch = require("okit.test").launch
local okit = require "okit"

local function ids(buttons) local t = {} for i, b in ipairs(buttons) do t[i] = b.id end return table.concat(t, ",") end
local function texts(screen)
  local t = {}
  for _, s in ipairs(screen.sections) do for _, r in ipairs(s.rows) do t[#t + 1] = r.text end end
  return table.concat(t, ",")
end

describe("an OKit app relying on OKit's defaults", function()
  local app
  before_each(function() app = launch("okit_port_app.lua") end)

  it("loads without a warning (OKit's properties without headless meaning are taken)", function()
    assert.same({}, app:warnings())
  end)

  it("shows Edit, + and the search field and lets rows be deleted, as OKit", function()
    local s = app:screen().screen
    assert.equal("edit,add", ids(s.buttons))
    assert.is_true(s.search.visible)
    assert.is_true(s.sections[1].rows[1].delete)
    assert.equal("disclosure", s.sections[1].rows[1].accessory.kind)
    app:search("emm")
    assert.equal("Emma", texts(app:screen().screen))
    app:search("")
    app:button("refresh")                        -- OKit's pull to refresh
    app:delete("Emma")
    assert.equal("Confirm Deletion", app:screen().alert.title)
    assert.equal("Do you really want to delete entry?", app:screen().alert.message)
    app:respond("Yes")
    assert.equal("Dune", texts(app:screen().screen))
  end)

  it("adds a row of the type dataPath reaches when the list declares none", function()
    app:add()
    assert.equal(3, #app.models.default.books)
    assert.equal("Book", okit.typeof(app.models.default.books[1]))
  end)

  it("asks for the name with addName and writes it trimmed", function()
    app:open("named")
    app:add()
    local alert = app:screen().alert
    assert.equal("New Book", alert.title)
    assert.equal("Enter name for this Book", alert.message)
    assert.equal("Name", alert.fields[1].placeholder)
    app:respond("OK", { "  Dune Messiah  " })
    assert.equal("Dune Messiah", app.models.default.books[1].name)
  end)

  it("selects into the opening list's collection from its bar button (selectionPath defaults to its dataPath)", function()
    app:tap("Dune")
    app:tap("Authors")
    local s = app:screen().screen
    assert.equal("pick", ids(s.buttons):match("pick"))
    app:button("pick")
    assert.equal("authorPick", app:screen().screen.id)
    app:tap("Jane Austen")
    app:tap("Frank Herbert")
    local authors = app.models.default.books[1].authors
    assert.equal(2, #authors)
    assert.equal("Frank Herbert", authors[1].ref.name)
    app:back()
    assert.equal("Frank Herbert,Jane Austen", texts(app:screen().screen))
  end)

  it("selects into the detail's context from a cell (selectionPath given)", function()
    app:tap("Dune")
    app:tap("Lead Author")
    app:tap("Jane Austen")
    assert.equal("Jane Austen", app.models.default.books[1].author.ref.name)
  end)

  it("takes values in a list of date cells kept in edit mode", function()
    app:tap("Dune")
    app:tap("Dates")
    local s = app:screen().screen
    assert.is_true(s.editing)
    assert.equal("date", s.sections[1].rows[1].kind)
    assert.equal("1965-08-01T00:00:00Z", s.sections[1].rows[1].control.value)
    app:set(2, "1990-05-05T00:00:00Z")
    assert.equal("1990-05-05T00:00:00Z", app:screen().screen.sections[1].rows[2].control.value)
  end)

  it("shows and presses a bar button by id while its showPath holds", function()
    app:tap("Dune")
    assert.equal("edit,bump", ids(app:screen().screen.buttons))
    app:button("bump")
    assert.equal(1, app.models.default.books[1].copies)
    app:back()
    app:tap("Emma")
    assert.equal("edit", ids(app:screen().screen.buttons))
  end)

  it("reads a row's cell off the row (contextPath), keeps sections in row order, offers more per row and a quick image", function()
    app:open("byAuthor")
    local s = app:screen().screen
    assert.equal("Frank Herbert", s.sections[1].rows[1].text)
    assert.equal("Open", s.sections[1].header)          -- Dune (Open) comes first: groupSort = "#false"
    assert.equal("Marked", s.sections[2].header)
    assert.is_true(s.sections[1].rows[1].more)
    assert.is_false(s.sections[2].rows[1].more)          -- moreEnabled = "!marked"
    assert.equal("", s.sections[1].rows[1].quick.title)   -- quickImage without quickName: no title (OKit)
    assert.equal("star", s.sections[1].rows[1].quick.image)
    app:more(1)
    local alert = app:screen().alert
    assert.equal("Frank Herbert", alert.title)
    assert.equal("Select an action", alert.message)
    app:respond("Mark")
    app:quick(1)
    assert.equal(1, app.models.default.books[1].copies)
  end)

  it("opens a settings screen on the settings model", function()
    app:menu()
    app:menuItem("Settings")
    local s = app:screen().screen
    assert.equal("prefs", s.id)
    assert.is_false(s.sections[1].rows[1].control.value)
    app:set("Dark Theme", true)
    assert.equal("dark", app.models.settings.themeName)
  end)

  it("warns when a dataPath gives values that are not entities", function()
    app:open("plain")
    assert.equal(0, app:screen().screen.rowCount)
    local w = app:warnings()
    assert.equal(1, #w)
    assert.truthy(w[1]:find('list "plain": dataPath', 1, true))
    assert.truthy(w[1]:find("1 value that is not an entity", 1, true))
  end)

  it("chooses a menu item by its id; its segue names the content", function()
    app:tap("Dune")
    app:menu()
    app:menuItem("all")
    local snap = app:screen()
    assert.equal("books", snap.screen.id)
    assert.equal(1, snap.app.depth)
  end)

  it("draws a row's ribbon and hides rows whose cell height is 0", function()
    app:open("ribboned")
    assert.equal(0, app:screen().screen.rowCount)
    app.models.default.books[1].copies = 2             -- Dune: height 2, shown
    local s = app:screen().screen
    assert.equal("Dune", texts(s))
    assert.equal("FF9500", s.sections[1].rows[1].ribbon)   -- "#FF9500" is the constant FF9500
  end)

  it("takes a detail's controller-level title count, tap and accessory tap (OKit's detail controller)", function()
    app:open("shopInfo")
    local s = app:screen().screen
    assert.equal("Shop", s.title)
    assert.equal("2 Books", s.subtitle)
    app:tap("Taps")
    app:accessory("Taps")
    assert.equal(2, app.models.default.taps)
    assert.equal("2", app:screen().screen.sections[1].rows[1].detail)
  end)

  it("reads a cell's show flag on the row or the screen's context, not after the cell's contextPath", function()
    app:open("leads")
    assert.equal("Frank Herbert", texts(app:screen().screen))    -- Dune is not marked, Emma is
    app:open("shopInfo")
    assert.equal("Taps", texts(app:screen().screen))
    app.models.default.books[1].marked = true
    local rows = app:screen().screen.sections[1].rows
    assert.equal("Lead", rows[2].text)
    assert.equal("Frank Herbert", rows[2].detail)
    assert.same({}, app:warnings())
  end)

  it("hides rows whose cell is not shown", function()
    app:open("unmarked")
    assert.equal("Dune", texts(app:screen().screen))
    assert.equal("edit", ids(app:screen().screen.buttons))
  end)
end)
