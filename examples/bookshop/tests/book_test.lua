-- The book detail: every cell kind, edit mode, clamping, the Mark button with its confirmation.
local launch = require("okit.test").launch

local function cell(snap, id)
  for _, section in ipairs(snap.screen.sections) do
    for _, row in ipairs(section.rows) do
      if row.id == id then return row end
    end
  end
end

describe("book detail", function()
  local app, dune
  before_each(function()
    app = launch("../app.lua")
    app:tap("Dune")
    dune = app.models.default.books[1]
  end)

  it("opens with the book's title and cells", function()
    local snap = app:expectScreen { app = { depth = 2 }, screen = { id = "book", kind = "detail", title = "Book", subtitle = "Dune" } }
    assert.equal("Science Fiction", cell(snap, "Genre").detail)
    assert.equal("Price: 12.5 EUR", cell(snap, "Price").text)
    assert.equal(3, cell(snap, "Copies").control.value)
    assert.is_nil(cell(snap, "Comment"), "the comment cell shows only when there is a comment")
  end)

  it("takes values only in edit mode", function()
    assert.has_error(function() app:set("name", "Dune Messiah") end, "edit mode")
    app:edit(true)
    app:set("name", "Dune Messiah")
    assert.equal("Dune Messiah", dune.name)
    assert.equal("Dune Messiah", app:screen().screen.subtitle)
  end)

  it("switches marked on", function()
    app:edit(true)
    app:set("formatMarked", true)
    assert.is_true(dune.marked)
    assert.equal("marked", cell(app:screen(), "formatMarked").text)
  end)

  it("clamps the price slider to its maximum", function()
    app:edit(true)
    app:set("Price", 250)
    assert.equal(100, dune.price)
    assert.equal("Price: 100 EUR", cell(app:screen(), "Price").text)
  end)

  it("clamps the copies stepper and keeps it integral", function()
    app:edit(true)
    app:set("Copies", 42)
    assert.equal(10, dune.copies)
    app:set("Copies", -3)
    assert.equal(0, dune.copies)
  end)

  it("picks a genre by name", function()
    app:edit(true)
    app:set("Genre", "Fantasy")
    assert.equal("Fantasy", dune.genre.ref.name)
    local genre = cell(app:screen(), "Genre")
    assert.equal("Fantasy", genre.detail)
    assert.same({ "Fantasy", "Science Fiction", "Classic" }, genre.control.options)
  end)

  it("refuses a genre that is not an option, naming the options", function()
    app:edit(true)
    assert.has_error(function() app:set("Genre", "Poetry") end, "no option")
    assert.equal("Science Fiction", dune.genre.ref.name)
  end)

  it("sets the type with a segment title", function()
    app:edit(true)
    app:set("Type", "Fiction")
    assert.equal("1", dune.type)
    assert.equal(1, cell(app:screen(), "Type").control.index)
  end)

  it("sets the release date from an ISO 8601 string with an offset", function()
    app:edit(true)
    app:set("Release Date", "2020-02-03T12:00:00+01:00")
    assert.equal("2020-02-03T11:00:00Z", cell(app:screen(), "Release Date").control.value)
  end)

  it("shows reading progress", function()
    dune.read = 0.25
    assert.equal(0.25, cell(app:screen(), "Read").control.value)
  end)

  it("shows the comment cell in edit mode and once there is a comment", function()
    app:edit(true)
    assert.is_not_nil(cell(app:screen(), "Comment"))
    app:set("Comment", "A classic.")
    app:edit(false)
    assert.equal("Comment", cell(app:screen(), "Comment").text)
  end)

  it("shows the website cell only when there is a url", function()
    assert.is_nil(cell(app:screen(), "Website"))
    dune.url = "https://example.org/dune"
    assert.equal("https://example.org/dune", cell(app:screen(), "Website").control.value)
  end)

  it("marks the book with the Mark button after a confirmation", function()
    app:button("Mark")
    assert.equal("Set Book as Marked", app:screen().alert.message)
    app:respond("OK")
    assert.is_true(dune.marked)
    local mark
    for _, b in ipairs(app:screen().screen.buttons) do if b.id == "Mark" then mark = b end end
    assert.is_false(mark.enabled)
  end)

  it("does not mark the book when the confirmation is cancelled", function()
    app:button("Mark")
    app:respond("Cancel")
    assert.is_false(dune.marked)
  end)

  it("goes back to the list", function()
    app:back()
    app:expectScreen { app = { depth = 1 }, screen = { id = "books" } }
  end)

  it("keeps edits across a relaunch", function()
    app:edit(true)
    app:set("Copies", 7)
    app:relaunch()
    assert.equal(7, app.models.default.books[1].copies)
  end)
end)
