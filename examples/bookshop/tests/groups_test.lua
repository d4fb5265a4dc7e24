-- Groups are partials: the encrypted directory holds a stub per group (name, colour); each group's books live in
-- directory/<stub id>.json, load when the group is opened, and are written only when they change.
local launch = require("okit.test").launch

local function read(app, path)
  local f = io.open(app.dataDir .. "/okit/data/" .. path, "rb")
  if not f then return nil end
  local bytes = f:read("a")
  f:close()
  return bytes
end

local function groupFile(app, i)
  return "directory/" .. app.models.directory.groups[i].id .. ".json"
end

local function switchEncryption(app, on)
  app:menu()
  app:menuItem("Settings")
  app:set("Encryption", on)
  app:close()
end

describe("groups", function()
  local app
  before_each(function() app = launch("../app.lua") end)

  it("are listed in the menu from their stubs", function()
    app:menu()
    local rows = app:screen().screen.sections[1].rows
    assert.equal("Favourites", rows[1].text)
    assert.equal("To Read", rows[2].text)
  end)

  it("show their books when opened, after a relaunch", function()
    app.models.directory.groups[2].group.books:add(app.models.default.books[1])
    app:relaunch()
    app:menu()
    app:accessory("To Read")
    local snap = app:expectScreen { screen = { id = "group", title = "To Read" } }
    assert.equal("Dune", snap.screen.sections[1].rows[1].text)
  end)

  it("are each stored in a file of their own, sealed like the directory", function()
    for _, stub in ipairs(app.models.directory.groups) do local _ = stub.group end   -- a first read makes the group
    app:store()
    local stored = assert(read(app, groupFile(app, 1)), "the payload file exists")
    assert.equal("OKITENC1", stored:sub(1, 8))
    switchEncryption(app, false)
    local plain = read(app, groupFile(app, 2))
    assert.truthy(plain:find('"type":"Group"', 1, true))
    assert.truthy(plain:find('"color":"#FF9500"', 1, true))
    assert.is_nil(read(app, "directory.json"):find('"books"', 1, true), "the directory holds stubs only")
  end)

  it("write only the group that changed", function()
    switchEncryption(app, false)
    app:store()
    local favourites, directory = read(app, groupFile(app, 1)), read(app, "directory.json")
    app.models.directory.groups[2].group.books:add(app.models.default.books[2])
    app:store()
    assert.equal(favourites, read(app, groupFile(app, 1)))
    assert.equal(directory, read(app, "directory.json"))
    assert.truthy(read(app, groupFile(app, 2)):find(app.models.default.books[2].id, 1, true))
  end)

  it("keep the stub's name and colour equal to the group's, both ways", function()
    local stub = app.models.directory.groups[1]
    stub.group.name = "Loved"
    assert.equal("Loved", stub.name)
    stub.color = "#FF0000"
    assert.equal("#FF0000", stub.group.color)
    app:relaunch()
    app:menu()
    assert.equal("Loved", app:screen().screen.sections[1].rows[1].text)
    assert.equal("#FF0000", app.models.directory.groups[1].group.color)
  end)

  it("lose a deleted book after a relaunch", function()
    local books = app.models.directory.groups[1].group.books
    books:add(app.models.default.books[1])
    books:add(app.models.default.books[2])
    app:menu()
    app:accessory("Favourites")
    app:delete("Dune")
    app:respond("Yes")
    app:relaunch()
    assert.equal(1, #app.models.directory.groups[1].group.books)
  end)

  it("that were never opened are rewritten by the encryption switch too", function()
    app.models.directory.groups[2].group.books:add(app.models.default.books[1])
    app:relaunch()                      -- nothing loaded but the stubs
    switchEncryption(app, false)
    assert.equal('{"okit":', read(app, groupFile(app, 2)):sub(1, 8))
    switchEncryption(app, true)
    assert.equal("OKITENC1", read(app, groupFile(app, 2)):sub(1, 8))
    assert.equal("To Read", app.models.directory.groups[2].group.name)
  end)
end)
