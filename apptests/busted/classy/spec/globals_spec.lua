-- package.path edited by a spec: vendored modules of the project.
package.path = "./vendor/?.lua;" .. package.path
local describe_value = require "describe_value"
local classy = require "classy"

insulate("an insulated block", function()
  it("sets a global that does not leak", function()
    _G.REGISTRY = {}
    assert.is_table(REGISTRY)
  end)
end)

describe("after the insulated block", function()
  it("does not see its global", function()
    assert.is_nil(REGISTRY)
  end)
end)

expose("an exposed block", function()
  _G.SHARED = classy.class("Shared")
  it("sets a global for the blocks after it", function()
    assert.is_table(SHARED)
  end)
end)

describe("after the exposed block", function()
  it("sees its global", function()
    assert.are.equal("class Shared", describe_value(SHARED))
  end)

  it("describes plain values", function()
    assert.are.equal("number 3", describe_value(3))
  end)
end)
