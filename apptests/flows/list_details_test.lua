-- OKit's list details (issue 36 items 10 and 11): the index shows A…Z and #, whatever sections there are; in edit
-- mode with selectPath rows are selected, not deleted.
local launch = require("okit.test").launch

describe("list details", function()
  it("shows OKit's whole index on a grouped list", function()
    local app = launch("list_details_app.lua")
    local s = app:screen().screen
    assert.equal(27, #s.index)
    assert.equal("A", s.index[1])
    assert.equal("Z", s.index[26])
    assert.equal("#", s.index[27])
    local headers = {}
    for i, section in ipairs(s.sections) do headers[i] = section.header end
    assert.equal("A,D,E,Z", table.concat(headers, ","))
  end)

  it("selects rows in edit mode with selectPath and offers no delete there", function()
    local app = launch("list_details_app.lua")
    assert.is_true(app:screen().screen.sections[1].rows[1].delete, "outside edit mode a row can be deleted")
    app:edit(true)
    local row = app:screen().screen.sections[1].rows[1]
    assert.is_false(row.delete)
    local ok, err = pcall(function() app:delete("Anna") end)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("selectPath", 1, true), tostring(err))
    app:select("Anna")
    assert.is_true(app:screen().screen.sections[1].rows[1].selected)
    assert.equal(4, app:screen().screen.rowCount, "nothing deleted")
    app:edit(false)
    app:delete("Anna")
    assert.equal(3, app:screen().screen.rowCount)
  end)
end)
