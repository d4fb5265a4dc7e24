-- A spec file that does not load: busted names it "suite spec/missing_spec.lua".
local absent = require("absent_module")

describe("never declared", function()
  it("does not run", function() assert.is_table(absent) end)
end)
