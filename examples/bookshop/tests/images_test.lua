-- Book covers are images: metadata in the model, bytes in default/_image/<id>.png, loaded on first read, the file
-- deleted after a store once the cover is gone; a format that does not match the bytes is refused.
local launch = require("okit.test").launch

local function cell(snap, id)
  for _, section in ipairs(snap.screen.sections) do
    for _, row in ipairs(section.rows) do
      if row.id == id then return row end
    end
  end
end

local function read(app, path)
  local f = io.open(app.dataDir .. "/okit/data/" .. path, "rb")
  if not f then return nil end
  local bytes = f:read("a")
  f:close()
  return bytes
end

local function coverFile(book) return "default/_image/" .. book.cover.id .. ".png" end

describe("book covers", function()
  local app, books
  before_each(function()
    app = launch("../app.lua")
    books = app.models.default.books
  end)

  it("show in the detail with their label", function()
    local snap = app:tap("Dune")
    assert.equal("Cover of Dune", cell(snap, "Cover").control.value)
    assert.equal(69, books[1].cover.size)
    assert.equal("image/png", books[1].cover.format)
  end)

  it("keep their bytes beside the model, not in it", function()
    app:store()
    local png = assert(read(app, coverFile(books[1])))
    assert.equal("\137PNG", png:sub(1, 4))
    assert.equal(69, #png)
    assert.is_nil(read(app, "default.json"):find("IHDR", 1, true))
    assert.truthy(read(app, "default.json"):find('"sha256":"', 1, true))
  end)

  it("are added by the button and survive a relaunch", function()
    local snap = app:tap("Emma")
    local enabled = {}
    for _, b in ipairs(snap.screen.buttons) do enabled[b.title] = b.enabled end
    assert.same({ Edit = true, Mark = true, ["Add Cover"] = true, ["Remove Cover"] = false }, enabled)
    app:button("Add Cover")
    app:relaunch()
    books = app.models.default.books     -- a relaunch loads new entities
    assert.equal("Cover of Emma", books[2].cover.label)
    assert.equal(read(app, coverFile(books[1])), okit.data.bytes(books[2].cover), "the same bytes, read lazily")
  end)

  it("leave no file behind once removed and stored", function()
    app:store()
    local file = coverFile(books[1])
    assert.truthy(read(app, file))
    app:tap("Dune")
    app:button("Remove Cover")
    assert.is_nil(books[1].cover)
    app:store()
    assert.is_nil(read(app, file))
  end)

  it("refuse bytes that are not what the format says, and nothing changes", function()
    local ok, err = pcall(okit.data.write, books[2], "cover", "GIF89a…", "image/png")
    assert.is_false(ok)
    assert.truthy(err:find("image/png bytes", 1, true), err)
    assert.is_nil(books[2].cover)
    ok, err = pcall(okit.data.write, books[2], "cover", COVER or "\137PNG", "")
    assert.is_false(ok)
    assert.truthy(err:find("empty format", 1, true), err)
  end)
end)
