-- Shared by the specs: a small class hierarchy.
local classy = require "classy"

local helpers = {}

function helpers.animals()
  local Animal = classy.class("Animal")
  function Animal:init(name) self.name = name end
  function Animal:speak() return self.name .. " makes a sound" end
  local Dog = classy.class("Dog", Animal)
  function Dog:speak() return self.name .. " barks" end
  return Animal, Dog
end

return helpers
