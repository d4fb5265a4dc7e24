local classy = require "classy"
local helpers = require "spec/helpers"

describe("classy.class", function()
  local Animal, Dog

  before_each(function()
    Animal, Dog = helpers.animals()
  end)

  it("constructs instances through init", function()
    local rex = Dog("Rex")
    assert.are.equal("Rex", rex.name)
    assert.are.equal("Rex barks", rex:speak())
    assert.are.equal("Tom makes a sound", Animal("Tom"):speak())
  end)

  it("knows its instances #inheritance", function()
    assert.is_true(classy.isInstance(Dog("Rex"), Animal))
    assert.is_false(classy.isInstance(Animal("Tom"), Dog))
    assert.is_false(classy.isInstance("Rex", Dog))
  end)

  it("names classes and instances", function()
    assert.are.equal("class Dog", tostring(Dog))
    assert.are.equal("instance of Dog", tostring(Dog("Rex")))
  end)

  it("needs a name", function()
    assert.has_error(function() classy.class() end, "classy.class: a class needs a name")
  end)

  it("calls a class like a function", function()
    -- a class is a callable table: has_error calls it
    local Broken = classy.class("Broken")
    function Broken:init() error("no broken things", 0) end
    assert.has_error(Broken, "no broken things")
  end)
end)

describe("classy.include", function()
  local Walks = { walk = function(self) return self.name .. " walks" end }
  function Walks.included(class) class.walks = true end

  it("copies a mixin's methods #inheritance", function()
    local Animal = helpers.animals()
    classy.include(Animal, Walks)
    assert.are.equal("Tom walks", Animal("Tom"):walk())
    assert.is_true(Animal.walks)
  end)
end)
