local launch = require("okit.test").launch

describe("list sections", function()
  it("merges sections with equal titles, keeping the first one's place and the rows' order", function()
    local app = launch("sections_app.lua")
    local s = app:screen().screen
    assert.equal(2, #s.sections)
    assert.equal("odd", s.sections[1].header)
    assert.equal("even", s.sections[2].header)
    local function texts(section) local t = {} for i, r in ipairs(section.rows) do t[i] = r.text end return table.concat(t, ",") end
    -- No rowSort: the row order is the data's (OKit merges rows into the first key seen, in row order).
    assert.equal("1,3,5", texts(s.sections[1]))
    assert.equal("2,4", texts(s.sections[2]))
  end)
end)
