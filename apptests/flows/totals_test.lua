local launch = require("okit.test").launch

-- Each section as "title | header line | footer line", and the list's footer.
local function lines(app)
  local s = app:screen().screen
  local out = {}
  for i, section in ipairs(s.sections) do
    out[i] = (section.header or "-") .. " | " .. (section.subheader or "-") .. " | " .. (section.footer or "-")
  end
  out[#out + 1] = s.footer or "-"
  return out
end

describe("totals per section and over the rows shown", function()
  it("shows each section's count and total, and the footer's", function()
    local app = launch("totals_app.lua")
    assert.same({ "Food | 2 items | Total: 7", "Travel | 1 items | Total: 2", "All: 9 in 3 items" }, lines(app))
  end)

  it("follows an edit of an amount, a move to another section, an add and a delete", function()
    local app = launch("totals_app.lua")
    app:tap("Tea")
    app:set("Amount", "10")
    app:back()
    assert.same({ "Food | 2 items | Total: 13", "Travel | 1 items | Total: 2", "All: 15 in 3 items" }, lines(app))
    app:tap("Bread")
    app:set("Category", "Travel")
    app:back()
    assert.same({ "Food | 1 items | Total: 10", "Travel | 2 items | Total: 5", "All: 15 in 3 items" }, lines(app))
    app:add("Taxi")
    assert.same({ "- | 1 items | Total: 0", "Food | 1 items | Total: 10", "Travel | 2 items | Total: 5",
                  "All: 15 in 4 items" }, lines(app))
    app:delete("Tea")
    assert.same({ "- | 1 items | Total: 0", "Travel | 2 items | Total: 5", "All: 5 in 3 items" }, lines(app))
  end)

  it("counts only the rows a search and a scope leave", function()
    local app = launch("totals_app.lua")
    app:search("b")
    assert.same({ "Food | 1 items | Total: 3", "Travel | 1 items | Total: 2", "All: 5 in 2 items" }, lines(app))
    app:search("", "Food")
    assert.same({ "Food | 2 items | Total: 7", "All: 7 in 2 items" }, lines(app))
  end)
end)
