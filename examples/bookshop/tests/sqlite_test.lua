-- SQLite models (storage.md "SQLite models"): the catalog is Action Data's categories table in
-- okit/data/catalog.sqlite; and the same flows of the books run with the shop kept as a JSON file and as a
-- SQLite database (launch's `storage` option), with the same results.
local launch = require("okit.test").launch

local function exists(app, path)
  local f = io.open(app.dataDir .. "/okit/data/" .. path, "rb")
  if not f then return false end
  f:close()
  return true
end

local function texts(snap)
  local out = {}
  for _, section in ipairs(snap.screen.sections) do
    for _, row in ipairs(section.rows) do out[#out + 1] = row.text end
  end
  return out
end

describe("the catalog", function()
  local app
  before_each(function() app = launch("../app.lua") end)

  it("lists the seeded categories from the menu", function()
    app:menu()
    app:menuItem("Categories")
    local snap = app:expectScreen { screen = { id = "categories", title = "Categories" } }
    assert.same({ "Novels", "Poetry", "Travel" }, texts(snap))
    assert.equal("1", app.models.catalog.categories[1].id, "ids count up, as Action Data's autoIncrementingInt")
  end)

  it("is a database that keeps an added category and its books across a relaunch", function()
    app:menu()
    app:menuItem("Categories")
    app:add()
    app:respond("OK", { "Cooking" })
    local cooking = app.models.catalog.categories[1]    -- added first, as OKit adds
    assert.equal("4", cooking.id)
    cooking.books:add(app.models.default.books[1])
    app:relaunch()
    assert.truthy(exists(app, "catalog.sqlite"))
    assert.is_false(exists(app, "catalog.json"))
    local categories = app.models.catalog.categories
    assert.equal(4, #categories)
    assert.equal("Cooking", categories[1].name)
    assert.equal("4", categories[1].id)
    assert.equal("Dune", categories[1].books[1].ref.name)
  end)
end)

for _, kind in ipairs({ "file", "sqlite" }) do
  local ext = kind == "sqlite" and "default.sqlite" or "default.json"

  describe("the shop as a " .. kind .. " model", function()
    local app
    before_each(function() app = launch("../app.lua", { storage = { default = kind } }) end)

    it("keeps added, renamed and deleted books across a relaunch", function()
      app:add()
      app:respond("OK", { "Anna Karenina" })
      app:tap("Dune")
      app:edit(true)
      app:set("name", "Dune Messiah")
      app:back()
      app:delete("Emma")
      app:respond("Yes")
      app:relaunch()
      assert.truthy(exists(app, ext))
      assert.same({ "Anna Karenina", "Dune Messiah" }, texts(app:screen()))
    end)

    it("keeps release dates (rows without ids), the genre (a ref) and the cover (an image)", function()
      app:tap("Dune")
      app:tap("Dates")
      app:button("Add Date")
      app:button("Add Date")
      app:tap(2)
      app:set("Date", "2021-06-01T00:00:00Z")
      app:relaunch()
      local dune = app.models.default.books[1]
      assert.equal(2, #dune.dates)
      assert.equal("2019-05-01T10:00:00Z", tostring(dune.dates[1].date))
      assert.equal("2021-06-01T00:00:00Z", tostring(dune.dates[2].date))
      assert.equal("Science Fiction", dune.genre.ref.name)
      assert.equal("Cover of Dune", dune.cover.label)
      assert.equal("\137PNG", okit.data.bytes(dune.cover):sub(1, 4))
    end)

    it("marks a book from the list and keeps the mark", function()
      app:accessory("Emma")
      app:relaunch()
      assert.is_true(app.models.default.books[2].marked)
      assert.equal(2, #app.models.default.books)
    end)
  end)
end

describe("the settings as a sqlite model", function()
  it("keep a switched setting and the timeout (a ref) across a relaunch", function()
    local app = launch("../app.lua", { storage = { settings = "sqlite" } })
    app:menu()
    app:menuItem("Settings")
    app:set("Dark Theme", true)
    app:set("Protection", true)
    app:set("Timeout", "30 minutes")
    app:close()
    app:relaunch()
    assert.truthy(exists(app, "settings.sqlite"))
    assert.equal("dark", app.models.settings.themeName)
    assert.equal(30, app.models.settings.protectionTimeout.ref.minutes)
  end)
end)
