-- Authors: the authors tab, and the book's authors (multi) and lead author (single) selection screens.
local launch = require("okit.test").launch

local function checked(snap)
  local out = {}
  for _, row in ipairs(snap.screen.sections[1].rows) do
    if row.checked then out[#out + 1] = row.text end
  end
  return out
end

describe("authors", function()
  local app
  before_each(function() app = launch("../app.lua") end)

  it("lists the directory's authors in their tab", function()
    app:tab("authors")
    local snap = app:expectScreen { app = { tab = "authors" }, screen = { id = "authors", title = "Authors" } }
    assert.equal("Frank Herbert", snap.screen.sections[1].rows[1].text)
  end)

  it("adds an author in the directory model", function()
    app:tab("authors")
    app:add()
    app:respond("OK", { "Ursula K. Le Guin" })
    assert.equal(3, #app.models.directory.authors)
    app:search("ursula")
    assert.equal(1, #app:screen().screen.sections[1].rows)
  end)

  it("keeps a tab's navigation when switching tabs", function()
    app:tap("Dune")
    app:tab("authors")
    app:tab("books")
    app:expectScreen { screen = { id = "book", subtitle = "Dune" } }
  end)
end)

describe("a book's authors", function()
  local app, dune
  before_each(function()
    app = launch("../app.lua")
    app:tap("Dune")
    dune = app.models.default.books[1]
  end)

  it("selects several authors and shows the count", function()
    app:tap("Authors")
    app:expectScreen { screen = { id = "bookAuthors", kind = "selection" } }
    app:tap("Frank Herbert")
    app:tap("Jane Austen")
    assert.same({ "Frank Herbert", "Jane Austen" }, checked(app:screen()))
    app:back()
    assert.equal(2, #dune.authors)
    assert.equal("2 Entries", app:screen().screen.sections[3].rows[1].detail)
  end)

  it("unselects an author with a second tap", function()
    app:tap("Authors")
    app:tap("Jane Austen")
    app:tap("Jane Austen")
    assert.same({}, checked(app:screen()))
    assert.equal(0, #dune.authors)
  end)

  it("chooses the lead author and closes the selection", function()
    app:tap("Lead Author")
    app:tap("Frank Herbert")
    app:expectScreen { screen = { id = "book" } }
    assert.equal("Frank Herbert", dune.author.ref.name)
    assert.equal("Frank Herbert", app:screen().screen.sections[3].rows[2].detail)
  end)

  it("replaces the lead author in single mode", function()
    app:tap("Lead Author")
    app:tap("Frank Herbert")
    app:tap("Lead Author")
    assert.same({ "Frank Herbert" }, checked(app:screen()))
    app:tap("Jane Austen")
    assert.equal("Jane Austen", dune.author.ref.name)
  end)

  it("follows a renamed author", function()
    app:tap("Lead Author")
    app:tap("Frank Herbert")
    app.models.directory.authors[1].name = "F. Herbert"
    assert.equal("F. Herbert", app:screen().screen.sections[3].rows[2].detail)
  end)
end)
