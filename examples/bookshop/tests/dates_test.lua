-- Release dates stay consecutive: moving one date earlier than its predecessor is not possible, moving one
-- later pushes the later ones along.
local launch = require("okit.test").launch

describe("release dates", function()
  local app, dune
  before_each(function()
    app = launch("../app.lua")
    app:tap("Dune")
    app:tap("Dates")
    dune = app.models.default.books[1]
  end)

  it("adds dates starting at today on the virtual clock", function()
    app:button("Add Date")
    app:button("Add Date")
    assert.equal(2, #dune.dates)
    assert.equal("2019-05-01T10:00:00Z", tostring(dune.dates[1].date))
    assert.equal(2, #app:screen().screen.sections[1].rows)
  end)

  it("pushes later dates along when an earlier one moves past them", function()
    app:button("Add Date")
    app:button("Add Date")
    app:tap(1)
    app:set("Date", "2020-01-01T00:00:00Z")
    assert.equal("2020-01-01T00:00:00Z", tostring(dune.dates[1].date))
    assert.equal("2020-01-01T00:00:00Z", tostring(dune.dates[2].date))
  end)

  it("deletes a date after the confirmation", function()
    app:button("Add Date")
    app:delete(1)
    app:respond("Yes")
    assert.equal(0, #dune.dates)
  end)

  it("shows the count on the book", function()
    app:button("Add Date")
    app:back()
    assert.equal("1 Entry", app:screen().screen.sections[4].rows[1].detail)
  end)
end)
