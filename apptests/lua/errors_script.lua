-- app: examples/bookshop/app.lua
-- Errors from the okit module are Lua errors with clear messages, and the app keeps working after them.
local okit = require "okit"
local dune = shop.books[1]

local function fails(fn, fragment)
  local ok, err = pcall(fn)
  assert(not ok, "expected an error containing: " .. fragment)
  assert(tostring(err):find(fragment, 1, true), "got: " .. tostring(err))
end

fails(function() dune.copies = "many" end, 'cannot write "many" to field "copies" of type int')
fails(function() return dune.nmae end, 'Book has no field or method "nmae"')
fails(function() okit.get(dune, "books[0/name") end, 'expected "]" at column 8')
fails(function() okit.get(dune, "nowhere>/x") end, 'unknown model "nowhere"')
fails(function() okit.new("Nope") end, 'unknown entity type "Nope"')
fails(function() shop.books:add(shop.books[2]) end, "already belongs")
fails(function() okit.set(dune, "#5", 1) end, "only a single path can be written")
fails(function() local s = string.rep("x", 2^40) end, "string.rep result too large")
assert(dune.copies == 3, "nothing changed")
print("errors script: all assertions passed")
