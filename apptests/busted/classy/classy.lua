-- A class library: classes with inheritance, mixins, constructors and __tostring.
local classy = {}

local Object = { name = "Object", static = {} }
Object.__index = Object

local function instantiate(class, ...)
  local instance = setmetatable({}, class.__instance)
  if instance.init then instance:init(...) end
  return instance
end

--- A new class named `name`, a subclass of `super` (default Object).
function classy.class(name, super)
  if type(name) ~= "string" then error("classy.class: a class needs a name", 2) end
  super = super or Object
  local class = { name = name, super = super, static = setmetatable({}, { __index = super.static }) }
  class.__instance = setmetatable({ __tostring = function(self) return "instance of " .. class.name end }, { __index = super.__instance })
  class.__instance.__index = class.__instance
  class.__instance.class = class
  return setmetatable(class, {
    __call = instantiate,
    __index = class.__instance,
    __newindex = function(_, k, v) class.__instance[k] = v end,
    __tostring = function() return "class " .. name end,
  })
end

--- Whether `value` is an instance of `class` or of one of its subclasses.
function classy.isInstance(value, class)
  if type(value) ~= "table" then return false end
  local c = rawget(getmetatable(value) or {}, "class")
  while c do
    if c == class then return true end
    c = c.super
  end
  return false
end

--- Copies a mixin's functions into the class.
function classy.include(class, mixin)
  for k, v in pairs(mixin) do
    if k ~= "included" then class[k] = v end
  end
  if mixin.included then mixin.included(class) end
  return class
end

Object.__instance = { __tostring = function() return "instance of Object" end }
Object.__instance.__index = Object.__instance

return classy
