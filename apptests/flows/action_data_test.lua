local launch = require("okit.test").launch

-- The cell with an id on the detail screen shown now.
local function cell(app, id)
  for _, section in ipairs(app:screen().screen.sections) do
    for _, row in ipairs(section.rows) do
      if row.id == id then return row end
    end
  end
  error("no cell " .. id)
end

describe("detail cells in German, converted as Action Data converts them", function()
  it("shows a date cell's date in German by its mode, the control in ISO 8601", function()
    local app = launch("action_data_app.lua", { lang = "de" })
    app:tap("Bello")
    assert.equal("26. November 2026", cell(app, "Born").detail)
    assert.equal("26.11.26, 00:48", cell(app, "Born at").detail)
    assert.equal("2026-11-26T00:48:31Z", cell(app, "Born").control.value)
  end)

  it("picks a text from optionValues, shown in German and stored as written", function()
    local app = launch("action_data_app.lua", { lang = "de" })
    app:tap("Bello")
    app:edit(true)
    local kind = cell(app, "Kind")
    assert.same({ "Hund", "Katze", "Vogel", "Golden Retriever" }, kind.control.options)
    assert.equal(1, kind.control.selected)
    assert.equal("Hund", kind.detail)
    app:set("Kind", "Katze")
    assert.equal("Cat", app.models.default.pets[1].kind)
    app:set("Kind", 3)
    assert.equal("Bird", app.models.default.pets[1].kind)
    assert.equal("Vogel", cell(app, "Kind").detail)
    assert.has_error(function() app:set("Kind", "Fisch") end)
  end)

  it("stores a segment's title with byTitle", function()
    local app = launch("action_data_app.lua", { lang = "de" })
    app:tap("Bello")
    app:edit(true)
    assert.equal(0, cell(app, "Size").control.index)
    app:set("Size", 1)
    assert.equal("Large", app.models.default.pets[1].size)
    assert.equal(1, cell(app, "Size").control.index)
  end)

  it("switches a yes/no text and keeps its words", function()
    local app = launch("action_data_app.lua", { lang = "de" })
    app:tap("Bello")
    app:edit(true)
    assert.is_false(cell(app, "Vaccinated").control.value)
    app:set("Vaccinated", true)
    assert.equal("yes", app.models.default.pets[1].vaccinated)
    assert.is_true(cell(app, "Vaccinated").control.value)
  end)

  it("decodes a photo kept as base64 text", function()
    local app = launch("action_data_app.lua", { lang = "de" })
    app:tap("Bello")
    assert.equal("image/png, 70 bytes", cell(app, "Photo").control.value)
    assert.same({}, app:warnings())
  end)
end)
