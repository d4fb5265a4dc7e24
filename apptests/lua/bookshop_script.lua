-- Run by scripts/test: okit-run examples/bookshop/app.lua --data <tmp> --script apptests/lua/bookshop_script.lua
-- Exercises the okit module from Lua against the bookshop; an assertion failure exits 1.
local okit = require "okit"

local dune = shop.books[1]
assert(dune.name == "Dune", "seeded books")
assert(okit.get(shop, "books[0]/name/initial") == "D", "string extension")
assert(okit.get(dune, "genre/ref/name") == "Science Fiction", "ref through a binding")
assert(okit.get(dune, "copies/suffixPlural(#entry)") == "3 Entries", "plural from the strings table")
assert(okit.get(dune, "=price * copies") == 37.5, "expression")
assert(okit.get(dune, "label(#!)") == "Dune!", "entity extension")

-- refs across models
local herbert = directory.authors[1]
dune.author = herbert
dune.authors:add(herbert)
assert(okit.get(dune, "author/ref/name") == "Frank Herbert")
assert(okit.get(dune, "authors.@count") == 1)
assert(tostring(dune.author) == "Frank Herbert", "a ref shows its target's description")

-- methods, computed fields, transactions
assert(dune.formatMarked == "not marked")
okit.call(dune, "setAsMarked()")
assert(dune.marked and dune.formatMarked == "marked")
local ok = pcall(okit.transaction, function() dune.name = "temp"; error("undo") end)
assert(not ok and dune.name == "Dune", "a failed transaction rolls back")

-- dates on the virtual clock
assert(tostring(okit.date.now()) == "2019-05-01T10:00:00Z")
assert(okit.get(dune, "date/formatDate") == "May 1, 2019")

-- collections
local new = okit.new("Book", { name = "Anna Karenina", price = 9.5 })
shop.books:add(new)
assert(shop.books[1] == new and #shop.books == 3)
assert(okit.get(shop, "books/name/sorted/join(', ')") == "Anna Karenina, Dune, Emma")
assert(okit.byId("SCIFI").name == "Science Fiction")
assert(okit.modelof(herbert) == "directory" and okit.typeof(herbert) == "Author")

-- the sandbox
assert(io == nil and os.execute == nil, "sandboxed")
print("bookshop script: all assertions passed")
