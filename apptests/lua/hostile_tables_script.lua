-- app: examples/bookshop/app.lua
-- Issue 34, item 8: a table that is a DAG (41 tables, 2^41 values when copied) passed to okit is refused with the
-- limit's error instead of copying for hours; the app keeps working. No duration is asserted: a hang is a timeout.
local okit = require "okit"
local dune = shop.books[1]

local dag = { "x" }
for i = 1, 40 do dag = { dag, dag } end

local function refused(what, fn)
  local ok, err = pcall(fn)
  assert(not ok, what .. ": expected an error")
  assert(tostring(err):find("a table with more than 1048576 values cannot be used as a value", 1, true), what .. ": got " .. tostring(err))
end

refused("okit.set", function() okit.set(dune, "authors", dag) end)
refused("a field", function() dune.authors = dag end)
refused("okit.new", function() okit.new("Book", { name = "x", authors = dag }) end)
refused("append", function() shop.books:append(dag) end)

-- A DAG within the limit is copied whole (each shared table each time it is reached): 2^10 strings.
local small = { "a" }
for i = 1, 10 do small = { small, small } end
local ok, err = pcall(okit.set, dune, "name", small)
assert(not ok and tostring(err):find("cannot write a list", 1, true), "a list, not a string: " .. tostring(err))

dune.copies = 7
assert(dune.copies == 7, "the app goes on")
print("hostile tables script: all assertions passed")
