-- The built-in words in the app's language (issue 36 item 6): run with --lang de. OKit's German for Edit, Done,
-- OK, Yes, No, "Confirm Deletion", the add prompt and validation messages; the app's own string for Cancel wins.
local okit = require "okit"
okit.strings("de", { Pet = "Tier", Pets = "Tiere", name = "Name", Fee = "Gebühr", Cancel = "Lieber nicht",
                     Vaccinate = "Impfen" })
okit.entity("Pet", {
  name = { "string", required = true },
  fee  = { "double", min = 0 },
  kind = { "string", default = "Dog" },
})
okit.entity("Clinic", { pets = "[Pet]" })
clinic = okit.model("Clinic", { seed = function(c)
  c.pets:append(okit.new("Pet", { name = "Bello", fee = 40 }))
end })

okit.list("pets", { type = "Pet", typeName = "Pet", dataPath = "pets", titlePath = "%Pets", cell = { path = "name" },
  addName = "name", segue = "pet", search = "#true", searchFilters = "#Dog,#Cat", searchFilterPath = "kind",
  more = "#true", moreActions = "%Vaccinate" })
okit.detail("pet", { titlePath = "name", sections = { {
  okit.cell.text { path = "%Fee", textPath = "fee" },
} } })
okit.app { home = "pets" }
