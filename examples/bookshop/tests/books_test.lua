-- The books list: grouping, the index, search, add with the name prompt, delete with confirmation, more
-- actions, the quick action, the accessory, help, persistence.
local launch = require("okit.test").launch

local function texts(snap)
  local out = {}
  for _, section in ipairs(snap.screen.sections) do
    for _, row in ipairs(section.rows) do out[#out + 1] = row.text end
  end
  return out
end

describe("books", function()
  local app
  before_each(function() app = launch("../app.lua") end)

  it("shows the seeded books grouped by initial with an index", function()
    local snap = app:expectScreen {
      app = { tab = "books", tabs = { "books", "authors" } },
      screen = { id = "books", kind = "list", title = "Book Shop", subtitle = "2 Books" },
    }
    -- OKit's index: the whole alphabet and "#", whatever initials are present
    assert.equal(27, #snap.screen.index)
    assert.equal("A", snap.screen.index[1])
    assert.equal("#", snap.screen.index[27])
    assert.equal("D", snap.screen.sections[1].header)
    assert.equal("E", snap.screen.sections[2].header)
    assert.same({ "Dune", "Emma" }, texts(snap))
    assert.equal("not marked", snap.screen.sections[1].rows[1].detail)
  end)

  it("adds a book through the name prompt", function()
    app:add()
    local alert = app:screen().alert
    assert.equal("Enter name for this Book", alert.message)
    assert.same({ "OK", "Cancel" }, alert.actions)
    app:respond("OK", { "Anna Karenina" })
    local snap = app:screen()
    assert.equal("3 Books", snap.screen.subtitle)
    assert.same({ "Anna Karenina", "Dune", "Emma" }, texts(snap))
    assert.equal(3, #app.models.default.books)
  end)

  it("adds nothing when the name prompt is cancelled", function()
    app:add()
    app:respond("Cancel")
    assert.is_nil(app:screen().alert)
    assert.equal(2, #app.models.default.books)
  end)

  it("deletes a book after the confirmation", function()
    app:delete("Emma")
    assert.equal("Confirm Deletion", app:screen().alert.title)
    app:respond("Yes")
    assert.same({ "Dune" }, texts(app:screen()))
    assert.equal("1 Book", app:screen().screen.subtitle)
  end)

  it("keeps the book when the deletion is declined", function()
    app:delete("Emma")
    app:respond("No")
    assert.same({ "Dune", "Emma" }, texts(app:screen()))
  end)

  it("searches by name, narrowing and widening", function()
    app:search("em")
    assert.same({ "Emma" }, texts(app:screen()))
    app:search("")
    assert.same({ "Dune", "Emma" }, texts(app:screen()))
    app:search("zzz")
    assert.same({}, texts(app:screen()))
  end)

  it("marks a book with the quick action, which then is disabled", function()
    app:quick("Dune")
    local row = app:screen().screen.sections[1].rows[1]
    assert.equal("marked", row.detail)
    assert.is_false(row.quick.enabled)
    assert.has_error(function() app:quick("Dune") end)
    assert.is_true(app.models.default.books[1].marked)
  end)

  it("marks a book with the accessory button, which then disappears", function()
    assert.equal("Mark", app:screen().screen.sections[1].rows[1].accessory.text)
    app:accessory("Dune")
    local row = app:screen().screen.sections[1].rows[1]
    assert.equal("marked", row.detail)
    assert.is_nil(row.accessory)
  end)

  it("offers more actions in a sheet", function()
    app:more("Dune")
    local sheet = app:screen().alert
    assert.equal("sheet", sheet.kind)
    assert.same({ "Activate", "Set as Marked", "Cancel" }, sheet.actions)
    app:respond("Set as Marked")
    assert.equal("marked", app:screen().screen.sections[1].rows[1].detail)
  end)

  it("activates a book from the more actions, which shows an alert", function()
    app:more("Emma")
    app:respond("Activate")
    local alert = app:screen().alert
    assert.equal("Book", alert.title)
    assert.equal("Activated", alert.message)
    app:respond("OK")
    assert.is_nil(app:screen().alert)
  end)

  it("refuses other commands while an alert waits", function()
    app:add()
    assert.has_error(function() app:tap("Dune") end, "an alert is waiting")
  end)

  it("shows its help text", function()
    app:help()
    assert.matches("Tap a book", app:screen().screen.help)
  end)

  it("re-sorts and re-groups a renamed book", function()
    app.models.default.books[1].name = "Zorro"
    local snap = app:screen()
    assert.same({ "Emma", "Zorro" }, texts(snap))
    assert.same({ "E", "Z" }, { snap.screen.sections[1].header, snap.screen.sections[2].header })
  end)

  it("keeps added and marked books after a relaunch", function()
    app:add("Anna Karenina")                    -- a name answers the prompt at once
    app:quick("Anna Karenina")
    app:relaunch()
    local books = app.models.default.books
    assert.equal(3, #books)
    assert.equal("Anna Karenina", books[1].name, "a new book goes to the front")
    assert.is_true(books[1].marked)
    assert.same({ "Anna Karenina", "Dune", "Emma" }, texts(app:screen()))
  end)

  it("reports exactly what the quick action changed", function()
    local changes = app:changes(function() app:quick("Emma") end)
    assert.equal(1, #changes)
    assert.equal("default", changes[1].model)
    assert.is_false(changes[1].old)
    assert.is_true(changes[1].new)
  end)
end)
