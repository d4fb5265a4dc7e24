-- Runs after the app loaded data/ (stored by version 2) and its migrations ran.
local emma = shop.books:find(function(b) return b.name == "Emma" end)
assert(emma.type == "0", "the migration from version 2 did not give Emma's type back: " .. string.format("%q", emma.type))
