local launch = require("okit.test").launch

describe("Lua actions and hooks", function()
  local app
  local function log() return app.models.log.text end
  before_each(function() app = launch("hooks_app.lua") end)

  it("gives an action its row and an app whose navigation runs after the command", function()
    local snap = app:tap("First")
    assert.equal("note", snap.screen.id)
    assert.equal(1, app.models.default.notes[1].seen)
    assert.equal("appear notes list Notes; tap First on Note; after open; disappear notes; appear note First", log())
  end)

  it("gives hooks the screen, and the entity for add and delete", function()
    app:add("Third")
    app:delete("Second")
    assert.equal("appear notes list Notes; add Third in notes; delete Second in notes", log())
  end)

  it("runs a bar button's function with the screen's entity; back runs after it", function()
    app:tap("Second")
    local snap = app:button("Done")
    assert.equal("notes", snap.screen.id)
    assert.matches("disappear note; appear notes list Notes$", log())
  end)

  it("drops an action's navigation when the action fails", function()
    assert.has_error(function() app:quick("First") end)
    assert.equal("notes", app:screen().screen.id)
    app:tap("Second")
    assert.equal("note", app:screen().screen.id, "only the tap's navigation ran")
  end)
end)
