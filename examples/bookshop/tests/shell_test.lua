-- The slide-in menu, settings (theme, protection, timeout), backups, the clock and the app's life cycle.
local launch = require("okit.test").launch

describe("menu", function()
  local app
  before_each(function() app = launch("../app.lua") end)

  it("opens with the groups and its items", function()
    app:menu()
    local snap = app:expectScreen { app = { menuOpen = true }, screen = { id = "menu", kind = "menu", title = "Groups" } }
    assert.equal("Favourites", snap.screen.sections[1].rows[1].text)
  end)

  it("shows a group as the content", function()
    local group = app.models.directory.groups[1].group   -- the partial's payload
    group.books:add(app.models.default.books[2])
    app:menu()
    app:accessory("Favourites")
    local snap = app:expectScreen { app = { menuOpen = false }, screen = { id = "group", title = "Favourites" } }
    assert.equal(1, #snap.screen.sections[1].rows)
  end)

  it("presents the settings and closes them", function()
    app:menu()
    app:menuItem("Settings")
    app:expectScreen { app = { presented = true }, screen = { id = "settings", kind = "settings" } }
    app:close()
    app:expectScreen { app = { presented = false }, screen = { id = "books" } }
  end)

  it("presents the backups screen", function()
    app:menu()
    app:menuItem("Backups")
    app:expectScreen { screen = { id = "backups" } }
  end)
end)

describe("settings", function()
  local app
  before_each(function()
    app = launch("../app.lua")
    app:tap("Dune")
    app:menu()
    app:menuItem("Settings")
  end)

  it("switches to the dark theme without losing the navigation", function()
    app:expectScreen { app = { theme = "default", themeValues = { tintColor = "#007AFF" } } }
    app:set("Dark Theme", true)
    app:expectScreen { app = { theme = "dark", themeValues = { tintColor = "#FF9500", backgroundColor = "#000000" } } }
    app:close()
    app:expectScreen { app = { theme = "dark", depth = 2 }, screen = { id = "book", subtitle = "Dune" } }
  end)

  it("shows the timeout only while protection is on", function()
    local security = app:screen().screen.sections[2].rows
    assert.equal(2, #security)
    app:set("Protection", true)
    security = app:screen().screen.sections[2].rows
    assert.equal("5 minutes", security[3].detail)
    app:set("Timeout", "30 minutes")
    assert.equal(30, app.models.settings.protectionTimeout.ref.minutes)
  end)

  it("keeps the settings after a relaunch", function()
    app:set("Dark Theme", true)
    app:relaunch()
    assert.equal("dark", app.models.settings.themeName)
    app:expectScreen { app = { theme = "dark" } }
  end)
end)

describe("the app", function()
  it("runs on a virtual clock that moves only when told", function()
    local app = launch("../app.lua")
    assert.equal("2019-05-01T10:00:00Z", tostring(require("okit").date.now()))
    app:advance(3600)
    app:add()
    app:respond("OK", { "Later" })
    local later
    for _, b in ipairs(app.models.default.books) do if b.name == "Later" then later = b end end
    assert.equal("2019-05-01T11:00:00Z", tostring(later.date))
  end)

  it("gives every launch its own data folder", function()
    local a, b = launch("../app.lua"), launch("../app.lua")
    assert.not_equal(a.dataDir, b.dataDir)
    a:delete("Emma"); a:respond("Yes"); a:store()
    assert.equal(2, #b.models.default.books)
  end)

  it("reuses a data folder when asked", function()
    local first = launch("../app.lua")
    first.models.default.books[1].name = "Kept Book"
    first:store()
    local folder = first.dataDir
    first = nil
    collectgarbage(); collectgarbage()          -- the first app lets go of the folder
    local second = launch("../app.lua", { data = folder })
    assert.equal("Kept Book", second.models.default.books[1].name)
  end)

  it("stores the state when it goes to the background", function()
    local app = launch("../app.lua")
    app:quick("Dune")
    app:background()
    app:foreground()
    app:relaunch()
    assert.is_true(app.models.default.books[1].marked)
  end)
end)

describe("recording", function()
  it("writes the commands of a session for okit-run replay", function()
    local app = launch("../app.lua")
    local log = app:record()
    app:tap("Dune")
    app:edit(true)
    app:set("Copies", 5)
    local lines = {}
    for line in io.lines(log) do lines[#lines + 1] = line end
    assert.matches('^{"okit":"session","app":".*/examples/bookshop/app.lua","now":"2019%-05%-01T10:00:00Z","seed":0}$', lines[1])
    assert.same({ '{"cmd":"tap","row":"Dune"}', '{"cmd":"edit","on":true}', '{"cmd":"set","cell":"Copies","value":5}' },
                { lines[2], lines[3], lines[4] })
  end)
end)

describe("launch options", function()
  it("starts from fixture files", function()
    local app = launch("../app.lua", { fixtures = "fixtures/three-books" })
    app:expectScreen { screen = { subtitle = "3 Books" } }
    assert.is_true(app.models.default.books[1].marked)
    assert.equal("Anna Karenina", app.models.default.books[1].name)
  end)

  it("starts the clock where asked", function()
    local app = launch("../app.lua", { now = "2021-12-24T18:00:00Z" })
    app:add("Christmas Carol")
    assert.equal("2021-12-24T18:00:00Z", tostring(app.models.default.books[1].date))
  end)

  it("refuses a start time that is not ISO 8601", function()
    assert.has_error(function() launch("../app.lua", { now = "yesterday" }) end, "ISO 8601")
  end)

  it("names a missing app file", function()
    assert.has_error(function() launch("../nope.lua") end, "no app file")
  end)
end)

describe("themes", function()
  it("takes a theme the app declares", function()
    local app = launch("fixtures/themed.lua")
    app:expectScreen { app = { theme = "sepia", themeValues = { tintColor = "#704214", backgroundColor = "#F4ECD8" } } }
  end)
end)

describe("the encrypted directory", function()
  it("is sealed on disk and reads back after a relaunch", function()
    local app = launch("../app.lua")
    app.models.directory.authors[1].name = "Frank Herbert (sealed)"
    app:store()
    local f = assert(io.open(app.dataDir .. "/okit/data/directory.json", "rb"))
    local bytes = f:read("a")
    f:close()
    assert.equal("OKITENC1", bytes:sub(1, 8))
    assert.is_nil(bytes:find("Herbert", 1, true), "no plaintext on disk")
    app:relaunch()
    assert.equal("Frank Herbert (sealed)", app.models.directory.authors[1].name)
  end)
end)

describe("the encryption setting", function()
  local function header(app)
    local f = assert(io.open(app.dataDir .. "/okit/data/directory.json", "rb"))
    local bytes = f:read(8)
    f:close()
    return bytes
  end

  it("rewrites the encrypted model plain when switched off and sealed when switched on", function()
    local app = launch("../app.lua")
    app:store()
    assert.equal("OKITENC1", header(app))
    app:menu()
    app:menuItem("Settings")
    app:set("Encryption", false)
    assert.equal('{"okit":', header(app), "plain right after the switch")
    app:relaunch()
    assert.equal("Frank Herbert", app.models.directory.authors[1].name)
    app:menu()
    app:menuItem("Settings")
    app:set("Encryption", true)
    assert.equal("OKITENC1", header(app))
  end)
end)

describe("autosave", function()
  local function stored(app)
    local text = ""
    for _, name in ipairs({ "default.json", "default.journal" }) do
      local f = io.open(app.dataDir .. "/okit/data/" .. name, "rb")
      if f then text = text .. f:read("a"); f:close() end
    end
    return text
  end

  it("stores the state every minute on the app clock", function()
    local app = launch("../app.lua")
    app.models.default.books[1].name = "Autosaved Dune"
    app:advance(59)
    assert.is_nil(stored(app):find("Autosaved Dune", 1, true), "not before the minute")
    app:advance(1)
    assert.truthy(stored(app):find("Autosaved Dune", 1, true))
  end)
end)
