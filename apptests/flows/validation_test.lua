local launch = require("okit.test").launch

describe("validation", function()
  it("refuses what a rule forbids, with its message, and changes nothing", function()
    local app = launch("validation_app.lua")
    app:tap("Lunch")
    app:edit(true)
    assert.has_error(function() app:set("Title", "") end, "Title is required")
    assert.has_error(function() app:set("Amount", "-1") end, "Amount must be at least 0")
    assert.has_error(function() app:set("Amount", "20000") end, "Ask for approval above 10000")
    assert.has_error(function() app:set("Category", "food") end, "Categories are capital letters")
    local e = app.models.default.expenses[1]
    assert.equal("Lunch", e.title)
    assert.equal(12.5, e.amount)
    assert.equal("FOOD", e.category)
    app:set("Title", "Team lunch")
    assert.equal("Team lunch", e.title)
  end)

  it("shows each cell's current message and follows what the rule reads", function()
    local app = launch("validation_app.lua")
    app:tap("Lunch")
    app:edit(true)
    assert.same({}, app:invalid())
    app:set("Amount", "150")
    assert.same({ Receipt = "A receipt is needed above 100" }, app:invalid())
    local cells = app:screen().screen.sections[1].rows
    assert.equal("A receipt is needed above 100", cells[4].invalid)
    assert.is_nil(cells[1].invalid)
    app:set("Receipt", "R-17")
    assert.same({}, app:invalid())
  end)

  it("checks the name of an added entity; the prompt stays when it is refused", function()
    local app = launch("validation_app.lua")
    app:add()
    local long = string.rep("x", 31)
    assert.has_error(function() app:respond("OK", { long }) end, "OK is refused: Title must be at most 30 characters")
    assert.equal("prompt", app:screen().alert.kind)
    app:respond("OK", { "Taxi" })
    assert.equal(2, #app.models.default.expenses)
  end)

  it("lets code write anything (a migration) and okit.valid reports it", function()
    local okit = require "okit"
    local app = launch("validation_app.lua")
    local e = app.models.default.expenses[1]
    e.title = ""
    e.amount = -4
    local ok, messages = okit.valid(e)
    assert.is_false(ok)
    assert.same({ title = "Title is required", amount = "Amount must be at least 0" }, messages)
  end)
end)
