-- Protection on the virtual clock: going to the background covers the app; coming back within the timeout
-- uncovers it, later it needs authentication; while covered nothing of the models shows.
local launch = require("okit.test").launch

describe("protection", function()
  local app
  before_each(function()
    app = launch("../app.lua")
    app.models.settings.protection = true            -- the timeout is 5 minutes (the seeded T5)
    app:tap("Dune")
  end)

  it("does not cover the app when protection is off", function()
    app.models.settings.protection = false
    app:background()
    app:expectScreen { app = { covered = false }, screen = { id = "book" } }
  end)

  it("covers the app in the background and shows nothing of the models", function()
    app:background()
    local snap = app:expectScreen { app = { covered = true, cover = "Bookshop" }, screen = { id = "cover", kind = "cover" } }
    assert.equal(1, #snap.screen.sections)
    assert.same({ { id = "cover", text = "Bookshop", image = "lock" } },
      (function() local r = snap.screen.sections[1].rows[1]; return { { id = r.id, text = r.text, image = r.image } } end)())
    assert.equal(1, snap.screen.rowCount, "the cover's one row: nothing of the models")
    assert.has_error(function() app:back() end, "covered")
  end)

  it("uncovers when the app comes back within the timeout", function()
    app:background()
    app:advance(4 * 60)
    app:foreground()
    app:expectScreen { app = { covered = false }, screen = { id = "book", subtitle = "Dune" } }
  end)

  it("stays covered after the timeout until authenticated", function()
    app:background()
    app:advance(5 * 60)
    app:foreground()
    app:expectScreen { app = { covered = true } }
    assert.has_error(function() app:authenticate(false) end, "authentication failed")
    app:authenticate(true)
    app:expectScreen { app = { covered = false }, screen = { id = "book" } }
  end)

  it("follows the timeout chosen in the settings", function()
    app:back()
    app:menu()
    app:menuItem("Settings")
    app:set("Timeout", "1 minute")
    app:close()
    app:background()
    app:advance(90)
    app:foreground()
    app:expectScreen { app = { covered = true } }
  end)

  it("stores the state when it covers", function()
    app:edit(true)
    app:set("Copies", 9)
    app:background()
    app:relaunch()
    assert.equal(9, app.models.default.books[1].copies)
  end)
end)

describe("the key of the encrypted directory", function()
  local app
  before_each(function()
    app = launch("../app.lua")
    app.models.settings.protection = true            -- 5 minutes
    app:background()
  end)

  local function storeAChange(name)
    app.models.directory.authors[1].name = name
    app:store()
  end

  it("stays in memory until the protection timeout passes", function()
    app:advance(4 * 60)
    storeAChange("Frank Herbert (before the timeout)")
  end)

  it("is dropped when the timeout passes: nothing sealed is written until authenticated", function()
    app:advance(5 * 60)
    assert.has_error(function() storeAChange("written while locked") end,
      "the key is dropped while the app is covered; authenticate first (nothing was written)")
    app:authenticate(true)                           -- derives / reads the key again
    app:store()
    app:relaunch()
    assert.equal("written while locked", app.models.directory.authors[1].name)
  end)
end)
