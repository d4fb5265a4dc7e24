-- examples/bookshop/tests/assertions_test.lua
local launch = require("okit.test").launch

describe("assertions", function()
  it("reads the way busted writes them", function()
    assert.are.same({ 1, { 2 } }, { 1, { 2 } })
    assert.are_not.equal({}, {})                 -- two tables: same contents, not equal
    assert.is_not.Nil(false)
    assert.near(0.3, 0.1 + 0.2, 1e-9)
    assert.is_string(os.date("%Y"))
    assert.has.errors(function() error("no such book") end, "no such book")
    assert.error_matches(function() error("row 12 is missing") end, "row %d+")
    assert.has_no.errors(function() return 1 end)
    assert.unique({ "Dune", "Emma" })
  end)
end)
