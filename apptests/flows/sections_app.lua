-- Sections named alike merge even when the group order puts them apart (screens.md "List").
local okit = require "okit"
okit.entity("Num", { n = "int" })
okit.entity("Nums", { nums = "[Num]" })
nums = okit.model("Nums", { seed = function(root)
  for i = 1, 5 do root.nums:append(okit.new("Num", { n = i })) end
end })
okit.extension("number", "parity", function(n) return n % 2 == 0 and "even" or "odd" end)
okit.list("nums", {
  type = "Num", dataPath = "nums", cell = { path = "n" },
  group = "n", groupName = "n/parity", groupSortAsc = "#false",   -- keys 5, 4, 3, 2, 1: odd, even, odd, even, odd
})
okit.app { id = "sections", home = "nums" }
